// Access control of every route that names a record in its path (id, applicationId, payId, seqNo, ref, itemId,
// hazardId, complaintId, code, file, provider …): user B asking for user A's real ids must get 404 or 403 and the
// error envelope only, never A's data. The list of such routes comes from /api/docs/json, so a new id route fails
// this file until it gets a case here or is listed as out of scope with a reason.
import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { ISSUER_CODE } from '@piibs/shared/coinsurance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, freshIp, tokenFor } from '../../test/auth.ts';
import { endorsementDocuments, endorsements, policyChanges, rateTables } from '../db/schema.ts';
import { envelopeProblem, fillPath, loadOpenApi, type Operation, operationsOf, preview } from './openapi.ts';
import { closeWorld, createReliabilityWorld, type ReliabilityWorld } from './world.ts';

type Who = 'admin' | 'uw' | 'ent' | 'ent2' | 'ag' | 'ag2' | 'svc' | 'svc2' | 'ctrA' | 'ctrB';

interface Case {
  /** The owner (or, for staff-only routes, the staff member who may act on A's record). */
  a: Who;
  b: Who;
  params: Record<string, string | number>;
  body?: unknown;
  /** GET routes: A's own request must answer 200 first (proves the id is real); false to skip. */
  control?: boolean;
}

let w: ReliabilityWorld;
let ops: Operation[];
const tokens = {} as Record<Who, string>;
let draftTableId = 0;
let endorsementId = 0;
let policyChangeId = 0;
const today = shanghaiToday();

/**
 * Routes with a path parameter that are not about one user's records, and why. Everything else with a path
 * parameter must have a case in CASES.
 */
const OUT_OF_SCOPE: Record<string, string> = {
  'GET /api/roles/{id}':
    'roles are shared configuration without an owner; who may read them is role:list and the role level (roles.test.ts)',
  'GET /api/products/{id}': 'the product catalogue is read by every channel by design (products.test.ts)',
  'GET /api/products/{id}/rateTables': 'the product catalogue is read by every channel by design',
  'GET /api/rateTables/{id}': 'the product catalogue is read by every channel by design',
  'POST /api/products/{id}/quote': 'quoting a catalogue product is open to every channel; it stores nothing',
  'GET /api/avatar/{file}':
    'avatars are public images by design, served only under 128-bit random server-generated names (users.test.ts)',
  'GET /api/policies/verify/{code}':
    'the public verification page printed on every policy (QR code); answers only the verification facts',
  'POST /api/payments/notify/{provider}':
    'the payment gateway callback: `provider` names a gateway, not a record; authenticated by signature (payments.test.ts)',
};

