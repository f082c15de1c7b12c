// Endorsements of a policy with a named insured list (从业人员名单): people added and removed, never a bare
// headcount; the headcount follows the list and the premium delta is the headcount endorsement's; on approval
// and payment the list changes as of the effective date and the 批单 lists the people, numbers masked.
import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { maskIdNumber } from '@piibs/shared/named-insured';
import { annualForHeadcount } from '@piibs/shared/policy-change';
import { endorsementDeltaFen } from '@piibs/shared/short-period';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, tokenFor } from '../../../test/auth.ts';
import { attachMaterials } from '../../../test/business.ts';
import { idCard } from '../../../test/id-card.ts';
import { pdfText } from '../../../test/pdf.ts';
import { auditLog, policies, products } from '../../db/schema.ts';
import { cashier, createPayWorld, type PayWorld, startPay } from '../payments/test-fixtures.ts';

const A = idCard('19900101', 123);
const B = idCard('19851231', 456);
const C = idCard('20000229', 789);
const D = idCard('19780615', 234);
const E = idCard('19920310', 567);

let w: PayWorld;
let policyId: number;
beforeAll(async () => {
  w = await createPayWorld();
  const db = w.t.database.db;
  const [p] = await db.select().from(products).where(eq(products.code, 'AZX_GM_2025'));
  await db.update(products).set({ namedInsuredRequired: true }).where(eq(products.id, p!.id));
  const draft = (
    await w.ent.post('/api/applications', { productId: p!.id, customerId: w.entCustomerId })
  ).json();
  await attachMaterials(w.ent, draft.id);
  const token = await tokenFor(w.t, 'ent');
  const saved = await w.t.app.inject({
    method: 'PUT',
    url: `/api/applications/${draft.id}/insuredPersons`,
    headers: bearer(token),
    payload: {
      version: draft.version,
      persons: [
        { name: '测试甲', idNumber: A },
        { name: '测试乙', idNumber: B },
        { name: '测试丙', idNumber: C },
      ],
    },
  });
  if (saved.statusCode !== 200) throw new Error(saved.body);
  const app = (await w.ent.get(`/api/applications/${draft.id}`)).json();
  const sent = await w.ent.post(`/api/applications/${draft.id}/submit`, { version: app.version });
  if (sent.statusCode !== 200) throw new Error(sent.body);
  const task = (await w.underwriter.get(`/api/tasks/${sent.json().openTaskId}`)).json();
  await w.underwriter.post(`/api/tasks/${task.id}/decide`, { decision: 'approve', version: task.version });
  const start = await startPay(w.ent, draft.id);
  if ((await cashier(w, start.cashierUrl, 'pay')).statusCode !== 303) throw new Error('not paid');
  policyId = (await w.ent.get(`/api/payments/${start.payId}`)).json().policyId;
});
afterAll(() => w.t.close());

const effective = () => addDays(shanghaiToday(), 10);
const endorse = (body: object) =>
  w.ent.post(`/api/policies/${policyId}/endorsements`, {
    effectiveDate: effective(),
    idempotencyKey: `named-${Math.random().toString(36).slice(2, 12)}`,
    ...body,
  });

