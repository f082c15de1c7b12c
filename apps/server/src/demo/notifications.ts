// Demo notifications (PIIBS_DEMO=1): the demo data made through the real services notified its users as it was
// made; this adds the ones for records the demo writes directly (the customers' review tasks and decisions) and,
// for a demo database seeded before notifications existed, for its open tasks and issued policies — so the
// navbar badge shows something on a fresh demo. Through the same notify path, with the same event keys:
// idempotent, every start.
import type { ReviewDecision, TaskKind } from '@piibs/shared/review';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { applications, customers, notifications, policies, reviewTasks } from '../db/schema.ts';
import {
  notifyPolicyIssued,
  notifyReviewDecision,
  notifyTaskOpened,
} from '../modules/notifications/events.ts';
import { DEMO_CUSTOMERS, demoEnterpriseUscc } from './base.ts';

/** Runs `each` over the items in transactions of 500 (one per item made a volume-seeded demo start slow). */
async function inBatches<T>(db: Db, items: readonly T[], each: (tx: Tx, item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += 500)
    await db.transaction(async (tx) => {
      for (const item of items.slice(i, i + 500)) await each(tx, item);
    });
}

/** Answers how many notifications were stored (0 when the demo has them all). */
export async function seedDemoNotifications(db: Db): Promise<number> {
  const count = () => db.$count(notifications);
  const before = await count();
  const open = await db.select().from(reviewTasks).where(eq(reviewTasks.status, 'open'));
  await inBatches(db, open, (tx, t) =>
    notifyTaskOpened(tx, {
      id: t.id,
      kind: t.kind as TaskKind,
      subjectId: t.subjectId,
      title: t.title,
      submittedBy: t.submittedBy ?? 0,
      assigneeId: t.assigneeId,
    }),
  );
  const decided = await db
    .select({ task: reviewTasks })
    .from(reviewTasks)
    .innerJoin(customers, eq(customers.id, reviewTasks.subjectId))
    .where(
      and(
        eq(reviewTasks.kind, 'customer'),
        eq(reviewTasks.status, 'done'),
        isNotNull(reviewTasks.decidedBy),
        inArray(customers.uscc, [await demoEnterpriseUscc(db), ...DEMO_CUSTOMERS.map((c) => c.uscc)]),
      ),
    );
  await inBatches(db, decided, (tx, { task: t }) =>
    notifyReviewDecision(tx, {
      taskId: t.id,
      kind: 'customer',
      subjectId: t.subjectId,
      decision: t.decision as ReviewDecision,
      opinion: t.opinion,
      submittedBy: t.submittedBy,
      deciderId: t.decidedBy!,
    }),
  );
  const issued = await db
    .select({
      policyId: policies.id,
      number: policies.number,
      applicationId: policies.applicationId,
      applicationNumber: applications.number,
      holderName: policies.holderName,
    })
    .from(policies)
    .innerJoin(applications, eq(applications.id, policies.applicationId));
  await inBatches(db, issued, (tx, p) => notifyPolicyIssued(tx, p));
  return (await count()) - before;
}
