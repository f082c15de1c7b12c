// Annual orders made from an epinsure application (生成年度订单), edited and closed by staff.
import { yuan } from '@piibs/shared/money';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, roleWith } from '../../../test/admin.ts';
import { createUser, tokenFor } from '../../../test/auth.ts';
import { annualOrders, auditLog, policies, products } from '../../db/schema.ts';
import {
  approvedProject,
  createProjectWorld,
  decide,
  declare,
  epinsureApplication,
  load,
  openOrder,
  order,
  type ProjectWorld,
  project,
  startChange,
  submit,
} from './test-fixtures.ts';

let w: ProjectWorld;
beforeAll(async () => {
  w = await createProjectWorld();
}, 60_000);
afterAll(() => w.t.close());

const convert = (applicationId: number, body: Record<string, unknown> = {}, who = w.underwriter) =>
  who.post(`/api/project-orders/from-application/${applicationId}`, body);

describe('生成年度订单: an issued epinsure application becomes its contractor’s annual order', () => {
  it('makes one order under two concurrent calls and retries, linked both ways', async () => {
    const app = await epinsureApplication(w, w.customerA);
    expect(app.status).toBe('ISSUED');
    const [policy] = await w.t.database.db
      .select({ id: policies.id, number: policies.number })
      .from(policies)
      .where(eq(policies.applicationId, app.id));

    const both = await Promise.all([
      convert(app.id, { quotaFen: yuan(500_000) }),
      convert(app.id, { quotaFen: yuan(500_000) }),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    const [a, b] = both.map((r) => r.json());
    expect(a.id).toBe(b.id);
    const rows = await w.t.database.db
      .select()
      .from(annualOrders)
      .where(eq(annualOrders.applicationId, app.id));
    expect(rows).toHaveLength(1);
    expect(a).toMatchObject({
      customerId: w.customerA,
      productId: w.constructionId,
      quotaFen: yuan(500_000),
      consumedFen: 0,
      applicationId: app.id,
      applicationNumber: app.number,
      sourcePolicyId: policy!.id,
      sourcePolicyNumber: policy!.number,
      contactName: '李四',
      contactPhone: '138****5678',
    });

    // A retry, even with another quota, answers the same order unchanged.
    const again = await convert(app.id, { quotaFen: yuan(1) });
    expect(again.json()).toMatchObject({ id: a.id, quotaFen: yuan(500_000) });
    // The application's side finds its order.
    const list = (await w.underwriter.get(`/api/project-orders?applicationId=${app.id}`)).json();
    expect(list.content.map((r: { id: number }) => r.id)).toEqual([a.id]);
    // Audited once, with the link.
    const audits = await w.t.database.db
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'annual_order'), eq(auditLog.entityId, String(a.id))));
    expect(audits).toEqual([{ detail: expect.objectContaining({ applicationId: app.id }) }]);

    // The contractor declares against it; another contractor does not see it.
    expect((await order(w, a.id, w.ctrA)).canDeclare).toBe(true);
    expect((await w.ctrB.get(`/api/project-orders/${a.id}`)).statusCode).toBe(404);
    expect((await w.ctrB.get(`/api/project-orders?applicationId=${app.id}`)).json().totalElements).toBe(0);
  });

  it('without a quota takes the application’s premium', async () => {
    const app = await epinsureApplication(w, w.customerB);
    const res = await convert(app.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().quotaFen).toBe(app.premiumFen);
  });

  it('refuses applications that are not settled frameworks (409) and callers who may not (403/404)', async () => {
    const draft = await epinsureApplication(w, w.customerA, 'DRAFT');
    const res = await convert(draft.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('投保单：当前状态为「草稿」，须审核通过并缴费出单后才能生成年度订单');
    const unpaid = await epinsureApplication(w, w.customerA, 'PENDING_PAYMENT');
    expect((await convert(unpaid.id)).json().message).toMatch(/「待支付」/);

    // A project's own application (made when a declaration is approved) is not a framework.
    const o = await openOrder(w, w.customerA);
    const p = await approvedProject(w, w.ctrA, o.id);
    const [own] = await w.t.database.db
      .select({ applicationId: policies.applicationId })
      .from(policies)
      .where(eq(policies.id, p.policyId!));
    const declared = await convert(own!.applicationId);
    expect(declared.statusCode).toBe(409);
    expect(declared.json().message).toBe('投保单：该投保单由二次下单项目生成，不能再生成年度订单');

    // A work-safety application is not a construction framework.
    const [work] = await w.t.database.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.code, 'AZX_GM_2025'));
    const ent = await w.admin.post('/api/applications', {
      productId: work!.id,
      customerId: w.customerA,
    });
    expect((await convert(ent.json().id)).json().message).toBe(
      '投保单：只有工程险（epinsure）建筑工程类投保单可以生成年度订单',
    );

    expect((await convert(999_999)).statusCode).toBe(404);
    // The contractor has no project_order:add.
    const issued = await epinsureApplication(w, w.customerA);
    expect((await convert(issued.id, {}, w.ctrA)).statusCode).toBe(403);
    // Staff who may open orders but only see their own records: 404 for the underwriter's application.
    await roleWith(w.t, 'pmSelf', ['project_order:add'], { dataScope: 'self' });
    await createUser(w.t, { username: 'pmSelf', roles: ['pmSelf'] });
    const self = client(w.t, await tokenFor(w.t, 'pmSelf'));
    expect((await convert(issued.id, {}, self)).statusCode).toBe(404);
    expect(
      await w.t.database.db.select().from(annualOrders).where(eq(annualOrders.applicationId, issued.id)),
    ).toEqual([]);
  });
});

