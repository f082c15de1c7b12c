import { shanghaiToday } from '@piibs/shared/application-status';
import { SYSTEM_ACTOR } from '@piibs/shared/audit-text';
import { formatTime } from '@piibs/shared/constants';
import { formatFen } from '@piibs/shared/money';
import { verifyPath } from '@piibs/shared/policy';
import {
  annualForHeadcount,
  CANCELLATION_REASON_LABELS,
  type CancellationReason,
  type CancellationRequest,
  cancellationReasonProblem,
  type EndorsementRequest,
  type FieldChange,
  OPEN_POLICY_CHANGE_STATUSES,
  POLICY_CHANGE_KIND_LABELS,
  POLICY_CHANGE_STATUS_LABELS,
  type PolicyChangeKind,
  type PolicyChangeStatus,
  partyOfReason,
} from '@piibs/shared/policy-change';
import { preventionFee } from '@piibs/shared/rating';
import { cancellationQuote, endorsementDeltaFen } from '@piibs/shared/short-period';
import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { BusinessContext } from '../../app-types.ts';
import type { Db, Tx } from '../../db/client.ts';
import {
  applications,
  endorsements,
  materials,
  paymentOrders,
  payments,
  policies,
  policyChanges,
  policyRefunds,
  preventionFunds,
  products,
  serviceOrderEvents,
  serviceOrders,
} from '../../db/schema.ts';
import { type Actor, auditAction, writeAudit } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { conflict, fieldError, notFound } from '../../lib/errors.ts';
import type { Seal } from '../../lib/pdf.ts';
import { PAYMENT_TTL_MS } from '../applications/changes.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { recordEndorsement } from '../documents/endorsement.ts';
import { insurerName } from '../init/service.ts';
import {
  notifyPolicyChangeDecided,
  notifyPolicyChangeDone,
  notifyPolicyChangeLapsed,
  notifyPolicyChangeSubmitted,
} from '../notifications/events.ts';
import { renderEndorsementPdf } from '../project-orders/endorsement-pdf.ts';
import { applyNamedListChange, namedListChange, namedPersonsOf } from './named-changes.ts';
import { policiesVisibleTo, policyCovers } from './service.ts';

export const POLICY_CHANGE_NOT_FOUND = '批改/退保申请不存在';
const POLICY_NOT_FOUND_TEXT = '保单不存在';

type Policy = typeof policies.$inferSelect;
type Change = typeof policyChanges.$inferSelect;

/** The changed fields in words, for the audit trail: 参保人数：50 人 → 55 人；联系电话：… → …. */
const changeText = (changes: FieldChange[]) =>
  changes.map((c) => `${c.label}：${c.before} → ${c.after}`).join('；');

/** The annual premium of a policy's current risk (null on the row: the premium as issued, a full year). */
export const annualOf = (p: Pick<Policy, 'annualPremiumFen' | 'premiumFen'>) =>
  p.annualPremiumFen ?? p.premiumFen;

/** The policy the viewer may see, locked, or 404. */
async function lockVisiblePolicy(tx: Tx, db: Db, viewer: CustomerViewer, id: number): Promise<Policy> {
  const [p] = await tx
    .select()
    .from(policies)
    .where(and(eq(policies.id, id), policiesVisibleTo(db, viewer)))
    .for('update');
  if (!p) throw notFound(POLICY_NOT_FOUND_TEXT);
  return p;
}

/** What the insurer holds of a policy's premium: paid (issue + endorsements) − refunded. */
export async function premiumHeldFen(db: Db | Tx, p: Pick<Policy, 'id' | 'paymentId' | 'premiumFen'>) {
  const charges = await paidCharges(db, p);
  const refunded = await refundedByOrder(db, p.id);
  return charges.reduce((s, c) => s + c.amountFen - (refunded.get(c.orderNo) ?? 0), 0);
}

/** The paid charges of a policy, oldest first: the application's payment and each endorsement paid. */
async function paidCharges(db: Db | Tx, p: Pick<Policy, 'id' | 'paymentId' | 'premiumFen'>) {
  const first = p.paymentId
    ? await db
        .select({ orderNo: paymentOrders.number, amountFen: payments.amountFen, provider: payments.provider })
        .from(payments)
        .innerJoin(paymentOrders, eq(paymentOrders.id, payments.orderId))
        .where(eq(payments.id, p.paymentId))
    : [];
  const later = await db
    .select({
      orderNo: policyChanges.number,
      amountFen: policyChanges.premiumDeltaFen,
      provider: policyChanges.provider,
    })
    .from(policyChanges)
    .where(
      and(
        eq(policyChanges.policyId, p.id),
        eq(policyChanges.kind, 'ENDORSEMENT'),
        sql`${policyChanges.paidAt} is not null`,
      ),
    )
    .orderBy(asc(policyChanges.id));
  return [...first, ...later].map((c) => ({ ...c, provider: c.provider ?? 'sandbox' }));
}

async function refundedByOrder(db: Db | Tx, policyId: number): Promise<Map<string, number>> {
  const rows = await db
    .select({ orderNo: policyRefunds.orderNo, fen: sql<string>`sum(${policyRefunds.amountFen})::text` })
    .from(policyRefunds)
    .where(eq(policyRefunds.policyId, policyId))
    .groupBy(policyRefunds.orderNo);
  return new Map(rows.map((r) => [r.orderNo, Number(r.fen)]));
}

async function nextNumber(tx: Tx): Promise<string> {
  const res = await tx.execute<{ n: string }>(sql`select nextval('policy_change_number_seq')::text as n`);
  return `G${formatTime(Date.now(), '{y}')}${res.rows[0]!.n.padStart(8, '0')}`;
}