describe('named-list endorsements (从业人员名单)', () => {
  it('refuses a bare headcount, a bad or already listed person, an unknown 序号 and an empty list; nothing asked', async () => {
    const bare = await endorse({ headcount: 5 });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().message).toBe('参保人数：该保单按从业人员名单承保，请增加或减少人员，参保人数随名单');
    const bad = await endorse({
      addPersons: [
        { name: '测试丁', idNumber: '320102199001011230' },
        { name: '测试戊', idNumber: B },
      ],
      removePersons: [99],
    });
    expect(bad.statusCode).toBe(400);
    const messages = (bad.json().errors as { field: string; message: string }[]).map(
      (e) => `${e.field} ${e.message}`,
    );
    expect(messages).toEqual([
      'removePersons 序号 99 不在保单现有名单中',
      expect.stringMatching(/^addPersons 第 1 行：身份证号码：/),
      'addPersons 第 2 行：身份证号码已在保单名单中（序号 2）',
    ]);
    const empty = await endorse({ removePersons: [1, 2, 3] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/至少保留 1 人/);
    expect((await w.ent.get(`/api/policies/${policyId}/changes`)).json()).toEqual([]);
  });

  it('adds two and removes one: headcount 3 → 4, priced as the headcount endorsement; the list changes on payment, the 批单 lists them masked', async () => {
    const db = w.t.database.db;
    const [before] = await db.select().from(policies).where(eq(policies.id, policyId));
    expect(before!.headcount).toBe(3);
    const res = await endorse({
      addPersons: [
        { name: '测试丁', idNumber: D },
        { name: '测试戊', idNumber: E.toLowerCase() },
      ],
      removePersons: [2],
    });
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json();
    const annual = before!.annualPremiumFen ?? before!.premiumFen;
    expect(c.premiumDeltaFen).toBe(
      endorsementDeltaFen(before!, annual, annualForHeadcount(annual, 3, 4), effective()),
    );
    expect(c.premiumDeltaFen).toBeGreaterThan(0);
    expect(c.changes).toEqual([
      { field: 'headcount', label: '参保人数', before: '3 人', after: '4 人' },
      { field: 'persons', label: '从业人员名单', before: '3 人', after: '4 人（增加 2 人，减少 1 人）' },
    ]);
    expect(c.persons).toEqual({
      added: [
        { name: '测试丁', idNumberMasked: maskIdNumber(D) },
        { name: '测试戊', idNumberMasked: maskIdNumber(E) },
      ],
      removed: [{ name: '测试乙', idNumberMasked: maskIdNumber(B) }],
    });
    expect(res.body).not.toContain(D);
    // Nothing changes before approval and payment.
    expect((await w.ent.get(`/api/policies/${policyId}/insuredPersons`)).json().count).toBe(3);

    const ok = await w.underwriter.post(`/api/policy-changes/${c.id}/review`, {
      decision: 'approve',
      version: c.version,
    });
    expect(ok.json().statusLabel).toBe('待补缴保费');
    const pay = await w.ent.post(`/api/policy-changes/${c.id}/pay`);
    expect((await cashier(w, pay.json().cashierUrl, 'pay')).statusCode).toBe(303);
    const done = (await w.ent.get(`/api/policy-changes/${c.id}`)).json();
    expect(done.statusLabel).toBe('已生效');

    const list = (await w.ent.get(`/api/policies/${policyId}/insuredPersons`)).json();
    expect(list.count).toBe(4);
    expect(
      list.persons.map(
        (p: { sort: number; name: string; addedOn: string | null; removedOn: string | null }) => [
          p.sort,
          p.name,
          p.addedOn,
          p.removedOn,
        ],
      ),
    ).toEqual([
      [1, '测试甲', null, null],
      [2, '测试乙', null, effective()],
      [3, '测试丙', null, null],
      [4, '测试丁', effective(), null],
      [5, '测试戊', effective(), null],
    ]);
    const [after] = await db.select().from(policies).where(eq(policies.id, policyId));
    expect(after!.headcount).toBe(4);

    const pdf = await w.ent.get(`/api/endorsements/${done.endorsementId}/pdf`);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('增加人员（共2人）');
    expect(text).toContain('减少人员（共1人）');
    expect(text).toContain(maskIdNumber(D));
    expect(text).toContain(maskIdNumber(B));
    expect(text).not.toContain(D);
    // The audit trail names the change in words, never a full number.
    const trail = JSON.stringify(
      await db.select().from(auditLog).where(eq(auditLog.entity, 'policy_change')),
    );
    expect(trail).toContain('从业人员名单');
    expect(trail).not.toContain(D);
  });

  it('the e-policy annex stays the list as issued; another enterprise cannot endorse it', async () => {
    const pdf = await w.ent.get(`/api/policies/${policyId}/pdf`);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('附件：从业人员名单（共3人）');
    expect(text).not.toContain(maskIdNumber(D));
    const other = await w.ent2.post(`/api/policies/${policyId}/endorsements`, {
      effectiveDate: effective(),
      idempotencyKey: 'named-other-0001',
      removePersons: [1],
    });
    expect(other.statusCode).toBe(404);
  });

  it('a renewal starts from the list as endorsements left it: the people covered now, numbered afresh', async () => {
    const db = w.t.database.db;
    const end = addDays(shanghaiToday(), 30);
    await db
      .update(policies)
      .set({ startDate: addDays(end, -364), endDate: end })
      .where(eq(policies.id, policyId));
    const res = await w.ent.post(`/api/policies/${policyId}/renew`);
    expect(res.statusCode, res.body).toBe(200);
    const draftId = res.json().applicationId as number;
    const list = (await w.ent.get(`/api/applications/${draftId}/insuredPersons`)).json();
    expect(list.persons.map((p: { sort: number; name: string }) => [p.sort, p.name])).toEqual([
      [1, '测试甲'],
      [2, '测试丙'],
      [3, '测试丁'],
      [4, '测试戊'],
    ]);
    expect((await w.ent.get(`/api/applications/${draftId}`)).json().headcount).toBe(4);
  });
});
