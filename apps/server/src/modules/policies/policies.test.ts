import { createHash } from 'node:crypto';
import { addDays } from '@piibs/shared/application-status';
import { ISSUER_CODE } from '@piibs/shared/coinsurance';
import { formatFen, yuan } from '@piibs/shared/money';
import { maskHolderName, VERIFY_FAILED } from '@piibs/shared/policy';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from '../../../test/admin.ts';
import { pdfText } from '../../../test/pdf.ts';
import { pdfsig } from '../../../test/pdfsig.ts';
import { applications, auditLog, issuedDocuments, policies, policyDocuments } from '../../db/schema.ts';
import { demoUser } from '../../demo/user.ts';
import { jobHandlers } from '../../jobs/boss.ts';
import { CountCache } from '../../lib/keyset.ts';
import { paginate } from '../../lib/paging.ts';
import { customerViewerOf } from '../customers/access.ts';
import { createBusinessContext } from '../payments/context.ts';
import {
  cashier,
  createPayWorld,
  type PayWorld,
  paidSilently,
  pendingPayment,
  postNotification,
  startPay,
} from '../payments/test-fixtures.ts';
import { settlePolicyStatuses } from './expiry.ts';
import { issuanceFaults, redrawPolicyDocument } from './issue.ts';
import { type PolicyFilter, policyListSpec } from './service.ts';

const quiet = { info() {}, warn() {}, error() {} };
let w: PayWorld;
/** An issued, co-insured policy of the enterprise. */
let policyId: number;
let applicationId: number;
beforeAll(async () => {
  w = await createPayWorld();
  const a = await pendingPayment(w, w.ent, w.entCustomerId, {
    coinsurers: [
      { insurerCode: ISSUER_CODE, lead: true, share: '60' },
      { insurerCode: 'CPIC', lead: false, share: '25.5' },
      { insurerCode: 'PAIC', lead: false, share: '14.5' },
    ],
  });
  applicationId = a.id;
  const start = await startPay(w.ent, a.id);
  const res = await cashier(w, start.cashierUrl, 'pay');
  if (res.statusCode !== 303) throw new Error(res.body);
  const result = (await w.ent.get(`/api/payments/${start.payId}`)).json();
  policyId = result.policyId;
});
afterAll(() => {
  issuanceFaults.remaining = 0;
  return w.t.close();
});

type Detail = {
  id: number;
  number: string;
  productName: string;
  holderName: string;
  premiumFen: number;
  preventionFeeFen: number;
  startDate: string;
  endDate: string;
  status: string;
  verificationCode: string;
  verifyPath: string;
  coverages: {
    type: string;
    name: string;
    premiumFen: number | null;
    perPersonLimitFen: number | null;
    perAccidentLimitFen: number | null;
    aggregateLimitFen: number | null;
    deductibleFen: number;
  }[];
  coinsurers: {
    insurerCode: string;
    insurerName: string;
    lead: boolean;
    shareText: string;
    premiumFen: number;
    preventionFeeFen: number;
  }[];
  payments: { amountFen: number; source: string }[];
  application: { id: number; status: string };
  events: { action: string }[];
  document: { sha256: string; sizeBytes: number };
};