/** The effective date: not before today (no back-dating), within the policy's period. */
function effectiveProblem(p: Policy, effective: string, label: string) {
  const today = shanghaiToday();
  if (effective < today) throw fieldError('effectiveDate', `${label}不能早于今天`);
  if (effective < p.startDate || effective > p.endDate)
    throw fieldError('effectiveDate', `${label}须在保险期间（${p.startDate} 至 ${p.endDate}）内`);
}

function assertChangeable(p: Policy) {
  if (p.status === 'CANCELLED') throw conflict('保单已退保，不能再申请批改或退保');
  if (p.endDate < shanghaiToday()) throw conflict('保单已到期，不能再申请批改或退保');
}

/** Inserts a request; the same idempotency key answers the first; a second open request is refused. */
async function insertChange(
  tx: Tx,
  values: typeof policyChanges.$inferInsert,
): Promise<{ row: Change; fresh: boolean }> {
  const [same] = await tx
    .select()
    .from(policyChanges)
    .where(
      and(
        eq(policyChanges.policyId, values.policyId),
        eq(policyChanges.idempotencyKey, values.idempotencyKey),
      ),
    );
  if (same) return { row: same, fresh: false };
  const [open] = await tx
    .select({ number: policyChanges.number })
    .from(policyChanges)
    .where(
      and(
        eq(policyChanges.policyId, values.policyId),
        inArray(policyChanges.status, [...OPEN_POLICY_CHANGE_STATUSES]),
      ),
    );
  if (open) throw conflict(`该保单已有办理中的批改/退保申请（${open.number}），请待其办结后再申请`);
  try {
    const [row] = await tx.insert(policyChanges).values(values).returning();
    return { row: row!, fresh: true };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('该保单已有办理中的批改/退保申请，请待其办结后再申请');
    throw err;
  }
}

/** The underwriters are told a request waits for them (批改审核). */
const tellReviewers = (tx: Tx, p: Policy, c: Change, requestedBy: number) =>
  notifyPolicyChangeSubmitted(tx, {
    id: c.id,
    applicationId: p.applicationId,
    requestedBy,
    kindLabel: POLICY_CHANGE_KIND_LABELS[c.kind as PolicyChangeKind],
    number: c.number,
    policyNumber: p.number,
    holderName: p.holderName,
    changeText: changeText(c.changes as FieldChange[]),
    version: c.version,
  });

/** The endorsement asked for: field changes in words, the new annual premium and the pro-rata delta. */
export async function submitEndorsement(
  ctx: BusinessContext,
  viewer: CustomerViewer,
  actor: Actor,
  policyId: number,
  input: EndorsementRequest,
): Promise<PolicyChangeView> {
  const change = await ctx.db.transaction(async (tx) => {
    const p = await lockVisiblePolicy(tx, ctx.db, viewer, policyId);
    assertChangeable(p);
    effectiveProblem(p, input.effectiveDate, '批改生效日期：');
    const [app] = await tx
      .select({ contactName: applications.contactName, contactPhone: applications.contactPhone })
      .from(applications)
      .where(eq(applications.id, p.applicationId));
    const changes: FieldChange[] = [];
    const newValues: Record<string, unknown> = {};
    let annualAfter = annualOf(p);
    // A policy with a named list changes its people; the headcount follows (named-changes.ts).
    const named = await namedListChange(tx, p.id, input);
    const headcount = named ? named.headcount : input.headcount;
    if (headcount !== undefined && headcount !== p.headcount) {
      if (!p.headcount) throw fieldError('headcount', '参保人数：该保单不按人数承保，不能批改人数');
      changes.push({
        field: 'headcount',
        label: '参保人数',
        before: `${p.headcount} 人`,
        after: `${headcount} 人`,
      });
      newValues.headcount = headcount;
      annualAfter = annualForHeadcount(annualOf(p), p.headcount, headcount);
    }
    if (named) {
      changes.push(...named.changes);
      Object.assign(newValues, named.values);
    }
    const text = (
      field: 'contactName' | 'contactPhone' | 'insuredAddress',
      label: string,
      before: string | null | undefined,
    ) => {
      const after = input[field];
      if (after !== undefined && after !== (before ?? '')) {
        changes.push({ field, label, before: before || '（未填写）', after });
        newValues[field] = after;
      }
    };
    text('contactName', '联系人', p.contactName ?? app?.contactName);
    text('contactPhone', '联系电话', p.contactPhone ?? app?.contactPhone);
    text('insuredAddress', '被保险人地址', p.insuredAddress);
    if (changes.length === 0)
      throw fieldError('headcount', '批改内容：与保单现有内容相同，没有需要批改的项目');
    const held = await premiumHeldFen(tx, p);
    let delta = endorsementDeltaFen(p, annualOf(p), annualAfter, input.effectiveDate);
    if (delta < -held) delta = -held;
    const { row, fresh } = await insertChange(tx, {
      number: await nextNumber(tx),
      policyId: p.id,
      kind: 'ENDORSEMENT',
      effectiveDate: input.effectiveDate,
      changes,
      newValues,
      annualBeforeFen: annualOf(p),
      annualAfterFen: annualAfter,
      premiumBeforeFen: held,
      premiumDeltaFen: delta,
      note: input.reason ?? null,
      idempotencyKey: input.idempotencyKey,
      requestedBy: actor.user.id,
    });
    if (fresh) {
      await auditAction(tx, actor, {
        action: 'submit',
        entity: 'policy_change',
        entityId: row.id,
        detail: {
          number: row.number,
          policyNumber: p.number,
          changeKind: 'ENDORSEMENT',
          changeText: changeText(changes),
          premiumDeltaFen: delta,
        },
      });
      await tellReviewers(tx, p, row, actor.user.id);
    }
    return row;
  });
  return viewOf(ctx.db, change);
}

