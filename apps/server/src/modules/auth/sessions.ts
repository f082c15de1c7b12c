import { randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Db } from '../../db/client.ts';
import { roles, serviceOrgMembers, sessions, userRoles, users } from '../../db/schema.ts';
import { dataVersionOf } from '../../lib/keyset.ts';
import { menuVersionValue } from '../menus/service.ts';
import { notifyRevoked } from '../notifications/service.ts';

/** A session lives 4 hours; a request in its last 30 minutes extends it to 4 hours from then. */
export const SESSION_TTL_MS = 4 * 60 * 60 * 1000;
export const RENEW_UNDER_MS = 30 * 60 * 1000;
/** last_seen_at is written at most once a minute. */
export const LAST_SEEN_RESOLUTION_MS = 60 * 1000;
/** However active, a session (and its token) ends 7 days after sign-in. */
export const SESSION_MAX_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export type SessionScope = 'full' | 'password_change';
export type SessionMethod = 'password' | 'ca' | 'handoff';

/** The signed-in caller, as `req.user`. */
export interface RequestUser {
  id: number;
  username: string;
  nickName: string;
  /** Role codes as stored (may be empty; the API shows ROLE_SYSTEM_DEFAULT then). */
  roles: string[];
  channel: string;
  scope: SessionScope;
  method: SessionMethod;
  sessionId: string;
  /** The menus' version read with the session: permission checks for it are answered from memory (plugins/auth.ts). */
  menuVersion?: number;
  /**
   * The account's credit code (an enterprise's data scope), read with the session; absent on a user made without a
   * session (reviewer checks, seeding), whose scope looks it up (customers/access.ts customerViewerOf).
   */
  uscc?: string | null;
  /** The service organisation the account works for (service_org_member), read with the session like uscc. */
  serviceOrgId?: number | null;
  /**
   * The account's department and the data scopes' version (migration 0030), read with the session: a staff
   * caller's data scope computed at that version is answered from memory (lib/data-scope.ts dataScopeOf).
   */
  deptId?: number | null;
  scopeVersion?: string;
}

const keyCache = new Map<string, Uint8Array>();
function keyOf(secret: string): Uint8Array {
  let key = keyCache.get(secret);
  if (!key) {
    key = new TextEncoder().encode(secret);
    keyCache.set(secret, key);
  }
  return key;
}

export interface OpenSessionInput {
  userId: number;
  scope: SessionScope;
  method: SessionMethod;
  ip?: string | null;
  userAgent?: string | null;
}

/** Creates a session row and its token: a HS256 JWT carrying only `sid` (session id) and `sub` (user id). */
export async function openSession(
  db: Db,
  secret: string,
  input: OpenSessionInput,
): Promise<{ token: string; sessionId: string }> {
  const sessionId = randomUUID();
  const now = Date.now();
  await db.insert(sessions).values({
    id: sessionId,
    userId: input.userId,
    scope: input.scope,
    method: input.method,
    ip: input.ip ?? null,
    userAgent: input.userAgent?.slice(0, 300) ?? null,
    expiresAt: sql`now() + make_interval(secs => ${SESSION_TTL_MS / 1000})`,
  });
  const token = await new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(input.userId))
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + SESSION_MAX_LIFETIME_MS) / 1000))
    .sign(keyOf(secret));
  return { token, sessionId };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Tokens whose signature checked out, with their claims, per secret: a client sends the same token with every
 * request, and the check (WebCrypto HMAC, an async job) cost more than the session lookup. Only the signature
 * check is remembered; the token's expiry is checked at every use, and the session row is read as
 * resolveSession says (afresh, or reused for a second by a request that changes nothing). Bounded: cleared when full.
 */
const verifiedTokens = new Map<string, Map<string, { sid: string; userId: number; exp: number }>>();
const VERIFIED_MAX = 10_000;

