// The dashboard's figures: SQL aggregates over live data, each limited to what the caller may see (the same
// visibility rules as the lists: applications/access.ts, customers/access.ts, lib/data-scope.ts), for a range of
// Asia/Shanghai days. Periods with nothing in them are zeros, never invented values.
import { APPLICATION_STATUS_LABELS, APPLICATION_STATUSES, addDays } from '@piibs/shared/application-status';
import {
  AGE_BUCKET_LABELS,
  AGE_BUCKETS,
  type AgeBucket,
  type BusinessSection,
  EXPIRING_LIST_SIZE,
  EXPIRY_WINDOWS,
  FUNNEL_STAGE_LABELS,
  FUNNEL_STAGES,
  type Granularity,
  type ManagementSection,
  NEXT_ACTION_LABELS,
  NEXT_ACTION_OF,
  periodsOf,
  type ReviewSection,
  type ServiceSection,
  type SystemSection,
} from '@piibs/shared/dashboard';
import { TASK_KIND_LABELS, type TaskKind } from '@piibs/shared/review';
import { RECTIFIABLE, SERVICE_ORDER_STATUS_LABELS, SERVICE_ORDER_STATUSES } from '@piibs/shared/risk-control';
import { and, count, desc, eq, gte, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database, Db } from '../../db/client.ts';
import {
  applications,
  loginAttempts,
  payments,
  policies,
  policyCoinsurers,
  preventionFunds,
  products,
  reviewTasks,
  serviceComplaints,
  serviceHazards,
  serviceOrders,
  serviceOrgMembers,
  serviceOrgs,
  sessions,
  users,
} from '../../db/schema.ts';
import { type DataScope, usersInScope } from '../../lib/data-scope.ts';
import { applicationsVisibleTo, applicationTasksVisibleTo } from '../applications/access.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { customerTasksVisibleTo } from '../customers/service.ts';
import { policiesVisibleTo } from '../policies/service.ts';

export interface Range {
  from: string;
  to: string;
  granularity: Granularity;
}

const TZ = `'Asia/Shanghai'`;

/** `column` falls on a day of the range (Asia/Shanghai), written so an index on the column still serves. */
function within(column: PgColumn, range: Range): SQL {
  return sql`${column} >= (${range.from}::date::timestamp at time zone ${sql.raw(TZ)}) and ${column} < ((${range.to}::date + 1)::timestamp at time zone ${sql.raw(TZ)})`;
}

/** The period (Asia/Shanghai day or month) of a timestamp, as text; no parameters, so GROUP BY can repeat it. */
function periodOf(column: PgColumn, granularity: Granularity): SQL<string> {
  const format = granularity === 'day' ? `'YYYY-MM-DD'` : `'YYYY-MM'`;
  return sql<string>`to_char(${column} at time zone ${sql.raw(TZ)}, ${sql.raw(format)})`;
}

const sumFen = (column: PgColumn) => sql<number>`coalesce(sum(${column}), 0)::bigint`.mapWith(Number);

/** One row per period of the range, zeros where nothing happened. */
function fillPeriods<T extends { period: string }>(
  range: Range,
  rows: readonly T[],
  empty: (period: string) => T,
): T[] {
  const byPeriod = new Map(rows.map((r) => [r.period, r]));
  return periodsOf(range.from, range.to, range.granularity).map((p) => byPeriod.get(p) ?? empty(p));
}

// ---- review ----

/** The rule limiting each kind's tasks to records the viewer may see (as the task queue's). */
const TASK_VISIBILITY: Partial<Record<TaskKind, (db: Db, viewer: CustomerViewer) => SQL | undefined>> = {
  customer: customerTasksVisibleTo,
  application: applicationTasksVisibleTo,
};

/** The kinds the dashboard counts: those with a visibility rule (the queue lists no others either). */
export const REVIEW_KINDS = Object.keys(TASK_VISIBILITY) as TaskKind[];

function tasksVisibleTo(db: Db, viewer: CustomerViewer, kinds: readonly TaskKind[]): SQL {
  const parts = kinds
    .filter((k) => TASK_VISIBILITY[k])
    .map((k) => and(eq(reviewTasks.kind, k), TASK_VISIBILITY[k]!(db, viewer))!);
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
}

