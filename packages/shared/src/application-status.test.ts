import { describe, expect, it } from 'vitest';
import {
  APPLICATION_STATUSES,
  type ApplicationStatus,
  actionsFor,
  CANCELLABLE_STATUSES,
  defaultEnd,
  EDITABLE_STATUSES,
  earliestStart,
  FINAL_STATUSES,
  nextStatus,
  periodProblem,
  reviewNext,
} from './application-status.ts';

/**
 * Every state × every action, written out by hand (DOMAIN.md's state machine): the applicant's submit and
 * cancel, the underwriter's approve / return / reject. null: forbidden (the server answers 409).
 */
type Action = 'submit' | 'cancel' | 'approve' | 'return' | 'reject';
const MATRIX: Record<ApplicationStatus, Record<Action, ApplicationStatus | null>> = {
  DRAFT: { submit: 'PENDING_REVIEW', cancel: 'CANCELLED', approve: null, return: null, reject: null },
  PENDING_REVIEW: {
    submit: null,
    cancel: null,
    approve: 'PENDING_PAYMENT',
    return: 'RETURNED',
    reject: 'DECLINED',
  },
  RETURNED: { submit: 'PENDING_REVIEW', cancel: 'CANCELLED', approve: null, return: null, reject: null },
  DECLINED: { submit: null, cancel: null, approve: null, return: null, reject: null },
  PENDING_PAYMENT: { submit: null, cancel: 'CANCELLED', approve: null, return: null, reject: null },
  PAID: { submit: null, cancel: null, approve: null, return: null, reject: null },
  PAYMENT_EXPIRED: { submit: null, cancel: null, approve: null, return: null, reject: null },
  CANCELLED: { submit: null, cancel: null, approve: null, return: null, reject: null },
  ISSUED: { submit: null, cancel: null, approve: null, return: null, reject: null },
  IN_FORCE: { submit: null, cancel: null, approve: null, return: null, reject: null },
  EXPIRED: { submit: null, cancel: null, approve: null, return: null, reject: null },
};
const ACTIONS: readonly Action[] = ['submit', 'cancel', 'approve', 'return', 'reject'];
const apply = (from: ApplicationStatus, action: Action) =>
  action === 'submit' || action === 'cancel' ? nextStatus(from, action) : reviewNext(from, action);

describe('application states', () => {
  it('the matrix names every state', () => {
    expect(Object.keys(MATRIX).sort()).toEqual([...APPLICATION_STATUSES].sort());
  });
  for (const from of APPLICATION_STATUSES)
    for (const action of ACTIONS)
      it(`${from} × ${action} → ${MATRIX[from][action] ?? 'forbidden'}`, () => {
        expect(apply(from, action)).toBe(MATRIX[from][action]);
      });
  it('final states allow nothing; editable states are exactly those the applicant may submit', () => {
    for (const s of FINAL_STATUSES) for (const a of ACTIONS) expect(apply(s, a)).toBeNull();
    expect(APPLICATION_STATUSES.filter((s) => nextStatus(s, 'submit'))).toEqual([...EDITABLE_STATUSES]);
    expect(APPLICATION_STATUSES.filter((s) => nextStatus(s, 'cancel'))).toEqual([...CANCELLABLE_STATUSES]);
  });
  it('list actions by state: the owner continues, cancels and pays as the matrix allows; others only view', () => {
    const expected: Record<ApplicationStatus, string[]> = {
      DRAFT: ['continue', 'view', 'cancel'],
      PENDING_REVIEW: ['view'],
      RETURNED: ['continue', 'view', 'cancel'],
      DECLINED: ['view'],
      PENDING_PAYMENT: ['view', 'cancel', 'pay'],
      PAID: ['view'],
      PAYMENT_EXPIRED: ['view'],
      CANCELLED: ['view'],
      ISSUED: ['view'],
      IN_FORCE: ['view'],
      EXPIRED: ['view'],
    };
    for (const s of APPLICATION_STATUSES) {
      expect(actionsFor(s, true), s).toEqual(expected[s]);
      expect(actionsFor(s, false), s).toEqual(['view']);
    }
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
    expect(periodProblem('2026-03-10', '2027-03-09', now)).toEqual({
      field: 'startDate',
      label: '保险起期',
      message: '不能早于 2026-03-11（不得倒签）',
    });
    expect(periodProblem('2026-03-12', '2026-03-12', now)).toEqual({
      field: 'endDate',
      label: '保险止期',
      message: '须晚于保险起期',
    });
    expect(periodProblem('2026-03-12', '2027-03-12', now)?.message).toBe('保险期间不能超过一年');
    expect(periodProblem('2026-02-30', '2027-03-12', now)?.field).toBe('startDate');
  });
});
