// Password strength, shared by the web app (live meter, the login's psPower) and the server (which
// recomputes it and never trusts the client's value). No zod here, so the login page can import it cheaply.

/** 0 = not acceptable; 1..3 = acceptable, increasingly strong. */
export type PasswordStrength = 0 | 1 | 2 | 3;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 64;

/** Why a password scores 0, worded for a form's error message. */
export const PASSWORD_RULE_MESSAGE =
  '密码至少 8 位，须包含大写字母、小写字母、数字、符号中的至少 3 类，且不能是常见密码';

/** Labels for a strength meter, indexed by the score. */
export const PASSWORD_STRENGTH_LABELS = Object.freeze(['太弱', '一般', '良好', '强'] as const);

// Whole passwords that leak lists put at the top (lower-cased), including ones that pass the class rule.
const COMMON_PASSWORDS = new Set([
  '12345678',
  '123456789',
  '1234567890',
  '87654321',
  '11111111',
  '88888888',
  '66666666',
  '00000000',
  'password',
  'password1',
  'password123',
  'password@123',
  'password!',
  'p@ssw0rd',
  'p@ssword',
  'passw0rd',
  'admin123',
  'admin@123',
  'admin123!',
  'admin@2024',
  'admin@2025',
  'admin@2026',
  'root@123',
  'qwerty123',
  'qwe123!@#',
  '1qaz2wsx',
  '1qaz@wsx',
  '1qaz!qaz',
  'qazwsx123',
  'abc12345',
  'abc@1234',
  'abcd1234',
  'abcd@1234',
  'a1234567',
  'aa123456',
  'aa123456!',
  'iloveyou',
  'welcome1',
  'welcome@123',
  'changeme',
  'letmein1',
  'test@123',
  'test1234',
  'huawei@123',
  'huawei123',
  'woaini1314',
  'zxcvbnm1',
  'asdf1234',
]);

// Words that, decorated only with digits and symbols (Admin@2026, P@ssw0rd!, Qwerty#1), stay guessable.
const COMMON_WORDS = new Set([
  'password',
  'passwd',
  'pass',
  'admin',
  'administrator',
  'root',
  'user',
  'test',
  'guest',
  'login',
  'welcome',
  'qwerty',
  'qwertyuiop',
  'qwer',
  'qwe',
  'asdf',
  'asdfgh',
  'zxcvbn',
  'zxcvbnm',
  'qaz',
  'qazwsx',
  'wsx',
  'abc',
  'abcd',
  'abcdef',
  'abcdefg',
  'aa',
  'aaa',
  'iloveyou',
  'letmein',
  'changeme',
  'secret',
  'master',
  'monkey',
  'dragon',
  'sunshine',
  'princess',
  'football',
  'superman',
  'woaini',
  'huawei',
  'china',
]);

const LEET: Readonly<Record<string, string>> = {
  '@': 'a',
  '4': 'a',
  '0': 'o',
  '1': 'i',
  '3': 'e',
  $: 's',
  '5': 's',
  '7': 't',
};

function classesOf(pw: string): number {
  let n = 0;
  if (/[a-z]/.test(pw)) n++;
  if (/[A-Z]/.test(pw)) n++;
  if (/\d/.test(pw)) n++;
  if (/[^A-Za-z0-9]/.test(pw)) n++;
  return n;
}

function isCommon(pw: string): boolean {
  const lower = pw.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return true;
  const letters = lower.replace(/[^a-z]/g, '');
  if (COMMON_WORDS.has(letters)) return true;
  const unleet = [...lower].map((c) => LEET[c] ?? c).join('');
  if (COMMON_PASSWORDS.has(unleet)) return true;
  return COMMON_WORDS.has(unleet.replace(/[^a-z]/g, ''));
}

/**
 * 0 when shorter than 8, when fewer than 3 of the 4 classes (lower, upper, digit, symbol) appear, when it is
 * a common password (or a common word decorated with digits/symbols), or when it repeats too few characters;
 * otherwise 1, plus 1 for 12+ characters, plus 1 for all four classes (at most 3).
 */
export function passwordStrength(pw: string): PasswordStrength {
  if (typeof pw !== 'string' || pw.length < PASSWORD_MIN_LENGTH) return 0;
  const classes = classesOf(pw);
  if (classes < 3) return 0;
  if (new Set(pw).size < 5) return 0;
  if (isCommon(pw)) return 0;
  let score = 1;
  if (pw.length >= 12) score++;
  if (classes === 4) score++;
  return Math.min(score, 3) as PasswordStrength;
}
