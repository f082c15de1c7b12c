// Factories for the policy pages' tests (payment, payment result, policy view, verification, supplements and
// renewals): answers as the API gives them. Not a test file.
import type { ApplicationDetail } from '@piibs/shared/application';
import { ISSUER_CODE } from '@piibs/shared/coinsurance';
import type { PaymentResult } from '@piibs/shared/payment';
import type { PolicyCoverage, PolicyDetail, PolicyVerification } from '@piibs/shared/policy';
import type { PolicySales, SalesRow, SupplementDetail } from '@piibs/shared/sales';
import { customerRow } from '@/features/customer/test-data.ts';
import { dictAnswers, pageAnswer } from '@/test/mock-api.ts';

const HOUR = 3_600_000;

/** An approved application waiting for payment (GET /api/applications/:id), its order due in 24 hours. */
export function applicationDetail(over: Partial<ApplicationDetail> = {}): ApplicationDetail {
  return {
    id: 12,
    number: 'AZX2026000012',
    productId: 1,
    productCode: 'AZX',
    productName: '安全生产责任保险（工贸行业）',
    productClass: 'work_safety',
    channel: 'enterprise',
    policyholderType: 1,
    customerId: 7,
    applicantName: '镇江示范机械有限公司',
    applicantUscc: '91440300708461136T',
    status: 'PENDING_PAYMENT',
    statusLabel: '待支付',
    startDate: '2026-12-01',
    endDate: '2027-11-30',
    premiumFen: 2_400_000,
    preventionFeeFen: 360_000,
    reviewOpinion: null,
    ownerId: 1,
    ownerName: 'enterprise',
    agentId: null,
    submittedAt: '2026-11-20T08:00:00.000Z',
    createdAt: '2026-11-20T08:00:00.000Z',
    updatedAt: '2026-11-21T08:00:00.000Z',
    version: 4,
    actions: ['view', 'cancel', 'pay'],
    insuredName: '镇江示范机械有限公司',
    insuredUscc: '91440300708461136T',
    insuredIdNumber: null,
    insuredAddress: '镇江市京口区学府路 1 号',
    contactName: '赵六',
    contactPhone: '13800005678',
    contactEmail: null,
    specialTerms: null,
    industrySection: 'C',
    industryDivision: '34',
    headcount: 120,
    payrollFen: null,
    perPersonLimitFen: 40_000_000,
    coverages: [],
    factors: {},
    guaranteeAmountFen: null,
    projectName: null,
    projectAddress: null,
    projectCostFen: null,
    contractor: null,
    highRisk: false,
    preventionRatio: 15_000_000,
    commissionRate: null,
    allowsCoinsurance: false,
    issuerLeads: true,
    issuerName: '示例财产保险股份有限公司',
    quote: null,
    rateTableId: 3,
    coinsurers: [],
    customer: customerRow(),
    paymentOrder: {
      id: 5,
      number: 'PAY2026000005',
      amountFen: 2_400_000,
      status: 'PENDING',
      expiresAt: new Date(Date.now() + 24 * HOUR).toISOString(),
      createdAt: '2026-11-21T08:00:00.000Z',
    },
    openTaskId: null,
    requiredMaterials: [
      { docType: 'BUSINESS_LICENSE', stage: 'SUBMIT' },
      { docType: 'INSURED_LIST', stage: 'APPROVE' },
    ],
    requestedDocTypes: [],
    customerDocTypes: [],
    ...over,
  };
}

/** GET /api/payments/:payId: a pending order of the application above. */
export function paymentResult(over: Partial<PaymentResult> = {}): PaymentResult {
  return {
    payId: 'PAY2026000005',
    orderId: 5,
    status: 'PENDING',
    statusLabel: '待支付',
    amountFen: 2_400_000,
    expiresAt: new Date(Date.now() + 24 * HOUR).toISOString(),
    paidAt: null,
    provider: 'sandbox',
    tradeNo: null,
    applicationId: 12,
    applicationNumber: 'AZX2026000012',
    applicationStatus: 'PENDING_PAYMENT',
    productName: '安全生产责任保险（工贸行业）',
    policyId: null,
    policyNumber: null,
    ...over,
  };
}

