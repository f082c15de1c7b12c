import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { formatFen } from '@piibs/shared/money';
import { complaintDeadline, weekdayOf } from '@piibs/shared/risk-control';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../../test/admin.ts';
import {
  auditLog,
  preventionFunds,
  preventionLedger,
  preventionPlanItems,
  serviceOrders,
} from '../../db/schema.ts';
import type { RequestUser } from '../auth/sessions.ts';
import { preventionViewerFor } from './access.ts';
import { serviceOrderMaterialAccess } from './materials.ts';
import { complain } from './order-records.ts';
import { type Client, createRiskWorld, dayInPeriod, orgForm, type RiskWorld } from './test-fixtures.ts';

let w: RiskWorld;
let total: number;
beforeAll(async () => {
  w = await createRiskWorld();
  total = w.policy.preventionFeeFen;
});
afterAll(() => w.t.close());

type Fund = { totalFen: number; plannedFen: number; spentFen: number; leftFen: number };
type Plan = {
  seqNo: string;
  fund: Fund;
  party: string;
  canPlan: boolean;
  items: {
    id: number;
    version: number;
    reservedFen: number;
    spentFen: number;
    orgId: number;
    liveOrders: number;
  }[];
};
type Order = {
  id: number;
  number: string;
  status: string;
  version: number;
  costFen: number;
  actions: string[];
  party: string;
  persons: { id: number; name: string }[];
  hazards: { id: number; status: string; level: string }[];
  events: { action: string; fromStatus: string | null; toStatus: string; opinion: string | null }[];
  complaints: { id: number; status: string; deadline: string; complainedOn: string }[];
  satisfaction: number | null;
  openComplaint: boolean;
  returnOpinion: string | null;
  fund: Fund;
};

const today = shanghaiToday();
const planOf = async (who: Client, seqNo = w.seqNo) =>
  (await who.get(`/api/prevention/plans/${seqNo}`)).json() as Plan;
const orderOf = async (ref: string | number) =>
  (await w.admin.get(`/api/prevention/orders/${ref}`)).json() as Order;

function item(over: Record<string, unknown> = {}) {
  return {
    itemType: 'HAZARD_INSPECTION',
    content: '生产车间、仓库、配电房隐患排查',
    frequency: 'QUARTERLY',
    unitCostFen: 1_000,
    orgId: w.org1.id,
    personIds: [w.persons.a],
    ...over,
  };
}

async function addItem(over: Record<string, unknown> = {}, seqNo = w.seqNo) {
  const res = await w.underwriter.post(`/api/prevention/plans/${seqNo}/items`, item(over));
  if (res.statusCode !== 200) throw new Error(res.body);
  const plan = res.json() as Plan;
  return { plan, item: plan.items[plan.items.length - 1]! };
}

