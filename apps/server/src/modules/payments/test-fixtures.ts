// Test fixtures of the payment and policy tests (not a test file): a world with approved customers, applications
// brought to PENDING_PAYMENT through the real API, and the sandbox cashier driven as a browser would.
import { eq } from 'drizzle-orm';
import {
  attachMaterials,
  type Client,
  createWorld,
  customerForm,
  type World,
} from '../../../test/business.ts';
import type { BusinessContext } from '../../app-types.ts';
import { products } from '../../db/schema.ts';
import { businessContext } from './context.ts';
import { SandboxProvider } from './sandbox.ts';
import { sandboxKey } from './settings.ts';

export interface PayWorld extends World {
  ctx: BusinessContext;
  sandbox: SandboxProvider;
  /** The sandbox signing key (generated under the test's DATA_DIR). */
  key: string;
  entCustomerId: number;
  ent2CustomerId: number;
}

export async function approvedCustomer(
  w: World,
  who: Client,
  over: Parameters<typeof customerForm>[0] = {},
): Promise<number> {
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

export async function createPayWorld(): Promise<PayWorld> {
  const w = await createWorld();
  const ctx = businessContext(w.t.app);
  const sandbox = ctx.providers.sandbox;
  if (!(sandbox instanceof SandboxProvider)) throw new Error('sandbox provider expected');
  return {
    ...w,
    ctx,
    sandbox,
    key: sandboxKey(w.t.config.business, w.t.config.dataDir),
    entCustomerId: await approvedCustomer(w, w.ent, { uscc: w.entUscc, name: '镇江润扬测试科技有限公司' }),
    ent2CustomerId: await approvedCustomer(w, w.ent2, { uscc: w.ent2Uscc }),
  };
}

export interface AppDetail {
  id: number;
  number: string;
  version: number;
  status: string;
  premiumFen: number;
  preventionFeeFen: number;
  openTaskId: number | null;
  paymentOrder: { id: number; number: string; amountFen: number; status: string; expiresAt: string } | null;
}

/** An application of `who` for `customerId`, submitted and approved: PENDING_PAYMENT with its payment order. */
export async function pendingPayment(
  w: PayWorld,
  who: Client,
  customerId: number,
  opts: {
    coinsurers?: { insurerCode: string; lead: boolean; share: string }[];
    /** An individual policyholder (type 2) insuring this person: name and ID card number. */
    individual?: { name: string; idNumber: string };
    /** Optional coverages to add (附加责任). */
    coverages?: string[];
  } = {},
): Promise<AppDetail> {
  const [p] = await w.t.database.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.code, 'AZX_GM_2025'));
  const person = opts.individual;
  let res = await who.post('/api/applications', {
    productId: p!.id,
    customerId,
    ...(person ? { policyholderType: 2 } : {}),
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  let a = res.json() as AppDetail;
  if (person) {
    res = await who.post(`/api/applications/${a.id}/draft`, {
      version: a.version,
      insuredName: person.name,
      insuredIdNumber: person.idNumber,
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    a = res.json();
  }
  if (opts.coverages) {
    res = await who.post(`/api/applications/${a.id}/draft`, {
      version: a.version,
      coverages: opts.coverages,
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    a = res.json();
  }
  if (opts.coinsurers) {
    res = await who.post(`/api/applications/${a.id}/coinsurers`, {
      version: a.version,
      shares: opts.coinsurers,
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    a = res.json();
  }
  await attachMaterials(who, a.id);
  res = await who.post(`/api/applications/${a.id}/submit`, { version: a.version });
  if (res.statusCode !== 200) throw new Error(res.body);
  a = res.json();
  const task = (await w.underwriter.get(`/api/tasks/${a.openTaskId}`)).json();
  res = await w.underwriter.post(`/api/tasks/${task.id}/decide`, {
    decision: 'approve',
    version: task.version,
    opinion: '同意承保',
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return (await who.get(`/api/applications/${a.id}`)).json();
}

export interface PayStart {
  payId: string;
  orderId: number;
  applicationId: number;
  amountFen: number;
  chargeNo: string;
  cashierUrl: string;
}

export async function startPay(who: Client, applicationId: number): Promise<PayStart> {
  const res = await who.post(`/api/payments/orders/${applicationId}/pay`);
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}

/** Opens the cashier page and presses a button, as a browser would. Answers the POST's response. */
export async function cashier(
  w: PayWorld,
  cashierUrl: string,
  action: 'pay' | 'cancel',
  opts: { skipNotify?: boolean } = {},
) {
  const pageRes = await w.t.app.inject({ method: 'GET', url: cashierUrl });
  if (pageRes.statusCode !== 200) throw new Error(`cashier page ${pageRes.statusCode}: ${pageRes.body}`);
  const params = new URL(cashierUrl, 'http://x').searchParams;
  params.set('action', action);
  if (opts.skipNotify) params.set('skipNotify', '1');
  return w.t.app.inject({
    method: 'POST',
    url: '/sandbox-pay/cashier',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: params.toString(),
  });
}

/** Posts a raw notification body to the sandbox notify endpoint (no sign-in, as the gateway does). */
export const postNotification = (w: PayWorld, body: string) =>
  w.t.app.inject({
    method: 'POST',
    url: '/api/payments/notify/sandbox',
    headers: { 'content-type': 'application/json' },
    payload: body,
  });

/** Pays the charge at the gateway without notifying; answers the notification it would have sent. */
export async function paidSilently(w: PayWorld, start: PayStart): Promise<string> {
  const res = await cashier(w, start.cashierUrl, 'pay', { skipNotify: true });
  if (res.statusCode !== 303) throw new Error(`cashier pay ${res.statusCode}: ${res.body}`);
  const charge = await w.sandbox.chargeByOrder(start.payId);
  return w.sandbox.notificationBody(charge!);
}
