import { earliestStart } from '@piibs/shared/application-status';
import { ISSUER_CODE } from '@piibs/shared/coinsurance';
import { yuan } from '@piibs/shared/money';
import { monthsEnd } from '@piibs/shared/short-period';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, expectDownloadName, readXlsx } from '../../../test/admin.ts';
import { createUser, tokenFor } from '../../../test/auth.ts';
import {
  attachMaterials,
  type Client,
  createWorld,
  customerForm,
  type World,
} from '../../../test/business.ts';
import { applicationCoinsurers, auditLog, products, reviewTasks, users } from '../../db/schema.ts';
import { HttpError } from '../../lib/errors.ts';
import { applyApplicationReview } from './transitions.ts';

let w: World;
let uw2: Client;
let contractor: Client;
let entCustomerId: number;
let agentCustomerId: number;
let agent2CustomerId: number;
beforeAll(async () => {
  w = await createWorld();
  await createUser(w.t, { username: 'uw2', roles: ['underwriter'] });
  await createUser(w.t, { username: 'ctr', roles: ['contractor'] });
  uw2 = client(w.t, await tokenFor(w.t, 'uw2'));
  contractor = client(w.t, await tokenFor(w.t, 'ctr'));
  entCustomerId = await approvedCustomer(w.ent, { uscc: w.entUscc });
  agentCustomerId = await approvedCustomer(w.agent);
  agent2CustomerId = await approvedCustomer(w.agent2);
});
afterAll(() => w.t.close());

/** The application's audit entry for `action` (the first, if several). */
async function auditEntry(id: number, action: string) {
  const [entry] = await w.t.database.db
    .select()
    .from(auditLog)
    .where(
      and(eq(auditLog.entity, 'application'), eq(auditLog.entityId, String(id)), eq(auditLog.action, action)),
    );
  return entry;
}

type App = {
  id: number;
  number: string;
  version: number;
  status: string;
  premiumFen: number | null;
  preventionFeeFen: number | null;
  quote: {
    rateTableId: number;
    rateTableVersion: number;
    premiumFen: number;
    input: Record<string, unknown>;
    factors: { code: string; multiplier: number }[];
  } | null;
  quoteProblem?: string | null;
  issuerLeads: boolean;
  issuerName: string;
  openTaskId: number | null;
  actions: string[];
  coinsurers: {
    insurerCode: string;
    insurerName: string | null;
    lead: boolean;
    share: number;
    premiumFen: number;
    preventionFeeFen: number;
  }[];
  paymentOrder: { amountFen: number; status: string; expiresAt: string } | null;
  reviewOpinion: string | null;
};

async function approvedCustomer(who: Client, over: Parameters<typeof customerForm>[0] = {}): Promise<number> {
  const res = await who.post('/api/customers', customerForm(over));
  if (res.statusCode !== 200) throw new Error(res.body);
  const c = res.json();
  const task = (await w.underwriter.get(`/api/tasks/${c.openTaskId}`)).json();
  const d = await w.underwriter.post(`/api/tasks/${task.id}/decide`, {
    decision: 'approve',
    version: task.version,
  });
  if (d.statusCode !== 200) throw new Error(d.body);
  return c.id;
}

async function productId(code: string): Promise<number> {
  const [p] = await w.t.database.db.select({ id: products.id }).from(products).where(eq(products.code, code));
  return p!.id;
}

async function create(who: Client, customerId: number, code = 'AZX_GM_2025'): Promise<App> {
  const res = await who.post('/api/applications', { productId: await productId(code), customerId });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}
/** A valid co-insurance table: the issuer leads with 70%, PICC 30%. */
const SHARES = [
  { insurerCode: ISSUER_CODE, lead: true, share: '70' },
  { insurerCode: 'PICC', lead: false, share: '30' },
];
const draft = (who: Client, a: App, fields: Record<string, unknown>) =>
  who.post(`/api/applications/${a.id}/draft`, { version: a.version, ...fields });
const submit = (who: Client, a: App) => who.post(`/api/applications/${a.id}/submit`, { version: a.version });
const cancel = (who: Client, a: App) => who.post(`/api/applications/${a.id}/cancel`, { version: a.version });
const load = async (id: number, who: Client = w.underwriter): Promise<App> =>
  (await who.get(`/api/applications/${id}`)).json();
async function decide(who: Client, a: App, decision: string, opinion?: string) {
  const task = (await who.get(`/api/tasks/${a.openTaskId}`)).json();
  return who.post(`/api/tasks/${task.id}/decide`, {
    decision,
    version: task.version,
    ...(opinion ? { opinion } : {}),
  });
}
/** An application of the enterprise with the documents its product requires, submitted (PENDING_REVIEW). */
async function pending(who: Client = w.ent, customerId = entCustomerId): Promise<App> {
  const a = await create(who, customerId);
  await attachMaterials(who, a.id);
  const res = await submit(who, a);
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}

