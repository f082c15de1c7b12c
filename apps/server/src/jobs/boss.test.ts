// The pg-boss queue for real, against the test database: it starts, runs the expiry pass it sends on start,
// retries a failed issuance until it succeeds (exactly one policy), and stops without hanging — both when
// driven directly and through the app (listen starts it, close stops it).
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, paymentOrders, policies } from '../db/schema.ts';
import {
  createPayWorld,
  type PayWorld,
  paidSilently,
  pendingPayment,
  postNotification,
  startPay,
} from '../modules/payments/test-fixtures.ts';
import { issuanceFaults } from '../modules/policies/issue.ts';
import { JobRunner } from './boss.ts';

let w: PayWorld;
beforeAll(async () => {
  w = await createPayWorld();
});
afterAll(async () => {
  issuanceFaults.remaining = 0;
  await w.t.close();
});

const db = () => w.t.database.db;
const status = async (id: number) =>
  (await db().select({ s: applications.status }).from(applications).where(eq(applications.id, id)))[0]!.s;

async function until(check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('timed out');
}

describe('the job queue', () => {
  it('expires on start, retries a failed issuance to exactly one policy, and stops', async () => {
    const due = await pendingPayment(w, w.ent, w.entCustomerId);
    await db()
      .update(paymentOrders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(paymentOrders.applicationId, due.id));

    const runner = new JobRunner({
      connectionString: String(w.t.database.pool.options.connectionString),
      ctx: w.ctx,
      schedule: false,
      pollingIntervalSeconds: 0.5,
      issueRetryDelaySeconds: 1,
    });
    await runner.start();
    try {
      expect(w.ctx.queue).toBe(runner);
      await until(async () => (await status(due.id)) === 'PAYMENT_EXPIRED');

      // Inline issuance fails (1), the queued job's first attempt fails (2), its retry succeeds.
      const a = await pendingPayment(w, w.ent, w.entCustomerId);
      issuanceFaults.remaining = 2;
      const body = await paidSilently(w, await startPay(w.ent, a.id));
      expect((await postNotification(w, body)).statusCode).toBe(200);
      expect(await status(a.id)).toBe('PAID');
      await until(async () => (await status(a.id)) === 'ISSUED');
      expect(issuanceFaults.remaining).toBe(0);
      const [n] = await db().select({ n: count() }).from(policies).where(eq(policies.applicationId, a.id));
      expect(n!.n).toBe(1);
    } finally {
      const started = Date.now();
      await runner.stop();
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    expect(w.ctx.queue).toBeNull();
  }, 60_000);

  it('the app starts the queue when it listens and stops it when it closes', async () => {
    await w.t.app.listen({ port: 0, host: '127.0.0.1' });
    await until(async () => w.ctx.queue !== null);
    // afterAll closes the app: the queue stops with it (the test run would hang otherwise).
  }, 60_000);
});
