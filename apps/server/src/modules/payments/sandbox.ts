// The sandbox payment provider: a stand-in gateway that behaves like a real one, for trials and tests.
//
// It keeps its own ledger (table sandbox_charge, what a real gateway keeps on its side) and:
//   createCharge  records the charge and answers the cashier URL: /sandbox-pay/cashier?… with the parameters
//                 signed (HMAC-SHA256 under the merchant key), so a tampered link is refused;
//   the cashier   a public page served by this server (sandbox-cashier.ts), marked 「沙箱支付 · 测试环境」:
//                 确认支付 marks the charge paid, then POSTs a signed notification to /api/payments/notify/sandbox
//                 and sends the browser to /piibs/insured/paymentWebResult/:payId/success;
//   query / close the gateway's query and close-order APIs (closing refuses later payment; the expiry job closes
//                 a charge before it expires the order, so money can never arrive for an expired order).
// The key is PIIBS_SANDBOX_PAY_KEY or one generated under DATA_DIR; it is never logged.
import { randomBytes } from 'node:crypto';
import { formatTime } from '@piibs/shared/constants';
import { type SandboxNotification, sandboxNotification } from '@piibs/shared/payment';
import { and, eq, sql } from 'drizzle-orm';
import type { Log } from '../../app-types.ts';
import type { Db } from '../../db/client.ts';
import { sandboxCharges, sandboxRefunds } from '../../db/schema.ts';
import {
  type Charge,
  type ChargeRequest,
  type ChargeStatus,
  type NotificationFacts,
  type NotificationHeaders,
  type PaymentProvider,
  type RefundRequest,
  type RefundResult,
  signFields,
  type VerifyResult,
  verifyFields,
} from './provider.ts';

export const SANDBOX_NOTIFY_PATH = '/api/payments/notify/sandbox';
export const SANDBOX_CASHIER_PATH = '/sandbox-pay/cashier';

type SandboxCharge = typeof sandboxCharges.$inferSelect;

/** The signed parameters of a cashier link. */
export interface CashierParams {
  merchantId: string;
  orderNo: string;
  chargeNo: string;
  amountFen: string;
  expires: string;
  sign: string;
}

export interface SandboxOptions {
  db: Db;
  /** The signing key (read lazily: generated under DATA_DIR on first use when not configured). */
  key: () => string;
  merchantId: string;
  deliver?: ((path: string, body: string) => Promise<{ statusCode: number; body: string }>) | undefined;
  log: Log;
}

const token = (prefix: string, bytes = 8) =>
  `${prefix}${formatTime(Date.now(), '{y}{m}{d}')}${randomBytes(bytes).toString('hex').toUpperCase()}`;

