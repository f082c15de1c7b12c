import { describe, expect, it } from 'vitest';
import { applicationDraftForm, isIdCardNumber } from './application.ts';

describe('identity card numbers (GB 11643, the individual policyholder)', () => {
  it('accepts 18 characters with a real birth date and the MOD 11-2 check character', () => {
    expect(isIdCardNumber('11010519491231002X')).toBe(true);
    expect(isIdCardNumber('321102198506151237')).toBe(true);
    expect(isIdCardNumber('321112199001010014')).toBe(true);
  });
  it('refuses a wrong check character, an impossible date, the old 15 digits, a lower-case x', () => {
    expect(isIdCardNumber('110105194912310021')).toBe(false);
    expect(isIdCardNumber('321102198506151238')).toBe(false);
    expect(isIdCardNumber('320102199002300011')).toBe(false); // 30 February
    expect(isIdCardNumber('440524188001010014')).toBe(false); // born before 1900
    expect(isIdCardNumber('320311770706001')).toBe(false);
    expect(isIdCardNumber('11010519491231002x')).toBe(false);
    expect(isIdCardNumber('01010519491231002X')).toBe(false);
  });
  it('the draft form trims and upper-cases the number, names the field when wrong, null clears', () => {
    expect(
      applicationDraftForm.parse({ version: 0, insuredIdNumber: ' 11010519491231002x ' }).insuredIdNumber,
    ).toBe('11010519491231002X');
    expect(applicationDraftForm.parse({ version: 0, insuredIdNumber: '' }).insuredIdNumber).toBeNull();
    const bad = applicationDraftForm.safeParse({ version: 0, insuredIdNumber: '110105194912310021' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['insuredIdNumber'],
      message: '请输入正确的18位居民身份证号码',
    });
  });
});