/** The cancellation asked for: the reason the product accepts (with its proof), the refund as quoted. */
export async function submitCancellation(
  ctx: BusinessContext,
  viewer: CustomerViewer,
  actor: Actor,
  policyId: number,
  input: CancellationRequest,
): Promise<PolicyChangeView> {
  const change = await ctx.db.transaction(async (tx) => {
    const p = await lockVisiblePolicy(tx, ctx.db, viewer, policyId);
    assertChangeable(p);
    effectiveProblem(p, input.effectiveDate, '退保生效日期：');
    const [product] = await tx.select().from(products).where(eq(products.id, p.productId));
    if (input.reason === 'INSURER' && !viewer.staffScope)
      throw fieldError('reason', '退保原因：保险人解除合同只能由保险公司人员提出');
    let hasProof = false;
    if (input.proofMaterialId) {
      const [m] = await tx
        .select({ id: materials.id })
        .from(materials)
        .where(
          and(
            eq(materials.id, input.proofMaterialId),
            sql`((${materials.businessType} = 'policy' and ${materials.businessId} = ${p.id}) or (${materials.businessType} = 'customer' and ${materials.businessId} = ${p.customerId}) or (${materials.businessType} = 'application' and ${materials.businessId} = ${p.applicationId}))`,
          ),
        );
      if (!m) throw fieldError('proofMaterialId', '证明材料：找不到该文件，请重新上传');
      hasProof = true;
    }
    const problem = cancellationReasonProblem(product!.productClass, input.reason, hasProof);
    if (problem) {
      const field = problem.startsWith('证明材料') ? 'proofMaterialId' : 'reason';
      throw fieldError(field, problem);
    }
    const q = await quoteOf(tx, p, input.effectiveDate, input.reason);
    const { row, fresh } = await insertChange(tx, {
      number: await nextNumber(tx),
      policyId: p.id,
      kind: 'CANCELLATION',
      effectiveDate: input.effectiveDate,
      changes: [
        {
          field: 'status',
          label: '保单状态',
          before: '有效',
          after: `已退保（自 ${input.effectiveDate} 起）`,
        },
        { field: 'reason', label: '退保原因', before: '—', after: CANCELLATION_REASON_LABELS[input.reason] },
      ],
      annualBeforeFen: annualOf(p),
      annualAfterFen: annualOf(p),
      premiumBeforeFen: q.held,
      premiumDeltaFen: -q.refundFen,
      reason: input.reason,
      party: partyOfReason(input.reason),
      earnedFen: q.earnedFen,
      basis: q.basis,
      preventionSpentFen: q.spent,
      proofMaterialId: input.proofMaterialId ?? null,
      note: input.note ?? null,
      idempotencyKey: input.idempotencyKey,
      requestedBy: actor.user.id,
    });
    if (fresh) {
      await auditAction(tx, actor, {
        action: 'submit',
        entity: 'policy_change',
        entityId: row.id,
        detail: {
          number: row.number,
          policyNumber: p.number,
          changeKind: 'CANCELLATION',
          cancellationReason: input.reason,
          refundFen: q.refundFen,
          earnedFen: q.earnedFen,
        },
      });
      await tellReviewers(tx, p, row, actor.user.id);
    }
    return row;
  });
  return viewOf(ctx.db, change);
}

async function quoteOf(tx: Tx, p: Policy, effective: string, reason: CancellationReason) {
  const held = await premiumHeldFen(tx, p);
  const [fund] = await tx
    .select({ spent: preventionFunds.spentFen })
    .from(preventionFunds)
    .where(eq(preventionFunds.policyId, p.id));
  const spent = fund?.spent ?? 0;
  const q = cancellationQuote({
    policy: p,
    paidFen: held,
    annualFen: annualOf(p),
    effective,
    party: partyOfReason(reason),
    preventionSpentFen: spent,
  });
  return { ...q, held, spent };
}

/** A request locked for a decision on the version the caller saw: 404 when there is none, 409 when it moved. */
async function lockChangeAt(tx: Tx, id: number, version: number): Promise<Change> {
  const [c] = await tx.select().from(policyChanges).where(eq(policyChanges.id, id)).for('update');
  if (!c) throw notFound(POLICY_CHANGE_NOT_FOUND);
  if (c.version !== version) throw conflict('该申请已被他人处理，请刷新后重试');
  return c;
}

export type ReviewDecision = 'approve' | 'return' | 'reject';

/**
 * The underwriter's decision. Approve: a return of premium or a cancellation is refunded through the gateway and
 * takes effect; an additional premium waits for payment; no money: takes effect now. Return: back to the
 * policyholder. Decline: closed. The version guards a decision made on a stale view.
 */
