// What the payment page (insured/viewInsuranceCA/:id) can offer for an application, and what the result page
// (insured/paymentWebResult/:payId/:payResult) shows for the server's answer. Pure, so both are tested alone.
import type { ApplicationDetail } from '@piibs/shared/application';
import type { ApplicationStatus } from '@piibs/shared/application-status';
import type { PaymentResult } from '@piibs/shared/payment';

/** Application states that mean the order was paid (then issued, in force, ended). */
const PAID_STATUSES: readonly ApplicationStatus[] = ['PAID', 'ISSUED', 'IN_FORCE', 'EXPIRED'];

export type PayState =
  /** Pending, in time, and the caller may pay: the 「去支付」 button. */
  | 'payable'
  | 'paid'
  | 'expired'
  | 'cancelled'
  /** Waiting for payment but the server made no order (should not happen; nothing to pay). */
  | 'no-order'
  /** Payable, but not by this caller (the server offers 'pay' only to the owner or its agent). */
  | 'not-owner'
  /** Any other state (draft, under review, declined …). */
  | 'not-payable';

/**
 * The state of an application's payment as of `now`: the server's states first, then the order's expiry
 * (the expiry job runs every minute, so an order can be past due while still stored as pending).
 */
export function payStateOf(
  app: Pick<ApplicationDetail, 'status' | 'actions' | 'paymentOrder'>,
  now: number,
): PayState {
  const order = app.paymentOrder;
  if (order?.status === 'PAID' || PAID_STATUSES.includes(app.status)) return 'paid';
  if (app.status === 'CANCELLED' || order?.status === 'CANCELLED') return 'cancelled';
  if (app.status === 'PAYMENT_EXPIRED' || order?.status === 'EXPIRED') return 'expired';
  if (app.status !== 'PENDING_PAYMENT') return 'not-payable';
  if (!order) return 'no-order';
  if (Date.parse(order.expiresAt) <= now) return 'expired';
  if (!app.actions.includes('pay')) return 'not-owner';
  return 'payable';
}

export type ResultState =
  /** Paid and the policy issued: the end of the journey. */
  | 'issued'
  /** Paid, the policy not issued yet (issuance follows payment): keep asking. */
  | 'issuing'
  /** Not paid yet (or the notification has not arrived): keep asking. */
  | 'pending'
  | 'expired'
  | 'cancelled';

/** What the result page shows for GET /api/payments/:payId: the server's answer only. */
export function resultStateOf(result: Pick<PaymentResult, 'status' | 'policyId'>): ResultState {
  switch (result.status) {
    case 'PAID':
      return result.policyId !== null ? 'issued' : 'issuing';
    case 'EXPIRED':
      return 'expired';
    case 'CANCELLED':
      return 'cancelled';
    default:
      return 'pending';
  }
}

/** The result page asks again while the answer can still change. */
export const isSettled = (state: ResultState) => state !== 'pending' && state !== 'issuing';