describe('rating through the API (hand-computed, integer fen, rounded once)', () => {
  it('work safety per head: 50 heads of C/34 at 500,000 yuan = 11,600.00 yuan, prevention 15% = 1,740.00', async () => {
    const a = await create(w.ent, entCustomerId);
    // death 50 × 50,000,000 × 0.38‰ = 950,000; medical 50 × 5,000,000 × 0.6‰ = 150,000;
    // third-party 500,000,000 × 0.1‰ = 50,000; rescue 100,000,000 × 0.1‰ = 10,000
    expect(a).toMatchObject({
      status: 'DRAFT',
      premiumFen: 1_160_000,
      preventionFeeFen: 174_000,
      quoteProblem: null,
    });
    expect(a.number).toMatch(/^AZX\d{4}\d{6}$/);
    expect(a.quote).toMatchObject({ rateTableVersion: 1, premiumFen: 1_160_000 });
    // factors: no accident ×0.9, level-3 award ×0.95 → 1,160,000 × 0.855 = 991,800
    const res = await draft(w.ent, a, { factors: { ACCIDENT_HISTORY: 'NONE', SAFETY_AWARD: 'LEVEL3' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ premiumFen: 991_800, preventionFeeFen: 148_770 });
    expect(res.json().quote.factors.map((f: { multiplier: number }) => f.multiplier)).toEqual([
      9_000, 9_500, 10_000,
    ]);
    // 21% prevention and 10 heads at the 400,000 tier:
    // (10×40,000,000×0.4‰ + 10×5,000,000×0.6‰ + 50,000 + 10,000) × 0.855 = 250,000 × 0.855 = 213,750;
    // prevention 213,750 × 21% = 44,887.5 → 44,888 (half up)
    const b = await draft(w.ent, res.json(), {
      preventionRatio: 21_000_000,
      headcount: 10,
      perPersonLimitFen: 40_000_000,
    });
    expect(b.json()).toMatchObject({ premiumFen: 213_750, preventionFeeFen: 44_888 });
    // outside the product's range (15–21%)
    expect((await draft(w.ent, b.json(), { preventionRatio: 14_000_000 })).statusCode).toBe(400);
  });

  it('short period: one month (2026-12-01 … 2026-12-31) is 10% of the twelve-month quote to the fen; the application charges exactly its quote', async () => {
    const id = await productId('AZX_GM_2025');
    const form = { customerId: entCustomerId, headcount: 37, periodStart: '2026-12-01' };
    const year = await w.ent.post(`/api/products/${id}/quote`, form);
    expect(year.statusCode, year.body).toBe(200);
    const month = await w.ent.post(`/api/products/${id}/quote`, { ...form, periodEnd: '2026-12-31' });
    expect(month.statusCode, month.body).toBe(200);
    expect(year.json()).toMatchObject({ input: { periodEnd: '2027-11-30' }, period: { text: '一年期' } });
    const annual = year.json().premiumFen as number;
    expect(month.json()).toMatchObject({
      premiumFen: Math.round(annual / 10),
      preventionFeeFen: Math.round((Math.round(annual / 10) * 15) / 100),
      period: { text: '短期费率 1 个月 10%', annualPremiumFen: annual },
    });
    const bad = await w.ent.post(`/api/products/${id}/quote`, { ...form, periodEnd: '2026-11-30' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('保险止期：不能早于保险起期');

    // An application for one month (a month from the earliest start: never back-dated) charges its quote.
    const start = earliestStart();
    const a = await create(w.ent, entCustomerId);
    const res = await draft(w.ent, a, { headcount: 37, startDate: start, endDate: monthsEnd(start, 1) });
    expect(res.statusCode, res.body).toBe(200);
    const quoted = await w.ent.post(`/api/products/${id}/quote`, {
      ...form,
      periodStart: start,
      periodEnd: monthsEnd(start, 1),
    });
    expect(res.json()).toMatchObject({
      premiumFen: quoted.json().premiumFen,
      quote: { period: { text: '短期费率 1 个月 10%' } },
    });
    await attachMaterials(w.ent, a.id);
    const sent = await submit(w.ent, res.json());
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await decide(w.underwriter, sent.json(), 'approve')).toMatchObject({ statusCode: 200 });
    expect((await load(a.id, w.ent)).paymentOrder).toMatchObject({ amountFen: quoted.json().premiumFen });
  });

  it('construction ‰ of cost by band: 20 million yuan = 12,500.00; high risk ×1.3 = 16,250.00', async () => {
    const a = await create(w.agent, agentCustomerId, 'JZSG_AZX_2025');
    expect(a.number).toMatch(/^JZSG\d{10}$/);
    expect(a.quoteProblem).toBe('工程造价：不能为空');
    const res = await draft(w.agent, a, { projectCostFen: 2_000_000_000 });
    // 1e9 × 0.65‰ + 1e9 × 0.60‰
    expect(res.json()).toMatchObject({ premiumFen: 1_250_000, quoteProblem: null });
    const hi = await draft(w.agent, res.json(), { highRisk: true });
    expect(hi.json()).toMatchObject({ premiumFen: 1_625_000, preventionFeeFen: 243_750 });
  });

  it('a zero or negative project cost or guarantee is refused at its field, never coerced to a fen', async () => {
    const a = await create(w.agent, agentCustomerId, 'JZSG_AZX_2025');
    for (const projectCostFen of [0, -500]) {
      const res = await draft(w.agent, a, { projectCostFen });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        message: '工程造价：须大于 0',
        errors: [{ field: 'projectCostFen', message: '须大于 0' }],
      });
    }
    expect((await draft(w.agent, a, { guaranteeAmountFen: 0 })).json().message).toBe('保证金额：须大于 0');
  });

  it("a project under the product's minimum cost is saved with the problem and cannot be submitted", async () => {
    const a = await create(w.agent, agentCustomerId, 'JZSG_AZX_2025');
    const res = await draft(w.agent, a, { projectCostFen: yuan(50_000) });
    expect(res.json()).toMatchObject({
      premiumFen: null,
      quoteProblem: '工程造价：不能低于本险种最低工程造价 10万元',
    });
  });

  it('rounds once, half up, to the fen: 123,456,789 fen × 0.65‰ = 80,246.91… → 80,247; ×1.3 = 104,320.99 → 104,321', async () => {
    const a = await create(w.agent, agentCustomerId, 'JZSG_AZX_2025');
    const res = await draft(w.agent, a, { projectCostFen: 123_456_789 });
    expect(res.json().premiumFen).toBe(80_247);
    expect((await draft(w.agent, res.json(), { highRisk: true })).json().premiumFen).toBe(104_321);
  });

  it('a stored quote is reproducible from its snapshot (rate-table id + inputs)', async () => {
    const a = await pending();
    const q = a.quote!;
    const input = Object.fromEntries(Object.entries(q.input).filter(([, v]) => v !== null));
    const res = await w.ent.post(`/api/products/${await productId('AZX_GM_2025')}/quote`, {
      ...input,
      rateTableId: q.rateTableId,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ premiumFen: q.premiumFen, rateTableId: q.rateTableId });
  });
});

describe('drafts and periods', () => {
  it('a back-dated period answers 400 naming 保险起期; the end defaults to a year less a day', async () => {
    const a = await create(w.ent, entCustomerId);
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const res = await draft(w.ent, a, { startDate: today });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^保险起期：/);
    const start = earliestStart();
    const ok = await draft(w.ent, a, { startDate: start });
    expect(ok.statusCode, ok.body).toBe(200);
    const [y, m, d] = start.split('-').map(Number) as [number, number, number];
    expect(ok.json().endDate).toBe(new Date(Date.UTC(y + 1, m - 1, d - 1)).toISOString().slice(0, 10));
    const inverted = await draft(w.ent, ok.json(), { endDate: start });
    expect(inverted.json()).toEqual({
      status: 400,
      message: '保险止期：须晚于保险起期',
      errors: [{ field: 'endDate', message: '须晚于保险起期' }],
    });
  });

  it('needs an approved applicant: 400 投保人尚未审核通过', async () => {
    const res = await w.agent.post('/api/customers', customerForm());
    const c = res.json();
    const r = await w.agent.post('/api/applications', {
      productId: await productId('AZX_GM_2025'),
      customerId: c.id,
    });
    expect(r.json()).toEqual({ status: 400, message: '投保人尚未审核通过' });
  });

  it('a stale version answers 409; commission above the cap 400', async () => {
    const a = await create(w.ent, entCustomerId);
    expect((await draft(w.ent, a, { specialTerms: '一' })).statusCode).toBe(200);
    expect((await draft(w.ent, a, { specialTerms: '二' })).json()).toEqual({
      status: 409,
      message: '数据已被他人修改，请刷新后重试',
    });
    const fresh = await load(a.id, w.ent);
    expect((await draft(w.ent, fresh, { commissionRate: 5_000_000 })).statusCode).toBe(200);
    expect((await draft(w.ent, fresh, { commissionRate: 5_000_001 })).statusCode).toBe(400);
  });

  it('submit checks completeness, naming the field', async () => {
    const a = await create(w.agent, agentCustomerId, 'JZSG_AZX_2025');
    const res = await submit(w.agent, a);
    expect(res.json()).toEqual({
      status: 400,
      message: '工程名称：不能为空',
      errors: [{ field: 'projectName', message: '不能为空' }],
    });
  });
});

