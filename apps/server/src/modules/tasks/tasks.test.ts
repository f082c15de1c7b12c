import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../../test/admin.ts';
import { createUser, tokenFor } from '../../../test/auth.ts';
import { type Client, createWorld, customerForm, type World } from '../../../test/business.ts';
import { auditLog } from '../../db/schema.ts';

let w: World;
let uw2: Client;
beforeAll(async () => {
  w = await createWorld();
  await createUser(w.t, { username: 'uw2', roles: ['underwriter'] });
  uw2 = client(w.t, await tokenFor(w.t, 'uw2'));
});
afterAll(() => w.t.close());

type Customer = {
  id: number;
  version: number;
  reviewStatus: string;
  reviewOpinion: string | null;
  openTaskId: number | null;
};
type Task = {
  id: number;
  version: number;
  status: string;
  decision: string | null;
  subjectId: number;
  ageSeconds: number;
};

/** An agent's new client, pending with its open task. */
async function pending(): Promise<{ customer: Customer; task: Task }> {
  const res = await w.agent.post('/api/customers', customerForm());
  if (res.statusCode !== 200) throw new Error(res.body);
  const customer = res.json() as Customer;
  const task = (await w.underwriter.get(`/api/tasks/${customer.openTaskId}`)).json() as Task;
  return { customer, task };
}
const decide = (who: Client, task: Task, decision: string, opinion?: string) =>
  who.post(`/api/tasks/${task.id}/decide`, {
    decision,
    version: task.version,
    ...(opinion ? { opinion } : {}),
  });
const customerOf = async (id: number) => (await w.underwriter.get(`/api/customers/${id}`)).json() as Customer;

describe('review state machine: pending → approved / returned / rejected', () => {
  it.each([
    ['approve', 'approved', undefined],
    ['return', 'returned', '请补充营业执照'],
    ['reject', 'rejected', '不符合承保条件'],
  ])('pending --%s--> %s; the decision is in the audit trail', async (decision, status, opinion) => {
    const { customer, task } = await pending();
    const res = await decide(w.underwriter, task, decision, opinion);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'done',
      decision,
      opinion: opinion ?? null,
      version: task.version + 1,
    });
    expect(res.json().decidedBy.name).toBe('uw');
    expect(await customerOf(customer.id)).toMatchObject({
      reviewStatus: status,
      reviewOpinion: opinion ?? null,
      openTaskId: null,
    });
    const [entry] = await w.t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(customer.id)), eq(auditLog.action, `review_${decision}`)));
    expect(entry).toMatchObject({
      actorName: 'uw',
      entity: 'customer',
      detail: { taskId: task.id, decision, opinion: opinion ?? null, before: { reviewStatus: 'pending' } },
    });
  });

  it.each(['return', 'reject'])('%s without an opinion answers 400 naming 审核意见', async (decision) => {
    const { task } = await pending();
    for (const opinion of [undefined, '   ']) {
      const res = await w.underwriter.post(`/api/tasks/${task.id}/decide`, {
        decision,
        version: task.version,
        opinion,
      });
      expect(res.json()).toEqual({ status: 400, message: '审核意见：退回或拒绝时必须填写审核意见' });
    }
  });

  it.each([
    ['approve', 'approve'],
    ['approve', 'reject'],
    ['return', 'approve'],
    ['reject', 'approve'],
    ['reject', 'return'],
  ])(
    'after %s, a second decision (%s) answers 409: decided records are not pending',
    async (first, second) => {
      const { task } = await pending();
      const done = await decide(w.underwriter, task, first, '意见');
      expect(done.statusCode).toBe(200);
      expect((await decide(w.underwriter, done.json(), second, '意见')).statusCode).toBe(409);
      expect((await decide(w.underwriter, task, second, '意见')).statusCode).toBe(409);
    },
  );

  it('returned → pending on resubmit (a new task), then approved', async () => {
    const { customer, task } = await pending();
    await decide(w.underwriter, task, 'return', '地址有误');
    const returned = (await w.agent.get(`/api/customers/${customer.id}`)).json() as Customer;
    expect(returned).toMatchObject({ reviewStatus: 'returned', reviewOpinion: '地址有误', openTaskId: null });
    const res = await w.agent.post(`/api/customers/${customer.id}/resubmit`, {
      version: returned.version,
      note: '已核实',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().reviewStatus).toBe('pending');
    const next = (await w.underwriter.get(`/api/tasks/${res.json().openTaskId}`)).json();
    expect(next.id).not.toBe(task.id);
    expect(next.history.map((h: Task) => [h.id, h.decision])).toEqual([[task.id, 'return']]);
    expect(next.changes.map((c: { action: string }) => c.action)).toEqual([
      'resubmit',
      'review_return',
      'create',
    ]);
    expect((await decide(w.underwriter, next, 'approve')).statusCode).toBe(200);
    expect((await customerOf(customer.id)).reviewStatus).toBe('approved');
  });

  it('only a returned record can be resubmitted (pending, approved, rejected → 409)', async () => {
    const a = await pending();
    expect(
      (
        await w.agent.post(`/api/customers/${a.customer.id}/resubmit`, { version: a.customer.version })
      ).json(),
    ).toEqual({ status: 409, message: '只有已退回的投保人可以重新提交审核' });
    for (const decision of ['approve', 'reject']) {
      const b = await pending();
      await decide(w.underwriter, b.task, decision, '意见');
      const now = await customerOf(b.customer.id);
      expect(
        (await w.agent.post(`/api/customers/${b.customer.id}/resubmit`, { version: now.version })).statusCode,
      ).toBe(409);
    }
  });

  it('rejected is final: the owner can no longer edit it', async () => {
    const { customer, task } = await pending();
    await decide(w.underwriter, task, 'reject', '失信');
    const now = (await w.agent.get(`/api/customers/${customer.id}`)).json();
    const body = { ...customerForm({ uscc: now.uscc, phone: now.phone }), id: now.id, version: now.version };
    expect((await w.agent.post('/api/customers/update', body)).json()).toEqual({
      status: 409,
      message: '投保人已被拒绝，不能修改',
    });
  });

  it('an edit while pending bumps the open task: a reviewer deciding on the old version gets 409', async () => {
    const { customer, task } = await pending();
    const current = (await w.agent.get(`/api/customers/${customer.id}`)).json();
    const edit = await w.agent.post('/api/customers/update', {
      ...customerForm({ uscc: current.uscc, phone: current.phone, headcount: 99 }),
      id: customer.id,
      version: current.version,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().openTaskId).toBe(task.id);
    const stale = await decide(w.underwriter, task, 'approve');
    expect(stale.json()).toEqual({ status: 409, message: '数据已被他人修改，请刷新后重试' });
    const fresh = (await w.underwriter.get(`/api/tasks/${task.id}`)).json();
    expect(fresh.customer.headcount).toBe(99);
    expect((await decide(w.underwriter, fresh, 'approve')).statusCode).toBe(200);
  });
});

