import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { menus, roleMenus, roles } from '../db/schema.ts';
import { forbidden, HttpError } from '../lib/errors.ts';
import { type RequestUser, resolveSession } from '../modules/auth/sessions.ts';

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

/**
 * The one place sessions are checked: an onRequest hook on the root instance. Every /api route needs a live
 * full session unless its config says otherwise; unknown paths fall through to the 404 handler.
 */
export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('user', null as unknown as RequestUser);
  app.addHook('onRequest', async (req) => {
    const url = req.routeOptions.url;
    if (!url?.startsWith('/api/') || url.startsWith('/api/docs')) return;
    const auth = req.routeOptions.config.auth;
    if (auth === 'public') return;
    const token = bearerToken(req);
    const user = token ? await resolveSession(app.deps.database.db, app.deps.config.jwtSecret, token) : null;
    if (!user) throw new HttpError(401, SESSION_EXPIRED);
    if (user.scope !== 'full' && auth !== 'session') throw forbidden(CHANGE_PASSWORD_FIRST);
    req.user = user;
  });
}

type PreHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** True when one of the caller's roles is granted a menu/button with this permission code (admin: always). */
export const hasPermission = (app: FastifyInstance, user: RequestUser, code: string): Promise<boolean> =>
  userHasPermission(app.deps.database.db, user, code);

const preparePermissionCheck = (db: Db) =>
  db
    .select({ one: sql<number>`1` })
    .from(roleMenus)
    .innerJoin(roles, eq(roles.id, roleMenus.roleId))
    .innerJoin(menus, eq(menus.id, roleMenus.menuId))
    .where(
      and(
        sql`${roles.code} = any(${sql.placeholder('roles')}::text[])`,
        eq(menus.permission, sql.placeholder('code')),
      ),
    )
    .limit(1)
    .prepare('piibs_permission_check');
/**
 * Most requests of a role other than admin run this check: as a prepared statement it is planned once per
 * connection (parsing and planning the join cost four times its run).
 */
const permissionChecks = new WeakMap<Db, ReturnType<typeof preparePermissionCheck>>();

/** hasPermission on a database (a seed acting as a user checks what that user may do, as a request would). */
export async function userHasPermission(
  db: Db,
  user: Pick<RequestUser, 'roles'>,
  code: string,
): Promise<boolean> {
  if (user.roles.includes('admin')) return true;
  if (user.roles.length === 0) return false;
  let check = permissionChecks.get(db);
  if (!check) {
    check = preparePermissionCheck(db);
    permissionChecks.set(db, check);
  }
  const [row] = await check.execute({ roles: user.roles, code });
  return Boolean(row);
}

/** preHandler: the caller's roles must grant the permission code (e.g. 'user:edit'), else 403. */
export function requirePermission(app: FastifyInstance, code: string): PreHandler {
  return async (req) => {
    if (!req.user || !(await hasPermission(app, req.user, code))) throw forbidden();
  };
}
