// Settling a payment order: the one place an order becomes PAID.
//
// Exactly once: every path that settles an order (a notification, an active query, the expiry job's last
// query) goes through settle(), one transaction that locks the application and then the order
// (`SELECT … FOR UPDATE`, the same order as cancelling an application) and decides on what it finds under the
// lock. A replayed or concurrent notification waits for the first, finds the order PAID and answers the same
// acknowledgement; the unique indexes on payment(order_id) and payment(provider, trade_no) back this up.

import type { ApplicationStatus } from '@piibs/shared/application-status';
import { paymentActor } from '@piibs/shared/audit-text';
import { type NotificationOutcome, PAYMENT_MESSAGES, type PaymentProviderName } from '@piibs/shared/payment';
import { eq, sql } from 'drizzle-orm';
import type { BusinessContext } from '../../app-types.ts';
import type { Db, Tx } from '../../db/client.ts';
import {
  applicationEvents,
  applications,
  paymentNotifications,
  paymentOrders,
  payments,
} from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { notifyPaymentReceived } from '../notifications/events.ts';
import { settlePolicyChangePayment } from '../policies/changes.ts';
import { issueAfterPayment } from '../policies/issue.ts';
import type { ChargeStatus, PaymentProvider } from './provider.ts';

type Order = typeof paymentOrders.$inferSelect;

export function providerOf(ctx: BusinessContext, order: Pick<Order, 'provider'>): PaymentProvider {
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
export async function moveApplication(
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
    // An endorsement's additional premium is charged under the request's number.
    const change = await settlePolicyChangePayment(ctx, input);
    if (change) {
      if (input.notification) await recordNotification(ctx.db, input, change, true, null);
      return { outcome: change, message: null, applicationId: null, paidNow: false };
    }
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
    const actor = paymentActor(input.provider);
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
export async function recordNotification(
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

/** Asks the provider about a pending order's charge; settles it when paid. Answers the provider's status. */
export async function settleByQuery(ctx: BusinessContext, order: Order): Promise<ChargeStatus> {
  const provider = providerOf(ctx, order);
  const status = await provider.query(order.number);
  if (status.status === 'PAID') await settleQueried(ctx, provider, order, status);
  return status;
}

export async function settleQueried(
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
