// The payment provider's notifications. A notification is checked three ways: its signature (the provider), its
// order number (ours, PENDING) and its amount (equal to the order's). Whatever it says, it is recorded in
// payment_notification with the outcome; one that fails a check changes nothing else. Settling: settle.ts.

import {
  type NotifyAck,
  PAYMENT_MESSAGES,
  PAYMENT_PROVIDERS,
  type PaymentProviderName,
} from '@piibs/shared/payment';
import type { BusinessContext } from '../../app-types.ts';
import { issueAfterPayment } from '../policies/issue.ts';
import type { NotificationHeaders, PaymentProvider } from './provider.ts';
import { recordNotification, type SettleResult, settle } from './settle.ts';

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
