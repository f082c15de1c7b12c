import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { forbidden, HttpError } from '../lib/errors.ts';
import { forgetSessions, type RequestUser, resolveSession } from '../modules/auth/sessions.ts';
import { menuVersionValue } from '../modules/menus/service.ts';

/**
 * Who may call a route, set per route with `config: { auth }`:
 * - 'public': no sign-in (health, init, captcha, login, avatars …);
 * - 'session': any live session, including one limited to changing a weak password (info, logout, updatePass);
 * - unset (the default for every route under /api): a live, full session.
 */
export type RouteAuth = 'public' | 'session';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    /** The signed-in caller; set on every authenticated route (never read it on a 'public' one). */
    user: RequestUser;
  }
}

export const SESSION_EXPIRED = '登录状态已过期，请重新登录';
export const CHANGE_PASSWORD_FIRST = '请先修改密码';

/** Reads `Authorization: Bearer <token>` (the bare token is accepted too). */
export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const m = /^(?:Bearer\s+)?(\S+)$/i.exec(header.trim());
  return m?.[1] ?? null;
}

/** Methods of requests that change nothing: they may reuse a session read a moment ago (SESSION_REUSE_MS). */
const READS = new Set(['GET', 'HEAD']);

/**
 * The one place sessions are checked: an onRequest hook on the root instance. Every /api route needs a live
 * full session unless its config says otherwise; unknown paths fall through to the 404 handler. A request that
 * may change something reads its session afresh, and the sessions read so far are forgotten before and after it
 * (it may sign out, disable an account, change a role or a grant).
 */
export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('user', null as unknown as RequestUser);
  app.addHook('onResponse', async (req) => {
    if (!READS.has(req.method)) forgetSessions();
  });
  app.addHook('onRequest', async (req) => {
    const reads = READS.has(req.method);
    if (!reads) forgetSessions();
    const url = req.routeOptions.url;
    if (!url?.startsWith('/api/') || url.startsWith('/api/docs')) return;
    const auth = req.routeOptions.config.auth;
    if (auth === 'public') return;
    const token = bearerToken(req);
    const user = token
      ? await resolveSession(app.deps.database.db, app.deps.config.jwtSecret, token, { reuse: reads })
      : null;
    if (!user) throw new HttpError(401, SESSION_EXPIRED);
    if (user.scope !== 'full' && auth !== 'session') throw forbidden(CHANGE_PASSWORD_FIRST);
    req.user = user;
  });
}

type PreHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** True when one of the caller's roles is granted a menu/button with this permission code (admin: always). */
export const hasPermission = (app: FastifyInstance, user: RequestUser, code: string): Promise<boolean> =>
  userHasPermission(app.deps.database.db, user, code);

/** The permission codes a role set holds, with the menu version they were read at (one snapshot). */
const prepareGrantsRead = (db: Db) =>
  db
    .select({
      version: menuVersionValue(),
      codes: sql<string[]>`array(select distinct m.permission from role_menu rm
        join role r on r.id = rm.role_id join menu m on m.id = rm.menu_id
        where r.code = any(${sql.placeholder('roles')}::text[]) and m.permission is not null)`,
    })
    .from(sql`(select) as one`)
    .prepare('piibs_granted_codes');

/**
 * Per database: the codes each role set holds at the newest menu version seen. Every change of menus, grants or
 * role codes bumps that version (modules/menus/service.ts), and each request reads it with its session, so a
 * request's permission check is answered from memory unless the grants changed since they were read.
 */
interface Grants {
  read: ReturnType<typeof prepareGrantsRead>;
  version: number;
  /** Role set → its codes, read at `version`. */
  sets: Map<string, Set<string>>;
}
const grantsByDb = new WeakMap<Db, Grants>();

async function grantedCodes(db: Db, roleCodes: string[], version: number | undefined): Promise<Set<string>> {
  let grants = grantsByDb.get(db);
  if (!grants) {
    grants = { read: prepareGrantsRead(db), version: -1, sets: new Map() };
    grantsByDb.set(db, grants);
  }
  const roleKey = [...roleCodes].sort().join(',');
  const known = version === grants.version ? grants.sets.get(roleKey) : undefined;
  if (known) return known;
  const [row] = await grants.read.execute({ roles: roleCodes });
  const codes = new Set(row?.codes ?? []);
  if (row && row.version > grants.version) {
    grants.version = row.version;
    grants.sets.clear();
  }
  if (row?.version === grants.version) grants.sets.set(roleKey, codes);
  return codes;
}

/** hasPermission on a database (a seed acting as a user checks what that user may do, as a request would). */
export async function userHasPermission(
  db: Db,
  user: Pick<RequestUser, 'roles' | 'menuVersion'>,
  code: string,
): Promise<boolean> {
  if (user.roles.includes('admin')) return true;
  if (user.roles.length === 0) return false;
  return (await grantedCodes(db, user.roles, user.menuVersion)).has(code);
}

/** preHandler: the caller's roles must grant the permission code (e.g. 'user:edit'), else 403. */
export function requirePermission(app: FastifyInstance, code: string): PreHandler {
  return async (req) => {
    if (!req.user || !(await hasPermission(app, req.user, code))) throw forbidden();
  };
}
