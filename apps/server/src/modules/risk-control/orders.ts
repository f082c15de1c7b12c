// Service orders (服务单): dispatch and the state machine of @piibs/shared/risk-control up to the enterprise's
// confirmation (which spends the fund). What follows the visit (the on-site record, rectification, satisfaction
// and complaints): order-records.ts.
//
// Every change locks the order row and checks, in this order: visibility (404), the party that may act (403),
// the state (409), the version (409); then bumps the version. Transitions write the order's timeline
// (service_order_event) and the audit trail in the same transaction. Confirmation also locks the fund row and
// the plan item, so two confirmations competing for the last of the fund never both succeed.

import { shanghaiToday } from '@piibs/shared/application-status';
import { formatFen } from '@piibs/shared/money';
import { policyStatusOn } from '@piibs/shared/policy';
import {
  type confirmForm,
  type dispatchForm,
  fundLeft,
  insufficientFundMessage,
  itemOutstanding,
  LIVE_ORDER_STATUSES,
  type Party,
  SERVICE_ORDER_ACTION_LABELS,
  SERVICE_ORDER_TRANSITIONS,
  type ServiceOrderAction,
  type ServiceOrderDetail,
  type ServiceOrderStatus,
  type ServicePeriod,
  serviceDateProblem,
  serviceOrderNext,
  serviceOrderNumber,
  spendChange,
} from '@piibs/shared/risk-control';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import {
  policies,
  preventionFunds,
  preventionPlanItems,
  serviceHazards,
  serviceOrderEvents,
  serviceOrders,
  serviceOrgs,
} from '../../db/schema.ts';
import { entityAudit } from '../../lib/audit.ts';
import { badRequest, conflict, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { notifyServiceConfirmed, notifyServiceDispatched } from '../notifications/events.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import {
  ONLY_ENTERPRISE,
  ONLY_INSURER,
  ONLY_ORG,
  ordersVisibleTo,
  type PreventionViewer,
  sidesOnPolicy,
} from './access.ts';
import { getOrder, ORDER_NOT_FOUND, type Order, refCondition, statusLabel } from './order-queries.ts';
import { orgQualifiedOn } from './orgs.ts';
import { checkPersons } from './persons.ts';
import { ITEM_NOT_FOUND, lockFund, moveFund, visiblePolicy } from './plans.ts';

// ---- helpers of the changes ----

/** Locks an order the caller may see (404 otherwise). */
export async function lockOrder(tx: Tx, v: PreventionViewer, ref: string): Promise<Order> {
  const [o] = await tx
    .select()
    .from(serviceOrders)
    .where(and(refCondition(ref), ordersVisibleTo(tx, v)))
    .for('update', { of: serviceOrders });
  if (!o) throw notFound(ORDER_NOT_FOUND);
  return o;
}

/** 403 unless the caller acts on the given side of this order. */
export async function requireParty(tx: Tx, v: PreventionViewer, o: Order, party: Party): Promise<void> {
  if (party === 'org') {
    if (v.orgId == null || v.orgId !== o.orgId) throw forbidden(ONLY_ORG);
    return;
  }
  const sides = await sidesOnPolicy(tx, v, o.policyId);
  if (party === 'enterprise' && !sides.enterprise) throw forbidden(ONLY_ENTERPRISE);
  if (party === 'insurer' && !sides.insurer) throw forbidden(ONLY_INSURER);
}

/** The period of an order's policy. */
export async function policyPeriod(tx: Tx, policyId: number): Promise<ServicePeriod> {
  const [p] = await tx
    .select({ startDate: policies.startDate, endDate: policies.endDate })
    .from(policies)
    .where(eq(policies.id, policyId));
  if (!p) throw notFound(ORDER_NOT_FOUND);
  return p;
}

/** 409 naming the state and what was asked. */
export const notNow = (status: string, what: string) =>
  conflict(`服务单当前状态为「${statusLabel(status)}」，不能${what}`);

export async function addEvent(
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

export const auditOrder = entityAudit('service_order');

export const bump = { version: sql`${serviceOrders.version} + 1`, updatedAt: sql`now()` };

/** Closes a confirmed order once none of its hazards is open. Answers whether it closed. */
export async function closeIfRectified(tx: Tx, v: PreventionViewer, o: Order): Promise<boolean> {
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
    const state = policyStatusOn(policy);
    if (state === 'EXPIRED') throw conflict('保单已到期，不能再派发服务单');
    if (state === 'CANCELLED') throw conflict('保单已退保，不能再派发服务单');
    if (form.scheduledDate < policy.startDate || form.scheduledDate > policy.endDate)
      throw fieldError(
        'scheduledDate',
        `须在保险期间（${policy.startDate} 至 ${policy.endDate}）内`,
        '计划服务日期',
      );
    if (form.scheduledDate < shanghaiToday())
      throw fieldError('scheduledDate', '不能早于今天', '计划服务日期');
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
    if (!item) throw fieldError('planItemId', ITEM_NOT_FOUND, '服务项目');
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
 * rating (required: 确认服务并评价), and closes the order at once when no hazard is open.
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
      // A service is paid only for a visit within the policy's period, and never before the policy starts.
      const period = await policyPeriod(tx, o.policyId);
      const outside = o.serviceDate ? serviceDateProblem(o.serviceDate, period, shanghaiToday()) : '未填写';
      if (outside)
        throw conflict(
          `服务日期${o.serviceDate ? ` ${o.serviceDate} ` : ''}${outside}，不能确认服务并支付服务费用`,
        );
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
        note: `确认服务 ${o.number}（${formatFen(o.costFen)}）`,
      });
      return {
        confirmedAt: sql`now()`,
        confirmedBy: v.user.id,
        satisfaction: form.satisfaction,
        satisfactionComment: form.comment ?? null,
        ratedAt: sql`now()`,
      };
    },
    async (tx, o) => {
      await closeIfRectified(tx, v, o);
      await notifyServiceConfirmed(tx, o, v.user.id);
    },
  );
}