/** The same order paid, and (unless `issued` is false) its policy issued. */
export function paidResult(issued = true): PaymentResult {
  return paymentResult({
    status: 'PAID',
    statusLabel: '已支付',
    paidAt: '2026-11-21T09:00:00.000Z',
    tradeNo: 'SBX20261121000001',
    applicationStatus: issued ? 'ISSUED' : 'PAID',
    policyId: issued ? 9 : null,
    policyNumber: issued ? 'PAZX202600000009' : null,
  });
}

/** GET /api/policies/:id: a co-insured policy (60/40) with two coverages, one payment and its history. */
export function policyDetail(over: Partial<PolicyDetail> = {}): PolicyDetail {
  return {
    id: 9,
    number: 'PAZX202600000009',
    applicationId: 12,
    applicationNumber: 'AZX2026000012',
    productId: 1,
    productCode: 'AZX',
    productName: '安全生产责任保险（工贸行业）',
    customerId: 7,
    holderName: '镇江示范机械有限公司',
    holderUscc: '91440300708461136T',
    insuredName: '镇江示范机械有限公司',
    startDate: '2026-12-01',
    endDate: '2027-11-30',
    premiumFen: 2_400_000,
    preventionFeeFen: 360_000,
    status: 'ISSUED',
    statusLabel: '未生效',
    issuedAt: '2026-11-21T09:00:05.000Z',
    insuredUscc: '91440300708461136T',
    insuredIdNumber: null,
    insuredAddress: '镇江市京口区学府路 1 号',
    preventionRatio: 15_000_000,
    headcount: 120,
    projectName: null,
    specialTerms: null,
    coverages: [
      {
        type: 'EMPLOYEE_DEATH_DISABILITY',
        name: '从业人员伤亡（死亡/伤残）',
        perPersonLimitFen: 40_000_000,
        perAccidentLimitFen: null,
        aggregateLimitFen: null,
        deductibleFen: 0,
        premiumFen: 2_000_000,
      },
      {
        type: 'THIRD_PARTY_INJURY',
        name: '第三者人身伤亡',
        perPersonLimitFen: null,
        perAccidentLimitFen: 100_000_000,
        aggregateLimitFen: 500_000_000,
        deductibleFen: 50_000,
        premiumFen: 400_000,
      },
    ],
    coinsurers: [
      {
        insurerCode: ISSUER_CODE,
        insurerName: '示例财产保险股份有限公司',
        lead: true,
        share: 60_000_000,
        shareText: '60',
        premiumFen: 1_440_000,
        preventionFeeFen: 216_000,
      },
      {
        insurerCode: 'PAIC',
        insurerName: '中国平安财产保险股份有限公司',
        lead: false,
        share: 40_000_000,
        shareText: '40',
        premiumFen: 960_000,
        preventionFeeFen: 144_000,
      },
    ],
    verificationCode: 'K7M2Q9X4TB8R3N6P',
    verifyPath: '/piibs/verify/K7M2Q9X4TB8R3N6P',
    document: {
      sha256: 'ab12'.repeat(16),
      sizeBytes: 48_213,
      downloadPath: '/api/policies/9/pdf',
    },
    payments: [
      {
        id: 3,
        orderNumber: 'PAY2026000005',
        provider: 'sandbox',
        providerLabel: '沙箱支付（测试环境）',
        tradeNo: 'SBX20261121000001',
        amountFen: 2_400_000,
        paidAt: '2026-11-21T09:00:00.000Z',
        source: 'notify',
      },
    ],
    application: {
      id: 12,
      number: 'AZX2026000012',
      status: 'ISSUED',
      channel: 'enterprise',
      submittedAt: '2026-11-20T08:00:00.000Z',
      ownerName: '企业用户',
    },
    events: [
      {
        id: 1,
        action: 'submit',
        fromStatus: 'DRAFT',
        toStatus: 'PENDING_REVIEW',
        actor: '企业用户',
        opinion: null,
        at: '2026-11-20T08:00:00.000Z',
      },
      {
        id: 2,
        action: 'pay',
        fromStatus: 'PENDING_PAYMENT',
        toStatus: 'PAID',
        actor: '沙箱支付（测试环境）',
        opinion: null,
        at: '2026-11-21T09:00:00.000Z',
      },
      {
        id: 3,
        action: 'issue',
        fromStatus: 'PAID',
        toStatus: 'ISSUED',
        actor: '系统自动',
        opinion: '保单号 PAZX202600000009',
        at: '2026-11-21T09:00:05.000Z',
      },
    ],
    ...over,
  };
}