describe('issuance', () => {
  it('makes the policy from the application: number, period, coverages, co-insurers, prevention fee', async () => {
    const res = await w.ent.get(`/api/policies/${policyId}`);
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json() as Detail;
    const [a] = await w.t.database.db.select().from(applications).where(eq(applications.id, applicationId));
    expect(p.number).toMatch(/^PAZX\d{4}\d{8}$/);
    expect(p).toMatchObject({
      holderName: '镇江润扬测试科技有限公司',
      premiumFen: a!.premiumFen,
      preventionFeeFen: a!.preventionFeeFen,
      startDate: a!.startDate,
      endDate: a!.endDate,
      status: 'ISSUED',
      application: { id: applicationId, status: 'ISSUED' },
    });
    expect(p.coverages.reduce((s, c) => s + c.premiumFen!, 0)).toBe(p.premiumFen);
    expect(p.coverages[0]!.perPersonLimitFen).toBe(a!.perPersonLimitFen);
    // The issuing insurer is a party with its own share, named as the organisation; the parts add up.
    expect(p.coinsurers.map((c) => [c.insurerCode, c.insurerName, c.lead, c.shareText])).toEqual([
      [ISSUER_CODE, '测试财产保险股份有限公司', true, '60'],
      ['CPIC', '中国太平洋财产保险股份有限公司', false, '25.5'],
      ['PAIC', '中国平安财产保险股份有限公司', false, '14.5'],
    ]);
    expect(p.coinsurers.reduce((s, c) => s + c.premiumFen, 0)).toBe(p.premiumFen);
    expect(p.coinsurers.reduce((s, c) => s + c.preventionFeeFen, 0)).toBe(p.preventionFeeFen);
    expect(p.coinsurers[1]!.premiumFen).toBe(Math.floor((p.premiumFen * 255) / 1000));
    expect(p.payments).toEqual([expect.objectContaining({ amountFen: p.premiumFen, source: 'notify' })]);
    expect(p.events.map((e) => e.action)).toEqual(['create', 'submit', 'approve', 'pay', 'issue']);
    const audit = await w.t.database.db.select().from(auditLog).where(eq(auditLog.entity, 'policy'));
    expect(audit.map((r) => [r.action, r.entityId])).toContainEqual(['issue', String(policyId)]);
  });

  it("an individual policyholder's policy carries the insured's ID card number, not a credit code", async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId, {
      individual: { name: '王小明', idNumber: '11010519491231002X' },
    });
    const start = await startPay(w.ent, a.id);
    expect((await cashier(w, start.cashierUrl, 'pay')).statusCode).toBe(303);
    const { policyId: id } = (await w.ent.get(`/api/payments/${start.payId}`)).json();
    const p = (await w.ent.get(`/api/policies/${id}`)).json();
    expect(p).toMatchObject({
      insuredName: '王小明',
      insuredUscc: null,
      insuredIdNumber: '11010519491231002X',
    });
    // and an enterprise's policy the other way round
    const ent = (await w.ent.get(`/api/policies/${policyId}`)).json();
    expect(ent.insuredIdNumber).toBeNull();
    expect(ent.insuredUscc).toMatch(/^91/);
  });

  it('a simulated failure is retried and still yields exactly one policy', async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    issuanceFaults.remaining = 1;
    const body = await paidSilently(w, await startPay(w.ent, a.id));
    expect((await postNotification(w, body)).statusCode).toBe(200);
    expect(issuanceFaults.remaining).toBe(0);
    // Paid, not issued: the failed attempt left nothing behind.
    const mid = (await w.ent.get(`/api/payments/${a.paymentOrder!.number}`)).json();
    expect(mid).toMatchObject({ status: 'PAID', applicationStatus: 'PAID', policyId: null });
    expect(await policiesOf(a.id)).toBe(0);
    // The retry (the sweep job's handler) issues it; running it again changes nothing.
    expect(await jobHandlers.sweep(w.ctx)).toEqual({ issued: 1, failed: 0 });
    expect(await jobHandlers.sweep(w.ctx)).toEqual({ issued: 0, failed: 0 });
    await jobHandlers.issue(w.ctx, a.id);
    expect(await policiesOf(a.id)).toBe(1);
    const after = (await w.ent.get(`/api/payments/${a.paymentOrder!.number}`)).json();
    expect(after).toMatchObject({ applicationStatus: 'ISSUED' });
    expect(after.policyNumber).toMatch(/^PAZX/);
  });
});

const policiesOf = async (applicationId: number) =>
  (
    await w.t.database.db
      .select({ n: count() })
      .from(policies)
      .where(eq(policies.applicationId, applicationId))
  )[0]!.n;

