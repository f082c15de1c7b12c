// The operation log (audit_log, append-only) and the sign-in log (login_attempt): read-only lists.
import type { AuditLogRow, LoginLogRow, SORT_FIELDS } from '@piibs/shared/admin';
import { and, count, desc, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog, loginAttempts, users } from '../../db/schema.ts';
import { blurry, timeRange } from '../../lib/filters.ts';
import { countOrEstimate, type ListSpec, type SortColumns } from '../../lib/paging.ts';
import { browserOf } from '../../lib/user-agent.ts';

export interface AuditFilter {
  blurry?: string | undefined;
  actor?: string | undefined;
  action?: string | undefined;
  entity?: string | undefined;
  entityId?: string | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

const auditSort: SortColumns<(typeof SORT_FIELDS.logs)[number]> = {
  id: auditLog.id,
  createdAt: auditLog.createdAt,
  actorName: auditLog.actorName,
  action: auditLog.action,
  entity: auditLog.entity,
};

/** The entry with its actor by name (the account's 姓名 where it still exists; else the name recorded). */
const toAuditRow = ({ r, name }: { r: typeof auditLog.$inferSelect; name: string | null }): AuditLogRow => ({
  id: r.id,
  actorId: r.actorId,
  actorName: name || r.actorName,
  action: r.action,
  entity: r.entity,
  entityId: r.entityId,
  detail: r.detail && typeof r.detail === 'object' ? (r.detail as Record<string, unknown>) : null,
  ip: r.ip,
  createdAt: r.createdAt.toISOString(),
});

const byActor = eq(users.id, auditLog.actorId);

export function auditListSpec(
  db: Db,
  f: AuditFilter,
): ListSpec<(typeof SORT_FIELDS.logs)[number], AuditLogRow> {
  // Who by login name or by 姓名.
  const where = and(
    blurry(
      f.blurry,
      auditLog.actorName,
      users.nickName,
      auditLog.action,
      auditLog.entity,
      auditLog.entityId,
      auditLog.ip,
    ),
    f.actor ? or(eq(auditLog.actorName, f.actor), eq(users.nickName, f.actor)) : undefined,
    f.action ? eq(auditLog.action, f.action) : undefined,
    f.entity ? eq(auditLog.entity, f.entity) : undefined,
    f.entityId ? eq(auditLog.entityId, f.entityId) : undefined,
    timeRange(auditLog.createdAt, f.startTime, f.endTime),
  );
  return {
    columns: auditSort,
    defaultOrder: [desc(auditLog.createdAt), desc(auditLog.id)],
    fetch: async ({ limit, offset, orderBy }) =>
      (
        await db
          .select({ r: auditLog, name: users.nickName })
          .from(auditLog)
          .leftJoin(users, byActor)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset)
      ).map(toAuditRow),
    count: () =>
      countOrEstimate(
        db,
        'audit_log',
        where !== undefined,
        async () =>
          (await db.select({ n: count() }).from(auditLog).leftJoin(users, byActor).where(where))[0]?.n ?? 0,
      ),
  };
}

export interface LoginFilter {
  blurry?: string | undefined;
  username?: string | undefined;
  success?: boolean | undefined;
  method?: string | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

const loginSort: SortColumns<(typeof SORT_FIELDS.loginLogs)[number]> = {
  id: loginAttempts.id,
  createdAt: loginAttempts.createdAt,
  username: loginAttempts.username,
  ip: loginAttempts.ip,
  success: loginAttempts.success,
  method: loginAttempts.method,
};

const toLoginRow = (r: typeof loginAttempts.$inferSelect): LoginLogRow => ({
  id: r.id,
  username: r.username,
  userId: r.userId,
  ip: r.ip,
  userAgent: r.userAgent,
  browser: browserOf(r.userAgent),
  method: r.method,
  success: r.success,
  reason: r.reason,
  createdAt: r.createdAt.toISOString(),
});

export function loginListSpec(
  db: Db,
  f: LoginFilter,
): ListSpec<(typeof SORT_FIELDS.loginLogs)[number], LoginLogRow> {
  const where = and(
    blurry(f.blurry, loginAttempts.username, loginAttempts.ip, loginAttempts.userAgent),
    f.username ? eq(loginAttempts.username, f.username) : undefined,
    f.success !== undefined ? eq(loginAttempts.success, f.success) : undefined,
    f.method ? eq(loginAttempts.method, f.method) : undefined,
    timeRange(loginAttempts.createdAt, f.startTime, f.endTime),
  );
  return {
    columns: loginSort,
    defaultOrder: [desc(loginAttempts.createdAt), desc(loginAttempts.id)],
    fetch: async ({ limit, offset, orderBy }) =>
      (
        await db
          .select()
          .from(loginAttempts)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset)
      ).map(toLoginRow),
    count: () =>
      countOrEstimate(
        db,
        'login_attempt',
        where !== undefined,
        async () => (await db.select({ n: count() }).from(loginAttempts).where(where))[0]?.n ?? 0,
      ),
  };
}
