// Payments: opening the charge of a payment order, answering the result page, closing the charges of cancelled
// applications and expiring unpaid orders. Settling an order: settle.ts; the provider's notifications: notify.ts.

import type { ApplicationStatus } from '@piibs/shared/application-status';
import { SYSTEM_ACTOR } from '@piibs/shared/audit-text';
import {
  PAYMENT_MESSAGES,
  PAYMENT_ORDER_STATUS_LABELS,
  type PaymentOrderStatus,
  type PaymentProviderName,
  type PaymentResult,
  type PayStartResult,
} from '@piibs/shared/payment';
import { and, asc, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { BusinessContext } from '../../app-types.ts';
import type { Db } from '../../db/client.ts';
import { applications, customers, paymentOrders, payments, policies, products } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { applicationsVisibleTo, isApplicationOwner } from '../applications/access.ts';
import { APPLICATION_NOT_FOUND, NOT_OWNER } from '../applications/changes.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { moveApplication, providerOf, settleByQuery, settleQueried } from './settle.ts';

// ---- paying ----

/**
 * POST /api/payments/orders/:applicationId/pay: the owner (or its agent) of an application waiting for payment
 * opens the charge of its payment order (made once; asking again answers the same charge and cashier).
 * 404 unless the caller may see the application; 403 unless its owner; 409 unless PENDING_PAYMENT with a
 * pending order that has not expired.
 */
export async function startPayment(
  ctx: BusinessContext,
  viewer: CustomerViewer,
  applicationId: number,
  ip: string | null,
): Promise<PayStartResult> {
  const db = ctx.db;
  const [a] = await db
    .select({
      id: applications.id,
      number: applications.number,
      status: applications.status,
      ownerId: applications.ownerId,
      agentId: applications.agentId,
      productName: products.name,
      applicantName: customers.name,
    })
    .from(applications)
    .innerJoin(products, eq(products.id, applications.productId))
    .innerJoin(customers, eq(customers.id, applications.customerId))
    .where(and(eq(applications.id, applicationId), applicationsVisibleTo(db, viewer)));
  if (!a) throw notFound(APPLICATION_NOT_FOUND);
  if (!isApplicationOwner(a, viewer.user.id)) throw forbidden(NOT_OWNER);
  if (a.status !== 'PENDING_PAYMENT') throw conflict(PAYMENT_MESSAGES.notPending);
  const [order] = await db
    .select()
    .from(paymentOrders)
    .where(eq(paymentOrders.applicationId, a.id))
    .orderBy(desc(paymentOrders.id))
    .limit(1);
  if (!order) throw conflict(PAYMENT_MESSAGES.orderNotFound);
  if (order.status !== 'PENDING') throw conflict(PAYMENT_MESSAGES.orderClosed);
  if (order.expiresAt.getTime() <= Date.now()) {
    await expireOrder(ctx, order.id);
    throw conflict(PAYMENT_MESSAGES.orderExpired);
  }
  const provider = providerOf(ctx, order);
  const charge = await provider.createCharge({
    orderNo: order.number,
    amountFen: order.amountFen,
    subject: `${a.productName} · ${a.applicantName} · ${a.number}`,
    expiresAt: order.expiresAt,
  });
  if (order.chargeNo !== charge.chargeNo || order.cashierUrl !== charge.cashierUrl) {
    await db.transaction(async (tx) => {
      await tx
        .update(paymentOrders)
        .set({
          provider: charge.provider,
          chargeNo: charge.chargeNo,
          cashierUrl: charge.cashierUrl,
          chargedAt: order.chargedAt ?? sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(paymentOrders.id, order.id));
      await writeAudit(tx, {
        actorId: viewer.user.id,
        actorName: viewer.user.username,
        action: 'charge',
        entity: 'payment_order',
        entityId: order.id,
        detail: { number: order.number, provider: charge.provider, chargeNo: charge.chargeNo },
        ip,
      });
    });
  }
  return {
    payId: order.number,
    orderId: order.id,
    applicationId: a.id,
    amountFen: order.amountFen,
    expiresAt: order.expiresAt.toISOString(),
    provider: charge.provider,
    chargeNo: charge.chargeNo,
    cashierUrl: charge.cashierUrl,
  };
}

// ---- the result page ----

const isNumericId = (payId: string) => /^\d{1,15}$/.test(payId);

async function orderVisibleTo(db: Db, viewer: CustomerViewer, payId: string) {
  const [row] = await db
    .select({ order: paymentOrders, applicationNumber: applications.number, productName: products.name })
    .from(paymentOrders)
    .innerJoin(applications, eq(applications.id, paymentOrders.applicationId))
    .innerJoin(products, eq(products.id, applications.productId))
    .where(
      and(
        isNumericId(payId) ? eq(paymentOrders.id, Number(payId)) : eq(paymentOrders.number, payId),
        applicationsVisibleTo(db, viewer),
      ),
    );
  return row;
}

/**
 * GET /api/payments/:payId (the order number, or its id): the truth for the result page. While the order is
 * pending and a charge was made, the provider is asked first (a lost notification is settled here); a pending
 * order past its expiry is expired. 404 unless the caller may see the application.
 */
export async function paymentResult(
  ctx: BusinessContext,
  viewer: CustomerViewer,
  payId: string,
): Promise<PaymentResult> {
  const seen = await orderVisibleTo(ctx.db, viewer, payId);
  if (!seen) throw notFound(PAYMENT_MESSAGES.orderNotFound);
  if (seen.order.status === 'PENDING') {
    if (seen.order.chargeNo) await settleByQuery(ctx, seen.order);
    if (seen.order.expiresAt.getTime() <= Date.now()) await expireOrder(ctx, seen.order.id);
  }
  const [row] = await ctx.db
    .select({
      order: paymentOrders,
      applicationStatus: applications.status,
      tradeNo: payments.tradeNo,
      policyId: policies.id,
      policyNumber: policies.number,
    })
    .from(paymentOrders)
    .innerJoin(applications, eq(applications.id, paymentOrders.applicationId))
    .leftJoin(payments, eq(payments.orderId, paymentOrders.id))
    .leftJoin(policies, eq(policies.applicationId, paymentOrders.applicationId))
    .where(eq(paymentOrders.id, seen.order.id));
  const o = row!.order;
  const status = o.status as PaymentOrderStatus;
  return {
    payId: o.number,
    orderId: o.id,
    status,
    statusLabel: PAYMENT_ORDER_STATUS_LABELS[status] ?? o.status,
    amountFen: o.amountFen,
    expiresAt: o.expiresAt.toISOString(),
    paidAt: o.paidAt?.toISOString() ?? null,
    provider: (o.provider as PaymentProviderName | null) ?? null,
    tradeNo: row!.tradeNo ?? null,
    applicationId: o.applicationId,
    applicationNumber: seen.applicationNumber,
    applicationStatus: row!.applicationStatus as ApplicationStatus,
    productName: seen.productName,
    policyId: row!.policyId ?? null,
    policyNumber: row!.policyNumber ?? null,
  };
}

// ---- cancellation ----

/**
 * After the applicant cancels an application that waited for payment: closes its cancelled orders' charges
 * at the provider, so the cashier no longer takes the money. A charge paid in between is settled by its
 * notification as a payment of a closed order (acknowledged, flagged for refund in the audit trail).
 */
export async function closeCancelledCharges(ctx: BusinessContext, applicationId: number): Promise<void> {
  const orders = await ctx.db
    .select()
    .from(paymentOrders)
    .where(
      and(
        eq(paymentOrders.applicationId, applicationId),
        eq(paymentOrders.status, 'CANCELLED'),
        isNotNull(paymentOrders.chargeNo),
      ),
    );
  for (const order of orders) {
    try {
      await providerOf(ctx, order).close(order.number);
    } catch (err) {
      ctx.log.warn({ err, orderNo: order.number }, 'closing the charge of a cancelled order failed');
    }
  }
}

// ---- expiry (the pg-boss job 'payment-expire', every minute and on start) ----

/**
 * Expires one order if it is still pending and due: first closes its charge at the provider (so it can no
 * longer be paid; if it was paid meanwhile, settles it instead), then order → EXPIRED and the application
 * PENDING_PAYMENT → PAYMENT_EXPIRED, with the timeline event and the audit trail. Answers true if it expired.
 */
export async function expireOrder(ctx: BusinessContext, orderId: number, now = new Date()): Promise<boolean> {
  const [order] = await ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
  if (order?.status !== 'PENDING' || order.expiresAt > now) return false;
  if (order.chargeNo) {
    const provider = providerOf(ctx, order);
    const final = await provider.close(order.number);
    if (final.status === 'PAID') {
      await settleQueried(ctx, provider, order, final);
      return false;
    }
  }
  return ctx.db.transaction(async (tx) => {
    const [a] = await tx
      .select({ id: applications.id, status: applications.status })
      .from(applications)
      .where(eq(applications.id, order.applicationId))
      .for('update');
    const [locked] = await tx.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)).for('update');
    if (!a || !locked || locked.status !== 'PENDING' || locked.expiresAt > now) return false;
    await tx
      .update(paymentOrders)
      .set({ status: 'EXPIRED', closedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(paymentOrders.id, orderId));
    if (a.status === 'PENDING_PAYMENT')
      await moveApplication(tx, a, 'PAYMENT_EXPIRED', 'expire', SYSTEM_ACTOR, '支付超时，支付单已过期');
    await writeAudit(tx, {
      actorName: SYSTEM_ACTOR,
      action: 'expire',
      entity: 'payment_order',
      entityId: orderId,
      detail: {
        number: locked.number,
        applicationId: a.id,
        expiresAt: locked.expiresAt.toISOString(),
        before: { status: 'PENDING', applicationStatus: a.status },
        after: {
          status: 'EXPIRED',
          applicationStatus: a.status === 'PENDING_PAYMENT' ? 'PAYMENT_EXPIRED' : a.status,
        },
      },
    });
    return true;
  });
}

/** The job: every pending order past its expiry, oldest first, in batches. Answers how many expired. */
export async function expireOverdueOrders(ctx: BusinessContext, now = new Date()): Promise<number> {
  let expired = 0;
  const failed = new Set<number>();
  for (;;) {
    const due = await ctx.db
      .select({ id: paymentOrders.id })
      .from(paymentOrders)
      .where(and(eq(paymentOrders.status, 'PENDING'), lte(paymentOrders.expiresAt, now)))
      .orderBy(asc(paymentOrders.expiresAt))
      .limit(100);
    const todo = due.filter((o) => !failed.has(o.id));
    if (todo.length === 0) return expired;
    for (const o of todo) {
      try {
        if (await expireOrder(ctx, o.id, now)) expired++;
        else failed.add(o.id); // settled instead, or changed meanwhile: do not pick it again this pass
      } catch (err) {
        failed.add(o.id);
        ctx.log.error({ err, orderId: o.id }, 'payment expiry failed; retried on the next pass');
      }
    }
  }
}
