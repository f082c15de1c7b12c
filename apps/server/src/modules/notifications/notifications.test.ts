// In-app notifications: each business event reaches exactly the right users once (stored, and pushed live over
// the WebSocket), the catch-up after a reconnect, the socket's sign-in and revocation, the REST list and marking
// read, and that a rolled-back change pushes nothing. Real database, real server on a port, real `ws` clients.
import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { formatFen } from '@piibs/shared/money';
import type { Notification, WsServerMessage } from '@piibs/shared/notification';
import { and, asc, desc, eq, inArray, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { client, giveRole, roleWith } from '../../../test/admin.ts';
import { bearer, createUser, tokenFor, userId } from '../../../test/auth.ts';
import { attachMaterials, customerForm, newUscc } from '../../../test/business.ts';
import type { IssueQueue } from '../../app-types.ts';
import { notifications, policies, products, reviewTasks, sessions, users } from '../../db/schema.ts';
import {
  approvedCustomer,
  cashier,
  paidSilently,
  pendingPayment,
  postNotification,
  startPay,
} from '../payments/test-fixtures.ts';
import { issuanceFaults, issuePolicy } from '../policies/issue.ts';
import { createRiskWorld, dayInPeriod, type RiskWorld } from '../risk-control/test-fixtures.ts';
import { notifyExpiringPolicies } from './expiring.ts';
import { notificationHub } from './routes.ts';
import { notify } from './service.ts';

let w: RiskWorld;
let base: string;
beforeAll(async () => {
  w = await createRiskWorld();
  // Listening starts the app's lifecycle hooks (the notification listener, the job queue) as in production.
  const address = await w.t.app.listen({ port: 0, host: '127.0.0.1' });
  base = address.replace(/^http/, 'ws');
}, 120_000);
afterAll(() => w.t.close());

const db = () => w.t.database.db;
const hub = () => notificationHub(w.t.app);

// ---- stored notifications ----

/** The rows of one event key: who got it (sorted user ids) and the row. */
async function event(eventKey: string) {
  const rows = await db()
    .select()
    .from(notifications)
    .where(eq(notifications.eventKey, eventKey))
    .orderBy(asc(notifications.userId));
  return { users: rows.map((r) => r.userId), rows };
}

/** Every row of these kinds for the user, oldest first. */
const rowsOf = (userId: number, kinds?: string[]) =>
  db()
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), kinds ? inArray(notifications.kind, kinds) : undefined))
    .orderBy(asc(notifications.id));

/** The newest notification id of anybody: connect with it as `after` to hear only what comes next. */
const latestId = async () =>
  (
    await db().select({ id: notifications.id }).from(notifications).orderBy(desc(notifications.id)).limit(1)
  )[0]?.id ?? 0;

const sorted = (...ids: number[]) => [...ids].sort((a, b) => a - b);

let sentinels = 0;
/** A notification for the user, committed (its id): later than anything the test caused before. */
async function sentinel(userId: number): Promise<number> {
  const [id] = await db().transaction((tx) =>
    notify(tx, {
      userIds: [userId],
      kind: 'task.assigned',
      title: '测试消息',
      body: '测试',
      link: null,
      eventKey: `test:sentinel:${++sentinels}`,
    }),
  );
  return id!;
}

// ---- sockets ----

interface Sock {
  ws: WebSocket;
  messages: WsServerMessage[];
  closed: Promise<{ code: number; reason: string }>;
  /** The notifications received, in order. */
  notes(): Notification[];
  /** Waits until a notification with this id arrived. */
  until(id: number): Promise<void>;
  untilMessage(pred: (m: WsServerMessage) => boolean): Promise<WsServerMessage>;
}

const open: WebSocket[] = [];

async function connect(token: string | null, after = 0, raw?: string): Promise<Sock> {
  const ws = new WebSocket(`${base}/api/notifications/ws`);
  open.push(ws);
  const messages: WsServerMessage[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data)) as WsServerMessage));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  if (raw !== undefined) ws.send(raw);
  else if (token !== null) ws.send(JSON.stringify({ type: 'auth', token, after }));
  const notes = () =>
    messages.flatMap((m) => (m.type === 'notification' ? [m.notification] : ([] as Notification[])));
  const untilMessage = (pred: (m: WsServerMessage) => boolean) =>
    vi.waitFor(
      () => {
        const m = messages.find(pred);
        if (!m) throw new Error(`not yet: ${JSON.stringify(messages)}`);
        return m;
      },
      { timeout: 10_000, interval: 10 },
    );
  return {
    ws,
    messages,
    closed,
    notes,
    untilMessage,
    until: async (id) => {
      await untilMessage((m) => m.type === 'notification' && m.notification.id === id);
    },
  };
}

