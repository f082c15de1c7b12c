// Test fixtures of the risk-control pages: rows and details as the API answers them, and mock answers.
import type {
  FundSummary,
  PlanDetail,
  PlanItemRow,
  ServiceOrderDetail,
  ServiceOrderRow,
  ServiceOrgRow,
  ServicePersonRow,
} from '@piibs/shared/risk-control';
import { dictAnswers, pageAnswer } from '@/test/mock-api.ts';

export const SEQ = 'YFPAZX202600000001';

export const page = pageAnswer;

const DICTS: Record<string, [string, string][]> = {
  document_type: [
    ['BUSINESS_LICENSE', '营业执照'],
    ['SERVICE_RECORD', '事故预防服务记录'],
  ],
};

/** GET api/dictDetail from the dictionaries above. */
export const dictAnswer = dictAnswers(DICTS);

export const fund = (over: Partial<FundSummary> = {}): FundSummary => {
  const f = { totalFen: 1_000_000, plannedFen: 250_000, spentFen: 125_000, ...over };
  return { ...f, leftFen: over.leftFen ?? f.totalFen - f.plannedFen - f.spentFen };
};

export function orderRow(over: Partial<ServiceOrderRow> = {}): ServiceOrderRow {
  return {
    id: 31,
    number: `${SEQ}-001`,
    seqNo: SEQ,
    policyId: 1,
    policyNumber: 'PAZX202600000001',
    // The period the fixtures' dates (May 2026) lie in.
    policyStartDate: '2026-01-01',
    policyEndDate: '2026-12-31',
    holderName: '镇江示范机械有限公司',
    holderUscc: '91321100MA1AQFW3KP',
    planItemId: 5,
    itemType: 'HAZARD_INSPECTION',
    itemLabel: '隐患排查',
    orgId: 3,
    orgName: '镇江安泰安全技术服务有限公司',
    persons: [{ id: 8, name: '王振国' }],
    scheduledDate: '2026-05-12',
    serviceDate: null,
    costFen: 80_000,
    status: 'DISPATCHED',
    statusLabel: '已派单',
    hazardCount: 0,
    openHazardCount: 0,
    satisfaction: null,
    openComplaint: false,
    actions: [],
    version: 2,
    createdAt: '2026-05-01T02:00:00.000Z',
    updatedAt: '2026-05-01T02:00:00.000Z',
    ...over,
  };
}

export function orderDetail(over: Partial<ServiceOrderDetail> = {}): ServiceOrderDetail {
  return {
    ...orderRow(),
    note: null,
    address: null,
    findings: null,
    participants: [],
    hazards: [],
    rejectReason: null,
    cancelReason: null,
    returnOpinion: null,
    satisfactionComment: null,
    ratedAt: null,
    acceptedAt: null,
    startedAt: null,
    submittedAt: null,
    confirmedAt: null,
    closedAt: null,
    party: 'org',
    canRecord: false,
    canRectify: false,
    canRate: false,
    canComplain: false,
    complaints: [],
    events: [
      {
        id: 1,
        action: 'dispatch',
        fromStatus: null,
        toStatus: 'DISPATCHED',
        actor: '核保员',
        opinion: null,
        at: '2026-05-01T02:00:00.000Z',
      },
    ],
    fund: fund(),
    ...over,
  };
}

export function planItem(over: Partial<PlanItemRow> = {}): PlanItemRow {
  return {
    id: 5,
    itemType: 'HAZARD_INSPECTION',
    itemLabel: '隐患排查',
    content: '生产车间隐患排查',
    frequency: 'QUARTERLY',
    frequencyLabel: '每季度一次',
    times: 4,
    unitCostFen: 50_000,
    reservedFen: 200_000,
    spentFen: 0,
    liveOrders: 1,
    confirmedOrders: 0,
    orgId: 3,
    orgName: '镇江安泰安全技术服务有限公司',
    persons: [{ id: 8, name: '王振国' }],
    scheduledDates: [],
    version: 1,
    createdAt: '2026-05-01T02:00:00.000Z',
    ...over,
  };
}

export function planDetail(over: Partial<PlanDetail> = {}): PlanDetail {
  return {
    seqNo: SEQ,
    policyId: 1,
    policyNumber: 'PAZX202600000001',
    productName: '安全生产责任保险（工贸行业）',
    holderName: '镇江示范机械有限公司',
    holderUscc: '91321100MA1AQFW3KP',
    startDate: '2026-05-01',
    endDate: '2027-04-30',
    preventionRatio: 15_000_000,
    fund: fund(),
    itemCount: 1,
    orderCount: 1,
    fundVersion: 3,
    items: [planItem()],
    party: 'insurer',
    canPlan: true,
    ...over,
  };
}

export function personRow(over: Partial<ServicePersonRow> = {}): ServicePersonRow {
  return {
    id: 8,
    orgId: 3,
    orgName: '镇江安泰安全技术服务有限公司',
    name: '王振国',
    specialty: '机械安全与隐患排查',
    title: '高级工程师',
    expert: true,
    certificateName: '注册安全工程师',
    certificateNo: 'ZA2024320018',
    certificateValidFrom: '2024-01-01',
    certificateValidTo: '2029-12-31',
    certificateValid: true,
    phone: '139****0011',
    enabled: true,
    note: null,
    version: 1,
    createdAt: '2026-05-01T02:00:00.000Z',
    updatedAt: '2026-05-01T02:00:00.000Z',
    ...over,
  };
}

export function orgRow(over: Partial<ServiceOrgRow> = {}): ServiceOrgRow {
  return {
    id: 3,
    code: '91321100MA1AQFW3KP',
    name: '镇江安泰安全技术服务有限公司',
    address: '江苏省镇江市京口区解放路 168 号',
    qualifications: [
      {
        name: '安全评价机构资质',
        certNo: 'APJ-（苏）-2024-018',
        level: '乙级',
        validFrom: '2024-03-01',
        validTo: '2029-02-28',
        valid: true,
      },
    ],
    qualified: true,
    regions: ['321100'],
    regionNames: ['镇江市'],
    industries: ['C'],
    industryNames: ['制造业'],
    contacts: [{ name: '周建华', phone: '139****0001', position: '技术负责人' }],
    enabled: true,
    note: null,
    personCount: 2,
    memberCount: 1,
    version: 1,
    createdAt: '2026-05-01T02:00:00.000Z',
    updatedAt: '2026-05-01T02:00:00.000Z',
    ...over,
  };
}
