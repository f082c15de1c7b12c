// GET /api/dashboard against hand-counted fixtures: applications and policies made through the real API, a few
// timestamps moved so the age buckets, the days and the expiry windows have something to sort.
import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { ISSUER_CODE } from '@piibs/shared/coinsurance';
import type { DashboardAnswer } from '@piibs/shared/dashboard';
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDept, client, roleWith, rootDept, setDept } from '../../../test/admin.ts';
import { createUser, tokenFor } from '../../../test/auth.ts';
import { attachMaterials, type Client, customerForm, newUscc } from '../../../test/business.ts';
import {
  loginAttempts,
  policies,
  preventionFunds,
  preventionPlanItems,
  reviewTasks,
  serviceComplaints,
  serviceHazards,
  serviceOrders,
  serviceOrgMembers,
  serviceOrgs,
  sessions,
} from '../../db/schema.ts';
import {
  type AppDetail,
  approvedCustomer,
  cashier,
  createPayWorld,
  type PayWorld,
  pendingPayment,
  startPay,
} from '../payments/test-fixtures.ts';

let w: PayWorld;
let manager: Client;
let service: Client;
/** Staff of the two service organisations: A serves P1, B serves P3. */
let staffA: Client;
let staffB: Client;
const orgIds = { a: 0, b: 0 };
let contractor: Client;
const today = shanghaiToday();
/** The policies: P1 (enterprise, co-insured), P2 (enterprise), P3 (the second enterprise). */
const premium = { p1: 0, p2: 0, p3: 0 };
/** Their prevention fees, and what the funds of P1 and P3 have planned and spent. */
const fee = { p1: 0, p2: 0, p3: 0 };
const fund = { planned1: 0, spent1: 0, planned3: 0, spent3: 0 };
const policyIds = { p1: 0, p2: 0, p3: 0 };

async function issued(who: Client, a: AppDetail): Promise<number> {
  const start = await startPay(who, a.id);
  const res = await cashier(w, start.cashierUrl, 'pay');
  if (res.statusCode !== 303) throw new Error(res.body);
  const result = (await who.get(`/api/payments/${start.payId}`)).json();
  if (!result.policyId) throw new Error(`no policy: ${JSON.stringify(result)}`);
  return result.policyId;
}

async function productId(): Promise<number> {
  const r = await w.t.database.pool.query("select id from product where code = 'AZX_GM_2025'");
  return Number(r.rows[0].id);
}

async function draft(who: Client, customerId: number): Promise<AppDetail> {
  const res = await who.post('/api/applications', { productId: await productId(), customerId });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}

async function submitted(who: Client, customerId: number): Promise<AppDetail> {
  const a = await draft(who, customerId);
  await attachMaterials(who, a.id);
  const res = await who.post(`/api/applications/${a.id}/submit`, { version: a.version });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}

async function dashboard(who: Client, query = ''): Promise<DashboardAnswer> {
  const res = await who.get(`/api/dashboard${query}`);
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json();
}

const setTaskAge = (where: ReturnType<typeof and>, interval: string) =>
  w.t.database.db
    .update(reviewTasks)
    .set({ createdAt: sql`now() - ${interval}::interval` })
    .where(where);

