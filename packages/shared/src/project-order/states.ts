// The states of secondary orders and what each holds of the annual order's quota; the states and periods of
// annual orders and projects (Asia/Shanghai dates). See ../project-order.ts.

import { addDays, isDate } from '../application-status.ts';
import { formatFen } from '../money.ts';

export const DECLARATION_STATUSES = [
  'DRAFT',
  'PENDING_REVIEW',
  'RETURNED',
  'APPROVED',
  'REJECTED',
  'CANCELLED',
] as const;
export type DeclarationStatus = (typeof DECLARATION_STATUSES)[number];
export const DECLARATION_STATUS_LABELS: Readonly<Record<DeclarationStatus, string>> = Object.freeze({
  DRAFT: '草稿',
  PENDING_REVIEW: '待审核',
  RETURNED: '已退回',
  APPROVED: '审核通过',
  REJECTED: '已拒绝',
  CANCELLED: '已撤销',
});

export type DeclarationAction = 'submit' | 'cancel' | 'approve' | 'return' | 'reject';

/** The states in which a declaration is still open (an annual order with any cannot be closed). */
export const DECLARATION_OPEN: readonly DeclarationStatus[] = Object.freeze([
  'DRAFT',
  'PENDING_REVIEW',
  'RETURNED',
]);

/** The states the declaring side may edit, submit and cancel. */
export const DECLARATION_EDITABLE: readonly DeclarationStatus[] = Object.freeze(['DRAFT', 'RETURNED']);

/** The state after an action; null when the action is not allowed in `from`. */
export function declarationNext(
  from: DeclarationStatus,
  action: DeclarationAction,
): DeclarationStatus | null {
  switch (action) {
    case 'submit':
      return DECLARATION_EDITABLE.includes(from) ? 'PENDING_REVIEW' : null;
    case 'cancel':
      return DECLARATION_EDITABLE.includes(from) ? 'CANCELLED' : null;
    case 'approve':
      return from === 'PENDING_REVIEW' ? 'APPROVED' : null;
    case 'return':
      return from === 'PENDING_REVIEW' ? 'RETURNED' : null;
    case 'reject':
      return from === 'PENDING_REVIEW' ? 'REJECTED' : null;
  }
}

/**
 * The quota movement of a transition (fen; positive reserves, negative releases): submitting reserves the new
 * premium less what the declaration holds already (a resubmission after a return may cost more or less);
 * rejecting or cancelling releases what it holds.
 */
export function quotaDelta(to: DeclarationStatus, heldFen: number, premiumFen: number): number {
  if (to === 'PENDING_REVIEW') return premiumFen - heldFen;
  if (to === 'REJECTED' || to === 'CANCELLED') return 0 - heldFen;
  return 0;
}

/**
 * What a submitted declaration holds of the quota: a new project its premium; a change the positive part of its
 * difference against the project's current premium (a refund is released only on approval).
 */
export function holdOf(premiumFen: number, diffFen: number | null): number {
  return diffFen == null ? premiumFen : Math.max(0, diffFen);
}

/** 「年度订单剩余额度不足…」 when `deltaFen` more does not fit the quota, else null. */
export function quotaProblem(
  order: { quotaFen: number; consumedFen: number },
  deltaFen: number,
): string | null {
  const remaining = order.quotaFen - order.consumedFen;
  if (deltaFen <= remaining) return null;
  return `年度订单剩余额度不足：剩余 ${formatFen(Math.max(0, remaining))}，本次申报需占用 ${formatFen(deltaFen)}`;
}

// ---- annual order periods and project periods (Asia/Shanghai dates) ----

/** The state of an annual order on a day: before, within or after its period; or closed by staff. */
export const ANNUAL_ORDER_STATES = ['PENDING', 'ACTIVE', 'EXPIRED', 'CLOSED'] as const;
export type AnnualOrderState = (typeof ANNUAL_ORDER_STATES)[number];
export const ANNUAL_ORDER_STATE_LABELS: Readonly<Record<AnnualOrderState, string>> = Object.freeze({
  PENDING: '未生效',
  ACTIVE: '生效中',
  EXPIRED: '已到期',
  CLOSED: '已关闭',
});
export function annualOrderState(
  order: { startDate: string; endDate: string; closedAt?: unknown },
  today: string,
): AnnualOrderState {
  if (order.closedAt) return 'CLOSED';
  if (today < order.startDate) return 'PENDING';
  return today > order.endDate ? 'EXPIRED' : 'ACTIVE';
}

/** A project's cover may run up to five years (construction periods exceed a year). */
export const MAX_PROJECT_YEARS = 5;

const pad = (n: number) => String(n).padStart(2, '0');

/** The last day a project starting on `start` may be covered to. */
function latestEnd(start: string): string {
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  return addDays(`${String(y + MAX_PROJECT_YEARS).padStart(4, '0')}-${pad(m)}-${pad(d)}`, -1);
}

/**
 * The first problem of a project period against its annual order (Chinese, naming the field), or null: no
 * back-dating (the earliest start is tomorrow), the start within the annual order's period, the end after the
 * start and at most five years later.
 */
export function projectPeriodProblem(
  start: string,
  end: string,
  order: { startDate: string; endDate: string },
  earliest: string,
): string | null {
  if (!isDate(start)) return '开工日期：请输入正确的日期';
  if (!isDate(end)) return '竣工日期：请输入正确的日期';
  if (start < earliest) return `开工日期：保险起期不能早于 ${earliest}（不得倒签）`;
  if (start < order.startDate || start > order.endDate)
    return `开工日期：须在年度订单期间内（${order.startDate} 至 ${order.endDate}）`;
  if (end <= start) return '竣工日期：须晚于开工日期';
  if (end > latestEnd(start)) return `竣工日期：保险期间不能超过 ${MAX_PROJECT_YEARS} 年`;
  return null;
}
/**
 * The first problem of a change's end date (the start stays), or null: after the start, at most five years
 * from it, and, when it moves, not before `earliest` (tomorrow): a change never ends the cover in the past.
 */
export function changePeriodProblem(
  start: string,
  end: string,
  earliest: string,
  currentEnd: string,
): string | null {
  if (!isDate(end)) return '竣工日期：请输入正确的日期';
  if (end <= start) return '竣工日期：须晚于开工日期';
  if (end !== currentEnd && end < earliest)
    return `竣工日期：批改后的竣工日期不能早于 ${earliest}（不得倒签）`;
  if (end > latestEnd(start)) return `竣工日期：保险期间不能超过 ${MAX_PROJECT_YEARS} 年`;
  return null;
}
