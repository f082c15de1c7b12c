import { describe, expect, it } from 'vitest';
import { customerCreateForm } from './customer.ts';
import { sectionOfDivision } from './industry.ts';
import { usccCheckChar } from './uscc.ts';

const body = '91321100MA1XXXXXX';
const good = `${body}${usccCheckChar(body)}`;
const badCheck = `${body}${usccCheckChar(body) === '0' ? '1' : '0'}`;

const base = {
  uscc: good,
  name: '镇江示例安全科技有限公司',
  industrySection: 'C',
  industryDivision: '34',
  region: '321111',
  address: '镇江市润州区示例路 1 号',
  legalRepresentative: '张三',
  contactName: '李四',
  phone: '13800001234',
  headcount: 50,
};

const issueOf = (input: Record<string, unknown>) => {
  const r = customerCreateForm.safeParse({ ...base, ...input });
  return r.success ? null : { path: r.error.issues[0]!.path.join('.'), message: r.error.issues[0]!.message };
};

describe('customer code: GB 32100 unified social credit code, or the spec’s tax-number forms', () => {
  it.each([
    ['a valid GB 32100 code', good, null],
    ['a valid code typed in lower case (normalised)', good.toLowerCase(), null],
    ['a published code', '91440300708461136T', null],
    ['the 15-character tax form (3 letters + 12 digits)', 'ABC123456789012', null],
    ['the 18-digit tax form', '123456789012345678', null],
    ['a bad check character', badCheck, '请输入正确的统一社会信用代码'],
    ['17 characters', body, '请输入正确的统一社会信用代码'],
    ['19 characters', `${good}0`, '请输入正确的统一社会信用代码'],
    ['14 characters of the tax form', 'ABC12345678901', '请输入正确的统一社会信用代码'],
    [
      'a letter outside the alphabet (I)',
      `91321100MA1XXXXXI${usccCheckChar(body)}`,
      '请输入正确的统一社会信用代码',
    ],
  ])('%s: %s', (_what, uscc, message) => {
    const issue = issueOf({ uscc });
    expect(issue?.message ?? null).toBe(message);
    if (issue) expect(issue.path).toBe('uscc');
  });

  it('stores the code upper-cased', () => {
    expect(customerCreateForm.parse({ ...base, uscc: ` ${good.toLowerCase()} ` }).uscc).toBe(good);
  });
});

describe('customer fields', () => {
  it.each([
    [{ industryDivision: '51' }, 'industryDivision', '不属于所选行业门类'],
    [{ phone: '12345' }, 'phone', '请输入正确的电话号码或者固话号码'],
    [{ phone: '' }, 'phone', '不能为空'],
    [{ headcount: 1_000_000 }, 'headcount', '请输入正确的单位总人数'],
    [{ region: '32' }, 'region', '请选择地区'],
    [{ caFingerprint: 'abc' }, 'caFingerprint', '请输入证书的 SHA-256 指纹（64 位十六进制）'],
  ])('%j → %s: %s', (input, path, message) => {
    expect(issueOf(input)).toEqual({ path, message });
  });

  it('accepts landlines and normalises a colon-separated fingerprint', () => {
    const fp = 'AB:'.repeat(31).concat('AB');
    const parsed = customerCreateForm.parse({
      ...base,
      phone: '0511-85551234',
      caFingerprint: fp,
      headcount: '7',
    });
    expect(parsed.caFingerprint).toBe('ab'.repeat(32));
    expect(parsed.headcount).toBe(7);
  });

  it.each([
    ['01', 'A'],
    ['34', 'C'],
    ['48', 'E'],
    ['97', 'T'],
    ['98', null],
    ['C', null],
  ])('division %s is in section %s', (division, section) => {
    expect(sectionOfDivision(division)).toBe(section);
  });
});