const AGE_BUCKET_SQL = sql<AgeBucket>`case
  when ${reviewTasks.createdAt} > now() - interval '1 hour' then 'lt1h'
  when ${reviewTasks.createdAt} > now() - interval '24 hours' then 'h1to24'
  when ${reviewTasks.createdAt} > now() - interval '3 days' then 'd1to3'
  else 'gt3d' end`;

export async function reviewFigures(
  db: Db,
  viewer: CustomerViewer,
  kinds: readonly TaskKind[],
  range: Range,
): Promise<ReviewSection> {
  const visible = tasksVisibleTo(db, viewer, kinds);
  const [open, oldest, decided] = await Promise.all([
    db
      .select({ kind: reviewTasks.kind, bucket: AGE_BUCKET_SQL, n: count() })
      .from(reviewTasks)
      .where(and(eq(reviewTasks.status, 'open'), visible))
      .groupBy(sql`1`, sql`2`),
    db
      .select({
        seconds: sql<
          number | null
        >`floor(extract(epoch from now() - min(${reviewTasks.createdAt})))::int`.mapWith((v) =>
          v == null ? null : Number(v),
        ),
      })
      .from(reviewTasks)
      .where(and(eq(reviewTasks.status, 'open'), visible)),
    db
      .select({
        period: periodOf(reviewTasks.decidedAt, range.granularity),
        decision: reviewTasks.decision,
        n: count(),
      })
      .from(reviewTasks)
      .where(and(eq(reviewTasks.status, 'done'), within(reviewTasks.decidedAt, range), visible))
      .groupBy(sql`1`, sql`2`),
  ]);

  const byAge = AGE_BUCKETS.map((bucket) => {
    const counts = { customer: 0, application: 0, tender: 0 };
    for (const r of open) if (r.bucket === bucket) counts[r.kind as TaskKind] += r.n;
    return {
      bucket,
      label: AGE_BUCKET_LABELS[bucket],
      ...counts,
      total: counts.customer + counts.application + counts.tender,
    };
  });
  const perPeriod = new Map<string, { period: string; approve: number; return: number; reject: number }>();
  const decisionTotals = { approve: 0, return: 0, reject: 0 };
  for (const r of decided) {
    const decision = r.decision as keyof typeof decisionTotals;
    if (!(decision in decisionTotals)) continue;
    const row = perPeriod.get(r.period) ?? { period: r.period, approve: 0, return: 0, reject: 0 };
    row[decision] += r.n;
    decisionTotals[decision] += r.n;
    perPeriod.set(r.period, row);
  }
  return {
    kinds: kinds.map((kind) => ({ kind, label: TASK_KIND_LABELS[kind] })),
    openTotal: byAge.reduce((sum, b) => sum + b.total, 0),
    oldestAgeSeconds: oldest[0]?.seconds ?? null,
    byAge,
    decisions: fillPeriods(range, [...perPeriod.values()], (period) => ({
      period,
      approve: 0,
      return: 0,
      reject: 0,
    })),
    decisionTotals,
  };
}

// ---- business: the caller's own applications and policies ----

// Named in full: drizzle leaves the columns of a one-table select unqualified, and `id` would then be the event's.
const hasEvent = (action: string) =>
  sql`exists (select 1 from application_event e where e.application_id = "application"."id" and e.action = ${action})`;

