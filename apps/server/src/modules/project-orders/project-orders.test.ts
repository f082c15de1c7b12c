import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { yuan } from '@piibs/shared/money';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, readXlsx } from '../../../test/admin.ts';
import { createUser, tokenFor } from '../../../test/auth.ts';
import { type Client, createWorld, customerForm, newUscc, type World } from '../../../test/business.ts';
import { pdfText } from '../../../test/pdf.ts';
import { annualOrders, products } from '../../db/schema.ts';

let w: World;
let ctrA: Client;
let ctrA2: Client;
let ctrB: Client;
let customerA: number;
let customerB: number;
let agentClient: number;
let constructionId: number;
const usccA = newUscc();
const usccB = newUscc();
const today = shanghaiToday();

type Order = {
  id: number;
  number: string;
  quotaFen: number;
  consumedFen: number;
  remainingFen: number;
  canDeclare: boolean;
  declaredCount: number;
  approvedCount: number;
  policies: { policyId: number; number: string; declarationId: number }[];
};
type Declaration = {
  id: number;
  number: string;
  status: string;
  version: number;
  premiumFen: number;
  reservedFen: number;
  reviewOpinion: string | null;
  openTaskId: number | null;
  policyId: number | null;
  policyNumber: string | null;
  actions: string[];
  quote: { rateTableVersion: number; lines: { key: string; premiumFen: number }[] };
  order: Order;
  events: { action: string; opinion: string | null }[];
};

beforeAll(async () => {
  w = await createWorld();
  await createUser(w.t, { username: 'ctrA', roles: ['contractor'], channel: 'enterprise', uscc: usccA });
  await createUser(w.t, { username: 'ctrA2', roles: ['contractor'], channel: 'enterprise', uscc: usccA });
  await createUser(w.t, { username: 'ctrB', roles: ['contractor'], channel: 'enterprise', uscc: usccB });
  ctrA = client(w.t, await tokenFor(w.t, 'ctrA'));
  ctrA2 = client(w.t, await tokenFor(w.t, 'ctrA2'));
  ctrB = client(w.t, await tokenFor(w.t, 'ctrB'));
  // The underwriter's own customer records are approved at once.
  customerA = await underwriterCustomer({ uscc: usccA, industrySection: 'E', industryDivision: '47' });
  customerB = await underwriterCustomer({ uscc: usccB, industrySection: 'E', industryDivision: '48' });
  agentClient = await agentCustomer();
  const [p] = await w.t.database.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.code, 'JZSG_AZX_2025'));
  constructionId = p!.id;
});
afterAll(() => w.t.close());

async function underwriterCustomer(over: Parameters<typeof customerForm>[0]): Promise<number> {
  const res = await w.underwriter.post('/api/customers', customerForm(over));
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().id;
}

async function agentCustomer(): Promise<number> {
  const res = await w.agent.post(
    '/api/customers',
    customerForm({ industrySection: 'E', industryDivision: '47' }),
  );
  if (res.statusCode !== 200) throw new Error(res.body);
  const c = res.json();
  const task = (await w.underwriter.get(`/api/tasks/${c.openTaskId}`)).json();
  await w.underwriter.post(`/api/tasks/${task.id}/decide`, { decision: 'approve', version: task.version });
  return c.id;
}

