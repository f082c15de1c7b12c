// Payments (支付): payment-order states, the answers of /api/payments and the sandbox gateway's notification,
// shared by the payment pages and the server. Import it as `@piibs/shared/payment`.
//
//   POST /api/payments/orders/:applicationId/pay   the owner opens (or re-opens) the charge → cashier URL
//   POST /api/payments/notify/:provider            the provider's signed notification (public)
//   GET  /api/payments/:payId                      the truth for the result page (payId = the order number)
//
// The result page (/piibs/insured/paymentWebResult/:payId/:payResult) shows what GET /api/payments/:payId
// answers, never what its URL says: `payResult` only tells which way the payer left the cashier.
import { z } from 'zod';
import { APPLICATION_STATUSES } from './application-status.ts';

export const PAYMENT_ORDER_STATUSES = ['PENDING', 'PAID', 'EXPIRED', 'CANCELLED'] as const;
export type PaymentOrderStatus = (typeof PAYMENT_ORDER_STATUSES)[number];
export const PAYMENT_ORDER_STATUS_LABELS: Readonly<Record<PaymentOrderStatus, string>> = Object.freeze({
  PENDING: '待支付',
  PAID: '已支付',
  EXPIRED: '已过期',
  CANCELLED: '已取消',
});

/** Route parameter :payResult of the result page: how the payer left the cashier (not the truth). */
export const PAY_RESULTS = ['success', 'cancel', 'fail'] as const;
export type PayResult = (typeof PAY_RESULTS)[number];

export const PAYMENT_PROVIDERS = ['sandbox'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];
export const PAYMENT_PROVIDER_LABELS: Readonly<Record<PaymentProviderName, string>> = Object.freeze({
  sandbox: '沙箱支付（测试环境）',
});

/** How a payment was learnt: the provider's verified notification, or an active query of the provider. */
export const PAYMENT_SOURCES = ['notify', 'query'] as const;
export type PaymentSource = (typeof PAYMENT_SOURCES)[number];

/** What became of a notification (payment_notification.outcome). */
export const NOTIFICATION_OUTCOMES = [
  'PAID',
  'DUPLICATE',
  'BAD_SIGNATURE',
  'AMOUNT_MISMATCH',
  'UNKNOWN_ORDER',
  'ORDER_CLOSED',
  'MALFORMED',
  'ERROR',
  /** Posted to a provider name the server does not have (answered 404; rows of earlier releases — no longer kept). */
  'UNKNOWN_PROVIDER',
] as const;
export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number];

/**
 * Why a notification was refused before it reached an order, as each instance counts them (GET /api/monitor):
 * its signature failed, it could not be read, the provider is not one the server has, or its sender sent too many.
 */
export const NOTIFY_REFUSALS = ['BAD_SIGNATURE', 'MALFORMED', 'UNKNOWN_PROVIDER', 'RATE_LIMITED'] as const;
export type NotifyRefusal = (typeof NOTIFY_REFUSALS)[number];

/** Chinese messages the API answers (tests and pages may match them). */
export const PAYMENT_MESSAGES = Object.freeze({
  orderNotFound: '支付单不存在',
  notPending: '投保单当前不是待支付状态，不能支付',
  orderExpired: '支付单已过期，请重新提交投保',
  orderClosed: '支付单已关闭，不能支付',
  badSignature: '支付通知验签失败',
  amountMismatch: '支付通知金额与支付单不符',
  malformed: '支付通知格式不正确',
  unknownOrder: '支付通知的订单号不存在',
  unknownProvider: '支付渠道：不支持的支付渠道',
});

/** POST /api/payments/orders/:applicationId/pay → the charge and where to send the payer. */
export const payStartResult = z.object({
  /** The order number: the :payId of the result page and of GET /api/payments/:payId. */
  payId: z.string(),
  orderId: z.number(),
  applicationId: z.number(),
  amountFen: z.number(),
  expiresAt: z.string(),
  provider: z.enum(PAYMENT_PROVIDERS),
  chargeNo: z.string(),
  /** Relative (same origin) or absolute URL of the provider's cashier page. */
  cashierUrl: z.string(),
});
export type PayStartResult = z.infer<typeof payStartResult>;

/** GET /api/payments/:payId: the payment order as the server knows it (after asking the provider when pending). */
export const paymentResult = z.object({
  payId: z.string(),
  orderId: z.number(),
  status: z.enum(PAYMENT_ORDER_STATUSES),
  statusLabel: z.string(),
  amountFen: z.number(),
  expiresAt: z.string(),
  paidAt: z.string().nullable(),
  provider: z.enum(PAYMENT_PROVIDERS).nullable(),
  tradeNo: z.string().nullable(),
  applicationId: z.number(),
  applicationNumber: z.string(),
  applicationStatus: z.enum(APPLICATION_STATUSES),
  productName: z.string(),
  /** Set once the policy is issued (issuance follows payment; poll while PAID without a policy). */
  policyId: z.number().nullable(),
  policyNumber: z.string().nullable(),
});
export type PaymentResult = z.infer<typeof paymentResult>;

/** A settled payment, as the policy detail lists it. */
export const paymentRow = z.object({
  id: z.number(),
  orderNumber: z.string(),
  provider: z.string(),
  providerLabel: z.string(),
  tradeNo: z.string(),
  amountFen: z.number(),
  paidAt: z.string(),
  source: z.enum(PAYMENT_SOURCES),
});
export type PaymentRow = z.infer<typeof paymentRow>;

// ---- the sandbox gateway's notification ----

/**
 * The body the sandbox gateway POSTs to /api/payments/notify/sandbox (JSON). `sign` is the lower-case hex
 * HMAC-SHA256, under the merchant's sandbox key, of `canonicalString` of every other field.
 */
export const sandboxNotification = z.object({
  merchantId: z.string().min(1).max(64),
  orderNo: z.string().min(1).max(64),
  tradeNo: z.string().min(1).max(64),
  chargeNo: z.string().min(1).max(64),
  amountFen: z.number().int().min(0),
  /** SUCCESS only (the sandbox never notifies anything else). */
  status: z.literal('SUCCESS'),
  paidAt: z.string().min(1).max(40),
  nonce: z.string().min(8).max(64),
  signType: z.literal('HMAC-SHA256'),
  sign: z.string().regex(/^[0-9a-f]{64}$/),
});
export type SandboxNotification = z.infer<typeof sandboxNotification>;

/** What a provider answers a notification with when it was taken (processed now or before). */
export const notifyAck = z.object({ code: z.literal('SUCCESS'), message: z.string() });
export type NotifyAck = z.infer<typeof notifyAck>;

/**
 * The canonical string a signature covers: the fields other than `sign`, with a value, sorted by name, as
 * `name=value` joined by `&` (values as their string form, no escaping). Both ends build it the same way.
 */
export function canonicalString(fields: Readonly<Record<string, unknown>>): string {
  return Object.keys(fields)
    .filter((k) => k !== 'sign' && fields[k] !== undefined && fields[k] !== null && fields[k] !== '')
    .sort()
    .map((k) => `${k}=${String(fields[k])}`)
    .join('&');
}