export async function businessFigures(
  db: Db,
  viewer: CustomerViewer,
  range: Range,
  today: string,
): Promise<BusinessSection> {
  const visibleApplications = applicationsVisibleTo(db, viewer);
  const visiblePolicies = policiesVisibleTo(db, viewer);
  const horizon = addDays(today, Math.max(...EXPIRY_WINDOWS));
  const expiringWhere = and(visiblePolicies, gte(policies.endDate, today), lte(policies.endDate, horizon));
  const [byStatus, funnel, expiring, soonest] = await Promise.all([
    db
      .select({ status: applications.status, n: count() })
      .from(applications)
      .where(visibleApplications)
      .groupBy(applications.status),
    db
      .select({
        created: count(),
        // Submitted: the timeline says so (a draft never submitted has no such event).
        submitted: sql<number>`count(*) filter (where ${hasEvent('submit')})`.mapWith(Number),
        approved: sql<number>`count(*) filter (where ${hasEvent('approve')})`.mapWith(Number),
        paid: sql<number>`count(*) filter (where ${hasEvent('pay')})`.mapWith(Number),
        issued: sql<number>`count(*) filter (where ${hasEvent('issue')})`.mapWith(Number),
      })
      .from(applications)
      .where(and(visibleApplications, within(applications.createdAt, range))),
    db
      .select({
        ...Object.fromEntries(
          EXPIRY_WINDOWS.flatMap((d) => [
            [
              `n${d}`,
              sql<number>`count(*) filter (where ${policies.endDate} <= ${addDays(today, d)})`.mapWith(
                Number,
              ),
            ],
            [
              `fen${d}`,
              sql<number>`coalesce(sum(${policies.premiumFen}) filter (where ${policies.endDate} <= ${addDays(today, d)}), 0)::bigint`.mapWith(
                Number,
              ),
            ],
          ]),
        ),
      })
      .from(policies)
      .where(expiringWhere),
    db
      .select({
        id: policies.id,
        number: policies.number,
        holderName: policies.holderName,
        productName: products.name,
        endDate: policies.endDate,
        daysLeft: sql<number>`(${policies.endDate} - ${today}::date)`.mapWith(Number),
        premiumFen: policies.premiumFen,
      })
      .from(policies)
      .innerJoin(products, eq(products.id, policies.productId))
      .where(expiringWhere)
      .orderBy(policies.endDate, policies.id)
      .limit(EXPIRING_LIST_SIZE),
  ]);

  const counts = new Map(byStatus.map((r) => [r.status, r.n]));
  const applicationRows = APPLICATION_STATUSES.filter((s) => (counts.get(s) ?? 0) > 0).map((status) => {
    const key = NEXT_ACTION_OF[status];
    return {
      status,
      label: APPLICATION_STATUS_LABELS[status],
      count: counts.get(status) ?? 0,
      action: key ? { key, label: NEXT_ACTION_LABELS[key] } : null,
    };
  });
  const f = funnel[0] ?? { created: 0, submitted: 0, approved: 0, paid: 0, issued: 0 };
  const e = (expiring[0] ?? {}) as Record<string, number>;
  return {
    applications: applicationRows,
    applicationsTotal: applicationRows.reduce((sum, r) => sum + r.count, 0),
    funnel: FUNNEL_STAGES.map((stage) => ({ stage, label: FUNNEL_STAGE_LABELS[stage], count: f[stage] })),
    expiring: EXPIRY_WINDOWS.map((d) => ({
      withinDays: d,
      count: e[`n${d}`] ?? 0,
      premiumFen: e[`fen${d}`] ?? 0,
    })),
    expiringSoon: soonest,
  };
}

// ---- management: premium and policies in the caller's data scope ----

