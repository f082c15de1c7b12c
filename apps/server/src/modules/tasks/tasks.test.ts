import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../../test/admin.ts';
import { createUser, tokenFor } from '../../../test/auth.ts';
import { type Client, createWorld, customerForm, type World } from '../../../test/business.ts';
import { auditLog, menus, notifications, roleMenus, roles } from '../../db/schema.ts';
import { bumpMenuVersion } from '../menus/service.ts';

let w: World;
let uw2: Client;
let uw2Id: number;
/** A lead: reviews customers and holds task:assign through an ordinary (non-admin) role. */
let lead: Client;
beforeAll(async () => {
  w = await createWorld();
  uw2Id = await createUser(w.t, { username: 'uw2', roles: ['underwriter'] });
  uw2 = client(w.t, await tokenFor(w.t, 'uw2'));
  const db = w.t.database.db;
  const [role] = await db
    .insert(roles)
    .values({ code: 'uwlead', name: '核保主管', level: 2 })
    .returning({ id: roles.id });
  const granted = await db
    .select({ id: menus.id })
    .from(menus)
    .where(inArray(menus.permission, ['customer:review', 'task:assign']));
  expect(granted).toHaveLength(2);
  await db.insert(roleMenus).values(granted.map((m) => ({ roleId: role!.id, menuId: m.id })));
  await bumpMenuVersion(db);
  await createUser(w.t, { username: 'lead', roles: ['uwlead'] });
  lead = client(w.t, await tokenFor(w.t, 'lead'));
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
  title: string;
  decision: string | null;
  subjectId: number;
  ageSeconds: number;
  assignee: { id: number; name: string } | null;
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
      expect(res.json()).toEqual({
        status: 400,
        message: '审核意见：退回或拒绝时必须填写审核意见',
        errors: [{ field: 'opinion', message: '退回或拒绝时必须填写审核意见' }],
      });
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

  it('a keyword finds the task whatever its state: a decided one by its title, without choosing 已处理', async () => {
    const done = (await w.underwriter.get('/api/tasks?status=done&size=1')).json().content[0] as Task;
    const found = (await w.underwriter.get(`/api/tasks?blurry=${encodeURIComponent(done.title)}`)).json();
    expect(found.content.map((t: Task) => t.id)).toContain(done.id);
    // Without a keyword the queue stays the waiting one; 待处理 chosen with the keyword leaves it out.
    const queue = (await w.underwriter.get('/api/tasks?size=500')).json().content as Task[];
    expect(queue.every((t) => t.status === 'open')).toBe(true);
    const open = (
      await w.underwriter.get(`/api/tasks?status=open&blurry=${encodeURIComponent(done.title)}`)
    ).json();
    expect(open.content.map((t: Task) => t.id)).not.toContain(done.id);
    expect((await w.underwriter.get('/api/tasks?status=closed')).json().message).toBe(
      '任务状态：请选择正确的任务状态',
    );
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

describe('holding a task: 领取 / 指派 / 释放', () => {
  const claim = (who: Client, task: Pick<Task, 'id' | 'version'>) =>
    who.post(`/api/tasks/${task.id}/claim`, { version: task.version });
  const release = (who: Client, task: Pick<Task, 'id' | 'version'>) =>
    who.post(`/api/tasks/${task.id}/release`, { version: task.version });
  const assign = (who: Client, task: Pick<Task, 'id' | 'version'>, assigneeId: number) =>
    who.post(`/api/tasks/${task.id}/assign`, { assigneeId, version: task.version });
  const listIds = async (who: Client, query: string) =>
    ((await who.get(`/api/tasks?size=500&${query}`)).json().content as Task[]).map((t) => t.id);
  const auditOf = (taskId: number, action: string) =>
    w.t.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'review_task'),
          eq(auditLog.entityId, String(taskId)),
          eq(auditLog.action, action),
        ),
      );

  it('a reviewer claims an open task: it is theirs (version bumped, audited); a second claim by another → 409', async () => {
    const { task } = await pending();
    const res = await claim(w.underwriter, task);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      assignee: { id: w.ids.underwriter, name: 'uw' },
      version: task.version + 1,
      status: 'open',
    });
    expect(await auditOf(task.id, 'task_claim')).toMatchObject([
      {
        actorName: 'uw',
        detail: { before: { assigneeId: null }, after: { assigneeId: w.ids.underwriter } },
      },
    ]);
    const held = res.json() as Task;
    expect((await claim(uw2, held)).json()).toEqual({
      status: 409,
      message: '该任务已由「uw」领取，请刷新后查看',
    });
    // Claiming one's own task again changes nothing.
    const again = await claim(w.underwriter, held);
    expect(again.statusCode).toBe(200);
    expect(again.json().version).toBe(held.version);
    expect(await auditOf(task.id, 'task_claim')).toHaveLength(1);
  });

  it('a claim with a stale version answers 409; two claims at once: exactly one wins', async () => {
    const { task } = await pending();
    expect((await claim(w.underwriter, { id: task.id, version: task.version + 5 })).json()).toEqual({
      status: 409,
      message: '数据已被他人修改，请刷新后重试',
    });
    const results = await Promise.all([claim(w.underwriter, task), claim(uw2, task)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const now = (await w.underwriter.get(`/api/tasks/${task.id}`)).json() as Task;
    const winner = results.find((r) => r.statusCode === 200)!.json() as Task;
    expect(now.assignee).toEqual(winner.assignee);
  });

  it('a held task is decided by its holder only: another reviewer gets 409 naming the holder', async () => {
    const { customer, task } = await pending();
    const held = (await claim(uw2, task)).json() as Task;
    const refused = await decide(w.underwriter, held, 'approve');
    expect(refused.json()).toEqual({ status: 409, message: '该任务已由「uw2」领取，只有处理人可以审核' });
    expect((await customerOf(customer.id)).reviewStatus).toBe('pending');
    const res = await decide(uw2, held, 'approve');
    expect(res.statusCode, res.body).toBe(200);
    expect((await customerOf(customer.id)).reviewStatus).toBe('approved');
    // A done task is no longer claimed.
    expect((await claim(w.underwriter, res.json())).json()).toEqual({
      status: 409,
      message: '该任务已被处理，请刷新后查看',
    });
  });

  it('assigning needs task:assign (403); a lead assigns to a reviewer, who is told; audited', async () => {
    const { task } = await pending();
    expect((await assign(w.underwriter, task, uw2Id)).statusCode).toBe(403);
    expect((await w.underwriter.get(`/api/tasks/${task.id}/assignees`)).statusCode).toBe(403);
    expect((await assign(w.agent, task, uw2Id)).statusCode).toBe(403);

    const options = (await lead.get(`/api/tasks/${task.id}/assignees`)).json() as {
      id: number;
      name: string;
    }[];
    const optionIds = options.map((o) => o.id);
    expect(optionIds).toEqual(expect.arrayContaining([w.ids.underwriter, uw2Id]));
    // Not reviewers of customers (or its submitter): never offered, refused when sent.
    expect(optionIds).not.toContain(w.ids.agent);
    expect(optionIds).not.toContain(w.ids.ent);
    expect((await assign(lead, task, w.ids.agent)).json()).toEqual({
      status: 400,
      message: '处理人：该用户不能审核此任务',
      errors: [{ field: 'assigneeId', message: '该用户不能审核此任务' }],
    });

    const res = await assign(lead, task, uw2Id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ assignee: { id: uw2Id, name: 'uw2' }, version: task.version + 1 });
    const told = await w.t.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, uw2Id), eq(notifications.title, '指派给您的投保人信息审核任务')));
    expect(told.map((n) => n.link)).toContain(`/piibs/task/audit/${task.id}/true`);
    expect(told.find((n) => n.link === `/piibs/task/audit/${task.id}/true`)!.body).toContain('lead 将「');
    expect(await auditOf(task.id, 'task_assign')).toMatchObject([
      { actorName: 'lead', detail: { before: { assigneeId: null }, after: { assigneeId: uw2Id } } },
    ]);
    // A lead re-assigns a held task; a stale version is refused.
    expect((await assign(lead, task, w.ids.underwriter)).statusCode).toBe(409);
    const moved = await assign(lead, res.json(), w.ids.underwriter);
    expect(moved.json().assignee).toEqual({ id: w.ids.underwriter, name: 'uw' });
    // …and the reviewer who held it is told it went to someone else, with a link to view it.
    const former = await w.t.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, uw2Id), eq(notifications.title, '投保人信息审核任务已改派')));
    expect(former.map((n) => n.body)).toEqual([
      expect.stringMatching(/^lead 已将「.+」改派给 uw，您无需再处理。$/),
    ]);
    expect(former[0]!.link).toBe(`/piibs/task/audit/${task.id}/false`);
    // The administrator holds task:assign without a grant.
    expect((await assign(w.admin, moved.json(), uw2Id)).json().assignee.id).toBe(uw2Id);
  });

  it('the holder (or a lead) releases a task; another reviewer may not (403)', async () => {
    const { task } = await pending();
    const held = (await claim(w.underwriter, task)).json() as Task;
    expect((await release(uw2, held)).json()).toEqual({
      status: 403,
      message: '只有处理人或有指派权限的用户可以释放该任务',
    });
    const freed = await release(w.underwriter, held);
    expect(freed.statusCode, freed.body).toBe(200);
    expect(freed.json()).toMatchObject({ assignee: null, version: held.version + 1 });
    const again = (await claim(uw2, freed.json())).json() as Task;
    expect(again.assignee?.id).toBe(uw2Id);
    expect((await release(lead, again)).json().assignee).toBeNull();
    expect(await auditOf(task.id, 'task_release')).toHaveLength(2);
  });

  it('filters the queue by assignee: me, none or a user id; anything else → 400', async () => {
    const mine = await pending();
    const theirs = await pending();
    const free = await pending();
    await claim(w.underwriter, mine.task);
    await claim(uw2, theirs.task);
    const ids = [mine.task.id, theirs.task.id, free.task.id];
    const only = (list: number[]) => ids.filter((id) => list.includes(id));
    expect(only(await listIds(w.underwriter, 'assignee=me'))).toEqual([mine.task.id]);
    expect(only(await listIds(uw2, 'assignee=me'))).toEqual([theirs.task.id]);
    expect(only(await listIds(w.underwriter, 'assignee=none'))).toEqual([free.task.id]);
    expect(only(await listIds(w.underwriter, `assignee=${uw2Id}`))).toEqual([theirs.task.id]);
    expect(only(await listIds(w.underwriter, ''))).toEqual(ids);
    const bad = await w.underwriter.get('/api/tasks?assignee=someone');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('处理人');
  });

  it('filters by decision (done tasks)', async () => {
    const a = await pending();
    const b = await pending();
    await decide(w.underwriter, a.task, 'approve');
    await decide(w.underwriter, b.task, 'reject', '不符合');
    const approved = await listIds(w.underwriter, 'status=done&decision=approve');
    expect(approved).toContain(a.task.id);
    expect(approved).not.toContain(b.task.id);
  });
});
