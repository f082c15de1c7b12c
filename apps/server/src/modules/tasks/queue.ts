// The review queue's own table operations, used by the modules whose records go to review (customers,
// applications, secondary orders), and the decision a review makes of its record. Deciding lives in ./service.ts.
import type { ReviewStatus, TaskKind } from '@piibs/shared/review';
import type { TaskRow } from '@piibs/shared/task';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { reviewTasks } from '../../db/schema.ts';
import { notifyTaskOpened } from '../notifications/events.ts';
import { GONE_USER } from './reviewers.ts';

/** The transition a reviewer's decision makes of the record under review (`pending` never reaches a record). */
export const DECISION_OF: Readonly<Record<ReviewStatus, 'approve' | 'return' | 'reject'>> = Object.freeze({
  approved: 'approve',
  returned: 'return',
  rejected: 'reject',
  pending: 'approve',
});

/**
 * Puts a record in the queue: opens a task, or — when one is open already — bumps its version (a reviewer
 * holding the old version gets 409 and looks again) and refreshes its title. One open task per record is
 * also guaranteed by a partial unique index. A new task notifies the reviewers who can act on it.
 */
export async function openReviewTask(
  tx: Tx,
  task: { kind: TaskKind; subjectId: number; title: string; submittedBy: number },
): Promise<number> {
  const [bumped] = await tx
    .update(reviewTasks)
    .set({ title: task.title, version: sql`${reviewTasks.version} + 1`, updatedAt: sql`now()` })
    .where(
      and(
        eq(reviewTasks.kind, task.kind),
        eq(reviewTasks.subjectId, task.subjectId),
        eq(reviewTasks.status, 'open'),
      ),
    )
    .returning({ id: reviewTasks.id });
  if (bumped) return bumped.id;
  const [row] = await tx.insert(reviewTasks).values(task).returning({ id: reviewTasks.id });
  await notifyTaskOpened(tx, { ...task, id: row!.id });
  return row!.id;
}

// Subqueries name the outer column in full: drizzle leaves the columns of a one-table select unqualified.
const userName = (column: string) =>
  sql<
    string | null
  >`(select coalesce(nullif(u.nick_name, ''), u.username) from app_user u where u.id = ${sql.raw(`"review_task"."${column}"`)})`;

export const taskColumns = {
  id: reviewTasks.id,
  kind: reviewTasks.kind,
  subjectId: reviewTasks.subjectId,
  title: reviewTasks.title,
  status: reviewTasks.status,
  submittedBy: reviewTasks.submittedBy,
  submittedByName: userName('submitted_by'),
  assigneeId: reviewTasks.assigneeId,
  assigneeName: userName('assignee_id'),
  decision: reviewTasks.decision,
  opinion: reviewTasks.opinion,
  decidedBy: reviewTasks.decidedBy,
  decidedByName: userName('decided_by'),
  decidedAt: reviewTasks.decidedAt,
  version: reviewTasks.version,
  createdAt: reviewTasks.createdAt,
  ageSeconds: sql<number>`floor(extract(epoch from (coalesce(${reviewTasks.decidedAt}, now()) - ${reviewTasks.createdAt})))::int`,
};

const ref = (id: number | null, name: string | null) => (id == null ? null : { id, name: name ?? GONE_USER });

export function toTaskRow(r: {
  id: number;
  kind: string;
  subjectId: number;
  title: string;
  status: string;
  submittedBy: number | null;
  submittedByName: string | null;
  assigneeId: number | null;
  assigneeName: string | null;
  decision: string | null;
  opinion: string | null;
  decidedBy: number | null;
  decidedByName: string | null;
  decidedAt: Date | null;
  version: number;
  createdAt: Date;
  ageSeconds: number;
}): TaskRow {
  return {
    id: r.id,
    kind: r.kind as TaskRow['kind'],
    subjectId: r.subjectId,
    title: r.title,
    status: r.status as TaskRow['status'],
    submittedBy: ref(r.submittedBy, r.submittedByName),
    assignee: ref(r.assigneeId, r.assigneeName),
    decision: r.decision as TaskRow['decision'],
    opinion: r.opinion,
    decidedBy: ref(r.decidedBy, r.decidedByName),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    version: r.version,
    createdAt: r.createdAt.toISOString(),
    ageSeconds: Number(r.ageSeconds),
  };
}
