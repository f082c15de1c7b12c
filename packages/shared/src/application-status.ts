// Applications (投保单): states, the transitions of DOMAIN.md, the actions a list row offers and the period
// rules. Pure, no zod: import it as `@piibs/shared/application-status` (the schemas are in
// `@piibs/shared/application`).
//
//   — → DRAFT                                  policyholder or agent (each wizard step saves the draft)
//   DRAFT | RETURNED → PENDING_REVIEW          submit (the server re-rates on the active rate table)
//   PENDING_REVIEW → RETURNED | DECLINED | PENDING_PAYMENT   the underwriter's decision (approve makes the
//                                              payment order)
//   DRAFT | RETURNED | PENDING_PAYMENT → CANCELLED           the applicant
//   PENDING_PAYMENT → PAID | PAYMENT_EXPIRED; PAID → ISSUED → IN_FORCE → EXPIRED   (the payment/policy issues)
import { formatTime } from './constants.ts';
import type { FieldProblem } from './problem.ts';

export const APPLICATION_STATUSES = [
  'DRAFT',
  'PENDING_REVIEW',
  'RETURNED',
  'DECLINED',
  'PENDING_PAYMENT',
  'PAID',
  'PAYMENT_EXPIRED',
  'CANCELLED',
  'ISSUED',
  'IN_FORCE',
  'EXPIRED',
] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
/** The `application_status` dictionary's labels. */
export const APPLICATION_STATUS_LABELS: Readonly<Record<ApplicationStatus, string>> = Object.freeze({
  DRAFT: '草稿',
  PENDING_REVIEW: '待审核',
  RETURNED: '已退回',
  DECLINED: '已拒保',
  PENDING_PAYMENT: '待支付',
  PAID: '已支付',
  PAYMENT_EXPIRED: '支付已过期',
  CANCELLED: '已撤销',
  ISSUED: '已出单',
  IN_FORCE: '保障中',
  EXPIRED: '已到期',
});

export const CHANNELS = ['enterprise', 'agent', 'project', 'zhenjiang'] as const;
export type Channel = (typeof CHANNELS)[number];
export const CHANNEL_LABELS: Readonly<Record<Channel, string>> = Object.freeze({
  enterprise: '企业自助投保',
  agent: '代理人出单',
  project: '工程险投保',
  zhenjiang: '镇江渠道',
});

/** Route parameter :policyholderType — 1 enterprise, 2 individual. */
export const POLICYHOLDER_TYPES = [1, 2] as const;
export type PolicyholderType = (typeof POLICYHOLDER_TYPES)[number];
export const POLICYHOLDER_TYPE_LABELS: Readonly<Record<PolicyholderType, string>> = Object.freeze({
  1: '企业',
  2: '个人',
});

/** The states the applicant may still edit (save drafts, change the co-insurers, submit). */
export const EDITABLE_STATUSES: readonly ApplicationStatus[] = Object.freeze(['DRAFT', 'RETURNED']);
/** The states the applicant may cancel. */
export const CANCELLABLE_STATUSES: readonly ApplicationStatus[] = Object.freeze([
  'DRAFT',
  'RETURNED',
  'PENDING_PAYMENT',
]);
/** Final states: nothing moves them any more. */
export const FINAL_STATUSES: readonly ApplicationStatus[] = Object.freeze([
  'DECLINED',
  'CANCELLED',
  'EXPIRED',
]);

export type ApplicationEventAction =
  | 'create'
  | 'submit'
  | 'approve'
  | 'return'
  /** The underwriter asked for documents while keeping it under review. */
  | 'request_materials'
  | 'decline'
  | 'cancel'
  | 'pay'
  | 'expire'
  | 'issue';

/** The applicant's and the system's transitions; the underwriter's go through reviewNext. */
export function nextStatus(from: ApplicationStatus, action: 'submit' | 'cancel'): ApplicationStatus | null {
  if (action === 'submit') return EDITABLE_STATUSES.includes(from) ? 'PENDING_REVIEW' : null;
  return CANCELLABLE_STATUSES.includes(from) ? 'CANCELLED' : null;
}

/** The state after an underwriter's decision; null unless the application waits for review. */
export function reviewNext(
  from: ApplicationStatus,
  decision: 'approve' | 'return' | 'reject',
): ApplicationStatus | null {
  if (from !== 'PENDING_REVIEW') return null;
  return decision === 'approve' ? 'PENDING_PAYMENT' : decision === 'return' ? 'RETURNED' : 'DECLINED';
}

export const APPLICATION_ACTIONS = ['continue', 'view', 'cancel', 'pay'] as const;
export type ApplicationAction = (typeof APPLICATION_ACTIONS)[number];

/** What an insureList row offers its owner: continue (edit), view, cancel, pay. Others only view. */
export function actionsFor(status: ApplicationStatus, isOwner: boolean): ApplicationAction[] {
  const out: ApplicationAction[] = [];
  if (isOwner && EDITABLE_STATUSES.includes(status)) out.push('continue');
  out.push('view');
  if (isOwner && CANCELLABLE_STATUSES.includes(status)) out.push('cancel');
  if (isOwner && status === 'PENDING_PAYMENT') out.push('pay');
  return out;
}

// ---- periods: Asia/Shanghai, 00:00 of the start day to 24:00 of the end day; no back-dating ----

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date 'yyyy-mm-dd'. */
export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/** `days` after a date (negative: before). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Today in Asia/Shanghai. */
export const shanghaiToday = (now: number = Date.now()): string => formatTime(now, '{y}-{m}-{d}');

/** The earliest start: tomorrow 00:00 Asia/Shanghai (cover never starts in the past or today). */
export const earliestStart = (now: number = Date.now()): string => addDays(shanghaiToday(now), 1);

/** The default end of a period: start + 1 year − 1 day (2026-03-01 → 2027-02-28; 2028-02-29 → 2029-02-28). */
export function defaultEnd(start: string): string {
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y + 1, m - 1, d - 1)).toISOString().slice(0, 10);
}

/** The first problem of a period (Chinese, at the start or end date), or null. */
export function periodProblem(start: string, end: string, now: number = Date.now()): FieldProblem | null {
  const atStart = (message: string): FieldProblem => ({ field: 'startDate', label: '保险起期', message });
  const atEnd = (message: string): FieldProblem => ({ field: 'endDate', label: '保险止期', message });
  if (!isDate(start)) return atStart('请输入正确的日期');
  if (!isDate(end)) return atEnd('请输入正确的日期');
  const earliest = earliestStart(now);
  if (start < earliest) return atStart(`不能早于 ${earliest}（不得倒签）`);
  if (end <= start) return atEnd('须晚于保险起期');
  if (end > defaultEnd(start)) return atEnd('保险期间不能超过一年');
  return null;
}