export async function reviewPolicyChange(
  ctx: BusinessContext,
  viewer: CustomerViewer,
  actor: Actor,
  id: number,
  decision: ReviewDecision,
  opinion: string | undefined,
  version: number,
): Promise<PolicyChangeView> {
  const seen = await visibleChange(ctx.db, viewer, id);
  const outcome = await ctx.db.transaction(async (tx) => {
    const c = await lockChangeAt(tx, seen.id, version);
    if (c.status !== 'PENDING_REVIEW')
      throw conflict(`该申请${POLICY_CHANGE_STATUS_LABELS[c.status as PolicyChangeStatus]}，不能再审核`);
    if (decision !== 'approve' && !opinion?.trim())
      throw fieldError(
        'opinion',
        decision === 'return' ? '退回意见：请填写退回原因' : '拒绝原因：请填写拒绝原因',
      );
    const [p] = await tx.select().from(policies).where(eq(policies.id, c.policyId)).for('update');
    let status: PolicyChangeStatus =
      decision === 'return' ? 'RETURNED' : decision === 'reject' ? 'DECLINED' : 'DONE';
    let row = c;
    if (decision === 'approve') {
      assertChangeable(p!);
      // Re-price on the policy as it stands now (an earlier change may have moved its premium).
      row = await reprice(tx, p!, c);
      status = row.premiumDeltaFen > 0 ? 'PENDING_PAYMENT' : row.premiumDeltaFen < 0 ? 'REFUNDING' : 'DONE';
    }
    const [updated] = await tx
      .update(policyChanges)
      .set({
        status,
        reviewedBy: actor.user.id,
        reviewOpinion: opinion?.trim() || null,
        reviewedAt: sql`now()`,
        version: sql`${policyChanges.version} + 1`,
        updatedAt: sql`now()`,
        // The deadline of an application's payment order: unpaid by then, the endorsement lapses.
        ...(status === 'PENDING_PAYMENT' ? { payExpiresAt: new Date(Date.now() + PAYMENT_TTL_MS) } : {}),
      })
      .where(eq(policyChanges.id, c.id))
      .returning();
    await auditAction(tx, actor, {
      action: decision,
      entity: 'policy_change',
      entityId: c.id,
      detail: {
        number: c.number,
        policyNumber: p!.number,
        changeKind: c.kind,
        before: { status: c.status },
        after: { status },
        premiumDeltaFen: row.premiumDeltaFen,
        ...(opinion ? { opinion } : {}),
      },
    });
    await notifyPolicyChangeDecided(tx, {
      id: c.id,
      policyId: p!.id,
      applicationId: p!.applicationId,
      kindLabel: POLICY_CHANGE_KIND_LABELS[c.kind as PolicyChangeKind],
      number: c.number,
      policyNumber: p!.number,
      decision,
      opinion: opinion?.trim() || null,
      deltaFen: row.premiumDeltaFen,
      version: updated!.version,
    });
    if (status === 'DONE') await takeEffect(ctx, tx, updated!);
    return updated!;
  });
  if (outcome.status === 'REFUNDING') return viewOf(ctx.db, await refundChange(ctx, outcome.id));
  return viewOf(ctx.db, outcome);
}

async function reprice(tx: Tx, p: Policy, c: Change): Promise<Change> {
  let delta: number;
  let extra: Partial<Change> = {};
  if (c.kind === 'CANCELLATION') {
    const q = await quoteOf(tx, p, c.effectiveDate, c.reason as CancellationReason);
    delta = -q.refundFen;
    extra = { earnedFen: q.earnedFen, basis: q.basis, preventionSpentFen: q.spent, premiumBeforeFen: q.held };
  } else {
    const held = await premiumHeldFen(tx, p);
    const nv = c.newValues as { headcount?: number };
    const annualAfter =
      nv.headcount && p.headcount ? annualForHeadcount(annualOf(p), p.headcount, nv.headcount) : annualOf(p);
    delta = Math.max(endorsementDeltaFen(p, annualOf(p), annualAfter, c.effectiveDate), -held);
    extra = { annualBeforeFen: annualOf(p), annualAfterFen: annualAfter, premiumBeforeFen: held };
  }
  const [row] = await tx
    .update(policyChanges)
    .set({ ...extra, premiumDeltaFen: delta })
    .where(eq(policyChanges.id, c.id))
    .returning();
  return row!;
}

