// The notifications WebSocket against revoked sessions and socket floods (issue #21, item 1):
// - every way a session ends (logout, password change, revoke-others, force logout, password reset, disabling the
//   account) closes its sockets with 4401 within 1 s — not at the next keep-alive round, up to 30 s later — on
//   whichever instance holds them;
// - nothing is pushed to a session once it is revoked, even when the notification and the revocation commit
//   together;
// - sockets that have not signed in are capped per client address and in total (1013, try again later).
// A real server on a loopback port and real `ws` clients; the app trusts X-Forwarded-For from loopback, so each
// client can come from an address of its own.
import { rmSync } from 'node:fs';
import type { WsServerMessage } from '@piibs/shared/notification';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { ADMIN, bearer, createUser, initSystem, tokenFor, userId } from '../../test/auth.ts';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import { parseTrustProxy } from '../config.ts';
import { revokeUserSessions } from '../modules/auth/sessions.ts';
import { notificationHub } from '../modules/notifications/routes.ts';
import { notify } from '../modules/notifications/service.ts';

let t: TestContext;
let base: string;
let admin: string;
const open: WebSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ trustProxy: parseTrustProxy('loopback') });
  await initSystem(t);
  for (const name of ['leaver', 'changer', 'other', 'kicked', 'reset', 'disabled', 'together', 'roamer'])
    await createUser(t, { username: name, roles: ['agent'], channel: 'agent' });
  admin = await tokenFor(t, ADMIN.username, ADMIN.password);
  base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
}, 60_000);
afterAll(async () => {
  for (const ws of open) ws.terminate();
  await t?.close();
  if (t) rmSync(t.config.dataDir, { recursive: true, force: true });
});

const hub = () => notificationHub(t.app);

interface Sock {
  ws: WebSocket;
  messages: WsServerMessage[];
  closed: Promise<{ code: number; at: number }>;
}