beforeAll(async () => {
  w = await createPayWorld();
  const db = w.t.database.db;

  // Two departments: the first enterprise's account sits in A, the second's in B; a manager of A.
  const root = await rootDept(w.t);
  const deptA = await addDept(w.t, '镇江分公司', root);
  const deptB = await addDept(w.t, '扬州分公司', root);
  await setDept(w.t, w.ids.ent, deptA);
  await setDept(w.t, w.ids.ent2, deptB);
  await roleWith(w.t, 'deptmgr', ['application:list'], { dataScope: 'department' });
  const mgrId = await createUser(w.t, { username: 'mgr', roles: ['deptmgr'] });
  await setDept(w.t, mgrId, deptA);
  manager = client(w.t, await tokenFor(w.t, 'mgr'));
  await createUser(w.t, { username: 'svc', roles: ['service'], channel: 'service' });
  service = client(w.t, await tokenFor(w.t, 'svc'));
  await createUser(w.t, { username: 'builder', roles: ['contractor'] });
  contractor = client(w.t, await tokenFor(w.t, 'builder'));

  // The first enterprise: two policies (one co-insured), one waiting for payment, one in review, one draft.
  const a1 = await pendingPayment(w, w.ent, w.entCustomerId, {
    coinsurers: [
      { insurerCode: ISSUER_CODE, lead: true, share: '60' },
      { insurerCode: 'CPIC', lead: false, share: '25.5' },
      { insurerCode: 'PAIC', lead: false, share: '14.5' },
    ],
  });
  policyIds.p1 = await issued(w.ent, a1);
  premium.p1 = a1.premiumFen;
  fee.p1 = a1.preventionFeeFen;
  const a2 = await pendingPayment(w, w.ent, w.entCustomerId);
  policyIds.p2 = await issued(w.ent, a2);
  premium.p2 = a2.premiumFen;
  fee.p2 = a2.preventionFeeFen;
  await pendingPayment(w, w.ent, w.entCustomerId);
  const inReview = await submitted(w.ent, w.entCustomerId);
  await draft(w.ent, w.entCustomerId);

  // The second enterprise: one policy and one application returned with an opinion.
  const a3 = await pendingPayment(w, w.ent2, w.ent2CustomerId);
  policyIds.p3 = await issued(w.ent2, a3);
  premium.p3 = a3.premiumFen;
  fee.p3 = a3.preventionFeeFen;
  const toReturn = await submitted(w.ent2, w.ent2CustomerId);
  const task = (await w.underwriter.get(`/api/tasks/${toReturn.openTaskId}`)).json();
  const ret = await w.underwriter.post(`/api/tasks/${task.id}/decide`, {
    decision: 'return',
    version: task.version,
    opinion: '请补充从业人员名单',
  });
  if (ret.statusCode !== 200) throw new Error(ret.body);
  // The return was three days ago.
  await db
    .update(reviewTasks)
    .set({ decidedAt: sql`now() - interval '3 days'` })
    .where(eq(reviewTasks.id, task.id));

  // The agent: an approved client with an application waiting for payment, and a client waiting for review
  // (five days now). The second agent: an approved client and a draft.
  const agentClient = await approvedCustomer(w, w.agent);
  await pendingPayment(w, w.agent, agentClient);
  const pending = (await w.agent.post('/api/customers', customerForm())).json();
  await setTaskAge(and(eq(reviewTasks.kind, 'customer'), eq(reviewTasks.subjectId, pending.id)), '5 days');
  await setTaskAge(
    and(eq(reviewTasks.kind, 'application'), eq(reviewTasks.subjectId, inReview.id)),
    '2 hours',
  );
  const agent2Client = await approvedCustomer(w, w.agent2);
  await draft(w.agent2, agent2Client);

  // Expiry: P1 in 10 days, P2 in 45, P3 in 80. Issue: P2 three days ago.
  for (const [id, days] of [
    [policyIds.p1, 10],
    [policyIds.p2, 45],
    [policyIds.p3, 80],
  ] as const) {
    await db
      .update(policies)
      .set({ endDate: addDays(today, days) })
      .where(eq(policies.id, id));
  }
  await db
    .update(policies)
    .set({ issuedAt: sql`now() - interval '3 days'` })
    .where(eq(policies.id, policyIds.p2));

  // Prevention: P1's fund has planned a quarter and spent a fifth of its fee, with orders dispatched (three days
  // ago), under rectification and closed, all served by organisation A; P3's a half and nothing, one order in
  // service and one under rectification, served by B. P2 has no fund row yet (nothing planned).
  const [orgA, orgB] = await db
    .insert(serviceOrgs)
    .values([
      { code: newUscc(), name: '镇江安全生产服务中心' },
      { code: newUscc(), name: '扬州安全技术服务公司' },
    ])
    .returning({ id: serviceOrgs.id });
  orgIds.a = orgA!.id;
  orgIds.b = orgB!.id;
  const staffIds = [
    await createUser(w.t, { username: 'svca', roles: ['service'], channel: 'service' }),
    await createUser(w.t, { username: 'svcb', roles: ['service'], channel: 'service' }),
  ];
  await db.insert(serviceOrgMembers).values([
    { userId: staffIds[0]!, orgId: orgIds.a },
    { userId: staffIds[1]!, orgId: orgIds.b },
  ]);
  staffA = client(w.t, await tokenFor(w.t, 'svca'));
  staffB = client(w.t, await tokenFor(w.t, 'svcb'));
  fund.planned1 = Math.floor(fee.p1 / 4);
  fund.spent1 = Math.floor(fee.p1 / 5);
  fund.planned3 = Math.floor(fee.p3 / 2);
  const orders: [number, number, number, number, string[]][] = [
    [policyIds.p1, fund.planned1, fund.spent1, orgIds.a, ['DISPATCHED', 'CONFIRMED', 'CLOSED']],
    [policyIds.p3, fund.planned3, 0, orgIds.b, ['IN_SERVICE', 'CONFIRMED']],
  ];
  /** The orders' ids by organisation and state. */
  const orderOf: Record<string, number> = {};
  for (const [policyId, plannedFen, spentFen, orgId, statuses] of orders) {
    const [p] = await db.select().from(policies).where(eq(policies.id, policyId));
    const [f] = await db
      .insert(preventionFunds)
      .values({ policyId, seqNo: `YF${p!.number}`, totalFen: p!.preventionFeeFen, plannedFen, spentFen })
      .returning({ id: preventionFunds.id });
    const [item] = await db
      .insert(preventionPlanItems)
      .values({
        fundId: f!.id,
        itemType: 'HAZARD_INSPECTION',
        frequency: 'QUARTERLY',
        times: 4,
        unitCostFen: 100,
        reservedFen: 400,
        orgId,
      })
      .returning({ id: preventionPlanItems.id });
    const made = await db
      .insert(serviceOrders)
      .values(
        statuses.map((status, i) => ({
          number: `YF${p!.number}-${String(i + 1).padStart(3, '0')}`,
          fundId: f!.id,
          policyId,
          planItemId: item!.id,
          orgId,
          itemType: 'HAZARD_INSPECTION',
          scheduledDate: addDays(today, 7),
          costFen: 100,
          status,
        })),
      )
      .returning({ id: serviceOrders.id, status: serviceOrders.status });
    for (const o of made) orderOf[`${orgId === orgIds.a ? 'A' : 'B'}.${o.status}`] = o.id;
  }
  await db
    .update(serviceOrders)
    .set({ createdAt: sql`now() - interval '3 days'` })
    .where(eq(serviceOrders.id, orderOf['A.DISPATCHED']!));
  // Hazards. A, under rectification: one past its deadline, one due today, one due in 5 days, one rectified.
  // B: one past its deadline under rectification, and one recorded on the order still in service (not yet
  // confirmed by the enterprise, so not awaiting rectification).
  const hazard = (order: string, seq: number, days: number, status = 'OPEN') => ({
    orderId: orderOf[order]!,
    seq,
    description: `隐患 ${seq}`,
    level: 'GENERAL',
    deadline: addDays(today, days),
    status,
  });
  await db
    .insert(serviceHazards)
    .values([
      hazard('A.CONFIRMED', 1, -1),
      hazard('A.CONFIRMED', 2, 0),
      hazard('A.CONFIRMED', 3, 5),
      hazard('A.CONFIRMED', 4, -3, 'RECTIFIED'),
      hazard('B.CONFIRMED', 1, -2),
      hazard('B.IN_SERVICE', 1, -2),
    ]);
  // Complaints: A has one awaiting a reply (due in 8 days) and one replied; B one past its reply deadline.
  const complaint = (order: string, days: number, status = 'OPEN') => ({
    orderId: orderOf[order]!,
    content: '服务不及时',
    complainedOn: addDays(today, days - 14),
    deadline: addDays(today, days),
    status,
    reply: status === 'OPEN' ? null : '已补充服务',
  });
  await db
    .insert(serviceComplaints)
    .values([
      complaint('A.CLOSED', 8),
      complaint('A.CONFIRMED', -5, 'REPLIED'),
      complaint('B.CONFIRMED', -2),
    ]);

  // Sign-ins five days ago: two successes and a failure.
  const [adminRow] = await w.t.database.pool
    .query("select id from app_user where username = 'admin'")
    .then((r) => r.rows);
  const fiveDaysAgo = sql`now() - interval '5 days'`;
  await db.insert(loginAttempts).values([
    {
      username: 'admin',
      userId: Number(adminRow.id),
      method: 'password',
      success: true,
      createdAt: fiveDaysAgo,
    },
    {
      username: 'admin',
      userId: Number(adminRow.id),
      method: 'password',
      success: true,
      createdAt: fiveDaysAgo,
    },
    { username: 'ghost', userId: null, method: 'password', success: false, createdAt: fiveDaysAgo },
  ]);
}, 120_000);
afterAll(() => w.t.close());

