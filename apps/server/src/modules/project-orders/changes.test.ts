// Changes (批改, type 2) of approved projects: the premium difference, the quota it moves, the tender review and
// the endorsement (批单) issued against the project's policy.
import { createHash } from 'node:crypto';
import { addDays } from '@piibs/shared/application-status';
import { yuan } from '@piibs/shared/money';
import type { DeclarationDetail, EndorsementRow } from '@piibs/shared/project-order';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../../test/admin.ts';
import { pdfText } from '../../../test/pdf.ts';
import { pdfsig } from '../../../test/pdfsig.ts';
import { annualOrders, endorsements, policies, secondaryOrders } from '../../db/schema.ts';
import { jobHandlers } from '../../jobs/boss.ts';
import { issueEndorsement } from './endorsements.ts';
import {
  approvedProject,
  changeOf,
  createProjectWorld,
  decide,
  declare,
  load,
  openOrder,
  order,
  type ProjectWorld,
  startChange,
  submit,
  today,
} from './test-fixtures.ts';

let w: ProjectWorld;
beforeAll(async () => {
  w = await createProjectWorld();
}, 60_000);
afterAll(() => w.t.close());

async function change(p: DeclarationDetail, over: Record<string, unknown>): Promise<DeclarationDetail> {
  const res = await startChange(w.ctrA, p, over);
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}
async function submitted(d: DeclarationDetail): Promise<DeclarationDetail> {
  const res = await submit(w.ctrA, d);
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}
const consumed = async (orderId: number) => (await order(w, orderId)).consumedFen;

describe('the premium difference of a change, on the active rate table', () => {
  it('is exact at the band edges, positive and negative', async () => {
    const o = await openOrder(w, w.customerA);
    // 10,000,000 yuan: the top of the first band, 6,500 yuan.
    const p = await approvedProject(w, w.ctrA, o.id);
    expect(p.premiumFen).toBe(650_000);
    // 100 yuan more falls in the 0.60‰ band: + 0.06 yuan.
    const up = await change(p, { projectCostFen: yuan(10_000_100) });
    expect(up).toMatchObject({
      kind: 2,
      baseId: p.id,
      baseNumber: p.number,
      status: 'DRAFT',
      projectName: p.projectName,
      startDate: p.startDate,
      projectCostFen: yuan(10_000_100),
      premiumFen: 650_006,
      premiumDiffFen: 6,
      reservedFen: 0,
      policyId: p.policyId,
      endorsement: null,
    });
    // The project as it stood is kept beside the change.
    expect(up.base).toEqual({
      projectAddress: p.projectAddress,
      projectCostFen: yuan(10_000_000),
      startDate: p.startDate,
      endDate: p.endDate,
      highRisk: false,
      headcount: null,
      premiumFen: 650_000,
    });
    const cancel = await w.ctrA.post(`/api/project-declarations/${up.id}/cancel`, { version: up.version });
    expect(cancel.statusCode).toBe(200);

    // 100 yuan less stays in the first band: − 0.065 yuan → − 0.07 (half up on 6,499.935).
    const down = await change(p, { projectCostFen: yuan(9_999_900) });
    expect(down).toMatchObject({ premiumFen: 649_994, premiumDiffFen: -6 });
    await w.ctrA.post(`/api/project-declarations/${down.id}/cancel`, { version: down.version });

    // 50 million high-risk → 10 million plain: 39,650 → 6,500 yuan, a refund of 33,150 yuan.
    const big = await approvedProject(w, w.ctrA, o.id, {
      projectName: '润州大厦',
      projectCostFen: yuan(50_000_000),
      highRisk: true,
    });
    expect(big.premiumFen).toBe(3_965_000);
    const refund = await change(big, { projectCostFen: yuan(10_000_000), highRisk: false });
    expect(refund).toMatchObject({ premiumFen: 650_000, premiumDiffFen: -3_315_000 });
  });

  it('must change something, and never the name, the start or back-dated ends (400 naming the field)', async () => {
    const o = await openOrder(w, w.customerA);
    const p = await approvedProject(w, w.ctrA, o.id);
    const same = await startChange(w.ctrA, p);
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toMatch(/^批改内容：请至少变更一项项目信息/);
    // A project under way (started a month ago) cannot be ended before tomorrow.
    await w.t.database.db
      .update(secondaryOrders)
      .set({ startDate: addDays(today(), -30) })
      .where(eq(secondaryOrders.id, p.id));
    const past = await startChange(w.ctrA, p, { endDate: today() });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe(`竣工日期：批改后的竣工日期不能早于 ${addDays(today(), 1)}（不得倒签）`);
    await w.t.database.db
      .update(secondaryOrders)
      .set({ startDate: p.startDate })
      .where(eq(secondaryOrders.id, p.id));
    const long = await startChange(w.ctrA, p, { endDate: addDays(p.startDate, 5 * 366) });
    expect(long.json().message).toBe('竣工日期：保险期间不能超过 5 年');

    const c = await change(p, { endDate: addDays(p.endDate, 30), headcount: 120 });
    const save = (over: Record<string, unknown>) =>
      w.ctrA.post(`/api/project-declarations/${c.id}/draft`, {
        projectName: p.projectName,
        startDate: p.startDate,
        ...changeOf(c),
        ...over,
        version: c.version,
      });
    expect((await save({ projectName: '另一个工程' })).json().message).toBe('工程名称：批改不能变更工程名称');
    expect((await save({ startDate: addDays(p.startDate, 1) })).json().message).toBe(
      '开工日期：批改不能变更开工日期',
    );
    const saved = await save({ projectAddress: '江苏省镇江市新区 8 号' });
    expect(saved.statusCode, saved.body).toBe(200);
    // Only the cost and the high-risk flag price a project: the premium is the same.
    expect(saved.json()).toMatchObject({ premiumFen: 650_000, premiumDiffFen: 0, headcount: 120 });
  });
});

