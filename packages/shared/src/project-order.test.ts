import { describe, expect, it } from 'vitest';
import {
  annualOrderCreateForm,
  annualOrderState,
  annualOrderUpdateForm,
  applyPath,
  changePeriodProblem,
  changesBetween,
  DECLARATION_STATUSES,
  declarationNext,
  holdOf,
  premiumDiffText,
  projectPeriodProblem,
  quotaDelta,
  quotaProblem,
} from './project-order.ts';

describe('secondary-order state machine', () => {
  it('allows exactly the documented transitions', () => {
    const table = Object.fromEntries(
      DECLARATION_STATUSES.map((s) => [
        s,
        (['submit', 'cancel', 'approve', 'return', 'reject'] as const).map((a) => declarationNext(s, a)),
      ]),
    );
    expect(table).toEqual({
      DRAFT: ['PENDING_REVIEW', 'CANCELLED', null, null, null],
      PENDING_REVIEW: [null, null, 'APPROVED', 'RETURNED', 'REJECTED'],
      RETURNED: ['PENDING_REVIEW', 'CANCELLED', null, null, null],
      APPROVED: [null, null, null, null, null],
      REJECTED: [null, null, null, null, null],
      CANCELLED: [null, null, null, null, null],
    });
  });

  it('moves the quota: submit reserves the difference, reject and cancel release what is held', () => {
    expect(quotaDelta('PENDING_REVIEW', 0, 650_000)).toBe(650_000);
    // A resubmission after a return, re-priced lower.
    expect(quotaDelta('PENDING_REVIEW', 3_965_000, 3_050_000)).toBe(-915_000);
    expect(quotaDelta('REJECTED', 650_000, 650_000)).toBe(-650_000);
    expect(quotaDelta('CANCELLED', 0, 650_000)).toBe(0);
    expect(quotaDelta('RETURNED', 650_000, 650_000)).toBe(0);
    expect(quotaDelta('APPROVED', 650_000, 650_000)).toBe(0);
  });

  it('refuses what does not fit, to the fen', () => {
    const order = { quotaFen: 1_000_000, consumedFen: 350_000 };
    expect(quotaProblem(order, 650_000)).toBeNull();
    expect(quotaProblem(order, 650_001)).toBe(
      '年度订单剩余额度不足：剩余 ¥6,500.00，本次申报需占用 ¥6,500.01',
    );
    expect(quotaProblem(order, -100)).toBeNull();
  });
});

describe('periods', () => {
  const order = { startDate: '2026-01-01', endDate: '2026-12-31' };
  it('a project starts within its annual order, never back-dated, and runs at most five years', () => {
    expect(projectPeriodProblem('2026-03-01', '2027-02-28', order, '2026-02-01')).toBeNull();
    expect(projectPeriodProblem('2026-01-15', '2026-06-30', order, '2026-02-01')).toMatch(
      /^开工日期：保险起期不能早于 2026-02-01/,
    );
    expect(projectPeriodProblem('2027-01-01', '2027-06-30', order, '2026-02-01')).toMatch(
      /^开工日期：须在年度订单期间内/,
    );
    expect(projectPeriodProblem('2026-03-01', '2026-03-01', order, '2026-02-01')).toBe(
      '竣工日期：须晚于开工日期',
    );
    expect(projectPeriodProblem('2026-03-01', '2031-02-28', order, '2026-02-01')).toBeNull();
    expect(projectPeriodProblem('2026-03-01', '2031-03-01', order, '2026-02-01')).toBe(
      '竣工日期：保险期间不能超过 5 年',
    );
    expect(projectPeriodProblem('2026-02-30', '2026-06-30', order, '2026-02-01')).toBe(
      '开工日期：请输入正确的日期',
    );
  });

  it('an annual order is pending, active or expired by the day', () => {
    expect(annualOrderState(order, '2025-12-31')).toBe('PENDING');
    expect(annualOrderState(order, '2026-12-31')).toBe('ACTIVE');
    expect(annualOrderState(order, '2027-01-01')).toBe('EXPIRED');
    expect(annualOrderState({ ...order, closedAt: '2026-06-01T00:00:00Z' }, '2026-07-01')).toBe('CLOSED');
  });

  it('an annual order runs up to a year', () => {
    const form = { customerId: 1, productId: 1, startDate: '2026-01-01', quotaFen: 100 };
    expect(annualOrderCreateForm.safeParse({ ...form, endDate: '2026-12-31' }).success).toBe(true);
    const long = annualOrderCreateForm.safeParse({ ...form, endDate: '2027-01-03' });
    expect(long.error?.issues[0]?.message).toBe('年度订单期间不能超过一年');
  });
});