describe('co-insurance', () => {
  const put = (who: Client, a: App, shares: unknown[]) =>
    who.post(`/api/applications/${a.id}/coinsurers`, { version: a.version, shares });

  it('the issuer is a party (PICC 60% lead + Ping An 40% is refused), the lead unless the product says otherwise', async () => {
    const a = await create(w.ent, entCustomerId);
    expect(a).toMatchObject({ issuerLeads: true, issuerName: '测试财产保险股份有限公司' });
    const without = await put(w.ent, a, [
      { insurerCode: 'PICC', lead: true, share: '60' },
      { insurerCode: 'PAIC', share: '40' },
    ]);
    expect(without.json()).toEqual({
      status: 400,
      message: '共保信息：本公司须为共保人之一',
      errors: [{ field: 'shares', message: '本公司须为共保人之一' }],
    });
    const follower = await put(w.ent, a, [
      { insurerCode: ISSUER_CODE, share: '40' },
      { insurerCode: 'PICC', lead: true, share: '60' },
    ]);
    expect(follower.json().message).toBe('共保信息：本公司须为主承保公司');
    const alone = await put(w.ent, a, [{ insurerCode: ISSUER_CODE, lead: true, share: '100' }]);
    expect(alone.json().message).toBe('共保信息：共保/联保至少需要两家保险公司');
    expect((await load(a.id, w.ent)).coinsurers).toEqual([]);

    // A product that lets another insurer lead: the issuer still a party, with its own share and parts.
    const code = 'JZSG_AZX_2025';
    await w.t.database.db.update(products).set({ issuerLeads: false }).where(eq(products.code, code));
    try {
      const b = await create(w.agent, agentCustomerId, code);
      expect(b.issuerLeads).toBe(false);
      const priced = (
        await draft(w.agent, b, {
          projectName: '镇江共保工程',
          projectAddress: '镇江市京口区',
          projectCostFen: 5_000_000_000,
        })
      ).json() as App;
      expect(
        (
          await put(w.agent, priced, [
            { insurerCode: 'PICC', lead: true, share: '60' },
            { insurerCode: 'PAIC', share: '40' },
          ])
        ).json().message,
      ).toBe('共保信息：本公司须为共保人之一');
      const ok = await put(w.agent, priced, [
        { insurerCode: ISSUER_CODE, share: '40' },
        { insurerCode: 'PICC', lead: true, share: '60' },
      ]);
      expect(ok.statusCode, ok.body).toBe(200);
      // 30,500.00 yuan: the issuer's 40% floored, PICC (the lead) the rest
      expect((ok.json() as App).coinsurers).toEqual([
        expect.objectContaining({
          insurerCode: ISSUER_CODE,
          insurerName: '测试财产保险股份有限公司',
          lead: false,
          premiumFen: 1_220_000,
          preventionFeeFen: 183_000,
        }),
        expect.objectContaining({
          insurerCode: 'PICC',
          insurerName: '中国人民财产保险股份有限公司',
          lead: true,
          premiumFen: 1_830_000,
          preventionFeeFen: 274_500,
        }),
      ]);
    } finally {
      await w.t.database.db.update(products).set({ issuerLeads: true }).where(eq(products.code, code));
    }
  });

  it('a table saved before the issuer had to be a party is refused at submit, changing nothing', async () => {
    const a = await create(w.ent, entCustomerId);
    await w.t.database.db.insert(applicationCoinsurers).values([
      { applicationId: a.id, insurerCode: 'PICC', lead: true, share: 60_000_000, sort: 0 },
      { applicationId: a.id, insurerCode: 'PAIC', lead: false, share: 40_000_000, sort: 1 },
    ]);
    const res = await submit(w.ent, a);
    expect(res.json()).toEqual({
      status: 400,
      message: '共保信息：本公司须为共保人之一',
      errors: [{ field: 'shares', message: '本公司须为共保人之一' }],
    });
    expect(await load(a.id, w.ent)).toMatchObject({ status: 'DRAFT', version: a.version });
  });

  it('one lead, total exactly 100 (message shows the current total), parts split to the fen', async () => {
    const a = await create(w.ent, entCustomerId);
    const short = await put(w.ent, a, [
      { insurerCode: ISSUER_CODE, lead: true, share: '60' },
      { insurerCode: 'PAIC', share: '39.5' },
    ]);
    expect(short.json()).toEqual({
      status: 400,
      message: '共保份额合计须为100%，当前合计为 99.5%',
      errors: [{ field: 'shares', message: '共保份额合计须为100%，当前合计为 99.5%' }],
    });
    const noLead = await put(w.ent, a, [
      { insurerCode: ISSUER_CODE, share: '60' },
      { insurerCode: 'PAIC', share: '40' },
    ]);
    expect(noLead.json().message).toBe('共保信息：须有且只有一家主承保公司');
    const badShare = await put(w.ent, a, [
      { insurerCode: ISSUER_CODE, lead: true, share: '100.0000001' },
      { insurerCode: 'PAIC', share: '1' },
    ]);
    expect(badShare.json().message).toContain('请输入1-100且最多六位小数');
    const unknown = await put(w.ent, a, [
      { insurerCode: ISSUER_CODE, lead: true, share: '50' },
      { insurerCode: 'NOPE', share: '50' },
    ]);
    expect(unknown.json().message).toBe('共保公司：字典中没有代码 NOPE');
    const ok = await put(w.ent, a, [
      { insurerCode: ISSUER_CODE, lead: true, share: '33.333334' },
      { insurerCode: 'PAIC', share: '33.333333' },
      { insurerCode: 'CPIC', share: '33.333333' },
    ]);
    expect(ok.statusCode, ok.body).toBe(200);
    const parts = ok.json().coinsurers as App['coinsurers'];
    expect(parts.map((p) => p.premiumFen)).toEqual([386_668, 386_666, 386_666]);
    expect(parts.reduce((s, p) => s + p.premiumFen, 0)).toBe(1_160_000);
    expect(parts.reduce((s, p) => s + p.preventionFeeFen, 0)).toBe(174_000);
    // the parts follow the premium
    const changed = await draft(w.ent, ok.json(), { headcount: 7 });
    const after = changed.json() as App;
    expect(after.coinsurers.reduce((s, p) => s + p.premiumFen, 0)).toBe(after.premiumFen);
  });

  it('refused on a product without co-insurance', async () => {
    const a = await create(w.ent, entCustomerId, 'LYBZ_2025');
    const res = await put(w.ent, a, [
      { insurerCode: ISSUER_CODE, lead: true, share: '60' },
      { insurerCode: 'PICC', share: '40' },
    ]);
    expect(res.json()).toEqual({
      status: 400,
      message: '共保信息：该险种不支持共保/联保',
      errors: [{ field: 'shares', message: '该险种不支持共保/联保' }],
    });
  });
});

