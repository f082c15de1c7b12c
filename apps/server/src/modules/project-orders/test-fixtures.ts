// Test fixtures of the project-insurance tests (not a test file): two contractors (A with a colleague, B) and
// their approved customers, annual orders opened by the underwriter, projects declared, submitted and decided
// through the real API, and an epinsure application brought to ISSUED through review and the sandbox cashier.
import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { yuan } from '@piibs/shared/money';
import type { AnnualOrderDetail, DeclarationDetail } from '@piibs/shared/project-order';
import { eq } from 'drizzle-orm';
import { client } from '../../../test/admin.ts';
import { createUser, tokenFor } from '../../../test/auth.ts';
import { attachMaterials, type Client, customerForm, newUscc } from '../../../test/business.ts';
import { products } from '../../db/schema.ts';
import { cashier, createPayWorld, type PayWorld, startPay } from '../payments/test-fixtures.ts';

export interface ProjectWorld extends PayWorld {
  ctrA: Client;
  /** A colleague of contractor A (same company). */
  ctrA2: Client;
  ctrB: Client;
  customerA: number;
  customerB: number;
  constructionId: number;
}

export const today = () => shanghaiToday();

async function underwriterCustomer(w: PayWorld, uscc: string): Promise<number> {
  // The underwriter's own customer records are approved at once.
  const res = await w.underwriter.post(
    '/api/customers',
    customerForm({ uscc, industrySection: 'E', industryDivision: '47' }),
  );
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().id;
}

export async function createProjectWorld(): Promise<ProjectWorld> {
  const w = await createPayWorld();
  const usccA = newUscc();
  const usccB = newUscc();
  await createUser(w.t, { username: 'ctrA', roles: ['contractor'], channel: 'enterprise', uscc: usccA });
  await createUser(w.t, { username: 'ctrA2', roles: ['contractor'], channel: 'enterprise', uscc: usccA });
  await createUser(w.t, { username: 'ctrB', roles: ['contractor'], channel: 'enterprise', uscc: usccB });
  const [p] = await w.t.database.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.code, 'JZSG_AZX_2025'));
  return {
    ...w,
    ctrA: client(w.t, await tokenFor(w.t, 'ctrA')),
    ctrA2: client(w.t, await tokenFor(w.t, 'ctrA2')),
    ctrB: client(w.t, await tokenFor(w.t, 'ctrB')),
    customerA: await underwriterCustomer(w, usccA),
    customerB: await underwriterCustomer(w, usccB),
    constructionId: p!.id,
  };
}

async function ok<T>(res: Promise<{ statusCode: number; body: string; json: () => unknown }>): Promise<T> {
  const r = await res;
  if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body}`);
  return r.json() as T;
}

export const openOrder = (w: ProjectWorld, customerId: number, quotaYuan = 1_000_000) =>
  ok<AnnualOrderDetail>(
    w.underwriter.post('/api/project-orders', {
      customerId,
      productId: w.constructionId,
      startDate: addDays(today(), -10),
      endDate: addDays(today(), 300),
      quotaFen: yuan(quotaYuan),
    }),
  );

/** A project (10 million yuan: 6,500 yuan at 0.65‰) starting in five days. */
export const project = (over: Record<string, unknown> = {}) => ({
  projectName: '滨江花园二期住宅工程',
  projectAddress: '江苏省镇江市润州区滨江路 66 号',
  projectCostFen: yuan(10_000_000),
  startDate: addDays(today(), 5),
  endDate: addDays(today(), 400),
  highRisk: false,
  ...over,
});

export const declare = (who: Client, orderId: number, over: Record<string, unknown> = {}) =>
  ok<DeclarationDetail>(who.post(`/api/project-orders/${orderId}/declarations`, project(over)));

export const submit = (who: Client, d: Pick<DeclarationDetail, 'id' | 'version'>) =>
  who.post(`/api/project-declarations/${d.id}/submit`, { version: d.version });

export const load = (w: ProjectWorld, id: number, who: Client = w.underwriter) =>
  ok<DeclarationDetail>(who.get(`/api/project-declarations/${id}`));

export const order = (w: ProjectWorld, id: number, who: Client = w.underwriter) =>
  ok<AnnualOrderDetail>(who.get(`/api/project-orders/${id}`));

/** The underwriter decides the declaration's open review task. */
export async function decide(w: ProjectWorld, d: DeclarationDetail, decision: string, opinion?: string) {
  const task = (await w.underwriter.get(`/api/tasks/${d.openTaskId}`)).json();
  return w.underwriter.post(`/api/tasks/${task.id}/decide`, {
    decision,
    version: task.version,
    ...(opinion ? { opinion } : {}),
  });
}

/** A project declared, submitted and approved, with its policy issued. */
export async function approvedProject(
  w: ProjectWorld,
  who: Client,
  orderId: number,
  over: Record<string, unknown> = {},
): Promise<DeclarationDetail> {
  const d = await declare(who, orderId, over);
  const sent = await ok<DeclarationDetail>(submit(who, d));
  await ok(decide(w, sent, 'approve'));
  const done = await load(w, d.id, who);
  if (!done.policyId) throw new Error(`project ${d.id} has no policy`);
  return done;
}

/** A change (批改) of a project: the project's values with `over`. */
export const changeOf = (p: DeclarationDetail, over: Record<string, unknown> = {}) => ({
  projectAddress: p.projectAddress,
  projectCostFen: p.projectCostFen,
  endDate: p.endDate,
  highRisk: p.highRisk,
  headcount: p.headcount,
  ...over,
});

export const startChange = (who: Client, p: DeclarationDetail, over: Record<string, unknown> = {}) =>
  who.post(`/api/project-declarations/${p.id}/changes`, changeOf(p, over));

interface AppState {
  id: number;
  number: string;
  version: number;
  status: string;
  premiumFen: number;
  openTaskId: number | null;
}

/**
 * An epinsure application of the construction product for `customerId`, made by the administrator (who sees
 * every customer) and approved by the underwriter: priced, submitted, approved, paid at the sandbox cashier and
 * issued. `upTo` stops it earlier.
 */
export async function epinsureApplication(
  w: ProjectWorld,
  customerId: number,
  upTo: 'DRAFT' | 'PENDING_PAYMENT' | 'ISSUED' = 'ISSUED',
): Promise<AppState> {
  const own = w.admin;
  const uw = w.underwriter;
  let a = await ok<AppState>(own.post('/api/applications', { productId: w.constructionId, customerId }));
  a = await ok<AppState>(
    own.post(`/api/applications/${a.id}/draft`, {
      version: a.version,
      projectName: '年度框架协议（2026 年度）',
      projectAddress: '江苏省镇江市',
      projectCostFen: yuan(20_000_000),
    }),
  );
  if (upTo === 'DRAFT') return a;
  await attachMaterials(own, a.id);
  a = await ok<AppState>(own.post(`/api/applications/${a.id}/submit`, { version: a.version }));
  const task = (await uw.get(`/api/tasks/${a.openTaskId}`)).json();
  await ok(uw.post(`/api/tasks/${task.id}/decide`, { decision: 'approve', version: task.version }));
  if (upTo === 'PENDING_PAYMENT') return ok<AppState>(own.get(`/api/applications/${a.id}`));
  const start = await startPay(own, a.id);
  const paid = await cashier(w, start.cashierUrl, 'pay');
  if (paid.statusCode !== 303) throw new Error(`cashier ${paid.statusCode}: ${paid.body}`);
  return ok<AppState>(own.get(`/api/applications/${a.id}`));
}
