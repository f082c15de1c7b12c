// The operation log (audit_log, append-only) and the sign-in log (login_attempt): read-only lists.
import type { AuditLogRow, LoginLogRow, SORT_FIELDS } from '@piibs/shared/admin';
import { actorText, MACHINE_ACTORS } from '@piibs/shared/audit-text';
import { type AnyColumn, and, count, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  annualOrders,
  applications,
  auditLog,
  customers,
  endorsements,
  loginAttempts,
  paymentOrders,
  policies,
  secondaryOrders,
  serviceOrders,
  users,
} from '../../db/schema.ts';
import { describeAudit } from '../../lib/audit-text.ts';
import { blurry, timeRange } from '../../lib/filters.ts';
import { countOrEstimate, type ListSpec, type SortColumns } from '../../lib/paging.ts';
import { browserOf } from '../../lib/user-agent.ts';

export interface AuditFilter {
  blurry?: string | undefined;
  actor?: string | undefined;
  action?: string | undefined;
  entity?: string | undefined;
  entityId?: string | undefined;
  number?: string | undefined;
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

type AuditRecord = typeof auditLog.$inferSelect;

/**
 * The entries in words: the actor by name (the account's 姓名 where it still exists, else the name recorded; a
 * system step or a payment provider named), the object by its business number or name, the detail as lines.
 */
async function toAuditRows(db: Db, rows: { r: AuditRecord; name: string | null }[]): Promise<AuditLogRow[]> {
  const texts = await describeAudit(
    db,
    rows.map(({ r }) => r),
  );
  return rows.map(({ r, name }, i) => ({
    id: r.id,
    actorId: r.actorId,
    actorName: actorText(name || r.actorName),
    action: r.action,
    entity: r.entity,
    entityId: r.entityId,
    record: texts[i]!.record,
    detail: r.detail && typeof r.detail === 'object' ? (r.detail as Record<string, unknown>) : null,
    lines: texts[i]!.lines,
    ip: r.ip,
    createdAt: r.createdAt.toISOString(),
  }));
}

const byActor = eq(users.id, auditLog.actorId);

/** Who by login name or 姓名, or a system step or payment provider by its name in words (系统自动). */
function actorIs(actor: string): SQL | undefined {
  const machines = MACHINE_ACTORS.filter((m) => actorText(m) === actor);
  return or(
    eq(auditLog.actorName, actor),
    eq(users.nickName, actor),
    machines.length ? inArray(auditLog.actorName, machines) : undefined,
  );
}

/** The ids (as text, as audit_log keeps them) of the records of `id`'s table that match. */
const idsWhere = (db: Db, id: AnyColumn, where: SQL | undefined) =>
  db
    .select({ id: sql<string>`${id}::text` })
    .from(id.table as PgTable)
    .where(where);

/** The detail fields that name a record of each kind from another entity's entries (a payment's application). */
const DETAIL_KEYS: Readonly<Record<string, string>> = {
  application: 'applicationId',
  customer: 'customerId',
  policy: 'policyId',
  annual_order: 'annualOrderId',
  secondary_order: 'secondaryOrderId',
};
/** The review-task kind of the records that are reviewed. */
const TASK_KINDS: Readonly<Record<string, string>> = {
  customer: 'customer',
  application: 'application',
  secondary_order: 'tender',
};
const MATERIAL_RECORDS = new Set(['application', 'customer', 'service_order']);

/**
 * The entries about the record a business number names — 投保单号, 保单号, 支付单号, 二次下单号, 年度订单号, 批单号,
 * 服务单号, or a customer's name or credit code: the record's own entries, its materials, its review tasks and
 * the entries of other records that name it (the payment and the policy of an application).
 */
function aboutNumber(db: Db, number: string): SQL | undefined {
  const records: [string, ReturnType<typeof idsWhere>][] = [
    ['application', idsWhere(db, applications.id, eq(applications.number, number))],
    ['policy', idsWhere(db, policies.id, eq(policies.number, number))],
    ['payment_order', idsWhere(db, paymentOrders.id, eq(paymentOrders.number, number))],
    ['secondary_order', idsWhere(db, secondaryOrders.id, eq(secondaryOrders.number, number))],
    ['annual_order', idsWhere(db, annualOrders.id, eq(annualOrders.number, number))],
    ['endorsement', idsWhere(db, endorsements.id, eq(endorsements.number, number))],
    ['service_order', idsWhere(db, serviceOrders.id, eq(serviceOrders.number, number))],
    [
      'customer',
      idsWhere(db, customers.id, or(eq(customers.name, number), eq(customers.uscc, number.toUpperCase()))),
    ],
  ];
  const detail = (key: string) => sql`${auditLog.detail}->>${key}`;
  return or(
    ...records.flatMap(([entity, ids]) => [
      and(eq(auditLog.entity, entity), inArray(auditLog.entityId, ids)),
      DETAIL_KEYS[entity] ? inArray(detail(DETAIL_KEYS[entity]), ids) : undefined,
      MATERIAL_RECORDS.has(entity)
        ? and(
            eq(auditLog.entity, 'material'),
            sql`${detail('businessType')} = ${entity}`,
            inArray(detail('businessId'), ids),
          )
        : undefined,
      TASK_KINDS[entity]
        ? and(
            eq(auditLog.entity, 'review_task'),
            sql`${detail('kind')} = ${TASK_KINDS[entity]}`,
            inArray(detail('subjectId'), ids),
          )
        : undefined,
      entity === 'policy'
        ? and(eq(auditLog.entity, 'sales_supplement'), inArray(auditLog.entityId, ids))
        : undefined,
    ]),
  );
}

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
    f.actor ? actorIs(f.actor) : undefined,
    f.action ? eq(auditLog.action, f.action) : undefined,
    f.entity ? eq(auditLog.entity, f.entity) : undefined,
    f.entityId ? eq(auditLog.entityId, f.entityId) : undefined,
    f.number ? aboutNumber(db, f.number) : undefined,
    timeRange(auditLog.createdAt, f.startTime, f.endTime),
  );
  return {
    columns: auditSort,
    defaultOrder: [desc(auditLog.createdAt), desc(auditLog.id)],
    fetch: async ({ limit, offset, orderBy }) =>
      toAuditRows(
        db,
        await db
          .select({ r: auditLog, name: users.nickName })
          .from(auditLog)
          .leftJoin(users, byActor)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset),
      ),
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