describe('state machine', () => {
  it('DRAFT → PENDING_REVIEW → PENDING_PAYMENT with a payment order for the premium, expiring in 24 h', async () => {
    const a = await pending();
    expect(a).toMatchObject({ status: 'PENDING_REVIEW', actions: ['view'] });
    expect(a.openTaskId).toBeTruthy();
    const res = await decide(w.underwriter, a, 'approve');
    expect(res.statusCode, res.body).toBe(200);
    const now = await load(a.id, w.ent);
    expect(now).toMatchObject({ status: 'PENDING_PAYMENT', actions: ['view', 'cancel', 'pay'] });
    expect(now.paymentOrder).toMatchObject({ amountFen: a.premiumFen, status: 'PENDING' });
    const ttl = Date.parse(now.paymentOrder!.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(23 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);
    const events = (await w.ent.get(`/api/applications/${a.id}/events`)).json();
    expect(events.map((e: { action: string; toStatus: string }) => [e.action, e.toStatus])).toEqual([
      ['create', 'DRAFT'],
      ['submit', 'PENDING_REVIEW'],
      ['approve', 'PENDING_PAYMENT'],
    ]);
    expect(events[2].actor).toBe('uw');
    // cancel from PENDING_PAYMENT (owner)
    const c = await cancel(w.ent, now);
    expect(c.json()).toMatchObject({ status: 'CANCELLED', paymentOrder: { status: 'CANCELLED' } });
  });

  it('the timeline names people by 姓名, not by login name, whenever it is read', async () => {
    const a = await pending();
    await decide(uw2, a, 'return', '请补充营业执照');
    const db = w.t.database.db;
    await db.update(users).set({ nickName: '核保员小王' }).where(eq(users.username, 'uw2'));
    try {
      const events = (await w.ent.get(`/api/applications/${a.id}/events`)).json();
      expect(events.at(-1)).toMatchObject({ action: 'return', actor: '核保员小王' });
      const task = (await uw2.get(`/api/tasks?blurry=${a.number}&status=done`)).json().content[0];
      const changes = (await uw2.get(`/api/tasks/${task.id}`)).json().changes;
      expect(changes[0]).toMatchObject({ action: 'review_return', actor: '核保员小王' });
    } finally {
      await db.update(users).set({ nickName: 'uw2' }).where(eq(users.username, 'uw2'));
    }
  });

  it('PENDING_REVIEW → RETURNED with opinion → edited → resubmitted → PENDING_REVIEW (a new task)', async () => {
    const a = await pending();
    const res = await decide(w.underwriter, a, 'return', '请核实参保人数');
    expect(res.statusCode).toBe(200);
    const returned = await load(a.id, w.ent);
    expect(returned).toMatchObject({
      status: 'RETURNED',
      reviewOpinion: '请核实参保人数',
      actions: ['continue', 'view', 'cancel'],
    });
    const edited = (await draft(w.ent, returned, { headcount: 60 })).json() as App;
    const again = await submit(w.ent, edited);
    expect(again.json()).toMatchObject({ status: 'PENDING_REVIEW' });
    expect(again.json().openTaskId).not.toBe(a.openTaskId);
    const events = (await w.ent.get(`/api/applications/${a.id}/events`)).json();
    expect(events[2]).toMatchObject({ action: 'return', opinion: '请核实参保人数', actor: 'uw' });
    const entry = await auditEntry(a.id, 'review_return');
    expect(entry).toMatchObject({ actorName: 'uw', detail: { opinion: '请核实参保人数' } });
  });

  it('a resubmission’s task shows what changed after the return, 字段 before → after, from the audit trail', async () => {
    const a = await pending();
    const first = (await w.underwriter.get(`/api/tasks/${a.openTaskId}`)).json();
    expect(first.resubmitted).toBeNull();
    await decide(w.underwriter, a, 'return', '请核实参保人数');
    let edited = (await draft(w.ent, await load(a.id, w.ent), { headcount: 70 })).json() as App;
    edited = (
      await draft(w.ent, edited, { headcount: 60, contactPhone: '13905110000', specialTerms: null })
    ).json() as App;
    // A save that changes nothing records nothing changed.
    edited = (await draft(w.ent, edited, { headcount: 60 })).json() as App;
    const again = (await submit(w.ent, edited)).json() as App;
    const task = (await w.underwriter.get(`/api/tasks/${again.openTaskId}`)).json();
    expect(task.resubmitted).toEqual({
      before: { headcount: 50, premiumFen: a.premiumFen, contactPhone: '138****5678' },
      after: { headcount: 60, premiumFen: edited.premiumFen, contactPhone: '139****0000' },
    });
    expect(edited.premiumFen).not.toBe(a.premiumFen);
    // Each save's audit entry holds the fields it changed, the phone masked.
    const [save] = await w.t.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'application'),
          eq(auditLog.entityId, String(a.id)),
          eq(auditLog.action, 'update'),
        ),
      )
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(save!.detail).toEqual({ before: {}, after: {} });
    // The earlier task, decided, shows no resubmission.
    expect((await w.underwriter.get(`/api/tasks/${first.id}`)).json().resubmitted).toBeNull();
  });

  it('PENDING_REVIEW → DECLINED is final; DRAFT → CANCELLED', async () => {
    const a = await pending();
    expect((await decide(w.underwriter, a, 'reject', '不符合承保条件')).statusCode).toBe(200);
    const declined = await load(a.id, w.ent);
    expect(declined).toMatchObject({ status: 'DECLINED', actions: ['view'] });
    expect((await submit(w.ent, declined)).statusCode).toBe(409);
    expect((await cancel(w.ent, declined)).statusCode).toBe(409);
    expect((await draft(w.ent, declined, { headcount: 3 })).statusCode).toBe(409);
    const d = await create(w.ent, entCustomerId);
    expect((await cancel(w.ent, d)).json().status).toBe('CANCELLED');
  });

  it('forbidden transitions: 409 by state, 403 by owner or role', async () => {
    const a = await pending();
    expect((await submit(w.ent, a)).statusCode).toBe(409); // already pending
    expect((await cancel(w.ent, a)).statusCode).toBe(409); // pending review cannot be cancelled
    expect((await draft(w.ent, a, { headcount: 3 })).statusCode).toBe(409);
    const d = await create(w.agent, agentCustomerId);
    // the underwriter sees it but does not own it / lacks application:edit → 403
    expect((await submit(w.underwriter, d)).statusCode).toBe(403);
    expect((await cancel(w.underwriter, d)).statusCode).toBe(403);
    // an applicant cannot decide
    expect((await w.agent.get('/api/tasks?kind=application')).statusCode).toBe(403);
    // a decided task cannot be decided again
    await decide(w.underwriter, a, 'approve');
    const [task] = await w.t.database.db
      .select()
      .from(reviewTasks)
      .where(and(eq(reviewTasks.kind, 'application'), eq(reviewTasks.subjectId, a.id)));
    expect(
      (
        await w.underwriter.post(`/api/tasks/${task!.id}/decide`, {
          decision: 'reject',
          opinion: 'x',
          version: task!.version,
        })
      ).statusCode,
    ).toBe(409);
    const paid = await load(a.id, w.ent);
    expect((await submit(w.ent, paid)).statusCode).toBe(409);
  });

  it('the task detail shows the application, its quote breakdown, the customer and the history', async () => {
    const a = await pending();
    const task = (await w.underwriter.get(`/api/tasks/${a.openTaskId}`)).json();
    expect(task).toMatchObject({
      kind: 'application',
      subjectId: a.id,
      application: { id: a.id, quote: { premiumFen: a.premiumFen } },
      customer: { id: entCustomerId },
    });
    expect(task.application.quote.lines.length).toBeGreaterThan(0);
    expect(task.events.map((e: { action: string }) => e.action)).toEqual(['create', 'submit']);
    expect(task.title).toContain(a.number);
  });
});