const CASES: Record<string, () => Case[]> = {
  // ---- customers and applications: enterprise vs enterprise, agent vs agent ----
  'GET /api/customers/{id}': () => [
    { a: 'ent', b: 'ent2', params: { id: w.entOwn.customerId } },
    { a: 'ag', b: 'ag2', params: { id: w.agentOwn.customerId } },
  ],
  'GET /api/customers/{id}/history': () => [
    { a: 'ent', b: 'ent2', params: { id: w.entOwn.customerId } },
    { a: 'ag', b: 'ag2', params: { id: w.agentOwn.customerId } },
  ],
  'POST /api/customers/{id}/resubmit': () => [
    { a: 'ent', b: 'ent2', params: { id: w.entOwn.customerId }, body: { version: 1 } },
    { a: 'ag', b: 'ag2', params: { id: w.agentOwn.customerId }, body: { version: 1 } },
  ],
  'POST /api/customers/{id}/unmask': () => [
    { a: 'ent', b: 'ent2', params: { id: w.entOwn.customerId } },
    { a: 'ag', b: 'ag2', params: { id: w.agentOwn.customerId } },
  ],
  'GET /api/applications/{id}': () => appCases(),
  'GET /api/applications/{id}/events': () => appCases(),
  'GET /api/applications/{id}/insuredPersons': () => appCases(),
  'PUT /api/applications/{id}/insuredPersons': () => appCases({ version: 0, persons: [] }),
  'POST /api/applications/{id}/insuredPersons/import': () => appCases(),
  'POST /api/applications/{id}/draft': () => appCases({ version: 0, specialTerms: '乙方试图修改' }),
  'POST /api/applications/{id}/coinsurers': () =>
    appCases({
      version: 0,
      shares: [
        { insurerCode: ISSUER_CODE, lead: true, share: '70' },
        { insurerCode: 'PICC', share: '30' },
      ],
    }),
  'POST /api/applications/{id}/submit': () => appCases({ version: 0 }),
  'POST /api/applications/{id}/cancel': () => appCases({ version: 0 }),
  'GET /api/materials/{id}/file': () => materialCases(),
  'GET /api/materials/{id}/thumbnail': () => materialCases(),
  'DELETE /api/materials/{id}': () => materialCases(),
  // ---- review tasks: only reviewers see them; A's record's task, asked for by the other side ----
  'GET /api/tasks/{id}': () => [
    { a: 'uw', b: 'ent2', params: { id: w.entOwn.taskId } },
    { a: 'uw', b: 'ent', params: { id: w.entOwn.taskId } },
    { a: 'uw', b: 'ag2', params: { id: w.entOwn.taskId } },
  ],
  'POST /api/tasks/{id}/decide': () => [
    { a: 'uw', b: 'ent2', params: { id: w.entOwn.taskId }, body: { decision: 'approve', version: 1 } },
    { a: 'uw', b: 'ag2', params: { id: w.entOwn.taskId }, body: { decision: 'approve', version: 1 } },
  ],
  'POST /api/tasks/{id}/request-materials': () => [
    { a: 'uw', b: 'ent2', params: { id: w.entOwn.taskId }, body: { docTypes: ['OTHER'], version: 1 } },
    { a: 'uw', b: 'ag2', params: { id: w.entOwn.taskId }, body: { docTypes: ['OTHER'], version: 1 } },
  ],
  'POST /api/tasks/{id}/claim': () => taskCases({ version: 1 }),
  'POST /api/tasks/{id}/release': () => taskCases({ version: 1 }),
  // Assigning needs task:assign (admin only by default): the underwriter is refused too.
  'POST /api/tasks/{id}/assign': () =>
    (['ent', 'ent2', 'ag2', 'uw'] as Who[]).map((b) => ({
      a: 'admin' as Who,
      b,
      params: { id: w.entOwn.taskId },
      body: { assigneeId: 1, version: 1 },
    })),
  'GET /api/tasks/{id}/assignees': () =>
    (['ent', 'ent2', 'ag2', 'uw'] as Who[]).map((b) => ({
      a: 'admin' as Who,
      b,
      params: { id: w.entOwn.taskId },
    })),
  // ---- payments and policies ----
  'POST /api/payments/orders/{applicationId}/pay': () => [
    { a: 'ent', b: 'ent2', params: { applicationId: w.entOwn.payApp.id } },
    { a: 'ent', b: 'ag2', params: { applicationId: w.entOwn.payApp.id } },
  ],
  'GET /api/payments/{payId}': () => [
    { a: 'ent', b: 'ent2', params: { payId: w.entOwn.payId } },
    { a: 'ent', b: 'ag2', params: { payId: w.entOwn.payId } },
  ],
  'GET /api/policies/{id}': () => policyCases(),
  'GET /api/policies/{id}/pdf': () => policyCases(),
  'GET /api/policies/{id}/insuredPersons': () => policyCases(),
  'GET /api/policies/{id}/endorsements': () => policyCases(),
  'GET /api/policies/{id}/changes': () => policyCases(),
  'POST /api/policies/{id}/endorsements': () =>
    policyCases({
      effectiveDate: addDays(today, 1),
      contactName: '乙方',
      idempotencyKey: 'access-endorse-1',
    }),
  'POST /api/policies/{id}/cancellations': () =>
    policyCases({ effectiveDate: addDays(today, 1), reason: 'INSURER', idempotencyKey: 'access-cancel-1' }),
  'GET /api/policy-changes/{id}': () => [
    { a: 'ent', b: 'ent2', params: { id: policyChangeId } },
    { a: 'ent', b: 'ag2', params: { id: policyChangeId } },
  ],
  'POST /api/policy-changes/{id}/pay': () => [
    { a: 'ent', b: 'ent2', params: { id: policyChangeId } },
    { a: 'ent', b: 'ag2', params: { id: policyChangeId } },
  ],
  'POST /api/policy-changes/{id}/resubmit': () => [
    { a: 'ent', b: 'ent2', params: { id: policyChangeId }, body: { version: 0 } },
    { a: 'ent', b: 'ag2', params: { id: policyChangeId }, body: { version: 0 } },
  ],
  'POST /api/policy-changes/{id}/review': () => [
    {
      a: 'uw',
      b: 'ent',
      params: { id: policyChangeId },
      body: { decision: 'reject', opinion: '乙方', version: 0 },
    },
    {
      a: 'uw',
      b: 'ent2',
      params: { id: policyChangeId },
      body: { decision: 'reject', opinion: '乙方', version: 0 },
    },
  ],
  'GET /api/endorsements/{id}/pdf': () => [
    { a: 'ent', b: 'ent2', params: { id: endorsementId } },
    { a: 'ent', b: 'ag2', params: { id: endorsementId } },
  ],
  'GET /api/policies/{id}/renewal': () => policyCases(),
  'POST /api/policies/{id}/renew': () => policyCases(),
  'GET /api/policies/{id}/sales': () =>
    policyCases().map((c) => ({ ...c, a: 'uw' as Who, b: c.b === 'ent2' ? 'ent2' : ('ag2' as Who) })),
  'PUT /api/policies/{id}/sales': () =>
    policyCases({
      version: 0,
      salespersonName: '张三',
      salespersonNo: 'S001',
      commissionRate: 0,
      businessSource: 'DIRECT',
    }),
  'POST /api/policies/{id}/sales/salesperson': () =>
    policyCases({ version: 0, salespersonName: '张三', salespersonNo: 'S001', reason: '调整' }),
  // ---- service organisations: the accounts of organisation 2 asking for organisation 1 ----
  'GET /api/service-orgs/{id}': () => [{ a: 'svc', b: 'svc2', params: { id: w.org1.id } }],
  'POST /api/service-orgs/{id}/unmask': () => [
    { a: 'svc', b: 'svc2', params: { id: w.org1.id } },
    { a: 'svc', b: 'ent2', params: { id: w.org1.id } },
  ],
  'GET /api/service-orgs/{id}/members': () => [{ a: 'svc', b: 'svc2', params: { id: w.org1.id } }],
  // Staff-only: the underwriter reads organisation 1's candidates; org 2's account and an enterprise may not.
  'GET /api/service-orgs/{id}/member-candidates': () => [
    { a: 'uw', b: 'svc2', params: { id: w.org1.id } },
    { a: 'uw', b: 'ent2', params: { id: w.org1.id } },
  ],
  'POST /api/service-orgs/{id}/members': () => [
    { a: 'svc', b: 'svc2', params: { id: w.org1.id }, body: { userIds: [w.svcIds.svc2] } },
  ],
  'GET /api/service-persons/{id}': () => [{ a: 'svc', b: 'svc2', params: { id: w.persons.b } }],
  'POST /api/service-persons/{id}/unmask': () => [
    { a: 'svc', b: 'svc2', params: { id: w.persons.b } },
    { a: 'svc', b: 'ent2', params: { id: w.persons.b } },
  ],
  // ---- prevention plans (by seqNo) and service orders (by ref) ----
  'GET /api/prevention/plans/{seqNo}': () => [
    { a: 'ent', b: 'ent2', params: { seqNo: w.seqNo } },
    { a: 'ent', b: 'svc2', params: { seqNo: w.seqNo } },
  ],
  'GET /api/prevention/plans/{seqNo}/ledger': () => [
    { a: 'ent', b: 'ent2', params: { seqNo: w.seqNo } },
    { a: 'ent', b: 'svc2', params: { seqNo: w.seqNo } },
  ],
  'POST /api/prevention/plans/{seqNo}/items': () =>
    planCases({ itemType: 'HAZARD_INSPECTION', frequency: 'ONCE', unitCostFen: 100, orgId: w.org2.id }),
  'POST /api/prevention/plans/{seqNo}/items/{itemId}/update': () =>
    planCases({
      itemType: 'HAZARD_INSPECTION',
      frequency: 'ONCE',
      unitCostFen: 100,
      orgId: w.org2.id,
      version: 0,
    }),
  'POST /api/prevention/plans/{seqNo}/items/{itemId}/delete': () => planCases({ version: 0 }),
  'POST /api/prevention/plans/{seqNo}/orders': () =>
    planCases({ planItemId: w.entOwn.planItemId, scheduledDate: addDays(today, 3) }),
  'GET /api/prevention/orders/{ref}': () => [
    { a: 'ent', b: 'ent2', params: { ref: w.entOwn.openOrderId } },
    { a: 'svc', b: 'svc2', params: { ref: w.entOwn.openOrderId } },
  ],
  'POST /api/prevention/orders/{ref}/accept': () => orgCases({ version: 0 }),
  'POST /api/prevention/orders/{ref}/start': () => orgCases({ version: 0 }),
  'POST /api/prevention/orders/{ref}/submit': () => orgCases({ version: 0 }),
  'POST /api/prevention/orders/{ref}/reject': () => orgCases({ version: 0, reason: '乙方试图拒单' }),
  'POST /api/prevention/orders/{ref}/record': () =>
    orgCases({
      version: 0,
      serviceDate: today,
      findings: '乙方试图填写服务记录',
      participants: [{ name: '张三', side: 'ORG' }],
    }),
  'POST /api/prevention/orders/{ref}/hazards/{hazardId}/rectify': () => [
    {
      a: 'svc',
      b: 'svc2',
      params: { ref: w.entOwn.closedOrderId, hazardId: w.entOwn.hazardId },
      body: { version: 0, rectifiedDate: today },
    },
    {
      a: 'svc',
      b: 'ent2',
      params: { ref: w.entOwn.closedOrderId, hazardId: w.entOwn.hazardId },
      body: { version: 0, rectifiedDate: today },
    },
  ],
  'POST /api/prevention/orders/{ref}/return': () =>
    enterpriseOrderCases({ version: 0, opinion: '乙方试图退回' }),
  'POST /api/prevention/orders/{ref}/confirm': () => enterpriseOrderCases({ version: 0, satisfaction: 5 }),
  'POST /api/prevention/orders/{ref}/rate': () => enterpriseOrderCases({ version: 0, satisfaction: 1 }),
  'POST /api/prevention/orders/{ref}/complaints': () => enterpriseOrderCases({ content: '乙方试图投诉' }),
  'POST /api/prevention/orders/{ref}/complaints/{complaintId}/reply': () => [
    {
      a: 'svc',
      b: 'svc2',
      params: { ref: w.entOwn.closedOrderId, complaintId: w.entOwn.complaintId },
      body: { reply: '乙方试图答复' },
    },
    {
      a: 'svc',
      b: 'ent2',
      params: { ref: w.entOwn.closedOrderId, complaintId: w.entOwn.complaintId },
      body: { reply: '乙方试图答复' },
    },
  ],
  'POST /api/prevention/orders/{ref}/cancel': () => [
    {
      a: 'uw',
      b: 'ent2',
      params: { ref: w.entOwn.openOrderId },
      body: { version: 0, reason: '乙方试图取消' },
    },
    {
      a: 'uw',
      b: 'svc2',
      params: { ref: w.entOwn.openOrderId },
      body: { version: 0, reason: '乙方试图取消' },
    },
  ],
  // ---- project orders: contractor B asking for contractor A's annual order and declaration ----
  'GET /api/project-orders/{id}': () => [{ a: 'ctrA', b: 'ctrB', params: { id: w.ctrOwn.orderId } }],
  'POST /api/project-orders/{id}/declarations': () => [
    { a: 'ctrA', b: 'ctrB', params: { id: w.ctrOwn.orderId }, body: project() },
  ],
  'GET /api/project-declarations/{id}': () => [
    { a: 'ctrA', b: 'ctrB', params: { id: w.ctrOwn.declarationId } },
  ],
  'POST /api/project-declarations/{id}/draft': () => [
    { a: 'ctrA', b: 'ctrB', params: { id: w.ctrOwn.declarationId }, body: { ...project(), version: 0 } },
  ],
  'POST /api/project-declarations/{id}/submit': () => [
    { a: 'ctrA', b: 'ctrB', params: { id: w.ctrOwn.declarationId }, body: { version: 0 } },
  ],
  'POST /api/project-declarations/{id}/cancel': () => [
    { a: 'ctrA', b: 'ctrB', params: { id: w.ctrOwn.declarationId }, body: { version: 0 } },
  ],
  'POST /api/project-declarations/{id}/changes': () => [
    {
      a: 'ctrA',
      b: 'ctrB',
      params: { id: w.ctrOwn.declarationId },
      body: { projectAddress: '乙方试图批改', projectCostFen: 1_000_000_000, endDate: addDays(today, 400) },
    },
  ],
  // Staff-only changes of an annual order: the contractors (either) and an enterprise may not.
  'POST /api/project-orders/{id}/update': () =>
    (['ctrA', 'ctrB', 'ent2'] as Who[]).map((b) => ({
      a: 'uw' as Who,
      b,
      params: { id: w.ctrOwn.orderId },
      body: { quotaFen: 100, version: 0 },
    })),
  'POST /api/project-orders/{id}/close': () =>
    (['ctrA', 'ctrB', 'ent2'] as Who[]).map((b) => ({
      a: 'uw' as Who,
      b,
      params: { id: w.ctrOwn.orderId },
      body: { version: 0 },
    })),
  'POST /api/project-orders/from-application/{applicationId}': () =>
    (['ent', 'ent2', 'ctrB', 'ag2'] as Who[]).map((b) => ({
      a: 'uw' as Who,
      b,
      params: { applicationId: w.entOwn.draftApp.id },
      body: {},
    })),
  // ---- the catalogue's changes: administrator-owned records an enterprise or agent must not touch ----
  'POST /api/products/{id}/rateTables': () =>
    catalogueCases({ effectiveDate: '2027-01-01', rows: [RATE_ROW] }),
  'POST /api/rateTables/{id}/update': () =>
    catalogueCases({ effectiveDate: '2027-01-01', rows: [RATE_ROW], version: 0 }, draftTableId),
  'POST /api/rateTables/{id}/activate': () => catalogueCases({ version: 0 }, draftTableId),
  'POST /api/rateTables/{id}/delete': () => catalogueCases(undefined, draftTableId),
  'POST /api/dictDetail/delete/{id}': () => catalogueCases(undefined, 1),
};

