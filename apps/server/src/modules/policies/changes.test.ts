import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../../../test/pdf.ts';
import { pdfsig } from '../../../test/pdfsig.ts';
import {
  auditLog,
  materials,
  notifications,
  policies,
  policyChanges,
  policyRefunds,
  sandboxRefunds,
} from '../../db/schema.ts';
import { jobHandlers } from '../../jobs/boss.ts';
import { signFields } from '../payments/provider.ts';
import {
  cashier,
  createPayWorld,
  type PayWorld,
  pendingPayment,
  startPay,
} from '../payments/test-fixtures.ts';
import { refundChange } from './changes.ts';

let w: PayWorld;
let policyId: number;
let applicationId: number;
let premiumFen: number;
beforeAll(async () => {
  w = await createPayWorld();
  const a = await pendingPayment(w, w.ent, w.entCustomerId);
  applicationId = a.id;
  const start = await startPay(w.ent, a.id);
  const res = await cashier(w, start.cashierUrl, 'pay');
  if (res.statusCode !== 303) throw new Error(res.body);
  policyId = (await w.ent.get(`/api/payments/${start.payId}`)).json().policyId;
  const [p] = await w.t.database.db.select().from(policies).where(eq(policies.id, policyId));
  premiumFen = p!.premiumFen;
});
afterAll(() => w.t.close());

const tomorrow = () => addDays(shanghaiToday(), 1);
const policyRow = async () =>
  (await w.t.database.db.select().from(policies).where(eq(policies.id, policyId)))[0]!;

