// The world of the fuzz and access tests (not a test file): the risk-control world (two enterprises with issued
// policies, agents, service organisations) plus one record of every kind an id route can name, owned by a known
// user: applications, a payment order, a material, review tasks, a prevention plan item, service orders with
// hazards and a complaint, a contractor's annual project order with a declaration.
import { rmSync } from 'node:fs';
import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { and, eq } from 'drizzle-orm';
import { client } from '../../test/admin.ts';
import { bearer, createUser, tokenFor } from '../../test/auth.ts';
import { customerForm, newUscc } from '../../test/business.ts';
import { products, reviewTasks, serviceHazards } from '../db/schema.ts';
import { approvedCustomer, pendingPayment, startPay } from '../modules/payments/test-fixtures.ts';
import {
  type Client,
  createRiskWorld,
  dayInPeriod,
  type RiskWorld,
} from '../modules/risk-control/test-fixtures.ts';

/** The first bytes make a PNG for the server (it types files by content). */
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(
    '0000000d49484452000000010000000108060000001f15c4890000000a49444154789c63000100000500010d0a2db40000000049454e44ae426082',
    'hex',
  ),
]);

/** A multipart/form-data body: text fields, then files (each part named as given). */
export function multipart(
  fields: Record<string, string | number>,
  files: { field: string; name: string; type: string; data: Buffer }[] = [],
) {
  const boundary = '----piibsReliabilityBoundary7d1e';
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(chunks),
  };
}