describe('editing an annual order', () => {
  it('changes the quota (never below what is consumed) and the contact, on the current version', async () => {
    const o = await openOrder(w, w.customerA, 10_000);
    const d = await declare(w.ctrA, o.id);
    await submit(w.ctrA, d);
    const now = await order(w, o.id);
    expect(now.consumedFen).toBe(650_000);

    const below = await w.underwriter.post(`/api/project-orders/${o.id}/update`, {
      quotaFen: 600_000,
      contactName: now.contactName,
      contactPhone: now.contactPhone,
      version: now.version,
    });
    expect(below.statusCode).toBe(409);
    expect(below.json().message).toBe('保费额度：不能低于已占用的保费 ¥6,500.00（拟调整为 ¥6,000.00）');

    const edit = await w.underwriter.post(`/api/project-orders/${o.id}/update`, {
      quotaFen: 650_000,
      contactName: '王五',
      // The masked number as shown keeps the stored one.
      contactPhone: now.contactPhone,
      note: '额度按已占用收紧',
      version: now.version,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({
      quotaFen: 650_000,
      remainingFen: 0,
      contactName: '王五',
      contactPhone: '138****5678',
      note: '额度按已占用收紧',
    });
    const [row] = await w.t.database.db.select().from(annualOrders).where(eq(annualOrders.id, o.id));
    expect(row!.contactPhone).toBe('13812345678');

    const stale = await w.underwriter.post(`/api/project-orders/${o.id}/update`, {
      quotaFen: yuan(20_000),
      version: now.version,
    });
    expect(stale.statusCode).toBe(409);
    const badPhone = await w.underwriter.post(`/api/project-orders/${o.id}/update`, {
      quotaFen: yuan(20_000),
      contactPhone: '139****0000',
      version: edit.json().version,
    });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json().message).toMatch(/^联系电话：/);
    // The contractor may not edit (no project_order:edit).
    const ctr = await w.ctrA.post(`/api/project-orders/${o.id}/update`, {
      quotaFen: yuan(20_000),
      version: edit.json().version,
    });
    expect(ctr.statusCode).toBe(403);
    const audits = await w.t.database.db
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'annual_order'),
          eq(auditLog.entityId, String(o.id)),
          eq(auditLog.action, 'update'),
        ),
      );
    expect(audits).toHaveLength(1);
    expect(audits[0]!.detail).toMatchObject({
      before: { quotaFen: yuan(10_000) },
      after: { quotaFen: 650_000, contactPhone: '138****5678' },
    });
  });
});

describe('closing an annual order', () => {
  it('waits for open declarations, then refuses new declarations and changes', async () => {
    const o = await openOrder(w, w.customerA);
    const approved = await approvedProject(w, w.ctrA, o.id);
    const pending = await declare(w.ctrA, o.id);
    const sent = (await submit(w.ctrA, pending)).json();
    let now = await order(w, o.id);
    expect(now.openCount).toBe(1);

    const early = await w.underwriter.post(`/api/project-orders/${o.id}/close`, { version: now.version });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(
      '该年度订单还有 1 个未完成的申报（草稿、待审核或已退回），请先完成审核或撤销后再关闭',
    );
    expect((await decide(w, sent, 'reject', '不予承保')).statusCode).toBe(200);

    now = await order(w, o.id);
    const stale = await w.underwriter.post(`/api/project-orders/${o.id}/close`, { version: now.version - 1 });
    expect(stale.statusCode).toBe(409);
    expect(
      (await w.ctrA.post(`/api/project-orders/${o.id}/close`, { version: now.version })).statusCode,
    ).toBe(403);
    const closed = await w.underwriter.post(`/api/project-orders/${o.id}/close`, { version: now.version });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ state: 'CLOSED', stateLabel: '已关闭', openCount: 0 });
    expect(closed.json().closedAt).toEqual(expect.any(String));

    expect((await order(w, o.id, w.ctrA)).canDeclare).toBe(false);
    const refused = await w.ctrA.post(`/api/project-orders/${o.id}/declarations`, project());
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('该年度订单已关闭，不能再申报项目或批改');
    const change = await startChange(w.ctrA, approved, { projectCostFen: yuan(12_000_000) });
    expect(change.statusCode).toBe(409);
    expect(change.json().message).toBe('该年度订单已关闭，不能再申报项目或批改');
    expect((await load(w, approved.id, w.ctrA)).actions).not.toContain('change');
    const edit = await w.underwriter.post(`/api/project-orders/${o.id}/update`, {
      quotaFen: yuan(2_000_000),
      version: closed.json().version,
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().message).toBe('该年度订单已关闭，不能再修改');
    const again = await w.underwriter.post(`/api/project-orders/${o.id}/close`, {
      version: closed.json().version,
    });
    expect(again.statusCode).toBe(409);
  });
});
