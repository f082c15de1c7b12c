// Factories for the customer, task and product pages' tests: rows as the API answers them.
import type { CustomerRow } from '@piibs/shared/customer';
import { dictAnswers, pageAnswer } from '@/test/mock-api.ts';

const DICTS: Record<string, [string, string][]> = {
  industry_section: [
    ['C', '制造业'],
    ['F', '批发和零售业'],
  ],
  industry_division: [
    ['13', '农副食品加工业'],
    ['34', '通用设备制造业'],
    ['51', '批发业'],
  ],
  region_zhenjiang: [
    ['321102', '京口区'],
    ['321111', '润州区'],
  ],
  region_jiangsu: [['321100', '镇江市']],
};

/** GET api/dictDetail from the dictionaries above. */
export const dictAnswer = dictAnswers(DICTS);

export const page = pageAnswer;

export function customerRow(overrides: Partial<CustomerRow> = {}): CustomerRow {
  return {
    id: 7,
    uscc: '91440300708461136T',
    name: '镇江示范机械有限公司',
    industrySection: 'C',
    industrySectionName: '制造业',
    industryDivision: '34',
    industryDivisionName: '通用设备制造业',
    region: '321102',
    regionName: '京口区',
    address: '镇江市京口区学府路 1 号',
    legalRepresentative: '王五',
    contactName: '赵六',
    phone: '138****5678',
    headcount: 120,
    licenceNo: null,
    caFingerprint: null,
    ownerId: 5,
    ownerName: '代理人甲',
    reviewStatus: 'pending',
    reviewOpinion: null,
    reviewedAt: null,
    openTaskId: 11,
    version: 3,
    createdAt: '2026-11-20T02:00:00.000Z',
    updatedAt: '2026-11-21T02:00:00.000Z',
    ...overrides,
  };
}