describe('the documents each stage needs (影像资料)', () => {
  type Detail = App & { requestedDocTypes: string[]; customerDocTypes: string[] };
  const upload = (who: Client, a: { id: number }, docType: string) =>
    who.upload({ businessType: 'application', businessId: a.id, docType });
  const openTasks = async (a: App) =>
    (
      await w.t.database.db
        .select()
        .from(reviewTasks)
        .where(
          and(
            eq(reviewTasks.kind, 'application'),
            eq(reviewTasks.subjectId, a.id),
            eq(reviewTasks.status, 'open'),
          ),
        )
    ).length;
  const requestMaterials = async (a: App, docTypes: string[], opinion?: string, who = w.underwriter) => {
    const task = (await w.underwriter.get(`/api/tasks/${a.openTaskId}`)).json();
    return who.post(`/api/tasks/${task.id}/request-materials`, {
      docTypes,
      version: task.version,
      ...(opinion ? { opinion } : {}),
    });
  };

  it('submit is refused until the SUBMIT-stage types are there, naming them; nothing changes', async () => {
    const a = await create(w.ent, entCustomerId);
    expect(await load(a.id, w.ent)).toMatchObject({
      requiredMaterials: [
        { docType: 'BUSINESS_LICENSE', stage: 'SUBMIT' },
        { docType: 'INSURED_LIST', stage: 'APPROVE' },
      ],
      requestedDocTypes: [],
    });
    const refused = await submit(w.ent, a);
    expect(refused.json()).toEqual({
      status: 400,
      message: '影像资料：请上传 营业执照',
      errors: [{ field: 'materials', message: '请上传 营业执照' }],
    });
    expect(await load(a.id, w.ent)).toMatchObject({
      status: 'DRAFT',
      version: a.version,
      premiumFen: a.premiumFen,
    });
    expect(await openTasks(a)).toBe(0);
    expect(await auditEntry(a.id, 'submit')).toBeUndefined();

    // A construction project needs its licence and its contract, named together.
    const p = await create(w.agent, agentCustomerId, 'JZSG_AZX_2025');
    const filled = (
      await draft(w.agent, p, {
        projectName: '镇江测试工程',
        projectAddress: '镇江市京口区',
        projectCostFen: yuan(5_000_000),
      })
    ).json() as App;
    expect((await submit(w.agent, filled)).json().message).toBe('影像资料：请上传 营业执照、施工合同');
    expect((await upload(w.agent, p, 'CONSTRUCTION_CONTRACT')).statusCode).toBe(200);
    expect((await submit(w.agent, filled)).json().message).toBe('影像资料：请上传 营业执照');

    // Uploaded: the same submit passes.
    expect((await upload(w.ent, a, 'BUSINESS_LICENSE')).statusCode).toBe(200);
    const sent = await submit(w.ent, a);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ status: 'PENDING_REVIEW' });
  });

  it("the applicant's licence on file on the customer counts for its applications", async () => {
    const customerId = await approvedCustomer(w.agent);
    const a = await create(w.agent, customerId);
    expect((await submit(w.agent, a)).statusCode).toBe(400);
    const licence = await w.agent.upload({
      businessType: 'customer',
      businessId: customerId,
      docType: 'BUSINESS_LICENSE',
    });
    expect(licence.statusCode, licence.body).toBe(200);
    expect((await load(a.id, w.agent)) as Detail).toMatchObject({ customerDocTypes: ['BUSINESS_LICENSE'] });
    expect((await submit(w.agent, a)).statusCode).toBe(200);
  });

  it('approval is refused without the APPROVE-stage types (400, still pending, no payment order)', async () => {
    const a = await create(w.ent, entCustomerId);
    expect(await attachMaterials(w.ent, a.id, 'SUBMIT')).toEqual(['BUSINESS_LICENSE']);
    const sent = (await submit(w.ent, a)).json() as App;
    const refused = await decide(w.underwriter, sent, 'approve');
    expect(refused.json()).toEqual({
      status: 400,
      message: '影像资料：请上传 被保险人清单',
      errors: [{ field: 'materials', message: '请上传 被保险人清单' }],
    });
    expect(await load(a.id, w.ent)).toMatchObject({
      status: 'PENDING_REVIEW',
      version: sent.version,
      paymentOrder: null,
      openTaskId: sent.openTaskId,
    });
    expect(await auditEntry(a.id, 'review_approve')).toBeUndefined();
  });

  it('returned asking for documents: shown to the applicant, needed at the next submit, audited; cleared on approval', async () => {
    const b = await pending();
    const task = (await w.underwriter.get(`/api/tasks/${b.openTaskId}`)).json();
    const unknown = await w.underwriter.post(`/api/tasks/${task.id}/decide`, {
      decision: 'return',
      opinion: '请补充',
      docTypes: ['NOPE'],
      version: task.version,
    });
    expect(unknown.json()).toEqual({
      status: 400,
      message: '要求补充的资料：字典中没有代码 NOPE',
      errors: [{ field: 'docTypes', message: '字典中没有代码 NOPE' }],
    });
    const withApproval = await w.underwriter.post(`/api/tasks/${task.id}/decide`, {
      decision: 'approve',
      docTypes: ['SIGNED_APPLICATION'],
      version: task.version,
    });
    expect(withApproval.statusCode).toBe(400);
    expect(withApproval.json().message).toBe('要求补充的资料：仅退回时可要求补充资料');
    expect((await load(b.id, w.ent)).status).toBe('PENDING_REVIEW');

    const returned = await w.underwriter.post(`/api/tasks/${task.id}/decide`, {
      decision: 'return',
      opinion: '请补充加盖公章的投保单',
      docTypes: ['SIGNED_APPLICATION'],
      version: task.version,
    });
    expect(returned.statusCode, returned.body).toBe(200);
    const now = (await load(b.id, w.ent)) as Detail;
    expect(now).toMatchObject({ status: 'RETURNED', requestedDocTypes: ['SIGNED_APPLICATION'] });
    const events = (await w.ent.get(`/api/applications/${b.id}/events`)).json();
    expect(events.at(-1)).toMatchObject({
      action: 'return',
      opinion: '请补充加盖公章的投保单；要求补充资料：签章投保单',
    });
    expect((await auditEntry(b.id, 'review_return'))?.detail).toMatchObject({
      opinion: '请补充加盖公章的投保单',
      requestedDocTypes: ['签章投保单'],
    });

    const again = await submit(w.ent, now);
    expect(again.json()).toMatchObject({ status: 400, message: '影像资料：请上传 签章投保单' });
    expect((await upload(w.ent, b, 'SIGNED_APPLICATION')).statusCode).toBe(200);
    const resent = await submit(w.ent, now);
    expect(resent.statusCode, resent.body).toBe(200);
    expect((await decide(w.underwriter, resent.json(), 'approve')).statusCode).toBe(200);
    expect((await load(b.id, w.ent)) as Detail).toMatchObject({
      status: 'PENDING_PAYMENT',
      requestedDocTypes: [],
    });
  });

  it('asked for while pending: stays 待审核, only those types may be uploaded, approval waits for them', async () => {
    const a = await pending();
    const before = await load(a.id, w.ent);
    const res = await requestMaterials(a, ['AUTHORIZATION'], '请补充经办人授权委托书');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: a.openTaskId, status: 'open' });
    const now = (await load(a.id, w.ent)) as Detail;
    expect(now).toMatchObject({
      status: 'PENDING_REVIEW',
      requestedDocTypes: ['AUTHORIZATION'],
      openTaskId: a.openTaskId,
    });
    expect(now.version).toBeGreaterThan(before.version);
    expect((await w.ent.get(`/api/applications/${a.id}/events`)).json().at(-1)).toMatchObject({
      action: 'request_materials',
      fromStatus: 'PENDING_REVIEW',
      toStatus: 'PENDING_REVIEW',
      opinion: '请补充经办人授权委托书；要求补充资料：授权委托书',
      actor: 'uw',
    });
    expect((await auditEntry(a.id, 'request_materials'))?.detail).toEqual({
      taskId: a.openTaskId,
      opinion: '请补充经办人授权委托书',
      before: { requestedDocTypes: [] },
      after: { requestedDocTypes: ['授权委托书'] },
    });

    // The applicant's list says which types are open; another type stays locked with the read-only reason.
    const list = (await w.ent.get(`/api/materials?businessType=application&businessId=${a.id}`)).json();
    expect(list).toMatchObject({
      editable: false,
      readOnlyReason: '投保单当前状态为「待审核」，不能修改影像资料',
      editableDocTypes: ['AUTHORIZATION'],
    });
    const other = await upload(w.ent, a, 'OTHER');
    expect(other.json()).toEqual({ status: 409, message: '投保单当前状态为「待审核」，不能修改影像资料' });
    // Another enterprise still cannot, nor can the underwriter (not the owner).
    expect((await upload(w.ent2, a, 'AUTHORIZATION')).statusCode).toBe(404);
    expect((await upload(w.underwriter, a, 'AUTHORIZATION')).statusCode).toBe(403);

    expect((await decide(w.underwriter, a, 'approve')).json().message).toBe('影像资料：请上传 授权委托书');
    const up = await upload(w.ent, a, 'AUTHORIZATION');
    expect(up.statusCode, up.body).toBe(200);
    expect((await decide(w.underwriter, a, 'approve')).statusCode).toBe(200);
    const approved = (await load(a.id, w.ent)) as Detail;
    expect(approved).toMatchObject({ status: 'PENDING_PAYMENT', requestedDocTypes: [] });
    // Approved: frozen again, whatever was asked for.
    expect((await upload(w.ent, a, 'AUTHORIZATION')).statusCode).toBe(409);
  });

  it('a decline clears what was asked for; asking is for an open application task by its reviewer', async () => {
    const a = await pending();
    expect((await requestMaterials(a, [])).json()).toMatchObject({
      status: 400,
      message: '要求补充的资料：请选择要求补充的资料',
    });
    expect((await requestMaterials(a, ['OTHER'], undefined, w.ent)).statusCode).toBe(403);
    expect((await requestMaterials(a, ['OTHER'])).statusCode).toBe(200);
    // Held by another reviewer: only the holder may ask.
    const task = (await w.underwriter.get(`/api/tasks/${a.openTaskId}`)).json();
    expect((await uw2.post(`/api/tasks/${task.id}/claim`, { version: task.version })).statusCode).toBe(200);
    expect((await requestMaterials(a, ['OTHER'])).statusCode).toBe(409);
    expect((await decide(uw2, a, 'reject', '不符合承保条件')).statusCode).toBe(200);
    expect((await load(a.id, w.ent)) as Detail).toMatchObject({ status: 'DECLINED', requestedDocTypes: [] });
    // Decided: nothing more to ask.
    expect((await requestMaterials(a, ['OTHER'], undefined, uw2)).statusCode).toBe(409);
  });
});

