import { CUSTOMER_HISTORY_LIMIT } from '@piibs/shared/customer-history';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachMaterials, type Client } from '../../../test/business.ts';
import { products } from '../../db/schema.ts';
import {
  approvedCustomer,
  cashier,
  createPayWorld,
  type PayWorld,
  pendingPayment,
  startPay,
} from '../payments/test-fixtures.ts';

let w: PayWorld;
let productId: number;
beforeAll(async () => {
  w = await createPayWorld();
  const [p] = await w.t.database.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.code, 'AZX_GM_2025'));
  productId = p!.id;
});
afterAll(() => w.t.close());

type App = { id: number; number: string; version: number; openTaskId: number | null };

/** A new application of `who` for the customer, submitted (PENDING_REVIEW) unless `draft`. */
async function application(who: Client, customerId: number, draft = false): Promise<App> {
  let res = await who.post('/api/applications', { productId, customerId });
  if (res.statusCode !== 200) throw new Error(res.body);
  if (draft) return res.json();
  const a = res.json() as App;
  // The documents the product requires at submission, as a clerk uploads them.
  await attachMaterials(who, a.id, 'SUBMIT');
  res = await who.post(`/api/applications/${a.id}/submit`, { version: a.version });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}

async function decide(a: App, decision: 'return' | 'reject', opinion: string): Promise<void> {
  const task = (await w.underwriter.get(`/api/tasks/${a.openTaskId}`)).json();
  const res = await w.underwriter.post(`/api/tasks/${task.id}/decide`, {
    decision,
    opinion,
    version: task.version,
  });
  if (res.statusCode !== 200) throw new Error(res.body);
}

const history = (who: Client, customerId: number, exclude?: number) =>
  who.get(`/api/customers/${customerId}/history${exclude ? `?exclude=${exclude}` : ''}`);

describe('GET /api/customers/:id/history', () => {
  it('lists the policies and the submitted applications, newest first, without the one under review', async () => {
    // An issued policy …
    const paid = await pendingPayment(w, w.ent, w.entCustomerId);
    const start = await startPay(w.ent, paid.id);
    expect((await cashier(w, start.cashierUrl, 'pay')).statusCode).toBe(303);
    // … an application declined, one returned, one cancelled after its return, a draft never submitted …
    const declined = await application(w.ent, w.entCustomerId);
    await decide(declined, 'reject', '不符合承保条件');
    const returned = await application(w.ent, w.entCustomerId);
    await decide(returned, 'return', '请核实参保人数');
    const cancelled = await application(w.ent, w.entCustomerId);
    await decide(cancelled, 'return', '请补充资料');
    const c = (await w.ent.get(`/api/applications/${cancelled.id}`)).json();
    expect((await w.ent.post(`/api/applications/${c.id}/cancel`, { version: c.version })).statusCode).toBe(
      200,
    );
    await application(w.ent, w.entCustomerId, true);
    // … and the one the underwriter reviews now.
    const underReview = await application(w.ent, w.entCustomerId);

    const res = await history(w.underwriter, w.entCustomerId, underReview.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.policies.totalElements).toBe(1);
    expect(body.policies.content[0]).toMatchObject({
      productName: expect.any(String),
      premiumFen: paid.premiumFen,
      statusLabel: expect.stringMatching(/^(未生效|有效)$/),
    });
    expect(body.policies.content[0].number).toMatch(/^P/);
    expect(body.applications.totalElements).toBe(4);
    expect(
      body.applications.content.map((a: { number: string; statusLabel: string }) => [
        a.number,
        a.statusLabel,
      ]),
    ).toEqual([
      [cancelled.number, '已撤销'],
      [returned.number, '已退回'],
      [declined.number, '已拒保'],
      [paid.number, '已出单'],
    ]);
    expect(body.applications.content[0]).toMatchObject({
      policyholderType: 1,
      submittedAt: expect.any(String),
    });

    // Without `exclude` the application under review is listed too.
    const all = (await history(w.underwriter, w.entCustomerId)).json();
    expect(all.applications.content[0]).toMatchObject({ number: underReview.number, statusLabel: '待审核' });
  });

  it('an enterprise reads its own history; another enterprise’s answers 404; without a permission 403', async () => {
    expect((await history(w.ent, w.entCustomerId)).statusCode).toBe(200);
    const other = await history(w.ent2, w.entCustomerId);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('投保人不存在');
    expect((await history(w.underwriter, 999_999)).statusCode).toBe(404);
    expect((await history(w.nobody, w.entCustomerId)).statusCode).toBe(403);
    expect(
      (await w.underwriter.get(`/api/customers/${w.entCustomerId}/history?exclude=abc`)).statusCode,
    ).toBe(400);
  });

  it(`holds the latest ${CUSTOMER_HISTORY_LIMIT} of each, with the total`, async () => {
    const customerId = await approvedCustomer(w, w.agent);
    const made: App[] = [];
    for (let i = 0; i <= CUSTOMER_HISTORY_LIMIT; i++) made.push(await application(w.agent, customerId));
    const body = (await history(w.underwriter, customerId)).json();
    expect(body.applications.totalElements).toBe(CUSTOMER_HISTORY_LIMIT + 1);
    expect(body.applications.content).toHaveLength(CUSTOMER_HISTORY_LIMIT);
    expect(body.applications.content[0].number).toBe(made.at(-1)!.number);
    expect(body.applications.content.map((a: { number: string }) => a.number)).not.toContain(made[0]!.number);
    // The agent sees their client's history; another agent does not see the client at all.
    expect((await history(w.agent, customerId)).json().applications.totalElements).toBe(
      CUSTOMER_HISTORY_LIMIT + 1,
    );
    expect((await history(w.agent2, customerId)).statusCode).toBe(404);
  });
});