const cover = (
  type: PolicyCoverage['type'],
  name: string,
  limits: Partial<PolicyCoverage>,
): PolicyCoverage => ({
  type,
  name,
  perPersonLimitFen: null,
  perAccidentLimitFen: null,
  aggregateLimitFen: null,
  deductibleFen: 0,
  premiumFen: null,
  ...limits,
});

/** GET /api/policies/31: a project's (construction) policy, its premium by cost band, not by cover. */
export function projectPolicyDetail(over: Partial<PolicyDetail> = {}): PolicyDetail {
  return policyDetail({
    id: 31,
    number: 'PJZSG202600000031',
    productName: '建筑施工安全生产责任保险',
    premiumFen: 3_050_000,
    headcount: null,
    projectName: '滨江花园二期住宅工程',
    coinsurers: [],
    coverages: [
      cover('EMPLOYEE_DEATH_DISABILITY', '从业人员伤亡（死亡/伤残）', { perPersonLimitFen: 50_000_000 }),
      cover('RESCUE', '事故应急救援费用', {
        perAccidentLimitFen: 50_000_000,
        aggregateLimitFen: 100_000_000,
      }),
    ],
    ...over,
  });
}

/** The signing certificate a verification lists with each file. */
const sealCertificate = {
  subject: '示例财产保险股份有限公司 电子签章',
  issuer: 'PIIBS Demo Root CA',
  serial: '6746c665b7ee8a0de8d877d693d8bb5a',
  notBefore: '2026-11-20T01:45:07.000Z',
  notAfter: '2029-11-20T01:45:07.000Z',
};

/** GET /api/policies/verify/:code: the masked facts, an endorsement and the files issued (their SHA-256). */
export function verification(over: Partial<PolicyVerification> = {}): PolicyVerification {
  return {
    valid: true,
    insurerName: '示例财产保险股份有限公司',
    policyNumber: 'PAZX202600000009',
    productName: '安全生产责任保险（工贸行业）',
    holderName: '镇江**机械有限公司',
    startDate: '2026-12-01',
    endDate: '2027-11-30',
    premiumFen: 1_234_567,
    coverages: [
      cover('EMPLOYEE_DEATH_DISABILITY', '从业人员伤亡（死亡/伤残）', {
        perPersonLimitFen: 50_000_000,
        premiumFen: 1_000_000,
      }),
      cover('RESCUE', '事故应急救援费用', {
        perAccidentLimitFen: 50_000_000,
        aggregateLimitFen: 100_000_000,
        premiumFen: 234_567,
      }),
    ],
    status: 'ISSUED',
    statusLabel: '未生效',
    issuedAt: '2026-11-21T09:00:05.000Z',
    endorsements: [
      {
        number: 'EAZX202600000003',
        effectiveDate: '2026-12-15',
        premiumDiffFen: 50_000,
        issuedAt: '2026-12-14T02:00:00.000Z',
      },
    ],
    documents: [
      {
        kind: 'POLICY',
        kindLabel: '电子保单',
        number: 'PAZX202600000009',
        // SHA-256 of the bytes '%PDF-policy'
        sha256: '58f9cd63e97d70198fcb51bfa886a5e5617fa8c2f0835c24ff25e76df4a20d6d',
        sizeBytes: 104_523,
        issuedAt: '2026-11-21T09:00:05.000Z',
        certificate: sealCertificate,
      },
      {
        kind: 'ENDORSEMENT',
        kindLabel: '批单',
        number: 'EAZX202600000003',
        sha256: 'ab12'.repeat(16),
        sizeBytes: 98_100,
        issuedAt: '2026-12-14T02:00:00.000Z',
        certificate: sealCertificate,
      },
    ],
    ...over,
  };
}