async function readToken(secret: string, token: string): Promise<{ sid: string; userId: number } | null> {
  let verified = verifiedTokens.get(secret);
  if (!verified) {
    verified = new Map();
    verifiedTokens.set(secret, verified);
  }
  const known = verified.get(token);
  if (known && known.exp * 1000 > Date.now()) return { sid: known.sid, userId: known.userId };
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), { algorithms: ['HS256'] });
    const sid = payload.sid;
    const userId = Number(payload.sub);
    if (typeof sid !== 'string' || !UUID.test(sid) || !Number.isSafeInteger(userId)) return null;
    if (typeof payload.exp === 'number') {
      if (verified.size >= VERIFIED_MAX) verified.clear();
      verified.set(token, { sid, userId, exp: payload.exp });
    }
    return { sid, userId };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) return null;
    throw err;
  }
}

/** The roles of a user, ordered by level then id (the first is the primary role). */
export const roleCodesOf = (userIdColumn: typeof users.id) =>
  sql<
    string[]
  >`coalesce((select array_agg(r.code order by r.level, r.id) from ${userRoles} ur join ${roles} r on r.id = ur.role_id where ur.user_id = ${userIdColumn}), '{}')`;

/** The live session of a token with its user (placeholders sid, userId). */
function prepareSessionLookup(db: Db) {
  return db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      scope: sessions.scope,
      method: sessions.method,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      now: sql<Date>`now()`.mapWith(sessions.expiresAt),
      username: users.username,
      nickName: users.nickName,
      channel: users.channel,
      uscc: users.uscc,
      serviceOrgId: sql<
        number | null
      >`(select m.org_id from ${serviceOrgMembers} m where m.user_id = ${users.id})`.mapWith(Number),
      roles: roleCodesOf(users.id),
      menuVersion: menuVersionValue(),
      deptId: users.deptId,
      scopeVersion: dataVersionOf('data_scope_version_seq'),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sid')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        eq(users.enabled, true),
      ),
    )
    .limit(1)
    .prepare('piibs_session_lookup');
}

type LookupRow = Awaited<ReturnType<ReturnType<typeof prepareSessionLookup>['execute']>>[number];

/**
 * How long a session read for a request that changes nothing may answer the same token's next such requests: a
 * screen's requests (5–10 at once, on the dashboard) read their session once. Any request that changes something
 * reads its session afresh and, before and after it runs, makes this instance forget the sessions it has read
 * (`forgetSessions`, plugins/auth.ts), as does a revocation; so a sign-out, a disabled account or a changed role
 * shows here at the next request, and on another instance (or after a change made in the database directly)
 * within this time.
 */
export const SESSION_REUSE_MS = 1000;
const REUSE_MAX = 10_000;

/** Advanced by forgetSessions: a session read before it is not used again, nor kept if it was being read. */
let generation = 0;

/**
 * Per database: the lookup, built once as a prepared statement and planned once per connection (planning the join
 * cost more than running it), and the sessions read: session id → the row, when (performance.now() before it was
 * asked for), at which generation.
 */
const lookups = new WeakMap<
  Db,
  {
    lookup: ReturnType<typeof prepareSessionLookup>;
    read: Map<string, { row: LookupRow; readAt: number; generation: number }>;
  }
>();

function lookupsOf(db: Db) {
  let state = lookups.get(db);
  if (!state) {
    state = { lookup: prepareSessionLookup(db), read: new Map() };
    lookups.set(db, state);
  }
  return state;
}

/** Makes this instance read every session from the database again (after anything that may change one). */
export function forgetSessions(): void {
  generation++;
}

/** What the session needs written now (given the database's time): a renewal, a last-seen mark, or nothing. */
function dueWrite(row: LookupRow, now: number): 'renew' | 'seen' | null {
  if (row.expiresAt.getTime() - now < RENEW_UNDER_MS) return 'renew';
  if (now - row.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) return 'seen';
  return null;
}

function requestUserOf(row: LookupRow): RequestUser {
  return {
    id: row.userId,
    username: row.username,
    nickName: row.nickName,
    roles: row.roles,
    channel: row.channel,
    scope: row.scope === 'password_change' ? 'password_change' : 'full',
    method: row.method === 'ca' ? 'ca' : row.method === 'handoff' ? 'handoff' : 'password',
    sessionId: row.id,
    menuVersion: row.menuVersion,
    uscc: row.uscc,
    serviceOrgId: row.serviceOrgId,
    deptId: row.deptId,
    scopeVersion: row.scopeVersion,
  };
}