describe('an enterprise adds employees mid-term and pays the difference', () => {
  let changeId: number;
  it('prices the added heads pro rata by day and keeps one open request per policy', async () => {
    const before = await policyRow();
    expect(before.headcount).toBeGreaterThan(0);
    const body = {
      effectiveDate: tomorrow(),
      headcount: before.headcount! + 5,
      contactPhone: '0511-88886666',
      idempotencyKey: 'endorse-key-0001',
    };
    const res = await w.ent.post(`/api/policies/${policyId}/endorsements`, body);
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json();
    changeId = c.id;
    expect(c.statusLabel).toBe('待核保');
    expect(c.premiumDeltaFen).toBeGreaterThan(0);
    expect(c.premiumDeltaText).toMatch(/^补缴 ¥[\d,]+\.\d\d$/);
    expect(c.changes).toContainEqual({
      field: 'headcount',
      label: '参保人数',
      before: `${before.headcount} 人`,
      after: `${before.headcount! + 5} 人`,
    });
    // The same key answers the same request; another request while this one is open is refused.
    expect((await w.ent.post(`/api/policies/${policyId}/endorsements`, body)).json().id).toBe(c.id);
    const again = await w.ent.post(`/api/policies/${policyId}/endorsements`, {
      ...body,
      idempotencyKey: 'endorse-key-0002',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/已有办理中的批改\/退保申请/);
    // Another enterprise cannot see the policy.
    expect(
      (await w.ent2.post(`/api/policies/${policyId}/endorsements`, { ...body, idempotencyKey: 'x-key-0003' }))
        .statusCode,
    ).toBe(404);
    expect((await w.ent2.get(`/api/policy-changes/${c.id}`)).statusCode).toBe(404);
  });

  it('the underwriter approves, the enterprise pays at the cashier, the 批单 is issued', async () => {
    const queue = (await w.underwriter.get('/api/policy-change-reviews')).json();
    const item = queue.find((q: { id: number }) => q.id === changeId);
    expect(item).toBeTruthy();
    expect((await w.ent.get('/api/policy-change-reviews')).statusCode).toBe(403);
    const ok = await w.underwriter.post(`/api/policy-changes/${changeId}/review`, {
      decision: 'approve',
      version: item.version,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().statusLabel).toBe('待补缴保费');
    const pay = await w.ent.post(`/api/policy-changes/${changeId}/pay`);
    expect(pay.statusCode, pay.body).toBe(200);
    const paid = await cashier(w, pay.json().cashierUrl, 'pay');
    expect(paid.statusCode).toBe(303);
    const done = (await w.ent.get(`/api/policy-changes/${changeId}`)).json();
    expect(done.statusLabel).toBe('已生效');
    expect(done.paid).toBe(true);
    expect(done.endorsementNumber).toMatch(/^E/);
    const p = await policyRow();
    expect(p.headcount).toBe(
      item.changes[0]
        ? Number(
            item.changes.find((x: { field: string }) => x.field === 'headcount').after.replace(' 人', ''),
          )
        : 0,
    );
    expect(p.contactPhone).toBe('0511-88886666');
    expect(p.version).toBe(1);
    const pdf = await w.ent.get(`/api/endorsements/${done.endorsementId}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain(done.endorsementNumber);
    expect(text).toContain('参保人数');
    // Sealed and signed by the insurer like every issued document.
    expect(pdfsig(pdf.rawPayload)).toEqual([
      expect.objectContaining({ validation: 'Signature is Valid.', wholeDocument: true }),
    ]);
    const history = (await w.ent.get(`/api/policies/${policyId}/changes`)).json();
    expect(history.map((h: { number: string }) => h.number)).toEqual([done.number]);
  });
});

describe('the underwriter returns and rejects, as applications', () => {
  it('a returned request is resubmitted, then rejected with its reason; the policy is untouched and the holder told', async () => {
    const res = await w.ent.post(`/api/policies/${policyId}/endorsements`, {
      effectiveDate: tomorrow(),
      insuredAddress: '江苏省镇江市京口区新地址 8 号',
      idempotencyKey: 'endorse-key-0100',
    });
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json();
    expect(c.premiumDeltaText).toBe('保费不变');
    const noReason = await w.underwriter.post(`/api/policy-changes/${c.id}/review`, {
      decision: 'return',
      version: c.version,
    });
    expect(noReason.statusCode).toBe(400);
    const returned = await w.underwriter.post(`/api/policy-changes/${c.id}/review`, {
      decision: 'return',
      opinion: '请补充新地址的证明',
      version: c.version,
    });
    expect(returned.json().statusLabel).toBe('已退回');
    const again = await w.ent.post(`/api/policy-changes/${c.id}/resubmit`, {
      version: returned.json().version,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().statusLabel).toBe('待核保');
    const stale = await w.underwriter.post(`/api/policy-changes/${c.id}/review`, {
      decision: 'reject',
      opinion: '地址无法核实',
      version: c.version,
    });
    expect(stale.statusCode).toBe(409);
    const rejected = await w.underwriter.post(`/api/policy-changes/${c.id}/review`, {
      decision: 'reject',
      opinion: '地址无法核实',
      version: again.json().version,
    });
    expect(rejected.json().statusLabel).toBe('已拒绝');
    expect((await policyRow()).insuredAddress).not.toBe('江苏省镇江市京口区新地址 8 号');
    const told = await w.t.database.db
      .select({ title: notifications.title, body: notifications.body })
      .from(notifications)
      .where(and(eq(notifications.userId, w.ids.ent), eq(notifications.kind, 'policy_change.decided')));
    expect(told.map((n) => n.title)).toEqual(
      expect.arrayContaining(['批改申请已被退回', '批改申请已被拒绝']),
    );
    expect(told.find((n) => n.title === '批改申请已被拒绝')?.body).toContain('意见：地址无法核实');
  });
});

describe('an additional premium not paid by its deadline', () => {
  it('lapses (已失效) on the payment-expiry job: the policy unchanged, audited, the holder told, the cashier closed', async () => {
    const before = await policyRow();
    const res = await w.ent.post(`/api/policies/${policyId}/endorsements`, {
      effectiveDate: tomorrow(),
      headcount: before.headcount! + 3,
      idempotencyKey: 'endorse-key-0200',
    });
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json();
    // The underwriters are told, with a link to the request in their queue (批改审核).
    const told = await w.t.database.db
      .select({ link: notifications.link, body: notifications.body })
      .from(notifications)
      .where(
        and(eq(notifications.userId, w.ids.underwriter), eq(notifications.kind, 'policy_change.submitted')),
      );
    const mine = told.find((n) => n.link === `/piibs/task/policyChange/${c.id}`);
    expect(mine?.body).toContain(`参保人数：${before.headcount} 人 → ${before.headcount! + 3} 人`);
    const queued = (await w.underwriter.get('/api/policy-change-reviews'))
      .json()
      .find((q: { id: number }) => q.id === c.id);
    expect(queued).toMatchObject({ policyNumber: before.number, holderName: before.holderName });
    expect(queued.productName).not.toBe('');

    const approved = await w.underwriter.post(`/api/policy-changes/${c.id}/review`, {
      decision: 'approve',
      version: c.version,
    });
    expect(approved.json().statusLabel).toBe('待补缴保费');
    // The deadline of an application's payment order: 24 hours.
    const deadline = Date.parse(approved.json().payExpiresAt);
    expect(Math.abs(deadline - (Date.now() + 24 * 3_600_000))).toBeLessThan(5 * 60_000);
    const pay = await w.ent.post(`/api/policy-changes/${c.id}/pay`);
    expect(pay.statusCode, pay.body).toBe(200);
    const { cashierUrl } = pay.json();

    // Not paid; the deadline passes and the job runs.
    await w.t.database.db
      .update(policyChanges)
      .set({ payExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(policyChanges.id, c.id));
    expect(await jobHandlers.expire(w.ctx)).toBeGreaterThanOrEqual(1);
    const lapsed = (await w.ent.get(`/api/policy-changes/${c.id}`)).json();
    expect(lapsed.statusLabel).toBe('已失效');
    const after = await policyRow();
    expect(after.headcount).toBe(before.headcount);
    expect(after.annualPremiumFen).toBe(before.annualPremiumFen);
    expect(after.version).toBe(before.version);
    const [audit] = await w.t.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'policy_change'),
          eq(auditLog.entityId, String(c.id)),
          eq(auditLog.action, 'expire'),
        ),
      );
    expect(audit?.detail).toMatchObject({
      before: { status: 'PENDING_PAYMENT' },
      after: { status: 'LAPSED' },
    });
    const [notice] = await w.t.database.db
      .select({ title: notifications.title, body: notifications.body })
      .from(notifications)
      .where(and(eq(notifications.userId, w.ids.ent), eq(notifications.kind, 'policy_change.lapsed')));
    expect(notice?.title).toBe('批改已失效');
    expect(notice?.body).toContain(c.number);
    // The cashier link no longer works, and no new one is opened.
    expect((await w.t.app.inject({ method: 'GET', url: cashierUrl })).statusCode).toBe(409);
    const again = await w.ent.post(`/api/policy-changes/${c.id}/pay`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('已失效');
    // A second pass finds nothing.
    expect(await jobHandlers.expire(w.ctx)).toBe(0);

    // The policy takes a new request; asked to pay past its deadline before the job ran, it lapses then.
    const next = (
      await w.ent.post(`/api/policies/${policyId}/endorsements`, {
        effectiveDate: tomorrow(),
        headcount: before.headcount! + 2,
        idempotencyKey: 'endorse-key-0201',
      })
    ).json();
    await w.underwriter.post(`/api/policy-changes/${next.id}/review`, {
      decision: 'approve',
      version: next.version,
    });
    await w.t.database.db
      .update(policyChanges)
      .set({ payExpiresAt: new Date(Date.now() - 1_000) })
      .where(eq(policyChanges.id, next.id));
    const late = await w.ent.post(`/api/policy-changes/${next.id}/pay`);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toContain('已失效');
    expect((await w.ent.get(`/api/policy-changes/${next.id}`)).json().statusLabel).toBe('已失效');
    expect((await policyRow()).headcount).toBe(before.headcount);
  });
});

describe('the sandbox gateway refund interface', () => {
  it('refuses a request whose signature does not hold, and more than the charge', async () => {
    const [p] = await w.t.database.db.select().from(policies).where(eq(policies.id, policyId));
    const fields = {
      merchantId: w.sandbox.merchantId,
      refundNo: 'RTEST-1',
      orderNo: 'nope',
      amountFen: 100,
      reason: 'x',
      nonce: 'n1',
    };
    const forged = await w.sandbox.gatewayRefund({ ...fields, sign: signFields(fields, 'x'.repeat(40)) });
    expect(forged.status).toBe('FAIL');
    expect(forged.message).toBe('签名错误');
    const tooMuch = await w.ctx.provider.refund({
      refundNo: 'RTEST-2',
      orderNo: p!.number,
      amountFen: 100,
      reason: 'x',
    });
    expect(tooMuch.status).toBe('REFUSED');
  });
});

describe('cancellation of a work-safety policy', () => {
  it('refuses an ordinary wish to cancel, with the reason, and asks for the proof of closure', async () => {
    const wish = await w.ent.post(`/api/policies/${policyId}/cancellations`, {
      effectiveDate: tomorrow(),
      reason: 'HOLDER_WISH',
      idempotencyKey: 'cancel-key-0001',
    });
    expect(wish.statusCode).toBe(400);
    expect(JSON.stringify(wish.json())).toContain(
      '安全生产责任保险仅在企业关闭、破产、注销或停止生产经营时可以退保',
    );
    const noProof = await w.ent.post(`/api/policies/${policyId}/cancellations`, {
      effectiveDate: tomorrow(),
      reason: 'DEREGISTERED',
      idempotencyKey: 'cancel-key-0002',
    });
    expect(noProof.statusCode).toBe(400);
    expect(JSON.stringify(noProof.json())).toContain('证明材料');
  });

  it('a deregistered enterprise cancels with its document and is refunded through the gateway, once', async () => {
    const [m] = await w.t.database.db
      .select({ id: materials.id })
      .from(materials)
      .where(and(eq(materials.businessType, 'application'), eq(materials.businessId, applicationId)));
    const res = await w.ent.post(`/api/policies/${policyId}/cancellations`, {
      effectiveDate: tomorrow(),
      reason: 'DEREGISTERED',
      proofMaterialId: m!.id,
      idempotencyKey: 'cancel-key-0003',
    });
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json();
    expect(c.reasonLabel).toBe('企业注销');
    expect(c.premiumDeltaFen).toBeLessThan(0);
    const ok = await w.underwriter.post(`/api/policy-changes/${c.id}/review`, {
      decision: 'approve',
      version: c.version,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const done = ok.json();
    expect(done.statusLabel).toBe('已生效');
    expect(done.refundedFen).toBe(-c.premiumDeltaFen);
    const p = await policyRow();
    expect(p.status).toBe('CANCELLED');
    expect(p.cancelledOn).toBe(tomorrow());
    // Its 退保批单 is sealed and signed like every issued document.
    const notice = await w.ent.get(`/api/endorsements/${done.endorsementId}/pdf`);
    expect(notice.statusCode).toBe(200);
    expect(await pdfText(notice.rawPayload)).toContain('已赚保险费');
    expect(pdfsig(notice.rawPayload)).toEqual([
      expect.objectContaining({ validation: 'Signature is Valid.', wholeDocument: true }),
    ]);
    // Paid (premium + the endorsement's difference) − refunds = the earned premium.
    const history = (await w.ent.get(`/api/policies/${policyId}/changes`)).json();
    const endorsementPaid = history
      .filter((h: { kind: string; paid: boolean }) => h.kind === 'ENDORSEMENT' && h.paid)
      .reduce((sum: number, h: { premiumDeltaFen: number }) => sum + h.premiumDeltaFen, 0);
    expect(endorsementPaid).toBeGreaterThan(0);
    const refunds = await w.t.database.db
      .select()
      .from(policyRefunds)
      .where(eq(policyRefunds.policyId, policyId));
    const refunded = refunds.reduce((s, r) => s + r.amountFen, 0);
    expect(premiumFen + endorsementPaid - refunded).toBe(done.earnedFen);
    // Asked again: no second refund at the gateway.
    await refundChange(w.ctx, c.id);
    const atGateway = await w.t.database.db.select().from(sandboxRefunds);
    expect(atGateway.reduce((s, r) => s + r.amountFen, 0)).toBe(refunded);
    const audit = await w.t.database.db.select().from(auditLog).where(eq(auditLog.entity, 'policy_change'));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['submit', 'approve', 'refund', 'pay']),
    );
    // A cancelled policy takes no more requests.
    const after = await w.ent.post(`/api/policies/${policyId}/endorsements`, {
      effectiveDate: tomorrow(),
      contactName: '张三',
      idempotencyKey: 'endorse-key-0009',
    });
    expect(after.statusCode).toBe(409);
  });
});
