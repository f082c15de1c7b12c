// The operation log of a real business flow (customer, application, payment, policy): every entry in words —
// people by name, steps no person took as 系统自动 or the payment provider, records by business number, regions
// by name — and findable by the business number of any record it is about.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentOrders, policies } from '../../db/schema.ts';
import {
  type AppDetail,
  createPayWorld,
  type PayWorld,
  paidSilently,
  pendingPayment,
  postNotification,
  startPay,
} from '../payments/test-fixtures.ts';

let w: PayWorld;
let a: AppDetail;
let policyNumber: string;
let orderNumber: string;

interface Entry {
  actorName: string | null;
  action: string;
  entity: string;
  record: string | null;
  lines: string[];
}
const logs = async (query: string): Promise<Entry[]> => {
  const res = await w.admin.get(`/api/logs?size=100&sort=id,asc&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().content;
};
const byNumber = (n: string) => logs(`number=${encodeURIComponent(n)}`);
const kinds = (entries: Entry[]) => entries.map((e) => `${e.entity}.${e.action}`);

beforeAll(async () => {
  w = await createPayWorld();
  a = await pendingPayment(w, w.ent, w.entCustomerId);
  const start = await startPay(w.ent, a.id);
  expect((await postNotification(w, await paidSilently(w, start))).statusCode).toBe(200);
  const db = w.t.database.db;
  const [policy] = await db.select().from(policies).where(eq(policies.applicationId, a.id));
  policyNumber = policy!.number;
  const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, start.orderId));
  orderNumber = order!.number;
}, 120_000);
afterAll(() => w.t.close());

describe('the operation log of a business flow', () => {
  it('a payment is by the payment provider and the policy issue by 系统自动, never by a code', async () => {
    const entries = await byNumber(a.number);
    expect(entries.find((e) => e.action === 'pay')).toMatchObject({
      actorName: '沙箱支付（测试环境）',
      entity: 'payment_order',
      record: orderNumber,
    });
    expect(entries.find((e) => e.action === 'issue')).toMatchObject({
      actorName: '系统自动',
      entity: 'policy',
      record: policyNumber,
    });
    const all = await logs('');
    for (const e of all) expect(e.actorName, `${e.entity}.${e.action}`).not.toMatch(/^system$|^payment:/);
    const bySystem = await logs(`actor=${encodeURIComponent('系统自动')}`);
    expect(kinds(bySystem)).toEqual(['policy.issue']);
  });

  it('the application’s timeline names the payment provider and 系统自动 too', async () => {
    const events = (await w.ent.get(`/api/applications/${a.id}/events`)).json() as {
      action: string;
      actor: string;
    }[];
    const actors = events.map((e) => e.actor);
    expect(actors).toContain('沙箱支付（测试环境）');
    expect(actors.some((x) => /^system$|^payment:/.test(x ?? ''))).toBe(false);
  });

  it('an application number finds its own entries and those of its payment and policy', async () => {
    const entries = await byNumber(a.number);
    expect(kinds(entries)).toEqual(
      expect.arrayContaining([
        'application.create',
        'application.submit',
        'application.review_approve',
        'payment_order.pay',
        'policy.issue',
      ]),
    );
    for (const e of entries.filter((x) => x.entity === 'application')) expect(e.record).toBe(a.number);
    // Narrowed by object type (the select of the page).
    expect(kinds(await logs(`number=${a.number}&entity=policy`))).toEqual(['policy.issue']);
  });

  it('a policy, payment-order or customer number finds the entries about that record only', async () => {
    expect(kinds(await byNumber(policyNumber))).toEqual(['policy.issue']);
    expect(kinds(await byNumber(orderNumber))).toEqual(['payment_order.charge', 'payment_order.pay']);
    const customer = (await w.ent.get(`/api/customers/${w.entCustomerId}`)).json();
    for (const key of [customer.name, customer.uscc.toLowerCase()]) {
      const entries = await byNumber(key);
      expect(kinds(entries), key).toEqual(
        expect.arrayContaining(['customer.create', 'customer.review_approve']),
      );
      expect(kinds(entries)).toContain('application.create');
      expect(entries.find((e) => e.entity === 'customer')!.record).toBe(customer.name);
    }
    expect(await byNumber('AZX0000000000')).toEqual([]);
  });

  it('details name regions, products, records and statuses; nothing is an id, a code or JSON', async () => {
    const entries = await logs('');
    const create = entries.find((e) => e.entity === 'customer' && e.action === 'create')!;
    expect(create.lines).toContain('地区：京口区');
    expect(create.lines.join('\n')).not.toContain('321102');
    const made = entries.find((e) => e.entity === 'application' && e.action === 'create')!;
    expect(made.lines).toEqual(expect.arrayContaining([`编号：${a.number}`, '渠道：企业自助投保']));
    expect(made.lines.some((l) => l.startsWith('产品：') && !/\d+$/.test(l))).toBe(true);
    const issue = entries.find((e) => e.action === 'issue')!;
    expect(issue.lines).toContain(`投保单号：${a.number}`);
    for (const e of entries)
      for (const line of e.lines) {
        const where = `${e.entity}.${e.action}: ${line}`;
        // Field names in Chinese; no JSON, no null; no bare id where a record is meant.
        expect(line, where).toMatch(/^[^A-Za-z：]+：/);
        expect(line, where).not.toMatch(/[{}"]|null|undefined|Id：/);
      }
  });

  it('the review task’s change history reads the same words (region by name)', async () => {
    const customer = (await w.ent.get(`/api/customers/${w.entCustomerId}`)).json();
    const tasks = (await w.underwriter.get('/api/tasks?kind=customer&status=done&size=50')).json()
      .content as {
      id: number;
      subjectId: number;
    }[];
    const task = tasks.find((t) => t.subjectId === customer.id)!;
    const detail = (await w.underwriter.get(`/api/tasks/${task.id}`)).json();
    const lines = detail.changes.flatMap((c: { lines: string[] }) => c.lines);
    expect(lines).toContain('地区：京口区');
    expect(lines.join('\n')).not.toContain('321102');
  });
});
