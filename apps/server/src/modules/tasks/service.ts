// Review tasks: the queue (oldest first, with age), one task with what it reviews, and the decision.
//
// Deciding is one transaction that locks the record under review, then the task (the same order as a change
// to the record, which locks the record and then bumps the open task), checks the task's version and state and
// the record's state (@piibs/shared/review), records the decision on both and writes it to the audit trail.
// Two reviewers deciding at once: the second waits for the first's lock, then finds the task done → 409.
//
// Holding (处理人): a reviewer claims an open task, or a user with task:assign assigns it to a reviewer who may
// decide it (or releases it); each change locks the task, checks its version, bumps it and is audited. A held
// task is decided by its holder only (others get 409); an unheld one by any of its reviewers.

import type { ApplicationDetail, ApplicationEventRow } from '@piibs/shared/application';
import type { CustomerRow } from '@piibs/shared/customer';
import {
  mayDecideHeldTask,
  type ReviewDecision,
  type ReviewStatus,
  statusAfterDecision,
  TASK_KIND_PERMISSIONS,
  type TaskAssigneeFilter,
  type TaskKind,
  type TaskStatus,
} from '@piibs/shared/review';
import type {
  AssigneeOption,
  AssignForm,
  decideForm,
  requestMaterialsForm,
  TASK_SORT_FIELDS,
  TaskDetail,
  TaskRow,
} from '@piibs/shared/task';
import { and, desc, eq, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { BusinessContext } from '../../app-types.ts';
import type { Db, Tx } from '../../db/client.ts';
import { auditLog, reviewTasks } from '../../db/schema.ts';
import { type Actor, actorNameOf, auditAction } from '../../lib/audit.ts';
import { describeAudit } from '../../lib/audit-text.ts';
import { conflict, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { blurry } from '../../lib/filters.ts';
import { countRows, type ListSpec, pageRows, type SortColumns } from '../../lib/paging.ts';
import { applicationTasksVisibleTo } from '../applications/access.ts';
import { applicationEventsOf, changesSinceReturn, getApplication } from '../applications/queries.ts';
import {
  applyApplicationReview,
  lockApplicationForReview,
  requestApplicationMaterials,
} from '../applications/transitions.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { applyReview, customerTasksVisibleTo, getCustomer, lockForReview } from '../customers/service.ts';
import { checkDocTypes, docTypeLabels } from '../materials/requirements.ts';
import {
  notifyMaterialsRequested,
  notifyReviewDecision,
  notifyTaskAssigned,
  notifyTaskReassigned,
} from '../notifications/events.ts';
import { tenderTasksVisibleTo } from '../project-orders/access.ts';
import {
  applyTenderReview,
  issueTenderPolicy,
  lockTenderForReview,
  tenderCustomerId,
} from '../project-orders/review.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import { taskColumns, toTaskRow } from './queue.ts';
import { taskReviewers, userName } from './reviewers.ts';

export const TASK_NOT_FOUND = '审核任务不存在';
export const TASK_DONE = '该任务已被处理，请刷新后查看';
/** Claiming a task another reviewer holds. */
export const taskHeldBy = (name: string) => `该任务已由「${name}」领取，请刷新后查看`;
/** Deciding a task another reviewer holds. */
export const taskDecidedByHolder = (name: string) => `该任务已由「${name}」领取，只有处理人可以审核`;
export const RELEASE_FORBIDDEN = '只有处理人或有指派权限的用户可以释放该任务';
const NOT_AN_ASSIGNEE = '该用户不能审核此任务';

/** What the task service needs of each kind of record under review. */
interface ReviewSubject {
  /** Locks the record; null when the reviewer may not see it. */
  lock(tx: Tx, viewer: CustomerViewer, id: number): Promise<{ status: ReviewStatus; title: string } | null>;
  /** Records the decision on the record; `request`: the documents a return asks for (applications only). */
  apply(
    tx: Tx,
    id: number,
    next: ReviewStatus,
    opinion: string | null,
    actor: Actor,
    request?: { docTypes: readonly string[]; labels: readonly string[] },
  ): Promise<void>;
  /** The condition limiting the kind's tasks to records the viewer may see (undefined: all). */
  visible(db: Db, viewer: CustomerViewer): SQL | undefined;
  /** The audit entity the record's changes are written under. */
  entity: string;
  /** Runs after an approval is committed (a secondary order's policy is issued); must not throw. */
  afterApproval?(ctx: BusinessContext, id: number): Promise<void>;
}

const SUBJECTS: Partial<Record<TaskKind, ReviewSubject>> = {
  customer: {
    lock: lockForReview,
    apply: applyReview,
    visible: customerTasksVisibleTo,
    entity: 'customer',
  },
  application: {
    lock: lockApplicationForReview,
    apply: applyApplicationReview,
    visible: applicationTasksVisibleTo,
    entity: 'application',
  },
  tender: {
    lock: lockTenderForReview,
    apply: applyTenderReview,
    visible: tenderTasksVisibleTo,
    entity: 'secondary_order',
    afterApproval: issueTenderPolicy,
  },
};

/** The caller of the task routes: what they may see and which kinds they review. */
export interface Reviewer extends Actor {
  viewer: CustomerViewer;
  kinds: TaskKind[];
}

export interface TaskFilter {
  kind?: TaskKind | undefined;
  status?: TaskStatus | undefined;
  decision?: ReviewDecision | undefined;
  blurry?: string | undefined;
  assignee?: TaskAssigneeFilter | undefined;
}

type SortField = (typeof TASK_SORT_FIELDS)[number];
const sortColumns: SortColumns<SortField> = {
  id: reviewTasks.id,
  createdAt: reviewTasks.createdAt,
  decidedAt: reviewTasks.decidedAt,
};

/** Tasks of the kinds the reviewer reviews, on records they may see. */
function tasksVisibleTo(db: Db, reviewer: Reviewer, kind?: TaskKind): SQL {
  const kinds = reviewer.kinds.filter((k) => (kind ? k === kind : true) && SUBJECTS[k]);
  if (kinds.length === 0) return sql`false`;
  return or(...kinds.map((k) => and(eq(reviewTasks.kind, k), SUBJECTS[k]!.visible(db, reviewer.viewer))))!;
}

/** The queue: oldest first unless sorted otherwise. */
export function taskListSpec(db: Db, reviewer: Reviewer, f: TaskFilter): ListSpec<SortField, TaskRow> {
  const where = and(
    tasksVisibleTo(db, reviewer, f.kind),
    f.status ? eq(reviewTasks.status, f.status) : undefined,
    f.decision ? eq(reviewTasks.decision, f.decision) : undefined,
    blurry(f.blurry, reviewTasks.title),
    f.assignee === undefined
      ? undefined
      : f.assignee === 'none'
        ? isNull(reviewTasks.assigneeId)
        : eq(reviewTasks.assigneeId, f.assignee === 'me' ? reviewer.user.id : f.assignee),
  );
  return {
    columns: sortColumns,
    defaultOrder: [sql`${reviewTasks.createdAt} asc`, sql`${reviewTasks.id} asc`],
    fetch: async (q) =>
      (await pageRows(db, db.select(taskColumns).from(reviewTasks), where, q)).map(toTaskRow),
    count: () => countRows(db, reviewTasks, where),
  };
}

async function loadTask(db: Db | Tx, reviewer: Reviewer, id: number): Promise<TaskRow> {
  const [row] = await db
    .select(taskColumns)
    .from(reviewTasks)
    .where(and(eq(reviewTasks.id, id), tasksVisibleTo(db as Db, reviewer)));
  if (!row) throw notFound(TASK_NOT_FOUND);
  return toTaskRow(row);
}

/** A record's audit entries as the change history shows them: each detail in words. */
async function changesInWords(
  db: Db,
  entity: string,
  subjectId: number,
  changes: { at: Date; actor: string | null; action: string; detail: unknown }[],
): Promise<TaskDetail['changes']> {
  const texts = await describeAudit(
    db,
    changes.map((c) => ({ entity, entityId: String(subjectId), detail: c.detail })),
  );
  return changes.map((c, i) => ({ ...c, at: c.at.toISOString(), lines: texts[i]!.lines }));
}

/** One task with its record, the record's earlier decisions and its change history. */
export async function getTask(db: Db, reviewer: Reviewer, id: number): Promise<TaskDetail> {
  const task = await loadTask(db, reviewer, id);
  const subject = SUBJECTS[task.kind]!;
  let customer: CustomerRow | null = null;
  let application: ApplicationDetail | null = null;
  let events: ApplicationEventRow[] | undefined;
  let resubmitted: TaskDetail['resubmitted'];
  if (task.kind === 'customer') customer = await getCustomer(db, reviewer.viewer, task.subjectId);
  if (task.kind === 'application') {
    application = await getApplication(db, reviewer.viewer, task.subjectId);
    customer = application.customer;
    events = await applicationEventsOf(db, reviewer.viewer, task.subjectId);
    resubmitted = await changesSinceReturn(db, task.subjectId, id);
  }
  if (task.kind === 'tender') {
    const customerId = await tenderCustomerId(db, task.subjectId);
    if (customerId)
      customer = await getCustomer(db, { ...reviewer.viewer, staffScope: { all: true } }, customerId);
  }
  const history = (
    await db
      .select(taskColumns)
      .from(reviewTasks)
      .where(
        and(
          eq(reviewTasks.kind, task.kind),
          eq(reviewTasks.subjectId, task.subjectId),
          ne(reviewTasks.id, id),
        ),
      )
      .orderBy(desc(reviewTasks.createdAt), desc(reviewTasks.id))
  ).map(toTaskRow);
  const changes = await db
    .select({
      at: auditLog.createdAt,
      actor: actorNameOf(auditLog.actorId, auditLog.actorName),
      action: auditLog.action,
      detail: auditLog.detail,
    })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, subject.entity),
        eq(auditLog.entityId, String(task.subjectId)),
        ne(auditLog.action, 'unmask'),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(50);
  return {
    ...task,
    customer,
    application,
    ...(events ? { events, resubmitted } : {}),
    history,
    changes: await changesInWords(db, subject.entity, task.subjectId, changes),
  };
}

/** The documents asked for (checked against the dictionary, 400 at `docTypes`) with their labels. */
async function docRequest(
  tx: Tx,
  docTypes: readonly string[],
): Promise<{ docTypes: readonly string[]; labels: string[] }> {
  await checkDocTypes(tx, docTypes, 'docTypes', '要求补充的资料');
  return { docTypes, labels: await docTypeLabels(tx, docTypes) };
}

/**
 * Locks the task's record, then the task (the order of a change to the record), and checks the task is open,
 * not held by another reviewer and at `version`: what deciding and asking for documents both need.
 */
async function lockOpenTask(
  tx: Tx,
  reviewer: Reviewer,
  id: number,
  version: number,
  peek: { subjectId: number },
  subject: ReviewSubject,
) {
  const record = await subject.lock(tx, reviewer.viewer, peek.subjectId);
  if (!record) throw notFound(TASK_NOT_FOUND);
  const [task] = await tx.select().from(reviewTasks).where(eq(reviewTasks.id, id)).for('update');
  if (!task) throw notFound(TASK_NOT_FOUND);
  if (task.status !== 'open') throw conflict(TASK_DONE);
  if (!mayDecideHeldTask(task.assigneeId, reviewer.user.id))
    throw conflict(taskDecidedByHolder(await userName(tx, task.assigneeId!)));
  if (task.version !== version) throw conflict(STALE_VERSION);
  return { record, task };
}

/** The kind and record of a task of a kind the reviewer reviews (404 otherwise). */
async function peekTask(db: Db, reviewer: Reviewer, id: number) {
  const [peek] = await db
    .select({ kind: reviewTasks.kind, subjectId: reviewTasks.subjectId })
    .from(reviewTasks)
    .where(and(eq(reviewTasks.id, id), inArray(reviewTasks.kind, reviewer.kinds)));
  const subject = peek ? SUBJECTS[peek.kind as TaskKind] : undefined;
  if (!peek || !subject) throw notFound(TASK_NOT_FOUND);
  return { peek: { kind: peek.kind as TaskKind, subjectId: peek.subjectId }, subject };
}

/**
 * A reviewer's decision: exactly one of two concurrent deciders succeeds, the other gets 409. With `ctx`, what
 * follows an approval (issuing a secondary order's policy) runs once the decision is committed. An application's
 * return may ask for documents (`docTypes`).
 */
export async function decideTask(
  db: Db,
  reviewer: Reviewer,
  id: number,
  form: z.infer<typeof decideForm>,
  ctx?: BusinessContext,
): Promise<TaskRow> {
  const { peek, subject } = await peekTask(db, reviewer, id);
  const docTypes = form.docTypes ?? [];
  if (docTypes.length && peek.kind !== 'application')
    throw fieldError('docTypes', '仅投保单审核可要求补充资料', '要求补充的资料');
  const decided = await db.transaction(async (tx) => {
    const { record, task } = await lockOpenTask(tx, reviewer, id, form.version, peek, subject);
    const next = statusAfterDecision(record.status, form.decision);
    if (!next) throw conflict('该记录当前不是待审核状态');
    const opinion = form.opinion ?? null;
    const request = await docRequest(tx, docTypes);
    await subject.apply(tx, peek.subjectId, next, opinion, reviewer, request);
    await tx
      .update(reviewTasks)
      .set({
        status: 'done',
        decision: form.decision,
        opinion,
        decidedBy: reviewer.user.id,
        decidedAt: sql`now()`,
        version: sql`${reviewTasks.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(reviewTasks.id, id));
    await notifyReviewDecision(tx, {
      taskId: id,
      kind: peek.kind,
      subjectId: peek.subjectId,
      decision: form.decision,
      opinion,
      requested: request.labels,
      submittedBy: task.submittedBy,
      deciderId: reviewer.user.id,
    });
    await auditAction(tx, reviewer, {
      action: `review_${form.decision}`,
      entity: subject.entity,
      entityId: peek.subjectId,
      detail: {
        taskId: id,
        decision: form.decision,
        opinion,
        ...(request.labels.length ? { requestedDocTypes: request.labels } : {}),
        before: { reviewStatus: record.status },
        after: { reviewStatus: next },
      },
    });
    return loadTask(tx, { ...reviewer, viewer: { ...reviewer.viewer, staffScope: { all: true } } }, id);
  });
  if (ctx) await afterDecision(ctx, decided, form.decision);
  return decided;
}

/**
 * 要求补充资料: on an open application task, the reviewer asks for documents and the application stays under
 * review (the task stays open, its version unchanged). The applicant side is told; the request is audited.
 */
export async function requestTaskMaterials(
  db: Db,
  reviewer: Reviewer,
  id: number,
  form: z.infer<typeof requestMaterialsForm>,
): Promise<TaskRow> {
  const { peek, subject } = await peekTask(db, reviewer, id);
  if (peek.kind !== 'application')
    throw fieldError('docTypes', '仅投保单审核可要求补充资料', '要求补充的资料');
  return db.transaction(async (tx) => {
    await lockOpenTask(tx, reviewer, id, form.version, peek, subject);
    const opinion = form.opinion ?? null;
    const request = await docRequest(tx, form.docTypes);
    const before = await requestApplicationMaterials(tx, peek.subjectId, request, opinion, reviewer);
    await notifyMaterialsRequested(tx, {
      taskId: id,
      applicationId: peek.subjectId,
      requested: request.labels,
      opinion,
      requesterId: reviewer.user.id,
    });
    await auditAction(tx, reviewer, {
      action: 'request_materials',
      entity: subject.entity,
      entityId: peek.subjectId,
      detail: {
        taskId: id,
        opinion,
        before: { requestedDocTypes: await docTypeLabels(tx, before) },
        after: { requestedDocTypes: request.labels },
      },
    });
    return loadTask(tx, { ...reviewer, viewer: { ...reviewer.viewer, staffScope: { all: true } } }, id);
  });
}

/**
 * What follows a committed decision (an approved secondary order's policy is issued; idempotent, never throws).
 * decideTask runs it when given a context; a caller that decides inside a longer transaction runs it after that.
 */
export async function afterDecision(
  ctx: BusinessContext,
  task: Pick<TaskRow, 'kind' | 'subjectId'>,
  decision: z.infer<typeof decideForm>['decision'],
): Promise<void> {
  const subject = SUBJECTS[task.kind];
  if (subject?.afterApproval && decision === 'approve') await subject.afterApproval(ctx, task.subjectId);
}

/** The kinds of task a caller reviews, by permission. */
export async function reviewKinds(can: (code: string) => Promise<boolean>): Promise<TaskKind[]> {
  const kinds: TaskKind[] = [];
  for (const [kind, code] of Object.entries(TASK_KIND_PERMISSIONS) as [TaskKind, string][]) {
    if (await can(code)) kinds.push(kind);
  }
  return kinds;
}

/** The reviewers of a task as assignee options, by name. */
async function reviewersOf(
  db: Db | Tx,
  task: { kind: TaskKind; subjectId: number; submittedBy: number | null },
): Promise<AssigneeOption[]> {
  return (await taskReviewers(db, task)).map((r) => {
    const nick = r.nickName?.trim();
    return { id: r.id, name: nick && nick !== r.username ? `${nick}（${r.username}）` : r.username };
  });
}

/** GET /api/tasks/:id/assignees: whom the open task can be assigned to. */
export async function assigneeOptions(db: Db, reviewer: Reviewer, id: number): Promise<AssigneeOption[]> {
  const task = await loadTask(db, reviewer, id);
  return task.status === 'open'
    ? reviewersOf(db, {
        kind: task.kind,
        subjectId: task.subjectId,
        submittedBy: task.submittedBy?.id ?? null,
      })
    : [];
}

type HolderAction = 'task_claim' | 'task_assign' | 'task_release';

/**
 * Changes who holds an open task the reviewer may see: locks it, lets `decide` check it and answer the new
 * holder (undefined: nothing to change, answered as it is), checks the version, bumps it and audits the change.
 */
async function changeHolder(
  db: Db,
  reviewer: Reviewer,
  id: number,
  version: number,
  action: HolderAction,
  decide: (
    task: typeof reviewTasks.$inferSelect,
    tx: Tx,
  ) => Promise<number | null | undefined> | number | null | undefined,
  after?: (tx: Tx, task: typeof reviewTasks.$inferSelect, assigneeId: number | null) => Promise<void>,
): Promise<TaskRow> {
  await loadTask(db, reviewer, id);
  const everyTask: Reviewer = { ...reviewer, viewer: { ...reviewer.viewer, staffScope: { all: true } } };
  return db.transaction(async (tx) => {
    const [task] = await tx.select().from(reviewTasks).where(eq(reviewTasks.id, id)).for('update');
    if (!task) throw notFound(TASK_NOT_FOUND);
    if (task.status !== 'open') throw conflict(TASK_DONE);
    const next = await decide(task, tx);
    if (next === undefined || next === task.assigneeId) return loadTask(tx, everyTask, id);
    if (task.version !== version) throw conflict(STALE_VERSION);
    await tx
      .update(reviewTasks)
      .set({ assigneeId: next, version: sql`${reviewTasks.version} + 1`, updatedAt: sql`now()` })
      .where(eq(reviewTasks.id, id));
    await auditAction(tx, reviewer, {
      action,
      entity: 'review_task',
      entityId: id,
      detail: {
        kind: task.kind,
        subjectId: task.subjectId,
        before: { assigneeId: task.assigneeId },
        after: { assigneeId: next },
      },
    });
    await after?.(tx, task, next);
    return loadTask(tx, everyTask, id);
  });
}

/** 领取: the reviewer takes an open task nobody holds (their own: unchanged; another's: 409). */
export function claimTask(db: Db, reviewer: Reviewer, id: number, version: number): Promise<TaskRow> {
  return changeHolder(db, reviewer, id, version, 'task_claim', async (task, tx) => {
    if (task.assigneeId === reviewer.user.id) return undefined;
    if (task.assigneeId !== null) throw conflict(taskHeldBy(await userName(tx, task.assigneeId)));
    return reviewer.user.id;
  });
}

/**
 * 指派 (task:assign): hands the open task to one of its reviewers, who is told (unless it is the caller), as is
 * the reviewer who held it before (unless the caller).
 */
export function assignTask(db: Db, reviewer: Reviewer, id: number, form: AssignForm): Promise<TaskRow> {
  return changeHolder(
    db,
    reviewer,
    id,
    form.version,
    'task_assign',
    async (task, tx) => {
      if (task.assigneeId === form.assigneeId) return undefined;
      const reviewers = await reviewersOf(tx, {
        kind: task.kind as TaskKind,
        subjectId: task.subjectId,
        submittedBy: task.submittedBy,
      });
      if (!reviewers.some((r) => r.id === form.assigneeId))
        throw fieldError('assigneeId', NOT_AN_ASSIGNEE, '处理人');
      return form.assigneeId;
    },
    async (tx, task, assigneeId) => {
      if (assigneeId === null) return;
      const told = { id: task.id, kind: task.kind as TaskKind, title: task.title, version: task.version + 1 };
      const assignedBy = await userName(tx, reviewer.user.id);
      if (assigneeId !== reviewer.user.id) await notifyTaskAssigned(tx, { ...told, assigneeId, assignedBy });
      if (task.assigneeId !== null && task.assigneeId !== reviewer.user.id)
        await notifyTaskReassigned(tx, {
          ...told,
          formerId: task.assigneeId,
          assigneeName: await userName(tx, assigneeId),
          assignedBy,
        });
    },
  );
}

/** 释放: the holder (or a user with task:assign) puts the task back in the open queue. */
export function releaseTask(
  db: Db,
  reviewer: Reviewer,
  id: number,
  version: number,
  canAssign: boolean,
): Promise<TaskRow> {
  return changeHolder(db, reviewer, id, version, 'task_release', (task) => {
    if (task.assigneeId === null) return undefined;
    if (task.assigneeId !== reviewer.user.id && !canAssign) throw forbidden(RELEASE_FORBIDDEN);
    return null;
  });
}
