import { z } from 'zod';
import { isUscc } from './uscc.ts';

// Spec §5 field validators, shared by the web forms (antd rules) and the server (zod schemas).
// Predicate convention: isIP and isPhone return true for '' because the spec says "empty allowed";
// every other predicate returns false for ''. The antd rules let any empty value through regardless,
// since emptiness is the job of antd's own `required` rule.

/** User-facing messages; the server prefixes the field label, so the texts stay exactly as the spec words them. */
export const MESSAGES = Object.freeze({
  external: '请输入正确的链接地址',
  email: '请输入正确的邮箱地址',
  mobile: '请输入正确的11位手机号码',
  ip: '请输入正确的IP地址',
  phone: '请输入正确的电话号码或者固话号码',
  chinese: '请输入中文',
  taxNumber: '请输入正确的税号',
  uscc: '请输入正确的统一社会信用代码',
  percent1To100: '请输入1-100且最多六位小数',
  percent0To100: '请输入0-100且最多六位小数',
  headcount: '请输入正确的单位总人数',
} as const);

export type ValidatorName = keyof typeof MESSAGES;

const EXTERNAL = /^(https?:|mailto:|tel:)/;
// Pragmatic address check: dot-separated local part, at least one dot in the domain, alphabetic TLD.
const EMAIL =
  /^[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;
const MOBILE = /^1\d{10}$/;
// No leading zeros in an octet: '010' is octal to some parsers, so it is ambiguous.
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IP = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const LANDLINE = /^0\d{2,3}-\d{7,8}$/;
const DASHED_PHONE = /^\d{3}-\d{3}-\d{4}$/;
const PHONE_MOBILE = /^1[3-9]\d{9}$/;
// The CJK Unified Ideographs block (U+4E00–U+9FFF), as the spec names it.
const CHINESE = /^[\u4e00-\u9fff]+$/;
// Legacy tax numbers: 3 letters + 12 digits (the spec does not fix the letter case), or 18 digits.
const LEGACY_TAX_NUMBER = /^(?:[A-Za-z]{3}\d{12}|\d{18})$/;
// A plain decimal with up to six fractional digits; no sign, exponent or redundant leading zeros.
const DECIMAL_6 = /^(?:0|[1-9]\d*)(?:\.\d{1,6})?$/;
const HEADCOUNT = /^(?:0|[1-9]\d{0,5})$/;

export function isExternal(value: string): boolean {
  return EXTERNAL.test(value);
}

export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

export function isMobile(value: string): boolean {
  return MOBILE.test(value);
}

/** Empty allowed: '' is valid. */
export function isIP(value: string): boolean {
  return value === '' || IP.test(value);
}

/** Empty allowed: '' is valid. */
export function isPhone(value: string): boolean {
  return value === '' || LANDLINE.test(value) || DASHED_PHONE.test(value) || PHONE_MOBILE.test(value);
}

export function isChinese(value: string): boolean {
  return CHINESE.test(value);
}

/** Legacy 15/18-character tax numbers, or any code passing the GB 32100 USCC check. */
export function isTaxNumber(value: string): boolean {
  return LEGACY_TAX_NUMBER.test(value) || isUscc(value);
}

/** 0 < value ≤ 100 with at most six decimals. */
export function isPercent1To100(value: string): boolean {
  if (!DECIMAL_6.test(value)) return false;
  // At most 3 integer digits + 6 decimals, so the double comparison is exact enough at the 0 and 100 boundaries.
  const n = Number(value);
  return n > 0 && n <= 100;
}

/** 0 ≤ value ≤ 100 with at most six decimals. */
export function isPercent0To100(value: string): boolean {
  return DECIMAL_6.test(value) && Number(value) <= 100;
}

/** Integer from 0 to 999999. */
export function isHeadcount(value: string): boolean {
  return HEADCOUNT.test(value);
}

const PREDICATES: Readonly<Record<ValidatorName, (value: string) => boolean>> = Object.freeze({
  external: isExternal,
  email: isEmail,
  mobile: isMobile,
  ip: isIP,
  phone: isPhone,
  chinese: isChinese,
  taxNumber: isTaxNumber,
  uscc: isUscc,
  percent1To100: isPercent1To100,
  percent0To100: isPercent0To100,
  headcount: isHeadcount,
});

/** Structurally compatible with antd's RuleObject, so shared needs no antd dependency. */
export type FieldRule = { validator: (rule: unknown, value: unknown) => Promise<void> };

function fieldRule(name: ValidatorName): FieldRule {
  const test = PREDICATES[name];
  const message = MESSAGES[name];
  return Object.freeze({
    validator: (_rule: unknown, value: unknown): Promise<void> => {
      if (value === undefined || value === null || value === '') return Promise.resolve();
      // InputNumber hands over numbers; validate their canonical string form.
      return test(String(value)) ? Promise.resolve() : Promise.reject(new Error(message));
    },
  });
}

/** antd Form rules: `rules={[{ required: true }, rules.ip]}`. */
export const rules: Readonly<Record<ValidatorName, FieldRule>> = Object.freeze({
  external: fieldRule('external'),
  email: fieldRule('email'),
  mobile: fieldRule('mobile'),
  ip: fieldRule('ip'),
  phone: fieldRule('phone'),
  chinese: fieldRule('chinese'),
  taxNumber: fieldRule('taxNumber'),
  uscc: fieldRule('uscc'),
  percent1To100: fieldRule('percent1To100'),
  percent0To100: fieldRule('percent0To100'),
  headcount: fieldRule('headcount'),
});

// zod 4 deprecates `message` in favour of `error`; a string `error` becomes the message verbatim.
function zstring(name: ValidatorName) {
  return z.string().refine(PREDICATES[name], { error: MESSAGES[name] });
}

/** zod schemas for server-side validation. Percentages stay strings to keep their exact decimals. */
export const zfield = Object.freeze({
  external: zstring('external'),
  email: zstring('email'),
  mobile: zstring('mobile'),
  ip: zstring('ip'),
  phone: zstring('phone'),
  chinese: zstring('chinese'),
  taxNumber: zstring('taxNumber'),
  uscc: zstring('uscc'),
  percent1To100: zstring('percent1To100'),
  percent0To100: zstring('percent0To100'),
  // Accepts 5 or '5' and outputs the number; z.coerce is avoided because it would turn '' or true into 0/1.
  headcount: z
    .union([z.string(), z.number()])
    .refine((value) => isHeadcount(String(value)), { error: MESSAGES.headcount })
    .transform((value) => Number(value)),
});

/** A required, trimmed text field of at most `max` characters, labelled for field-naming error messages. */
export function requiredText(title: string, max: number) {
  return z
    .string()
    .trim()
    .min(1, { error: '不能为空' })
    .max(max, { error: `不能超过 ${max} 个字符` })
    .meta({ title });
}
