import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, giveRole, roleWith } from '../../../test/admin.ts';
import { ADMIN, bearer, createUser, initSystem, login, STRONG, tokenFor } from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { browserOf } from '../../lib/user-agent.ts';

let t: TestContext;
let admin: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  await initSystem(t);
  admin = client(t, await tokenFor(t, ADMIN.username, ADMIN.password));
});
afterAll(() => t.close());

describe('GET /api/monitor', () => {
  it('answers process, memory, os, database figures, the slowest requests and the docs URL', async () => {
    await admin.get('/api/users');
    const res = await admin.get('/api/monitor');
    expect(res.statusCode, res.body).toBe(200);
    const m = res.json();
    expect(m.server.nodeVersion).toBe(process.version);
    expect(m.server.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(m.memory.rss).toBeGreaterThan(0);
    expect(m.memory.heapUsed).toBeGreaterThan(0);
    expect(m.os.loadavg).toHaveLength(3);
    expect(m.os.cpus).toBeGreaterThan(0);
    expect(m.database.version).toMatch(/^PostgreSQL \d+/);
    expect(m.database.sizeBytes).toBeGreaterThan(1_000_000);
    expect(m.database.connections).toBeGreaterThan(0);
    expect(m.docsUrl).toBe('/api/docs');
    expect(m.slowest.length).toBeGreaterThan(0);
    expect(m.slowest[0]).toMatchObject({
      method: expect.any(String),
      route: expect.stringMatching(/^\/api\//),
    });
    const ms = m.slowest.map((s: { ms: number }) => s.ms);
    expect(ms).toEqual([...ms].sort((a, b) => b - a));
    expect(m.routes.find((r: { route: string }) => r.route === '/api/users')).toMatchObject({
      method: 'GET',
      count: 1,
    });
  });

  it('needs monitor:list', async () => {
    await createUser(t, { username: 'uw', roles: ['underwriter'] });
    expect((await client(t, await tokenFor(t, 'uw')).get('/api/monitor')).statusCode).toBe(403);
  });
});

describe('online sessions (system/Online)', () => {
  it('lists live sessions with user, IP, browser, sign-in time and last activity; online:list', async () => {
    await createUser(t, { username: 'worker' });
    const res = await login(t, 'worker', STRONG);
    expect(res.statusCode).toBe(200);
    const list = await admin.get('/api/auth/online?blurry=work&sort=createdAt,desc');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().totalElements).toBe(1);
    expect(list.json().content[0]).toMatchObject({
      username: 'worker',
      method: 'password',
      current: false,
      createdAt: expect.any(String),
      lastSeenAt: expect.any(String),
    });
    expect((await admin.get('/api/auth/online?sort=ip,asc')).json().message).toMatch(/^排序字段：/);
    const mine = (await admin.get('/api/auth/online?username=admin')).json().content;
    expect(mine.some((s: { current: boolean }) => s.current)).toBe(true);
  });

  it('online:list lets a role see the list; kicking needs online:kick and logs the user out at once', async () => {
    const watcher = await roleWith(t, 'watcher', ['online:list']);
    const id = await createUser(t, { username: 'watch' });
    await giveRole(t, id, watcher);
    const w = client(t, await tokenFor(t, 'watch'));
    const victim = (await login(t, 'worker', STRONG)).json().token as string;
    const sessions = (await w.get('/api/auth/online?username=worker')).json().content as { id: string }[];
    expect(sessions.length).toBe(2);
    expect((await w.post('/api/auth/online/revoke', { ids: sessions.map((s) => s.id) })).statusCode).toBe(
      403,
    );
    const kicker = await roleWith(t, 'watcher', ['online:kick']);
    expect(kicker).toBe(watcher);
    expect((await w.post('/api/auth/online/revoke', { ids: sessions.map((s) => s.id) })).json()).toEqual({
      revoked: 2,
    });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: bearer(victim) })).statusCode,
    ).toBe(401);
  });

  it('labels common browsers', () => {
    expect(
      browserOf(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome 131 / Windows 10');
    expect(
      browserOf(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toBe('Edge 131 / Windows 10');
    expect(
      browserOf(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari 17 / iOS 17');
    expect(browserOf(null)).toBeNull();
  });
});
