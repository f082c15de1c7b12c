import type { QuoteResult } from '@piibs/shared/product';
import {
  type DeclarationStatus,
  declarationNext,
  type ProjectValues,
  quotaDelta,
} from '@piibs/shared/project-order';
import type { ReviewStatus } from '@piibs/shared/review';
import { and, eq, sql } from 'drizzle-orm';
import type { BusinessContext } from '../../app-types.ts';
import type { Db, Tx } from '../../db/client.ts';
import {
  annualOrders,
  applicationEvents,
  applications,
  customers,
  products,
  secondaryOrders,
} from '../../db/schema.ts';
import { type Actor, auditAction } from '../../lib/audit.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { nextApplicationNumber } from '../applications/changes.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { issueAfterPayment } from '../policies/issue.ts';
import { DECISION_OF } from '../tasks/queue.ts';
import { declarationsVisibleTo, reviewerProjectViewer } from './access.ts';
import { DECLARATION_NOT_FOUND } from './common.ts';
import { lockAnnualOrder, moveQuota } from './declarations.ts';
import { issueEndorsement } from './endorsements.ts';

/** Locks the secondary order under review; its status as the review machine sees it (pending or not). */
export async function lockTenderForReview(
  tx: Tx,
  viewer: CustomerViewer,
  id: number,
): Promise<{ status: ReviewStatus; title: string } | null> {
  const [row] = await tx
    .select({ status: secondaryOrders.status, number: secondaryOrders.number })
    .from(secondaryOrders)
    .where(
      and(
        eq(secondaryOrders.id, id),
        declarationsVisibleTo(tx as unknown as Db, reviewerProjectViewer(viewer)),
      ),
    )
    .for('update', { of: secondaryOrders });
  if (!row) return null;
  // Anything but PENDING_REVIEW is "not pending" to the review machine (→ 409).
  return { status: row.status === 'PENDING_REVIEW' ? 'pending' : 'approved', title: row.number };
}

/** The project's application, PAID (settled against the annual order), ready for issuance. */
async function makeProjectApplication(
  tx: Tx,
  d: typeof secondaryOrders.$inferSelect,
  order: typeof annualOrders.$inferSelect,
  actor: Actor,
): Promise<number> {
  const [[customer], [product]] = await Promise.all([
    tx.select().from(customers).where(eq(customers.id, order.customerId)),
    tx.select({ code: products.code }).from(products).where(eq(products.id, order.productId)),
  ]);
  if (!customer || !product) throw notFound(DECLARATION_NOT_FOUND);
  const quote = d.quote as QuoteResult;
  const number = await nextApplicationNumber(tx, product.code);
  const [app] = await tx
    .insert(applications)
    .values({
      number,
      productId: order.productId,
      channel: 'project',
      policyholderType: 1,
      customerId: customer.id,
      insuredName: customer.name,
      insuredUscc: customer.uscc,
      insuredAddress: d.projectAddress,
      contactName: customer.contactName,
      contactPhone: customer.phone,
      specialTerms: `本保单为年度订单 ${order.number} 项下二次下单 ${d.number} 所出，保费按年度订单结算。`,
      startDate: d.startDate,
      endDate: d.endDate,
      industrySection: customer.industrySection,
      industryDivision: customer.industryDivision,
      headcount: d.headcount,
      factors: quote.input.factors,
      projectName: d.projectName,
      projectAddress: d.projectAddress,
      projectCostFen: d.projectCostFen,
      contractor: customer.name,
      highRisk: d.highRisk,
      quote,
      rateTableId: d.rateTableId,
      premiumFen: d.premiumFen,
      preventionRatio: quote.preventionRatio,
      preventionFeeFen: quote.preventionFeeFen,
      agentId: d.agentId,
      ownerId: d.ownerId,
      status: 'PAID',
      submittedAt: d.submittedAt,
      decidedAt: sql`now()`,
    })
    .returning({ id: applications.id });
  await tx.insert(applicationEvents).values({
    applicationId: app!.id,
    action: 'approve',
    fromStatus: null,
    toStatus: 'PAID',
    actorId: actor.user.id,
    actorName: actor.user.username,
    opinion: `二次下单 ${d.number} 审核通过，保费按年度订单 ${order.number} 结算`,
  });
  return app!.id;
}