describe('the e-policy PDF', () => {
  it('downloads as timestamp-name.pdf, matches its stored SHA-256, and its text carries the number and product', async () => {
    const p = (await w.ent.get(`/api/policies/${policyId}`)).json() as Detail;
    const res = await w.ent.get(`/api/policies/${policyId}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const m = /^attachment; filename\*=UTF-8''(\d{13})-(.+)\.pdf$/.exec(
      String(res.headers['content-disposition']),
    );
    expect(m).not.toBeNull();
    expect(decodeURIComponent(m![2]!)).toBe(`电子保单-${p.number}`);
    expect(Math.abs(Number(m![1]) - Date.now())).toBeLessThan(60_000);
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(sha).toBe(p.document.sha256);
    expect(res.headers['x-content-sha256']).toBe(sha);
    const [doc] = await w.t.database.db
      .select({ sha256: policyDocuments.sha256 })
      .from(policyDocuments)
      .where(eq(policyDocuments.policyId, policyId));
    expect(doc!.sha256).toBe(sha);
    // The same download twice: the same bytes.
    expect((await w.ent.get(`/api/policies/${policyId}/pdf`)).rawPayload.equals(bytes)).toBe(true);

    const flat = await pdfText(bytes);
    expect(flat).toContain(p.number);
    expect(flat).toContain(p.productName.replace(/\s+/g, ''));
    expect(flat).toContain('电子保险单');
    expect(flat).toContain(p.verificationCode);
    expect(flat).toContain('镇江润扬测试科技有限公司');
    for (const c of p.coinsurers) expect(flat).toContain(c.insurerName);
    expect(flat).toContain('事故预防服务费用');
    // who collects: the issuer, as lead, the whole premium
    expect(flat).toContain(
      `本保单为共保保单，由主承保人测试财产保险股份有限公司代收全部保费${formatFen(p.premiumFen)}，并按份额与共保人结算。`,
    );
  });
});

describe('the e-policy is signed by the insurer', () => {
  it("carries one valid PDF signature (pdfsig) of the insurer's certificate over the whole file, recorded with its hash", async () => {
    const bytes = (await w.ent.get(`/api/policies/${policyId}/pdf`)).rawPayload;
    expect(pdfsig(bytes)).toEqual([
      {
        signerName: '测试财产保险股份有限公司 电子签章',
        validation: 'Signature is Valid.',
        subFilter: 'adbe.pkcs7.detached',
        hash: 'SHA-256',
        wholeDocument: true,
      },
    ]);
    const rows = await w.t.database.db
      .select()
      .from(issuedDocuments)
      .where(eq(issuedDocuments.policyId, policyId));
    expect(rows).toEqual([
      expect.objectContaining({
        kind: 'POLICY',
        sha256: createHash('sha256').update(bytes).digest('hex'),
        size: bytes.length,
        certSubject: '测试财产保险股份有限公司 电子签章',
        certIssuer: 'PIIBS Demo Root CA',
      }),
    ]);
    expect(rows[0]!.content?.equals(bytes)).toBe(true);
    // a byte changed: the signature fails
    const changed = Buffer.from(bytes);
    const at = changed.indexOf('/Producer') + 2;
    changed[at] = changed[at]! ^ 1;
    expect(pdfsig(changed)[0]?.validation).not.toBe('Signature is Valid.');
  });
});

describe('an e-policy never stored (a policy written in bulk: demo/volume.ts)', () => {
  it('is drawn from the policy, signed and stored on its first download, once, however many ask at a time', async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    const start = await startPay(w.ent, a.id);
    expect((await cashier(w, start.cashierUrl, 'pay')).statusCode).toBe(303);
    const { policyId: id } = (await w.ent.get(`/api/payments/${start.payId}`)).json();
    const db = w.t.database.db;
    // The row as the volume set writes it: no file, no hash.
    await db.delete(policyDocuments).where(eq(policyDocuments.policyId, id));
    await db.delete(issuedDocuments).where(eq(issuedDocuments.policyId, id));
    await db.update(policies).set({ pdfSha256: '', pdfSize: 0 }).where(eq(policies.id, id));
    expect(((await w.ent.get(`/api/policies/${id}`)).json() as Detail).document).toMatchObject({
      sha256: '',
      sizeBytes: 0,
    });
    // Someone who may not see it learns nothing, and draws nothing.
    expect((await w.ent2.get(`/api/policies/${id}/pdf`)).statusCode).toBe(404);
    expect(await db.select().from(issuedDocuments).where(eq(issuedDocuments.policyId, id))).toEqual([]);

    const [x, y] = await Promise.all([
      w.ent.get(`/api/policies/${id}/pdf`),
      w.ent.get(`/api/policies/${id}/pdf`),
    ]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    const bytes = x.rawPayload;
    expect(y.rawPayload.equals(bytes)).toBe(true);
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(x.headers['x-content-sha256']).toBe(sha);
    expect(pdfsig(bytes).map((s) => s.validation)).toEqual(['Signature is Valid.']);
    const p = (await w.ent.get(`/api/policies/${id}`)).json() as Detail;
    expect(p.document).toMatchObject({ sha256: sha, sizeBytes: bytes.length });
    const flat = await pdfText(bytes);
    expect(flat).toContain(p.number);
    expect(flat).toContain(p.verificationCode);
    expect(flat).toContain('镇江润扬测试科技有限公司');
    // Recorded once, as issuing records it; later downloads answer the stored file.
    const issued = await db.select().from(issuedDocuments).where(eq(issuedDocuments.policyId, id));
    expect(issued.map((d) => [d.kind, d.number, d.sha256])).toEqual([['POLICY', p.number, sha]]);
    const stored = await db.select().from(policyDocuments).where(eq(policyDocuments.policyId, id));
    expect(stored.map((d) => d.sha256)).toEqual([sha]);
    expect((await w.ent.get(`/api/policies/${id}/pdf`)).rawPayload.equals(bytes)).toBe(true);
  });
});

describe('the covers (保险责任) on the policy and its e-policy', () => {
  /** A policy with the optional third-party property cover (每次事故 50万, 累计 100万, 免赔额 1,000 yuan). */
  let covered: Detail;
  let coveredPdf: string;
  beforeAll(async () => {
    const a = await pendingPayment(w, w.ent, w.entCustomerId, { coverages: ['THIRD_PARTY_PROPERTY'] });
    const start = await startPay(w.ent, a.id);
    expect((await cashier(w, start.cashierUrl, 'pay')).statusCode).toBe(303);
    const { policyId: id } = (await w.ent.get(`/api/payments/${start.payId}`)).json();
    covered = (await w.ent.get(`/api/policies/${id}`)).json();
    coveredPdf = await pdfText((await w.ent.get(`/api/policies/${id}/pdf`)).rawPayload);
  });

  it('are the covers insured with their plain names, limits and deductible, each with its premium', () => {
    expect(covered.coverages.map((c) => c.name)).toEqual([
      '从业人员伤亡（死亡/伤残）',
      '从业人员医疗费用',
      '第三者人身伤亡',
      '第三者财产损失',
      '事故应急救援费用',
    ]);
    expect(covered.coverages[3]).toEqual({
      type: 'THIRD_PARTY_PROPERTY',
      name: '第三者财产损失',
      perPersonLimitFen: null,
      perAccidentLimitFen: yuan(500_000),
      aggregateLimitFen: yuan(1_000_000),
      deductibleFen: yuan(1_000),
      premiumFen: expect.any(Number),
    });
    expect(covered.coverages.reduce((s, c) => s + c.premiumFen!, 0)).toBe(covered.premiumFen);
  });

  it('the e-policy prints the same table: limits labelled, the deductible, no rating formula', () => {
    const premium = (i: number) => formatFen(covered.coverages[i]!.premiumFen);
    expect(coveredPdf).toContain('保险责任每人限额每次事故限额累计限额免赔额保费');
    expect(coveredPdf).toContain(`从业人员伤亡（死亡/伤残）¥500,000.00——无${premium(0)}`);
    expect(coveredPdf).toContain(`第三者财产损失—¥500,000.00¥1,000,000.00¥1,000.00${premium(3)}`);
    expect(coveredPdf).toContain(`事故应急救援费用—¥500,000.00¥1,000,000.00无${premium(4)}`);
    expect(coveredPdf).not.toMatch(/[×‰]/);
  });

  it('a policy issued before the covers were stored shows them rebuilt from its quote, limits as issued', async () => {
    // What issuance stored before: the quote's lines, the rating formula as the name.
    const legacy = covered.coverages.map((c) => ({
      key: c.type,
      type: c.type,
      name: `${c.name} 50万元/人 × 1人 × 0.38‰`,
      perPersonLimitFen: c.perPersonLimitFen,
      perAccidentLimitFen: c.perAccidentLimitFen,
      aggregateLimitFen: c.aggregateLimitFen,
      deductibleFen: c.deductibleFen,
      baseFen: 1,
      premiumFen: c.premiumFen,
    }));
    await w.t.database.db.update(policies).set({ coverages: legacy }).where(eq(policies.id, covered.id));
    const p = (await w.ent.get(`/api/policies/${covered.id}`)).json() as Detail;
    expect(p.coverages).toEqual(covered.coverages);
  });
});

describe('verification (public)', () => {
  it('answers masked data for the real code, 404 for a fake one', async () => {
    const p = (await w.ent.get(`/api/policies/${policyId}`)).json() as Detail;
    expect(p.verifyPath).toBe(`/piibs/verify/${p.verificationCode}`);
    const res = await w.t.app.inject({ method: 'GET', url: `/api/policies/verify/${p.verificationCode}` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      valid: true,
      insurerName: '测试财产保险股份有限公司',
      policyNumber: p.number,
      productName: p.productName,
      holderName: '镇江**测试科技有限公司',
      startDate: p.startDate,
      endDate: p.endDate,
      premiumFen: p.premiumFen,
      coverages: p.coverages,
      status: 'ISSUED',
      statusLabel: '未生效',
      issuedAt: expect.any(String),
      endorsements: [],
      documents: [
        {
          kind: 'POLICY',
          kindLabel: '电子保单',
          number: p.number,
          sha256: p.document.sha256,
          sizeBytes: p.document.sizeBytes,
          issuedAt: expect.any(String),
          certificate: {
            subject: '测试财产保险股份有限公司 电子签章',
            issuer: 'PIIBS Demo Root CA',
            serial: expect.stringMatching(/^[0-9a-f]+$/),
            notBefore: expect.any(String),
            notAfter: expect.any(String),
          },
        },
      ],
    });
    expect(res.body).not.toContain('润扬');
    expect(res.body).not.toContain(w.entUscc);
    const fake = await w.t.app.inject({ method: 'GET', url: '/api/policies/verify/0000000000000000' });
    expect(fake.json()).toEqual({ status: 404, message: VERIFY_FAILED });
    const lower = await w.t.app.inject({
      method: 'GET',
      url: `/api/policies/verify/${p.verificationCode.toLowerCase()}`,
    });
    expect(lower.statusCode).toBe(200);
  });

  it('a redrawn e-policy is a new file; the file issued before stays listed with its own hash and signature', async () => {
    const [other] = await w.t.database.db
      .select({ id: policies.id, code: policies.verificationCode, sha: policies.pdfSha256 })
      .from(policies)
      .where(eq(policies.id, policyId));
    const before = (await w.ent.get(`/api/policies/${policyId}/pdf`)).rawPayload;
    await redrawPolicyDocument(
      createBusinessContext({ db: w.t.database.db, config: w.t.config, log: quiet }),
      other!.id,
    );
    const after = (await w.ent.get(`/api/policies/${policyId}/pdf`)).rawPayload;
    expect(after.equals(before)).toBe(false);
    const docs = (await w.t.app.inject({ method: 'GET', url: `/api/policies/verify/${other!.code}` })).json()
      .documents as { sha256: string }[];
    expect(docs.map((d) => d.sha256)).toEqual([
      createHash('sha256').update(before).digest('hex'),
      createHash('sha256').update(after).digest('hex'),
    ]);
    expect(pdfsig(after)[0]?.validation).toBe('Signature is Valid.');
    const [first] = await w.t.database.db
      .select({ content: issuedDocuments.content })
      .from(issuedDocuments)
      .where(eq(issuedDocuments.sha256, other!.sha));
    expect(first!.content?.equals(before)).toBe(true);
  });

  it('masks names as the spec shows', () => {
    expect(maskHolderName('镇江润扬科技有限公司')).toBe('镇江**科技有限公司');
    expect(maskHolderName('张三')).toBe('张*');
    expect(maskHolderName('欧阳娜娜')).toBe('欧**娜');
  });
});

describe('who may see a policy', () => {
  it('another enterprise gets 404 on detail and pdf, and an empty list; the underwriter sees it', async () => {
    expect((await w.ent2.get(`/api/policies/${policyId}`)).json()).toEqual({
      status: 404,
      message: '保单不存在',
    });
    expect((await w.ent2.get(`/api/policies/${policyId}/pdf`)).statusCode).toBe(404);
    expect((await w.agent2.get(`/api/policies/${policyId}`)).statusCode).toBe(404);
    expect((await w.ent2.get('/api/policies')).json()).toEqual({ content: [], totalElements: 0 });
    const mine = (await w.ent.get('/api/policies?sort=issuedAt,desc')).json();
    expect(mine.content.map((r: { id: number }) => r.id)).toContain(policyId);
    expect((await w.underwriter.get(`/api/policies/${policyId}`)).statusCode).toBe(200);
    const filtered = (await w.underwriter.get('/api/policies?blurry=润扬&status=ISSUED')).json();
    expect(filtered.content.map((r: { id: number }) => r.id)).toContain(policyId);
    expect((await w.t.app.inject({ method: 'GET', url: `/api/policies/${policyId}` })).statusCode).toBe(401);
  });
});

describe('the policy lists (保单查询 / 我的保单): export', () => {
  it('exports what the list shows as xlsx, only the caller’s own policies', async () => {
    const mine = await w.ent.get('/api/policies/download');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.headers['content-type']).toContain('spreadsheetml');
    const rows = await readXlsx(mine.rawPayload);
    expect(rows[0]).toEqual([
      '保单号',
      '投保人',
      '被保险人',
      '险种',
      '保险起期',
      '保险止期',
      '保费（元）',
      '状态',
      '投保单号',
      '出单日期',
    ]);
    const p = (await w.ent.get(`/api/policies/${policyId}`)).json() as Detail;
    const line = rows.find((r) => r[0] === p.number)!;
    expect(line.slice(4, 8)).toEqual([
      p.startDate,
      p.endDate,
      formatFen(p.premiumFen).replace(/[¥,]/g, ''),
      '未生效',
    ]);
    const other = await readXlsx((await w.ent2.get('/api/policies/download')).rawPayload);
    expect(other).toHaveLength(1);
    const filtered = await readXlsx(
      (await w.underwriter.get('/api/policies/download?status=EXPIRED')).rawPayload,
    );
    expect(filtered.some((r) => r[0] === p.number)).toBe(false);
  });
});

// Last: it moves every policy of this file's world on.
describe('stored status follows the period (the policy-expire job)', () => {
  it('未生效 → 有效 on the start day, → 已到期 after the end day, each move audited; the list agrees', async () => {
    const p = (await w.ent.get(`/api/policies/${policyId}`)).json() as Detail;
    const stored = async () =>
      (
        await w.t.database.db.select({ s: policies.status }).from(policies).where(eq(policies.id, policyId))
      )[0]!.s;
    expect(await settlePolicyStatuses(w.t.database.db, addDays(p.startDate, -1))).toBe(0);
    expect(await stored()).toBe('ISSUED');
    expect(await settlePolicyStatuses(w.t.database.db, p.startDate)).toBeGreaterThan(0);
    expect(await stored()).toBe('IN_FORCE');
    expect(await settlePolicyStatuses(w.t.database.db, addDays(p.endDate, 1))).toBeGreaterThan(0);
    expect(await stored()).toBe('EXPIRED');
    expect(await settlePolicyStatuses(w.t.database.db, addDays(p.endDate, 1))).toBe(0);
    const moves = await w.t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'policy'), eq(auditLog.entityId, String(policyId))));
    expect(moves.map((m) => m.action)).toEqual(expect.arrayContaining(['start', 'expire']));
    // The job handler runs the same pass.
    expect(await jobHandlers.policyExpire(w.ctx)).toBeGreaterThanOrEqual(0);
    const listed = (await w.ent.get('/api/policies')).json();
    expect(listed.content.find((r: { id: number }) => r.id === policyId)).toMatchObject({
      status: 'EXPIRED',
      statusLabel: '已到期',
    });
  });
});

describe('the policy list’s count', () => {
  it('is cached per filter and data scope, and any change of a policy makes it stale', async () => {
    const db = w.t.database.db;
    const viewer = await customerViewerOf(db, (await demoUser(db, 'admin'))!);
    const counts = new CountCache();
    const total = async (f: PolicyFilter = {}) =>
      (await paginate({ page: 0, size: 1 }, policyListSpec(db, viewer, f, counts))).totalElements;
    const before = await total();
    expect(before).toBeGreaterThan(1);
    expect(await total()).toBe(before);
    expect([counts.misses, counts.hits]).toEqual([1, 1]);

    const rename = (id: number, holderName: string) =>
      db.update(policies).set({ holderName }).where(eq(policies.id, id));
    await rename(policyId, '计数缓存保单甲');
    expect(await total({ blurry: '计数缓存保单' })).toBe(1);
    expect(await total({ blurry: '计数缓存保单' })).toBe(1);
    expect([counts.misses, counts.hits]).toEqual([2, 2]);

    // A policy issued (payment → policy) is counted at once.
    const a = await pendingPayment(w, w.ent, w.entCustomerId);
    const start = await startPay(w.ent, a.id);
    expect((await cashier(w, start.cashierUrl, 'pay')).statusCode).toBe(303);
    expect(await total()).toBe(before + 1);
    // Another statement on policy (a holder renamed) moves it into the keyword's rows at once.
    await rename((await w.ent.get(`/api/payments/${start.payId}`)).json().policyId, '计数缓存保单乙');
    expect(await total({ blurry: '计数缓存保单' })).toBe(2);
    expect(counts.misses).toBe(4);
  });
});