describe('two underwriters at once', () => {
  it('exactly one decision wins (200), the other gets 409; one payment order', async () => {
    for (let i = 0; i < 3; i++) {
      const a = await pending();
      const task = (await w.underwriter.get(`/api/tasks/${a.openTaskId}`)).json();
      const results = await Promise.all([
        w.underwriter.post(`/api/tasks/${task.id}/decide`, { decision: 'approve', version: task.version }),
        uw2.post(`/api/tasks/${task.id}/decide`, { decision: 'approve', version: task.version }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const events = (await w.ent.get(`/api/applications/${a.id}/events`)).json();
      expect(events.filter((e: { action: string }) => e.action === 'approve')).toHaveLength(1);
    }
  });
});

describe('isolation', () => {
  it("another enterprise's or agent's application answers 404 on get, draft, submit, cancel and events", async () => {
    const mine = await create(w.ent, entCustomerId);
    const theirs = await create(w.agent2, agent2CustomerId);
    for (const [who, a] of [
      [w.ent2, mine],
      [w.agent, mine],
      [w.ent, theirs],
      [w.agent, theirs],
      [contractor, theirs],
    ] as const) {
      expect((await who.get(`/api/applications/${a.id}`)).statusCode).toBe(404);
      expect((await who.get(`/api/applications/${a.id}/events`)).statusCode).toBe(404);
      const edits = [draft(who, a, { headcount: 1 }), submit(who, a), cancel(who, a)];
      for (const r of await Promise.all(edits)) expect([403, 404]).toContain(r.statusCode);
    }
    // with the edit permission the answer is 404, never a hint that the record exists
    expect((await draft(w.ent2, mine, { headcount: 1 })).statusCode).toBe(404);
    expect((await submit(w.agent, theirs)).statusCode).toBe(404);
    expect((await cancel(w.ent, theirs)).statusCode).toBe(404);
    // creating for someone else's customer: 404
    const r = await w.agent.post('/api/applications', {
      productId: await productId('AZX_GM_2025'),
      customerId: agent2CustomerId,
    });
    expect(r.statusCode).toBe(404);
  });
});

describe('insureList', () => {
  it('shows each caller their own (agents: their clients), staff all; filters, search and export', async () => {
    const a = await create(w.agent, agentCustomerId);
    const e = await create(w.ent, entCustomerId);
    const ids = async (who: Client, q = '') =>
      ((await who.get(`/api/applications?size=500${q}`)).json().content as App[]).map((x) => x.id);
    expect(await ids(w.agent)).toContain(a.id);
    expect(await ids(w.agent)).not.toContain(e.id);
    expect(await ids(w.ent)).toContain(e.id);
    expect(await ids(w.ent)).not.toContain(a.id);
    expect(await ids(w.ent2)).toEqual([]);
    const staff = await ids(w.underwriter);
    expect(staff).toEqual(expect.arrayContaining([a.id, e.id]));
    expect(await ids(w.ent, '&status=DRAFT')).toContain(e.id);
    expect(await ids(w.ent, '&status=DECLINED')).not.toContain(e.id);
    expect(await ids(w.underwriter, `&blurry=${e.number}`)).toEqual([e.id]);
    const row = (await w.ent.get(`/api/applications?blurry=${e.number}`)).json().content[0];
    expect(row.actions).toEqual(['continue', 'view', 'cancel']);
    const dl = await w.ent.get(`/api/applications/download?blurry=${e.number}`);
    expect(dl.statusCode).toBe(200);
    expectDownloadName(dl.headers['content-disposition'], '投保单');
    const rows = await readXlsx(dl.rawPayload);
    expect(rows[0]).toContain('投保单号');
    expect(rows[1]![0]).toBe(e.number);
    expect(rows[1]).toContain('11600.00');
  });

  it('needs application:list (signed in without a role → 403)', async () => {
    expect((await w.nobody.get('/api/applications')).statusCode).toBe(403);
  });
});

describe('individual policyholder (policyholderType 2)', () => {
  const ID = '11010519491231002X';

  it('created and submitted with a name and an identity card number, no credit code', async () => {
    const res = await w.ent.post('/api/applications', {
      productId: await productId('AZX_GM_2025'),
      customerId: entCustomerId,
      policyholderType: 2,
    });
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json();
    // the applicant's credit code is not an identity card: the individual types their own
    expect(a).toMatchObject({ policyholderType: 2, insuredUscc: null, insuredIdNumber: null });
    expect((await submit(w.ent, a)).json()).toEqual({
      status: 400,
      message: '被保险人身份证号：不能为空',
      errors: [{ field: 'insuredIdNumber', message: '不能为空' }],
    });

    const credit = await draft(w.ent, a, { insuredUscc: w.entUscc });
    expect(credit.json()).toEqual({
      status: 400,
      message: '被保险人统一社会信用代码：个人投保人不填写统一社会信用代码',
      errors: [{ field: 'insuredUscc', message: '个人投保人不填写统一社会信用代码' }],
    });
    const wrong = await draft(w.ent, a, { insuredIdNumber: '110105194912310021' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('被保险人身份证号：请输入正确的18位居民身份证号码');

    // a wizard step sends the other type's field empty: accepted, and it does not clear the number
    const saved = await draft(w.ent, a, {
      insuredName: '王小明',
      insuredIdNumber: ID.toLowerCase(),
      insuredUscc: null,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ insuredName: '王小明', insuredIdNumber: ID, insuredUscc: null });

    await attachMaterials(w.ent, a.id);
    const done = await submit(w.ent, saved.json());
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      status: 'PENDING_REVIEW',
      policyholderType: 2,
      insuredName: '王小明',
      insuredIdNumber: ID,
    });
    const row = (await w.ent.get(`/api/applications?blurry=${a.number}`)).json().content[0];
    expect(row).toMatchObject({ id: a.id, policyholderType: 2 });
    // the underwriter reviews the same identity
    const task = (await w.underwriter.get(`/api/tasks/${done.json().openTaskId}`)).json();
    expect(task.application).toMatchObject({ policyholderType: 2, insuredIdNumber: ID });
  });

  it('an enterprise application takes no identity card; switching the type drops the old code', async () => {
    const a = await create(w.ent, entCustomerId);
    expect(a).toMatchObject({ policyholderType: 1, insuredUscc: w.entUscc, insuredIdNumber: null });
    const res = await draft(w.ent, a, { insuredIdNumber: ID });
    expect(res.json()).toEqual({
      status: 400,
      message: '被保险人身份证号：企业投保人请填写统一社会信用代码',
      errors: [{ field: 'insuredIdNumber', message: '企业投保人请填写统一社会信用代码' }],
    });
    const person = await draft(w.ent, a, { policyholderType: 2 });
    expect(person.json()).toMatchObject({ policyholderType: 2, insuredUscc: null, insuredIdNumber: null });
  });
});

describe('transition matrix over the API', () => {
  type State = 'DRAFT' | 'PENDING_REVIEW' | 'RETURNED' | 'DECLINED' | 'PENDING_PAYMENT' | 'CANCELLED';
  type Act = 'draft' | 'coinsurers' | 'submit' | 'cancel' | 'decide';
  // DOMAIN.md, written out: 200 where the transition or the edit is allowed, 409 where the state forbids it.
  const EXPECTED: Record<State, Record<Act, 200 | 409>> = {
    DRAFT: { draft: 200, coinsurers: 200, submit: 200, cancel: 200, decide: 409 },
    PENDING_REVIEW: { draft: 409, coinsurers: 409, submit: 409, cancel: 409, decide: 200 },
    RETURNED: { draft: 200, coinsurers: 200, submit: 200, cancel: 200, decide: 409 },
    DECLINED: { draft: 409, coinsurers: 409, submit: 409, cancel: 409, decide: 409 },
    PENDING_PAYMENT: { draft: 409, coinsurers: 409, submit: 409, cancel: 200, decide: 409 },
    CANCELLED: { draft: 409, coinsurers: 409, submit: 409, cancel: 409, decide: 409 },
  };
  const AFTER: Partial<Record<Act, string>> = {
    submit: 'PENDING_REVIEW',
    cancel: 'CANCELLED',
    decide: 'PENDING_PAYMENT',
  };

  /** A fresh application of the enterprise in the state (with the documents its product requires). */
  async function inState(state: State): Promise<App> {
    if (state === 'DRAFT') {
      const a = await create(w.ent, entCustomerId);
      await attachMaterials(w.ent, a.id);
      return a;
    }
    const a = await pending();
    if (state === 'PENDING_REVIEW') return a;
    const decision = state === 'RETURNED' ? 'return' : state === 'DECLINED' ? 'reject' : 'approve';
    const d = await decide(w.underwriter, a, decision, decision === 'approve' ? undefined : '意见');
    if (d.statusCode !== 200) throw new Error(d.body);
    if (state === 'CANCELLED') {
      const c = await cancel(w.ent, await load(a.id, w.ent));
      if (c.statusCode !== 200) throw new Error(c.body);
    }
    return load(a.id, w.ent);
  }

  const lastTask = async (a: App) =>
    (
      await w.t.database.db
        .select()
        .from(reviewTasks)
        .where(and(eq(reviewTasks.kind, 'application'), eq(reviewTasks.subjectId, a.id)))
        .orderBy(desc(reviewTasks.id))
        .limit(1)
    )[0];

  /** The underwriter's approval through the task route (its last task; none yet: straight to the service). */
  async function decideNow(a: App): Promise<number> {
    const task = await lastTask(a);
    if (task) {
      const res = await w.underwriter.post(`/api/tasks/${task.id}/decide`, {
        decision: 'approve',
        version: task.version,
      });
      return res.statusCode;
    }
    return reviewedByService(a, 'approved');
  }
  /** The application's own guard, under any task: applyApplicationReview refuses what is not pending review. */
  async function reviewedByService(a: App, decided: 'approved' | 'returned' | 'rejected') {
    try {
      await w.t.database.db.transaction((tx) =>
        applyApplicationReview(tx, a.id, decided, '意见', {
          user: { id: w.ids.underwriter, username: 'uw' },
          ip: '127.0.0.1',
        }),
      );
      return 200;
    } catch (err) {
      if (err instanceof HttpError) return err.status;
      throw err;
    }
  }

  const act = async (action: Act, a: App): Promise<number> => {
    switch (action) {
      case 'draft':
        return (await draft(w.ent, a, { specialTerms: '矩阵' })).statusCode;
      case 'coinsurers':
        return (
          await w.ent.post(`/api/applications/${a.id}/coinsurers`, {
            version: a.version,
            shares: SHARES,
          })
        ).statusCode;
      case 'submit':
        return (await submit(w.ent, a)).statusCode;
      case 'cancel':
        return (await cancel(w.ent, a)).statusCode;
      case 'decide':
        return decideNow(a);
    }
  };

  for (const state of Object.keys(EXPECTED) as State[])
    it(`${state}: ${Object.entries(EXPECTED[state])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`, async () => {
      const forbidden = await inState(state);
      for (const [action, expected] of Object.entries(EXPECTED[state]) as [Act, 200 | 409][]) {
        // An allowed change moves the application on: each gets its own; refusals share one.
        const a = expected === 200 ? await inState(state) : forbidden;
        expect(await act(action, a), `${state} × ${action}`).toBe(expected);
        const now = await load(a.id, w.ent);
        if (expected === 409) {
          expect(now, `${state} × ${action} changed nothing`).toMatchObject({
            status: state,
            version: a.version,
          });
        } else {
          expect(now.status, `${state} × ${action}`).toBe(AFTER[action] ?? state);
          expect(now.version).toBeGreaterThan(a.version);
        }
      }
      if (state !== 'PENDING_REVIEW')
        for (const decided of ['approved', 'returned', 'rejected'] as const)
          expect(await reviewedByService(forbidden, decided), `${state} × ${decided}`).toBe(409);
    });

  it('a stale version on /coinsurers answers 409 and keeps the table', async () => {
    const a = await create(w.ent, entCustomerId);
    const shares = SHARES;
    const first = await w.ent.post(`/api/applications/${a.id}/coinsurers`, { version: a.version, shares });
    expect(first.statusCode, first.body).toBe(200);
    const stale = await w.ent.post(`/api/applications/${a.id}/coinsurers`, {
      version: a.version,
      shares: [
        { insurerCode: ISSUER_CODE, lead: true, share: '50' },
        { insurerCode: 'CPIC', share: '50' },
      ],
    });
    expect(stale.json()).toEqual({ status: 409, message: '数据已被他人修改，请刷新后重试' });
    expect((await load(a.id, w.ent)).coinsurers.map((c) => c.insurerCode)).toEqual([ISSUER_CODE, 'PICC']);
  });

  it('not the owner: another agent gets 404 (cannot see it), the underwriter who sees it 403', async () => {
    const a = await create(w.agent, agentCustomerId);
    const body = { version: a.version, shares: SHARES };
    expect((await w.agent2.post(`/api/applications/${a.id}/coinsurers`, body)).statusCode).toBe(404);
    expect((await draft(w.agent2, a, { specialTerms: '他人' })).statusCode).toBe(404);
    expect((await submit(w.agent2, a)).statusCode).toBe(404);
    expect((await cancel(w.agent2, a)).statusCode).toBe(404);
    // seen but not owned (nor holding application:edit): 403
    expect((await w.underwriter.post(`/api/applications/${a.id}/coinsurers`, body)).statusCode).toBe(403);
    expect((await load(a.id, w.agent)).version).toBe(a.version);
  });
});

describe('re-pricing at submit', () => {
  it('a draft priced on rate table v1 is submitted at v2 once v2 is active: co-insurers re-split, audited', async () => {
    const code = 'JZSG_AZX_2025';
    const pid = await productId(code);
    const a = await create(w.agent, agentCustomerId, code);
    // 50 million yuan: 10m × 0.65‰ + 40m × 0.60‰ = 30,500.00 yuan; prevention 15% = 4,575.00
    const priced = await draft(w.agent, a, {
      projectName: '镇江测试工程',
      projectAddress: '镇江市京口区',
      projectCostFen: 5_000_000_000,
    });
    expect(priced.json()).toMatchObject({
      premiumFen: 3_050_000,
      preventionFeeFen: 457_500,
      quote: { rateTableVersion: 1 },
    });
    const v1TableId = priced.json().quote.rateTableId;
    const shared = await w.agent.post(`/api/applications/${a.id}/coinsurers`, {
      version: priced.json().version,
      shares: [
        { insurerCode: ISSUER_CODE, lead: true, share: '33.333334' },
        { insurerCode: 'PAIC', share: '33.333333' },
        { insurerCode: 'CPIC', share: '33.333333' },
      ],
    });
    expect(shared.statusCode, shared.body).toBe(200);
    const before = shared.json() as App;
    expect(before.coinsurers.map((c) => [c.premiumFen, c.preventionFeeFen])).toEqual([
      [1_016_668, 152_502],
      [1_016_666, 152_499],
      [1_016_666, 152_499],
    ]);

    // v2: every band 10% dearer, activated while the draft waits (as products.test does it)
    const v1 = (await w.admin.get(`/api/rateTables/${v1TableId}`)).json();
    const v2 = await w.admin.post(`/api/products/${pid}/rateTables`, {
      effectiveDate: '2026-07-01',
      highRiskLoading: 13_000,
      factors: v1.factors,
      rows: v1.rows.map((r: { costBandUpToFen: number | null; rate: number }) => ({
        costBandUpToFen: r.costBandUpToFen,
        rate: (r.rate * 11) / 10,
      })),
    });
    expect(v2.statusCode, v2.body).toBe(200);
    const active = await w.admin.post(`/api/rateTables/${v2.json().id}/activate`, {
      version: v2.json().version,
    });
    expect(active.statusCode, active.body).toBe(200);
    // the draft keeps its v1 quote until something re-prices it
    expect(await load(a.id, w.agent)).toMatchObject({
      premiumFen: 3_050_000,
      quote: { rateTableVersion: 1 },
    });

    await attachMaterials(w.agent, a.id);
    const res = await submit(w.agent, before);
    expect(res.statusCode, res.body).toBe(200);
    // 10m × 0.715‰ + 40m × 0.66‰ = 33,550.00 yuan; prevention 15% = 5,032.50
    const after = res.json() as App;
    expect(after).toMatchObject({
      status: 'PENDING_REVIEW',
      premiumFen: 3_355_000,
      preventionFeeFen: 503_250,
      quote: { rateTableId: v2.json().id, rateTableVersion: 2, premiumFen: 3_355_000 },
    });
    // followers floor(total × share), the lead the remainder
    expect(after.coinsurers.map((c) => [c.insurerCode, c.premiumFen, c.preventionFeeFen])).toEqual([
      [ISSUER_CODE, 1_118_334, 167_752],
      ['PAIC', 1_118_333, 167_749],
      ['CPIC', 1_118_333, 167_749],
    ]);
    const entry = await auditEntry(a.id, 'submit');
    expect(entry?.detail).toEqual({
      before: { status: 'DRAFT', premiumFen: 3_050_000 },
      after: {
        status: 'PENDING_REVIEW',
        premiumFen: 3_355_000,
        rateTableId: v2.json().id,
        rateTableVersion: 2,
      },
    });
    // the approval charges the re-priced premium
    expect((await decide(w.underwriter, after, 'approve')).statusCode).toBe(200);
    expect((await load(a.id, w.agent)).paymentOrder).toMatchObject({ amountFen: 3_355_000 });
  });
});
