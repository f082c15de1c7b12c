// The live side of notifications on one server instance: the signed-in WebSockets, and one dedicated PostgreSQL
// connection doing LISTEN piibs_notification (see ./service.ts for what is sent on it).
//
// Every push to a socket is a "sync": read that user's rows with id > the highest id this socket was sent, in id
// order, and send them. Syncs of one socket run one after another, so a live NOTIFY racing the catch-up that
// follows sign-in (or a reconnect of the listener) can neither skip nor repeat a row. The listener starts before
// the first catch-up query, so a row committed meanwhile is either in that query or heard afterwards. When the
// listening connection drops, it reconnects and every socket syncs again (rows committed in the gap included).
//
// Revocation: a revoked session (logout, password change, revoke-others, force logout, password reset, disabled
// account) is announced on the same channel (`{ type: 'revoked', userId, sessionId }`, sent when the revoking
// transaction commits), so its sockets on every instance close with 4401 at once. Nothing is pushed to a session
// that is no longer live: each sync checks the session in the database before it sends, which also covers a
// revocation announced while the listener was down (every socket's session is checked again on reconnect).
// A session revoked while its socket was signing in is remembered for a minute, so the socket is refused.
//
// Keep-alive: every pingIntervalMs each socket is pinged (one that did not answer the previous ping is
// terminated) and the sessions of the open sockets are checked; a socket whose session expired is closed with
// 4401 there.
//
// Sockets that have not signed in yet are capped per client address and in total; past a cap a new socket is
// closed at once with 1013 (try again later), which the web client retries with back-off.
import {
  NOTIFICATION_WS_UNAUTHORIZED,
  type Notification,
  type WsServerMessage,
  wsAuthMessage,
} from '@piibs/shared/notification';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import pg from 'pg';
import type { WebSocket } from 'ws';
import type { Log } from '../../app-types.ts';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { SESSION_EXPIRED } from '../../plugins/auth.ts';
import { forgetSessions, resolveSession } from '../auth/sessions.ts';
import { NOTIFY_CHANNEL, notificationsAfter, unreadCountOf } from './service.ts';

const BATCH = 200;
/** How long a revoked session id is remembered (for sockets signing in while it was revoked). */
const REVOKED_MEMORY_MS = 60_000;
/** WebSocket close code "try again later": too many sockets waiting to sign in. */
const WS_TRY_LATER = 1013;

interface Conn {
  ws: WebSocket;
  userId: number;
  sessionId: string;
  /** The highest notification id sent on this socket. */
  lastSent: number;
  /** Answered the last ping. */
  alive: boolean;
  /** The socket's work, one task after another. */
  chain: Promise<void>;
  /** A sync is queued and has not started yet (a further trigger adds nothing). */
  syncQueued: boolean;
}

export interface HubSettings {
  /** How long a new socket has to send its auth message. */
  authTimeoutMs: number;
  /** Sockets waiting to sign in, per client address … */
  maxPendingPerIp: number;
  /** … and in all. */
  maxPending: number;
  pingIntervalMs: number;
  /** Delay before the listening connection is opened again after it failed or dropped. */
  reconnectDelayMs: number;
}

export interface HubDeps {
  db: Db;
  connectionString: string;
  jwtSecret: string;
  log: Log;
}