/** The co-insurers' premium of P1 by the domain's rule: followers floor(total × share), the lead the rest. */
function coinsuredShares() {
  const cpic = Math.floor((premium.p1 * 25_500_000) / 100_000_000);
  const paic = Math.floor((premium.p1 * 14_500_000) / 100_000_000);
  return { [ISSUER_CODE]: premium.p1 - cpic - paic, CPIC: cpic, PAIC: paic };
}

describe('role gating', () => {
  it('each role gets its own sections, nobody gets a 403', async () => {
    const sections = (a: DashboardAnswer) =>
      (['review', 'business', 'management', 'service', 'system'] as const).filter((k) => a[k] !== undefined);
    expect(sections(await dashboard(w.admin))).toEqual(['review', 'management', 'system']);
    expect(sections(await dashboard(w.underwriter))).toEqual(['review', 'management']);
    expect(sections(await dashboard(w.agent))).toEqual(['business']);
    expect(sections(await dashboard(w.ent))).toEqual(['business']);
    expect(sections(await dashboard(contractor))).toEqual(['business']);
    expect(sections(await dashboard(manager))).toEqual(['management']);
    // A service account in no organisation has nothing to count; its organisation's staff get theirs.
    expect(sections(await dashboard(service))).toEqual([]);
    expect(sections(await dashboard(staffA))).toEqual(['service']);
    expect(sections(await dashboard(w.nobody))).toEqual([]);
  });

  it('401 without a session; 400 for a bad range', async () => {
    expect((await w.t.app.inject({ method: 'GET', url: '/api/dashboard' })).statusCode).toBe(401);
    let res = await w.admin.get('/api/dashboard?from=2026-02-30');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^开始日期：/);
    res = await w.admin.get('/api/dashboard?from=2026-03-02&to=2026-03-01');
    expect(res.json()).toEqual({
      status: 400,
      message: '结束日期：不能早于开始日期',
      errors: [{ field: 'to', message: '不能早于开始日期' }],
    });
    res = await w.admin.get('/api/dashboard?from=2024-01-01&to=2025-12-31');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('366');
  });

  it('the range defaults to the last 30 days, by day; longer ranges go by month', async () => {
    const a = await dashboard(w.ent);
    expect(a.range).toEqual({ from: addDays(today, -29), to: today, days: 30, granularity: 'day' });
    const y = await dashboard(w.admin, `?from=${addDays(today, -99)}&to=${today}`);
    expect(y.range).toMatchObject({ days: 100, granularity: 'month' });
    expect(y.management!.premiumTrend.every((p) => /^\d{4}-\d{2}$/.test(p.period))).toBe(true);
  });
});