export async function managementFigures(
  db: Db,
  viewer: CustomerViewer,
  range: Range,
): Promise<ManagementSection> {
  const issued = and(policiesVisibleTo(db, viewer), within(policies.issuedAt, range));
  const visibleApplications = applicationsVisibleTo(db, viewer);
  const [trend, byProduct, coinsurance, paid] = await Promise.all([
    db
      .select({
        period: periodOf(policies.issuedAt, range.granularity),
        premiumFen: sumFen(policies.premiumFen),
        policies: count(),
      })
      .from(policies)
      .where(issued)
      .groupBy(sql`1`),
    db
      .select({
        productId: products.id,
        productCode: products.code,
        productName: products.name,
        premiumFen: sumFen(policies.premiumFen),
        policies: count(),
      })
      .from(policies)
      .innerJoin(products, eq(products.id, policies.productId))
      .where(issued)
      .groupBy(products.id, products.code, products.name)
      .orderBy(desc(sumFen(policies.premiumFen)), products.id),
    db
      .select({
        insurerCode: policyCoinsurers.insurerCode,
        insurerName: sql<string>`coalesce(max(${policyCoinsurers.insurerName}), ${policyCoinsurers.insurerCode})`,
        premiumFen: sumFen(policyCoinsurers.premiumFen),
        policies: sql<number>`count(distinct ${policyCoinsurers.policyId})`.mapWith(Number),
      })
      .from(policyCoinsurers)
      .innerJoin(policies, eq(policies.id, policyCoinsurers.policyId))
      .where(issued)
      .groupBy(policyCoinsurers.insurerCode)
      .orderBy(desc(sumFen(policyCoinsurers.premiumFen)), policyCoinsurers.insurerCode),
    db
      .select({ fen: sumFen(payments.amountFen) })
      .from(payments)
      .where(
        and(
          within(payments.paidAt, range),
          visibleApplications
            ? inArray(
                payments.applicationId,
                db.select({ id: applications.id }).from(applications).where(visibleApplications),
              )
            : undefined,
        ),
      ),
  ]);
  const [prevention, serviceOrders] = await preventionFigures(db, viewer);
  const premiumTrend = fillPeriods(range, trend, (period) => ({ period, premiumFen: 0, policies: 0 }));
  return {
    totals: {
      premiumFen: premiumTrend.reduce((sum, p) => sum + p.premiumFen, 0),
      paidFen: paid[0]?.fen ?? 0,
      policies: premiumTrend.reduce((sum, p) => sum + p.policies, 0),
    },
    premiumTrend,
    byProduct,
    coinsurance,
    prevention,
    serviceOrders,
  };
}

/**
 * The prevention funds and service orders of the policies the viewer may see, as they are now. A policy's fund
 * row is made with its first plan item, so the total is the policies' prevention fees (a policy without a row
 * has planned and spent nothing yet).
 */
async function preventionFigures(
  db: Db,
  viewer: CustomerViewer,
): Promise<[ManagementSection['prevention'], ManagementSection['serviceOrders']]> {
  const visible = policiesVisibleTo(db, viewer);
  const [[fund], orders] = await Promise.all([
    db
      .select({
        policies: sql<number>`count(*) filter (where ${policies.preventionFeeFen} > 0)`.mapWith(Number),
        totalFen: sumFen(policies.preventionFeeFen),
        plannedFen: sumFen(preventionFunds.plannedFen),
        spentFen: sumFen(preventionFunds.spentFen),
      })
      .from(policies)
      .leftJoin(preventionFunds, eq(preventionFunds.policyId, policies.id))
      .where(visible),
    db
      .select({ status: serviceOrders.status, n: count() })
      .from(serviceOrders)
      .where(
        visible
          ? inArray(serviceOrders.policyId, db.select({ id: policies.id }).from(policies).where(visible))
          : undefined,
      )
      .groupBy(serviceOrders.status),
  ]);
  const f = fund ?? { policies: 0, totalFen: 0, plannedFen: 0, spentFen: 0 };
  const byStatus = new Map(orders.map((o) => [o.status, o.n]));
  return [
    { ...f, leftFen: f.totalFen - f.plannedFen - f.spentFen },
    SERVICE_ORDER_STATUSES.filter((s) => (byStatus.get(s) ?? 0) > 0).map((status) => ({
      status,
      label: SERVICE_ORDER_STATUS_LABELS[status],
      count: byStatus.get(status) ?? 0,
    })),
  ];
}

// ---- service: the caller's service organisation (as "my service orders" shows it: its own orders only) ----

/** The service organisation the user is a member of (a user belongs to one at most), or undefined. */
export async function serviceOrgOf(db: Db, userId: number): Promise<ServiceSection['org'] | undefined> {
  const [org] = await db
    .select({ id: serviceOrgs.id, name: serviceOrgs.name })
    .from(serviceOrgMembers)
    .innerJoin(serviceOrgs, eq(serviceOrgs.id, serviceOrgMembers.orgId))
    .where(eq(serviceOrgMembers.userId, userId));
  return org;
}

