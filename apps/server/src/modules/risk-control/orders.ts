// Service orders (服务单): dispatch, the state machine of @piibs/shared/risk-control, the on-site record with
// hazards and participants, the enterprise's confirmation (which spends the fund), rectification follow-up until
// closed, satisfaction and complaints.
//
// Every change locks the order row and checks, in this order: visibility (404), the party that may act (403),
// the state (409), the version (409); then bumps the version. Transitions write the order's timeline
// (service_order_event) and the audit trail in the same transaction. Confirmation also locks the fund row and
// the plan item, so two confirmations competing for the last of the fund never both succeed.
import { shanghaiToday } from '@piibs/shared/application-status';
import { formatTime } from '@piibs/shared/constants';
import { fenToYuanText } from '@piibs/shared/money';
import { policyStatusOn } from '@piibs/shared/policy';
import {
  COMPLAINABLE,
  type ComplaintRow,
  complaintDeadline,
  type complaintForm,
  type confirmForm,
  type dispatchForm,
  fundLeft,
  HAZARD_LEVEL_LABELS,
  HAZARD_STATUS_LABELS,
  type HazardLevel,
  type HazardRow,
  type HazardStatus,
  insufficientFundMessage,
  itemOutstanding,
  LIVE_ORDER_STATUSES,
  type OrderEventRow,
  type Party,
  RATEABLE,
  RECORD_EDITABLE,
  RECTIFIABLE,
  type rateForm,
  type rectifyForm,
  SERVICE_ITEM_LABELS,
  SERVICE_ORDER_ACTION_LABELS,
  SERVICE_ORDER_NUMBER,
  type SERVICE_ORDER_SORT_FIELDS,
  SERVICE_ORDER_STATUS_LABELS,
  SERVICE_ORDER_TRANSITIONS,
  type ServiceItemType,
  type ServiceOrderAction,
  type ServiceOrderDetail,
  type ServiceOrderRow,
  type ServiceOrderStatus,
  serviceOrderActionsFor,
  serviceOrderNext,
  serviceOrderNumber,
  type serviceRecordForm,
  spendChange,
} from '@piibs/shared/risk-control';
import { and, asc, count, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import {
  policies,
  preventionFunds,
  preventionPlanItems,
  serviceComplaints,
  serviceHazards,
  serviceOrderEvents,
  serviceOrders,
  serviceOrgs,
} from '../../db/schema.ts';
import { entityAudit } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { blurry, type ListSpec, type SortColumns } from '../../lib/paging.ts';
import { notifyServiceConfirmed, notifyServiceDispatched } from '../notifications/events.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import {
  enterpriseSeesPolicy,
  ONLY_ENTERPRISE,
  ONLY_INSURER,
  ONLY_ORG,
  ordersVisibleTo,
  type PreventionViewer,
  sidesOnPolicy,
} from './access.ts';
import { checkPersons, orgQualifiedOn, personNames } from './orgs.ts';
import { fundSummaryOf, ITEM_NOT_FOUND, lockFund, moveFund, visiblePolicy } from './plans.ts';

type Order = typeof serviceOrders.$inferSelect;

export const ORDER_NOT_FOUND = '服务单不存在';
export const HAZARD_NOT_FOUND = '隐患不存在';
export const COMPLAINT_NOT_FOUND = '投诉不存在';

const iso = (d: Date | null) => d?.toISOString() ?? null;
const statusLabel = (s: string) => SERVICE_ORDER_STATUS_LABELS[s as ServiceOrderStatus] ?? s;

/** An order reference: its number (YF…-001) or its id. */
function refCondition(ref: string): SQL {
  if (/^\d{1,15}$/.test(ref)) return eq(serviceOrders.id, Number(ref));
  if (SERVICE_ORDER_NUMBER.test(ref)) return eq(serviceOrders.number, ref);
  return sql`false`;
}

// ---- reading ----

const selectOrders = (db: Db | Tx, v: PreventionViewer) =>
  db
    .select({
      order: serviceOrders,
      seqNo: preventionFunds.seqNo,
      policyNumber: policies.number,
      holderName: policies.holderName,
      holderUscc: policies.holderUscc,
      orgName: serviceOrgs.name,
      hazardCount: sql<number>`(select count(*)::int from service_hazard h where h.order_id = "service_order"."id")`,
      openHazardCount: sql<number>`(select count(*)::int from service_hazard h
        where h.order_id = "service_order"."id" and h.status = 'OPEN')`,
      openComplaint: sql<boolean>`exists (select 1 from service_complaint c
        where c.order_id = "service_order"."id" and c.status = 'OPEN')`,
      enterpriseSees: sql<boolean>`${enterpriseSeesPolicy(db, v, serviceOrders.policyId)}`,
    })
    .from(serviceOrders)
    .innerJoin(preventionFunds, eq(preventionFunds.id, serviceOrders.fundId))
    .innerJoin(policies, eq(policies.id, serviceOrders.policyId))
    .innerJoin(serviceOrgs, eq(serviceOrgs.id, serviceOrders.orgId));
