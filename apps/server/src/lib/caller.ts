import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import type { RequestUser } from '../modules/auth/sessions.ts';
import { type DataScope, dataScopeOf } from './data-scope.ts';
import { callerLevel } from './permissions.ts';

/** The caller of an administrative call, with what the rules need. */
export interface Caller {
  user: RequestUser;
  ip: string;
  /** Smallest role level (1 = most powerful). */
  level: number;
  scope: DataScope;
}

export async function callerOf(db: Db, req: FastifyRequest): Promise<Caller> {
  const [level, scope] = await Promise.all([callerLevel(db, req.user), dataScopeOf(db, req.user)]);
  return { user: req.user, ip: req.ip, level, scope };
}