async function ok<T = Record<string, unknown>>(
  p: Promise<{ statusCode: number; body: string; json(): unknown }>,
  what: string,
): Promise<T> {
  const res = await p;
  if (res.statusCode !== 200) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

export interface Owned {
  /** A DRAFT application of the owner (materials can be added). */
  draftApp: { id: number; version: number; number: string };
  customerId: number;
}

export interface ReliabilityWorld extends RiskWorld {
  tokens: { admin: string; ent: string; ent2: string };
  ctrA: Client;
  ctrB: Client;
  /** Records of the first enterprise (ent). */
  entOwn: Owned & {
    /** PENDING_PAYMENT application with its started payment. */
    payApp: { id: number; number: string };
    payId: string;
    materialId: number;
    /** A review task of ent's records (the pending application's, decided). */
    taskId: number;
    verificationCode: string;
    planItemId: number;
    /** A service order of ent's plan, dispatched to org 1 and left DISPATCHED. */
    openOrderId: number;
    /** A service order brought to CLOSED, with two (rectified) hazards and an open complaint. */
    closedOrderId: number;
    hazardId: number;
    complaintId: number;
  };
  /** Records of the first agent (ag). */
  agentOwn: Owned & { materialId: number };
  /** Records of contractor A. */
  ctrOwn: { orderId: number; declarationId: number };
}

const today = () => shanghaiToday();

export async function createReliabilityWorld(): Promise<ReliabilityWorld> {
  const w = await createRiskWorld();
  const db = w.t.database.db;
  const [work] = await db.select().from(products).where(eq(products.code, 'AZX_GM_2025'));
  const draft = async (who: Client, customerId: number) =>
    ok<{ id: number; version: number; number: string }>(
      who.post('/api/applications', { productId: work!.id, customerId }),
      'draft application',
    );
  const tokens = {
    admin: await tokenFor(w.t, 'admin', 'Adm1n#Secure2026'),
    ent: await tokenFor(w.t, 'ent'),
    ent2: await tokenFor(w.t, 'ent2'),
  };
  const upload = async (token: string, businessType: string, businessId: number) => {
    const body = multipart({ businessType, businessId, docType: 'OTHER' }, [
      { field: 'file', name: 'photo.png', type: 'image/png', data: PNG },
    ]);
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/api/materials',
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
    if (res.statusCode !== 200) throw new Error(`material: ${res.statusCode} ${res.body}`);
    return (res.json() as { id: number }).id;
  };

  // ---- the first enterprise ----
  const entDraft = await draft(w.ent, w.entCustomerId);
  const materialId = await upload(tokens.ent, 'application', entDraft.id);
  const pending = await pendingPayment(w, w.ent, w.entCustomerId);
  const pay = await startPay(w.ent, pending.id);
  const [task] = await db
    .select({ id: reviewTasks.id })
    .from(reviewTasks)
    .where(and(eq(reviewTasks.kind, 'application'), eq(reviewTasks.subjectId, pending.id)))
    .limit(1);

  // Prevention: a plan item on ent's plan, an order left DISPATCHED, an order walked to CLOSED.
  const plan = await ok<{ items: { id: number }[] }>(
    w.underwriter.post(`/api/prevention/plans/${w.seqNo}/items`, {
      itemType: 'HAZARD_INSPECTION',
      content: '生产车间隐患排查',
      frequency: 'QUARTERLY',
      unitCostFen: 1_000,
      orgId: w.org1.id,
      personIds: [w.persons.a],
    }),
    'plan item',
  );
  const planItemId = plan.items.at(-1)!.id;
  const dispatch = () =>
    ok<{ id: number; version: number }>(
      w.underwriter.post(`/api/prevention/plans/${w.seqNo}/orders`, {
        planItemId,
        scheduledDate: dayInPeriod(w.policy, 3),
      }),
      'dispatch',
    );
  const openOrder = await dispatch();
  const closed = await dispatch();
  const version = async (id: number) =>
    (await ok<{ version: number }>(w.admin.get(`/api/prevention/orders/${id}`), 'order')).version;
  const act = async (who: Client, id: number, action: string, body: Record<string, unknown> = {}) =>
    ok(who.post(`/api/prevention/orders/${id}/${action}`, { version: await version(id), ...body }), action);
  await act(w.svc, closed.id, 'accept');
  await act(w.svc, closed.id, 'start');
  await act(w.svc, closed.id, 'record', {
    serviceDate: today(),
    address: '镇江市润州区南徐大道 88 号',
    findings: '对生产车间进行了隐患排查。',
    hazards: [{ description: '消防通道堆放物料', level: 'GENERAL', deadline: addDays(today(), 7) }],
    participants: [{ name: '王安全', side: 'ORG' }],
  });
  await act(w.svc, closed.id, 'submit');
  await act(w.ent, closed.id, 'confirm', { satisfaction: 5 });
  const [hazard] = await db
    .select({ id: serviceHazards.id })
    .from(serviceHazards)
    .where(eq(serviceHazards.orderId, closed.id));
  await act(w.svc, closed.id, `hazards/${hazard!.id}/rectify`, { rectifiedDate: today() });
  const complained = await ok<{ complaints: { id: number }[] }>(
    w.ent.post(`/api/prevention/orders/${closed.id}/complaints`, { content: '服务时间过短' }),
    'complaint',
  );

  // ---- the first agent ----
  const agentCustomerId = await approvedCustomer(w, w.agent);
  const agentDraft = await draft(w.agent, agentCustomerId);
  const agToken = await tokenFor(w.t, 'ag');
  const agentMaterial = await upload(agToken, 'application', agentDraft.id);

  // ---- contractors: A has an annual order (opened by the underwriter) and a declaration; B is another firm ----
  const usccA = newUscc();
  const usccB = newUscc();
  await createUser(w.t, { username: 'ctrA', roles: ['contractor'], channel: 'enterprise', uscc: usccA });
  await createUser(w.t, { username: 'ctrB', roles: ['contractor'], channel: 'enterprise', uscc: usccB });
  const ctrA = client(w.t, await tokenFor(w.t, 'ctrA'));
  const ctrB = client(w.t, await tokenFor(w.t, 'ctrB'));
  const ctrCustomer = await ok<{ id: number }>(
    w.underwriter.post(
      '/api/customers',
      customerForm({ uscc: usccA, industrySection: 'E', industryDivision: '47' }),
    ),
    'contractor customer',
  );
  await ok(
    w.underwriter.post(
      '/api/customers',
      customerForm({ uscc: usccB, industrySection: 'E', industryDivision: '48' }),
    ),
    'contractor B customer',
  );
  const [construction] = await db.select().from(products).where(eq(products.code, 'JZSG_AZX_2025'));
  const annual = await ok<{ id: number }>(
    w.underwriter.post('/api/project-orders', {
      customerId: ctrCustomer.id,
      productId: construction!.id,
      startDate: addDays(today(), -10),
      endDate: addDays(today(), 300),
      quotaFen: 100_000_000,
    }),
    'annual order',
  );
  const declaration = await ok<{ id: number }>(
    ctrA.post(`/api/project-orders/${annual.id}/declarations`, {
      projectName: '滨江花园二期住宅工程',
      projectAddress: '江苏省镇江市润州区滨江路 66 号',
      projectCostFen: 1_000_000_000,
      startDate: addDays(today(), 5),
      endDate: addDays(today(), 400),
      highRisk: false,
    }),
    'declaration',
  );

  return {
    ...w,
    tokens,
    ctrA,
    ctrB,
    entOwn: {
      draftApp: { id: entDraft.id, version: entDraft.version, number: entDraft.number },
      customerId: w.entCustomerId,
      payApp: { id: pending.id, number: pending.number },
      payId: pay.payId,
      materialId,
      taskId: task!.id,
      verificationCode: w.policy.verificationCode,
      planItemId,
      openOrderId: openOrder.id,
      closedOrderId: closed.id,
      hazardId: hazard!.id,
      complaintId: complained.complaints[0]!.id,
    },
    agentOwn: {
      draftApp: { id: agentDraft.id, version: agentDraft.version, number: agentDraft.number },
      customerId: agentCustomerId,
      materialId: agentMaterial,
    },
    ctrOwn: { orderId: annual.id, declarationId: declaration.id },
  };
}

/** Closes the app, drops its database and removes its DATA_DIR (uploaded files, the sandbox key). */
export async function closeWorld(w: { t: RiskWorld['t'] } | undefined): Promise<void> {
  if (!w) return;
  await w.t.close();
  rmSync(w.t.config.dataDir, { recursive: true, force: true });
}
