import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  captcha,
  createUser,
  freshIp,
  initSystem,
  login,
  STRONG,
  userId,
} from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { auditLog, loginAttempts, users } from '../../db/schema.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
  await initSystem(t);
  await createUser(t, { username: 'alice', roles: ['underwriter'], phone: '13812345678' });
  await createUser(t, { username: 'bob', roles: ['agent'], channel: 'agent' });
  await createUser(t, { username: 'carol', roles: ['agent'] });
  await createUser(t, { username: 'dave', roles: ['agent'] });
  await createUser(t, { username: 'erin', enabled: false });
  await createUser(t, { username: 'weakling', password: 'abcdefgh' });
});
afterAll(() => t.close());

const attempts = (username: string) =>
  t.database.db
    .select()
    .from(loginAttempts)
    .where(eq(loginAttempts.username, username))
    .orderBy(loginAttempts.id);

describe('password sign-in', () => {
  it('happy path (form-encoded): token, server psPower and user with roles and masked phone', async () => {
    const res = await login(t, 'alice', STRONG, { psPower: '0' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(typeof body.token).toBe('string');
    expect(body.token.split('.')).toHaveLength(3);
    expect(body.psPower).toBe(3);
    expect(body.user).toMatchObject({
      username: 'alice',
      roles: ['underwriter'],
      channel: 'staff',
      phone: '138****5678',
    });
    expect(body.user).not.toHaveProperty('passwordHash');
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: bearer(body.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(body.user);
  });

  it('accepts JSON as well as the form encoding, and usernames case-insensitively', async () => {
    const res = await login(t, 'ALICE', STRONG, { json: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.username).toBe('alice');
  });

  it('the token carries only sid and sub, no personal data', async () => {
    const res = await login(t, 'alice', STRONG);
    const payload = JSON.parse(Buffer.from(res.json().token.split('.')[1], 'base64url').toString());
    expect(Object.keys(payload).sort()).toEqual(['exp', 'iat', 'sid', 'sub']);
    expect(payload.sub).toBe(String(await userId(t, 'alice')));
  });

  it('wrong password answers 401 用户名或密码错误', async () => {
    const res = await login(t, 'bob', 'Wrong#Pass2026');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: 401, message: '用户名或密码错误' });
  });

  it('unknown user answers the same 401 as a wrong password', async () => {
    const res = await login(t, 'nobody', 'Wrong#Pass2026');
    expect(res.json()).toEqual({ status: 401, message: '用户名或密码错误' });
  });

  it('a disabled account with the right password answers 401 账号已停用', async () => {
    const res = await login(t, 'erin', STRONG);
    expect(res.json()).toEqual({ status: 401, message: '账号已停用' });
  });

  it('a missing field answers 400 naming it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: freshIp(),
      payload: { username: 'alice' },
    });
    expect(res.json()).toEqual({
      status: 400,
      message: '密码：不能为空',
      errors: [{ field: 'password', message: '不能为空' }],
    });
  });

  it('records every attempt in login_attempt, successes and failures, never the password', async () => {
    await login(t, 'bob', 'Wrong#Pass2026');
    await login(t, 'bob', STRONG);
    const rows = await attempts('bob');
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.at(-1)).toMatchObject({ success: true, method: 'password' });
    expect(rows.at(-2)).toMatchObject({ success: false, reason: 'bad_password' });
    expect(JSON.stringify(rows)).not.toContain('Wrong#Pass2026');
  });

  it('writes a login audit row on success', async () => {
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'login'), eq(auditLog.actorName, 'bob')));
    expect(rows.length).toBeGreaterThanOrEqual(1);
  });

  it('a weak password scores psPower 0 whatever the client claims', async () => {
    const res = await login(t, 'weakling', 'abcdefgh', { psPower: '3' });
    expect(res.statusCode).toBe(200);
    expect(res.json().psPower).toBe(0);
  });
});

describe('captcha at sign-in', () => {
  it('a wrong answer answers 400 验证码错误 and uses the captcha up', async () => {
    const c = await captcha(t, 'WxYz');
    const wrong = await login(t, 'alice', STRONG, { uuid: c.uuid, code: 'abcd' });
    expect(wrong.json()).toEqual({ status: 400, message: '验证码错误' });
    const again = await login(t, 'alice', STRONG, { uuid: c.uuid, code: 'WxYz' });
    expect(again.json()).toEqual({ status: 400, message: '验证码不存在或已过期' });
  });

  it('a missing uuid answers 400 验证码不存在或已过期', async () => {
    const res = await login(t, 'alice', STRONG, { uuid: 'not-a-uuid', code: 'x' });
    expect(res.json()).toEqual({ status: 400, message: '验证码不存在或已过期' });
  });

  it('the captcha is checked before the password: a wrong captcha does not count toward the lock', async () => {
    await login(t, 'dave', STRONG, { uuid: (await captcha(t)).uuid, code: 'nope' });
    const [row] = await t.database.db
      .select({ n: users.failedLogins })
      .from(users)
      .where(eq(users.username, 'dave'));
    expect(row!.n).toBe(0);
  });
});