describe('business (holders of applications)', () => {
  it('the enterprise: its applications by state with the next action, the funnel, the expiring policies', async () => {
    const b = (await dashboard(w.ent)).business!;
    expect(b.applications).toEqual([
      { status: 'DRAFT', label: '草稿', count: 1, action: { key: 'continue', label: '继续填写' } },
      {
        status: 'PENDING_REVIEW',
        label: '待审核',
        count: 1,
        action: { key: 'await_review', label: '等待审核' },
      },
      { status: 'PENDING_PAYMENT', label: '待支付', count: 1, action: { key: 'pay', label: '去支付' } },
      { status: 'ISSUED', label: '已出单', count: 2, action: { key: 'view_policy', label: '查看保单' } },
    ]);
    expect(b.applicationsTotal).toBe(5);
    expect(b.funnel.map((s) => [s.stage, s.count])).toEqual([
      ['created', 5],
      ['submitted', 4],
      ['approved', 3],
      ['paid', 2],
      ['issued', 2],
    ]);
    expect(b.expiring).toEqual([
      { withinDays: 30, count: 1, premiumFen: premium.p1 },
      { withinDays: 60, count: 2, premiumFen: premium.p1 + premium.p2 },
      { withinDays: 90, count: 2, premiumFen: premium.p1 + premium.p2 },
    ]);
    expect(b.expiringSoon.map((p) => [p.id, p.daysLeft])).toEqual([
      [policyIds.p1, 10],
      [policyIds.p2, 45],
    ]);
  });

  it('the second enterprise sees only its own', async () => {
    const b = (await dashboard(w.ent2)).business!;
    expect(b.applications.map((r) => [r.status, r.count, r.action?.label ?? null])).toEqual([
      ['RETURNED', 1, '修改后重新提交'],
      ['ISSUED', 1, '查看保单'],
    ]);
    expect(b.expiring.map((e) => e.count)).toEqual([0, 0, 1]);
    expect(b.expiringSoon.map((p) => p.id)).toEqual([policyIds.p3]);
  });

  it('an agent sees only their clients; a contractor with nothing sees zeros, not a made-up series', async () => {
    const agent = (await dashboard(w.agent)).business!;
    expect(agent.applications.map((r) => [r.status, r.count])).toEqual([['PENDING_PAYMENT', 1]]);
    expect(agent.expiring.map((e) => e.count)).toEqual([0, 0, 0]);
    const agent2 = (await dashboard(w.agent2)).business!;
    expect(agent2.applications.map((r) => [r.status, r.count])).toEqual([['DRAFT', 1]]);
    const none = (await dashboard(contractor)).business!;
    expect(none).toMatchObject({ applications: [], applicationsTotal: 0, expiringSoon: [] });
    expect(none.funnel.every((s) => s.count === 0)).toBe(true);
  });
});