async function openOrder(customerId: number, quotaYuan = 1_000_000): Promise<Order> {
  const res = await w.underwriter.post('/api/project-orders', {
    customerId,
    productId: constructionId,
    startDate: addDays(today, -10),
    endDate: addDays(today, 300),
    quotaFen: yuan(quotaYuan),
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}

const project = (over: Record<string, unknown> = {}) => ({
  projectName: '滨江花园二期住宅工程',
  projectAddress: '江苏省镇江市润州区滨江路 66 号',
  projectCostFen: yuan(10_000_000),
  startDate: addDays(today, 5),
  endDate: addDays(today, 400),
  highRisk: false,
  ...over,
});

async function declare(
  who: Client,
  orderId: number,
  over: Record<string, unknown> = {},
): Promise<Declaration> {
  const res = await who.post(`/api/project-orders/${orderId}/declarations`, project(over));
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}
const submit = (who: Client, d: Pick<Declaration, 'id' | 'version'>) =>
  who.post(`/api/project-declarations/${d.id}/submit`, { version: d.version });
const load = async (id: number, who: Client = w.underwriter): Promise<Declaration> =>
  (await who.get(`/api/project-declarations/${id}`)).json();
const order = async (id: number, who: Client = w.underwriter): Promise<Order> =>
  (await who.get(`/api/project-orders/${id}`)).json();
async function decide(d: Declaration, decision: string, opinion?: string) {
  const task = (await w.underwriter.get(`/api/tasks/${d.openTaskId}`)).json();
  return w.underwriter.post(`/api/tasks/${task.id}/decide`, {
    decision,
    version: task.version,
    ...(opinion ? { opinion } : {}),
  });
}

describe('annual orders', () => {
  it('are opened by staff for an approved customer on a construction product', async () => {
    const o = await openOrder(customerA);
    expect(o).toMatchObject({ quotaFen: yuan(1_000_000), consumedFen: 0, remainingFen: yuan(1_000_000) });
    expect(o.number).toMatch(/^ND\d{4}\d{6}$/);
    // The contractor may declare against it; the underwriter reads it but does not declare.
    expect((await order(o.id, ctrA)).canDeclare).toBe(true);
    expect((await order(o.id)).canDeclare).toBe(false);

    const body = {
      customerId: customerA,
      productId: constructionId,
      startDate: today,
      endDate: addDays(today, 200),
      quotaFen: 100,
    };
    expect((await ctrA.post('/api/project-orders', body)).statusCode).toBe(403);
    const [work] = await w.t.database.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.code, 'AZX_GM_2025'));
    const wrong = await w.underwriter.post('/api/project-orders', { ...body, productId: work!.id });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('险种：年度订单须选择建筑工程类险种');
    const long = await w.underwriter.post('/api/project-orders', { ...body, endDate: addDays(today, 400) });
    expect(long.json().message).toBe('终止日期：年度订单期间不能超过一年');
  });
});

describe('premium by cost band (‰ of the cost, each slice at its band’s rate)', () => {
  let orderId: number;
  beforeAll(async () => {
    orderId = (await openOrder(customerA)).id;
  });
  const premiumOf = async (costFen: number, highRisk = false) =>
    (await declare(ctrA, orderId, { projectCostFen: costFen, highRisk })).premiumFen;

  it('prices the edges of the bands exactly', async () => {
    // 10,000,000 yuan: the top of the first band, all at 0.65‰ = 6,500 yuan.
    expect(await premiumOf(yuan(10_000_000))).toBe(650_000);
    // 10,000,100 yuan: 100 yuan more at 0.60‰ = 0.06 yuan.
    expect(await premiumOf(yuan(10_000_100))).toBe(650_006);
    // 50,000,000 yuan: 6,500 + 40,000,000 × 0.60‰ = 30,500 yuan; high-risk ×1.3 = 39,650 yuan.
    expect(await premiumOf(yuan(50_000_000))).toBe(3_050_000);
    expect(await premiumOf(yuan(50_000_000), true)).toBe(3_965_000);
    // 1,000,000,000 yuan: 6,500 + 24,000 + 27,500 + 200,000 + 225,000 = 483,000 yuan; one yuan more at 0.40‰.
    expect(await premiumOf(yuan(1_000_000_000))).toBe(48_300_000);
    expect(await premiumOf(yuan(1_000_000_000) + yuan(10_000))).toBe(48_300_400);
  });

  it("charges the product's minimum premium: 10万元 × 0.65‰ = ¥65.00 is raised to ¥200.00", async () => {
    const d = await declare(ctrA, orderId, { projectCostFen: yuan(100_000) });
    expect(d.premiumFen).toBe(yuan(200));
    expect(d.quote.lines.map((l) => [l.key, l.premiumFen])).toEqual([
      ['band:0', yuan(65)],
      ['MIN_PREMIUM', yuan(135)],
    ]);
  });

  it('keeps the quote snapshot with its band lines and rate-table version', async () => {
    const d = await declare(ctrA, orderId, { projectCostFen: yuan(50_000_000) });
    expect(d.quote.rateTableVersion).toBe(1);
    expect(d.quote.lines.map((l) => [l.key, l.premiumFen])).toEqual([
      ['band:0', 650_000],
      ['band:1', 2_400_000],
    ]);
  });

  it('refuses bad input naming the field', async () => {
    const cost = await ctrA.post(
      `/api/project-orders/${orderId}/declarations`,
      project({ projectCostFen: 0 }),
    );
    expect(cost.statusCode).toBe(400);
    expect(cost.json().message).toBe('工程造价：须大于 0');
    const small = await ctrA.post(
      `/api/project-orders/${orderId}/declarations`,
      project({ projectCostFen: yuan(100_000) - 1 }),
    );
    expect(small.statusCode).toBe(400);
    expect(small.json().message).toBe('工程造价：不能低于本险种最低工程造价 10万元');
    const early = await ctrA.post(
      `/api/project-orders/${orderId}/declarations`,
      project({ startDate: today }),
    );
    expect(early.json().message).toMatch(/^开工日期：保险起期不能早于/);
    const change = await ctrA.post(`/api/project-orders/${orderId}/declarations`, { ...project(), kind: 2 });
    expect(change.statusCode).toBe(400);
    expect(change.json().message).toMatch(/^申报类型：项目批改申报须在已出单的项目上发起/);
  });
});