/**
 * Resolves a bearer token to the live session and its user, or null when the token is invalid or its session
 * expired, was revoked, or belongs to a disabled account. Extends the session when under 30 minutes remain.
 * `reuse` (a request that changes nothing): a session this instance read for the same token within
 * SESSION_REUSE_MS answers without asking the database, unless it has expired or is due a write since.
 */
export async function resolveSession(
  db: Db,
  secret: string,
  token: string,
  opts: { reuse?: boolean } = {},
): Promise<RequestUser | null> {
  const claims = await readToken(secret, token);
  if (!claims) return null;
  const { lookup, read } = lookupsOf(db);
  const startedAt = performance.now();
  if (opts.reuse) {
    const known = read.get(claims.sid);
    const age = startedAt - (known?.readAt ?? 0);
    if (known?.generation === generation && age < SESSION_REUSE_MS && known.row.userId === claims.userId) {
      const now = known.row.now.getTime() + age; // the database's time now, as far as it can be told
      if (now < known.row.expiresAt.getTime() && !dueWrite(known.row, now)) return requestUserOf(known.row);
    }
  }
  const readGeneration = generation;
  const [row] = await lookup.execute({ sid: claims.sid, userId: claims.userId });
  if (!row) {
    read.delete(claims.sid);
    return null;
  }

  const due = dueWrite(row, row.now.getTime());
  if (due === 'renew') {
    await db
      .update(sessions)
      .set({
        expiresAt: sql`greatest(${sessions.expiresAt}, least(now() + make_interval(secs => ${SESSION_TTL_MS / 1000}), ${sessions.createdAt} + make_interval(secs => ${SESSION_MAX_LIFETIME_MS / 1000})))`,
        lastSeenAt: sql`now()`,
      })
      .where(eq(sessions.id, row.id));
  } else if (due === 'seen') {
    await db.update(sessions).set({ lastSeenAt: sql`now()` }).where(eq(sessions.id, row.id));
  } else if (readGeneration === generation) {
    // Kept only if nothing was forgotten while it was read (a change under way may have made it stale).
    if (read.size >= REUSE_MAX) read.clear();
    read.set(claims.sid, { row, readAt: startedAt, generation });
  }
  return requestUserOf(row);
}

/** Database handles that can revoke: the database or a transaction. */
type Revoker = Pick<Db, 'update' | 'execute'>;

/**
 * Revokes the live sessions matching `where` and tells the notification hubs, so their sockets close within a
 * second on every instance (modules/notifications/hub.ts). Answers the sessions revoked.
 */
async function revokeWhere(db: Revoker, where: SQL | undefined, reason: string) {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(isNull(sessions.revokedAt), where))
    .returning({ id: sessions.id, userId: sessions.userId });
  forgetSessions();
  await notifyRevoked(db, revoked);
  return revoked;
}

export async function revokeSession(db: Revoker, sessionId: string, reason: string): Promise<boolean> {
  return (await revokeWhere(db, eq(sessions.id, sessionId), reason)).length > 0;
}

/** Revokes the sessions given (an administrator's force logout); answers those that were live, with their users. */
export function revokeSessions(db: Revoker, sessionIds: readonly string[], reason: string) {
  return revokeWhere(db, inArray(sessions.id, [...sessionIds]), reason);
}

/** Revokes every live session of a user (but `exceptSessionId`); answers how many. */
export async function revokeUserSessions(
  db: Revoker,
  userId: number,
  reason: string,
  exceptSessionId?: string,
): Promise<number> {
  const revoked = await revokeWhere(
    db,
    and(
      eq(sessions.userId, userId),
      gt(sessions.expiresAt, sql`now()`),
      exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined,
    ),
    reason,
  );
  return revoked.length;
}