export function salesRow(over: Partial<SalesRow> = {}): SalesRow {
  return {
    policyId: 11,
    number: 'PAZX202600000011',
    productId: 1,
    productName: '安全生产责任保险',
    holderName: '镇江示范机械有限公司',
    holderUscc: '91321100MA1XXXXX0X',
    insuredName: '镇江示范机械有限公司',
    startDate: '2026-06-01',
    endDate: '2027-05-31',
    premiumFen: 1_234_500,
    policyStatus: 'ISSUED',
    policyStatusLabel: '未生效',
    issuedAt: '2026-05-20T02:00:00.000Z',
    supplementStatus: 'NONE',
    supplementStatusLabel: '未补录',
    supplementId: null,
    variant: null,
    salespersonName: null,
    salespersonNo: null,
    agentName: null,
    commissionRate: null,
    commissionRateText: null,
    businessSource: null,
    businessSourceLabel: null,
    wageAccountNo: null,
    supplementedAt: null,
    version: null,
    ...over,
  };
}

export function supplement(over: Partial<SupplementDetail> = {}): SupplementDetail {
  return {
    id: 3,
    policyId: 11,
    variant: 'STANDARD',
    salespersonName: '王销售',
    salespersonNo: 'S0001',
    agentUserId: null,
    agentName: '镇江平安保险代理有限公司',
    agentLicenceNo: 'DL-2026-001',
    commissionRate: 2_500_000,
    commissionRateText: '2.5',
    businessSource: 'PROFESSIONAL_AGENCY',
    businessSourceLabel: '专业代理业务',
    nbProjectName: null,
    migrantWorkerCount: null,
    wageBank: null,
    wageAccountNo: null,
    labourContractFilingNo: null,
    supervisingAuthority: null,
    remark: null,
    createdAt: '2026-05-21T02:00:00.000Z',
    updatedAt: '2026-05-21T02:00:00.000Z',
    updatedBy: 'uw',
    version: 2,
    ...over,
  };
}

export function policySales(over: Partial<PolicySales> = {}): PolicySales {
  return {
    policy: {
      id: 11,
      number: 'PAZX202600000011',
      productId: 1,
      productName: '安全生产责任保险',
      holderName: '镇江示范机械有限公司',
      holderUscc: '91321100MA1XXXXX0X',
      insuredName: '镇江示范机械有限公司',
      startDate: '2026-06-01',
      endDate: '2027-05-31',
      premiumFen: 1_234_500,
      status: 'ISSUED',
      statusLabel: '未生效',
      issuedAt: '2026-05-20T02:00:00.000Z',
      commissionCap: 5_000_000,
      commissionCapText: '5',
    },
    supplement: null,
    defaults: { commissionRate: null, agentUserId: null, agentName: null },
    changes: [],
    ...over,
  };
}

const SOURCES: [string, string][] = [
  ['DIRECT', '直接业务'],
  ['PROFESSIONAL_AGENCY', '专业代理业务'],
];

/** GET api/dictDetail for the business-source dictionary. */
export const salesDictAnswer = dictAnswers({ business_source: SOURCES });

export const pageOf = pageAnswer;
