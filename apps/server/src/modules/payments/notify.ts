// The payment provider's notifications. A notification is checked three ways: its signature (the provider), its
// order number (ours, PENDING) and its amount (equal to the order's). One with a valid signature is recorded in
// payment_notification with the outcome whatever it says; one that fails a check changes nothing else. Forged and
// unreadable ones (anyone can post them) keep only a bounded sample, and a name the server has no provider by is
// answered without a trace in the database: the route counts both (GET /api/monitor). Settling: settle.ts.

import {
  type NotifyAck,
  type NotifyRefusal,
  PAYMENT_MESSAGES,
  PAYMENT_PROVIDERS,
  type PaymentProviderName,
} from '@piibs/shared/payment';
import { sql } from 'drizzle-orm';
import type { BusinessContext } from '../../app-types.ts';
import { issueAfterPayment } from '../policies/issue.ts';
import type { NotificationHeaders, PaymentProvider } from './provider.ts';
import { recordNotification, type SettleResult, settle } from './settle.ts';

const KEPT_HEADERS = ['content-type', 'user-agent', 'x-forwarded-for', 'x-request-id'];

/**
 * The answer to a notification: the provider's acknowledgement (200) or an error (4xx); `refused` when it was
 * refused before it reached an order (forged, unreadable, no such provider), for the route to count.
 */
export type NotifyAnswer =
  | { status: 200; body: NotifyAck }
  | { status: 400 | 404; message: string; refused?: NotifyRefusal };

/** Forged or unreadable notifications keep at most this many samples per provider: the newest. */
export const REJECTED_SAMPLES = 100;
/** …each cut to this many characters (a genuine notification is well under 1 KB). */
export const REJECTED_SAMPLE_CHARS = 2048;
/** The samples beyond REJECTED_SAMPLES are deleted every this many refusals of an instance (a pass over the table). */
export const PRUNE_EVERY = 10;
const sinceLastPrune = new WeakMap<BusinessContext, Map<string, number>>();

/** Deletes a provider's forged and unreadable samples beyond the newest REJECTED_SAMPLES, every PRUNE_EVERY calls. */
async function pruneRejected(ctx: BusinessContext, provider: string): Promise<void> {
  const counts = sinceLastPrune.get(ctx) ?? new Map<string, number>();
  sinceLastPrune.set(ctx, counts);
  const n = (counts.get(provider) ?? 0) + 1;
  counts.set(provider, n % PRUNE_EVERY);
  if (n < PRUNE_EVERY) return;
  await ctx.db.execute(sql`
    delete from payment_notification where id in (
      select id from payment_notification
      where provider = ${provider} and not signature_valid and outcome in ('BAD_SIGNATURE', 'MALFORMED')
      order by id desc offset ${REJECTED_SAMPLES})`);
}

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

/** A name from the URL as it may be logged: printable, at most 64 characters. */
const printableName = (name: string) =>
  [...name]
    .filter((c) => c >= ' ' && c !== '\u007f')
    .join('')
    .slice(0, 64);

/**
 * POST /api/payments/notify/:provider. Verifies the signature (provider), then the order number and amount
 * (settle). A forged or wrong one changes nothing and answers 400 (forged and unreadable ones are kept as a
 * bounded sample); one for a provider the server does not have answers 404 and is not recorded.
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
    // Not recorded: anyone can post to any name. The name, the sender and the size are logged (never the body,
    // it may carry a signature); the route's rate limit bounds how often.
    ctx.log.warn(
      { provider: printableName(requestedProvider), ip, bytes: rawBody.length },
      'payment notification for an unknown provider refused',
    );
    return { status: 404, message: PAYMENT_MESSAGES.unknownProvider, refused: 'UNKNOWN_PROVIDER' };
  }
  const { name: providerName, provider } = known;
  const verified = provider.verifyNotification(headers, rawBody);
  if (!verified.ok) {
    const facts = verified.facts;
    const message =
      verified.outcome === 'BAD_SIGNATURE' ? PAYMENT_MESSAGES.badSignature : PAYMENT_MESSAGES.malformed;
    await recordNotification(
      ctx.db,
      {
        provider: providerName,
        orderNo: facts.orderNo ?? '',
        tradeNo: facts.tradeNo ?? '',
        amountFen: facts.amountFen ?? Number.NaN,
        notification: { rawBody: rawBody.slice(0, REJECTED_SAMPLE_CHARS), headers: kept, ip },
      },
      verified.outcome,
      false,
      message,
    );
    await pruneRejected(ctx, providerName);
    ctx.log.warn(
      { provider: providerName, outcome: verified.outcome, orderNo: facts.orderNo, ip },
      'payment notification refused',
    );
    return { status: 400, message, refused: verified.outcome };
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