const RATE_ROW = { coverageType: 'EMPLOYEE_DEATH_DISABILITY', industry: 'C', rate: 3800 };

/** A review task's holder changes, asked for by the applicant's side (not reviewers). */
function taskCases(body: unknown): Case[] {
  return [
    { a: 'uw', b: 'ent2', params: { id: w.entOwn.taskId }, body },
    { a: 'uw', b: 'ent', params: { id: w.entOwn.taskId }, body },
    { a: 'uw', b: 'ag2', params: { id: w.entOwn.taskId }, body },
  ];
}
function appCases(body?: unknown): Case[] {
  return [
    { a: 'ent', b: 'ent2', params: { id: w.entOwn.draftApp.id }, body },
    { a: 'ent', b: 'ag2', params: { id: w.entOwn.draftApp.id }, body },
    { a: 'ag', b: 'ag2', params: { id: w.agentOwn.draftApp.id }, body },
    { a: 'ag', b: 'ent2', params: { id: w.agentOwn.draftApp.id }, body },
  ];
}
function materialCases(): Case[] {
  return [
    { a: 'ent', b: 'ent2', params: { id: w.entOwn.materialId } },
    { a: 'ag', b: 'ag2', params: { id: w.agentOwn.materialId } },
    { a: 'ag', b: 'ent2', params: { id: w.agentOwn.materialId } },
  ];
}
function policyCases(body?: unknown): Case[] {
  return [
    { a: 'ent', b: 'ent2', params: { id: w.policy.id }, body },
    { a: 'ent', b: 'ag2', params: { id: w.policy.id }, body },
  ];
}
function planCases(body: unknown): Case[] {
  const params = { seqNo: w.seqNo, itemId: w.entOwn.planItemId };
  return [
    { a: 'uw', b: 'ent2', params, body },
    { a: 'uw', b: 'ent', params, body },
    { a: 'uw', b: 'svc2', params, body },
  ];
}
/** The organisation's actions on an order dispatched to organisation 1. */
function orgCases(body: unknown): Case[] {
  const params = { ref: w.entOwn.openOrderId };
  return [
    { a: 'svc', b: 'svc2', params, body },
    { a: 'svc', b: 'ent2', params, body },
  ];
}
/** The enterprise's actions on its own order. */
function enterpriseOrderCases(body: unknown): Case[] {
  return [
    { a: 'ent', b: 'ent2', params: { ref: w.entOwn.closedOrderId }, body },
    { a: 'ent', b: 'svc2', params: { ref: w.entOwn.closedOrderId }, body },
  ];
}
function catalogueCases(body: unknown, id?: number): Case[] {
  const params = { id: id ?? w.policy.productId };
  return [
    { a: 'admin', b: 'ent2', params, body },
    { a: 'admin', b: 'ag2', params, body },
  ];
}
function project() {
  return {
    projectName: '乙方试图申报的工程',
    projectAddress: '江苏省镇江市润州区',
    projectCostFen: 1_000_000_000,
    startDate: addDays(today, 5),
    endDate: addDays(today, 400),
  };
}