describe('changes (批改)', () => {
  const project = {
    projectAddress: '镇江市润州区滨江路 66 号',
    projectCostFen: 1_000_000_000,
    startDate: '2026-03-01',
    endDate: '2027-02-28',
    highRisk: false,
    headcount: null,
  };

  it('lists the fields that change, as printed before → after', () => {
    expect(changesBetween(project, project)).toEqual([]);
    expect(
      changesBetween(project, { ...project, projectCostFen: 1_200_000_000, highRisk: true, headcount: 80 }),
    ).toEqual([
      { field: 'projectCostFen', label: '工程造价', before: '¥10,000,000.00', after: '¥12,000,000.00' },
      { field: 'highRisk', label: '危大工程', before: '否', after: '是' },
      { field: 'headcount', label: '施工人数', before: '—', after: '80 人' },
    ]);
    // The start is not a field a change may change: it is never listed.
    expect(changesBetween(project, { ...project, startDate: '2026-04-01' })).toEqual([]);
  });

  it('holds the positive part of a difference; a new project its premium', () => {
    expect(holdOf(650_000, null)).toBe(650_000);
    expect(holdOf(770_000, 120_000)).toBe(120_000);
    expect(holdOf(520_000, -130_000)).toBe(0);
    expect(premiumDiffText(120_000)).toBe('加收 ¥1,200.00');
    expect(premiumDiffText(-130_000)).toBe('退还 ¥1,300.00');
    expect(premiumDiffText(0)).toBe('保费不变');
  });

  it('a changed end date is after the start, within five years, and not back-dated when it moves', () => {
    expect(changePeriodProblem('2026-03-01', '2027-06-30', '2026-05-01', '2027-02-28')).toBeNull();
    expect(changePeriodProblem('2026-03-01', '2026-04-30', '2026-05-01', '2027-02-28')).toBe(
      '竣工日期：批改后的竣工日期不能早于 2026-05-01（不得倒签）',
    );
    // Unchanged, it stands even if it is already near.
    expect(changePeriodProblem('2026-03-01', '2026-04-30', '2026-05-01', '2026-04-30')).toBeNull();
    expect(changePeriodProblem('2026-03-01', '2031-03-01', '2026-05-01', '2027-02-28')).toBe(
      '竣工日期：保险期间不能超过 5 年',
    );
  });
});

it('an annual order’s edit keeps a masked phone as shown and refuses other text', () => {
  const base = { quotaFen: 100, version: 1 };
  expect(annualOrderUpdateForm.safeParse({ ...base, contactPhone: '138****5678' }).success).toBe(true);
  expect(annualOrderUpdateForm.safeParse({ ...base, contactPhone: '0511-85551234' }).success).toBe(true);
  expect(annualOrderUpdateForm.safeParse({ ...base, contactPhone: 'abc' }).error?.issues[0]?.message).toBe(
    '请输入正确的电话号码或者固话号码',
  );
});

it('builds the apply route with its parameters', () => {
  expect(applyPath(0, { orderId: 5 })).toBe('/piibs/projectManage/apply/0/false/1/0?orderId=5');
  expect(applyPath(0, { type: 2, baseId: 41 })).toBe('/piibs/projectManage/apply/0/false/2/0?baseId=41');
  expect(applyPath(42, { detail: true, view: '2' })).toBe('/piibs/projectManage/apply/42/true/1/2');
});