/** Connects and waits for `ready`. */
async function ready(token: string, after = 0): Promise<Sock> {
  const s = await connect(token, after);
  await s.untilMessage((m) => m.type === 'ready');
  return s;
}

afterAll(() => {
  for (const ws of open) ws.terminate();
});

/** The ids of the user's notifications with id > after, as stored. */
const storedAfter = async (userId: number, after: number) =>
  (await rowsOf(userId)).filter((r) => r.id > after).map((r) => r.id);

// ---- business events ----

async function decide(
  taskId: number,
  decision: 'approve' | 'return' | 'reject',
  opinion?: string,
  docTypes?: string[],
) {
  const task = (await w.underwriter.get(`/api/tasks/${taskId}`)).json();
  const res = await w.underwriter.post(`/api/tasks/${taskId}/decide`, {
    decision,
    version: task.version,
    ...(opinion ? { opinion } : {}),
    ...(docTypes ? { docTypes } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
}

const productId = async () =>
  (await db().select({ id: products.id }).from(products).where(eq(products.code, 'AZX_GM_2025')))[0]!.id;

describe('each event reaches exactly the right users, once', () => {
  it('customer review: reviewers are told of the task (not the submitter); the agent of the decisions', async () => {
    const reviewers = sorted(w.ids.underwriter, await adminId());
    // The submitter by 姓名, not by login name.
    await db().update(users).set({ nickName: '王代理' }).where(eq(users.id, w.ids.agent));
    const res = await w.agent.post('/api/customers', customerForm());
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json() as { id: number; name: string; uscc: string; openTaskId: number; version: number };
    const opened = await event(`task:${c.openTaskId}:assigned`);
    expect(opened.rows[0]).toMatchObject({
      title: '新的投保人信息审核任务',
      body: `王代理 提交了「${c.name}（${c.uscc}）」，等待审核。`,
    });
    expect(opened.users).toEqual(reviewers);
    expect(opened.rows[0]).toMatchObject({
      kind: 'task.assigned',
      link: `/piibs/task/audit/${c.openTaskId}/true`,
      readAt: null,
    });
    expect(opened.rows[0]!.body).toContain(c.name);

    await decide(c.openTaskId, 'return', '请补充营业执照');
    const returned = await event(`customer:${c.id}:returned:${c.openTaskId}`);
    expect(returned.users).toEqual([w.ids.agent]);
    expect(returned.rows[0]).toMatchObject({
      kind: 'customer.returned',
      title: '投保人被退回',
      link: `/piibs/agent/applicant/newUpdate/${c.id}/false`,
    });
    expect(returned.rows[0]!.body).toContain('审核意见：请补充营业执照');

    // Resubmitted: a new task, told again; approved: the agent is told once.
    const again = await w.agent.post(`/api/customers/${c.id}/resubmit`, { version: c.version + 1 });
    expect(again.statusCode, again.body).toBe(200);
    const task2 = (again.json() as { openTaskId: number }).openTaskId;
    expect(task2).not.toBe(c.openTaskId);
    expect((await event(`task:${task2}:assigned`)).users).toEqual(reviewers);
    await decide(task2, 'approve');
    const approved = await event(`customer:${c.id}:approved:${task2}`);
    expect(approved.users).toEqual([w.ids.agent]);
    expect(approved.rows[0]!.link).toBe(`/piibs/agent/applicant/newUpdate/${c.id}/true`);
    // Nobody else heard of this customer.
    const all = await db()
      .select()
      .from(notifications)
      .where(like(notifications.eventKey, `customer:${c.id}:%`));
    expect(all.map((r) => r.userId)).toEqual([w.ids.agent, w.ids.agent]);
  });

  it('task recipients: the review permission within data scope, enabled accounts only', async () => {
    const selfScope = await roleWith(w.t, 'selfReviewer', ['customer:review'], { dataScope: 'self' });
    const narrow = await createUser(w.t, { username: 'narrow', roles: [] });
    await giveRole(w.t, narrow, selfScope);
    const off = await createUser(w.t, { username: 'uwOff', roles: ['underwriter'], enabled: false });
    const wide = await createUser(w.t, { username: 'uwWide', roles: ['underwriter'] });
    const res = await w.agent.post('/api/customers', customerForm());
    const taskId = (res.json() as { openTaskId: number }).openTaskId;
    const opened = await event(`task:${taskId}:assigned`);
    expect(opened.users).toEqual(sorted(w.ids.underwriter, await adminId(), wide));
    expect(opened.users).not.toContain(narrow);
    expect(opened.users).not.toContain(off);
    expect(opened.users).not.toContain(w.ids.agent);
    await db().update(users).set({ enabled: false }).where(eq(users.id, wide));
  });

  it('application: task → returned → documents asked for → approved → paid → issued, to the applicant only; a replayed payment adds nothing', async () => {
    const live = await ready(await tokenFor(w.t, 'ent'), await latestId());
    const other = await ready(await tokenFor(w.t, 'ent2'), await latestId());
    let res = await w.ent.post('/api/applications', {
      productId: await productId(),
      customerId: w.entCustomerId,
    });
    let a = res.json() as { id: number; number: string; version: number; openTaskId: number | null };
    await attachMaterials(w.ent, a.id);
    res = await w.ent.post(`/api/applications/${a.id}/submit`, { version: a.version });
    expect(res.statusCode, res.body).toBe(200);
    a = res.json();
    expect((await event(`task:${a.openTaskId}:assigned`)).users).toEqual(
      sorted(w.ids.underwriter, await adminId()),
    );
    const firstTask = a.openTaskId!;
    await decide(firstTask, 'return', '请核实参保人数', ['SIGNED_APPLICATION']);
    const returned = await event(`application:${a.id}:returned:${firstTask}`);
    expect(returned.users).toEqual([w.ids.ent]);
    expect(returned.rows[0]).toMatchObject({
      kind: 'application.returned',
      link: `/piibs/insured/viewInsurance/${a.id}/1`,
    });
    expect(returned.rows[0]!.body).toContain(a.number);
    expect(returned.rows[0]!.body).toContain('请补充影像资料：签章投保单。');

    expect(await attachMaterials(w.ent, a.id)).toEqual(['SIGNED_APPLICATION']);
    a = (await w.ent.get(`/api/applications/${a.id}`)).json();
    res = await w.ent.post(`/api/applications/${a.id}/submit`, { version: a.version });
    expect(res.statusCode, res.body).toBe(200);
    const secondTask = (res.json() as { openTaskId: number }).openTaskId;
    // Asked for more while it stays under review: the applicant side is told what to upload, once.
    const task = (await w.underwriter.get(`/api/tasks/${secondTask}`)).json();
    res = await w.underwriter.post(`/api/tasks/${secondTask}/request-materials`, {
      docTypes: ['AUTHORIZATION'],
      opinion: '请补充经办人授权委托书',
      version: task.version,
    });
    expect(res.statusCode, res.body).toBe(200);
    a = (await w.ent.get(`/api/applications/${a.id}`)).json();
    const asked = await event(`application:${a.id}:materials:${secondTask}:${a.version}`);
    expect(asked.users).toEqual([w.ids.ent]);
    expect(asked.rows[0]).toMatchObject({
      kind: 'application.materials_requested',
      title: '投保单需补充资料',
      link: `/piibs/insured/viewInsurance/${a.id}/1`,
    });
    expect(asked.rows[0]!.body).toBe(
      `投保单 ${a.number}（${(await w.ent.get(`/api/applications/${a.id}`)).json().applicantName}）审核中，` +
        '请补充影像资料：授权委托书。审核意见：请补充经办人授权委托书。',
    );
    expect(await attachMaterials(w.ent, a.id)).toEqual(['AUTHORIZATION']);
    await decide(secondTask, 'approve');
    expect((await event(`application:${a.id}:approved:${secondTask}`)).users).toEqual([w.ids.ent]);

    // Paid at the gateway; its notification delivered twice (a replay).
    const start = await startPay(w.ent, a.id);
    const body = await paidSilently(w, start);
    expect((await postNotification(w, body)).statusCode).toBe(200);
    expect((await postNotification(w, body)).statusCode).toBe(200);
    const paid = await event(`payment:${start.orderId}:received`);
    expect(paid.users).toEqual([w.ids.ent]);
    // The amount with thousands separators, the application by its number and its applicant by name.
    const { name } = (await w.ent.get(`/api/customers/${w.entCustomerId}`)).json() as { name: string };
    expect(paid.rows[0]!.body).toBe(
      `投保单 ${a.number}（${name}）的保费 ${formatFen(start.amountFen)} 已支付成功，保单正在出具。`,
    );
    expect(paid.rows[0]!.body).toMatch(/¥\d{1,3}(,\d{3})+\.\d{2} /);
    const [policy] = await db().select().from(policies).where(eq(policies.applicationId, a.id));
    const issued = await event(`policy:${policy!.id}:issued`);
    expect(issued.users).toEqual([w.ids.ent]);
    expect(issued.rows[0]).toMatchObject({
      kind: 'policy.issued',
      link: `/piibs/projectManage/policyInsuranceView/${policy!.id}`,
    });
    expect(issued.rows[0]!.body).toContain(policy!.number);

    // Live: the applicant's socket got each of them once, in order; the other enterprise's nothing.
    const mine = (await rowsOf(w.ids.ent)).filter((r) =>
      [
        `application:${a.id}:returned:${firstTask}`,
        `application:${a.id}:approved:${secondTask}`,
        `payment:${start.orderId}:received`,
        `policy:${policy!.id}:issued`,
      ].includes(r.eventKey),
    );
    expect(mine).toHaveLength(4);
    const last = await sentinel(w.ids.ent);
    await live.until(last);
    const got = live.notes().map((n) => n.id);
    expect(got).toEqual([...new Set(got)].sort((x, y) => x - y));
    expect(got).toEqual(expect.arrayContaining(mine.map((r) => r.id)));
    expect(got.filter((id) => mine.some((r) => r.id === id))).toHaveLength(4);
    expect(live.notes().find((n) => n.id === issued.rows[0]!.id)).toMatchObject({
      kind: 'policy.issued',
      title: '保单已签发',
      link: `/piibs/projectManage/policyInsuranceView/${policy!.id}`,
      read: false,
    });
    const otherLast = await sentinel(w.ids.ent2);
    await other.until(otherLast);
    expect(other.notes().map((n) => n.id)).toEqual([otherLast]);
    live.ws.close();
    other.ws.close();
  });

  it("an agent's application: the agent and the enterprise account of its customer are told", async () => {
    const uscc = newUscc();
    const ent3 = await createUser(w.t, { username: 'ent3', roles: ['17'], channel: 'enterprise', uscc });
    const customerId = await approvedCustomer(w, w.agent, { uscc });
    const a = await pendingPayment(w, w.agent, customerId);
    const [task] = await db()
      .select({ id: reviewTasks.id })
      .from(reviewTasks)
      .where(and(eq(reviewTasks.kind, 'application'), eq(reviewTasks.subjectId, a.id)));
    expect((await event(`application:${a.id}:approved:${task!.id}`)).users).toEqual(
      sorted(w.ids.agent, ent3),
    );
  });

  it('tender (二次下单): reviewers get the task; the declarer the decision and the issued policy', async () => {
    const uscc = newUscc();
    const ctr = await createUser(w.t, {
      username: 'ctr',
      roles: ['contractor'],
      channel: 'enterprise',
      uscc,
    });
    const contractor = client(w.t, await tokenFor(w.t, 'ctr'));
    const c = await w.underwriter.post(
      '/api/customers',
      customerForm({ uscc, industrySection: 'E', industryDivision: '47' }),
    );
    expect(c.statusCode, c.body).toBe(200);
    const [construction] = await db()
      .select({ id: products.id })
      .from(products)
      .where(eq(products.code, 'JZSG_AZX_2025'));
    const today = shanghaiToday();
    const order = await w.underwriter.post('/api/project-orders', {
      customerId: c.json().id,
      productId: construction!.id,
      startDate: addDays(today, -10),
      endDate: addDays(today, 300),
      quotaFen: 100_000_000,
    });
    expect(order.statusCode, order.body).toBe(200);
    const declared = await contractor.post(`/api/project-orders/${order.json().id}/declarations`, {
      projectName: '滨江花园二期住宅工程',
      projectAddress: '江苏省镇江市润州区滨江路 66 号',
      projectCostFen: 1_000_000_000,
      startDate: addDays(today, 5),
      endDate: addDays(today, 400),
      highRisk: false,
    });
    expect(declared.statusCode, declared.body).toBe(200);
    const d = declared.json() as { id: number; number: string; version: number };
    const submitted = await contractor.post(`/api/project-declarations/${d.id}/submit`, {
      version: d.version,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const taskId = (submitted.json() as { openTaskId: number }).openTaskId;
    const opened = await event(`task:${taskId}:assigned`);
    expect(opened.users).toEqual(sorted(w.ids.underwriter, await adminId()));
    expect(opened.rows[0]!.link).toBe(`/piibs/task/tenderAudit/${taskId}/true`);
    await decide(taskId, 'approve');
    const approved = await event(`tender:${d.id}:approved:${taskId}`);
    expect(approved.users).toEqual([ctr]);
    expect(approved.rows[0]).toMatchObject({
      kind: 'tender.approved',
      link: `/piibs/projectManage/apply/${d.id}/true/1/1`,
    });
    expect(approved.rows[0]!.body).toContain(d.number);
    const issued = await rowsOf(ctr, ['policy.issued']);
    expect(issued).toHaveLength(1);
  });

  it('service orders: dispatch tells the organisation, confirmation the dispatcher and the organisation', async () => {
    const plan = await w.underwriter.post(`/api/prevention/plans/${w.seqNo}/items`, {
      itemType: 'HAZARD_INSPECTION',
      content: '生产车间隐患排查',
      frequency: 'ONCE',
      unitCostFen: 1_000,
      orgId: w.org1.id,
      personIds: [w.persons.a],
    });
    expect(plan.statusCode, plan.body).toBe(200);
    const items = (plan.json() as { items: { id: number }[] }).items;
    const res = await w.underwriter.post(`/api/prevention/plans/${w.seqNo}/orders`, {
      planItemId: items[items.length - 1]!.id,
      scheduledDate: dayInPeriod(w.policy, 3),
    });
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json() as { id: number; number: string; version: number };
    const dispatched = await event(`service:${o.id}:dispatched`);
    expect(dispatched.users).toEqual([w.svcIds.svc]);
    expect(dispatched.rows[0]).toMatchObject({
      kind: 'service.dispatched',
      link: `/piibs/riskControl/prevention/service/${w.seqNo}?order=${o.number}`,
    });
    expect(dispatched.rows[0]!.body).toContain(o.number);

    const act = async (who: typeof w.svc, action: string, extra: Record<string, unknown> = {}) => {
      const { version } = (await w.admin.get(`/api/prevention/orders/${o.id}`)).json() as { version: number };
      const r = await who.post(`/api/prevention/orders/${o.id}/${action}`, { version, ...extra });
      expect(r.statusCode, r.body).toBe(200);
    };
    await act(w.svc, 'accept');
    await act(w.svc, 'start');
    await act(w.svc, 'record', {
      serviceDate: shanghaiToday(),
      address: '镇江市润州区南徐大道 88 号',
      findings: '总体情况良好。',
      hazards: [],
      participants: [{ name: '王安全', side: 'ORG', position: '高级工程师' }],
    });
    await act(w.svc, 'submit');
    await act(w.ent, 'confirm', { satisfaction: 5 });
    const confirmed = await event(`service:${o.id}:confirmed`);
    expect(confirmed.users).toEqual(sorted(w.ids.underwriter, w.svcIds.svc));
    expect(confirmed.rows[0]!.link).toBe(`/piibs/riskControl/prevention/view/${w.seqNo}?order=${o.number}`);
  });

  it('expiring policies: the applicant is told once, 30 days ahead', async () => {
    // Both world policies end on the same day. Not yet due 31 days ahead.
    expect(w.policy.endDate).toBe(w.policy2.endDate);
    await notifyExpiringPolicies(db(), addDays(w.policy.endDate, -31));
    expect((await event(`policy:${w.policy.id}:expiring:30`)).rows).toHaveLength(0);
    const today = addDays(w.policy2.endDate, -20);
    expect(await notifyExpiringPolicies(db(), today)).toBeGreaterThanOrEqual(2);
    expect((await event(`policy:${w.policy.id}:expiring:30`)).users).toEqual([w.ids.ent]);
    const expiring = await event(`policy:${w.policy2.id}:expiring:30`);
    expect(expiring.users).toEqual([w.ids.ent2]);
    expect(expiring.rows[0]).toMatchObject({
      kind: 'policy.expiring',
      link: `/piibs/projectManage/policyInsuranceView/${w.policy2.id}`,
    });
    expect(expiring.rows[0]!.body).toContain(w.policy2.number);
    expect(expiring.rows[0]!.body).toContain('还有 20 天');
    // The next day's run (and any re-run) tells neither applicant again (other tests' policies, issued on other
    // days, may come due then).
    await notifyExpiringPolicies(db(), addDays(today, 1));
    await notifyExpiringPolicies(db(), addDays(today, 1));
    expect((await event(`policy:${w.policy.id}:expiring:30`)).rows).toHaveLength(1);
    expect((await event(`policy:${w.policy2.id}:expiring:30`)).rows).toHaveLength(1);
  });
});

// ---- live delivery ----

describe('live delivery', () => {
  it('two sockets of a user both get a notification once; another user gets nothing', async () => {
    const [t1, t2, tOther] = [
      await tokenFor(w.t, 'ag2'),
      await tokenFor(w.t, 'ag2'),
      await tokenFor(w.t, 'svc2'),
    ];
    const [a, b, other] = [await ready(t1), await ready(t2), await ready(tOther)];
    const before = Math.max(0, ...a.notes().map((n) => n.id));
    const id = await sentinel(w.ids.agent2);
    await a.until(id);
    await b.until(id);
    const otherLast = await sentinel(w.svcIds.svc2);
    await other.until(otherLast);
    const after = await sentinel(w.ids.agent2);
    await a.until(after);
    await b.until(after);
    for (const s of [a, b])
      expect(
        s
          .notes()
          .filter((n) => n.id > before)
          .map((n) => n.id),
      ).toEqual([id, after]);
    expect(other.notes().some((n) => n.id === id || n.id === after)).toBe(false);
    const msg = a.messages.find((m) => m.type === 'notification' && m.notification.id === id);
    expect(msg).toMatchObject({ type: 'notification', unread: expect.any(Number) });
    for (const s of [a, b, other]) s.ws.close();
  });

  it('catch-up racing live notifications: every row once, in id order', async () => {
    const token = await tokenFor(w.t, 'ag2');
    const from = await sentinel(w.ids.agent2);
    const sockP = connect(token, from);
    const made: number[] = [];
    for (let i = 0; i < 15; i++) made.push(await sentinel(w.ids.agent2));
    const s = await sockP;
    const last = await sentinel(w.ids.agent2);
    await s.until(last);
    expect(s.notes().map((n) => n.id)).toEqual(await storedAfter(w.ids.agent2, from));
    expect(s.messages[0]).toMatchObject({ type: 'ready' });
    s.ws.close();
  });

  it('reconnecting with the last id seen brings exactly the missed ones, in order; then live ones once', async () => {
    const token = await tokenFor(w.t, 'ag2');
    const first = await ready(token);
    const seen = await sentinel(w.ids.agent2);
    await first.until(seen);
    first.ws.close();
    await first.closed;
    await vi.waitFor(() => expect(hub().socketsOf(w.ids.agent2)).toBe(0));

    // While away: a customer of theirs returned, then rejected; and one more.
    const res = await w.agent2.post('/api/customers', customerForm());
    const c = res.json() as { id: number; openTaskId: number; version: number };
    await decide(c.openTaskId, 'return', '资料不全');
    const again = (await w.agent2.post(`/api/customers/${c.id}/resubmit`, { version: c.version + 1 })).json();
    await decide(again.openTaskId, 'reject', '不符合承保条件');
    const extra = await sentinel(w.ids.agent2);
    const missed = await storedAfter(w.ids.agent2, seen);
    expect(missed).toHaveLength(3);

    const back = await connect(token, seen);
    await back.until(extra);
    expect(back.notes().map((n) => n.id)).toEqual(missed);
    expect(back.notes().map((n) => n.kind)).toEqual([
      'customer.returned',
      'customer.rejected',
      'task.assigned',
    ]);
    const ready_ = back.messages[0];
    expect(ready_).toEqual({ type: 'ready', unread: expect.any(Number) });
    const liveId = await sentinel(w.ids.agent2);
    await back.until(liveId);
    const end = await sentinel(w.ids.agent2);
    await back.until(end);
    expect(back.notes().map((n) => n.id)).toEqual([...missed, liveId, end]);
    back.ws.close();
  });

  it('when the listening connection drops it reconnects, and rows committed meanwhile still arrive once', async () => {
    const s = await ready(await tokenFor(w.t, 'ag2'), await latestId());
    const old = hub().settings.reconnectDelayMs;
    hub().settings.reconnectDelayMs = 50;
    try {
      await db().execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'piibs-notifications' and datname = current_database()`,
      );
      await vi.waitFor(() => expect(hub().listening).toBe(false));
      const gap = await sentinel(w.ids.agent2);
      await vi.waitFor(() => expect(hub().listening).toBe(true), { timeout: 10_000 });
      await s.until(gap);
      const next = await sentinel(w.ids.agent2);
      await s.until(next);
      expect(s.notes().map((n) => n.id)).toEqual([gap, next]);
    } finally {
      hub().settings.reconnectDelayMs = old;
    }
    s.ws.close();
  });

  it('a rolled-back change stores and pushes nothing; a failed issuance is told only when it succeeds', async () => {
    const s = await ready(await tokenFor(w.t, 'ent'), await latestId());
    await expect(
      db().transaction(async (tx) => {
        await notify(tx, {
          userIds: [w.ids.ent],
          kind: 'policy.issued',
          title: '不应出现',
          body: '回滚',
          link: null,
          eventKey: 'test:rolled-back',
        });
        throw new Error('business change failed');
      }),
    ).rejects.toThrow('business change failed');
    expect((await event('test:rolled-back')).rows).toHaveLength(0);

    // Issuance fails after writing everything (its notification included): rolled back, nothing told.
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    const queue = w.ctx.queue;
    const queued: number[] = [];
    w.ctx.queue = { sendIssue: async (id: number) => void queued.push(id) } satisfies IssueQueue;
    try {
      issuanceFaults.remaining = 1;
      const start = await startPay(w.ent, a.id);
      expect((await cashier(w, start.cashierUrl, 'pay')).statusCode).toBe(303);
      expect(queued).toEqual([a.id]);
      const mark = await sentinel(w.ids.ent);
      await s.until(mark);
      expect(s.notes().filter((n) => n.kind === 'policy.issued')).toEqual([]);
      expect(s.notes().filter((n) => n.kind === 'payment.received')).toHaveLength(1);
      const issued = await issuePolicy(w.ctx, a.id);
      const mark2 = await sentinel(w.ids.ent);
      await s.until(mark2);
      const told = s.notes().filter((n) => n.kind === 'policy.issued');
      expect(told).toHaveLength(1);
      expect(told[0]!.link).toBe(`/piibs/projectManage/policyInsuranceView/${issued!.policyId}`);
    } finally {
      issuanceFaults.remaining = 0;
      w.ctx.queue = queue;
    }
    s.ws.close();
  });
});

// ---- the socket's sign-in ----

describe('socket sign-in', () => {
  it('a bad token, a malformed message or a password-change session: closed 4401', async () => {
    for (const raw of [
      JSON.stringify({ type: 'auth', token: 'not-a-token', after: 0 }),
      JSON.stringify({ type: 'hello' }),
      'not json',
    ]) {
      const s = await connect(null, 0, raw);
      expect((await s.closed).code).toBe(4401);
      expect(s.messages).toEqual([]);
    }
  });

  it('no auth message in time: closed 4401', async () => {
    const old = hub().settings.authTimeoutMs;
    hub().settings.authTimeoutMs = 200;
    try {
      const s = await connect(null);
      expect((await s.closed).code).toBe(4401);
    } finally {
      hub().settings.authTimeoutMs = old;
    }
  });

  it("the token goes in the first message, as the web sends it ('Bearer …' too)", async () => {
    const s = await ready(`Bearer ${await tokenFor(w.t, 'ag2')}`);
    s.ws.close();
  });

  it('logout (or any revocation) closes the socket with 4401 at once; others stay', async () => {
    const token = await tokenFor(w.t, 'ag2');
    const keep = await ready(await tokenFor(w.t, 'ag2'));
    const s = await ready(token);
    const res = await w.t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect((await s.closed).code).toBe(4401);
    const id = await sentinel(w.ids.agent2);
    await keep.until(id);
    expect(keep.ws.readyState).toBe(WebSocket.OPEN);
    keep.ws.close();
    // A revoked token cannot open a new socket either.
    const again = await connect(token);
    expect((await again.closed).code).toBe(4401);
  });

  it('a session that expired on the server is closed (4401) by the keep-alive round', async () => {
    const token = await tokenFor(w.t, 'ag2');
    const s = await ready(token);
    const sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
    await db()
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.id, sid));
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
    await hub().sweep();
    expect((await s.closed).code).toBe(4401);
  });

  it('a plain GET of the socket path answers 426 with the envelope', async () => {
    const res = await w.t.app.inject({ method: 'GET', url: '/api/notifications/ws' });
    expect(res.statusCode).toBe(426);
    expect(res.json()).toEqual({ status: 426, message: '请使用 WebSocket 连接消息推送通道' });
  });
});

// ---- REST ----

describe('the list and marking read', () => {
  let token = '';
  let reader: ReturnType<typeof client>;
  let readerId: number;
  const made: number[] = [];
  beforeAll(async () => {
    readerId = await createUser(w.t, { username: 'reader', roles: [] });
    token = await tokenFor(w.t, 'reader');
    reader = client(w.t, token);
    for (let i = 0; i < 5; i++) made.push(await sentinel(readerId));
  });

  const list = async (query: string) => {
    const res = await reader.get(`/api/notifications${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { content: Notification[]; unread: number; next: number | null };
  };
  const put = (payload: unknown) =>
    w.t.app.inject({
      method: 'PUT',
      url: '/api/notifications/read',
      headers: bearer(token),
      payload: payload as object,
    });

  it('pages newest first by `before`, with the unread count', async () => {
    const p1 = await list('?size=2');
    expect(p1.content.map((n) => n.id)).toEqual([made[4], made[3]]);
    expect(p1).toMatchObject({ unread: 5, next: made[3] });
    expect(p1.content[0]).toEqual({
      id: made[4],
      kind: 'task.assigned',
      title: '测试消息',
      body: '测试',
      link: null,
      createTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      read: false,
    });
    const p2 = await list(`?size=2&before=${p1.next}`);
    expect(p2.content.map((n) => n.id)).toEqual([made[2], made[1]]);
    const p3 = await list(`?size=2&before=${p2.next}`);
    expect(p3).toMatchObject({ content: [{ id: made[0] }], next: null });
    expect((await list('')).content).toHaveLength(5);
    const bad = await reader.get('/api/notifications?size=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^每页条数：/);
    expect((await reader.get('/api/notifications?unread=maybe')).json().message).toMatch(/^是否未读：/);
  });

  it('marks by ids (idempotent) and all; the unread filter and every open tab follow', async () => {
    const s = await ready(token);
    let res = await put({ ids: [made[0], made[1]] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ unread: 3 });
    await s.untilMessage((m) => m.type === 'read' && m.unread === 3);
    res = await put({ ids: [made[0]] });
    expect(res.json()).toEqual({ unread: 3 });
    expect((await list('?unread=true')).content.map((n) => n.id)).toEqual([made[4], made[3], made[2]]);
    const readOnes = await list('?unread=false');
    expect(readOnes.content.map((n) => n.id)).toEqual([made[1], made[0]]);
    expect(readOnes.content.every((n) => n.read)).toBe(true);
    res = await put({ all: true });
    expect(res.json()).toEqual({ unread: 0 });
    await s.untilMessage((m) => m.type === 'read' && m.unread === 0);
    expect((await list('')).unread).toBe(0);
    s.ws.close();
  });

  it("another user's notification cannot be marked (404, nothing changes); bodies are validated", async () => {
    const foreign = await sentinel(w.ids.ent2);
    const mine = await sentinel(readerId);
    const res = await put({ ids: [mine, foreign] });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 404, message: '通知不存在' });
    expect((await put({ ids: [99_999_999] })).statusCode).toBe(404);
    expect((await list('')).unread).toBe(1);
    const [row] = await db().select().from(notifications).where(eq(notifications.id, foreign));
    expect(row!.readAt).toBeNull();
    // Only the caller's own are listed.
    expect((await list('?size=100')).content.some((n) => n.id === foreign)).toBe(false);
    for (const body of [{}, { ids: [] }, { ids: [mine], all: true }, { all: false }, { ids: ['x'] }]) {
      const bad = await put(body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().message).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  it('needs a sign-in', async () => {
    expect((await w.t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
    expect(
      (await w.t.app.inject({ method: 'PUT', url: '/api/notifications/read', payload: { all: true } }))
        .statusCode,
    ).toBe(401);
  });
});

const adminId = () => userId(w.t, 'admin');