describe('two reviewers at once', () => {
  it('exactly one decision wins (200), the other gets 409', async () => {
    for (let i = 0; i < 3; i++) {
      const { customer, task } = await pending();
      const results = await Promise.all([
        decide(w.underwriter, task, 'approve'),
        decide(uw2, task, 'reject', '不予承保'),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const winner = results.find((r) => r.statusCode === 200)!.json();
      expect((await customerOf(customer.id)).reviewStatus).toBe(
        winner.decision === 'approve' ? 'approved' : 'rejected',
      );
      const decisions = await w.t.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'customer'), eq(auditLog.entityId, String(customer.id))))
        .orderBy(asc(auditLog.id));
      expect(decisions.filter((d) => d.action.startsWith('review_'))).toHaveLength(1);
    }
  });
});

describe('the queue', () => {
  it('lists waiting tasks oldest first with their age; done ones on request', async () => {
    const first = await pending();
    const second = await pending();
    const res = await w.underwriter.get('/api/tasks?kind=customer&size=500');
    expect(res.statusCode).toBe(200);
    const ids = res.json().content.map((t: Task) => t.id);
    expect(ids.indexOf(first.task.id)).toBeLessThan(ids.indexOf(second.task.id));
    expect(res.json().content.every((t: Task) => t.status === 'open' && t.ageSeconds >= 0)).toBe(true);
    const done = (await w.underwriter.get('/api/tasks?status=done&size=500')).json();
    expect(done.content.length).toBeGreaterThan(0);
    expect(done.content.every((t: Task) => t.status === 'done' && t.decision)).toBe(true);
    const newest = (await w.underwriter.get('/api/tasks?sort=createdAt,desc&size=2')).json();
    expect(newest.content[0].id).toBe(second.task.id);
  });

  it('the detail shows the customer (phone masked), earlier decisions and the change history', async () => {
    const { customer, task } = await pending();
    const res = await w.underwriter.get(`/api/tasks/${task.id}`);
    expect(res.json()).toMatchObject({
      kind: 'customer',
      subjectId: customer.id,
      status: 'open',
      customer: { id: customer.id, phone: '138****5678', reviewStatus: 'pending' },
      history: [],
    });
    expect(res.json().title).toContain('镇江测试企业');
    expect(res.json().changes[0]).toMatchObject({ actor: 'ag', action: 'create' });
  });

  it('needs customer:review: agents, enterprises and signed-out callers are refused', async () => {
    const { task } = await pending();
    for (const who of [w.agent, w.ent, w.nobody]) {
      expect((await who.get('/api/tasks')).statusCode).toBe(403);
      expect((await who.get(`/api/tasks/${task.id}`)).statusCode).toBe(403);
      expect((await decide(who, task, 'approve')).statusCode).toBe(403);
    }
    expect((await w.t.app.inject({ method: 'GET', url: '/api/tasks' })).statusCode).toBe(401);
    expect((await w.underwriter.get('/api/tasks/999999')).statusCode).toBe(404);
  });
});
