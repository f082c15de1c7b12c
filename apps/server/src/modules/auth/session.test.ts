import { ROLE_SYSTEM_DEFAULT } from '@piibs/shared';
import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveRole, roleWith } from '../../../test/admin.ts';
import {
  ADMIN,
  bearer,
  createUser,
  initSystem,
  login,
  STRONG,
  tokenFor,
  userId,
} from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { auditLog, roles, sessions, users } from '../../db/schema.ts';
import { setUserEnabled } from '../users/service.ts';
import { SESSION_REUSE_MS } from './sessions.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
  await initSystem(t);
  await createUser(t, { username: 'alice', roles: ['underwriter'] });
  await createUser(t, { username: 'norole' });
  await createUser(t, { username: 'ent', roles: ['17'], channel: 'enterprise', uscc: '91320000000000000X' });
  await createUser(t, { username: 'weak', password: 'abcdefgh' });
  await createUser(t, { username: 'forced', mustChangePassword: true });
});
afterAll(() => t.close());

const get = (url: string, token?: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
const post = (url: string, token: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(token), ...(payload ? { payload } : {}) });
const sidOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;

const EXPIRED = { status: 401, message: '登录状态已过期，请重新登录' };

describe('authentication of API calls', () => {
  it('a call without a token answers 401 登录状态已过期，请重新登录', async () => {
    const res = await get('/api/auth/info');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(EXPIRED);
  });

  it('a tampered token, or one signed with another secret, answers 401', async () => {
    const token = await tokenFor(t, 'alice');
    const [h, p, s] = token.split('.');
    const tampered = `${h}.${p}.${s!.slice(0, -2)}${s!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await get('/api/auth/info', tampered)).json()).toEqual(EXPIRED);
    const forged = await new SignJWT({ sid: sidOf(token) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(await userId(t, 'alice')))
      .sign(new TextEncoder().encode('another-secret-that-is-long-enough-000000'));
    expect((await get('/api/auth/info', forged)).statusCode).toBe(401);
  });

  it('accepts the bare token as well as "Bearer <token>"', async () => {
    const token = await tokenFor(t, 'alice');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/info',
      headers: { authorization: token },
    });
    expect(res.statusCode).toBe(200);
  });

  it('public calls need no token; unknown /api paths still answer 404, not 401', async () => {
    expect((await get('/api/health')).statusCode).toBe(200);
    expect((await get('/api/init/check')).statusCode).toBe(200);
    expect((await get('/api/nothing/here')).statusCode).toBe(404);
  });
});

describe('logout', () => {
  it('revokes the token: later calls answer 401; jumpUrl is /piibs/login for password sessions', async () => {
    const token = await tokenFor(t, 'alice');
    const out = await post('/api/auth/logout', token);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ jumpUrl: '/piibs/login' });
    expect((await get('/api/auth/info', token)).json()).toEqual(EXPIRED);
    const [row] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sidOf(token)));
    expect(row!.revokedAt).not.toBeNull();
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'logout'));
    expect(audit.some((a) => a.entityId === sidOf(token))).toBe(true);
  });
});

describe('weak-password sessions', () => {
  it('a psPower-0 token may call info but every other call answers 403 请先修改密码', async () => {
    const res = await login(t, 'weak', 'abcdefgh');
    expect(res.json().psPower).toBe(0);
    const token = res.json().token;
    expect((await get('/api/auth/info', token)).statusCode).toBe(200);
    const role = await get('/api/auth/getUserRole', token);
    expect(role.statusCode).toBe(403);
    expect(role.json()).toEqual({ status: 403, message: '请先修改密码' });
    expect((await get('/api/auth/sessions', token)).statusCode).toBe(403);
  });

  it('works fully after the password is changed, with the same token', async () => {
    const token = (await login(t, 'weak', 'abcdefgh')).json().token;
    const change = await post('/api/users/updatePass', token, {
      oldPass: 'abcdefgh',
      newPass: 'Better#Pass2026',
    });
    expect(change.statusCode).toBe(200);
    expect(change.json().psPower).toBeGreaterThan(0);
    expect((await get('/api/auth/getUserRole', token)).statusCode).toBe(200);
  });

  it('an account flagged must-change-password gets the limited scope even with a strong password', async () => {
    const res = await login(t, 'forced', STRONG);
    expect(res.json().psPower).toBe(3);
    expect((await get('/api/auth/getUserRole', res.json().token)).statusCode).toBe(403);
  });

  it('a psPower-0 token may log out', async () => {
    await t.database.db.update(users).set({ mustChangePassword: false }).where(eq(users.username, 'forced'));
    await createUser(t, { username: 'weak2', password: 'abcdefgh' });
    const token = (await login(t, 'weak2', 'abcdefgh')).json().token;
    expect((await post('/api/auth/logout', token)).statusCode).toBe(200);
  });
});

describe('roles', () => {
  it('a user without roles gets ROLE_SYSTEM_DEFAULT in roles and as role', async () => {
    const res = await login(t, 'norole', STRONG);
    expect(res.json().user.roles).toEqual([ROLE_SYSTEM_DEFAULT]);
    expect(res.json().user.roleNames).toEqual(['普通用户']);
    const role = await get('/api/auth/getUserRole', res.json().token);
    expect(role.json()).toEqual({ role: ROLE_SYSTEM_DEFAULT, channel: 'staff', iSeeSwitch: false });
  });

  it('the personal center names every role, a custom one too (never by its code)', async () => {
    const custom = await roleWith(t, 'safety_officer', []);
    await t.database.db.update(roles).set({ name: '安全专员', level: 4 }).where(eq(roles.id, custom));
    await giveRole(t, await userId(t, 'alice'), custom);
    const info = (await get('/api/auth/info', await tokenFor(t, 'alice'))).json();
    expect(info.roles).toEqual(['underwriter', 'safety_officer']);
    expect(info.roleNames).toEqual(['核保员', '安全专员']);
  });

  it('getUserRole answers { role, channel, iSeeSwitch } with the primary role', async () => {
    const token = await tokenFor(t, 'ent');
    const role = await get('/api/auth/getUserRole', token);
    expect(role.statusCode).toBe(200);
    expect(role.json()).toEqual({ role: '17', channel: 'enterprise', iSeeSwitch: false });
    await t.database.db.update(users).set({ iSeeSwitch: true }).where(eq(users.username, 'ent'));
    expect((await get('/api/auth/getUserRole', token)).json().iSeeSwitch).toBe(true);
  });

  it('admin-only calls answer 403 for other roles', async () => {
    const token = await tokenFor(t, 'alice');
    const res = await get('/api/auth/online', token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 403, message: '没有权限执行此操作' });
  });
});

describe('session expiry and renewal', () => {
  it('extends a session to 4 hours from now when under 30 minutes remain', async () => {
    const token = await tokenFor(t, 'alice');
    const sid = sidOf(token);
    await t.database.db
      .update(sessions)
      .set({ expiresAt: sql`now() + interval '10 minutes'` })
      .where(eq(sessions.id, sid));
    expect((await get('/api/auth/info', token)).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.id, sid));
    const left = row!.expiresAt.getTime() - Date.now();
    expect(left).toBeGreaterThan(3.9 * 3600_000);
    expect(left).toBeLessThanOrEqual(4 * 3600_000 + 5000);
  });

  it('does not extend a session with more than 30 minutes left, and writes last_seen_at at most once a minute', async () => {
    const token = await tokenFor(t, 'alice');
    const sid = sidOf(token);
    await t.database.db
      .update(sessions)
      .set({ expiresAt: sql`now() + interval '2 hours'`, lastSeenAt: sql`now() - interval '5 minutes'` })
      .where(eq(sessions.id, sid));
    const [before] = await t.database.db.select().from(sessions).where(eq(sessions.id, sid));
    await get('/api/auth/info', token);
    const [mid] = await t.database.db.select().from(sessions).where(eq(sessions.id, sid));
    expect(mid!.expiresAt.getTime()).toBe(before!.expiresAt.getTime());
    expect(mid!.lastSeenAt.getTime()).toBeGreaterThan(before!.lastSeenAt.getTime());
    await get('/api/auth/info', token);
    const [after] = await t.database.db.select().from(sessions).where(eq(sessions.id, sid));
    expect(after!.lastSeenAt.getTime()).toBe(mid!.lastSeenAt.getTime());
  });

  it('an expired session answers 401', async () => {
    const token = await tokenFor(t, 'alice');
    await t.database.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.id, sidOf(token)));
    expect((await get('/api/auth/info', token)).json()).toEqual(EXPIRED);
  });
});

describe('a session read once for the requests that change nothing (SESSION_REUSE_MS)', () => {
  /** Counts the session look-ups sent to PostgreSQL (the prepared statement piibs_session_lookup). */
  function countLookups() {
    const proto = pg.Pool.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = proto.query;
    const counter = {
      count: 0,
      restore: () => {
        proto.query = original;
      },
    };
    proto.query = function (this: unknown, ...args: unknown[]) {
      if ((args[0] as { name?: string } | undefined)?.name === 'piibs_session_lookup') counter.count++;
      return original.apply(this, args);
    };
    return counter;
  }

  it("a screen's GETs read it once; a request that changes something reads it afresh, and a force logout shows at the next GET", async () => {
    const admin = await tokenFor(t, ADMIN.username, ADMIN.password);
    await createUser(t, { username: 'reuser' });
    const token = await tokenFor(t, 'reuser');
    const lookups = countLookups();
    try {
      for (const url of ['/api/auth/info', '/api/auth/getUserRole', '/api/auth/info'])
        expect((await get(url, token)).statusCode).toBe(200);
      expect(lookups.count).toBe(1);
      // A request that may change something (here a refused one) reads its own session from the database.
      expect((await post('/api/auth/online/revoke', token, { ids: [sidOf(admin)] })).statusCode).toBe(403);
      expect(lookups.count).toBe(2);
      expect((await get('/api/auth/info', token)).statusCode).toBe(200);
      expect(lookups.count).toBe(3); // read again: that request made this instance forget what it had read

      expect((await post('/api/auth/online/revoke', admin, { ids: [sidOf(token)] })).json()).toEqual({
        revoked: 1,
      });
      expect((await get('/api/auth/info', token)).json()).toEqual(EXPIRED);
    } finally {
      lookups.restore();
    }
  });

  it('a session revoked by another instance (here: in the database) is refused within SESSION_REUSE_MS', async () => {
    await createUser(t, { username: 'elsewhere' });
    const token = await tokenFor(t, 'elsewhere');
    expect((await get('/api/auth/info', token)).statusCode).toBe(200);
    await t.database.db
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(eq(sessions.id, sidOf(token)));
    await new Promise((r) => setTimeout(r, SESSION_REUSE_MS));
    expect((await get('/api/auth/info', token)).json()).toEqual(EXPIRED);
  });
});

describe('own sessions and sign-ins', () => {
  it('lists own active sessions with the current one flagged, and revokes the others', async () => {
    await createUser(t, { username: 'multi' });
    const a = await tokenFor(t, 'multi');
    const b = await tokenFor(t, 'multi');
    const list = await get('/api/auth/sessions', b);
    expect(list.statusCode).toBe(200);
    const rows = list.json() as Array<{ id: string; current: boolean; method: string }>;
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.current)?.id).toBe(sidOf(b));
    expect(rows.every((r) => r.method === 'password')).toBe(true);
    const revoke = await post('/api/auth/sessions/revokeOthers', b);
    expect(revoke.json()).toEqual({ revoked: 1 });
    expect((await get('/api/auth/info', a)).statusCode).toBe(401);
    expect((await get('/api/auth/info', b)).statusCode).toBe(200);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'session_revoke'));
    expect(audit.length).toBeGreaterThan(0);
  });

  it('lists own sign-ins, failures included, newest first, at most the last 20', async () => {
    await createUser(t, { username: 'hist' });
    await login(t, 'hist', 'Wrong#Pass2026');
    const first = await tokenFor(t, 'hist');
    const few = (await get('/api/auth/logins', first)).json() as Array<{
      success: boolean;
      reason: string | null;
    }>;
    expect(few.map((r) => r.success)).toEqual([true, false]);
    expect(few[1]!.reason).toBe('bad_password');
    for (let i = 0; i < 21; i++) await login(t, 'hist', STRONG);
    const rows = (await get('/api/auth/logins', first)).json() as Array<{ success: boolean; time: string }>;
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => r.success)).toBe(true);
    expect(new Date(rows[0]!.time).getTime()).toBeGreaterThanOrEqual(new Date(rows[19]!.time).getTime());
  });
});

describe('administrators', () => {
  it('list online sessions and force a user out at once', async () => {
    const admin = await tokenFor(t, ADMIN.username, ADMIN.password);
    await createUser(t, { username: 'victim' });
    const v = await tokenFor(t, 'victim');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/auth/online?username=victim',
      headers: bearer(admin),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().totalElements).toBe(1);
    const id = list.json().content[0].id as string;
    const res = await post('/api/auth/online/revoke', admin, { ids: [id] });
    expect(res.json()).toEqual({ revoked: 1 });
    expect((await get('/api/auth/info', v)).statusCode).toBe(401);
  });

  it('disabling a user revokes their sessions at once', async () => {
    await createUser(t, { username: 'leaver' });
    const token = await tokenFor(t, 'leaver');
    const adminId = await userId(t, ADMIN.username);
    await setUserEnabled(
      t.database.db,
      {
        user: {
          id: adminId,
          username: 'admin',
          nickName: 'admin',
          roles: ['admin'],
          channel: 'staff',
          scope: 'full',
          method: 'password',
          sessionId: '00000000-0000-0000-0000-000000000000',
        },
        ip: '127.0.0.1',
      },
      await userId(t, 'leaver'),
      false,
    );
    expect((await get('/api/auth/info', token)).statusCode).toBe(401);
    const [row] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sidOf(token)));
    expect(row!.revokedReason).toBe('disabled');
  });
});

describe('OpenAPI document', () => {
  it('lists every identity route with its schemas', async () => {
    const doc = (await get('/api/docs/json')).json();
    for (const [p, m] of [
      ['/api/init/check', 'get'],
      ['/api/init', 'post'],
      ['/api/auth/code', 'get'],
      ['/api/auth/login', 'post'],
      ['/api/auth/ca/challenge', 'get'],
      ['/api/auth/loginCA', 'post'],
      ['/api/auth/info', 'get'],
      ['/api/auth/getUserRole', 'get'],
      ['/api/auth/logout', 'post'],
      ['/api/auth/handoff', 'post'],
      ['/api/auth/handoff/exchange', 'post'],
      ['/api/auth/sessions', 'get'],
      ['/api/auth/sessions/revokeOthers', 'post'],
      ['/api/auth/logins', 'get'],
      ['/api/auth/online', 'get'],
      ['/api/auth/online/revoke', 'post'],
      ['/api/users/center', 'put'],
      ['/api/users/updatePass', 'post'],
      ['/api/users/updateAvatar', 'post'],
      ['/api/avatar/{file}', 'get'],
    ] as const) {
      expect(doc.paths[p]?.[m], `${m} ${p}`).toBeDefined();
      expect(doc.paths[p][m].responses['200'], `${m} ${p}`).toBeDefined();
    }
    expect(Object.keys(doc.paths['/api/auth/login'].post.requestBody.content)).toContain(
      'application/x-www-form-urlencoded',
    );
  });
});