export async function serviceFigures(
  db: Db,
  org: ServiceSection['org'],
  range: Range,
  today: string,
): Promise<ServiceSection> {
  const ofOrg = eq(serviceOrders.orgId, org.id);
  const pastDue = (column: PgColumn) => sql<number>`count(*) filter (where ${column} < ${today}::date)`;
  const [byStatus, dispatched, [hazards], [complaints]] = await Promise.all([
    db
      .select({ status: serviceOrders.status, n: count() })
      .from(serviceOrders)
      .where(ofOrg)
      .groupBy(serviceOrders.status),
    db
      .select({ period: periodOf(serviceOrders.createdAt, range.granularity), orders: count() })
      .from(serviceOrders)
      .where(and(ofOrg, within(serviceOrders.createdAt, range)))
      .groupBy(sql`1`),
    // Hazards are rectified once the enterprise has confirmed the record (RECTIFIABLE), not before.
    db
      .select({ open: count(), overdue: pastDue(serviceHazards.deadline).mapWith(Number) })
      .from(serviceHazards)
      .innerJoin(serviceOrders, eq(serviceOrders.id, serviceHazards.orderId))
      .where(and(ofOrg, eq(serviceHazards.status, 'OPEN'), inArray(serviceOrders.status, [...RECTIFIABLE]))),
    db
      .select({ open: count(), overdue: pastDue(serviceComplaints.deadline).mapWith(Number) })
      .from(serviceComplaints)
      .innerJoin(serviceOrders, eq(serviceOrders.id, serviceComplaints.orderId))
      .where(and(ofOrg, eq(serviceComplaints.status, 'OPEN'))),
  ]);
  const counts = new Map(byStatus.map((r) => [r.status, r.n]));
  const orders = SERVICE_ORDER_STATUSES.filter((s) => (counts.get(s) ?? 0) > 0).map((status) => ({
    status,
    label: SERVICE_ORDER_STATUS_LABELS[status],
    count: counts.get(status) ?? 0,
  }));
  const h = hazards ?? { open: 0, overdue: 0 };
  return {
    org,
    orders,
    ordersTotal: orders.reduce((sum, r) => sum + r.count, 0),
    dispatched: fillPeriods(range, dispatched, (period) => ({ period, orders: 0 })),
    hazards: { overdue: h.overdue, upcoming: h.open - h.overdue },
    complaints: complaints ?? { open: 0, overdue: 0 },
  };
}

// ---- system ----

export async function systemFigures(
  database: Database,
  scope: DataScope,
  range: Range,
): Promise<SystemSection> {
  const { db } = database;
  const started = performance.now();
  const up = await database.pool
    .query('SELECT 1')
    .then(() => true)
    .catch(() => false);
  const latencyMs = up ? Math.round((performance.now() - started) * 10) / 10 : null;
  if (!up)
    return {
      database: { up, latencyMs },
      sessionsOnline: 0,
      usersOnline: 0,
      signIns: [],
      signInTotals: { success: 0, failure: 0 },
    };
  const inScope = usersInScope(scope);
  const scopedUsers = inScope ? db.select({ id: users.id }).from(users).where(inScope) : undefined;
  const [online, attempts] = await Promise.all([
    db
      .select({
        sessions: count(),
        users: sql<number>`count(distinct ${sessions.userId})`.mapWith(Number),
      })
      .from(sessions)
      .where(
        and(
          isNull(sessions.revokedAt),
          sql`${sessions.expiresAt} > now()`,
          scopedUsers ? inArray(sessions.userId, scopedUsers) : undefined,
        ),
      ),
    db
      .select({
        period: periodOf(loginAttempts.createdAt, range.granularity),
        success: sql<number>`count(*) filter (where ${loginAttempts.success})`.mapWith(Number),
        failure: sql<number>`count(*) filter (where not ${loginAttempts.success})`.mapWith(Number),
      })
      .from(loginAttempts)
      .where(
        and(
          within(loginAttempts.createdAt, range),
          scopedUsers ? inArray(loginAttempts.userId, scopedUsers) : undefined,
        ),
      )
      .groupBy(sql`1`),
  ]);
  const signIns = fillPeriods(range, attempts, (period) => ({ period, success: 0, failure: 0 }));
  return {
    database: { up, latencyMs },
    sessionsOnline: online[0]?.sessions ?? 0,
    usersOnline: online[0]?.users ?? 0,
    signIns,
    signInTotals: {
      success: signIns.reduce((sum, p) => sum + p.success, 0),
      failure: signIns.reduce((sum, p) => sum + p.failure, 0),
    },
  };
}
