import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createUser, freshIp, initSystem, tokenFor } from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { auditLog, oneTimeTokens, sessions } from '../../db/schema.ts';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  await initSystem(t);
  await createUser(t, { username: 'ent', roles: ['17'], channel: 'enterprise' });
  await createUser(t, { username: 'clerk', roles: ['underwriter'], channel: 'staff' });
  await createUser(t, { username: 'agent1', roles: ['agent'], channel: 'agent' });
  admin = await tokenFor(t, ADMIN.username, ADMIN.password);
});
afterAll(() => t.close());

const issue = (token: string, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/auth/handoff', headers: bearer(token), payload });
const exchange = (token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/handoff/exchange',
    remoteAddress: freshIp(),
    payload: { token },
  });

describe('hand-off to an enterprise user', () => {
  it('staff issue a 2-minute token and the enterprise page exchanges it for a normal session', async () => {
    const res = await issue(admin, { username: 'ent' });
    expect(res.statusCode).toBe(200);
    const { token, expiresAt, url } = res.json();
    expect(url).toBe(`/piibs/insured/start?token=${encodeURIComponent(token)}`);
    expect(new Date(expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(122_000);
    const ex = await exchange(token);
    expect(ex.statusCode).toBe(200);
    expect(ex.json().user).toMatchObject({ username: 'ent', roles: ['17'] });
    const info = await t.app.inject({
      method: 'GET',
      url: '/api/auth/info',
      headers: bearer(ex.json().token),
    });
    expect(info.json().username).toBe('ent');
    const sid = JSON.parse(Buffer.from(ex.json().token.split('.')[1], 'base64url').toString()).sid;
    const [s] = await t.database.db.select().from(sessions).where(eq(sessions.id, sid));
    expect(s!.method).toBe('handoff');
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'handoff_issue'));
    expect(audit).toHaveLength(1);
  });

  it('a hand-off token works once', async () => {
    const { token } = (await issue(admin, { username: 'ent' })).json();
    expect((await exchange(token)).statusCode).toBe(200);
    const again = await exchange(token);
    expect(again.json()).toEqual({ status: 401, message: '交接令牌无效或已过期' });
  });

  it('an expired hand-off token is refused', async () => {
    const { token } = (await issue(admin, { username: 'ent' })).json();
    await t.database.db.update(oneTimeTokens).set({ expiresAt: sql`now() - interval '1 second'` });
    expect((await exchange(token)).statusCode).toBe(401);
  });

  it('an over-long token is refused in plain words, naming the field (no schema jargon)', async () => {
    const res = await exchange('x'.repeat(201));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('交接令牌：不能超过 200 个字符');
  });

  it('other staff may issue one; agents and enterprise users may not (403)', async () => {
    expect((await issue(await tokenFor(t, 'clerk'), { username: 'ent' })).statusCode).toBe(200);
    expect((await issue(await tokenFor(t, 'agent1'), { username: 'ent' })).statusCode).toBe(403);
    expect((await issue(await tokenFor(t, 'ent'), { username: 'ent' })).statusCode).toBe(403);
  });

  it('only to enterprise users', async () => {
    const res = await issue(admin, { username: 'clerk' });
    expect(res.json()).toEqual({ status: 400, message: '只能交接到投保企业用户' });
    expect((await issue(admin, { username: 'ghost' })).statusCode).toBe(404);
  });
});
