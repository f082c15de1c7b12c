import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loginForm, maskPhone, profileForm } from './auth.ts';
import BREACHED from './data/common-passwords.json' with { type: 'json' };
import { PASSWORD_PROBLEMS, PASSWORD_RULES_TEXT, passwordProblem, passwordStrength } from './password.ts';
import { changePasswordForm, initForm } from './password-forms.ts';

describe('passwordStrength', () => {
  it.each(['', 'Ab1!', 'Ab1!xyz'])('scores %j 0: shorter than 8', (pw) => {
    expect(passwordStrength(pw)).toBe(0);
    expect(passwordProblem(pw)).toBe(PASSWORD_PROBLEMS.short);
  });

  it.each(['tigerplum', 'tigerplum7', 'TIGERPLUM7', 'tiger!plum', 'kitchenwindow'])(
    'scores %j 0: under 15 characters with fewer than 3 classes',
    (pw) => {
      expect(passwordStrength(pw)).toBe(0);
      expect(passwordProblem(pw)).toBe(PASSWORD_PROBLEMS.classes);
    },
  );

  it.each([
    'correct horse battery staple',
    'longpasswordonlylower',
    '我的猫咪每天早上六点叫我起床吃饭',
    'kitchen window 2026',
  ])('accepts the passphrase %j: 15+ characters need no composition', (pw) => {
    expect(passwordProblem(pw)).toBeNull();
    expect(passwordStrength(pw)).toBeGreaterThanOrEqual(2);
  });

  it.each([
    '12345678',
    'password',
    'admin123',
    'Admin@123',
    'P@ssw0rd',
    'P@ssw0rd!',
    'Password1!',
    'Qwerty@123',
    'Admin@2026',
    'Abcd@1234',
    '1Qaz@wsx',
    'Piibs@2026',
  ])('scores %j 0: a common password or a common word dressed up', (pw) => {
    expect(passwordStrength(pw)).toBe(0);
    expect(passwordProblem(pw)).toBe(PASSWORD_PROBLEMS.common);
  });

  it('refuses every password of the breached list, in any case, and the list is the real one', () => {
    const list = BREACHED as string[];
    // The entries of 8+ characters of the 10,000 (the README beside the file says where they come from).
    expect(list).toHaveLength(3337);
    expect(list.slice(0, 4)).toEqual(['password', '12345678', '123456789', 'baseball']);
    expect(list.every((p) => p.length >= 8)).toBe(true);
    for (const pw of list) {
      expect(passwordStrength(pw), pw).toBe(0);
      expect(passwordStrength(pw.toUpperCase()), pw).toBe(0);
    }
    // Ones the former rules (8+, 3 classes, a short hand-made list) accepted.
    for (const pw of ['Michael1', 'Trustno1', 'Jordan23', 'Mustang1', 'Turkey50', 'Misfit99'])
      expect(passwordProblem(pw), pw).toBe(PASSWORD_PROBLEMS.common);
  });

  it('scores too few distinct characters 0', () => {
    expect(passwordStrength('Aa1!Aa1!Aa1!')).toBe(0);
    expect(passwordProblem('zzzzzzzzzzzzzzzzzzzz')).toBe(PASSWORD_PROBLEMS.repetitive);
  });

  it('refuses more than 64 characters', () => {
    expect(passwordProblem(`Zq8#vN2$kL9@wR4!${'x'.repeat(49)}`)).toBe(PASSWORD_PROBLEMS.long);
  });

  it('Demo@2026 scores at least 1', () => {
    expect(passwordStrength('Demo@2026')).toBeGreaterThanOrEqual(1);
  });

  it('grows with length and classes', () => {
    expect(passwordStrength('Tiger7plum')).toBe(1);
    expect(passwordStrength('Tiger7plumHill')).toBe(2);
    expect(passwordStrength('Tiger7plum!')).toBe(2);
    expect(passwordStrength('Tiger7plum!Hill')).toBe(3);
  });

  it('always answers 0..3 and never 0 for a long 4-class random string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        const v = passwordStrength(s);
        expect([0, 1, 2, 3]).toContain(v);
        expect(v === 0).toBe(passwordProblem(s) !== null);
      }),
    );
    expect(passwordStrength('Zq8#vN2$kL9@wR4!')).toBe(3);
  });

  it('states the rules in one sentence for the form', () => {
    expect(PASSWORD_RULES_TEXT).toBe(
      '至少 8 位，不能是常见密码；不足 15 位时须包含大写字母、小写字母、数字、符号中的至少 3 类，15 位及以上的密码短语不限字符类型',
    );
  });
});

describe('auth schemas', () => {
  it('loginForm takes the form fields (psPower as a string)', () => {
    expect(
      loginForm.parse({ username: ' alice ', password: 'x', code: 'AbCd', uuid: 'u', psPower: '2' }),
    ).toMatchObject({
      username: 'alice',
    });
  });

  it('initForm and changePasswordForm refuse weak passwords', () => {
    expect(
      initForm.safeParse({ organisationName: '测试保险', username: 'admin', password: 'admin123' }).success,
    ).toBe(false);
    expect(
      initForm.safeParse({ organisationName: '测试保险', username: 'admin', password: 'Demo@2026' }).success,
    ).toBe(true);
    expect(changePasswordForm.safeParse({ oldPass: 'x', newPass: 'password' }).success).toBe(false);
    const refused = changePasswordForm.safeParse({ oldPass: 'x', newPass: 'Mustang1' });
    expect(refused.error?.issues.map((i) => i.message)).toEqual([PASSWORD_PROBLEMS.common]);
    expect(
      changePasswordForm.safeParse({ oldPass: 'x', newPass: 'correct horse battery staple' }).success,
    ).toBe(true);
  });

  it('profileForm accepts a mobile, the masked mobile, or empty', () => {
    for (const phone of ['13812345678', '138****5678', '']) {
      expect(profileForm.safeParse({ nickName: 'a', phone }).success, phone).toBe(true);
    }
    expect(profileForm.safeParse({ nickName: 'a', phone: '1381234' }).success).toBe(false);
  });

  it('maskPhone keeps the first 3 and last 4 digits', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
    expect(maskPhone(null)).toBeNull();
  });
});
