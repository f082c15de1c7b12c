import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changePasswordForm, initForm, loginForm, maskPhone, profileForm } from './auth.ts';
import { passwordStrength } from './password.ts';

describe('passwordStrength', () => {
  it.each(['', 'Ab1!', 'Ab1!xyz'])('scores %j 0: shorter than 8', (pw) => {
    expect(passwordStrength(pw)).toBe(0);
  });

  it.each(['abcdefgh', 'abcdefg1', 'ABCDEFG1', '12345678', 'abcd!@#$', 'longpasswordonlylower'])(
    'scores %j 0: fewer than 3 classes',
    (pw) => expect(passwordStrength(pw)).toBe(0),
  );

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
  ])('scores %j 0: a common password or a common word dressed up', (pw) =>
    expect(passwordStrength(pw)).toBe(0),
  );

  it('scores too few distinct characters 0', () => {
    expect(passwordStrength('Aa1!Aa1!Aa1!')).toBe(0);
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
      }),
    );
    expect(passwordStrength('Zq8#vN2$kL9@wR4!')).toBe(3);
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
