import { inArray, min } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { roles } from '../db/schema.ts';
import type { RequestUser } from '../modules/auth/sessions.ts';
import { hasPermission } from '../plugins/auth.ts';
import { forbidden } from './errors.ts';

type PreHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** preHandler: the caller must hold at least one of the permission codes (admin: always), else 403. */
export function requireAnyPermission(app: FastifyInstance, ...codes: string[]): PreHandler {
  return async (req) => {
    if (!req.user) throw forbidden();
    for (const code of codes) if (await hasPermission(app, req.user, code)) return;
    throw forbidden();
  };
}

export const isAdmin = (user: Pick<RequestUser, 'roles'>) => user.roles.includes('admin');

/** A level no role reaches: the level of a caller without roles. */
export const NO_LEVEL = 1_000_000;

/** The caller's role level: the smallest (most powerful) level of their roles; the admin role counts as 1. */
export async function callerLevel(db: Db, user: Pick<RequestUser, 'roles'>): Promise<number> {
  if (isAdmin(user)) return 1;
  if (user.roles.length === 0) return NO_LEVEL;
  const [row] = await db
    .select({ level: min(roles.level) })
    .from(roles)
    .where(inArray(roles.code, user.roles));
  return row?.level ?? NO_LEVEL;
}