describe('account lock-out', () => {
  const failed = { status: 401, message: '用户名或密码错误' };

  it('locks after 5 failures in a row, answering like any wrong password, and resets the counter', async () => {
    for (let i = 1; i <= 5; i++) {
      const res = await login(t, 'carol', `Wrong#Pass${i}x`);
      expect(res.json()).toEqual(failed);
    }
    const [row] = await t.database.db.select().from(users).where(eq(users.username, 'carol'));
    expect(row!.failedLogins).toBe(0);
    expect(row!.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 14 * 60 * 1000);
    // The sign-in log says which failure locked the account.
    const reasons = (await attempts('carol')).map((a) => a.reason);
    expect(reasons.slice(-5)).toEqual([...Array(4).fill('bad_password'), 'locking']);
  });

  it('refuses even the right password while locked, with the same answer; the log says locked', async () => {
    const res = await login(t, 'carol', STRONG);
    expect(res.json()).toEqual(failed);
    expect((await attempts('carol')).at(-1)?.reason).toBe('locked');
  });

  it('attempts during the lock do not extend it', async () => {
    const db = t.database.db;
    // Pretend the lock was set 10 minutes ago: 5 minutes remain.
    await db
      .update(users)
      .set({ lockedUntil: sql`now() + interval '5 minutes'` })
      .where(eq(users.username, 'carol'));
    const [before] = await db.select().from(users).where(eq(users.username, 'carol'));
    for (let i = 0; i < 6; i++) {
      const res = await login(t, 'carol', 'Wrong#Again1');
      expect(res.json()).toEqual(failed);
    }
    const [after] = await db.select().from(users).where(eq(users.username, 'carol'));
    expect(after!.lockedUntil!.getTime()).toBe(before!.lockedUntil!.getTime());
    expect(after!.failedLogins).toBe(0);
  });

  it('the lock ends: once locked_until has passed the right password signs in again', async () => {
    await t.database.db
      .update(users)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(users.username, 'carol'));
    const res = await login(t, 'carol', STRONG);
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.username, 'carol'));
    expect(row!.lockedUntil).toBeNull();
  });
});

describe('per-IP limits', () => {
  it('answers 429 with a Chinese message after 20 sign-in calls a minute from one IP', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await login(t, 'nobody', 'Wrong#Pass2026', { ip })).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    const res = await login(t, 'alice', STRONG, { ip });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^操作过于频繁，请 \d+ 秒后再试$/);
    // Another IP is unaffected.
    expect((await login(t, 'alice', STRONG)).statusCode).toBe(200);
  });

  it('an IP with 50 failed sign-ins in the last 15 minutes must solve a captcha and waits 2 s, but signs in', async () => {
    const t2 = await createTestApp({ captcha: false });
    try {
      await initSystem(t2);
      await createUser(t2, { username: 'alice' });
      const ip = freshIp();
      await t2.database.db.insert(loginAttempts).values(
        Array.from({ length: 50 }, () => ({
          username: 'x',
          ip,
          method: 'password',
          success: false,
          reason: 'bad_password',
        })),
      );
      // PIIBS_CAPTCHA=off, yet this IP must solve one.
      const noCaptcha = await login(t2, 'alice', STRONG, { ip, uuid: '', code: '' });
      expect(noCaptcha.json()).toEqual({ status: 400, message: '登录失败次数过多，请输入验证码' });
      const started = Date.now();
      const res = await login(t2, 'alice', STRONG, { ip });
      expect(res.statusCode).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
      // Older failures fall out of the window: no captcha, no wait.
      await t2.database.db
        .update(loginAttempts)
        .set({ createdAt: sql`now() - interval '16 minutes'` })
        .where(eq(loginAttempts.ip, ip));
      const quick = Date.now();
      expect((await login(t2, 'alice', STRONG, { ip, uuid: '', code: '' })).statusCode).toBe(200);
      expect(Date.now() - quick).toBeLessThan(2_000);
    } finally {
      await t2.close();
    }
  });
});

describe('captcha switched off (PIIBS_CAPTCHA=off)', () => {
  it('does not check the answer', async () => {
    const t2 = await createTestApp({ captcha: false });
    try {
      await initSystem(t2);
      const res = await t2.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'username=admin&password=Adm1n%23Secure2026&code=&uuid=',
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await t2.close();
    }
  });
});