/** Opens a socket (from `ip`, as the proxy would say) and, given a token, signs in with it. */
async function connect(token: string | null, ip = '198.51.100.1', server = base): Promise<Sock> {
  const ws = new WebSocket(`${server}/api/notifications/ws`, { headers: { 'x-forwarded-for': ip } });
  open.push(ws);
  const messages: WsServerMessage[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data)) as WsServerMessage));
  const closed = new Promise<{ code: number; at: number }>((resolve) =>
    ws.on('close', (code) => resolve({ code, at: Date.now() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  if (token) ws.send(JSON.stringify({ type: 'auth', token, after: 0 }));
  return { ws, messages, closed };
}

/** A signed-in socket that has had its `ready`. */
async function ready(token: string, server = base): Promise<Sock> {
  const s = await connect(token, undefined, server);
  await vi.waitFor(() => expect(s.messages.some((m) => m.type === 'ready')).toBe(true));
  return s;
}

/** Waits for the close (at most 5 s); answers its code and how long after `since` it came. */
async function closedWithin(s: Sock, since: number): Promise<{ code: number; ms: number }> {
  const timeout = new Promise<{ code: number; at: number }>((resolve) =>
    setTimeout(() => resolve({ code: -1, at: Date.now() }), 5_000),
  );
  const { code, at } = await Promise.race([s.closed, timeout]);
  return { code, ms: at - since };
}

const sidOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
const post = (token: string, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(token), ...(payload ? { payload } : {}) });

let events = 0;
/** Stores (and announces) a notification for the user; answers its id. */
const sentinel = async (uid: number) =>
  (
    await t.database.db.transaction((tx) =>
      notify(tx, {
        userIds: [uid],
        kind: 'task.assigned',
        title: '测试消息',
        body: '测试',
        link: null,
        eventKey: `live-channel:${++events}`,
      }),
    )
  )[0]!;

describe('a revoked session loses its live channel within 1 s', () => {
  const cases: [string, (token: string, user: string) => Promise<void>][] = [
    [
      'logout',
      async (token) => {
        expect((await post(token, '/api/auth/logout')).statusCode).toBe(200);
      },
    ],
    [
      'a password change (the other sessions)',
      async (_token, user) => {
        const current = await tokenFor(t, user);
        const res = await post(current, '/api/users/updatePass', {
          oldPass: 'Str0ng#Pass2026',
          newPass: 'N3w#Stronger2026',
        });
        expect(res.statusCode, res.body).toBe(200);
      },
    ],
    [
      'revoke the other sessions',
      async (_token, user) => {
        const current = await tokenFor(t, user);
        expect((await post(current, '/api/auth/sessions/revokeOthers')).json()).toEqual({ revoked: 1 });
      },
    ],
    [
      'a forced logout',
      async (token) => {
        const res = await post(admin, '/api/auth/online/revoke', { ids: [sidOf(token)] });
        expect(res.json()).toEqual({ revoked: 1 });
      },
    ],
    [
      "an administrator's password reset",
      async (_token, user) => {
        const res = await post(admin, '/api/users/resetPass', { id: await userId(t, user) });
        expect(res.statusCode, res.body).toBe(200);
      },
    ],
    [
      'disabling the account',
      async (_token, user) => {
        const res = await post(admin, '/api/users/enable', { id: await userId(t, user), enabled: false });
        expect(res.statusCode, res.body).toBe(200);
      },
    ],
  ];
  const users = ['leaver', 'changer', 'other', 'kicked', 'reset', 'disabled'];

  cases.forEach(([name, revoke], i) => {
    it(name, async () => {
      const user = users[i]!;
      const token = await tokenFor(t, user);
      const s = await ready(token);
      const at = Date.now();
      await revoke(token, user);
      const { code, ms } = await closedWithin(s, at);
      console.info(`live channel: ${name} → closed ${code} after ${ms} ms`);
      expect(code).toBe(4401);
      expect(ms).toBeLessThan(1_000);
      // What happens to the user afterwards reaches no socket of the ended session.
      await sentinel(await userId(t, user));
      expect(s.messages.filter((m) => m.type === 'notification')).toEqual([]);
      // Nor can the ended token open a new one.
      const again = await connect(token);
      expect((await closedWithin(again, Date.now())).code).toBe(4401);
    });
  });

  it('nothing is pushed to a session revoked in the same transaction as the notification; its other session gets it', async () => {
    const uid = await userId(t, 'together');
    const keepToken = await tokenFor(t, 'together');
    const keep = await ready(keepToken);
    const gone = await ready(await tokenFor(t, 'together'));
    const at = Date.now();
    // The notification is announced first, the revocation after it; both commit together.
    const [id] = await t.database.db.transaction(async (tx) => {
      const ids = await notify(tx, {
        userIds: [uid],
        kind: 'task.assigned',
        title: '测试消息',
        body: '同一事务',
        link: null,
        eventKey: `live-channel:together:${++events}`,
      });
      await revokeUserSessions(tx, uid, 'test', sidOf(keepToken));
      return ids;
    });
    const { code, ms } = await closedWithin(gone, at);
    expect(code).toBe(4401);
    expect(ms).toBeLessThan(1_000);
    expect(gone.messages.filter((m) => m.type === 'notification')).toEqual([]);
    await vi.waitFor(() =>
      expect(keep.messages.some((m) => m.type === 'notification' && m.notification.id === id)).toBe(true),
    );
    expect(keep.ws.readyState).toBe(WebSocket.OPEN);
    keep.ws.close();
  });
});

describe('across instances', () => {
  it('a logout through one instance closes the socket held by another within 1 s', async () => {
    // A second instance on the same database, with a hub of its own (no background jobs: the first has them).
    const config = { ...t.config, business: { ...t.config.business, jobs: false } };
    const second = await buildApp({ ...t.app.deps, config }, { logger: false });
    try {
      const secondBase = (await second.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
      const token = await tokenFor(t, 'roamer');
      const s = await ready(token, secondBase);
      const at = Date.now();
      expect((await post(token, '/api/auth/logout')).statusCode).toBe(200);
      const { code, ms } = await closedWithin(s, at);
      console.info(`live channel: logout on A, socket on B → closed ${code} after ${ms} ms`);
      expect(code).toBe(4401);
      expect(ms).toBeLessThan(1_000);
    } finally {
      await second.close();
    }
  });
});

describe('sockets that have not signed in are capped', () => {
  it('per client address and in total: past a cap a new socket is closed at once with 1013', async () => {
    const settings = hub().settings;
    const saved = { ...settings };
    settings.maxPendingPerIp = 3;
    settings.maxPending = 5;
    try {
      const a = await Promise.all([1, 2, 3].map(() => connect(null, '203.0.113.1')));
      await vi.waitFor(() => expect(hub().pending('203.0.113.1')).toBe(3));
      // A fourth from the same address is refused; another address is still served.
      const tooMany = await connect(null, '203.0.113.1');
      expect(await closedWithin(tooMany, Date.now())).toMatchObject({ code: 1013 });
      const b = await Promise.all([1, 2].map(() => connect(null, '203.0.113.2')));
      await vi.waitFor(() => expect(hub().pending()).toBe(5));
      // The total is reached: a third address is refused too.
      const third = await connect(null, '203.0.113.3');
      expect(await closedWithin(third, Date.now())).toMatchObject({ code: 1013 });
      // One of them signs in: it no longer counts, and a new socket is taken.
      a[0]!.ws.send(JSON.stringify({ type: 'auth', token: admin, after: 0 }));
      await vi.waitFor(() => expect(a[0]!.messages.some((m) => m.type === 'ready')).toBe(true));
      expect(hub().pending()).toBe(4);
      const later = await connect(null, '203.0.113.3');
      await vi.waitFor(() => expect(hub().pending('203.0.113.3')).toBe(1));
      for (const s of [...a, ...b, later]) s.ws.close();
      await vi.waitFor(() => expect(hub().pending()).toBe(0));
    } finally {
      Object.assign(settings, saved);
    }
  });
});
