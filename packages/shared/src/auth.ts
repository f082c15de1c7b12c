// Sign-in and personal-center payloads and answers, shared by the web forms and the server's routes (which publish
// them in the OpenAPI document). Field titles name the field in errors. The forms that set a new password are in
// ./password-forms.ts: they carry the breached-password list, which the pages loading this module do not need.
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './constants.ts';
import { CHANNELS } from './role-codes.ts';
import { isEmail, isMobile, MESSAGES, requiredText } from './validators.ts';

export {
  CHANNELS,
  type Channel,
  JUMP_URLS,
  ROLE_CODES,
  USER_CHANNEL_LABELS,
} from './role-codes.ts';

export const USERNAME_PATTERN = /^[A-Za-z0-9_.@-]{2,32}$/;
export const USERNAME_MESSAGE = '用户名为 2–32 位字母、数字或 _ . @ -';

/** A masked mobile as the server shows it (138****5678); sent back unchanged it means "keep the number". */
export const MASKED_MOBILE = /^1\d{2}\*{4}\d{4}$/;

/** Masks the middle of a phone number: 13812345678 → 138****5678. */
export function maskPhone(phone: string | null | undefined): string | null {
  if (!phone) return null;
  if (phone.length < 7) return '*'.repeat(phone.length);
  return `${phone.slice(0, 3)}${'*'.repeat(phone.length - 7)}${phone.slice(-4)}`;
}

/** POST /api/auth/login (form-encoded). `code`/`uuid` are checked unless the captcha is switched off. */
export const loginForm = z.object({
  username: z.string().trim().min(1, { error: '不能为空' }).max(64).meta({ title: '用户名' }),
  password: z.string().min(1, { error: '不能为空' }).max(PASSWORD_MAX_LENGTH).meta({ title: '密码' }),
  code: z.string().trim().max(16).optional().meta({ title: '验证码' }),
  uuid: z.string().max(64).optional().meta({ title: '验证码标识' }),
  /** The client's own strength estimate; the server recomputes it and answers with its own. */
  psPower: z.union([z.string(), z.number()]).optional().meta({ title: '密码强度' }),
});
export type LoginForm = z.infer<typeof loginForm>;

/** PUT /api/users/center. Empty phone/email clear them; the masked phone as shown keeps the stored one. */
export const profileForm = z.object({
  nickName: requiredText('昵称', 30),
  phone: z
    .string()
    .trim()
    .refine((v) => v === '' || isMobile(v) || MASKED_MOBILE.test(v), { error: MESSAGES.mobile })
    .optional()
    .meta({ title: '手机号' }),
  email: z
    .string()
    .trim()
    .max(100)
    .refine((v) => v === '' || isEmail(v), { error: MESSAGES.email })
    .optional()
    .meta({ title: '邮箱' }),
  gender: z.enum(['男', '女'], { error: '请选择男或女' }).optional().meta({ title: '性别' }),
});
export type ProfileForm = z.infer<typeof profileForm>;

/** POST /api/auth/loginCA. */
export const caLoginForm = z.object({
  certificate: z
    .string()
    .min(1, { error: '不能为空' })
    .max(64 * 1024)
    .meta({ title: '证书', description: 'PEM: the leaf certificate, optionally followed by intermediates' }),
  challenge: z.string().min(1, { error: '不能为空' }).max(200).meta({ title: '挑战码' }),
  signature: z
    .string()
    .min(1, { error: '不能为空' })
    .max(4096)
    .meta({ title: '签名', description: 'base64 RSASSA-PKCS1-v1_5 SHA-256 over the UTF-8 challenge' }),
});
export type CaLoginForm = z.infer<typeof caLoginForm>;

// ---- answers ----

export const authUser = z.object({
  id: z.number(),
  username: z.string(),
  nickName: z.string(),
  email: z.string().nullable(),
  /** Masked: 138****5678. */
  phone: z.string().nullable(),
  gender: z.string().nullable(),
  /** A file name under GET /api/avatar/{avatar}, or null. */
  avatar: z.string().nullable(),
  channel: z.enum(CHANNELS),
  /** Unified social credit code of the enterprise an enterprise account acts for. */
  uscc: z.string().nullable(),
  dept: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** Role codes; ['ROLE_SYSTEM_DEFAULT'] for a user without roles. */
  roles: z.array(z.string()),
  /** The roles' names, in the order of `roles`, for display (['普通用户'] for a user without roles). */
  roleNames: z.array(z.string()),
  /** Permission codes granted through the roles' menus and buttons (e.g. 'user:add'); the admin role holds all. */
  permissions: z.array(z.string()),
});
export type AuthUser = z.infer<typeof authUser>;

export const loginResult = z.object({
  token: z.string(),
  /** The server's own strength score of the password; 0 means the token may only change the password. */
  psPower: z.number().int().min(0).max(3),
  /** True when the session may only change the password (weak password, or a one-time password). */
  mustChangePassword: z.boolean(),
  user: authUser,
});
export type LoginResult = z.infer<typeof loginResult>;

export const tokenResult = z.object({ token: z.string(), user: authUser });
export type TokenResult = z.infer<typeof tokenResult>;

export const userRoleResult = z.object({
  role: z.string(),
  channel: z.enum(CHANNELS),
  iSeeSwitch: z.boolean(),
});
export type UserRoleResult = z.infer<typeof userRoleResult>;

export const logoutResult = z.object({ jumpUrl: z.string() });
export type LogoutResult = z.infer<typeof logoutResult>;

export const captchaResult = z.object({ img: z.string(), uuid: z.string() });
export type CaptchaResult = z.infer<typeof captchaResult>;

export const initCheckResult = z.object({ initialized: z.boolean() });
export type InitCheckResult = z.infer<typeof initCheckResult>;

export const caChallengeResult = z.object({ challenge: z.string(), expiresAt: z.string() });
export type CaChallengeResult = z.infer<typeof caChallengeResult>;

export const sessionInfo = z.object({
  id: z.string(),
  method: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfo>;

export const loginRecord = z.object({
  time: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  method: z.string(),
  success: z.boolean(),
  reason: z.string().nullable(),
});
export type LoginRecord = z.infer<typeof loginRecord>;
