// Password rules (ASVS 5.0 V6.2), shared by the web app (live meter and form rules, the login's psPower) and the
// server (which recomputes the strength and never trusts the client's value). No zod here; the forms are in
// ./password-forms.ts. The login page loads it only when the form is sent (it carries the breached list).
//
// - At least 8 characters, at most 64 (V6.2.1, V6.2.9); checked as typed, never truncated or case-folded.
// - Not one of the 10,000 most common breached passwords (./data/common-passwords.json, its README says where
//   it comes from; V6.2.4, V6.2.12), nor a common or context word dressed up with digits and symbols (V6.2.11).
// - 15 characters or more: a passphrase, with no composition rule at all (V6.2.5); under 15, at least 3 of the 4
//   classes (lower case, upper case, digit, symbol), so a short password is not a dictionary word.
// - At least 5 different characters (not aaaa…, Aa1!Aa1!…).
import { PASSWORD_MAX_LENGTH } from './constants.ts';
import BREACHED from './data/common-passwords.json' with { type: 'json' };

/** 0 = not acceptable; 1..3 = acceptable, increasingly strong. */
export type PasswordStrength = 0 | 1 | 2 | 3;

export const PASSWORD_MIN_LENGTH = 8;
/** From this length a password is a passphrase: no composition rule. */
export const PASSPHRASE_LENGTH = 15;

/** Why a password is refused, worded for a form's error beside the field (the field's name goes before it). */
export const PASSWORD_PROBLEMS = Object.freeze({
  short: `至少 ${PASSWORD_MIN_LENGTH} 个字符`,
  long: `不能超过 ${PASSWORD_MAX_LENGTH} 个字符`,
  common: '是常见密码或常见词加数字、符号，容易被猜中，请换一个',
  repetitive: '重复字符太多，请至少使用 5 个不同的字符',
  classes: `不足 ${PASSPHRASE_LENGTH} 位时须包含大写字母、小写字母、数字、符号中的至少 3 类（${PASSPHRASE_LENGTH} 位及以上的密码短语不限字符类型）`,
} as const);

/** The rules in one sentence, for the hint under a new-password field. */
export const PASSWORD_RULES_TEXT = `至少 ${PASSWORD_MIN_LENGTH} 位，不能是常见密码；不足 ${PASSPHRASE_LENGTH} 位时须包含大写字母、小写字母、数字、符号中的至少 3 类，${PASSPHRASE_LENGTH} 位及以上的密码短语不限字符类型`;

/** Labels for a strength meter, indexed by the score. */
export const PASSWORD_STRENGTH_LABELS = Object.freeze(['太弱', '一般', '良好', '强'] as const);

let breached: Set<string> | undefined;
/** The breached list, lower-cased (built on first use). */
function breachedSet(): Set<string> {
  breached ??= new Set((BREACHED as string[]).map((p) => p.toLowerCase()));
  return breached;
}

// Common Chinese-context passwords that the breached list (of mostly English-language leaks) lacks.
const COMMON_PASSWORDS = new Set([
  'password@123',
  'password!',
  'p@ssw0rd',
  'p@ssword',
  'admin123',
  'admin@123',
  'admin123!',
  'admin@2024',
  'admin@2025',
  'admin@2026',
  'root@123',
  'qwe123!@#',
  '1qaz@wsx',
  '1qaz!qaz',
  'abc@1234',
  'abcd@1234',
  'aa123456',
  'aa123456!',
  'welcome@123',
  'test@123',
  'huawei@123',
  'huawei123',
  'woaini1314',
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
  // this system's own name
  'piibs',
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
  if (breachedSet().has(lower) || COMMON_PASSWORDS.has(lower)) return true;
  const letters = lower.replace(/[^a-z]/g, '');
  if (COMMON_WORDS.has(letters)) return true;
  const unleet = [...lower].map((c) => LEET[c] ?? c).join('');
  if (breachedSet().has(unleet) || COMMON_PASSWORDS.has(unleet)) return true;
  return COMMON_WORDS.has(unleet.replace(/[^a-z]/g, ''));
}

/** Why a new password is refused (one of PASSWORD_PROBLEMS), or null when it is acceptable. */
export function passwordProblem(pw: string): string | null {
  if (typeof pw !== 'string' || pw.length < PASSWORD_MIN_LENGTH) return PASSWORD_PROBLEMS.short;
  if (pw.length > PASSWORD_MAX_LENGTH) return PASSWORD_PROBLEMS.long;
  if (isCommon(pw)) return PASSWORD_PROBLEMS.common;
  if (new Set(pw).size < 5) return PASSWORD_PROBLEMS.repetitive;
  if (pw.length < PASSPHRASE_LENGTH && classesOf(pw) < 3) return PASSWORD_PROBLEMS.classes;
  return null;
}

/**
 * 0 when refused (see passwordProblem); otherwise 1, plus 1 for 12+ characters, plus 1 for all four classes
 * (at most 3). A 15+-character passphrase of lower-case words scores 2.
 */
export function passwordStrength(pw: string): PasswordStrength {
  if (passwordProblem(pw) !== null) return 0;
  let score = 1;
  if (pw.length >= 12) score++;
  if (classesOf(pw) === 4) score++;
  return Math.min(score, 3) as PasswordStrength;
}
