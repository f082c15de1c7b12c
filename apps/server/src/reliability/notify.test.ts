// POST /api/payments/notify/:provider is public (the gateway calls it), so anyone can post to it. What they post
// must not fill the database: a name the server has no provider by is answered without storing anything; forged
// and unreadable bodies keep only a bounded sample (the newest REJECTED_SAMPLES per provider, each cut to
// REJECTED_SAMPLE_CHARS); one address may post PIIBS_NOTIFY_RATE a minute to one provider, then 429. Every
// refusal is counted (GET /api/monitor). Genuine notifications are recorded in full and still settle.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentNotifications } from '../db/schema.ts';
import { PRUNE_EVERY, REJECTED_SAMPLE_CHARS, REJECTED_SAMPLES } from '../modules/payments/notify.ts';
import { signFields } from '../modules/payments/provider.ts';
import {
  createPayWorld,
  type PayWorld,
  paidSilently,
  pendingPayment,
  postNotification,
  startPay,
} from '../modules/payments/test-fixtures.ts';
import { envelopeProblem } from './openapi.ts';
import { closeWorld } from './world.ts';

let w: PayWorld;
beforeAll(async () => {
  w = await createPayWorld();
}, 60_000);
afterAll(() => closeWorld(w));

const notify = (provider: string, payload: string, ip: string) =>
  w.t.app.inject({
    method: 'POST',
    url: `/api/payments/notify/${provider}`,
    headers: { 'content-type': 'application/json' },
    payload,
    remoteAddress: ip,
  });

/** 64 KB that does not compress (as an attacker would send), inside a notification signed with another key. */
function forged64k(): string {
  const fields = {
    merchantId: 'PIIBS',
    orderNo: 'ZF20990101000000',
    tradeNo: `SBX-${randomBytes(6).toString('hex')}`,
    chargeNo: 'CH1',
    amountFen: 1,
    status: 'SUCCESS',
    paidAt: '2026-01-01T00:00:00.000Z',
    nonce: randomBytes(8).toString('hex'),
    signType: 'HMAC-SHA256',
  };
  const body = JSON.stringify({
    ...fields,
    sign: signFields(fields, 'not-the-merchant-key-0123456789abcdef'),
  });
  const pad = randomBytes(48_000)
    .toString('base64')
    .slice(0, 65_536 - body.length - 12);
  return `${body.slice(0, -1)},"pad":"${pad}"}`;
}

const tableBytes = async () =>
  Number(
    (
      await w.t.database.db.execute<{ n: string }>(
        sql`select pg_total_relation_size('payment_notification') as n`,
      )
    ).rows[0]!.n,
  );
const rows = () => w.t.database.db.select().from(paymentNotifications);

describe('POST /api/payments/notify/:provider under attack', () => {
  it('200 forged or unreadable notifications of 64 KB: each 400, a bounded sample kept, genuine records untouched', async () => {
    // A genuine payment first: its record must survive whatever follows.
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    const genuine = await paidSilently(w, await startPay(w.ent, a.id));
    expect((await postNotification(w, genuine)).statusCode).toBe(200);
    const genuineRows = (await rows()).filter((r) => r.signatureValid);
    expect(genuineRows.length).toBeGreaterThan(0);

    const bytesBefore = await tableBytes();
    for (let i = 0; i < 200; i++) {
      const body = i % 4 === 3 ? `{not json ${randomBytes(40_000).toString('base64')}` : forged64k();
      expect(body.length).toBeLessThanOrEqual(65_536);
      const res = await notify('sandbox', body, '198.51.100.7');
      expect(res.statusCode, res.body).toBe(400);
      expect(envelopeProblem(res, { binary: false })).toBeNull();
    }
    const growth = (await tableBytes()) - bytesBefore;
    const rejected = (await rows()).filter((r) => !r.signatureValid);
    console.info(
      `notify: 200 forged × 64 KB → ${rejected.length} samples kept, table +${Math.round(growth / 1024)} KB`,
    );
    // Before: every body was kept (16 KB of each), the table grew by 3.5 MB.
    expect(rejected.length).toBeLessThanOrEqual(REJECTED_SAMPLES + PRUNE_EVERY - 1);
    expect(rejected.length).toBeGreaterThanOrEqual(REJECTED_SAMPLES);
    expect(Math.max(...rejected.map((r) => r.rawBody.length))).toBe(REJECTED_SAMPLE_CHARS);
    expect(growth).toBeLessThan(1024 * 1024);
    expect(new Set(rejected.map((r) => r.outcome))).toEqual(new Set(['BAD_SIGNATURE', 'MALFORMED']));
    // The genuine records are all still there, and a genuine notification is still taken.
    expect((await rows()).filter((r) => r.signatureValid)).toEqual(genuineRows);
    expect((await postNotification(w, genuine)).statusCode).toBe(200);
  }, 60_000);

  it('a provider the server does not have: 404, nothing stored', async () => {
    const before = await rows();
    const bytesBefore = await tableBytes();
    for (const name of ['alipay', 'wxpay', 'constructor', randomBytes(20).toString('hex'), 'x'.repeat(100)]) {
      for (let i = 0; i < 10; i++) {
        const res = await notify(name, forged64k(), '198.51.100.8');
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toEqual({ status: 404, message: '支付渠道：不支持的支付渠道' });
      }
    }
    expect(await rows()).toEqual(before);
    expect(await tableBytes()).toBe(bytesBefore);
  });

  it('one address may post PIIBS_NOTIFY_RATE a minute to one provider, then 429; other addresses and providers are not held up', async () => {
    const limit = w.t.config.business.notifyRatePerMinute;
    const before = (await rows()).length;
    for (let i = 0; i < limit; i++)
      expect((await notify('nosuchpay', '{}', '198.51.100.9')).statusCode, `call ${i + 1}`).toBe(404);
    const over = await notify('nosuchpay', '{}', '198.51.100.9');
    expect(over.statusCode).toBe(429);
    expect(envelopeProblem(over, { binary: false })).toBeNull();
    expect(over.json().message).toMatch(/^操作过于频繁，请 \d+ 秒后再试$/);
    // Every name the server has no provider by shares the one bucket of that address.
    expect((await notify('otherpay', '{}', '198.51.100.9')).statusCode).toBe(429);
    // Another address, and the same address to the sandbox, have buckets of their own.
    expect((await notify('nosuchpay', '{}', '198.51.100.10')).statusCode).toBe(404);
    expect((await notify('sandbox', '{}', '198.51.100.9')).statusCode).toBe(400);
    expect((await rows()).length).toBe(before + 1);
  }, 60_000);

  it('every refusal is counted on the monitor, per provider and reason', async () => {
    const res = await w.admin.get('/api/monitor');
    expect(res.statusCode, res.body).toBe(200);
    const counts = Object.fromEntries(
      (res.json().refusedNotifications as { provider: string; reason: string; count: number }[]).map((r) => [
        `${r.provider}/${r.reason}`,
        r.count,
      ]),
    );
    expect(counts).toEqual({
      'sandbox/BAD_SIGNATURE': 150,
      // 50 unreadable bodies in the flood, one empty object from the rate-limit test.
      'sandbox/MALFORMED': 51,
      '/UNKNOWN_PROVIDER': 50 + w.t.config.business.notifyRatePerMinute + 1,
      '/RATE_LIMITED': 2,
    });
  });
});