describe('review (underwriters)', () => {
  it('open tasks by age and kind; decisions per day', async () => {
    const r = (await dashboard(w.underwriter)).review!;
    expect(r.kinds.map((k) => k.kind)).toEqual(['customer', 'application']);
    expect(r.openTotal).toBe(2);
    expect(r.byAge.map((b) => [b.bucket, b.customer, b.application, b.total])).toEqual([
      ['lt1h', 0, 0, 0],
      ['h1to24', 0, 1, 1],
      ['d1to3', 0, 0, 0],
      ['gt3d', 1, 0, 1],
    ]);
    expect(r.oldestAgeSeconds).toBeGreaterThanOrEqual(5 * 86_400 - 60);
    // Approved: four customers (two enterprises, two agents' clients) and five applications.
    expect(r.decisionTotals).toEqual({ approve: 9, return: 1, reject: 0 });
    expect(r.decisions).toHaveLength(30);
    const day = (d: string) => r.decisions.find((p) => p.period === d);
    expect(day(today)).toEqual({ period: today, approve: 9, return: 0, reject: 0 });
    expect(day(addDays(today, -3))).toEqual({ period: addDays(today, -3), approve: 0, return: 1, reject: 0 });
    expect(r.decisions.filter((p) => p.approve + p.return + p.reject > 0)).toHaveLength(2);
  });
});