/** Answers of the cashier actions. */
export type PayOutcome =
  | { ok: true; charge: SandboxCharge; notified: boolean | null }
  | { ok: false; reason: 'NOT_FOUND' | 'CLOSED' | 'EXPIRED' };

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  readonly #o: SandboxOptions;

  constructor(options: SandboxOptions) {
    this.#o = options;
  }

  get merchantId(): string {
    return this.#o.merchantId;
  }

  // ---- the merchant-facing API ----

  async createCharge(order: ChargeRequest): Promise<Charge> {
    const db = this.#o.db;
    await db
      .insert(sandboxCharges)
      .values({
        chargeNo: token('SBC'),
        merchantId: this.#o.merchantId,
        orderNo: order.orderNo,
        amountFen: order.amountFen,
        subject: order.subject,
        expiresAt: order.expiresAt,
      })
      .onConflictDoNothing();
    const charge = await this.#byOrder(order.orderNo);
    if (!charge) throw new Error('sandbox charge missing after insert');
    if (charge.amountFen !== order.amountFen) throw new Error('sandbox charge amount differs from the order');
    return { provider: this.name, chargeNo: charge.chargeNo, cashierUrl: this.cashierUrl(charge) };
  }

  verifyNotification(_headers: NotificationHeaders, rawBody: string): VerifyResult {
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      return { ok: false, outcome: 'MALFORMED', facts: {} };
    }
    const facts = factsOf(json);
    const parsed = sandboxNotification.safeParse(json);
    if (!parsed.success) return { ok: false, outcome: 'MALFORMED', facts };
    const n: SandboxNotification = parsed.data;
    // Signed over exactly the fields received (an added field breaks the signature too).
    if (!verifyFields(json as Record<string, unknown>, this.#o.key()))
      return { ok: false, outcome: 'BAD_SIGNATURE', facts };
    const paidAt = new Date(n.paidAt);
    if (n.merchantId !== this.#o.merchantId || Number.isNaN(paidAt.getTime()))
      return { ok: false, outcome: 'MALFORMED', facts };
    return {
      ok: true,
      notification: { orderNo: n.orderNo, tradeNo: n.tradeNo, amountFen: n.amountFen, paidAt },
    };
  }

  ack() {
    return { code: 'SUCCESS' as const, message: '已接收' };
  }

  async query(orderNo: string): Promise<ChargeStatus> {
    const charge = await this.#byOrder(orderNo);
    return statusOf(charge);
  }

  async close(orderNo: string): Promise<ChargeStatus> {
    return this.#o.db.transaction(async (tx) => {
      const [charge] = await tx
        .select()
        .from(sandboxCharges)
        .where(and(eq(sandboxCharges.merchantId, this.#o.merchantId), eq(sandboxCharges.orderNo, orderNo)))
        .for('update');
      if (charge?.status === 'PENDING') {
        await tx
          .update(sandboxCharges)
          .set({ status: 'CLOSED', updatedAt: sql`now()` })
          .where(eq(sandboxCharges.id, charge.id));
        return { status: 'CLOSED' };
      }
      return statusOf(charge);
    });
  }

  async refund(request: RefundRequest): Promise<RefundResult> {
    // The merchant signs its request; the gateway checks it and signs its answer; the merchant checks that.
    const key = this.#o.key();
    const fields = {
      merchantId: this.#o.merchantId,
      refundNo: request.refundNo,
      orderNo: request.orderNo,
      amountFen: request.amountFen,
      reason: request.reason,
      nonce: randomBytes(12).toString('hex'),
    };
    const answer = await this.gatewayRefund({ ...fields, sign: signFields(fields, key) });
    if (!verifyFields(answer, key)) return { status: 'REFUSED', message: '退款结果验签失败' };
    if (answer.status !== 'SUCCESS')
      return { status: 'REFUSED', message: String(answer.message ?? '退款被拒绝') };
    if (answer.refundNo !== request.refundNo || answer.amountFen !== request.amountFen)
      return { status: 'REFUSED', message: '退款结果与申请不符' };
    return {
      status: 'SUCCESS',
      refundNo: String(answer.refundNo),
      refundTradeNo: String(answer.refundTradeNo),
      amountFen: Number(answer.amountFen),
      refundedAt: new Date(String(answer.refundedAt)),
    };
  }

  /**
   * The gateway's refund API: verifies the merchant's signature, refunds a PAID charge once per refund number
   * (a repeated number answers the first refund), never more than the charge in all; answers signed fields.
   */
  async gatewayRefund(req: Record<string, unknown>): Promise<Record<string, unknown>> {
    const key = this.#o.key();
    const signed = (fields: Record<string, unknown>) => ({ ...fields, sign: signFields(fields, key) });
    if (!verifyFields(req, key) || req.merchantId !== this.#o.merchantId)
      return signed({ status: 'FAIL', message: '签名错误' });
    const amountFen = req.amountFen;
    if (typeof amountFen !== 'number' || !Number.isSafeInteger(amountFen) || amountFen <= 0)
      return signed({ status: 'FAIL', message: '退款金额无效' });
    const refundNo = String(req.refundNo);
    const orderNo = String(req.orderNo);
    return this.#o.db.transaction(async (tx) => {
      const [charge] = await tx
        .select()
        .from(sandboxCharges)
        .where(and(eq(sandboxCharges.merchantId, this.#o.merchantId), eq(sandboxCharges.orderNo, orderNo)))
        .for('update');
      const [seen] = await tx
        .select()
        .from(sandboxRefunds)
        .where(and(eq(sandboxRefunds.merchantId, this.#o.merchantId), eq(sandboxRefunds.refundNo, refundNo)));
      const answerOf = (r: typeof sandboxRefunds.$inferSelect) =>
        signed({
          status: 'SUCCESS',
          refundNo: r.refundNo,
          orderNo: r.orderNo,
          refundTradeNo: r.refundTradeNo,
          amountFen: r.amountFen,
          refundedAt: r.refundedAt.toISOString(),
        });
      if (seen) return answerOf(seen);
      if (charge?.status !== 'PAID') return signed({ status: 'FAIL', message: '原支付交易不存在或未支付' });
      const [{ total } = { total: 0 }] = await tx
        .select({ total: sql<number>`coalesce(sum(${sandboxRefunds.amountFen}), 0)::bigint` })
        .from(sandboxRefunds)
        .where(and(eq(sandboxRefunds.merchantId, this.#o.merchantId), eq(sandboxRefunds.orderNo, orderNo)));
      if (Number(total) + amountFen > charge.amountFen)
        return signed({ status: 'FAIL', message: '退款金额超过可退金额' });
      const [row] = await tx
        .insert(sandboxRefunds)
        .values({
          merchantId: this.#o.merchantId,
          refundNo,
          orderNo,
          chargeNo: charge.chargeNo,
          amountFen,
          refundTradeNo: token('SBR'),
        })
        .returning();
      return answerOf(row!);
    });
  }

  // ---- the gateway's own side: cashier links, paying, notifying ----

  /** The signed cashier link of a charge (same origin as the API). */
  cashierUrl(charge: SandboxCharge): string {
    const params = {
      merchantId: charge.merchantId,
      orderNo: charge.orderNo,
      chargeNo: charge.chargeNo,
      amountFen: String(charge.amountFen),
      expires: String(charge.expiresAt.getTime()),
    };
    const sign = signFields(params, this.#o.key());
    return `${SANDBOX_CASHIER_PATH}?${new URLSearchParams({ ...params, sign }).toString()}`;
  }

  /** The charge a cashier link names, when its signature holds and it matches the ledger; else null. */
  async chargeOfLink(params: Partial<Record<keyof CashierParams, unknown>>): Promise<SandboxCharge | null> {
    const fields = Object.fromEntries(
      (['merchantId', 'orderNo', 'chargeNo', 'amountFen', 'expires', 'sign'] as const).map((k) => [
        k,
        typeof params[k] === 'string' ? params[k] : '',
      ]),
    ) as unknown as CashierParams;
    if (Object.values(fields).some((v) => !v || v.length > 100)) return null;
    if (!verifyFields(fields as unknown as Record<string, unknown>, this.#o.key())) return null;
    const [charge] = await this.#o.db
      .select()
      .from(sandboxCharges)
      .where(eq(sandboxCharges.chargeNo, fields.chargeNo));
    if (
      !charge ||
      charge.merchantId !== fields.merchantId ||
      charge.orderNo !== fields.orderNo ||
      String(charge.amountFen) !== fields.amountFen
    )
      return null;
    return charge;
  }

  /**
   * The payer confirms: the charge becomes PAID (once; paying again answers the same charge), then the signed
   * notification goes to the merchant unless `notify` is false (a lost callback, to exercise the query path).
   */
  async pay(chargeNo: string, opts: { notify?: boolean } = {}): Promise<PayOutcome> {
    const result = await this.#o.db.transaction(async (tx): Promise<PayOutcome & { fresh?: boolean }> => {
      const [charge] = await tx
        .select()
        .from(sandboxCharges)
        .where(eq(sandboxCharges.chargeNo, chargeNo))
        .for('update');
      if (!charge) return { ok: false, reason: 'NOT_FOUND' };
      if (charge.status === 'PAID') return { ok: true, charge, notified: null };
      if (charge.status === 'CLOSED') return { ok: false, reason: 'CLOSED' };
      if (charge.expiresAt.getTime() <= Date.now()) return { ok: false, reason: 'EXPIRED' };
      const [paid] = await tx
        .update(sandboxCharges)
        .set({ status: 'PAID', tradeNo: token('SBX'), paidAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(sandboxCharges.id, charge.id))
        .returning();
      return { ok: true, charge: paid!, notified: null, fresh: true };
    });
    if (!result.ok) return result;
    if (opts.notify === false || !result.fresh) return { ok: true, charge: result.charge, notified: null };
    return { ok: true, charge: result.charge, notified: await this.notify(result.charge) };
  }

  /** The signed notification of a paid charge, as the gateway sends it (a fresh nonce each time). */
  notificationBody(charge: SandboxCharge): string {
    if (charge.status !== 'PAID' || !charge.tradeNo || !charge.paidAt) throw new Error('charge is not paid');
    const fields = {
      merchantId: charge.merchantId,
      orderNo: charge.orderNo,
      tradeNo: charge.tradeNo,
      chargeNo: charge.chargeNo,
      amountFen: charge.amountFen,
      status: 'SUCCESS',
      paidAt: charge.paidAt.toISOString(),
      nonce: randomBytes(12).toString('hex'),
      signType: 'HMAC-SHA256',
    };
    return JSON.stringify({ ...fields, sign: signFields(fields, this.#o.key()) });
  }

  /** Sends the notification of a paid charge to the merchant; true when it was acknowledged. */
  async notify(charge: SandboxCharge): Promise<boolean> {
    if (!this.#o.deliver) return false;
    let status = 0;
    try {
      const res = await this.#o.deliver(SANDBOX_NOTIFY_PATH, this.notificationBody(charge));
      status = res.statusCode;
    } catch (err) {
      this.#o.log.warn({ err, orderNo: charge.orderNo }, 'sandbox gateway: notification not delivered');
    }
    await this.#o.db
      .update(sandboxCharges)
      .set({
        notifyAttempts: sql`${sandboxCharges.notifyAttempts} + 1`,
        lastNotifyStatus: status,
        updatedAt: sql`now()`,
      })
      .where(eq(sandboxCharges.id, charge.id));
    return status === 200;
  }

  async chargeByOrder(orderNo: string): Promise<SandboxCharge | undefined> {
    return this.#byOrder(orderNo);
  }

  async #byOrder(orderNo: string): Promise<SandboxCharge | undefined> {
    const [charge] = await this.#o.db
      .select()
      .from(sandboxCharges)
      .where(and(eq(sandboxCharges.merchantId, this.#o.merchantId), eq(sandboxCharges.orderNo, orderNo)));
    return charge;
  }
}

function statusOf(charge: SandboxCharge | undefined): ChargeStatus {
  if (!charge) return { status: 'NOT_FOUND' };
  if (charge.status === 'PAID' && charge.tradeNo && charge.paidAt)
    return { status: 'PAID', tradeNo: charge.tradeNo, amountFen: charge.amountFen, paidAt: charge.paidAt };
  if (charge.status === 'CLOSED') return { status: 'CLOSED' };
  return { status: 'PENDING' };
}

/** What can be read of a notification that did not verify, for its log row. */
function factsOf(json: unknown): NotificationFacts {
  if (!json || typeof json !== 'object') return {};
  const o = json as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v.length <= 64 ? v : undefined);
  return {
    orderNo: str(o.orderNo),
    tradeNo: str(o.tradeNo),
    amountFen: typeof o.amountFen === 'number' && Number.isSafeInteger(o.amountFen) ? o.amountFen : undefined,
  };
}
