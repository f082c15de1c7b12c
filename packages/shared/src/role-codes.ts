// Channels and built-in role codes, without zod: the signed-in shell's permission checks read them, and
// @piibs/shared/auth (which re-exports them) would bring its form schemas along (zod, 26 KB gzip).
/** Channels a user belongs to. */
export const CHANNELS = ['staff', 'agent', 'enterprise', 'service'] as const;
export type Channel = (typeof CHANNELS)[number];
/** The channels in words, as the `user_channel` dictionary names them. */
export const USER_CHANNEL_LABELS: Readonly<Record<Channel, string>> = Object.freeze({
  staff: '内部员工',
  agent: '代理人',
  enterprise: '投保企业',
  service: '风控服务机构',
});

/** Built-in role codes (the names the front end's permission checks use). */
export const ROLE_CODES = Object.freeze({
  admin: 'admin',
  underwriter: 'underwriter',
  agent: 'agent',
  enterprise: '17',
  service: 'service',
  contractor: 'contractor',
} as const);

/** Where the web app goes after logout, by how the session was opened. */
export const JUMP_URLS = Object.freeze({ password: '/piibs/login', ca: '/piibs/CAlogin' } as const);
