import { describe, expect, it } from 'vitest';
import {
  APPLICATION_STATUSES,
  actionsFor,
  defaultEnd,
  earliestStart,
  nextStatus,
  periodProblem,
  reviewNext,
} from './application-status.ts';

describe('application states', () => {
  it('submit only from DRAFT or RETURNED; cancel from DRAFT, RETURNED, PENDING_PAYMENT', () => {
    for (const s of APPLICATION_STATUSES) {
      expect(nextStatus(s, 'submit')).toBe(s === 'DRAFT' || s === 'RETURNED' ? 'PENDING_REVIEW' : null);
      expect(nextStatus(s, 'cancel')).toBe(
        ['DRAFT', 'RETURNED', 'PENDING_PAYMENT'].includes(s) ? 'CANCELLED' : null,
      );
    }
  });
  it('the underwriter decides only PENDING_REVIEW', () => {
    expect(reviewNext('PENDING_REVIEW', 'approve')).toBe('PENDING_PAYMENT');
    expect(reviewNext('PENDING_REVIEW', 'return')).toBe('RETURNED');
    expect(reviewNext('PENDING_REVIEW', 'reject')).toBe('DECLINED');
    for (const s of APPLICATION_STATUSES.filter((x) => x !== 'PENDING_REVIEW'))
      expect(reviewNext(s, 'approve')).toBeNull();
  });
  it('list actions by state', () => {
    expect(actionsFor('DRAFT', true)).toEqual(['continue', 'view', 'cancel']);
    expect(actionsFor('PENDING_PAYMENT', true)).toEqual(['view', 'cancel', 'pay']);
    expect(actionsFor('PENDING_REVIEW', true)).toEqual(['view']);
    expect(actionsFor('DRAFT', false)).toEqual(['view']);
  });
});

describe('periods (Asia/Shanghai, no back-dating)', () => {
  // 2026-03-10 23:30 in Shanghai is 15:30 UTC.
  const now = Date.UTC(2026, 2, 10, 15, 30);
  it('starts tomorrow at the earliest, by the Shanghai calendar', () => {
    expect(earliestStart(now)).toBe('2026-03-11');
    expect(earliestStart(Date.UTC(2026, 2, 10, 16, 30))).toBe('2026-03-12');
  });
  it('ends a year less a day after the start', () => {
    expect(defaultEnd('2026-03-11')).toBe('2027-03-10');
    expect(defaultEnd('2026-03-01')).toBe('2027-02-28');
    expect(defaultEnd('2028-02-29')).toBe('2029-02-28');
    expect(defaultEnd('2026-01-01')).toBe('2026-12-31');
  });
  it('refuses back-dated, inverted, over-long and malformed periods', () => {
    expect(periodProblem('2026-03-11', '2027-03-10', now)).toBeNull();
    expect(periodProblem('2026-03-10', '2027-03-09', now)).toBe('保险起期：不能早于 2026-03-11（不得倒签）');
    expect(periodProblem('2026-03-12', '2026-03-12', now)).toBe('保险止期：须晚于保险起期');
    expect(periodProblem('2026-03-12', '2027-03-12', now)).toBe('保险止期：保险期间不能超过一年');
    expect(periodProblem('2026-02-30', '2027-03-12', now)).toBe('保险起期：请输入正确的日期');
  });
});
