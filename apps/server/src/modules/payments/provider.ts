// The payment provider interface: what the payment service needs from a gateway. A provider makes charges and
// points the payer at its cashier, verifies the notifications it sends (signature and shape; the service then
// checks the order number and amount against its own records), and answers queries about a charge.
import { createHmac } from 'node:crypto';
import { canonicalString, type NotifyAck, type PaymentProviderName } from '@piibs/shared/payment';
import { safeEqual } from '../../lib/secrets.ts';

/** What to charge: one payment order. */
export interface ChargeRequest {
  orderNo: string;
  amountFen: number;
  /** Shown on the cashier page (e.g. the product and the applicant). */
  subject: string;
  /** The provider refuses payment after this (the order's expiry). */
  expiresAt: Date;
}

export interface Charge {
  provider: PaymentProviderName;
  chargeNo: string;
  /** Where to send the payer's browser. */
  cashierUrl: string;
}

/** A notification whose signature and shape the provider has verified. */
export interface VerifiedNotification {
  orderNo: string;
  tradeNo: string;
  amountFen: number;
  paidAt: Date;
}

/** What a notification said, as far as it could be read (for the log of notifications). */
export interface NotificationFacts {
  orderNo?: string | undefined;
  tradeNo?: string | undefined;
  amountFen?: number | undefined;
}

export type VerifyResult =
  | { ok: true; notification: VerifiedNotification }
  | { ok: false; outcome: 'BAD_SIGNATURE' | 'MALFORMED'; facts: NotificationFacts };

/** The provider's view of a charge. */
export type ChargeStatus =
  | { status: 'PENDING' }
  | { status: 'PAID'; tradeNo: string; amountFen: number; paidAt: Date }
  | { status: 'CLOSED' }
  | { status: 'NOT_FOUND' };

/** A refund asked of the gateway: the refund number is its idempotency key (asking again answers the same). */
export interface RefundRequest {
  refundNo: string;
  /** The merchant order number of the paid charge refunded. */
  orderNo: string;
  amountFen: number;
  reason: string;
}

/** The gateway's answer to a refund, its signature verified. */
export type RefundResult =
  | { status: 'SUCCESS'; refundNo: string; refundTradeNo: string; amountFen: number; refundedAt: Date }
  | { status: 'REFUSED'; message: string };

export type NotificationHeaders = Record<string, string | string[] | undefined>;

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Makes the charge of an order, or answers the one already made (same charge number, same cashier). */
  createCharge(order: ChargeRequest): Promise<Charge>;
  /** Checks a notification's signature (over the raw body as received) and shape. Never throws. */
  verifyNotification(headers: NotificationHeaders, rawBody: string): VerifyResult;
  /** What the provider answers when a notification has been taken (processed now or before). */
  ack(): NotifyAck;
  /** Asks the provider about the charge of an order. */
  query(orderNo: string): Promise<ChargeStatus>;
  /** Closes the charge of an order so it can no longer be paid; answers its final state (PAID if it won). */
  close(orderNo: string): Promise<ChargeStatus>;
  /**
   * Refunds (part of) a paid charge: a signed request, a signed answer (verified before it is believed). The same
   * refund number answers the first refund again; refunds never add up to more than the charge.
   */
  refund(request: RefundRequest): Promise<RefundResult>;
}

// ---- signing (HMAC-SHA256 over the canonical string; see canonicalString in @piibs/shared/payment) ----

export function signFields(fields: Readonly<Record<string, unknown>>, key: string): string {
  return createHmac('sha256', key).update(canonicalString(fields), 'utf8').digest('hex');
}

/** Constant-time check of `fields.sign`. */
export function verifyFields(fields: Readonly<Record<string, unknown>>, key: string): boolean {
  const sign = fields.sign;
  return typeof sign === 'string' && safeEqual(sign, signFields(fields, key));
}