describe('the quota a change moves', () => {
  it('reserves a positive difference at submit, releases a refund only on approval; approval issues the endorsement', async () => {
    const o = await openOrder(w, w.customerA);
    const p = await approvedProject(w, w.ctrA, o.id);
    expect(await consumed(o.id)).toBe(650_000);
    expect(p.actions).toEqual(['change']);

    // 10 → 50 million, high-risk: 6,500 → 39,650 yuan (+33,150).
    let c = await change(p, { projectCostFen: yuan(50_000_000), highRisk: true, headcount: 80 });
    expect((await load(w, p.id, w.ctrA)).openChangeId).toBe(c.id);
    expect((await load(w, p.id, w.ctrA)).actions).toEqual([]);
    c = await submitted(c);
    expect(c).toMatchObject({ status: 'PENDING_REVIEW', premiumDiffFen: 3_315_000, reservedFen: 3_315_000 });
    expect(await consumed(o.id)).toBe(3_965_000);
    const task = (await w.underwriter.get(`/api/tasks/${c.openTaskId}`)).json();
    expect(task.title).toContain('【批改】');

    expect((await decide(w, c, 'approve', '同意批改')).statusCode).toBe(200);
    // The consumption stays (the difference was reserved); the project holds its new premium.
    expect(await consumed(o.id)).toBe(3_965_000);
    c = await load(w, c.id, w.ctrA);
    expect(c).toMatchObject({ status: 'APPROVED', reservedFen: 0, reviewOpinion: '同意批改' });
    let project = await load(w, p.id, w.ctrA);
    expect(project).toMatchObject({
      projectCostFen: yuan(50_000_000),
      highRisk: true,
      headcount: 80,
      premiumFen: 3_965_000,
      reservedFen: 3_965_000,
      openChangeId: null,
      actions: ['change'],
    });
    expect(project.events.map((e) => e.action)).toContain('endorse');

    // The endorsement: against the project's policy, what changed, the difference, its PDF and hash.
    const e = c.endorsement as EndorsementRow;
    expect(e).toMatchObject({
      policyId: p.policyId,
      policyNumber: p.policyNumber,
      declarationId: c.id,
      premiumBeforeFen: 650_000,
      premiumAfterFen: 3_965_000,
      premiumDiffFen: 3_315_000,
      effectiveDate: addDays(today(), 1),
    });
    expect(e.number).toMatch(/^EJZSG\d{4}\d{8}$/);
    expect(e.changes).toEqual([
      { field: 'projectCostFen', label: '工程造价', before: '¥10,000,000.00', after: '¥50,000,000.00' },
      { field: 'highRisk', label: '危大工程', before: '否', after: '是' },
      { field: 'headcount', label: '施工人数', before: '—', after: '80 人' },
    ]);
    expect(c.events.map((ev) => ev.action)).toEqual(['create', 'submit', 'review_approve', 'endorsement']);
    const pdf = await w.ctrA.get(`/api/endorsements/${e.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const hash = createHash('sha256').update(pdf.rawPayload).digest('hex');
    expect(pdf.headers['x-content-sha256']).toBe(hash);
    expect(e.pdfSha256).toBe(hash);
    expect(e.pdfSize).toBe(pdf.rawPayload.length);
    // Signed by the insurer, and listed on the policy's public verification with its hash.
    expect(pdfsig(pdf.rawPayload)).toEqual([
      expect.objectContaining({
        validation: 'Signature is Valid.',
        subFilter: 'adbe.pkcs7.detached',
        wholeDocument: true,
      }),
    ]);
    const [verified] = await w.t.database.db
      .select({ code: policies.verificationCode })
      .from(policies)
      .where(eq(policies.id, p.policyId!));
    const verification = (
      await w.t.app.inject({ method: 'GET', url: `/api/policies/verify/${verified!.code}` })
    ).json();
    expect(verification.endorsements).toEqual([expect.objectContaining({ number: e.number })]);
    expect(
      verification.documents.map((d: { kindLabel: string; sha256: string }) => [d.kindLabel, d.sha256]),
    ).toContainEqual(['批单', hash]);
    // The policy's covers with their limits, the premium after the change stated once.
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('保险责任及限额（批改后）');
    expect(text).toContain('从业人员伤亡（死亡/伤残）¥500,000.00——无');
    expect(text).toContain('事故应急救援费用—¥500,000.00¥1,000,000.00无');
    expect(text).toContain('保费按整单计收，不按保险责任分列：合计¥39,650.00');
    const listed = (await w.ctrA.get(`/api/policies/${p.policyId}/endorsements`)).json();
    expect(listed.map((x: EndorsementRow) => x.id)).toEqual([e.id]);
    expect((await w.ctrB.get(`/api/policies/${p.policyId}/endorsements`)).statusCode).toBe(404);
    expect((await w.ctrB.get(`/api/endorsements/${e.id}/pdf`)).statusCode).toBe(404);
    // The policy stays as issued; the endorsement amends it.
    const [policy] = await w.t.database.db.select().from(policies).where(eq(policies.id, p.policyId!));
    expect(policy!.premiumFen).toBe(650_000);
    // Issuing again (a retry, the sweep, twice at once) makes nothing more.
    const again = await Promise.all([issueEndorsement(w.ctx, c.id), issueEndorsement(w.ctx, c.id)]);
    expect(again.map((r) => r?.created)).toEqual([false, false]);

    // Back to 10 million, plain: a refund of 33,150 yuan, released only when approved.
    let back = await change(project, { projectCostFen: yuan(10_000_000), highRisk: false });
    expect(back.base?.premiumFen).toBe(3_965_000);
    back = await submitted(back);
    expect(back).toMatchObject({ premiumDiffFen: -3_315_000, reservedFen: 0 });
    expect(await consumed(o.id)).toBe(3_965_000);
    await decide(w, back, 'approve');
    expect(await consumed(o.id)).toBe(650_000);
    project = await load(w, p.id, w.ctrA);
    expect(project).toMatchObject({ premiumFen: 650_000, reservedFen: 650_000, highRisk: false });
    expect(project.endorsements.map((x) => x.premiumDiffFen)).toEqual([3_315_000, -3_315_000]);
    const second = (await load(w, back.id, w.ctrA)).endorsement!;
    expect(second.changes.map((x) => x.field)).toEqual(['projectCostFen', 'highRisk']);
    // Σ held by the order's declarations = its consumption.
    const [row] = await w.t.database.db.select().from(annualOrders).where(eq(annualOrders.id, o.id));
    expect(row!.consumedFen).toBe(650_000);
  });

  it('return keeps the reservation (resubmit re-prices it), reject and cancel release it; no endorsement', async () => {
    const o = await openOrder(w, w.customerA);
    const p = await approvedProject(w, w.ctrA, o.id);
    let c = await submitted(await change(p, { projectCostFen: yuan(20_000_000) }));
    // 20 million: 6,500 + 6,000 = 12,500 yuan (+6,000).
    expect(c.reservedFen).toBe(600_000);
    expect(await consumed(o.id)).toBe(1_250_000);
    expect((await decide(w, c, 'return', '请补充造价变更依据')).statusCode).toBe(200);
    c = await load(w, c.id, w.ctrA);
    expect(c).toMatchObject({
      status: 'RETURNED',
      reservedFen: 600_000,
      actions: ['edit', 'submit', 'cancel'],
    });
    const saved = await w.ctrA.post(`/api/project-declarations/${c.id}/draft`, {
      projectName: c.projectName,
      startDate: c.startDate,
      ...changeOf(c, { projectCostFen: yuan(15_000_000) }),
      version: c.version,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    c = await submitted(saved.json());
    // 15 million: 6,500 + 3,000 = 9,500 yuan (+3,000).
    expect(c).toMatchObject({ reservedFen: 300_000, premiumDiffFen: 300_000 });
    expect(await consumed(o.id)).toBe(950_000);
    expect((await decide(w, c, 'reject', '不同意批改')).statusCode).toBe(200);
    expect(await load(w, c.id, w.ctrA)).toMatchObject({
      status: 'REJECTED',
      reservedFen: 0,
      endorsement: null,
    });
    expect(await consumed(o.id)).toBe(650_000);
    expect(await load(w, p.id, w.ctrA)).toMatchObject({
      projectCostFen: yuan(10_000_000),
      premiumFen: 650_000,
    });
    expect(
      await w.t.database.db.select().from(endorsements).where(eq(endorsements.secondaryOrderId, c.id)),
    ).toEqual([]);

    // A returned change cancelled: its reservation released.
    let d = await submitted(await change(p, { projectCostFen: yuan(20_000_000) }));
    await decide(w, d, 'return', '补充资料');
    d = await load(w, d.id, w.ctrA);
    const cancelled = await w.ctrA.post(`/api/project-declarations/${d.id}/cancel`, { version: d.version });
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED', reservedFen: 0 });
    expect(await consumed(o.id)).toBe(650_000);
  });

  it('a change and a new declaration racing for the last of the quota: one wins', async () => {
    // 10,000 yuan of quota; the project holds 6,500, leaving 3,500.
    const o = await openOrder(w, w.customerA, 10_000);
    const p = await approvedProject(w, w.ctrA, o.id);
    // 10 → 14 million: + 2,400 yuan; a new 4-million project: 2,600 yuan. Each fits, both do not.
    const c = await change(p, { projectCostFen: yuan(14_000_000) });
    expect(c.premiumDiffFen).toBe(240_000);
    const n = await declare(w.ctrA2, o.id, { projectName: '新项目', projectCostFen: yuan(4_000_000) });
    expect(n.premiumFen).toBe(260_000);
    const answers = await Promise.all([submit(w.ctrA, c), submit(w.ctrA2, n)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const refused = answers.find((r) => r.statusCode === 409)!;
    const changeWon = answers[0]!.statusCode === 200;
    // The loser is told what is left after the winner and what it needed.
    expect(refused.json().message).toBe(
      changeWon
        ? '年度订单剩余额度不足：剩余 ¥1,100.00，本次申报需占用 ¥2,600.00'
        : '年度订单剩余额度不足：剩余 ¥900.00，本次申报需占用 ¥2,400.00',
    );
    expect(await consumed(o.id)).toBe(650_000 + (changeWon ? 240_000 : 260_000));
  });
});

describe('lists and exports', () => {
  it('show a change with its project and its premium difference', async () => {
    const o = await openOrder(w, w.customerA);
    const p = await approvedProject(w, w.ctrA, o.id);
    const c = await change(p, { projectCostFen: yuan(8_000_000) });
    const list = (await w.ctrA.get(`/api/project-declarations?orderId=${o.id}&sort=id,asc`)).json();
    expect(list.content.map((r: DeclarationDetail) => [r.kind, r.baseNumber, r.premiumDiffFen])).toEqual([
      [1, null, null],
      [2, p.number, -130_000],
    ]);
    const res = await w.ctrA.get(`/api/project-declarations/download?orderId=${o.id}&sort=id,asc`);
    const rows = await readXlsx(res.rawPayload);
    const row = rows.find((r) => r.includes(c.number))!;
    expect(row).toEqual(expect.arrayContaining(['项目批改申报', p.number, '-1300.00', '草稿']));
  });
});

describe('issuance of endorsements', () => {
  it('the sweep issues an endorsement an approval left behind, once', async () => {
    const o = await openOrder(w, w.customerA);
    const p = await approvedProject(w, w.ctrA, o.id);
    const c = await submitted(await change(p, { projectAddress: '江苏省镇江市丹徒区 9 号' }));
    await decide(w, c, 'approve');
    // As if issuing right after the approval had failed.
    await w.t.database.db.delete(endorsements).where(eq(endorsements.secondaryOrderId, c.id));
    expect((await load(w, c.id, w.ctrA)).endorsement).toBeNull();
    expect(await jobHandlers.sweep(w.ctx)).toEqual({ issued: 1, failed: 0 });
    expect(await jobHandlers.sweep(w.ctx)).toEqual({ issued: 0, failed: 0 });
    const e = (await load(w, c.id, w.ctrA)).endorsement!;
    expect(e).toMatchObject({ premiumDiffFen: 0, premiumBeforeFen: 650_000, premiumAfterFen: 650_000 });
    expect(e.changes).toEqual([
      {
        field: 'projectAddress',
        label: '工程地址',
        before: '江苏省镇江市润州区滨江路 66 号',
        after: '江苏省镇江市丹徒区 9 号',
      },
    ]);
  });
});

describe('who may change which project, and when', () => {
  it('the contractor’s side of an approved, issued project on an open order; one open change at a time', async () => {
    const o = await openOrder(w, w.customerA);
    const p = await approvedProject(w, w.ctrA, o.id);
    const over = { projectCostFen: yuan(12_000_000) };
    // Another contractor does not see it; the underwriter has no project_order:apply.
    expect((await startChange(w.ctrB, p, over)).statusCode).toBe(404);
    expect((await startChange(w.underwriter, p, over)).statusCode).toBe(403);
    // Not approved yet: 409.
    const draft = await declare(w.ctrA, o.id);
    const early = await startChange(w.ctrA, draft, over);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('只有审核通过的项目可以申请批改');

    // A colleague of the same company may change it; two at once: one change, one 409.
    const both = await Promise.all([startChange(w.ctrA, p, over), startChange(w.ctrA2, p, over)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.statusCode === 409)!.json().message).toBe(
      '该项目已有未完成的批改申报，请先完成或撤销后再发起',
    );
    const c: DeclarationDetail = both.find((r) => r.statusCode === 200)!.json();
    // A change of a change: 409.
    const nested = await startChange(w.ctrA, c, { projectCostFen: yuan(13_000_000) });
    expect(nested.statusCode).toBe(409);
    // The one who started it submits it; the colleague reads it but may not.
    const other = c.ownerName === 'ctrA' ? w.ctrA2 : w.ctrA;
    expect((await submit(other, c)).statusCode).toBe(403);
    // The new-project route does not take changes.
    const kind2 = await w.ctrA.post(`/api/project-orders/${o.id}/declarations`, {
      ...changeOf(p),
      projectName: p.projectName,
      startDate: p.startDate,
      kind: 2,
    });
    expect(kind2.statusCode).toBe(400);
    expect(kind2.json().message).toMatch(/^申报类型：项目批改申报须在已出单的项目上发起/);
  });
});
