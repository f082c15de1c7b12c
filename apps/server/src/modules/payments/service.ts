// Payments: opening the charge of a payment order, taking the provider's notifications, answering the result
// page, and expiring unpaid orders.
//
// Exactly once: every path that settles an order (a notification, an active query, the expiry job's last
// query) goes through settle(), one transaction that locks the application and then the order
// (`SELECT … FOR UPDATE`, the same order as cancelling an application) and decides on what it finds under the
// lock. A replayed or concurrent notification waits for the first, finds the order PAID and answers the same
// acknowledgement; the unique indexes on payment(order_id) and payment(provider, trade_no) back this up.
// A notification is checked three ways: its signature (the provider), its order number (ours, PENDING) and its
// amount (equal to the order's). Whatever it says, it is recorded in payment_notification with the outcome;
// one that fails a check changes nothing else.
import type { ApplicationStatus } from '@piibs/shared/application-status';
import {
  type NotificationOutcome,
  type NotifyAck,
  PAYMENT_MESSAGES,
  PAYMENT_ORDER_STATUS_LABELS,
  PAYMENT_PROVIDERS,
  type PaymentOrderStatus,
  type PaymentProviderName,
  type PaymentResult,
  type PayStartResult,
} from '@piibs/shared/payment';
import { and, asc, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { BusinessContext } from '../../app-types.ts';
import type { Db, Tx } from '../../db/client.ts';
import {
  applicationEvents,
  applications,
  customers,
  paymentNotifications,
  paymentOrders,
  payments,
  policies,
  products,
} from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { applicationsVisibleTo, isApplicationOwner } from '../applications/access.ts';
import { APPLICATION_NOT_FOUND, NOT_OWNER } from '../applications/changes.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { notifyPaymentReceived } from '../notifications/events.ts';
import { issueAfterPayment } from '../policies/issue.ts';
import type { ChargeStatus, NotificationHeaders, PaymentProvider } from './provider.ts';

type Order = typeof paymentOrders.$inferSelect;

/** The actor name of what the system does on its own (events and audit). */
export const SYSTEM_ACTOR = 'system';

function providerOf(ctx: BusinessContext, order: Pick<Order, 'provider'>): PaymentProvider {
  return (order.provider && ctx.providers[order.provider]) || ctx.provider;
}

async function event(
  tx: Tx,
  e: { applicationId: number; action: string; from: string; to: string; actor: string; opinion?: string },
) {
  await tx.insert(applicationEvents).values({
    applicationId: e.applicationId,
    action: e.action,
    fromStatus: e.from,
    toStatus: e.to,
    actorId: null,
    actorName: e.actor,
    opinion: e.opinion ?? null,
  });
}

/** Moves an application (already locked) to `to`, bumping its version, with its timeline event. */
async function moveApplication(
  tx: Tx,
  a: { id: number; status: string },
  to: ApplicationStatus,
  action: string,
  actor: string,
  opinion?: string,
) {
  await tx
    .update(applications)
    .set({ status: to, version: sql`${applications.version} + 1`, updatedAt: sql`now()` })
    .where(eq(applications.id, a.id));
  await event(tx, {
    applicationId: a.id,
    action,
    from: a.status,
    to,
    actor,
    ...(opinion ? { opinion } : {}),
  });
}

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

// ---- settling (the one place an order becomes PAID) ----

export interface SettleInput {
  provider: PaymentProviderName;
  orderNo: string;
  tradeNo: string;
  amountFen: number;
  paidAt: Date;
  source: 'notify' | 'query';
  /** For a notification: what to record in payment_notification (in the same transaction). */
  notification?: { rawBody: string; headers: Record<string, string>; ip: string | null };
}

export interface SettleResult {
  outcome: NotificationOutcome;
  message: string | null;
  applicationId: number | null;
  /** True when this call made the payment (and so should start issuance). */
  paidNow: boolean;
}

export async function settle(ctx: BusinessContext, input: SettleInput): Promise<SettleResult> {
  const [peek] = await ctx.db
    .select({ id: paymentOrders.id, applicationId: paymentOrders.applicationId })
    .from(paymentOrders)
    .where(eq(paymentOrders.number, input.orderNo));
  if (!peek) {
    if (input.notification) await recordNotification(ctx.db, input, 'UNKNOWN_ORDER', false, null);
    return {
      outcome: 'UNKNOWN_ORDER',
      message: PAYMENT_MESSAGES.unknownOrder,
      applicationId: null,
      paidNow: false,
    };
  }
  return ctx.db.transaction(async (tx) => {
    const [a] = await tx
      .select({ id: applications.id, status: applications.status, number: applications.number })
      .from(applications)
      .where(eq(applications.id, peek.applicationId))
      .for('update');
    const [order] = await tx.select().from(paymentOrders).where(eq(paymentOrders.id, peek.id)).for('update');
    if (!a || !order) throw new Error('payment order vanished');
    const actor = `payment:${input.provider}`;
    const done = async (outcome: NotificationOutcome, message: string | null, paidNow = false) => {
      if (input.notification) await recordNotification(tx, input, outcome, true, message);
      return { outcome, message, applicationId: a.id, paidNow };
    };

    if (order.status === 'PAID') {
      const [paid] = await tx.select().from(payments).where(eq(payments.orderId, order.id));
      if (paid && paid.tradeNo !== input.tradeNo) {
        // Paid twice at the gateway: keep the first, flag the second for a refund.
        ctx.log.warn({ orderNo: order.number, tradeNo: input.tradeNo }, 'second payment of a paid order');
        await writeAudit(tx, {
          actorName: actor,
          action: 'duplicate_payment',
          entity: 'payment_order',
          entityId: order.id,
          detail: { number: order.number, tradeNo: input.tradeNo, amountFen: input.amountFen, refund: true },
        });
        return done('DUPLICATE', '订单已支付，重复的支付交易需退款');
      }
      return done('DUPLICATE', null);
    }
    if (order.status !== 'PENDING' || a.status !== 'PENDING_PAYMENT') {
      // Money for an order that was cancelled or expired meanwhile: acknowledged (the gateway would retry
      // forever), changed nothing, flagged for a refund.
      ctx.log.warn({ orderNo: order.number, status: order.status }, 'payment for a closed order');
      await writeAudit(tx, {
        actorName: actor,
        action: 'late_payment',
        entity: 'payment_order',
        entityId: order.id,
        detail: { number: order.number, status: order.status, tradeNo: input.tradeNo, refund: true },
      });
      return done('ORDER_CLOSED', PAYMENT_MESSAGES.orderClosed);
    }
    if (input.amountFen !== order.amountFen) {
      ctx.log.warn(
        { orderNo: order.number, amountFen: input.amountFen, expected: order.amountFen },
        'payment amount differs from the order',
      );
      return done('AMOUNT_MISMATCH', PAYMENT_MESSAGES.amountMismatch);
    }

    const notificationId = input.notification
      ? await recordNotification(tx, input, 'PAID', true, null)
      : null;
    const [payment] = await tx
      .insert(payments)
      .values({
        orderId: order.id,
        applicationId: a.id,
        provider: input.provider,
        tradeNo: input.tradeNo,
        amountFen: input.amountFen,
        paidAt: input.paidAt,
        source: input.source,
        notificationId,
      })
      .returning({ id: payments.id });
    await tx
      .update(paymentOrders)
      .set({ status: 'PAID', paidAt: input.paidAt, provider: input.provider, updatedAt: sql`now()` })
      .where(eq(paymentOrders.id, order.id));
    await moveApplication(tx, a, 'PAID', 'pay', actor);
    await notifyPaymentReceived(tx, { orderId: order.id, applicationId: a.id, amountFen: input.amountFen });
    await writeAudit(tx, {
      actorName: actor,
      action: 'pay',
      entity: 'payment_order',
      entityId: order.id,
      detail: {
        number: order.number,
        applicationId: a.id,
        paymentId: payment!.id,
        amountFen: input.amountFen,
        tradeNo: input.tradeNo,
        source: input.source,
        before: { status: 'PENDING', applicationStatus: a.status },
        after: { status: 'PAID', applicationStatus: 'PAID' },
      },
    });
    ctx.log.info({ orderNo: order.number, source: input.source }, 'payment settled');
    return { outcome: 'PAID' as const, message: null, applicationId: a.id, paidNow: true };
  });
}

/** Appends a notification to payment_notification; answers its id. */
async function recordNotification(
  db: Pick<Db, 'insert'>,
  input: Pick<SettleInput, 'orderNo' | 'tradeNo' | 'amountFen' | 'notification'> & { provider: string },
  outcome: NotificationOutcome,
  signatureValid: boolean,
  message: string | null,
): Promise<number> {
  const [row] = await db
    .insert(paymentNotifications)
    .values({
      provider: input.provider,
      orderNo: input.orderNo || null,
      tradeNo: input.tradeNo || null,
      amountFen: Number.isSafeInteger(input.amountFen) ? input.amountFen : null,
      rawBody: input.notification?.rawBody ?? '',
      headers: input.notification?.headers ?? {},
      signatureValid,
      outcome,
      message,
      ip: input.notification?.ip ?? null,
    })
    .returning({ id: paymentNotifications.id });
  return row!.id;
}

/** Headers worth keeping with a notification (never authorization or cookies). */
const KEPT_HEADERS = ['content-type', 'user-agent', 'x-forwarded-for', 'x-request-id'];

/** The answer to a notification: the provider's acknowledgement (200) or an error (4xx). */
export type NotifyAnswer = { status: 200; body: NotifyAck } | { status: 400 | 404; message: string };

/** A provider the server has by that name, or null (never an inherited property such as 'constructor'). */
function namedProvider(
  ctx: BusinessContext,
  name: string,
): { name: PaymentProviderName; provider: PaymentProvider } | null {
  if (!(PAYMENT_PROVIDERS as readonly string[]).includes(name) || !Object.hasOwn(ctx.providers, name))
    return null;
  const provider = ctx.providers[name];
  return provider ? { name: name as PaymentProviderName, provider } : null;
}

/** A name from the URL as it may be stored and logged: printable, at most 64 characters. */
const printableName = (name: string) =>
  [...name]
    .filter((c) => c >= ' ' && c !== '\u007f')
    .join('')
    .slice(0, 64);

/**
 * POST /api/payments/notify/:provider. Verifies the signature (provider), then the order number and amount
 * (settle). Every notification is recorded; a forged or wrong one changes nothing and answers 400, one for a
 * provider the server does not have answers 404 (outcome UNKNOWN_PROVIDER).
 */
export async function handleNotification(
  ctx: BusinessContext,
  requestedProvider: string,
  headers: NotificationHeaders,
  rawBody: string,
  ip: string | null,
): Promise<NotifyAnswer> {
  const kept = Object.fromEntries(
    KEPT_HEADERS.filter((h) => typeof headers[h] === 'string').map((h) => [
      h,
      String(headers[h]).slice(0, 200),
    ]),
  );
  const known = namedProvider(ctx, requestedProvider);
  if (!known) {
    // Recorded like any other (a misconfigured gateway shows in payment_notification); nothing is verified.
    const name = printableName(requestedProvider);
    await recordNotification(
      ctx.db,
      {
        provider: name,
        orderNo: '',
        tradeNo: '',
        amountFen: Number.NaN,
        notification: { rawBody: rawBody.slice(0, 16_384), headers: kept, ip },
      },
      'UNKNOWN_PROVIDER',
      false,
      PAYMENT_MESSAGES.unknownProvider,
    );
    // The name, the sender and the size: never the body (it carries the signature).
    ctx.log.warn(
      { provider: name, ip, bytes: rawBody.length },
      'payment notification for an unknown provider refused',
    );
    return { status: 404, message: PAYMENT_MESSAGES.unknownProvider };
  }
  const { name: providerName, provider } = known;
  const verified = provider.verifyNotification(headers, rawBody);
  if (!verified.ok) {
    const facts = verified.facts;
    await recordNotification(
      ctx.db,
      {
        provider: providerName,
        orderNo: facts.orderNo ?? '',
        tradeNo: facts.tradeNo ?? '',
        amountFen: facts.amountFen ?? Number.NaN,
        notification: { rawBody: rawBody.slice(0, 16_384), headers: kept, ip },
      },
      verified.outcome,
      false,
      verified.outcome === 'BAD_SIGNATURE' ? PAYMENT_MESSAGES.badSignature : PAYMENT_MESSAGES.malformed,
    );
    ctx.log.warn(
      { provider: providerName, outcome: verified.outcome, orderNo: facts.orderNo, ip },
      'payment notification refused',
    );
    return {
      status: 400,
      message:
        verified.outcome === 'BAD_SIGNATURE' ? PAYMENT_MESSAGES.badSignature : PAYMENT_MESSAGES.malformed,
    };
  }
  const n = verified.notification;
  let result: SettleResult;
  try {
    result = await settle(ctx, {
      provider: providerName,
      ...n,
      source: 'notify',
      notification: { rawBody, headers: kept, ip },
    });
  } catch (err) {
    await recordNotification(
      ctx.db,
      { provider: providerName, ...n, notification: { rawBody, headers: kept, ip } },
      'ERROR',
      true,
      '处理失败，等待重试',
    ).catch(() => {});
    throw err;
  }
  if (result.paidNow && result.applicationId) await issueAfterPayment(ctx, result.applicationId);
  if (result.outcome === 'PAID' || result.outcome === 'DUPLICATE' || result.outcome === 'ORDER_CLOSED')
    return { status: 200, body: provider.ack() };
  return { status: 400, message: result.message ?? PAYMENT_MESSAGES.malformed };
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

/** Asks the provider about a pending order's charge; settles it when paid. Answers the provider's status. */
export async function settleByQuery(ctx: BusinessContext, order: Order): Promise<ChargeStatus> {
  const provider = providerOf(ctx, order);
  const status = await provider.query(order.number);
  if (status.status === 'PAID') await settleQueried(ctx, provider, order, status);
  return status;
}

async function settleQueried(
  ctx: BusinessContext,
  provider: PaymentProvider,
  order: Order,
  status: Extract<ChargeStatus, { status: 'PAID' }>,
) {
  const result = await settle(ctx, {
    provider: provider.name,
    orderNo: order.number,
    tradeNo: status.tradeNo,
    amountFen: status.amountFen,
    paidAt: status.paidAt,
    source: 'query',
  });
  if (result.paidNow && result.applicationId) await issueAfterPayment(ctx, result.applicationId);
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
