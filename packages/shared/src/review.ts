// The review state machine (customer records now; applications and secondary orders later) and the kinds of
// review task. Pure, no zod: import it as `@piibs/shared/review` (the task schemas are in `@piibs/shared/task`).
//
//   (create / edit by a non-reviewer) → pending
//   pending  → approved | returned | rejected     a reviewer's decision (return and reject need an opinion)
//   approved → pending                            edited by a non-reviewer (re-review; the change is audited)
//   returned → pending                            edited or resubmitted by the owner
//   rejected                                      final: nobody but a reviewer may change the record again
// A reviewer's own create is approved at once, and a reviewer's edit keeps the status.

export const REVIEW_STATUSES = ['pending', 'approved', 'returned', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const REVIEW_STATUS_LABELS: Readonly<Record<ReviewStatus, string>> = Object.freeze({
  pending: '待审核',
  approved: '审核通过',
  returned: '已退回',
  rejected: '已拒绝',
});

export const REVIEW_DECISIONS = ['approve', 'return', 'reject'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];
export const REVIEW_DECISION_LABELS: Readonly<Record<ReviewDecision, string>> = Object.freeze({
  approve: '通过',
  return: '退回',
  reject: '拒绝',
});

/** Decisions that must carry an opinion. */
export const OPINION_REQUIRED: readonly ReviewDecision[] = Object.freeze(['return', 'reject']);

export const TASK_KINDS = ['customer', 'application', 'tender'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
export const TASK_KIND_LABELS: Readonly<Record<TaskKind, string>> = Object.freeze({
  customer: '投保人信息审核',
  application: '投保单审核',
  tender: '二次下单审核',
});
/** The permission a reviewer of each kind needs. */
export const TASK_KIND_PERMISSIONS: Readonly<Record<TaskKind, string>> = Object.freeze({
  customer: 'customer:review',
  application: 'application:review',
  tender: 'tender:review',
});

/** Who may hand a task to a reviewer (指派) or take it from its holder: admin, or a role granted it (a lead). */
export const TASK_ASSIGN_PERMISSION = 'task:assign';

/** Whether `userId` may decide a task held by `assigneeId`: an unheld task is anyone's, a held one its holder's. */
export const mayDecideHeldTask = (assigneeId: number | null, userId: number): boolean =>
  assigneeId === null || assigneeId === userId;

/** The queue's assignee filter: `me` (held by the caller), `none` (unassigned) or a user's id. */
export const TASK_ASSIGNEE_FILTERS = ['me', 'none'] as const;
export type TaskAssigneeFilter = (typeof TASK_ASSIGNEE_FILTERS)[number] | number;
export const TASK_ASSIGNEE_FILTER_LABELS: Readonly<Record<(typeof TASK_ASSIGNEE_FILTERS)[number], string>> =
  Object.freeze({ me: '我的', none: '未分配' });

export const TASK_STATUSES = ['open', 'done'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TASK_STATUS_LABELS: Readonly<Record<TaskStatus, string>> = Object.freeze({
  open: '待处理',
  done: '已处理',
});

const DECISION_STATUS: Readonly<Record<ReviewDecision, ReviewStatus>> = Object.freeze({
  approve: 'approved',
  return: 'returned',
  reject: 'rejected',
});

/** The status a decision gives a record; null when the record is not waiting for review. */
export function statusAfterDecision(status: ReviewStatus, decision: ReviewDecision): ReviewStatus | null {
  return status === 'pending' ? DECISION_STATUS[decision] : null;
}

/** The status after an edit; null when the edit is refused (a rejected record, unless by a reviewer). */
export function statusAfterEdit(status: ReviewStatus, byReviewer: boolean): ReviewStatus | null {
  if (byReviewer) return status;
  return status === 'rejected' ? null : 'pending';
}

/** The status after the owner resubmits; null unless the record was returned. */
export function statusAfterResubmit(status: ReviewStatus): ReviewStatus | null {
  return status === 'returned' ? 'pending' : null;
}

/** The status of a new record. */
export const statusOnCreate = (byReviewer: boolean): ReviewStatus => (byReviewer ? 'approved' : 'pending');