// ---- running ----

const USERS: Record<Who, [string, string?]> = {
  admin: [ADMIN.username, ADMIN.password],
  uw: ['uw'],
  ent: ['ent'],
  ent2: ['ent2'],
  ag: ['ag'],
  ag2: ['ag2'],
  svc: ['svc'],
  svc2: ['svc2'],
  ctrA: ['ctrA'],
  ctrB: ['ctrB'],
};

const send = (who: Who, method: Operation['method'], url: string, body?: unknown) =>
  w.t.app.inject({
    method,
    url,
    headers: bearer(tokens[who]),
    remoteAddress: freshIp(),
    ...(body === undefined ? {} : { payload: body as object }),
  });

const key = (op: Pick<Operation, 'method' | 'path'>) => `${op.method} ${op.path}`;

/** Words of A's records that must never appear in an answer to B. */
function secretsOf(): string[] {
  return [
    w.entUscc,
    w.entOwn.draftApp.number,
    w.entOwn.payApp.number,
    w.policy.number,
    w.entOwn.payId,
    w.agentOwn.draftApp.number,
    '镇江润扬测试科技有限公司',
  ];
}

interface Outcome {
  route: string;
  case: Case;
  status: number;
  problem: string | null;
  body: string;
}

/** A's records as their owners see them, to compare after B's attempts. */
async function snapshot() {
  const read = async (who: Who, url: string) => {
    const res = await send(who, 'GET', url);
    return `${res.statusCode} ${res.body}`;
  };
  return {
    entApp: await read('ent', `/api/applications/${w.entOwn.draftApp.id}`),
    agApp: await read('ag', `/api/applications/${w.agentOwn.draftApp.id}`),
    entCustomer: await read('ent', `/api/customers/${w.entOwn.customerId}`),
    entMaterials: await read(
      'ent',
      `/api/materials?businessType=application&businessId=${w.entOwn.draftApp.id}`,
    ),
    agMaterials: await read(
      'ag',
      `/api/materials?businessType=application&businessId=${w.agentOwn.draftApp.id}`,
    ),
    openOrder: await read('ent', `/api/prevention/orders/${w.entOwn.openOrderId}`),
    closedOrder: await read('ent', `/api/prevention/orders/${w.entOwn.closedOrderId}`),
    plan: await read('ent', `/api/prevention/plans/${w.seqNo}`),
    org: await read('svc', `/api/service-orgs/${w.org1.id}`),
    projectOrder: await read('ctrA', `/api/project-orders/${w.ctrOwn.orderId}`),
    declaration: await read('ctrA', `/api/project-declarations/${w.ctrOwn.declarationId}`),
    payment: await read('ent', `/api/payments/${w.entOwn.payId}`),
  };
}

