// Task rows (and a customer's history) as the API answers them, for the task pages' tests.
import type { CustomerHistory } from '@piibs/shared/customer-history';
import type { PolicyChangeView } from '@piibs/shared/policy-change';
import type { TaskDetail, TaskRow } from '@piibs/shared/task';
import { customerRow } from '@/features/customer/test-data.ts';

export function taskRow(overrides: Partial<TaskRow> = {}): TaskRow {
  return {
    id: 11,
    kind: 'customer',
    subjectId: 7,
    title: '镇江示范机械有限公司（91440300708461136T）',
    status: 'open',
    submittedBy: { id: 5, name: '代理人甲' },
    assignee: null,
    decision: null,
    opinion: null,
    decidedBy: null,
    decidedAt: null,
    version: 2,
    createdAt: '2026-11-20T02:00:00.000Z',
    ageSeconds: 2 * 86_400 + 3 * 3_600 + 120,
    ...overrides,
  };
}

export function taskDetail(overrides: Partial<TaskDetail> = {}): TaskDetail {
  return {
    ...taskRow(),
    customer: customerRow(),
    history: [
      taskRow({
        id: 9,
        status: 'done',
        decision: 'return',
        opinion: '营业执照照片不清晰',
        decidedBy: { id: 3, name: '核保员乙' },
        decidedAt: '2026-11-19T02:00:00.000Z',
      }),
    ],
    changes: [
      {
        at: '2026-11-20T02:00:00.000Z',
        actor: '代理人甲',
        action: '修改投保人',
        detail: { region: '321102' },
        lines: ['地区：京口区'],
      },
    ],
    ...overrides,
  };
}

/** GET api/customers/7/history: one policy in force, two earlier applications of 25. */
export function customerHistory(): CustomerHistory {
  return {
    policies: {
      content: [
        {
          id: 31,
          number: 'PAZX202600000031',
          productName: '安全生产责任保险（工贸行业）',
          startDate: '2026-03-10',
          endDate: '2027-03-09',
          premiumFen: 2_676_000,
          status: 'IN_FORCE',
          statusLabel: '保障中',
        },
      ],
      totalElements: 1,
    },
    applications: {
      content: [
        {
          id: 10,
          number: 'AZX2026000010',
          productName: '安全生产责任保险（工贸行业）',
          policyholderType: 1,
          submittedAt: '2026-05-02T02:00:00.000Z',
          status: 'DECLINED',
          statusLabel: '已拒保',
        },
        {
          id: 8,
          number: 'AZX2026000008',
          productName: '安全生产责任保险（工贸行业）',
          policyholderType: 1,
          submittedAt: '2026-03-01T02:00:00.000Z',
          status: 'ISSUED',
          statusLabel: '已出单',
        },
      ],
      totalElements: 25,
    },
  };
}

/** An endorsement (批改) of five more employees waiting for review, as GET /api/policy-changes/:id answers it. */
export const policyChangeView = (over: Partial<PolicyChangeView> = {}): PolicyChangeView => ({
  id: 31,
  number: 'G202600000031',
  policyId: 9,
  policyNumber: 'PAZX202600000009',
  holderName: '镇江示范机械有限公司',
  productName: '安全生产责任保险（2025版）',
  kind: 'ENDORSEMENT',
  kindLabel: '批改',
  status: 'PENDING_REVIEW',
  statusLabel: '待核保',
  effectiveDate: '2026-12-20',
  changes: [{ field: 'headcount', label: '参保人数', before: '50 人', after: '55 人' }],
  premiumBeforeFen: 2_400_000,
  premiumDeltaFen: 205_479,
  premiumDeltaText: '补缴 ¥2,054.79',
  reasonLabel: null,
  persons: null,
  earnedFen: null,
  basis: null,
  reviewOpinion: null,
  endorsementNumber: null,
  endorsementId: null,
  refundedFen: 0,
  paid: false,
  payExpiresAt: null,
  version: 1,
  createdAt: '2026-12-19T02:00:00.000Z',
  ...over,
});