async function dispatch(itemId: number, over: Record<string, unknown> = {}, seqNo = w.seqNo) {
  const policy = seqNo === w.seqNo ? w.policy : w.policy2;
  const res = await w.underwriter.post(`/api/prevention/plans/${seqNo}/orders`, {
    planItemId: itemId,
    scheduledDate: dayInPeriod(policy, 3),
    ...over,
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json() as Order;
}

/** Posts an action with the order's current version. */
async function act(who: Client, ref: string | number, action: string, body: Record<string, unknown> = {}) {
  const { version } = await orderOf(ref);
  return who.post(`/api/prevention/orders/${ref}/${action}`, { version, ...body });
}

function record(extra: Record<string, unknown> = {}) {
  return {
    serviceDate: today,
    address: '镇江市润州区南徐大道 88 号',
    findings: '对生产车间、仓库和配电房进行了隐患排查，总体情况良好。',
    hazards: [
      {
        description: '二号车间消防通道堆放物料',
        location: '二号车间',
        level: 'MAJOR',
        measure: '立即清理',
        deadline: addDays(today, 7),
      },
      { description: '配电箱未上锁', level: 'GENERAL', deadline: addDays(today, 15) },
    ],
    participants: [
      { name: '王安全', side: 'ORG', position: '高级工程师' },
      { name: '陈晓梅', side: 'ENTERPRISE', position: '安全主管' },
    ],
    ...extra,
  };
}

async function expectOk<R extends { statusCode: number; body: string }>(p: Promise<R>): Promise<R> {
  const res = await p;
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

/** Brings a dispatched order to SUBMITTED through the organisation's account. */
async function toSubmitted(ref: string | number, who: Client = w.svc, rec = record()) {
  await expectOk(act(who, ref, 'accept'));
  await expectOk(act(who, ref, 'start'));
  await expectOk(act(who, ref, 'record', rec));
  await expectOk(act(who, ref, 'submit'));
}

async function fundRow() {
  const [f] = await w.t.database.db
    .select()
    .from(preventionFunds)
    .where(eq(preventionFunds.policyId, w.policy.id));
  return f!;
}

describe('the prevention fund and the plan', () => {
  it('starts as the policy prevention fee, nothing planned or spent', async () => {
    expect(total).toBeGreaterThan(20_000);
    const plan = await planOf(w.underwriter);
    expect(plan).toMatchObject({
      seqNo: w.seqNo,
      party: 'insurer',
      canPlan: true,
      fund: { totalFen: total, plannedFen: 0, spentFen: 0, leftFen: total },
      items: [],
    });
    expect((await planOf(w.ent)).party).toBe('enterprise');
    // Not (yet) serving it, another enterprise, an unlinked account: 404.
    for (const who of [w.svc, w.ent2, w.svcLoose])
      expect((await who.get(`/api/prevention/plans/${w.seqNo}`)).statusCode).toBe(404);
    expect((await w.underwriter.get('/api/prevention/plans/YFPNOPE202600000000')).statusCode).toBe(404);
  });

  it('a plan item reserves unit cost × times; the ledger records it with the amounts after', async () => {
    const { plan, item: it1 } = await addItem();
    expect(it1).toMatchObject({ reservedFen: 4_000, spentFen: 0, liveOrders: 0 });
    expect(plan.fund).toEqual({ totalFen: total, plannedFen: 4_000, spentFen: 0, leftFen: total - 4_000 });
    const ledger = (await w.underwriter.get(`/api/prevention/plans/${w.seqNo}/ledger`)).json();
    expect(ledger.entries).toHaveLength(1);
    expect(ledger.entries[0]).toMatchObject({
      kind: 'RESERVE',
      amountFen: 4_000,
      plannedDeltaFen: 4_000,
      spentDeltaFen: 0,
      plannedAfterFen: 4_000,
      spentAfterFen: 0,
      leftAfterFen: total - 4_000,
      planItemId: it1.id,
    });
    // The organisation now serves the policy: it sees the record (its own items).
    const seen = await planOf(w.svc);
    expect(seen.party).toBe('org');
    expect(seen.items.map((i) => i.id)).toEqual([it1.id]);
  });

  it('refuses a reservation beyond what is left, naming both amounts', async () => {
    const { fund } = await planOf(w.underwriter);
    const res = await w.underwriter.post(
      `/api/prevention/plans/${w.seqNo}/items`,
      item({ itemType: 'SAFETY_TRAINING', frequency: 'ONCE', unitCostFen: fund.leftFen + 1 }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      `事故预防费用余额不足：剩余 ${formatFen(fund.leftFen)}，本次需要 ${formatFen(fund.leftFen + 1)}`,
    );
    expect((await planOf(w.underwriter)).fund).toEqual(fund);
  });

  it('only insurer staff plan; organisations must serve the region and the industry', async () => {
    expect((await w.ent.post(`/api/prevention/plans/${w.seqNo}/items`, item())).statusCode).toBe(403);
    expect((await w.svc.post(`/api/prevention/plans/${w.seqNo}/items`, item())).statusCode).toBe(403);
    const nanjing = (await w.underwriter.post('/api/service-orgs', orgForm({ regions: ['320100'] }))).json();
    const far = await w.underwriter.post(
      `/api/prevention/plans/${w.seqNo}/items`,
      item({ orgId: nanjing.id, personIds: [] }),
    );
    expect(far.statusCode).toBe(400);
    expect(far.json().message).toContain('不在该企业所在地区提供服务');
    const otherPerson = await w.underwriter.post(
      `/api/prevention/plans/${w.seqNo}/items`,
      item({ personIds: [w.persons.c] }),
    );
    expect(otherPerson.statusCode).toBe(400);
    const outside = await w.underwriter.post(
      `/api/prevention/plans/${w.seqNo}/items`,
      item({ scheduledDates: [addDays(w.policy.endDate, 1)] }),
    );
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toContain('不在保险期间');
  });

  it('changing an item moves the reservation by the difference; a stale version answers 409', async () => {
    const { item: it2, plan: before } = await addItem({
      itemType: 'SAFETY_TRAINING',
      frequency: 'SEMIANNUAL',
      unitCostFen: 2_500,
    });
    expect(it2.reservedFen).toBe(5_000);
    const url = `/api/prevention/plans/${w.seqNo}/items/${it2.id}/update`;
    const body = item({
      itemType: 'SAFETY_TRAINING',
      frequency: 'SEMIANNUAL',
      times: 3,
      unitCostFen: 2_000,
      version: it2.version,
    });
    const res = await w.underwriter.post(url, body);
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json() as Plan;
    expect(after.items.find((i) => i.id === it2.id)!.reservedFen).toBe(6_000);
    expect(after.fund.plannedFen - before.fund.plannedFen).toBe(1_000);
    expect((await w.underwriter.post(url, body)).statusCode).toBe(409);
    // Deleting releases the reservation.
    const del = await w.underwriter.post(`/api/prevention/plans/${w.seqNo}/items/${it2.id}/delete`, {
      version: it2.version + 1,
    });
    expect(del.statusCode, del.body).toBe(200);
    expect((del.json() as Plan).fund.plannedFen).toBe(before.fund.plannedFen - 5_000);
    const kinds = (await w.underwriter.get(`/api/prevention/plans/${w.seqNo}/ledger`))
      .json()
      .entries.map((e: { kind: string; plannedDeltaFen: number }) => `${e.kind}${e.plannedDeltaFen}`);
    expect(kinds.slice(-3)).toEqual(['RESERVE5000', 'RESERVE1000', 'RELEASE-6000']);
  });

  it('of two concurrent reservations of the last amount exactly one succeeds', async () => {
    const { fund } = await planOf(w.underwriter);
    const body = item({ itemType: 'EMERGENCY_DRILL', frequency: 'ONCE', unitCostFen: fund.leftFen });
    const url = `/api/prevention/plans/${w.seqNo}/items`;
    const [a, b] = await Promise.all([w.underwriter.post(url, body), w.underwriter.post(url, body)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    const loser = a.statusCode === 400 ? a : b;
    expect(loser.json().message).toBe(
      `事故预防费用余额不足：剩余 ¥0.00，本次需要 ${formatFen(fund.leftFen)}`,
    );
    const now = (await planOf(w.underwriter)).fund;
    expect(now).toMatchObject({ plannedFen: fund.plannedFen + fund.leftFen, leftFen: 0 });
    // Give the amount back for the tests that follow.
    const winner = (a.statusCode === 200 ? a : b).json() as Plan;
    const drill = winner.items.find((i) => i.reservedFen === fund.leftFen)!;
    await expectOk(
      w.underwriter.post(`/api/prevention/plans/${w.seqNo}/items/${drill.id}/delete`, {
        version: drill.version,
      }),
    );
  });
});

describe('plan item scheduled dates', () => {
  type Dated = { id: number; version: number; times: number; scheduledDates: string[] };
  const datedOf = (plan: unknown, id: number) => (plan as { items: Dated[] }).items.find((i) => i.id === id)!;

  it('refuses more dates than times naming the field; an edit without dates keeps them, with dates replaces', async () => {
    const days = [dayInPeriod(w.policy, 40), dayInPeriod(w.policy, 10), dayInPeriod(w.policy, 70)];
    const url = `/api/prevention/plans/${w.seqNo}/items`;
    const before = await planOf(w.underwriter);
    const tooMany = await w.underwriter.post(
      url,
      item({ itemType: 'SAFETY_TRAINING', frequency: 'SEMIANNUAL', scheduledDates: days }),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe('计划日期：不能多于计划次数（2 次），已选 3 个日期');
    // Nothing was planned or reserved.
    const unchanged = await planOf(w.underwriter);
    expect(unchanged.items).toHaveLength(before.items.length);
    expect(unchanged.fund).toEqual(before.fund);

    const { item: added } = await addItem({
      itemType: 'SAFETY_TRAINING',
      frequency: 'SEMIANNUAL',
      unitCostFen: 2_500,
      scheduledDates: days.slice(0, 2),
    });
    const stored = datedOf(await planOf(w.underwriter), added.id);
    // Sorted, as stored.
    expect(stored.scheduledDates).toEqual([days[1], days[0]]);

    // An edit that does not send the dates (an older client) keeps them.
    const edit = `/api/prevention/plans/${w.seqNo}/items/${added.id}/update`;
    const kept = await w.underwriter.post(
      edit,
      item({
        itemType: 'SAFETY_TRAINING',
        frequency: 'SEMIANNUAL',
        unitCostFen: 3_000,
        version: stored.version,
      }),
    );
    expect(kept.statusCode, kept.body).toBe(200);
    const afterKeep = datedOf(kept.json(), added.id);
    expect(afterKeep.scheduledDates).toEqual([days[1], days[0]]);

    // Lowering the times below the stored dates is refused at the dates; nothing changes.
    const fewer = await w.underwriter.post(
      edit,
      item({
        itemType: 'SAFETY_TRAINING',
        frequency: 'ONCE',
        times: 1,
        unitCostFen: 3_000,
        version: afterKeep.version,
      }),
    );
    expect(fewer.statusCode).toBe(400);
    expect(fewer.json().message).toBe('计划日期：不能多于计划次数（1 次），已选 2 个日期');

    // Sending dates replaces them; an empty list clears them.
    const replaced = await w.underwriter.post(
      edit,
      item({
        itemType: 'SAFETY_TRAINING',
        frequency: 'SEMIANNUAL',
        unitCostFen: 3_000,
        scheduledDates: [days[2]],
        version: afterKeep.version,
      }),
    );
    expect(replaced.statusCode, replaced.body).toBe(200);
    const afterReplace = datedOf(replaced.json(), added.id);
    expect(afterReplace.scheduledDates).toEqual([days[2]]);
    const cleared = await w.underwriter.post(
      edit,
      item({
        itemType: 'SAFETY_TRAINING',
        frequency: 'SEMIANNUAL',
        unitCostFen: 3_000,
        scheduledDates: [],
        version: afterReplace.version,
      }),
    );
    expect(datedOf(cleared.json(), added.id).scheduledDates).toEqual([]);
    const [audit] = await w.t.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'prevention_plan_item'),
          eq(auditLog.entityId, String(added.id)),
          eq(auditLog.action, 'update'),
        ),
      )
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(audit!.detail).toMatchObject({
      before: { scheduledDates: [days[2]] },
      after: { scheduledDates: [] },
    });

    // Give the amount back for the tests that follow.
    await expectOk(
      w.underwriter.post(`/api/prevention/plans/${w.seqNo}/items/${added.id}/delete`, {
        version: datedOf(cleared.json(), added.id).version,
      }),
    );
  });
});

describe('service orders', () => {
  let itemId: number;
  let o1: Order;
  beforeAll(async () => {
    itemId = (await planOf(w.underwriter)).items[0]!.id;
    o1 = await dispatch(itemId);
  });

  it('dispatches to the item organisation with a number under the record', () => {
    expect(o1).toMatchObject({ status: 'DISPATCHED', costFen: 1_000, party: 'insurer', actions: ['cancel'] });
    expect(o1.number).toMatch(new RegExp(`^${w.seqNo}-\\d{3}$`));
    expect(o1.events.map((e) => e.action)).toEqual(['dispatch']);
  });

  it("names the assigned persons, in their order, on the organisation's list and on the order", async () => {
    const two = await dispatch(itemId, { personIds: [w.persons.b, w.persons.a] });
    const persons = [
      { id: w.persons.b, name: '李培训' },
      { id: w.persons.a, name: '王安全' },
    ];
    const list = (await w.svc.get('/api/prevention/orders?size=100')).json() as { content: Order[] };
    expect(list.content.find((o) => o.id === two.id)?.persons).toEqual(persons);
    expect((await orderOf(two.id)).persons).toEqual(persons);
    expect((await act(w.underwriter, two.id, 'cancel', { reason: '测试派单，撤销' })).statusCode).toBe(200);
  });

  it('checks the persons and the schedule at dispatch', async () => {
    const foreign = await w.underwriter.post(`/api/prevention/plans/${w.seqNo}/orders`, {
      planItemId: itemId,
      scheduledDate: dayInPeriod(w.policy, 3),
      personIds: [w.persons.c],
    });
    expect(foreign.statusCode).toBe(400);
    const past = await w.underwriter.post(`/api/prevention/plans/${w.seqNo}/orders`, {
      planItemId: itemId,
      scheduledDate: addDays(w.policy.startDate, -2),
    });
    expect(past.statusCode).toBe(400);
    expect(
      (
        await w.svc.post(`/api/prevention/plans/${w.seqNo}/orders`, {
          planItemId: itemId,
          scheduledDate: dayInPeriod(w.policy, 3),
        })
      ).statusCode,
    ).toBe(403);
  });

  it('each party sees only its own: other organisations and enterprises get 404', async () => {
    expect((await w.svc.get(`/api/prevention/orders/${o1.number}`)).json().party).toBe('org');
    expect((await w.ent.get(`/api/prevention/orders/${o1.id}`)).json().party).toBe('enterprise');
    for (const who of [w.svc2, w.ent2, w.svcLoose]) {
      expect((await who.get(`/api/prevention/orders/${o1.number}`)).statusCode).toBe(404);
      expect((await who.post(`/api/prevention/orders/${o1.number}/accept`, { version: 0 })).statusCode).toBe(
        who === w.ent2 ? 403 : 404,
      );
    }
    // The enterprise lacks prevention:serve (403); with every permission, admin is still not the organisation.
    expect(
      (await w.ent.post(`/api/prevention/orders/${o1.id}/accept`, { version: o1.version })).statusCode,
    ).toBe(403);
    const admin = await w.admin.post(`/api/prevention/orders/${o1.id}/accept`, { version: o1.version });
    expect(admin.statusCode).toBe(403);
    expect(admin.json().message).toBe('只有承接该服务的服务机构可以执行此操作');
    expect((await w.svc2.get('/api/prevention/orders')).json().totalElements).toBe(0);
    expect((await w.ent2.get('/api/prevention/orders')).json().totalElements).toBe(0);
    expect((await w.svc.get('/api/prevention/orders')).json().content.map((o: Order) => o.id)).toContain(
      o1.id,
    );
  });

  it('walks dispatch → accept → start → record → submit → return → submit → confirm → rectify → closed', async () => {
    const stale = await w.svc.post(`/api/prevention/orders/${o1.id}/accept`, { version: o1.version + 5 });
    expect(stale.statusCode).toBe(409);
    let res = await expectOk(act(w.svc, o1.id, 'accept'));
    expect(res.json()).toMatchObject({ status: 'ACCEPTED', actions: ['start'] });
    expect((await act(w.svc, o1.id, 'accept')).statusCode).toBe(409);
    expect((await act(w.svc, o1.id, 'record', record())).statusCode).toBe(409);
    await expectOk(act(w.svc, o1.id, 'start'));
    const early = await act(w.svc, o1.id, 'submit');
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toContain('服务记录');
    const future = await act(w.svc, o1.id, 'record', record({ serviceDate: addDays(today, 1) }));
    expect(future.statusCode).toBe(400);
    // Within the policy's period only: the day before it starts is refused (its boundaries: plans.test in shared).
    const { startDate, endDate } = w.policy;
    const beforeStart = await act(w.svc, o1.id, 'record', record({ serviceDate: addDays(startDate, -1) }));
    expect(beforeStart.json()).toMatchObject({
      status: 400,
      message: `服务日期：须在保险期间（${startDate} 至 ${endDate}）内`,
      errors: [{ field: 'serviceDate' }],
    });
    res = await expectOk(act(w.svc, o1.id, 'record', record()));
    expect(res.json().hazards.map((h: { level: string }) => h.level)).toEqual(['MAJOR', 'GENERAL']);
    await expectOk(act(w.svc, o1.id, 'submit'));
    // Only the enterprise confirms or returns.
    expect((await act(w.svc, o1.id, 'confirm', { satisfaction: 5 })).statusCode).toBe(403);
    expect((await act(w.ent, o1.id, 'return', { opinion: '' })).statusCode).toBe(400);
    res = await expectOk(act(w.ent, o1.id, 'return', { opinion: '请补充配电房检查情况' }));
    expect(res.json()).toMatchObject({ status: 'IN_SERVICE', returnOpinion: '请补充配电房检查情况' });
    await expectOk(act(w.svc, o1.id, 'record', record({ findings: '补充：配电房检查完毕。' })));
    await expectOk(act(w.svc, o1.id, 'submit'));

    const before = await fundRow();
    res = await expectOk(act(w.ent, o1.id, 'confirm', { satisfaction: 5, comment: '服务专业' }));
    const confirmed = res.json() as Order;
    expect(confirmed).toMatchObject({ status: 'CONFIRMED', satisfaction: 5 });
    // Spent from the item's reservation: planned −1 000, spent +1 000, left unchanged.
    const after = await fundRow();
    expect(after.spentFen - before.spentFen).toBe(1_000);
    expect(after.plannedFen - before.plannedFen).toBe(-1_000);
    expect(confirmed.fund.leftFen).toBe(total - after.plannedFen - after.spentFen);
    expect((await act(w.ent, o1.id, 'rate', { satisfaction: 4 })).statusCode).toBe(409);

    const [h1, h2] = confirmed.hazards;
    expect((await act(w.ent, o1.id, `hazards/${h1!.id}/rectify`, { rectifiedDate: today })).statusCode).toBe(
      403,
    );
    res = await expectOk(
      act(w.svc, o1.id, `hazards/${h1!.id}/rectify`, { rectifiedDate: today, note: '已清理' }),
    );
    expect(res.json().status).toBe('CONFIRMED');
    expect((await act(w.svc, o1.id, `hazards/${h1!.id}/rectify`, { rectifiedDate: today })).statusCode).toBe(
      409,
    );
    res = await expectOk(act(w.svc, o1.id, `hazards/${h2!.id}/rectify`, { rectifiedDate: today }));
    const closed = res.json() as Order;
    expect(closed.status).toBe('CLOSED');
    expect(closed.events.map((e) => e.action)).toEqual([
      'dispatch',
      'accept',
      'start',
      'submit',
      'return',
      'submit',
      'confirm',
      'rectify',
      'rectify',
      'close',
    ]);
    // Every transition is in the audit trail.
    const audited = await w.t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'service_order'), eq(auditLog.entityId, String(o1.id))))
      .orderBy(asc(auditLog.id));
    expect(audited.map((a) => a.action)).toEqual([
      'dispatch',
      'accept',
      'start',
      'record',
      'submit',
      'return',
      'record',
      'submit',
      'confirm',
      'rectify',
      'rectify',
      'close',
    ]);
    // Closed is final.
    for (const [who, action] of [
      [w.underwriter, 'cancel'],
      [w.ent, 'confirm'],
      [w.ent, 'return'],
      [w.svc, 'start'],
    ] as const)
      expect((await act(who, o1.id, action, { reason: 'x', opinion: 'x', satisfaction: 5 })).statusCode).toBe(
        409,
      );
  });

  it('confirming without hazards closes at once', async () => {
    const o = await dispatch(itemId);
    await toSubmitted(o.id, w.svc, record({ hazards: [] }));
    // 确认服务并评价: no confirmation without a rating, and nothing is spent.
    const unrated = await act(w.ent, o.id, 'confirm');
    expect(unrated.statusCode).toBe(400);
    expect(unrated.json()).toMatchObject({
      message: '满意度：不能为空',
      errors: [{ field: 'satisfaction', message: '不能为空' }],
    });
    expect((await orderOf(o.id)).status).toBe('SUBMITTED');
    const res = await expectOk(act(w.ent, o.id, 'confirm', { satisfaction: 4 }));
    expect(res.json().status).toBe('CLOSED');
  });

  it('rejects with a reason, cancels by staff, and refuses the transitions those states do not allow', async () => {
    const o2 = await dispatch(itemId);
    expect((await act(w.svc, o2.id, 'reject', { reason: '' })).statusCode).toBe(400);
    expect((await act(w.ent, o2.id, 'confirm', { satisfaction: 4 })).statusCode).toBe(409);
    let res = await expectOk(act(w.svc, o2.id, 'reject', { reason: '该日期人员已安排其他服务' }));
    expect(res.json().status).toBe('REJECTED');
    expect((await act(w.svc, o2.id, 'accept')).statusCode).toBe(409);
    expect((await act(w.underwriter, o2.id, 'cancel', { reason: '改派' })).statusCode).toBe(409);

    const o3 = await dispatch(itemId);
    await expectOk(act(w.svc, o3.id, 'accept'));
    expect((await act(w.svc, o3.id, 'cancel', { reason: '不想做' })).statusCode).toBe(403);
    expect((await act(w.ent, o3.id, 'cancel', { reason: '不需要' })).statusCode).toBe(403);
    res = await expectOk(act(w.underwriter, o3.id, 'cancel', { reason: '企业停产' }));
    expect(res.json().status).toBe('CANCELLED');
    expect((await act(w.svc, o3.id, 'start')).statusCode).toBe(409);
    expect((await act(w.svc, o3.id, 'submit')).statusCode).toBe(409);
  });

  it('dispatches no more than the planned times (rejected and cancelled orders do not count)', async () => {
    // Item: 4 times; live so far: o1 (closed), the no-hazard one (closed); o2 rejected, o3 cancelled.
    await dispatch(itemId);
    await dispatch(itemId);
    const res = await w.underwriter.post(`/api/prevention/plans/${w.seqNo}/orders`, {
      planItemId: itemId,
      scheduledDate: dayInPeriod(w.policy, 3),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('该服务项目已按计划派单 4 次，请先调整服务计划');
  });
});

describe('spending the last amount', () => {
  it('of two concurrent confirmations needing the last amount exactly one succeeds', async () => {
    // Two items of 1 × 500 each; an order of 1 000 on each: each needs 500 beyond its item's reservation.
    const consult = {
      itemType: 'EXPERT_CONSULTATION',
      frequency: 'ONCE',
      unitCostFen: 500,
      personIds: [w.persons.a, w.persons.b],
    };
    const { item: b1 } = await addItem(consult);
    const { item: b2 } = await addItem(consult);
    const x = await dispatch(b1.id, { costFen: 1_000 });
    const y = await dispatch(b2.id, { costFen: 1_000 });
    await toSubmitted(x.id, w.svc, record({ hazards: [] }));
    await toSubmitted(y.id, w.svc, record({ hazards: [] }));
    // Reserve all but 500 of what is left: x and y together need 1 000 of it.
    const { fund } = await planOf(w.underwriter);
    await addItem({ itemType: 'OTHER', frequency: 'ONCE', unitCostFen: fund.leftFen - 500, personIds: [] });
    expect((await planOf(w.underwriter)).fund.leftFen).toBe(500);

    const [vx, vy] = [(await orderOf(x.id)).version, (await orderOf(y.id)).version];
    const [rx, ry] = await Promise.all([
      w.ent.post(`/api/prevention/orders/${x.id}/confirm`, { version: vx, satisfaction: 3 }),
      w.ent.post(`/api/prevention/orders/${y.id}/confirm`, { version: vy, satisfaction: 3 }),
    ]);
    expect([rx.statusCode, ry.statusCode].sort()).toEqual([200, 400]);
    const loser = rx.statusCode === 400 ? rx : ry;
    expect(loser.json().message).toBe('事故预防费用余额不足：剩余 ¥5.00，本次需要 ¥10.00');
    const after = (await planOf(w.underwriter)).fund;
    expect(after.leftFen).toBe(0);
    expect(after.plannedFen + after.spentFen + after.leftFen).toBe(total);

    // The loser stays submitted; once money is freed, two concurrent confirmations of it: one 200, one 409.
    const loserId = loser === rx ? x.id : y.id;
    expect((await orderOf(loserId)).status).toBe('SUBMITTED');
    const other = (await planOf(w.underwriter)).items.find((i) => i.reservedFen === fund.leftFen - 500)!;
    await expectOk(
      w.underwriter.post(`/api/prevention/plans/${w.seqNo}/items/${other.id}/delete`, {
        version: other.version,
      }),
    );
    const v = (await orderOf(loserId)).version;
    const both = await Promise.all([
      w.ent.post(`/api/prevention/orders/${loserId}/confirm`, { version: v, satisfaction: 3 }),
      w.ent.post(`/api/prevention/orders/${loserId}/confirm`, { version: v, satisfaction: 3 }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('the fund is never overspent and its ledger adds up (fen)', async () => {
    const db = w.t.database.db;
    const f = await fundRow();
    expect(f.plannedFen + f.spentFen).toBeLessThanOrEqual(f.totalFen);
    const items = await db.select().from(preventionPlanItems).where(eq(preventionPlanItems.fundId, f.id));
    const outstanding = items
      .filter((i) => i.deletedAt == null)
      .reduce((s, i) => s + Math.max(0, i.reservedFen - i.spentFen), 0);
    expect(f.plannedFen).toBe(outstanding);
    expect(f.spentFen).toBe(items.reduce((s, i) => s + i.spentFen, 0));
    const [sums] = await db
      .select({
        planned: sql<number>`coalesce(sum(${preventionLedger.plannedDeltaFen}), 0)::bigint`,
        spent: sql<number>`coalesce(sum(${preventionLedger.spentDeltaFen}), 0)::bigint`,
        minLeft: sql<number>`min(${preventionLedger.leftAfterFen})::bigint`,
      })
      .from(preventionLedger)
      .where(eq(preventionLedger.fundId, f.id));
    expect(Number(sums!.planned)).toBe(f.plannedFen);
    expect(Number(sums!.spent)).toBe(f.spentFen);
    expect(Number(sums!.minLeft)).toBeGreaterThanOrEqual(0);
    const confirmed = await db
      .select({ cost: serviceOrders.costFen })
      .from(serviceOrders)
      .where(and(eq(serviceOrders.fundId, f.id), sql`${serviceOrders.status} in ('CONFIRMED', 'CLOSED')`));
    expect(confirmed.reduce((s, o) => s + o.cost, 0)).toBe(f.spentFen);
    // The database refuses an overspent fund and a rewritten ledger.
    await expect(
      db
        .update(preventionFunds)
        .set({ spentFen: f.totalFen + 1 })
        .where(eq(preventionFunds.id, f.id)),
    ).rejects.toThrow();
    await expect(
      db.update(preventionLedger).set({ note: 'x' }).where(eq(preventionLedger.fundId, f.id)),
    ).rejects.toThrow();
  });
});

describe('isolation between organisations and enterprises', () => {
  let foreign: Order;
  beforeAll(async () => {
    const { item: it } = await addItem({ orgId: w.org2.id, personIds: [w.persons.c] }, w.seqNo2);
    foreign = await dispatch(it.id, {}, w.seqNo2);
  });

  it("an organisation never sees or moves another's orders; an enterprise never another's", async () => {
    expect((await w.svc.get(`/api/prevention/orders/${foreign.number}`)).statusCode).toBe(404);
    expect((await act(w.svc, foreign.id, 'accept')).statusCode).toBe(404);
    expect((await w.ent.get(`/api/prevention/orders/${foreign.id}`)).statusCode).toBe(404);
    expect((await w.ent.get(`/api/prevention/plans/${w.seqNo2}`)).statusCode).toBe(404);
    expect((await w.svc.get(`/api/prevention/plans/${w.seqNo2}`)).statusCode).toBe(404);
    expect((await w.svc2.get(`/api/prevention/plans/${w.seqNo}`)).statusCode).toBe(404);
    await toSubmitted(foreign.id, w.svc2, record({ hazards: [] }));
    expect((await act(w.ent, foreign.id, 'confirm', { satisfaction: 4 })).statusCode).toBe(404);
    const res = await expectOk(act(w.ent2, foreign.id, 'confirm', { satisfaction: 4 }));
    expect(res.json().status).toBe('CLOSED');
    const svcOrders = (await w.svc.get('/api/prevention/orders?size=100')).json().content as Order[];
    expect(svcOrders.every((o) => o.number.startsWith(w.seqNo))).toBe(true);
    expect((await w.svc2.get('/api/prevention/orders')).json().content.map((o: Order) => o.id)).toEqual([
      foreign.id,
    ]);
    const plans = (await w.ent2.get('/api/prevention/plans')).json().content.map((p: Plan) => p.seqNo);
    expect(plans).toEqual([w.seqNo2]);
  });
});

describe('photos through image materials (access helper)', () => {
  const user = (id: number, username: string, roles: string[]) =>
    ({
      id,
      username,
      nickName: username,
      roles,
      channel: 'service',
      scope: 'full',
      method: 'password',
      sessionId: 'x',
    }) as RequestUser;
  const yes = { can: async () => true };

  it('lets only the organisation change photos while in service; others 403/409, strangers 404', async () => {
    const db = w.t.database.db;
    const svc = { ...yes, user: user(w.svcIds.svc, 'svc', ['service']), ip: '127.0.0.1' };
    const [closed] = (await w.ent.get(`/api/prevention/orders?seqNo=${w.seqNo}&status=CLOSED`)).json()
      .content as Order[];
    expect((await serviceOrderMaterialAccess(db, svc, closed!.id))?.status).toBe(409);
    const [open] = (await w.ent.get(`/api/prevention/orders?seqNo=${w.seqNo}&status=DISPATCHED`)).json()
      .content as Order[];
    await expectOk(act(w.svc, open!.id, 'accept'));
    await expectOk(act(w.svc, open!.id, 'start'));
    expect(await serviceOrderMaterialAccess(db, svc, open!.id)).toBeNull();
    expect((await serviceOrderMaterialAccess(db, { ...svc, can: async () => false }, open!.id))?.status).toBe(
      403,
    );
    const ent = { ...yes, user: user(w.ids.ent, 'ent', ['17']), ip: '127.0.0.1' };
    expect((await serviceOrderMaterialAccess(db, ent, open!.id))?.status).toBe(403);
    const other = { ...yes, user: user(w.svcIds.svc2, 'svc2', ['service']), ip: '127.0.0.1' };
    await expect(serviceOrderMaterialAccess(db, other, open!.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('complaints', () => {
  it('are due in 10 working days, one open at a time, answered by the organisation', async () => {
    const [o] = (await w.ent.get(`/api/prevention/orders?seqNo=${w.seqNo}&status=CLOSED&sort=id,asc`)).json()
      .content as Order[];
    const res = await expectOk(
      w.ent.post(`/api/prevention/orders/${o!.id}/complaints`, { content: '现场服务时间过短' }),
    );
    const c = (res.json() as Order).complaints[0]!;
    expect(c).toMatchObject({ status: 'OPEN', complainedOn: today, deadline: complaintDeadline(today) });
    expect([0, 6]).not.toContain(weekdayOf(c.deadline));
    const again = await w.ent.post(`/api/prevention/orders/${o!.id}/complaints`, { content: '再次投诉' });
    expect(again.statusCode).toBe(409);
    const url = `/api/prevention/orders/${o!.id}/complaints/${c.id}/reply`;
    expect((await w.svc2.post(url, { reply: '不是我们' })).statusCode).toBe(404);
    expect((await w.ent.post(url, { reply: '自己答复' })).statusCode).toBe(403);
    const replied = await expectOk(w.svc.post(url, { reply: '已安排专家补充服务半天' }));
    expect((replied.json() as Order).complaints[0]!.status).toBe('REPLIED');
    expect((await w.underwriter.post(url, { reply: '重复' })).statusCode).toBe(409);
    await expectOk(w.ent.post(`/api/prevention/orders/${o!.id}/complaints`, { content: '补充服务仍未安排' }));
  });
  it('counts the 10 working days from the complaint day, skipping weekends (a Friday → two weeks later)', async () => {
    const closed = (
      await w.ent.get(`/api/prevention/orders?seqNo=${w.seqNo}&status=CLOSED&sort=id,desc`)
    ).json().content as Order[];
    const target = closed.find((o) => !o.openComplaint)!;
    const ent = await preventionViewerFor(
      w.t.database.db,
      {
        id: w.ids.ent,
        username: 'ent',
        nickName: 'ent',
        roles: ['17'],
        channel: 'enterprise',
        scope: 'full',
        method: 'password',
        sessionId: 'x',
      } as RequestUser,
      '127.0.0.1',
    );
    const detail = await complain(
      w.t.database.db,
      ent,
      String(target.id),
      { content: '周五投诉' },
      '2026-05-08',
    );
    const c = detail.complaints.find((x) => x.complainedOn === '2026-05-08')!;
    expect(c.deadline).toBe('2026-05-22');
    // Past its deadline and unanswered: overdue.
    expect(detail.complaints.find((x) => x.id === c.id)).toMatchObject({
      status: 'OPEN',
      overdue: shanghaiToday() > '2026-05-22',
    });
  });
});

describe('the service archive export', () => {
  it('exports the enterprise archive as xlsx; each party only what it sees', async () => {
    const res = await w.ent.get('/api/prevention/archive/download');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]!.slice(0, 3)).toEqual(['服务单号', '事故预防编号', '保单号']);
    const ours = (await w.ent.get('/api/prevention/orders?size=100')).json().totalElements;
    expect(rows.length - 1).toBe(ours);
    expect(rows.some((r) => r.join('|').includes('[重大] 二号车间消防通道堆放物料'))).toBe(true);

    expect((await w.underwriter.get('/api/prevention/archive/download')).statusCode).toBe(400);
    const staff = await readXlsx(
      (await w.underwriter.get(`/api/prevention/archive/download?uscc=${w.entUscc}`)).rawPayload,
    );
    expect(staff.length - 1).toBe(ours);
    const other = await readXlsx(
      (await w.svc2.get(`/api/prevention/archive/download?uscc=${w.entUscc}`)).rawPayload,
    );
    expect(other).toHaveLength(1);
  });
});

describe('services only within the policy period', () => {
  it('a service is paid only once its policy has started: confirming before the start is refused and spends nothing', async () => {
    const { item: it2 } = await addItem({}, w.seqNo2);
    const o = await dispatch(it2.id, { scheduledDate: dayInPeriod(w.policy2, 5) }, w.seqNo2);
    await expectOk(act(w.svc, o.id, 'accept'));
    await expectOk(act(w.svc, o.id, 'start'));
    await expectOk(act(w.svc, o.id, 'record', record({ hazards: [] })));
    await expectOk(act(w.svc, o.id, 'submit'));
    // The policy's period moved to start tomorrow (a policy not yet in force): today's visit lies outside it.
    const db = w.t.database.db;
    const tomorrow = addDays(today, 1);
    const fund = async () =>
      (await db.select().from(preventionFunds).where(eq(preventionFunds.policyId, w.policy2.id)))[0]!;
    await db.execute(sql`update policy set start_date = ${tomorrow}::date where id = ${w.policy2.id}`);
    try {
      const before = await fund();
      const res = await act(w.ent2, o.id, 'confirm', { satisfaction: 5 });
      expect(res.json()).toEqual({
        status: 409,
        message: `服务日期 ${today} 须在保险期间（${tomorrow} 至 ${w.policy2.endDate}）内，不能确认服务并支付服务费用`,
      });
      expect(await fund()).toEqual(before);
      expect((await orderOf(o.id)).status).toBe('SUBMITTED');
    } finally {
      await db.execute(
        sql`update policy set start_date = ${w.policy2.startDate}::date where id = ${w.policy2.id}`,
      );
    }
  });
});
