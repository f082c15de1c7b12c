// The prevention record of a policy (事故预防, route :seqNo = 'YF' + policy number): its fund, the service plan
// and the fund's ledger.
//
// The fund row is made on the first plan item (its total is the policy's prevention fee). Every change of money
// locks the fund row (SELECT … FOR UPDATE), so two changes never both see the same balance: of two concurrent
// reservations or spendings of the last amount exactly one succeeds, the other answers 400 with
// '事故预防费用余额不足：剩余 ¥x，本次需要 ¥y'. The fund's CHECK (planned + spent ≤ total) backs this up.
// Every reservation, release and spending is a ledger entry; every change is audited.
import { formatFen } from '@piibs/shared/money';
import { policyStatusOn } from '@piibs/shared/policy';
import {
  FREQUENCY_TIMES,
  fundLeft,
  LEDGER_KIND_LABELS,
  type LedgerKind,
  type LedgerResult,
  LIVE_ORDER_STATUSES,
  type Party,
  type PLAN_SORT_FIELDS,
  type PlanDetail,
  type PlanItemRow,
  type PlanRow,
  type planItemCreateForm,
  type planItemUpdateForm,
  policyNumberOfSeqNo,
  preventionSeqNo,
  reserveChange,
  SCHEDULED_DATES_TITLE,
  SERVICE_FREQUENCY_LABELS,
  SERVICE_ITEM_LABELS,
  type ServiceFrequency,
  type ServiceItemType,
  scheduledDatesProblem,
} from '@piibs/shared/risk-control';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import {
  customers,
  policies,
  preventionFunds,
  preventionLedger,
  preventionPlanItems,
  products,
  serviceOrders,
  serviceOrgs,
} from '../../db/schema.ts';
import { actorNameOf, entityAudit } from '../../lib/audit.ts';
import { badRequest, conflict, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { blurry } from '../../lib/filters.ts';
import type { ListSpec, SortColumns } from '../../lib/paging.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import { ONLY_INSURER, type PreventionViewer, plansVisibleTo, sidesOnPolicy } from './access.ts';
import { servesRegion } from './orgs.ts';
import { checkPersons, personNames } from './persons.ts';

export type Fund = typeof preventionFunds.$inferSelect;
export type PlanItem = typeof preventionPlanItems.$inferSelect;
type Policy = typeof policies.$inferSelect;

export const PLAN_NOT_FOUND = '事故预防记录不存在';
export const ITEM_NOT_FOUND = '服务项目不存在';
const POLICY_EXPIRED = '保单已到期，不能再安排事故预防服务';
const POLICY_CANCELLED = '保单已退保，不能再安排事故预防服务';

const auditPlanItem = entityAudit('prevention_plan_item');

// ---- the policy and its fund ----

/** The policy of a record number the caller may see (404 otherwise). */
export async function visiblePolicy(db: Db | Tx, v: PreventionViewer, seqNo: string): Promise<Policy> {
  const number = policyNumberOfSeqNo(seqNo);
  if (!number) throw notFound(PLAN_NOT_FOUND);
  const [row] = await db
    .select()
    .from(policies)
    .where(and(eq(policies.number, number), plansVisibleTo(db, v)));
  if (!row) throw notFound(PLAN_NOT_FOUND);
  return row;
}

/** The side the caller acts on for a policy's record: staff first, then the enterprise, then the organisation. */
async function planParty(db: Db | Tx, v: PreventionViewer, policyId: number): Promise<Party> {
  const sides = await sidesOnPolicy(db, v, policyId);
  return sides.insurer ? 'insurer' : sides.enterprise ? 'enterprise' : 'org';
}

/** Makes the fund row of a policy unless it exists, then locks it. */
export async function lockFund(tx: Tx, policy: Policy): Promise<Fund> {
  await tx
    .insert(preventionFunds)
    .values({ policyId: policy.id, seqNo: preventionSeqNo(policy.number), totalFen: policy.preventionFeeFen })
    .onConflictDoNothing();
  const [fund] = await tx
    .select()
    .from(preventionFunds)
    .where(eq(preventionFunds.policyId, policy.id))
    .for('update');
  return fund!;
}

/** Moves the fund's amounts and writes the ledger entry (the fund row must be locked). */
export async function moveFund(
  tx: Tx,
  v: PreventionViewer,
  fund: Fund,
  e: {
    kind: LedgerKind;
    amountFen: number;
    plannedDeltaFen: number;
    spentDeltaFen: number;
    planItemId: number | null;
    orderId?: number | null;
    note?: string | null;
  },
): Promise<Fund> {
  // Relative updates: even a caller that forgot the lock could not lose another's change (the CHECK refuses an
  // overspent result).
  const [after] = await tx
    .update(preventionFunds)
    .set({
      plannedFen: sql`${preventionFunds.plannedFen} + ${e.plannedDeltaFen}`,
      spentFen: sql`${preventionFunds.spentFen} + ${e.spentDeltaFen}`,
      version: sql`${preventionFunds.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(preventionFunds.id, fund.id))
    .returning();
  await tx.insert(preventionLedger).values({
    fundId: fund.id,
    kind: e.kind,
    amountFen: e.amountFen,
    plannedDeltaFen: e.plannedDeltaFen,
    spentDeltaFen: e.spentDeltaFen,
    plannedAfterFen: after!.plannedFen,
    spentAfterFen: after!.spentFen,
    leftAfterFen: fundLeft(after!),
    planItemId: e.planItemId,
    orderId: e.orderId ?? null,
    note: e.note ?? null,
    actorId: v.user.id,
    actorName: v.user.username,
  });
  return after!;
}

const summaryOf = (f: { totalFen: number; plannedFen: number; spentFen: number }) => ({
  totalFen: f.totalFen,
  plannedFen: f.plannedFen,
  spentFen: f.spentFen,
  leftFen: fundLeft(f),
});

/** The fund of a policy (a virtual one before the first plan item). */
export async function fundSummaryOf(db: Db | Tx, policy: Pick<Policy, 'id' | 'preventionFeeFen'>) {
  const [fund] = await db.select().from(preventionFunds).where(eq(preventionFunds.policyId, policy.id));
  return {
    fund: fund ?? null,
    summary: summaryOf(fund ?? { totalFen: policy.preventionFeeFen, plannedFen: 0, spentFen: 0 }),
  };
}

// ---- the plan: list and detail ----

const planColumns = {
  policyId: policies.id,
  policyNumber: policies.number,
  productName: products.name,
  holderName: policies.holderName,
  holderUscc: policies.holderUscc,
  startDate: policies.startDate,
  endDate: policies.endDate,
  preventionRatio: policies.preventionRatio,
  preventionFeeFen: policies.preventionFeeFen,
  totalFen: preventionFunds.totalFen,
  plannedFen: preventionFunds.plannedFen,
  spentFen: preventionFunds.spentFen,
  itemCount: sql<number>`(select count(*)::int from prevention_plan_item i
    where i.fund_id = "prevention_fund"."id" and i.deleted_at is null)`,
  orderCount: sql<number>`(select count(*)::int from service_order o where o.policy_id = "policy"."id")`,
};

const selectPlans = (db: Db | Tx) =>
  db
    .select(planColumns)
    .from(policies)
    .innerJoin(products, eq(products.id, policies.productId))
    .leftJoin(preventionFunds, eq(preventionFunds.policyId, policies.id));
type PlanRaw = Awaited<ReturnType<typeof selectPlans>>[number];

function toPlanRow(r: PlanRaw): PlanRow {
  return {
    seqNo: preventionSeqNo(r.policyNumber),
    policyId: r.policyId,
    policyNumber: r.policyNumber,
    productName: r.productName,
    holderName: r.holderName,
    holderUscc: r.holderUscc,
    startDate: r.startDate,
    endDate: r.endDate,
    preventionRatio: r.preventionRatio,
    fund: summaryOf({
      totalFen: r.totalFen ?? r.preventionFeeFen,
      plannedFen: r.plannedFen ?? 0,
      spentFen: r.spentFen ?? 0,
    }),
    itemCount: Number(r.itemCount),
    orderCount: Number(r.orderCount),
  };
}

export interface PlanFilter {
  blurry?: string | undefined;
  /** Only records with a plan (true) / without one (false). */
  planned?: boolean | undefined;
}

type PlanSortField = (typeof PLAN_SORT_FIELDS)[number];
const planSort: SortColumns<PlanSortField> = {
  policyId: policies.id,
  policyNumber: policies.number,
  startDate: policies.startDate,
  endDate: policies.endDate,
};

/** GET /api/prevention/plans: the prevention records of the policies the caller may see. */
export function planListSpec(db: Db, v: PreventionViewer, f: PlanFilter): ListSpec<PlanSortField, PlanRow> {
  const where = and(
    plansVisibleTo(db, v),
    blurry(f.blurry, policies.number, policies.holderName, policies.holderUscc),
    f.planned === undefined
      ? undefined
      : f.planned
        ? sql`${preventionFunds.id} is not null`
        : sql`${preventionFunds.id} is null`,
  );
  return {
    columns: planSort,
    defaultOrder: [sql`${policies.id} desc`],
    fetch: async ({ limit, offset, orderBy }) =>
      (
        await selectPlans(db)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset)
      ).map(toPlanRow),
    count: async () =>
      (
        await db
          .select({ n: count() })
          .from(policies)
          .leftJoin(preventionFunds, eq(preventionFunds.policyId, policies.id))
          .where(where)
      )[0]?.n ?? 0,
  };
}

async function itemRows(db: Db | Tx, fundId: number, orgId: number | null): Promise<PlanItemRow[]> {
  const rows = await db
    .select({
      item: preventionPlanItems,
      orgName: serviceOrgs.name,
      liveOrders: sql<number>`(select count(*)::int from service_order o where o.plan_item_id = "prevention_plan_item"."id"
        and o.status in (${sql.join(
          LIVE_ORDER_STATUSES.map((s) => sql`${s}`),
          sql`, `,
        )}))`,
      confirmedOrders: sql<number>`(select count(*)::int from service_order o where o.plan_item_id = "prevention_plan_item"."id"
        and o.status in ('CONFIRMED', 'CLOSED'))`,
    })
    .from(preventionPlanItems)
    .innerJoin(serviceOrgs, eq(serviceOrgs.id, preventionPlanItems.orgId))
    .where(
      and(
        eq(preventionPlanItems.fundId, fundId),
        isNull(preventionPlanItems.deletedAt),
        orgId == null ? undefined : eq(preventionPlanItems.orgId, orgId),
      ),
    )
    .orderBy(asc(preventionPlanItems.id));
  const names = await personNames(
    db,
    rows.flatMap((r) => r.item.personIds as number[]),
  );
  return rows.map(({ item: i, orgName, liveOrders, confirmedOrders }) => ({
    id: i.id,
    itemType: i.itemType as ServiceItemType,
    itemLabel: SERVICE_ITEM_LABELS[i.itemType as ServiceItemType] ?? i.itemType,
    content: i.content,
    frequency: i.frequency as ServiceFrequency,
    frequencyLabel: SERVICE_FREQUENCY_LABELS[i.frequency as ServiceFrequency] ?? i.frequency,
    times: i.times,
    unitCostFen: i.unitCostFen,
    reservedFen: i.reservedFen,
    spentFen: i.spentFen,
    liveOrders: Number(liveOrders),
    confirmedOrders: Number(confirmedOrders),
    orgId: i.orgId,
    orgName,
    persons: (i.personIds as number[]).map((id) => ({ id, name: names.get(id) ?? String(id) })),
    scheduledDates: i.scheduledDates as string[],
    version: i.version,
    createdAt: i.createdAt.toISOString(),
  }));
}

/** GET /api/prevention/plans/:seqNo: the fund, the plan (an organisation sees only its own items). */
export async function getPlan(db: Db | Tx, v: PreventionViewer, seqNo: string): Promise<PlanDetail> {
  const policy = await visiblePolicy(db, v, seqNo);
  const party = await planParty(db, v, policy.id);
  const [raw] = await selectPlans(db).where(eq(policies.id, policy.id));
  const { fund } = await fundSummaryOf(db, policy);
  return {
    ...toPlanRow(raw!),
    fundVersion: fund?.version ?? null,
    items: fund ? await itemRows(db, fund.id, party === 'org' ? v.orgId : null) : [],
    party,
    canPlan: party === 'insurer' && !['EXPIRED', 'CANCELLED'].includes(policyStatusOn(policy)),
  };
}

/** GET /api/prevention/plans/:seqNo/ledger: the fund and its entries, oldest first. */
export async function getLedger(db: Db, v: PreventionViewer, seqNo: string): Promise<LedgerResult> {
  const policy = await visiblePolicy(db, v, seqNo);
  const { fund, summary } = await fundSummaryOf(db, policy);
  if (!fund) return { fund: summary, entries: [] };
  const rows = await db
    .select({
      e: preventionLedger,
      orderNumber: serviceOrders.number,
      actorName: actorNameOf(preventionLedger.actorId, preventionLedger.actorName),
    })
    .from(preventionLedger)
    .leftJoin(serviceOrders, eq(serviceOrders.id, preventionLedger.orderId))
    .where(eq(preventionLedger.fundId, fund.id))
    .orderBy(asc(preventionLedger.id));
  return {
    fund: summary,
    entries: rows.map(({ e, orderNumber, actorName }) => ({
      id: e.id,
      kind: e.kind as LedgerKind,
      kindLabel: LEDGER_KIND_LABELS[e.kind as LedgerKind] ?? e.kind,
      amountFen: e.amountFen,
      plannedDeltaFen: e.plannedDeltaFen,
      spentDeltaFen: e.spentDeltaFen,
      plannedAfterFen: e.plannedAfterFen,
      spentAfterFen: e.spentAfterFen,
      leftAfterFen: e.leftAfterFen,
      planItemId: e.planItemId,
      orderId: e.orderId,
      orderNumber,
      note: e.note,
      actorName,
      at: e.createdAt.toISOString(),
    })),
  };
}

// ---- the plan: changes (insurer staff) ----

type ItemCreate = z.output<typeof planItemCreateForm>;
type ItemUpdate = z.output<typeof planItemUpdateForm>;

/** The policy for a change by staff: 404 unseen, 403 not staff, 409 expired. */
async function policyForPlanning(tx: Tx, v: PreventionViewer, seqNo: string): Promise<Policy> {
  const policy = await visiblePolicy(tx, v, seqNo);
  if ((await planParty(tx, v, policy.id)) !== 'insurer') throw forbidden(ONLY_INSURER);
  const state = policyStatusOn(policy);
  if (state === 'EXPIRED') throw conflict(POLICY_EXPIRED);
  if (state === 'CANCELLED') throw conflict(POLICY_CANCELLED);
  return policy;
}

/** The item's organisation must be enabled and serve the insured's region and industry; persons its own. */
async function checkItemParties(tx: Tx, policy: Policy, form: ItemCreate): Promise<void> {
  const [org] = await tx.select().from(serviceOrgs).where(eq(serviceOrgs.id, form.orgId));
  if (!org) throw fieldError('orgId', '服务机构不存在', '服务机构');
  if (!org.enabled) throw fieldError('orgId', `${org.name} 已停用`, '服务机构');
  const [customer] = await tx
    .select({ region: customers.region, industrySection: customers.industrySection })
    .from(customers)
    .where(eq(customers.id, policy.customerId));
  if (customer) {
    if (!servesRegion(org.regions as string[], customer.region))
      throw fieldError('orgId', `${org.name} 不在该企业所在地区提供服务`, '服务机构');
    if (!(org.industries as string[]).includes(customer.industrySection))
      throw fieldError('orgId', `${org.name} 不服务该企业所属行业`, '服务机构');
  }
  await checkPersons(tx, org.id, form.personIds, null);
}

function itemValues(policy: Policy, form: ItemCreate) {
  const times = form.times ?? FREQUENCY_TIMES[form.frequency];
  const dates = [...new Set(form.scheduledDates)].sort();
  const problem = scheduledDatesProblem(dates, times, policy);
  if (problem) throw fieldError('scheduledDates', problem, SCHEDULED_DATES_TITLE);
  const reservedFen = form.unitCostFen * times;
  if (!Number.isSafeInteger(reservedFen)) throw fieldError('unitCostFen', '金额过大', '单次费用');
  return {
    itemType: form.itemType,
    content: form.content ?? null,
    frequency: form.frequency,
    times,
    unitCostFen: form.unitCostFen,
    reservedFen,
    orgId: form.orgId,
    personIds: [...new Set(form.personIds)],
    scheduledDates: dates,
  };
}

const itemNote = (i: { itemType: string; times: number; unitCostFen: number }) =>
  `${SERVICE_ITEM_LABELS[i.itemType as ServiceItemType] ?? i.itemType} ${i.times} 次 × ${formatFen(i.unitCostFen)}`;

/** POST /api/prevention/plans/:seqNo/items: a new item, reserving unitCost × times (400 beyond the fund). */
export async function addPlanItem(
  db: Db,
  v: PreventionViewer,
  seqNo: string,
  form: ItemCreate,
): Promise<PlanDetail> {
  await db.transaction(async (tx) => {
    const policy = await policyForPlanning(tx, v, seqNo);
    await checkItemParties(tx, policy, form);
    const values = itemValues(policy, form);
    const fund = await lockFund(tx, policy);
    const change = reserveChange(fund, { reservedFen: 0, spentFen: 0 }, values.reservedFen);
    if (!change.ok) throw badRequest(change.message);
    const [item] = await tx
      .insert(preventionPlanItems)
      .values({ ...values, fundId: fund.id, createdBy: v.user.id })
      .returning();
    if (values.reservedFen > 0)
      await moveFund(tx, v, fund, {
        kind: 'RESERVE',
        amountFen: values.reservedFen,
        plannedDeltaFen: change.plannedDeltaFen,
        spentDeltaFen: 0,
        planItemId: item!.id,
        note: itemNote(values),
      });
    await auditPlanItem(tx, v, 'create', item!.id, { seqNo, ...values });
  });
  return getPlan(db, v, seqNo);
}

/** Locks a live item of the policy's fund (404 otherwise). */
async function lockItem(tx: Tx, fund: Fund, itemId: number): Promise<PlanItem> {
  const [item] = await tx
    .select()
    .from(preventionPlanItems)
    .where(
      and(
        eq(preventionPlanItems.id, itemId),
        eq(preventionPlanItems.fundId, fund.id),
        isNull(preventionPlanItems.deletedAt),
      ),
    )
    .for('update');
  if (!item) throw notFound(ITEM_NOT_FOUND);
  return item;
}

async function liveOrdersOf(tx: Tx, itemId: number): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(serviceOrders)
    .where(
      and(eq(serviceOrders.planItemId, itemId), inArray(serviceOrders.status, [...LIVE_ORDER_STATUSES])),
    );
  return Number(row?.n ?? 0);
}

/** POST /api/prevention/plans/:seqNo/items/:itemId/update: changes the item and its reservation. */
export async function updatePlanItem(
  db: Db,
  v: PreventionViewer,
  seqNo: string,
  itemId: number,
  form: ItemUpdate,
): Promise<PlanDetail> {
  await db.transaction(async (tx) => {
    const policy = await policyForPlanning(tx, v, seqNo);
    const fund = await lockFund(tx, policy);
    const item = await lockItem(tx, fund, itemId);
    if (item.version !== form.version) throw conflict(STALE_VERSION);
    // Without scheduledDates the stored dates stay (a client that does not show them must not wipe them).
    const merged: ItemCreate = {
      ...form,
      scheduledDates: form.scheduledDates ?? (item.scheduledDates as string[]),
    };
    await checkItemParties(tx, policy, merged);
    const values = itemValues(policy, merged);
    const live = await liveOrdersOf(tx, itemId);
    if (values.times < live) throw fieldError('times', `不能少于已派单次数 ${live}`, '计划次数');
    if (values.orgId !== item.orgId && live > 0) throw conflict('该服务项目已有服务单，不能更换服务机构');
    const change = reserveChange(fund, item, values.reservedFen);
    if (!change.ok) throw badRequest(change.message);
    await tx
      .update(preventionPlanItems)
      .set({ ...values, version: sql`${preventionPlanItems.version} + 1`, updatedAt: sql`now()` })
      .where(eq(preventionPlanItems.id, itemId));
    if (change.plannedDeltaFen !== 0)
      await moveFund(tx, v, fund, {
        kind: change.plannedDeltaFen > 0 ? 'RESERVE' : 'RELEASE',
        amountFen: Math.abs(change.plannedDeltaFen),
        plannedDeltaFen: change.plannedDeltaFen,
        spentDeltaFen: 0,
        planItemId: itemId,
        note: `调整计划：${itemNote(values)}`,
      });
    await auditPlanItem(tx, v, 'update', itemId, {
      seqNo,
      before: {
        times: item.times,
        unitCostFen: item.unitCostFen,
        orgId: item.orgId,
        reservedFen: item.reservedFen,
        scheduledDates: item.scheduledDates,
      },
      after: {
        times: values.times,
        unitCostFen: values.unitCostFen,
        orgId: values.orgId,
        reservedFen: values.reservedFen,
        scheduledDates: values.scheduledDates,
      },
    });
  });
  return getPlan(db, v, seqNo);
}

/** POST /api/prevention/plans/:seqNo/items/:itemId/delete: only without orders; releases its reservation. */
export async function deletePlanItem(
  db: Db,
  v: PreventionViewer,
  seqNo: string,
  itemId: number,
  version: number,
): Promise<PlanDetail> {
  await db.transaction(async (tx) => {
    const policy = await policyForPlanning(tx, v, seqNo);
    const fund = await lockFund(tx, policy);
    const item = await lockItem(tx, fund, itemId);
    if (item.version !== version) throw conflict(STALE_VERSION);
    if ((await liveOrdersOf(tx, itemId)) > 0 || item.spentFen > 0)
      throw conflict('该服务项目已有服务单，不能删除');
    const change = reserveChange(fund, item, 0);
    await tx
      .update(preventionPlanItems)
      .set({
        reservedFen: 0,
        deletedAt: sql`now()`,
        version: sql`${preventionPlanItems.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(preventionPlanItems.id, itemId));
    if (change.ok && change.plannedDeltaFen !== 0)
      await moveFund(tx, v, fund, {
        kind: 'RELEASE',
        amountFen: -change.plannedDeltaFen,
        plannedDeltaFen: change.plannedDeltaFen,
        spentDeltaFen: 0,
        planItemId: itemId,
        note: `删除计划：${itemNote(item)}`,
      });
    await auditPlanItem(tx, v, 'delete', itemId, {
      seqNo,
      reservedFen: item.reservedFen,
    });
  });
  return getPlan(db, v, seqNo);
}
