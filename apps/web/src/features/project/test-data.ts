// Project insurance records as the API answers them, for the pages' tests.
import { yuan } from '@piibs/shared/money';
import type { AvailableProduct } from '@piibs/shared/product';
import type {
  AnnualOrderDetail,
  AnnualOrderRow,
  DeclarationDetail,
  DeclarationRow,
  EndorsementRow,
} from '@piibs/shared/project-order';

export function annualOrderRow(overrides: Partial<AnnualOrderRow> = {}): AnnualOrderRow {
  return {
    id: 5,
    number: 'ND2026000005',
    customerId: 8,
    customerName: '镇江示例建设工程有限公司',
    customerUscc: '91321102MA1JY7RG3Q',
    productId: 2,
    productCode: 'JZSG_AZX_2025',
    productName: '建筑施工安全生产责任保险',
    startDate: '2026-01-01',
    endDate: '2099-12-30',
    state: 'ACTIVE',
    stateLabel: '生效中',
    quotaFen: yuan(500_000),
    consumedFen: 4_615_000,
    remainingFen: yuan(500_000) - 4_615_000,
    declaredCount: 2,
    approvedCount: 1,
    approvedCostFen: yuan(50_000_000),
    note: null,
    contactName: '张工',
    contactPhone: '138****5678',
    applicationId: null,
    applicationNumber: null,
    closedAt: null,
    createdBy: '核保员',
    createdAt: '2026-01-01T02:00:00.000Z',
    version: 3,
    ...overrides,
  };
}

export function annualOrderDetail(overrides: Partial<AnnualOrderDetail> = {}): AnnualOrderDetail {
  return {
    ...annualOrderRow(),
    canDeclare: true,
    sourcePolicyId: null,
    sourcePolicyNumber: null,
    openCount: 1,
    policies: [
      {
        policyId: 31,
        number: 'PJZSG202600000031',
        declarationId: 41,
        projectName: '滨江花园二期住宅工程',
        premiumFen: 3_965_000,
        startDate: '2026-03-01',
        endDate: '2027-08-23',
        issuedAt: '2026-02-20T03:00:00.000Z',
      },
    ],
    ...overrides,
  };
}

export function declarationRow(overrides: Partial<DeclarationRow> = {}): DeclarationRow {
  return {
    id: 42,
    number: 'EC2026000042',
    annualOrderId: 5,
    annualOrderNumber: 'ND2026000005',
    customerName: '镇江示例建设工程有限公司',
    kind: 1,
    baseId: null,
    baseNumber: null,
    premiumDiffFen: null,
    projectName: '学府路小学改扩建工程',
    projectAddress: '江苏省镇江市京口区学府路 120 号',
    projectCostFen: yuan(10_000_000),
    startDate: '2026-03-01',
    endDate: '2027-02-28',
    highRisk: false,
    headcount: null,
    premiumFen: 650_000,
    reservedFen: 650_000,
    status: 'PENDING_REVIEW',
    statusLabel: '待审核',
    reviewOpinion: null,
    ownerName: '镇江示例建设工程有限公司',
    submittedAt: '2026-02-21T03:00:00.000Z',
    decidedAt: null,
    createdAt: '2026-02-21T02:00:00.000Z',
    version: 2,
    policyId: null,
    policyNumber: null,
    openTaskId: 77,
    actions: [],
    ...overrides,
  };
}

export function declarationDetail(overrides: Partial<DeclarationDetail> = {}): DeclarationDetail {
  return {
    ...declarationRow(),
    quote: {
      productId: 2,
      productCode: 'JZSG_AZX_2025',
      productName: '建筑施工安全生产责任保险',
      productClass: 'construction',
      rateTableId: 4,
      rateTableVersion: 1,
      effectiveDate: '2025-01-01',
      quotedAt: '2026-02-21T03:00:00.000Z',
      input: {
        industrySection: null,
        industryDivision: null,
        headcount: null,
        perPersonLimitFen: null,
        coverages: ['EMPLOYEE_DEATH_DISABILITY'],
        projectCostFen: yuan(10_000_000),
        highRisk: false,
        guaranteeAmountFen: null,
        factors: {},
        preventionRatio: 15_000_000,
      },
      premiumFen: 650_000,
      basePremiumFen: 650_000,
      combinedMultiplier: '1',
      lines: [
        {
          key: 'band:0',
          label: '工程造价 1000万元及以下部分 × 0.65‰',
          coverageType: null,
          baseFen: yuan(10_000_000),
          rate: 6_500,
          basePremiumFen: 650_000,
          premiumFen: 650_000,
        },
      ],
      factors: [],
      preventionRatio: 15_000_000,
      preventionFeeFen: 97_500,
      rounding: 'HALF_UP_FEN',
    } as unknown as DeclarationDetail['quote'],
    order: annualOrderRow(),
    events: [
      {
        at: '2026-02-21T02:00:00.000Z',
        actor: 'contractor',
        action: 'create',
        actionLabel: '创建申报',
        opinion: null,
        premiumFen: 650_000,
      },
      {
        at: '2026-02-21T03:00:00.000Z',
        actor: 'contractor',
        action: 'submit',
        actionLabel: '提交审核',
        opinion: null,
        premiumFen: 650_000,
      },
    ],
    base: null,
    endorsement: null,
    endorsements: [],
    openChangeId: null,
    ...overrides,
  };
}