describe('management (premium in the data scope)', () => {
  it('the administrator: premium by day and by product, co-insured shares, payments received', async () => {
    const m = (await dashboard(w.admin)).management!;
    const all = premium.p1 + premium.p2 + premium.p3;
    expect(m.totals).toEqual({ premiumFen: all, paidFen: all, policies: 3 });
    expect(m.premiumTrend).toHaveLength(30);
    const day = (d: string) => m.premiumTrend.find((p) => p.period === d);
    expect(day(today)).toEqual({ period: today, premiumFen: premium.p1 + premium.p3, policies: 2 });
    expect(day(addDays(today, -3))).toEqual({
      period: addDays(today, -3),
      premiumFen: premium.p2,
      policies: 1,
    });
    expect(m.byProduct).toEqual([
      expect.objectContaining({ productCode: 'AZX_GM_2025', premiumFen: all, policies: 3 }),
    ]);
    const shares = coinsuredShares();
    expect(Object.fromEntries(m.coinsurance.map((c) => [c.insurerCode, c.premiumFen]))).toEqual(shares);
    expect(m.coinsurance.map((c) => [c.insurerCode, c.insurerName])).toEqual([
      [ISSUER_CODE, '测试财产保险股份有限公司'],
      ['CPIC', '中国太平洋财产保险股份有限公司'],
      ['PAIC', '中国平安财产保险股份有限公司'],
    ]);
    expect(m.coinsurance.every((c) => c.policies === 1)).toBe(true);
    expect(fee.p1 > 0 && fee.p2 > 0 && fee.p3 > 0).toBe(true);
    expect(m.prevention).toEqual({
      policies: 3,
      totalFen: fee.p1 + fee.p2 + fee.p3,
      plannedFen: fund.planned1 + fund.planned3,
      spentFen: fund.spent1,
      leftFen: fee.p1 + fee.p2 + fee.p3 - fund.planned1 - fund.planned3 - fund.spent1,
    });
    expect(m.serviceOrders).toEqual([
      { status: 'DISPATCHED', label: '已派单', count: 1 },
      { status: 'IN_SERVICE', label: '服务中', count: 1 },
      { status: 'CONFIRMED', label: '整改跟踪中', count: 2 },
      { status: 'CLOSED', label: '已完成', count: 1 },
    ]);
  });

  it("a department manager's figures cover only their departments", async () => {
    const m = (await dashboard(manager)).management!;
    expect(m.totals).toEqual({
      premiumFen: premium.p1 + premium.p2,
      paidFen: premium.p1 + premium.p2,
      policies: 2,
    });
    expect(m.byProduct.map((p) => p.policies)).toEqual([2]);
    expect(m.coinsurance.reduce((s, c) => s + c.premiumFen, 0)).toBe(premium.p1);
    expect(m.prevention).toEqual({
      policies: 2,
      totalFen: fee.p1 + fee.p2,
      plannedFen: fund.planned1,
      spentFen: fund.spent1,
      leftFen: fee.p1 + fee.p2 - fund.planned1 - fund.spent1,
    });
    expect(m.serviceOrders.map((o) => [o.status, o.count])).toEqual([
      ['DISPATCHED', 1],
      ['CONFIRMED', 1],
      ['CLOSED', 1],
    ]);
  });

  it('the range limits the figures: yesterday and before excludes today', async () => {
    const m = (await dashboard(w.admin, `?from=${addDays(today, -7)}&to=${addDays(today, -1)}`)).management!;
    expect(m.totals).toEqual({ premiumFen: premium.p2, paidFen: 0, policies: 1 });
    expect(m.coinsurance).toEqual([]);
  });
});