let before: Awaited<ReturnType<typeof snapshot>>;
const outcomes: Outcome[] = [];
const controls: string[] = [];

beforeAll(async () => {
  w = await createReliabilityWorld();
  ops = operationsOf(await loadOpenApi(w.t.app));
  for (const [who, [name, password]] of Object.entries(USERS) as [Who, [string, string?]][])
    tokens[who] = await tokenFor(w.t, name, password);
  // A draft rate table of the catalogue, for the rate-table changes.
  const [table] = await w.t.database.db
    .insert(rateTables)
    .values({ productId: w.policy.productId, versionNo: 99, effectiveDate: '2027-01-01' })
    .returning({ id: rateTables.id });
  draftTableId = table!.id;
  // An endorsement of the enterprise's policy (as an approved project change would issue), for its download.
  const [endorsement] = await w.t.database.db
    .insert(endorsements)
    .values({
      number: 'EAZX202600000001',
      policyId: w.policy.id,
      secondaryOrderId: w.ctrOwn.declarationId,
      premiumBeforeFen: 100,
      premiumAfterFen: 100,
      premiumDiffFen: 0,
      effectiveDate: today,
      pdfSha256: '0'.repeat(64),
      pdfSize: 8,
    })
    .returning({ id: endorsements.id });
  endorsementId = endorsement!.id;
  await w.t.database.db
    .insert(endorsementDocuments)
    .values({ endorsementId, content: Buffer.from('%PDF-1.7'), sha256: '0'.repeat(64) });
  // An endorsement request of the enterprise's policy waiting for review.
  const [change] = await w.t.database.db
    .insert(policyChanges)
    .values({
      number: 'G202600000001',
      policyId: w.policy.id,
      kind: 'ENDORSEMENT',
      effectiveDate: addDays(today, 1),
      changes: [{ field: 'contactName', label: '联系人', before: '甲', after: '乙' }],
      newValues: { contactName: '乙' },
      annualBeforeFen: 100,
      annualAfterFen: 100,
      premiumBeforeFen: 100,
      premiumDeltaFen: 0,
      idempotencyKey: 'access-seed-0001',
    })
    .returning({ id: policyChanges.id });
  policyChangeId = change!.id;
  before = await snapshot();
}, 60_000);
afterAll(() => closeWorld(w));

