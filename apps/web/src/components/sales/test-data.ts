// Answers of the sales API for the supplement page and list tests (not a test file).
import type { PolicySales, SalesRow, SupplementDetail } from '@piibs/shared/sales';
import type { InternalAxiosRequestConfig } from 'axios';
import type { MockAnswer } from '@/test/mock-api.ts';

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
    policyStatusLabel: '已出单',
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
      statusLabel: '已出单',
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
export function salesDictAnswer(config: InternalAxiosRequestConfig): MockAnswer {
  const name = (config.params as { dictName?: string }).dictName ?? '';
  const content = (name === 'business_source' ? SOURCES : []).map(([value, label], i) => ({
    id: i + 1,
    dictId: 1,
    dictName: name,
    value,
    label,
    sort: i,
  }));
  return { data: { content, totalElements: content.length } };
}

export const pageOf = <T>(rows: T[]): MockAnswer => ({ data: { content: rows, totalElements: rows.length } });
