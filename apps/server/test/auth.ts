// Helpers for tests that sign in: set the system up, add users, solve captchas, log in.
import { type Algorithm, hash } from '@node-rs/argon2';
import { eq, inArray } from 'drizzle-orm';
import { roles, userRoles, users } from '../src/db/schema.ts';
import { storeCaptcha } from '../src/modules/auth/captcha.ts';
import type { TestContext } from './helpers.ts';

export const ADMIN = { username: 'admin', password: 'Adm1n#Secure2026' } as const;
export const STRONG = 'Str0ng#Pass2026';

let ipCounter = 0;
/** A fresh client address, so the per-IP limits of one test do not spill into another. */
export function freshIp(): string {
  ipCounter++;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export async function initSystem(t: TestContext): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/init',
    payload: {
      organisationName: '测试财产保险股份有限公司',
      username: ADMIN.username,
      password: ADMIN.password,
    },
  });
  if (res.statusCode !== 200) throw new Error(`init failed: ${res.statusCode} ${res.body}`);
}

export interface TestUser {
  username: string;
  password?: string;
  roles?: string[];
  channel?: string;
  uscc?: string;
  enabled?: boolean;
  phone?: string;
  mustChangePassword?: boolean;
}

/**
 * The password hash of a user made by a test: argon2id at the smallest cost. The parameters travel in the hash, so
 * signing in as that user verifies as cheaply; the server's own hashes (first-run setup, password changes, user
 * administration) keep the production cost, and passwords.test.ts holds it there.
 */
function testHash(password: string): Promise<string> {
  return hash(password, { algorithm: 2 as Algorithm, memoryCost: 1024, timeCost: 1, parallelism: 1 });
}

/** Inserts a user directly (the system must be initialised so the built-in roles exist). */
export async function createUser(t: TestContext, u: TestUser): Promise<number> {
  const db = t.database.db;
  const [row] = await db
    .insert(users)
    .values({
      username: u.username,
      nickName: u.username,
      passwordHash: await testHash(u.password ?? STRONG),
      channel: u.channel ?? 'staff',
      uscc: u.uscc ?? null,
      enabled: u.enabled ?? true,
      phone: u.phone ?? null,
      mustChangePassword: u.mustChangePassword ?? false,
    })
    .returning({ id: users.id });
  const codes = u.roles ?? [];
  if (codes.length) {
    const found = await db.select({ id: roles.id }).from(roles).where(inArray(roles.code, codes));
    await db.insert(userRoles).values(found.map((r) => ({ userId: row!.id, roleId: r.id })));
  }
  return row!.id;
}

/** A captcha whose answer the test knows. */
export async function captcha(t: TestContext, answer = 'AbCd'): Promise<{ uuid: string; code: string }> {
  return { uuid: await storeCaptcha(t.database.db, answer), code: answer };
}

export interface LoginOptions {
  ip?: string;
  /** Send JSON instead of the form encoding. */
  json?: boolean;
  code?: string;
  uuid?: string;
  psPower?: string;
}

/** POST /api/auth/login with a solved captcha (unless code/uuid are given). */
export async function login(t: TestContext, username: string, password: string, opts: LoginOptions = {}) {
  const solved = opts.uuid !== undefined ? { uuid: opts.uuid, code: opts.code ?? '' } : await captcha(t);
  const fields = { username, password, code: solved.code, uuid: solved.uuid, psPower: opts.psPower ?? '2' };
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: opts.ip ?? freshIp(),
    ...(opts.json
      ? { payload: fields }
      : {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(fields).toString(),
        }),
  });
}

/** Signs in and answers the token (throws unless 200). */
export async function tokenFor(t: TestContext, username: string, password = STRONG): Promise<string> {
  const res = await login(t, username, password);
  if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
  return res.json().token as string;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function userId(t: TestContext, username: string): Promise<number> {
  const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  return row!.id;
}