describe('service (staff of a service organisation)', () => {
  it("an organisation's staff see its own orders, hazards and complaints, never another organisation's", async () => {
    const a = (await dashboard(staffA)).service!;
    expect(a.org).toEqual({ id: orgIds.a, name: '镇江安全生产服务中心' });
    expect(a.orders).toEqual([
      { status: 'DISPATCHED', label: '已派单', count: 1 },
      { status: 'CONFIRMED', label: '整改跟踪中', count: 1 },
      { status: 'CLOSED', label: '已完成', count: 1 },
    ]);
    expect(a.ordersTotal).toBe(3);
    expect(a.dispatched).toHaveLength(30);
    expect(a.dispatched.filter((p) => p.orders > 0)).toEqual([
      { period: addDays(today, -3), orders: 1 },
      { period: today, orders: 2 },
    ]);
    // Due today is not yet overdue; the rectified one is not counted.
    expect(a.hazards).toEqual({ overdue: 1, upcoming: 2 });
    expect(a.complaints).toEqual({ open: 1, overdue: 0 });

    const b = (await dashboard(staffB)).service!;
    expect(b.org.id).toBe(orgIds.b);
    expect(b.orders.map((o) => [o.status, o.count])).toEqual([
      ['IN_SERVICE', 1],
      ['CONFIRMED', 1],
    ]);
    expect(b.ordersTotal).toBe(2);
    // The hazard of the order still in service waits for the enterprise's confirmation, not for rectification.
    expect(b.hazards).toEqual({ overdue: 1, upcoming: 0 });
    expect(b.complaints).toEqual({ open: 1, overdue: 1 });
  });

  it('the range limits the dispatch trend only; the states, hazards and complaints are as they are now', async () => {
    const a = (await dashboard(staffA, `?from=${addDays(today, -7)}&to=${addDays(today, -1)}`)).service!;
    expect(a.dispatched).toHaveLength(7);
    expect(a.dispatched.reduce((sum, p) => sum + p.orders, 0)).toBe(1);
    expect(a.ordersTotal).toBe(3);
    expect(a.hazards).toEqual({ overdue: 1, upcoming: 2 });
  });
});

describe('system (administrators)', () => {
  it('database up, sessions online, sign-ins per day', async () => {
    const s = (await dashboard(w.admin, `?from=${addDays(today, -6)}&to=${today}`)).system!;
    expect(s.database.up).toBe(true);
    const [live] = await w.t.database.db
      .select({ n: count() })
      .from(sessions)
      .where(and(isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)));
    expect(s.sessionsOnline).toBe(live!.n);
    expect(s.signIns).toHaveLength(7);
    expect(s.signIns.find((p) => p.period === addDays(today, -5))).toEqual({
      period: addDays(today, -5),
      success: 2,
      failure: 1,
    });
  });
});

describe('caching', () => {
  it('answers the same figures for 30 s per user and range; another range is computed afresh', async () => {
    const range = `?from=${addDays(today, -10)}&to=${addDays(today, -4)}`;
    const first = await dashboard(w.admin, range);
    await w.t.database.db.insert(loginAttempts).values({
      username: 'ghost',
      method: 'password',
      success: false,
      createdAt: sql`now() - interval '5 days'`,
    });
    const second = await dashboard(w.admin, range);
    expect(second.generatedAt).toBe(first.generatedAt);
    expect(second.system!.signInTotals).toEqual(first.system!.signInTotals);
    const fresh = await dashboard(w.admin, `?from=${addDays(today, -11)}&to=${addDays(today, -4)}`);
    expect(fresh.system!.signInTotals.failure).toBe(first.system!.signInTotals.failure + 1);
  });
});