type OrderRaw = Awaited<ReturnType<typeof selectOrders>>[number];

/** The side the caller acts on for an order: its organisation first, then the enterprise, then staff. */
const rowParty = (v: PreventionViewer, r: { order: Order; enterpriseSees: boolean }): Party =>
  v.orgId != null && r.order.orgId === v.orgId ? 'org' : r.enterpriseSees ? 'enterprise' : 'insurer';

function toOrderRow(v: PreventionViewer, r: OrderRaw, names: Map<number, string>): ServiceOrderRow {
  const o = r.order;
  const status = o.status as ServiceOrderStatus;
  const party = rowParty(v, r);
  return {
    id: o.id,
    number: o.number,
    seqNo: r.seqNo,
    policyId: o.policyId,
    policyNumber: r.policyNumber,
    holderName: r.holderName,
    holderUscc: r.holderUscc,
    planItemId: o.planItemId,
    itemType: o.itemType as ServiceItemType,
    itemLabel: SERVICE_ITEM_LABELS[o.itemType as ServiceItemType] ?? o.itemType,
    orgId: o.orgId,
    orgName: r.orgName,
    persons: (o.personIds as number[]).map((id) => ({ id, name: names.get(id) ?? String(id) })),
    scheduledDate: o.scheduledDate,
    serviceDate: o.serviceDate,
    costFen: o.costFen,
    status,
    statusLabel: statusLabel(status),
    hazardCount: Number(r.hazardCount),
    openHazardCount: Number(r.openHazardCount),
    satisfaction: o.satisfaction,
    openComplaint: Boolean(r.openComplaint),
    // Staff see the orders of the policies in their scope; a staff row's actions need that scope too.
    actions: party === 'insurer' && !v.insurer ? [] : serviceOrderActionsFor(status, party),
    version: o.version,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

async function toOrderRows(db: Db | Tx, v: PreventionViewer, raws: OrderRaw[]): Promise<ServiceOrderRow[]> {
  const names = await personNames(
    db,
    raws.flatMap((r) => r.order.personIds as number[]),
  );
  return raws.map((r) => toOrderRow(v, r, names));
}

export interface OrderFilter {
  status?: ServiceOrderStatus | undefined;
  seqNo?: string | undefined;
  orgId?: number | undefined;
  itemType?: ServiceItemType | undefined;
  uscc?: string | undefined;
  blurry?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

type OrderSortField = (typeof SERVICE_ORDER_SORT_FIELDS)[number];
const orderSort: SortColumns<OrderSortField> = {
  id: serviceOrders.id,
  number: serviceOrders.number,
  scheduledDate: serviceOrders.scheduledDate,
  status: serviceOrders.status,
  createdAt: serviceOrders.createdAt,
};

function orderWhere(db: Db, v: PreventionViewer, f: OrderFilter): SQL | undefined {
  return and(
    ordersVisibleTo(db, v),
    f.status ? eq(serviceOrders.status, f.status) : undefined,
    f.seqNo ? eq(preventionFunds.seqNo, f.seqNo) : undefined,
    f.orgId ? eq(serviceOrders.orgId, f.orgId) : undefined,
    f.itemType ? eq(serviceOrders.itemType, f.itemType) : undefined,
    f.uscc ? eq(policies.holderUscc, f.uscc) : undefined,
    blurry(f.blurry, serviceOrders.number, policies.number, policies.holderName),
    f.startDate ? gte(serviceOrders.scheduledDate, f.startDate) : undefined,
    f.endDate ? lte(serviceOrders.scheduledDate, f.endDate) : undefined,
  );
}

/** GET /api/prevention/orders ("my service orders"): the orders the caller may see, newest first. */
export function orderListSpec(
  db: Db,
  v: PreventionViewer,
  f: OrderFilter,
): ListSpec<OrderSortField, ServiceOrderRow> {
  const where = orderWhere(db, v, f);
  return {
    columns: orderSort,
    defaultOrder: [sql`"service_order"."id" desc`],
    fetch: async ({ limit, offset, orderBy }) =>
      toOrderRows(
        db,
        v,
        await selectOrders(db, v)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset),
      ),
    count: async () =>
      (
        await db
          .select({ n: count() })
          .from(serviceOrders)
          .innerJoin(preventionFunds, eq(preventionFunds.id, serviceOrders.fundId))
          .innerJoin(policies, eq(policies.id, serviceOrders.policyId))
          .where(where)
      )[0]?.n ?? 0,
  };
}

async function hazardsOf(db: Db | Tx, orderIds: number[]): Promise<Map<number, HazardRow[]>> {
  const out = new Map<number, HazardRow[]>();
  if (orderIds.length === 0) return out;
  const today = shanghaiToday();
  const rows = await db
    .select()
    .from(serviceHazards)
    .where(inArray(serviceHazards.orderId, orderIds))
    .orderBy(asc(serviceHazards.orderId), asc(serviceHazards.seq));
  for (const h of rows) {
    const list = out.get(h.orderId) ?? [];
    list.push({
      id: h.id,
      seq: h.seq,
      description: h.description,
      location: h.location,
      level: h.level as HazardLevel,
      levelLabel: HAZARD_LEVEL_LABELS[h.level as HazardLevel] ?? h.level,
      measure: h.measure,
      deadline: h.deadline,
      status: h.status as HazardStatus,
      statusLabel: HAZARD_STATUS_LABELS[h.status as HazardStatus] ?? h.status,
      rectifiedDate: h.rectifiedDate,
      rectifyNote: h.rectifyNote,
      overdue: h.status === 'OPEN' && today > h.deadline,
    });
    out.set(h.orderId, list);
  }
  return out;
}

async function complaintsOf(db: Db | Tx, orderIds: number[]): Promise<Map<number, ComplaintRow[]>> {
  const out = new Map<number, ComplaintRow[]>();
  if (orderIds.length === 0) return out;
  const today = shanghaiToday();
  const rows = await db
    .select()
    .from(serviceComplaints)
    .where(inArray(serviceComplaints.orderId, orderIds))
    .orderBy(asc(serviceComplaints.id));
  for (const c of rows) {
    const list = out.get(c.orderId) ?? [];
    list.push({
      id: c.id,
      content: c.content,
      complainedOn: c.complainedOn,
      deadline: c.deadline,
      status: c.status as 'OPEN' | 'REPLIED',
      reply: c.reply,
      repliedAt: iso(c.repliedAt),
      repliedBy: c.repliedByName,
      overdue: c.status === 'OPEN' && today > c.deadline,
      createdBy: c.createdByName,
      createdAt: c.createdAt.toISOString(),
    });
    out.set(c.orderId, list);
  }
  return out;
}

async function eventsOf(db: Db | Tx, orderId: number): Promise<OrderEventRow[]> {
  const rows = await db
    .select()
    .from(serviceOrderEvents)
    .where(eq(serviceOrderEvents.orderId, orderId))
    .orderBy(asc(serviceOrderEvents.id));
  return rows.map((e) => ({
    id: e.id,
    action: e.action,
    fromStatus: e.fromStatus as ServiceOrderStatus | null,
    toStatus: e.toStatus as ServiceOrderStatus,
    actor: e.actorName,
    opinion: e.opinion,
    at: e.createdAt.toISOString(),
  }));
}

/** GET /api/prevention/orders/:ref: the order with its record, hazards, complaints, timeline and fund. */
export async function getOrder(db: Db | Tx, v: PreventionViewer, ref: string): Promise<ServiceOrderDetail> {
  const [raw] = await selectOrders(db, v).where(and(refCondition(ref), ordersVisibleTo(db, v)));
  if (!raw) throw notFound(ORDER_NOT_FOUND);
  const o = raw.order;
  const [[row], hazards, complaints, events, { summary }] = await Promise.all([
    toOrderRows(db, v, [raw]),
    hazardsOf(db, [o.id]),
    complaintsOf(db, [o.id]),
    eventsOf(db, o.id),
    fundSummaryOf(db, { id: o.policyId, preventionFeeFen: 0 }),
  ]);
  const party = rowParty(v, raw);
  const status = o.status as ServiceOrderStatus;
  return {
    ...row!,
    note: o.note,
    address: o.address,
    findings: o.findings,
    participants: (o.participants as ServiceOrderDetail['participants']).map((p) => ({
      ...p,
      position: p.position ?? null,
    })),
    hazards: hazards.get(o.id) ?? [],
    rejectReason: o.rejectReason,
    cancelReason: o.cancelReason,
    returnOpinion: o.returnOpinion,
    satisfactionComment: o.satisfactionComment,
    ratedAt: iso(o.ratedAt),
    acceptedAt: iso(o.acceptedAt),
    startedAt: iso(o.startedAt),
    submittedAt: iso(o.submittedAt),
    confirmedAt: iso(o.confirmedAt),
    closedAt: iso(o.closedAt),
    party,
    canRecord: party === 'org' && RECORD_EDITABLE.includes(status),
    canRectify: party === 'org' && RECTIFIABLE.includes(status),
    canRate: party === 'enterprise' && RATEABLE.includes(status) && o.satisfaction == null,
    canComplain: party === 'enterprise' && COMPLAINABLE.includes(status) && !raw.openComplaint,
    complaints: complaints.get(o.id) ?? [],
    events,
    fund: summary,
  };
}

// ---- helpers of the changes ----

/** Locks an order the caller may see (404 otherwise). */
async function lockOrder(tx: Tx, v: PreventionViewer, ref: string): Promise<Order> {
  const [o] = await tx
    .select()
    .from(serviceOrders)
    .where(and(refCondition(ref), ordersVisibleTo(tx, v)))
    .for('update', { of: serviceOrders });
  if (!o) throw notFound(ORDER_NOT_FOUND);
  return o;
}

/** 403 unless the caller acts on the given side of this order. */
async function requireParty(tx: Tx, v: PreventionViewer, o: Order, party: Party): Promise<void> {
  if (party === 'org') {
    if (v.orgId == null || v.orgId !== o.orgId) throw forbidden(ONLY_ORG);
    return;
  }
  const sides = await sidesOnPolicy(tx, v, o.policyId);
  if (party === 'enterprise' && !sides.enterprise) throw forbidden(ONLY_ENTERPRISE);
  if (party === 'insurer' && !sides.insurer) throw forbidden(ONLY_INSURER);
}

/** 409 naming the state and what was asked. */
const notNow = (status: string, what: string) =>
  conflict(`服务单当前状态为「${statusLabel(status)}」，不能${what}`);

async function addEvent(
  tx: Tx,
  v: PreventionViewer,
  e: { orderId: number; action: string; from: string | null; to: string; opinion?: string | null },
): Promise<void> {
  await tx.insert(serviceOrderEvents).values({
    orderId: e.orderId,
    action: e.action,
    fromStatus: e.from,
    toStatus: e.to,
    actorId: v.user.id,
    actorName: v.user.username,
    opinion: e.opinion ?? null,
  });
}

const auditOrder = entityAudit('service_order');

const bump = { version: sql`${serviceOrders.version} + 1`, updatedAt: sql`now()` };

/** Closes a confirmed order once none of its hazards is open. Answers whether it closed. */
async function closeIfRectified(tx: Tx, v: PreventionViewer, o: Order): Promise<boolean> {
  const [open] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(serviceHazards)
    .where(and(eq(serviceHazards.orderId, o.id), eq(serviceHazards.status, 'OPEN')));
  if (Number(open?.n ?? 0) > 0) return false;
  await tx
    .update(serviceOrders)
    .set({ status: 'CLOSED', closedAt: sql`now()` })
    .where(eq(serviceOrders.id, o.id));
  await addEvent(tx, v, {
    orderId: o.id,
    action: 'close',
    from: 'CONFIRMED',
    to: 'CLOSED',
    opinion: '隐患已全部整改，服务单关闭',
  });
  await auditOrder(tx, v, 'close', o.id, { number: o.number });
  return true;
}

// ---- dispatch (insurer staff) ----

/** POST /api/prevention/plans/:seqNo/orders: one occurrence of a plan item, to the item's organisation. */
export async function dispatchOrder(
  db: Db,
  v: PreventionViewer,
  seqNo: string,
  form: z.output<typeof dispatchForm>,
): Promise<ServiceOrderDetail> {
  const id = await db.transaction(async (tx) => {
    const policy = await visiblePolicy(tx, v, seqNo);
    if (!(await sidesOnPolicy(tx, v, policy.id)).insurer) throw forbidden(ONLY_INSURER);
    if (policyStatusOn(policy) === 'EXPIRED') throw conflict('保单已到期，不能再派发服务单');
    if (form.scheduledDate < policy.startDate || form.scheduledDate > policy.endDate)
      throw badRequest(`计划服务日期：须在保险期间（${policy.startDate} 至 ${policy.endDate}）内`);
    if (form.scheduledDate < shanghaiToday()) throw badRequest('计划服务日期：不能早于今天');
    const fund = await lockFund(tx, policy);
    const [item] = await tx
      .select()
      .from(preventionPlanItems)
      .where(
        and(
          eq(preventionPlanItems.id, form.planItemId),
          eq(preventionPlanItems.fundId, fund.id),
          sql`${preventionPlanItems.deletedAt} is null`,
        ),
      )
      .for('update');
    if (!item) throw badRequest(`服务项目：${ITEM_NOT_FOUND}`);
    const live = await tx
      .select({ status: serviceOrders.status, costFen: serviceOrders.costFen })
      .from(serviceOrders)
      .where(
        and(eq(serviceOrders.planItemId, item.id), inArray(serviceOrders.status, [...LIVE_ORDER_STATUSES])),
      );
    if (live.length >= item.times)
      throw conflict(`该服务项目已按计划派单 ${item.times} 次，请先调整服务计划`);
    const [org] = await tx.select().from(serviceOrgs).where(eq(serviceOrgs.id, item.orgId));
    if (!org?.enabled) throw badRequest(`服务机构：${org?.name ?? item.orgId} 已停用`);
    if (!orgQualifiedOn(org, form.scheduledDate))
      throw badRequest(`服务机构：${org.name} 的资质在 ${form.scheduledDate} 不在有效期内`);
    const personIds = [...new Set(form.personIds ?? (item.personIds as number[]))];
    await checkPersons(tx, org.id, personIds, form.scheduledDate);
    const costFen = form.costFen ?? item.unitCostFen;
    // A pre-check (confirmation decides): the cost must be covered by what the item has not yet promised to
    // its other open orders, or by what is left of the fund.
    const openCost = live
      .filter((o) => o.status !== 'CONFIRMED' && o.status !== 'CLOSED')
      .reduce((sum, o) => sum + o.costFen, 0);
    const cover = Math.max(0, itemOutstanding(item.reservedFen, item.spentFen) - openCost);
    const left = fundLeft(fund);
    if (costFen - cover > left) throw badRequest(insufficientFundMessage(left + cover, costFen));
    const [serial] = await tx
      .update(preventionFunds)
      .set({ orderSerial: sql`${preventionFunds.orderSerial} + 1`, updatedAt: sql`now()` })
      .where(eq(preventionFunds.id, fund.id))
      .returning({ n: preventionFunds.orderSerial });
    const [o] = await tx
      .insert(serviceOrders)
      .values({
        number: serviceOrderNumber(fund.seqNo, serial!.n),
        fundId: fund.id,
        policyId: policy.id,
        planItemId: item.id,
        orgId: org.id,
        itemType: item.itemType,
        personIds,
        scheduledDate: form.scheduledDate,
        costFen,
        note: form.note ?? null,
        dispatchedBy: v.user.id,
      })
      .returning();
    await addEvent(tx, v, {
      orderId: o!.id,
      action: 'dispatch',
      from: null,
      to: 'DISPATCHED',
      opinion: form.note,
    });
    await auditOrder(tx, v, 'dispatch', o!.id, {
      number: o!.number,
      seqNo,
      planItemId: item.id,
      orgId: org.id,
      personIds,
      scheduledDate: form.scheduledDate,
      costFen,
    });
    await notifyServiceDispatched(tx, o!);
    return o!.id;
  });
  return getOrder(db, v, String(id));
}

// ---- transitions ----

interface TransitionInput {
  version: number;
  /** The reason / opinion the transition records (reject, cancel, return). */
  opinion?: string | null;
}

/**
 * Runs one transition: lock, party (403), state (409), version (409), `apply` for the action's own checks and
 * columns, the new state, the timeline and the audit trail.
 */
async function transition(
  db: Db,
  v: PreventionViewer,
  ref: string,
  action: ServiceOrderAction,
  input: TransitionInput,
  apply: (tx: Tx, o: Order) => Promise<PgUpdateSetSource<typeof serviceOrders> | undefined> = async () =>
    undefined,
  after?: (tx: Tx, o: Order) => Promise<void>,
): Promise<ServiceOrderDetail> {
  const id = await db.transaction(async (tx) => {
    const o = await lockOrder(tx, v, ref);
    await requireParty(tx, v, o, SERVICE_ORDER_TRANSITIONS[action].by);
    const next = serviceOrderNext(o.status as ServiceOrderStatus, action);
    if (!next) throw notNow(o.status, SERVICE_ORDER_ACTION_LABELS[action]);
    if (o.version !== input.version) throw conflict(STALE_VERSION);
    const set = (await apply(tx, o)) ?? {};
    await tx
      .update(serviceOrders)
      .set({ ...set, status: next, ...bump })
      .where(eq(serviceOrders.id, o.id));
    await addEvent(tx, v, { orderId: o.id, action, from: o.status, to: next, opinion: input.opinion });
    await auditOrder(tx, v, action, o.id, {
      number: o.number,
      before: { status: o.status },
      after: { status: next },
      ...(input.opinion ? { opinion: input.opinion } : {}),
    });
    if (after) await after(tx, o);
    return o.id;
  });
  return getOrder(db, v, String(id));
}

/** DISPATCHED → ACCEPTED (the organisation). */
export const acceptOrder = (db: Db, v: PreventionViewer, ref: string, version: number) =>
  transition(db, v, ref, 'accept', { version }, async () => ({ acceptedAt: sql`now()` }));

/** DISPATCHED → REJECTED with a reason (the organisation). */
export const rejectOrder = (db: Db, v: PreventionViewer, ref: string, version: number, reason: string) =>
  transition(db, v, ref, 'reject', { version, opinion: reason }, async () => ({ rejectReason: reason }));

/** ACCEPTED → IN_SERVICE: the organisation is on site (the record can be saved from now on). */
export const startOrder = (db: Db, v: PreventionViewer, ref: string, version: number) =>
  transition(db, v, ref, 'start', { version }, async () => ({ startedAt: sql`now()` }));

/** IN_SERVICE → SUBMITTED: the record must be complete (service date, findings, participants). */
export const submitOrder = (db: Db, v: PreventionViewer, ref: string, version: number) =>
  transition(db, v, ref, 'submit', { version }, async (_tx, o) => {
    if (!o.serviceDate || !o.findings) throw badRequest('服务记录：请先填写并保存服务日期与服务情况');
    if ((o.participants as unknown[]).length === 0) throw badRequest('服务记录：请至少填写一位参与人员');
    return { submittedAt: sql`now()` };
  });

/** SUBMITTED → IN_SERVICE with the enterprise's opinion. */
export const returnOrder = (db: Db, v: PreventionViewer, ref: string, version: number, opinion: string) =>
  transition(db, v, ref, 'return', { version, opinion }, async () => ({ returnOpinion: opinion }));

/** DISPATCHED | ACCEPTED → CANCELLED (staff), with a reason. */
export const cancelOrder = (db: Db, v: PreventionViewer, ref: string, version: number, reason: string) =>
  transition(db, v, ref, 'cancel', { version, opinion: reason }, async () => ({ cancelReason: reason }));

/**
 * SUBMITTED → CONFIRMED (the enterprise): spends the order's cost from the fund under the fund's row lock
 * (400 '事故预防费用余额不足…' when the item's reservation and what is left do not cover it), records the
 * optional rating, and closes the order at once when no hazard is open.
 */
export async function confirmOrder(
  db: Db,
  v: PreventionViewer,
  ref: string,
  form: z.output<typeof confirmForm>,
): Promise<ServiceOrderDetail> {
  return transition(
    db,
    v,
    ref,
    'confirm',
    { version: form.version },
    async (tx, o) => {
      const [fund] = await tx
        .select()
        .from(preventionFunds)
        .where(eq(preventionFunds.id, o.fundId))
        .for('update');
      const [item] = await tx
        .select()
        .from(preventionPlanItems)
        .where(eq(preventionPlanItems.id, o.planItemId))
        .for('update');
      const change = spendChange(fund!, item!, o.costFen);
      if (!change.ok) throw badRequest(change.message);
      await tx
        .update(preventionPlanItems)
        .set({ spentFen: sql`${preventionPlanItems.spentFen} + ${o.costFen}`, updatedAt: sql`now()` })
        .where(eq(preventionPlanItems.id, item!.id));
      await moveFund(tx, v, fund!, {
        kind: 'SPEND',
        amountFen: o.costFen,
        plannedDeltaFen: change.plannedDeltaFen,
        spentDeltaFen: change.spentDeltaFen,
        planItemId: item!.id,
        orderId: o.id,
        note: `确认服务 ${o.number}（¥${fenToYuanText(o.costFen)}）`,
      });
      return {
        confirmedAt: sql`now()`,
        confirmedBy: v.user.id,
        ...(form.satisfaction
          ? {
              satisfaction: form.satisfaction,
              satisfactionComment: form.comment ?? null,
              ratedAt: sql`now()`,
            }
          : {}),
      };
    },
    async (tx, o) => {
      await closeIfRectified(tx, v, o);
      await notifyServiceConfirmed(tx, o, v.user.id);
    },
  );
}

// ---- the on-site record (the organisation, IN_SERVICE) ----

/** POST /api/prevention/orders/:ref/record: replaces the service date, findings, hazards and participants. */
export async function saveRecord(
  db: Db,
  v: PreventionViewer,
  ref: string,
  form: z.output<typeof serviceRecordForm>,
): Promise<ServiceOrderDetail> {
  const id = await db.transaction(async (tx) => {
    const o = await lockOrder(tx, v, ref);
    await requireParty(tx, v, o, 'org');
    if (!RECORD_EDITABLE.includes(o.status as ServiceOrderStatus)) throw notNow(o.status, '修改服务记录');
    if (o.version !== form.version) throw conflict(STALE_VERSION);
    if (form.serviceDate > shanghaiToday()) throw badRequest('服务日期：不能晚于今天');
    await tx.delete(serviceHazards).where(eq(serviceHazards.orderId, o.id));
    if (form.hazards.length)
      await tx.insert(serviceHazards).values(
        form.hazards.map((h, i) => ({
          orderId: o.id,
          seq: i + 1,
          description: h.description,
          location: h.location ?? null,
          level: h.level,
          measure: h.measure ?? null,
          deadline: h.deadline,
        })),
      );
    const participants = form.participants.map((p) => ({
      name: p.name,
      side: p.side,
      position: p.position ?? null,
    }));
    await tx
      .update(serviceOrders)
      .set({
        serviceDate: form.serviceDate,
        address: form.address ?? null,
        findings: form.findings,
        participants,
        ...bump,
      })
      .where(eq(serviceOrders.id, o.id));
    await auditOrder(tx, v, 'record', o.id, {
      number: o.number,
      serviceDate: form.serviceDate,
      hazards: form.hazards.map((h) => ({ level: h.level, deadline: h.deadline })),
      participants: participants.length,
    });
    return o.id;
  });
  return getOrder(db, v, String(id));
}

// ---- rectification (the organisation follows up after confirmation) ----

/** POST /api/prevention/orders/:ref/hazards/:hazardId/rectify: the last open hazard closes the order. */
export async function rectifyHazard(
  db: Db,
  v: PreventionViewer,
  ref: string,
  hazardId: number,
  form: z.output<typeof rectifyForm>,
): Promise<ServiceOrderDetail> {
  const id = await db.transaction(async (tx) => {
    const o = await lockOrder(tx, v, ref);
    await requireParty(tx, v, o, 'org');
    if (!RECTIFIABLE.includes(o.status as ServiceOrderStatus)) throw notNow(o.status, '登记隐患整改');
    if (o.version !== form.version) throw conflict(STALE_VERSION);
    const [h] = await tx
      .select()
      .from(serviceHazards)
      .where(and(eq(serviceHazards.id, hazardId), eq(serviceHazards.orderId, o.id)));
    if (!h) throw notFound(HAZARD_NOT_FOUND);
    if (h.status !== 'OPEN') throw conflict('该隐患已整改');
    if (form.rectifiedDate > shanghaiToday()) throw badRequest('整改完成日期：不能晚于今天');
    if (o.serviceDate && form.rectifiedDate < o.serviceDate)
      throw badRequest('整改完成日期：不能早于服务日期');
    await tx
      .update(serviceHazards)
      .set({
        status: 'RECTIFIED',
        rectifiedDate: form.rectifiedDate,
        rectifyNote: form.note ?? null,
        rectifiedBy: v.user.id,
        rectifiedAt: sql`now()`,
      })
      .where(eq(serviceHazards.id, h.id));
    await tx.update(serviceOrders).set(bump).where(eq(serviceOrders.id, o.id));
    await addEvent(tx, v, {
      orderId: o.id,
      action: 'rectify',
      from: o.status,
      to: o.status,
      opinion: `隐患 ${h.seq}（${HAZARD_LEVEL_LABELS[h.level as HazardLevel] ?? h.level}）已整改${form.note ? `：${form.note}` : ''}`,
    });
    await auditOrder(tx, v, 'rectify', o.id, {
      number: o.number,
      hazardId: h.id,
      rectifiedDate: form.rectifiedDate,
    });
    await closeIfRectified(tx, v, o);
    return o.id;
  });
  return getOrder(db, v, String(id));
}

// ---- satisfaction and complaints (the enterprise) ----

/** POST /api/prevention/orders/:ref/rate: once, after confirmation. */
export async function rateOrder(
  db: Db,
  v: PreventionViewer,
  ref: string,
  form: z.output<typeof rateForm>,
): Promise<ServiceOrderDetail> {
  const id = await db.transaction(async (tx) => {
    const o = await lockOrder(tx, v, ref);
    await requireParty(tx, v, o, 'enterprise');
    if (!RATEABLE.includes(o.status as ServiceOrderStatus)) throw notNow(o.status, '评价');
    if (o.version !== form.version) throw conflict(STALE_VERSION);
    if (o.satisfaction != null) throw conflict('该服务单已评价');
    await tx
      .update(serviceOrders)
      .set({
        satisfaction: form.satisfaction,
        satisfactionComment: form.comment ?? null,
        ratedAt: sql`now()`,
        ...bump,
      })
      .where(eq(serviceOrders.id, o.id));
    await addEvent(tx, v, {
      orderId: o.id,
      action: 'rate',
      from: o.status,
      to: o.status,
      opinion: `满意度 ${form.satisfaction} 分${form.comment ? `：${form.comment}` : ''}`,
    });
    await auditOrder(tx, v, 'rate', o.id, {
      number: o.number,
      satisfaction: form.satisfaction,
    });
    return o.id;
  });
  return getOrder(db, v, String(id));
}

/** POST /api/prevention/orders/:ref/complaints: reply due in 10 working days; one open complaint at a time. */
export async function complain(
  db: Db,
  v: PreventionViewer,
  ref: string,
  form: z.output<typeof complaintForm>,
  today: string = shanghaiToday(),
): Promise<ServiceOrderDetail> {
  try {
    const id = await db.transaction(async (tx) => {
      const o = await lockOrder(tx, v, ref);
      await requireParty(tx, v, o, 'enterprise');
      if (!COMPLAINABLE.includes(o.status as ServiceOrderStatus)) throw notNow(o.status, '投诉');
      const deadline = complaintDeadline(today);
      const [c] = await tx
        .insert(serviceComplaints)
        .values({
          orderId: o.id,
          content: form.content,
          complainedOn: today,
          deadline,
          createdBy: v.user.id,
          createdByName: v.user.username,
        })
        .returning({ id: serviceComplaints.id });
      await addEvent(tx, v, {
        orderId: o.id,
        action: 'complain',
        from: o.status,
        to: o.status,
        opinion: form.content,
      });
      await auditOrder(tx, v, 'complain', o.id, {
        number: o.number,
        complaintId: c!.id,
        deadline,
      });
      return o.id;
    });
    return getOrder(db, v, String(id));
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('该服务单已有未答复的投诉');
    throw err;
  }
}

/** POST /api/prevention/orders/:ref/complaints/:complaintId/reply: the order's organisation or staff. */
export async function replyComplaint(
  db: Db,
  v: PreventionViewer,
  ref: string,
  complaintId: number,
  reply: string,
): Promise<ServiceOrderDetail> {
  const id = await db.transaction(async (tx) => {
    const o = await lockOrder(tx, v, ref);
    const isOrg = v.orgId != null && v.orgId === o.orgId;
    if (!isOrg && !(await sidesOnPolicy(tx, v, o.policyId)).insurer)
      throw forbidden('只有承接该服务的服务机构或保险公司人员可以答复投诉');
    const [c] = await tx
      .select()
      .from(serviceComplaints)
      .where(and(eq(serviceComplaints.id, complaintId), eq(serviceComplaints.orderId, o.id)))
      .for('update');
    if (!c) throw notFound(COMPLAINT_NOT_FOUND);
    if (c.status !== 'OPEN') throw conflict('该投诉已答复');
    await tx
      .update(serviceComplaints)
      .set({
        status: 'REPLIED',
        reply,
        repliedAt: sql`now()`,
        repliedBy: v.user.id,
        repliedByName: v.user.username,
      })
      .where(eq(serviceComplaints.id, c.id));
    await addEvent(tx, v, { orderId: o.id, action: 'reply', from: o.status, to: o.status, opinion: reply });
    await auditOrder(tx, v, 'reply', o.id, {
      number: o.number,
      complaintId: c.id,
      overdue: shanghaiToday() > c.deadline,
    });
    return o.id;
  });
  return getOrder(db, v, String(id));
}

// ---- the service archive of an enterprise (xlsx) ----

export interface ArchiveRow extends ServiceOrderRow {
  findings: string | null;
  participants: string;
  hazards: HazardRow[];
  complaints: ComplaintRow[];
  satisfactionComment: string | null;
  confirmedAt: string | null;
  closedAt: string | null;
}

/** The export of GET /api/prevention/archive/download: every visible order of an enterprise, oldest first. */
export function archiveSpec(
  db: Db,
  v: PreventionViewer,
  uscc: string,
): Pick<ListSpec<OrderSortField, ArchiveRow>, 'columns' | 'defaultOrder' | 'fetch'> {
  const base = orderListSpec(db, v, { uscc });
  return {
    columns: base.columns,
    defaultOrder: [sql`"service_order"."id" asc`],
    fetch: async (q) => {
      const rows = await base.fetch(q);
      const ids = rows.map((r) => r.id);
      const [hazards, complaints, extra] = await Promise.all([
        hazardsOf(db, ids),
        complaintsOf(db, ids),
        ids.length
          ? db
              .select({
                id: serviceOrders.id,
                findings: serviceOrders.findings,
                participants: serviceOrders.participants,
                satisfactionComment: serviceOrders.satisfactionComment,
                confirmedAt: serviceOrders.confirmedAt,
                closedAt: serviceOrders.closedAt,
              })
              .from(serviceOrders)
              .where(inArray(serviceOrders.id, ids))
          : Promise.resolve([]),
      ]);
      const byId = new Map(extra.map((e) => [e.id, e]));
      return rows.map((r) => {
        const e = byId.get(r.id);
        return {
          ...r,
          findings: e?.findings ?? null,
          participants: ((e?.participants ?? []) as { name: string; position: string | null }[])
            .map((p) => (p.position ? `${p.name}（${p.position}）` : p.name))
            .join('、'),
          hazards: hazards.get(r.id) ?? [],
          complaints: complaints.get(r.id) ?? [],
          satisfactionComment: e?.satisfactionComment ?? null,
          confirmedAt: iso(e?.confirmedAt ?? null),
          closedAt: iso(e?.closedAt ?? null),
        };
      });
    },
  };
}

const timeText = (t: string | null) => (t ? formatTime(t) : null);

export const ARCHIVE_COLUMNS: {
  header: string;
  width?: number;
  value: (r: ArchiveRow) => string | number | null;
}[] = [
  { header: '服务单号', width: 26, value: (r) => r.number },
  { header: '事故预防编号', width: 22, value: (r) => r.seqNo },
  { header: '保单号', width: 20, value: (r) => r.policyNumber },
  { header: '投保企业', width: 30, value: (r) => r.holderName },
  { header: '统一社会信用代码', width: 22, value: (r) => r.holderUscc },
  { header: '服务项目', value: (r) => r.itemLabel },
  { header: '服务机构', width: 30, value: (r) => r.orgName },
  { header: '服务人员', width: 20, value: (r) => r.persons.map((p) => p.name).join('、') },
  { header: '计划服务日期', value: (r) => r.scheduledDate },
  { header: '实际服务日期', value: (r) => r.serviceDate },
  { header: '状态', value: (r) => r.statusLabel },
  { header: '服务费用（元）', value: (r) => fenToYuanText(r.costFen) },
  { header: '服务情况', width: 40, value: (r) => r.findings },
  { header: '参与人员', width: 30, value: (r) => r.participants },
  { header: '隐患数', value: (r) => r.hazardCount },
  {
    header: '隐患明细',
    width: 60,
    value: (r) =>
      r.hazards
        .map(
          (h) => `${h.seq}. [${h.levelLabel}] ${h.description}（整改期限 ${h.deadline}，${h.statusLabel}）`,
        )
        .join('\n') || null,
  },
  { header: '未整改隐患', value: (r) => r.openHazardCount },
  { header: '企业确认时间', width: 20, value: (r) => timeText(r.confirmedAt) },
  { header: '关闭时间', width: 20, value: (r) => timeText(r.closedAt) },
  { header: '满意度', value: (r) => r.satisfaction },
  { header: '评价', width: 30, value: (r) => r.satisfactionComment },
  {
    header: '投诉',
    width: 40,
    value: (r) =>
      r.complaints
        .map(
          (c) =>
            `${c.complainedOn} ${c.content}（答复期限 ${c.deadline}${c.reply ? `，已答复：${c.reply}` : '，未答复'}）`,
        )
        .join('\n') || null,
  },
];