/** Applies a settled request to the policy and issues its 批单 (in the transaction that settles it). */
async function takeEffect(ctx: BusinessContext, tx: Tx, c: Change): Promise<void> {
  const [p] = await tx.select().from(policies).where(eq(policies.id, c.policyId)).for('update');
  const nv = c.newValues as Partial<
    Record<'headcount' | 'contactName' | 'contactPhone' | 'insuredAddress', never>
  > &
    Record<string, unknown>;
  const set: Partial<typeof policies.$inferInsert> =
    c.kind === 'CANCELLATION'
      ? { status: 'CANCELLED', cancelledOn: c.effectiveDate, cancellationReason: c.reason }
      : {
          annualPremiumFen: c.annualAfterFen,
          ...(typeof nv.headcount === 'number' ? { headcount: nv.headcount } : {}),
          ...(typeof nv.contactName === 'string' ? { contactName: nv.contactName } : {}),
          ...(typeof nv.contactPhone === 'string' ? { contactPhone: nv.contactPhone } : {}),
          ...(typeof nv.insuredAddress === 'string' ? { insuredAddress: nv.insuredAddress } : {}),
        };
  if (c.kind === 'ENDORSEMENT' && p!.preventionRatio && c.premiumDeltaFen !== 0)
    set.preventionFeeFen = await followPreventionBudget(tx, p!, c);
  await tx
    .update(policies)
    .set({ ...set, version: sql`${policies.version} + 1`, updatedAt: sql`now()` })
    .where(eq(policies.id, c.policyId));
  if (c.kind === 'CANCELLATION') await cancelOpenServiceOrders(tx, p!, c);
  else await applyNamedListChange(tx, p!.id, c.effectiveDate, c.newValues);
  await tx
    .update(policyChanges)
    .set({ status: 'DONE', doneAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(policyChanges.id, c.id));
  await issuePolicyChangePdf(ctx, tx, p!, c);
  await notifyPolicyChangeDone(tx, {
    id: c.id,
    policyId: p!.id,
    applicationId: p!.applicationId,
    kind: c.kind as PolicyChangeKind,
    number: c.number,
    policyNumber: p!.number,
    effectiveDate: c.effectiveDate,
    deltaFen: c.premiumDeltaFen,
  });
  await writeAudit(tx, {
    actorName: SYSTEM_ACTOR,
    action: c.kind === 'CANCELLATION' ? 'cancel' : 'endorse',
    entity: 'policy',
    entityId: p!.id,
    detail: {
      number: p!.number,
      policyChange: c.number,
      changeText: changeText(c.changes as FieldChange[]),
      premiumDeltaFen: c.premiumDeltaFen,
      ...(c.kind === 'CANCELLATION' ? { cancelledOn: c.effectiveDate, cancellationReason: c.reason } : {}),
    },
  });
}

/**
 * The prevention-fee budget follows the premium: the fee of the premium held after the change (premium × the
 * policy's ratio, half up); the fund's total moves by the difference, never below what is planned and spent.
 */
async function followPreventionBudget(tx: Tx, p: Policy, c: Change): Promise<number> {
  const fee = preventionFee(c.premiumBeforeFen + c.premiumDeltaFen, p.preventionRatio ?? 0);
  const [fund] = await tx
    .select()
    .from(preventionFunds)
    .where(eq(preventionFunds.policyId, p.id))
    .for('update');
  if (fund) {
    const total = Math.max(fund.totalFen + fee - p.preventionFeeFen, fund.plannedFen + fund.spentFen);
    await tx
      .update(preventionFunds)
      .set({ totalFen: total, version: sql`${preventionFunds.version} + 1`, updatedAt: sql`now()` })
      .where(eq(preventionFunds.id, fund.id));
    await writeAudit(tx, {
      actorName: SYSTEM_ACTOR,
      action: 'budget',
      entity: 'prevention_fund',
      entityId: fund.id,
      detail: {
        seqNo: fund.seqNo,
        policyChange: c.number,
        before: { totalFen: fund.totalFen },
        after: { totalFen: total },
      },
    });
  }
  return fee;
}

/** A cancelled policy's service orders not yet started are cancelled, with the reason in their timeline. */
async function cancelOpenServiceOrders(tx: Tx, p: Policy, c: Change) {
  const reason = `保单已退保（${c.number}，自 ${c.effectiveDate} 起）`;
  const open = await tx
    .update(serviceOrders)
    .set({
      status: 'CANCELLED',
      cancelReason: reason,
      version: sql`${serviceOrders.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(serviceOrders.policyId, p.id), inArray(serviceOrders.status, ['DISPATCHED', 'ACCEPTED'])))
    .returning({ id: serviceOrders.id, number: serviceOrders.number });
  for (const o of open) {
    await tx.insert(serviceOrderEvents).values({
      orderId: o.id,
      action: 'cancel',
      fromStatus: null,
      toStatus: 'CANCELLED',
      actorId: null,
      actorName: SYSTEM_ACTOR,
      opinion: reason,
    });
    await writeAudit(tx, {
      actorName: SYSTEM_ACTOR,
      action: 'cancel',
      entity: 'service_order',
      entityId: o.id,
      detail: { number: o.number, status: 'CANCELLED', opinion: reason },
    });
  }
}

/** A returned request goes back to the underwriter (re-priced at approval). */
export async function resubmitPolicyChange(
  ctx: BusinessContext,
  viewer: CustomerViewer,
  actor: Actor,
  id: number,
  version: number,
): Promise<PolicyChangeView> {
  const seen = await visibleChange(ctx.db, viewer, id);
  const row = await ctx.db.transaction(async (tx) => {
    const c = await lockChangeAt(tx, seen.id, version);
    if (c.status !== 'RETURNED') throw conflict('只有已退回的申请可以重新提交');
    const [updated] = await tx
      .update(policyChanges)
      .set({ status: 'PENDING_REVIEW', version: sql`${policyChanges.version} + 1`, updatedAt: sql`now()` })
      .where(eq(policyChanges.id, c.id))
      .returning();
    await auditAction(tx, actor, {
      action: 'resubmit',
      entity: 'policy_change',
      entityId: c.id,
      detail: { number: c.number, before: { status: 'RETURNED' }, after: { status: 'PENDING_REVIEW' } },
    });
    const [p] = await tx.select().from(policies).where(eq(policies.id, c.policyId));
    await tellReviewers(tx, p!, updated!, actor.user.id);
    return updated!;
  });
  return viewOf(ctx.db, row);
}

/**
 * The 批单 of a request as a PDF, in the e-policy's frame: the one place a policy change's document is drawn
 * (the cancellation's is a 退保批单 in the same frame), finished with the insurer's seal and signature.
 */
async function renderPolicyChangePdf(
  ctx: BusinessContext,
  tx: Tx,
  p: Policy,
  c: Change,
  number: string,
  seal: Seal,
) {
  const [product] = await tx.select().from(products).where(eq(products.id, p.productId));
  const issuedAt = new Date();
  const changes = [
    ...(c.changes as FieldChange[]),
    ...(c.kind === 'CANCELLATION' && c.basis
      ? [
          {
            field: 'earned',
            label: '已赚保险费',
            before: formatFen(c.premiumBeforeFen),
            after: `${formatFen(c.earnedFen ?? 0)}（${c.basis}）`,
          },
        ]
      : []),
  ];
  return renderEndorsementPdf(
    {
      insurerName: await insurerName(tx),
      number,
      policyNumber: p.number,
      declarationNumber: c.number,
      productName: product!.name,
      holderName: p.holderName,
      holderUscc: p.holderUscc,
      projectName: p.projectName ?? p.insuredName,
      effectiveDate: c.effectiveDate,
      changes,
      persons: namedPersonsOf(c.newValues),
      premiumBeforeFen: c.premiumBeforeFen,
      premiumAfterFen: c.premiumBeforeFen + c.premiumDeltaFen,
      premiumDiffFen: c.premiumDeltaFen,
      coverages: await policyCovers(tx, p),
      verifyUrl: `${ctx.config.business.publicUrl}${verifyPath(p.verificationCode)}`,
      issuedAt,
      issuedAtText: formatTime(issuedAt),
    },
    seal,
  );
}

async function issuePolicyChangePdf(ctx: BusinessContext, tx: Tx, p: Policy, c: Change) {
  const [existing] = await tx
    .select({ id: endorsements.id })
    .from(endorsements)
    .where(eq(endorsements.policyChangeId, c.id));
  if (existing) return;
  const [product] = await tx
    .select({ code: products.code })
    .from(products)
    .where(eq(products.id, p.productId));
  await recordEndorsement(tx, ctx, {
    kind: c.kind === 'CANCELLATION' ? 'CANCELLATION' : 'ENDORSEMENT',
    policyId: p.id,
    productCode: product!.code,
    values: {
      policyChangeId: c.id,
      changes: c.changes,
      premiumBeforeFen: c.premiumBeforeFen,
      premiumAfterFen: c.premiumBeforeFen + c.premiumDeltaFen,
      premiumDiffFen: c.premiumDeltaFen,
      effectiveDate: c.effectiveDate,
    },
    auditDetail: { policyChange: c.number },
    render: (number, seal) => renderPolicyChangePdf(ctx, tx, p, c, number, seal),
  });
}

/**
 * Refunds a REFUNDING request through the gateway, newest charge first, each part under a refund number made
 * from the request's (so a retry asks the same refunds again and the gateway answers the first), then applies
 * it. Safe to call again after a failure.
 */
export async function refundChange(ctx: BusinessContext, id: number): Promise<Change> {
  const [c] = await ctx.db.select().from(policyChanges).where(eq(policyChanges.id, id));
  if (c?.status !== 'REFUNDING') return c!;
  const [p] = await ctx.db.select().from(policies).where(eq(policies.id, c.policyId));
  const charges = (await paidCharges(ctx.db, p!)).reverse();
  const refundedBefore = await refundedByOrder(ctx.db, p!.id);
  const mine = await ctx.db.select().from(policyRefunds).where(eq(policyRefunds.policyChangeId, c.id));
  let owed =
    -c.premiumDeltaFen - mine.filter((r) => r.status === 'SUCCESS').reduce((s, r) => s + r.amountFen, 0);
  let part = mine.length;
  // Retry the parts already asked (not yet answered) under their own numbers first.
  for (const r of mine.filter((x) => x.status === 'PENDING')) {
    await askRefund(ctx, c, r);
    owed -= r.amountFen;
  }
  for (const charge of charges) {
    if (owed <= 0) break;
    const left = charge.amountFen - (refundedBefore.get(charge.orderNo) ?? 0);
    if (left <= 0) continue;
    const amount = Math.min(left, owed);
    part++;
    const [r] = await ctx.db
      .insert(policyRefunds)
      .values({
        refundNo: `R${c.number}-${part}`,
        policyChangeId: c.id,
        policyId: p!.id,
        provider: charge.provider,
        orderNo: charge.orderNo,
        amountFen: amount,
      })
      .onConflictDoNothing()
      .returning();
    if (r) await askRefund(ctx, c, r);
    owed -= amount;
  }
  return ctx.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(policyChanges).where(eq(policyChanges.id, c.id)).for('update');
    if (locked?.status !== 'REFUNDING') return locked!;
    const pending = await tx
      .select({ id: policyRefunds.id })
      .from(policyRefunds)
      .where(and(eq(policyRefunds.policyChangeId, c.id), eq(policyRefunds.status, 'PENDING')));
    if (pending.length > 0) return locked;
    await takeEffect(ctx, tx, locked);
    const [done] = await tx.select().from(policyChanges).where(eq(policyChanges.id, c.id));
    return done!;
  });
}

async function askRefund(ctx: BusinessContext, c: Change, r: typeof policyRefunds.$inferSelect) {
  const provider = ctx.providers[r.provider] ?? ctx.provider;
  const result = await provider.refund({
    refundNo: r.refundNo,
    orderNo: r.orderNo,
    amountFen: r.amountFen,
    reason: `${POLICY_CHANGE_KIND_LABELS[c.kind as PolicyChangeKind]} ${c.number}`,
  });
  if (result.status !== 'SUCCESS') {
    ctx.log.warn({ refundNo: r.refundNo, message: result.message }, 'refund refused by the gateway');
    await writeAudit(ctx.db, {
      actorName: SYSTEM_ACTOR,
      action: 'refund_refused',
      entity: 'policy_change',
      entityId: c.id,
      detail: { number: c.number, refundNo: r.refundNo, amountFen: r.amountFen, reason: result.message },
    });
    return;
  }
  await ctx.db.transaction(async (tx) => {
    const [done] = await tx
      .update(policyRefunds)
      .set({ status: 'SUCCESS', refundTradeNo: result.refundTradeNo, refundedAt: result.refundedAt })
      .where(and(eq(policyRefunds.id, r.id), eq(policyRefunds.status, 'PENDING')))
      .returning({ id: policyRefunds.id });
    if (done)
      await writeAudit(tx, {
        actorName: provider.name,
        action: 'refund',
        entity: 'policy_change',
        entityId: c.id,
        detail: {
          number: c.number,
          refundNo: r.refundNo,
          orderNo: r.orderNo,
          amountFen: r.amountFen,
          refundTradeNo: result.refundTradeNo,
        },
      });
  });
}

/** Opens (or answers again) the cashier for an approved endorsement's additional premium. */
export async function payPolicyChange(ctx: BusinessContext, viewer: CustomerViewer, id: number) {
  const c = await visibleChange(ctx.db, viewer, id);
  if (c.status === 'LAPSED') throw conflict(LAPSED_TEXT);
  if (c.status !== 'PENDING_PAYMENT') throw conflict('该申请不需要补缴保费');
  if (c.payExpiresAt && c.payExpiresAt.getTime() <= Date.now())
    // Lapsed now, or (paid at the last moment) settled by closing its charge.
    throw conflict((await lapseChange(ctx, c.id)) ? LAPSED_TEXT : '该申请不需要补缴保费');
  const charge = await ctx.provider.createCharge({
    orderNo: c.number,
    amountFen: c.premiumDeltaFen,
    subject: `批改补缴保费 ${c.number}`,
    expiresAt: c.payExpiresAt ?? new Date(Date.now() + PAYMENT_TTL_MS),
  });
  await ctx.db
    .update(policyChanges)
    .set({
      provider: charge.provider,
      chargeNo: charge.chargeNo,
      cashierUrl: charge.cashierUrl,
      updatedAt: sql`now()`,
    })
    .where(eq(policyChanges.id, c.id));
  return { cashierUrl: charge.cashierUrl };
}

const LAPSED_TEXT = '补缴期限已过，该批改已失效，保单内容不变；如仍需批改，请重新申请';

/**
 * An approved endorsement whose additional premium was not paid by its deadline lapses (已失效): first its
 * charge is closed at the gateway so it can no longer be paid (paid meanwhile: settled instead), then the
 * request → LAPSED, the policy unchanged, with the audit trail and the policyholder told. True if it lapsed.
 */
export async function lapseChange(ctx: BusinessContext, id: number, now = new Date()): Promise<boolean> {
  const [c] = await ctx.db.select().from(policyChanges).where(eq(policyChanges.id, id));
  if (c?.status !== 'PENDING_PAYMENT' || !c.payExpiresAt || c.payExpiresAt > now) return false;
  if (c.chargeNo) {
    const provider = (c.provider && ctx.providers[c.provider]) || ctx.provider;
    const final = await provider.close(c.number);
    if (final.status === 'PAID') {
      const { tradeNo, amountFen, paidAt } = final;
      await settlePolicyChangePayment(ctx, {
        provider: provider.name,
        orderNo: c.number,
        tradeNo,
        amountFen,
        paidAt,
      });
      return false;
    }
  }
  return ctx.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(policyChanges).where(eq(policyChanges.id, id)).for('update');
    if (
      locked?.status !== 'PENDING_PAYMENT' ||
      locked.paidAt ||
      !locked.payExpiresAt ||
      locked.payExpiresAt > now
    )
      return false;
    await tx
      .update(policyChanges)
      .set({ status: 'LAPSED', version: sql`${policyChanges.version} + 1`, updatedAt: sql`now()` })
      .where(eq(policyChanges.id, id));
    const [p] = await tx.select().from(policies).where(eq(policies.id, locked.policyId));
    await writeAudit(tx, {
      actorName: SYSTEM_ACTOR,
      action: 'expire',
      entity: 'policy_change',
      entityId: id,
      detail: {
        number: locked.number,
        policyNumber: p!.number,
        premiumDeltaFen: locked.premiumDeltaFen,
        payExpiresAt: locked.payExpiresAt.toISOString(),
        before: { status: 'PENDING_PAYMENT' },
        after: { status: 'LAPSED' },
      },
    });
    await notifyPolicyChangeLapsed(tx, {
      id,
      policyId: p!.id,
      applicationId: p!.applicationId,
      number: locked.number,
      policyNumber: p!.number,
      deltaFen: locked.premiumDeltaFen,
    });
    return true;
  });
}

/** The job (payment-expire): every approved endorsement past its payment deadline lapses. Answers how many. */
export async function lapseOverdueChanges(ctx: BusinessContext, now = new Date()): Promise<number> {
  const due = await ctx.db
    .select({ id: policyChanges.id })
    .from(policyChanges)
    .where(and(eq(policyChanges.status, 'PENDING_PAYMENT'), lte(policyChanges.payExpiresAt, now)))
    .orderBy(asc(policyChanges.payExpiresAt))
    .limit(500);
  let lapsed = 0;
  for (const c of due) {
    try {
      if (await lapseChange(ctx, c.id, now)) lapsed++;
    } catch (err) {
      ctx.log.error(
        { err, policyChangeId: c.id },
        'lapsing an unpaid endorsement failed; retried on the next pass',
      );
    }
  }
  return lapsed;
}

/**
 * Settles an endorsement's additional premium (a verified notification or an active query): once, under the
 * request's lock, the amount checked; then the endorsement takes effect. Null: the order number is not a request's.
 */
export async function settlePolicyChangePayment(
  ctx: BusinessContext,
  input: { provider: string; orderNo: string; tradeNo: string; amountFen: number; paidAt: Date },
): Promise<'PAID' | 'DUPLICATE' | 'AMOUNT_MISMATCH' | 'ORDER_CLOSED' | null> {
  const [peek] = await ctx.db
    .select({ id: policyChanges.id })
    .from(policyChanges)
    .where(eq(policyChanges.number, input.orderNo));
  if (!peek) return null;
  return ctx.db.transaction(async (tx) => {
    const [c] = await tx.select().from(policyChanges).where(eq(policyChanges.id, peek.id)).for('update');
    if (!c) return null;
    if (c.paidAt) return 'DUPLICATE';
    if (c.status !== 'PENDING_PAYMENT') return 'ORDER_CLOSED';
    if (c.premiumDeltaFen !== input.amountFen) return 'AMOUNT_MISMATCH';
    const [paid] = await tx
      .update(policyChanges)
      .set({ provider: input.provider, tradeNo: input.tradeNo, paidAt: input.paidAt })
      .where(eq(policyChanges.id, c.id))
      .returning();
    await writeAudit(tx, {
      actorName: input.provider,
      action: 'pay',
      entity: 'policy_change',
      entityId: c.id,
      detail: { number: c.number, amountFen: input.amountFen, tradeNo: input.tradeNo },
    });
    await takeEffect(ctx, tx, paid!);
    return 'PAID';
  });
}

async function visibleChange(db: Db, viewer: CustomerViewer, id: number): Promise<Change> {
  const [row] = await db
    .select({ c: policyChanges })
    .from(policyChanges)
    .innerJoin(policies, eq(policies.id, policyChanges.policyId))
    .where(and(eq(policyChanges.id, id), policiesVisibleTo(db, viewer)));
  if (!row) throw notFound(POLICY_CHANGE_NOT_FOUND);
  return row.c;
}

/** A request as its pages show it: words and formatted money, never codes. */
export interface PolicyChangeView {
  id: number;
  number: string;
  policyId: number;
  policyNumber: string;
  holderName: string;
  productName: string;
  kind: PolicyChangeKind;
  kindLabel: string;
  status: PolicyChangeStatus;
  statusLabel: string;
  effectiveDate: string;
  changes: FieldChange[];
  premiumBeforeFen: number;
  premiumDeltaFen: number;
  premiumDeltaText: string;
  reasonLabel: string | null;
  persons: ReturnType<typeof namedPersonsOf>;
  earnedFen: number | null;
  basis: string | null;
  reviewOpinion: string | null;
  endorsementNumber: string | null;
  endorsementId: number | null;
  refundedFen: number;
  paid: boolean;
  payExpiresAt: string | null;
  version: number;
  createdAt: string;
}

export function deltaText(fen: number): string {
  if (fen > 0) return `补缴 ${formatFen(fen)}`;
  if (fen < 0) return `退还 ${formatFen(-fen)}`;
  return '保费不变';
}

async function viewOf(db: Db, c: Change): Promise<PolicyChangeView> {
  const [views] = [await viewsOf(db, [c])];
  return views[0]!;
}

async function viewsOf(db: Db, rows: Change[]): Promise<PolicyChangeView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [docs, refunds, held] = await Promise.all([
    db
      .select({ id: endorsements.id, number: endorsements.number, changeId: endorsements.policyChangeId })
      .from(endorsements)
      .where(inArray(endorsements.policyChangeId, ids)),
    db
      .select({
        changeId: policyRefunds.policyChangeId,
        fen: sql<string>`sum(${policyRefunds.amountFen})::text`,
      })
      .from(policyRefunds)
      .where(and(inArray(policyRefunds.policyChangeId, ids), eq(policyRefunds.status, 'SUCCESS')))
      .groupBy(policyRefunds.policyChangeId),
    db
      .select({
        id: policies.id,
        number: policies.number,
        holderName: policies.holderName,
        productName: products.name,
      })
      .from(policies)
      .innerJoin(products, eq(products.id, policies.productId))
      .where(inArray(policies.id, [...new Set(rows.map((r) => r.policyId))])),
  ]);
  return rows.map((c) => {
    const doc = docs.find((d) => d.changeId === c.id);
    const p = held.find((x) => x.id === c.policyId);
    return {
      id: c.id,
      number: c.number,
      policyId: c.policyId,
      policyNumber: p?.number ?? '',
      holderName: p?.holderName ?? '',
      productName: p?.productName ?? '',
      kind: c.kind as PolicyChangeKind,
      kindLabel: POLICY_CHANGE_KIND_LABELS[c.kind as PolicyChangeKind],
      status: c.status as PolicyChangeStatus,
      statusLabel: POLICY_CHANGE_STATUS_LABELS[c.status as PolicyChangeStatus],
      effectiveDate: c.effectiveDate,
      changes: c.changes as FieldChange[],
      premiumBeforeFen: c.premiumBeforeFen,
      premiumDeltaFen: c.premiumDeltaFen,
      premiumDeltaText: deltaText(c.premiumDeltaFen),
      reasonLabel: c.reason ? CANCELLATION_REASON_LABELS[c.reason as CancellationReason] : null,
      persons: namedPersonsOf(c.newValues),
      earnedFen: c.earnedFen,
      basis: c.basis,
      reviewOpinion: c.reviewOpinion,
      endorsementNumber: doc?.number ?? null,
      endorsementId: doc?.id ?? null,
      refundedFen: Number(refunds.find((r) => r.changeId === c.id)?.fen ?? 0),
      paid: c.paidAt !== null,
      payExpiresAt: c.payExpiresAt?.toISOString() ?? null,
      version: c.version,
      createdAt: c.createdAt.toISOString(),
    };
  });
}

/** A policy's requests, newest first (its endorsement history). */
export async function policyChangesOf(db: Db, viewer: CustomerViewer, policyId: number) {
  const [p] = await db
    .select({ id: policies.id })
    .from(policies)
    .where(and(eq(policies.id, policyId), policiesVisibleTo(db, viewer)));
  if (!p) throw notFound(POLICY_NOT_FOUND_TEXT);
  const rows = await db
    .select()
    .from(policyChanges)
    .where(eq(policyChanges.policyId, policyId))
    .orderBy(desc(policyChanges.id));
  return viewsOf(db, rows);
}

/** The underwriter's queue: requests waiting for review on policies the viewer may see, oldest first. */
export async function policyChangeQueue(db: Db, viewer: CustomerViewer) {
  const rows = await db
    .select({ c: policyChanges })
    .from(policyChanges)
    .innerJoin(policies, eq(policies.id, policyChanges.policyId))
    .where(and(eq(policyChanges.status, 'PENDING_REVIEW'), policiesVisibleTo(db, viewer)))
    .orderBy(asc(policyChanges.id))
    .limit(200);
  return viewsOf(
    db,
    rows.map((r) => r.c),
  );
}

/** A request the viewer may see. */
export async function getPolicyChange(db: Db, viewer: CustomerViewer, id: number) {
  return viewOf(db, await visibleChange(db, viewer, id));
}
