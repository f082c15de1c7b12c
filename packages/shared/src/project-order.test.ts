import { describe, expect, it } from 'vitest';
import {
  annualOrderCreateForm,
  annualOrderState,
  applyPath,
  DECLARATION_STATUSES,
  declarationNext,
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
      '年度订单剩余额度不足：剩余 6,500.00 元，本次申报需占用 6,500.01 元',
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
  });

  it('an annual order runs up to a year', () => {
    const form = { customerId: 1, productId: 1, startDate: '2026-01-01', quotaFen: 100 };
    expect(annualOrderCreateForm.safeParse({ ...form, endDate: '2026-12-31' }).success).toBe(true);
    const long = annualOrderCreateForm.safeParse({ ...form, endDate: '2027-01-03' });
    expect(long.error?.issues[0]?.message).toBe('年度订单期间不能超过一年');
  });
});

it('builds the apply route with its parameters', () => {
  expect(applyPath(0, { orderId: 5 })).toBe('/piibs/projectManage/apply/0/false/1/0?orderId=5');
  expect(applyPath(42, { detail: true, view: '2' })).toBe('/piibs/projectManage/apply/42/true/1/2');
});