/** The endorsement (批单) of change 43 of project 41: 10 → 50 million yuan, high-risk, + 33,150 yuan. */
export function endorsementRow(overrides: Partial<EndorsementRow> = {}): EndorsementRow {
  return {
    id: 7,
    number: 'EJZSG202600000007',
    policyId: 31,
    policyNumber: 'PJZSG202600000031',
    declarationId: 43,
    declarationNumber: 'EC2026000043',
    changes: [
      { field: 'projectCostFen', label: '工程造价', before: '¥10,000,000.00', after: '¥50,000,000.00' },
      { field: 'highRisk', label: '危大工程', before: '否', after: '是' },
    ],
    premiumBeforeFen: 650_000,
    premiumAfterFen: 3_965_000,
    premiumDiffFen: 3_315_000,
    effectiveDate: '2026-03-02',
    issuedAt: '2026-03-01T03:00:00.000Z',
    pdfSha256: 'cd34'.repeat(16),
    pdfSize: 40_000,
    ...overrides,
  };
}

/** An approved project (41) with its policy, open to a change. */
export function approvedProject(overrides: Partial<DeclarationDetail> = {}): DeclarationDetail {
  return declarationDetail({
    id: 41,
    number: 'EC2026000041',
    projectName: '滨江花园二期住宅工程',
    status: 'APPROVED',
    statusLabel: '审核通过',
    policyId: 31,
    policyNumber: 'PJZSG202600000031',
    openTaskId: null,
    actions: ['change'],
    ...overrides,
  });
}

/** Change 43 of project 41 (a draft): 10 → 12 million yuan, + 1,200 yuan. */
export function changeDetail(overrides: Partial<DeclarationDetail> = {}): DeclarationDetail {
  return declarationDetail({
    id: 43,
    number: 'EC2026000043',
    kind: 2,
    baseId: 41,
    baseNumber: 'EC2026000041',
    projectName: '滨江花园二期住宅工程',
    projectCostFen: yuan(12_000_000),
    premiumFen: 770_000,
    premiumDiffFen: 120_000,
    reservedFen: 0,
    status: 'DRAFT',
    statusLabel: '草稿',
    policyId: 31,
    policyNumber: 'PJZSG202600000031',
    openTaskId: null,
    actions: ['edit', 'submit', 'cancel'],
    base: {
      projectAddress: '江苏省镇江市京口区学府路 120 号',
      projectCostFen: yuan(10_000_000),
      startDate: '2026-03-01',
      endDate: '2027-02-28',
      highRisk: false,
      headcount: null,
      premiumFen: 650_000,
    },
    ...overrides,
  });
}

/** The seeded construction product as GET /api/products/available answers it: cost bands, ×1.3 high-risk. */
export const constructionProduct = {
  id: 2,
  code: 'JZSG_AZX_2025',
  name: '建筑施工安全生产责任保险',
  productClass: 'construction',
  allowsCoinsurance: true,
  preventionRatioMin: 15_000_000,
  preventionRatioMax: 21_000_000,
  coverages: [
    {
      id: 5,
      type: 'EMPLOYEE_DEATH_DISABILITY',
      name: '从业人员伤亡',
      perPersonLimitFen: yuan(500_000),
      perAccidentLimitFen: null,
      aggregateLimitFen: null,
      deductibleFen: 0,
      mandatory: true,
      sort: 1,
    },
  ],
  rating: {
    rateTableId: 4,
    versionNo: 1,
    effectiveDate: '2025-01-01',
    limitTiersFen: [],
    highRiskLoading: 13_000,
    factors: [],
    rows: [
      {
        coverageType: null,
        industry: null,
        limitTierFen: null,
        costBandUpToFen: yuan(10_000_000),
        rate: 6_500,
      },
      {
        coverageType: null,
        industry: null,
        limitTierFen: null,
        costBandUpToFen: yuan(50_000_000),
        rate: 6_000,
      },
      { coverageType: null, industry: null, limitTierFen: null, costBandUpToFen: null, rate: 5_500 },
    ],
  },
} as unknown as AvailableProduct;