describe('access control of every id route', () => {
  it('every route with a path parameter has a case or is out of scope with a reason', () => {
    const idRoutes = ops.filter((op) => op.pathParams.length > 0).map(key);
    const uncovered = idRoutes.filter((r) => !(r in CASES) && !(r in OUT_OF_SCOPE));
    const both = idRoutes.filter((r) => r in CASES && r in OUT_OF_SCOPE);
    const stale = [...Object.keys(CASES), ...Object.keys(OUT_OF_SCOPE)].filter((r) => !idRoutes.includes(r));
    console.info(
      `access: ${idRoutes.length} id routes in the OpenAPI document; ` +
        `${idRoutes.filter((r) => r in CASES).length} exercised, ` +
        `${idRoutes.filter((r) => r in OUT_OF_SCOPE).length} out of scope:\n` +
        Object.entries(OUT_OF_SCOPE)
          .map(([r, why]) => `  - ${r}: ${why}`)
          .join('\n') +
        (stale.length ? `\n  (cases for routes no longer in the document: ${stale.join(', ')})` : ''),
    );
    expect(uncovered, 'id routes with neither a case nor an out-of-scope reason').toEqual([]);
    expect(both).toEqual([]);
  });

  it("user B asking for user A's ids gets 404 or 403 and the error envelope only (A's own read: 200)", async () => {
    const secrets = secretsOf();
    for (const op of ops) {
      const make = CASES[key(op)];
      if (!make) continue;
      for (const c of make()) {
        const url = fillPath(
          op.path,
          Object.fromEntries(Object.entries(c.params).map(([k, v]) => [k, String(v)])),
        );
        if (op.method === 'GET' && c.control !== false) {
          const mine = await send(c.a, 'GET', url);
          if (mine.statusCode !== 200)
            controls.push(
              `${key(op)} as ${c.a} (the owner) answered ${mine.statusCode}: ${preview(mine.body)}`,
            );
        }
        const res = await send(c.b, op.method, url, c.body);
        const leaked = secrets.find((s) => res.body.includes(s));
        const problem =
          res.statusCode !== 403 && res.statusCode !== 404
            ? `answered ${res.statusCode}${res.statusCode === 400 ? ' (the body did not pass validation: fix the case)' : ''}`
            : (envelopeProblem(res, op) ?? (leaked ? `the answer names A's ${leaked}` : null));
        outcomes.push({
          route: key(op),
          case: c,
          status: res.statusCode,
          problem,
          body: preview(res.body, 200),
        });
      }
    }
    const failed = outcomes.filter((o) => o.problem);
    const byStatus = outcomes.reduce<Record<number, number>>((m, o) => {
      m[o.status] = (m[o.status] ?? 0) + 1;
      return m;
    }, {});
    console.info(
      `access: ${new Set(outcomes.map((o) => o.route)).size} routes exercised with ${outcomes.length} requests of B ` +
        `(${controls.length} owner reads failed); answers ${JSON.stringify(byStatus)}`,
    );
    const report = failed
      .map(
        (o) =>
          `${o.route} ${JSON.stringify(o.case.params)} as ${o.case.b} (A = ${o.case.a}): ${o.problem}\n   ${o.body}`,
      )
      .join('\n');
    expect(controls, 'the owner could not read its own record: the id is not real').toEqual([]);
    expect(failed.length, report).toBe(0);
  }, 60_000);

  it("A's records are unchanged after all of B's attempts", async () => {
    const after = await snapshot();
    for (const [name, value] of Object.entries(before)) {
      expect(value.startsWith('200 '), `${name}: ${value}`).toBe(true);
      expect(after[name as keyof typeof after], name).toBe(value);
    }
  });
});