/** The reviewer's decision on the secondary order (inside the task service's transaction). */
export async function applyTenderReview(
  tx: Tx,
  id: number,
  decided: ReviewStatus,
  opinion: string | null,
  actor: Actor,
): Promise<void> {
  const [d] = await tx.select().from(secondaryOrders).where(eq(secondaryOrders.id, id));
  if (!d) throw notFound(DECLARATION_NOT_FOUND);
  const next = declarationNext(d.status as DeclarationStatus, DECISION_OF[decided]);
  if (!next) throw conflict('该申报当前不是待审核状态');
  const order = await lockAnnualOrder(tx, d.annualOrderId);
  if (next === 'APPROVED' && d.kind === 2) return approveChange(tx, d, order, opinion, actor);
  const delta = quotaDelta(next, d.reservedFen, d.premiumFen);
  await moveQuota(tx, order, delta);
  const applicationId = next === 'APPROVED' ? await makeProjectApplication(tx, d, order, actor) : null;
  await tx
    .update(secondaryOrders)
    .set({
      status: next,
      reviewOpinion: opinion,
      reservedFen: d.reservedFen + delta,
      ...(applicationId ? { applicationId } : {}),
      decidedAt: sql`now()`,
      version: sql`${secondaryOrders.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(secondaryOrders.id, id));
}

/**
 * A change approved: the annual order's consumption moves by the difference less what the change held (a
 * refund is released now), the project takes the change's values, premium and quote and holds the new premium,
 * the change holds nothing more. Σ reserved over the order's declarations stays equal to its consumption.
 */
async function approveChange(
  tx: Tx,
  d: typeof secondaryOrders.$inferSelect,
  order: typeof annualOrders.$inferSelect,
  opinion: string | null,
  actor: Actor,
): Promise<void> {
  const before = d.baseValues as ProjectValues;
  const diff = d.premiumFen - before.premiumFen;
  await moveQuota(tx, order, diff - d.reservedFen);
  await tx
    .update(secondaryOrders)
    .set({
      projectAddress: d.projectAddress,
      projectCostFen: d.projectCostFen,
      endDate: d.endDate,
      highRisk: d.highRisk,
      headcount: d.headcount,
      quote: d.quote,
      rateTableId: d.rateTableId,
      premiumFen: d.premiumFen,
      reservedFen: sql`${secondaryOrders.reservedFen} + ${diff}`,
      version: sql`${secondaryOrders.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(secondaryOrders.id, d.baseId!));
  await tx
    .update(secondaryOrders)
    .set({
      status: 'APPROVED',
      reviewOpinion: opinion,
      reservedFen: 0,
      premiumDiffFen: diff,
      decidedAt: sql`now()`,
      version: sql`${secondaryOrders.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(secondaryOrders.id, d.id));
  await auditAction(tx, actor, {
    action: 'endorse',
    entity: 'secondary_order',
    entityId: d.baseId!,
    detail: {
      changeId: d.id,
      opinion: `批改申报 ${d.number} 审核通过`,
      before,
      after: {
        projectAddress: d.projectAddress,
        projectCostFen: d.projectCostFen,
        endDate: d.endDate,
        highRisk: d.highRisk,
        headcount: d.headcount,
      },
      premiumFen: d.premiumFen,
      premiumDiffFen: diff,
    },
  });
}

/**
 * After an approval is committed: issues the project's policy (a new project) or the endorsement (a change).
 * Never throws (the decision stands either way); a failure is retried by the issuance job and the sweep, which
 * pick up every paid application without a policy and every approved change without an endorsement.
 */
export async function issueTenderPolicy(ctx: BusinessContext, id: number): Promise<void> {
  try {
    const [d] = await ctx.db
      .select({ kind: secondaryOrders.kind, applicationId: secondaryOrders.applicationId })
      .from(secondaryOrders)
      .where(and(eq(secondaryOrders.id, id), eq(secondaryOrders.status, 'APPROVED')));
    if (d?.kind === 2) {
      const issued = await issueEndorsement(ctx, id);
      if (issued?.created)
        ctx.log.info({ secondaryOrderId: id, endorsement: issued.number }, 'endorsement issued');
    } else if (d?.applicationId) await issueAfterPayment(ctx, d.applicationId);
  } catch (err) {
    ctx.log.error({ err, secondaryOrderId: id }, 'project policy issuance failed; the sweep will retry');
  }
}

/** The contractor (customer) of a secondary order, for the review page (the task's visibility already held). */
export async function tenderCustomerId(db: Db, id: number): Promise<number | null> {
  const [row] = await db
    .select({ customerId: annualOrders.customerId })
    .from(secondaryOrders)
    .innerJoin(annualOrders, eq(annualOrders.id, secondaryOrders.annualOrderId))
    .where(eq(secondaryOrders.id, id));
  return row?.customerId ?? null;
}