export class NotificationHub {
  /** Tunable (tests shorten them). */
  readonly settings: HubSettings = {
    authTimeoutMs: 10_000,
    maxPendingPerIp: 20,
    maxPending: 1_000,
    pingIntervalMs: 30_000,
    reconnectDelayMs: 2_000,
  };
  readonly #deps: HubDeps;
  /** Signed-in sockets by user. */
  readonly #byUser = new Map<number, Set<Conn>>();
  /** Sockets still to send their auth message, with their client address. */
  readonly #pending = new Map<WebSocket, string>();
  /** Recently revoked session ids, with when they may be forgotten. */
  readonly #revoked = new Map<string, number>();
  #client: pg.Client | null = null;
  #starting: Promise<void> | null = null;
  #reconnect: NodeJS.Timeout | null = null;
  #ping: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(deps: HubDeps) {
    this.#deps = deps;
  }

  /** Open signed-in sockets of a user on this instance (for tests and monitoring). */
  socketsOf(userId: number): number {
    return this.#byUser.get(userId)?.size ?? 0;
  }

  get listening(): boolean {
    return this.#client !== null;
  }

  /** Starts listening (idempotent; concurrent callers share one attempt). Never throws: a failure retries. */
  start(): Promise<void> {
    if (this.#closed || this.#client) return Promise.resolve();
    this.#starting ??= this.#connect().finally(() => {
      this.#starting = null;
    });
    this.#ensurePing();
    return this.#starting;
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.#deps.connectionString,
      application_name: 'piibs-notifications',
    });
    const lost = (err?: Error) => {
      if (this.#client !== client) return;
      this.#client = null;
      if (this.#closed) return;
      this.#deps.log.warn({ err }, 'notification listener disconnected; reconnecting');
      this.#scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (msg) => this.#onNotify(msg.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (err) {
      client.removeAllListeners('end');
      client.end().catch(() => {});
      if (this.#closed) return;
      this.#deps.log.error({ err }, 'notification listener could not start; retrying');
      this.#scheduleReconnect();
      return;
    }
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    forgetSessions(); // sessions revoked while nobody listened: requests read theirs again
    // Rows committed and sessions revoked while nobody listened: every socket looks again.
    const conns = this.#conns();
    for (const c of conns) this.#queueSync(c);
    await this.#closeEnded(conns).catch((err) =>
      this.#deps.log.error({ err }, 'notification socket session check failed'),
    );
  }

  #scheduleReconnect(): void {
    if (this.#reconnect || this.#closed) return;
    this.#reconnect = setTimeout(() => {
      this.#reconnect = null;
      void this.start();
    }, this.settings.reconnectDelayMs);
    this.#reconnect.unref();
  }

  #ensurePing(): void {
    if (this.#ping || this.#closed) return;
    this.#ping = setInterval(() => {
      this.sweep().catch((err) => this.#deps.log.error({ err }, 'notification socket sweep failed'));
    }, this.settings.pingIntervalMs);
    this.#ping.unref();
  }

  /** Stops listening and closes every socket (the app is closing). */
  async stop(): Promise<void> {
    this.#closed = true;
    if (this.#reconnect) clearTimeout(this.#reconnect);
    if (this.#ping) clearInterval(this.#ping);
    this.#reconnect = this.#ping = null;
    for (const ws of this.#pending.keys()) ws.terminate();
    for (const conns of this.#byUser.values()) for (const c of conns) c.ws.close(1001, 'server closing');
    this.#pending.clear();
    this.#byUser.clear();
    await this.#starting?.catch(() => {});
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => {});
  }

  /** Sockets waiting to sign in, in all or from one address. */
  pending(ip?: string): number {
    if (ip === undefined) return this.#pending.size;
    let n = 0;
    for (const from of this.#pending.values()) if (from === ip) n++;
    return n;
  }

  /**
   * A new WebSocket from the client address `ip`: waits for its auth message, then catches it up and keeps it for
   * live pushes. Refused at once (1013) past the caps on sockets waiting to sign in.
   */
  accept(ws: WebSocket, ip: string): void {
    if (this.#closed) {
      ws.close(1001, 'server closing');
      return;
    }
    if (this.#pending.size >= this.settings.maxPending || this.pending(ip) >= this.settings.maxPendingPerIp) {
      ws.close(WS_TRY_LATER, 'too many connections');
      return;
    }
    this.#pending.set(ws, ip);
    const refuse = () => {
      this.#pending.delete(ws);
      ws.close(NOTIFICATION_WS_UNAUTHORIZED, SESSION_EXPIRED);
    };
    const timer = setTimeout(refuse, this.settings.authTimeoutMs);
    ws.once('message', (data, isBinary) => {
      clearTimeout(timer);
      this.#authenticate(ws, isBinary ? null : String(data)).then(
        (conn) => {
          if (!conn) refuse();
        },
        (err) => {
          this.#deps.log.error({ err }, 'notification socket sign-in failed');
          this.#pending.delete(ws);
          ws.close(1011, 'server error');
        },
      );
    });
    ws.on('close', () => {
      clearTimeout(timer);
      this.#pending.delete(ws);
    });
  }

  async #authenticate(ws: WebSocket, text: string | null): Promise<Conn | null> {
    let parsed: unknown = null;
    try {
      parsed = text === null ? null : JSON.parse(text);
    } catch {
      return null;
    }
    const msg = wsAuthMessage.safeParse(parsed);
    if (!msg.success) return null;
    const token = /^(?:Bearer\s+)?(\S+)$/i.exec(msg.data.token.trim())?.[1];
    if (!token) return null;
    // Listening before the session check and the catch-up query: a revocation committed after the check, or a
    // row committed after the query, is heard.
    await this.start();
    const user = await resolveSession(this.#deps.db, this.#deps.jwtSecret, token);
    if (user?.scope !== 'full') return null;
    if (ws.readyState !== ws.OPEN || this.#closed || this.#revoked.has(user.sessionId)) return null;
    this.#pending.delete(ws);
    const conn: Conn = {
      ws,
      userId: user.id,
      sessionId: user.sessionId,
      lastSent: msg.data.after,
      alive: true,
      chain: Promise.resolve(),
      syncQueued: false,
    };
    const set = this.#byUser.get(user.id) ?? new Set<Conn>();
    this.#byUser.set(user.id, set.add(conn));
    ws.on('pong', () => {
      conn.alive = true;
    });
    ws.on('close', () => {
      const own = this.#byUser.get(conn.userId);
      own?.delete(conn);
      if (own?.size === 0) this.#byUser.delete(conn.userId);
    });
    this.#enqueue(conn, async () => {
      this.#send(conn, { type: 'ready', unread: await unreadCountOf(this.#deps.db, conn.userId) });
    });
    this.#queueSync(conn);
    return conn;
  }

  #enqueue(conn: Conn, task: () => Promise<void>): void {
    conn.chain = conn.chain
      .then(() => (conn.ws.readyState === conn.ws.OPEN ? task() : undefined))
      .catch((err) => {
        this.#deps.log.error({ err, userId: conn.userId }, 'notification push failed');
        conn.ws.close(1011, 'server error');
      });
  }

  #queueSync(conn: Conn): void {
    if (conn.syncQueued) return;
    conn.syncQueued = true;
    this.#enqueue(conn, async () => {
      conn.syncQueued = false;
      for (;;) {
        if (!(await this.#sessionLive(conn))) return;
        const rows: Notification[] = await notificationsAfter(
          this.#deps.db,
          conn.userId,
          conn.lastSent,
          BATCH,
        );
        if (rows.length === 0) return;
        const unread = await unreadCountOf(this.#deps.db, conn.userId);
        for (const notification of rows) {
          if (notification.id <= conn.lastSent) continue;
          this.#send(conn, { type: 'notification', notification, unread });
          conn.lastSent = notification.id;
        }
        if (rows.length < BATCH) return;
      }
    });
  }

  #send(conn: Conn, msg: WsServerMessage): void {
    if (conn.ws.readyState === conn.ws.OPEN) conn.ws.send(JSON.stringify(msg));
  }

  /** Closes (4401) and forgets a socket whose session ended. */
  #end(conn: Conn): void {
    const own = this.#byUser.get(conn.userId);
    own?.delete(conn);
    if (own?.size === 0) this.#byUser.delete(conn.userId);
    conn.ws.close(NOTIFICATION_WS_UNAUTHORIZED, SESSION_EXPIRED);
  }

  /** Whether the socket's session is still live (checked before every push); closes the socket when not. */
  async #sessionLive(conn: Conn): Promise<boolean> {
    const live = await this.#liveSessions([conn.sessionId]);
    if (!live.has(conn.sessionId)) this.#end(conn);
    return live.has(conn.sessionId);
  }

  #onRevoked(sessionId: string, userId: number): void {
    // A session revoked through another instance: the sessions this one read for its requests are read again.
    forgetSessions();
    const now = Date.now();
    // Oldest first (insertion order, all remembered equally long): forget the expired ones.
    for (const [id, until] of this.#revoked) {
      if (until > now) break;
      this.#revoked.delete(id);
    }
    this.#revoked.set(sessionId, now + REVOKED_MEMORY_MS);
    for (const conn of this.#byUser.get(userId) ?? []) if (conn.sessionId === sessionId) this.#end(conn);
  }

  #onNotify(payload: string | undefined): void {
    let p: { type?: unknown; userId?: unknown; id?: unknown; sessionId?: unknown };
    try {
      p = JSON.parse(payload ?? '');
    } catch {
      return;
    }
    if (p.type === 'revoked') {
      if (typeof p.sessionId === 'string' && typeof p.userId === 'number')
        this.#onRevoked(p.sessionId, p.userId);
      return;
    }
    const conns = typeof p.userId === 'number' ? this.#byUser.get(p.userId) : undefined;
    if (!conns) return;
    for (const conn of conns) {
      if (p.type === 'read')
        this.#enqueue(conn, async () => {
          this.#send(conn, { type: 'read', unread: await unreadCountOf(this.#deps.db, conn.userId) });
        });
      else if (typeof p.id !== 'number' || p.id > conn.lastSent) this.#queueSync(conn);
    }
  }

  /**
   * One keep-alive round (run every pingIntervalMs): terminates sockets that did not answer the last ping,
   * pings the rest and closes (4401) those whose session is no longer live.
   */
  async sweep(): Promise<void> {
    const conns = this.#conns();
    for (const c of conns) {
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
    await this.#closeEnded(conns);
  }

  #conns(): Conn[] {
    return [...this.#byUser.values()].flatMap((s) => [...s]);
  }

  /** Closes (4401) the sockets whose session is no longer live. */
  async #closeEnded(conns: Conn[]): Promise<void> {
    const live = await this.#liveSessions(conns.map((c) => c.sessionId));
    for (const c of conns) if (!live.has(c.sessionId)) this.#end(c);
  }

  /** Which of these sessions are live: not revoked, not expired, full scope, account enabled. */
  async #liveSessions(sessionIds: string[]): Promise<Set<string>> {
    const ids = [...new Set(sessionIds)];
    if (ids.length === 0) return new Set();
    const live = await this.#deps.db
      .select({ id: sessions.id })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          inArray(sessions.id, ids),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql`now()`),
          eq(sessions.scope, 'full'),
          eq(users.enabled, true),
        ),
      );
    return new Set(live.map((s) => s.id));
  }
}