describe('quota: declarations consume it atomically', () => {
  it('two declarations racing for the last of the quota: one 200, one 409', async () => {
    // 10,000 yuan of quota, two projects of 6,500 yuan each.
    const o = await openOrder(customerA, 10_000);
    const [a, b] = [await declare(ctrA, o.id), await declare(ctrA2, o.id)];
    const answers = await Promise.all([submit(ctrA, a), submit(ctrA2, b)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const refused = answers.find((r) => r.statusCode === 409)!;
    expect(refused.json().message).toMatch(/^年度订单剩余额度不足/);
    const after = await order(o.id);
    expect(after).toMatchObject({ consumedFen: 650_000, remainingFen: 350_000, declaredCount: 1 });
    // The loser stays a draft, holding nothing.
    const loser = await load(answers[0]!.statusCode === 409 ? a.id : b.id);
    expect(loser).toMatchObject({ status: 'DRAFT', reservedFen: 0, openTaskId: null });
  });

  it('many concurrent declarations never overspend the quota', async () => {
    const o = await openOrder(customerA, 20_000);
    const drafts = await Promise.all(Array.from({ length: 6 }, () => declare(ctrA, o.id)));
    const answers = await Promise.all(drafts.map((d) => submit(ctrA, d)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(answers.filter((r) => r.statusCode === 409)).toHaveLength(3);
    const [row] = await w.t.database.db.select().from(annualOrders).where(eq(annualOrders.id, o.id));
    expect(row!.consumedFen).toBe(3 * 650_000);
  });
});

describe('tender review: the state machine', () => {
  it('return with opinion → edit and resubmit → approve: the policy is issued, downloadable', async () => {
    const o = await openOrder(customerA);
    let d = await declare(ctrA, o.id, { projectCostFen: yuan(50_000_000), highRisk: true });
    expect(d).toMatchObject({ status: 'DRAFT', reservedFen: 0, actions: ['edit', 'submit', 'cancel'] });
    const sent = await submit(ctrA, d);
    expect(sent.statusCode, sent.body).toBe(200);
    d = sent.json();
    expect(d).toMatchObject({ status: 'PENDING_REVIEW', reservedFen: 3_965_000, actions: [] });
    expect((await order(o.id)).consumedFen).toBe(3_965_000);
    // Submitting again, or cancelling under review: 409.
    expect((await submit(ctrA, d)).statusCode).toBe(409);
    expect(
      (await ctrA.post(`/api/project-declarations/${d.id}/cancel`, { version: d.version })).statusCode,
    ).toBe(409);

    const task = (await w.underwriter.get(`/api/tasks/${d.openTaskId}`)).json();
    expect(task).toMatchObject({ kind: 'tender', subjectId: d.id, status: 'open' });
    expect(task.customer.id).toBe(customerA);
    const noOpinion = await decide(d, 'return');
    expect(noOpinion.statusCode).toBe(400);
    expect((await decide(d, 'return', '请补充危大工程专项方案')).statusCode).toBe(200);
    d = await load(d.id, ctrA);
    expect(d).toMatchObject({
      status: 'RETURNED',
      reviewOpinion: '请补充危大工程专项方案',
      reservedFen: 3_965_000,
    });
    expect((await order(o.id)).consumedFen).toBe(3_965_000);

    // The contractor edits (not high-risk after all) and resubmits: the reservation follows the new premium.
    const saved = await ctrA.post(`/api/project-declarations/${d.id}/draft`, {
      ...project({ projectCostFen: yuan(50_000_000), highRisk: false }),
      version: d.version,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ status: 'RETURNED', premiumFen: 3_050_000 });
    const stale = await ctrA.post(`/api/project-declarations/${d.id}/draft`, {
      ...project(),
      version: d.version,
    });
    expect(stale.statusCode).toBe(409);
    const again = await submit(ctrA, saved.json());
    expect(again.statusCode, again.body).toBe(200);
    d = again.json();
    expect(d.reservedFen).toBe(3_050_000);
    expect((await order(o.id)).consumedFen).toBe(3_050_000);

    // Two reviewers approve at once: one decides, the other gets 409 (and issues nothing).
    const open = (await w.underwriter.get(`/api/tasks/${d.openTaskId}`)).json();
    await createUser(w.t, { username: 'uwTender', roles: ['underwriter'] });
    const uw2 = client(w.t, await tokenFor(w.t, 'uwTender'));
    const both = await Promise.all(
      [w.underwriter, uw2].map((who) =>
        who.post(`/api/tasks/${open.id}/decide`, { decision: 'approve', version: open.version }),
      ),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);

    d = await load(d.id, ctrA);
    expect(d.status).toBe('APPROVED');
    expect(d.policyNumber).toMatch(/^PJZSG\d{4}\d{8}$/);
    const pdf = await ctrA.get(`/api/policies/${d.policyId}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    const policy = (await ctrA.get(`/api/policies/${d.policyId}`)).json();
    expect(policy).toMatchObject({ premiumFen: 3_050_000, status: 'ISSUED', payments: [] });
    // The product's covers with their limits, not the premium's cost bands; the premium (by band, not by cover)
    // stated once.
    expect(policy.coverages.map((c: { name: string }) => c.name)).toEqual([
      '从业人员伤亡（死亡/伤残）',
      '从业人员医疗费用',
      '事故应急救援费用',
      '法律诉讼费用',
    ]);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain(
      '保险责任每人限额每次事故限额累计限额免赔额从业人员伤亡（死亡/伤残）¥500,000.00——无',
    );
    expect(text).toContain('事故应急救援费用—¥500,000.00¥1,000,000.00无');
    expect(text).toContain('法律诉讼费用—¥100,000.00¥200,000.00无');
    expect(text).toContain('保费按整单计收，不按保险责任分列：合计¥30,500.00');
    expect(text).not.toContain('工程造价1000万元及以下部分');
    const detail = await order(o.id, ctrA);
    expect(detail).toMatchObject({ consumedFen: 3_050_000, approvedCount: 1 });
    expect(detail.policies).toEqual([expect.objectContaining({ policyId: d.policyId, declarationId: d.id })]);
    expect(d.events.map((e) => e.action)).toEqual([
      'create',
      'submit',
      'review_return',
      'update',
      'submit',
      'review_approve',
      'issue',
    ]);
    // Approved is final for the contractor.
    expect((await submit(ctrA, d)).statusCode).toBe(409);
  });

  it('reject releases the quota; cancel releases a returned reservation', async () => {
    const o = await openOrder(customerA);
    const d = await declare(ctrA, o.id);
    const sent: Declaration = (await submit(ctrA, d)).json();
    expect((await order(o.id)).consumedFen).toBe(650_000);
    expect((await decide(sent, 'reject', '工程不在承保区域')).statusCode).toBe(200);
    expect(await load(d.id, ctrA)).toMatchObject({ status: 'REJECTED', reservedFen: 0, policyId: null });
    expect((await order(o.id)).consumedFen).toBe(0);
    // Rejected is final: nothing else moves it.
    expect((await submit(ctrA, await load(d.id, ctrA))).statusCode).toBe(409);

    const e = await declare(ctrA, o.id);
    const pending: Declaration = (await submit(ctrA, e)).json();
    await decide(pending, 'return', '补充资料');
    const returned = await load(e.id, ctrA);
    const cancelled = await ctrA.post(`/api/project-declarations/${e.id}/cancel`, {
      version: returned.version,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED', reservedFen: 0 });
    expect((await order(o.id)).consumedFen).toBe(0);
  });

  it('only the declarer (or their agent) changes a declaration: 403 for a colleague, reads allowed', async () => {
    const o = await openOrder(customerA);
    const d = await declare(ctrA, o.id);
    expect((await ctrA2.get(`/api/project-declarations/${d.id}`)).statusCode).toBe(200);
    expect((await submit(ctrA2, d)).statusCode).toBe(403);
    expect((await load(d.id, ctrA2)).actions).toEqual([]);
  });
});

describe('isolation between contractors', () => {
  it('another contractor gets 404 for an order and its declarations, and never lists them', async () => {
    const a = await openOrder(customerA);
    const b = await openOrder(customerB);
    const d = await declare(ctrA, a.id);
    expect((await ctrB.get(`/api/project-orders/${a.id}`)).statusCode).toBe(404);
    expect((await ctrB.get(`/api/project-declarations/${d.id}`)).statusCode).toBe(404);
    expect((await ctrB.post(`/api/project-orders/${a.id}/declarations`, project())).statusCode).toBe(404);
    expect((await submit(ctrB, d)).statusCode).toBe(404);
    const cancel = await ctrB.post(`/api/project-declarations/${d.id}/cancel`, { version: d.version });
    expect(cancel.statusCode).toBe(404);

    const listB = (await ctrB.get('/api/project-orders?size=100')).json();
    expect(listB.content.map((r: { id: number }) => r.id)).toEqual([b.id]);
    const declB = (await ctrB.get(`/api/project-declarations?orderId=${a.id}`)).json();
    expect(declB).toEqual({ content: [], totalElements: 0 });
    const listA = (await ctrA.get('/api/project-orders?size=100')).json();
    expect(listA.content.map((r: { id: number }) => r.id)).not.toContain(b.id);
    // The other contractor cannot declare on their own order as someone else's either: B declares on B.
    expect((await ctrA.post(`/api/project-orders/${b.id}/declarations`, project())).statusCode).toBe(404);
  });

  it('agents see and declare for their own clients only; staff see everything', async () => {
    const mine = await openOrder(agentClient);
    const other = await openOrder(customerA);
    expect((await w.agent.get(`/api/project-orders/${mine.id}`)).json().canDeclare).toBe(true);
    expect((await w.agent.get(`/api/project-orders/${other.id}`)).statusCode).toBe(404);
    expect((await w.agent2.get(`/api/project-orders/${mine.id}`)).statusCode).toBe(404);
    const d = await declare(w.agent, mine.id);
    expect(d.status).toBe('DRAFT');
    expect((await w.underwriter.get(`/api/project-declarations/${d.id}`)).statusCode).toBe(200);
    // Without the permission: 403 (an enterprise account has none of project_order:*).
    expect((await w.ent.get('/api/project-orders')).statusCode).toBe(403);
  });
});

describe('exports', () => {
  it('exports the annual orders and the declarations the caller sees', async () => {
    const o = await openOrder(customerB);
    await declare(ctrB, o.id, { projectName: '导出测试工程' });
    const orders = await ctrB.get('/api/project-orders/download');
    expect(orders.statusCode).toBe(200);
    const rows = await readXlsx(orders.rawPayload);
    expect(rows[0]).toEqual(expect.arrayContaining(['年度订单号', '保费额度（元）', '剩余额度（元）']));
    expect(rows.slice(1).every((r) => r.includes(usccB))).toBe(true);
    const declarations = await ctrB.get(`/api/project-declarations/download?orderId=${o.id}`);
    const drows = await readXlsx(declarations.rawPayload);
    expect(drows).toHaveLength(2);
    expect(drows[1]).toEqual(expect.arrayContaining(['导出测试工程', '10000000.00', '6500.00', '草稿']));
  });
});
