// The business events users are told about: who gets each one, what it says and where it links. Each is called by
// the module that makes the change, inside its transaction (so a rolled-back change tells nobody), with an event
// key that names the event once (retries, replays and job re-runs store nothing more).
import { ROLE_CODES } from '@piibs/shared/auth';
import { NOTIFICATION_TEXTS, type NotificationKind } from '@piibs/shared/notification';
import { policyChangeAuditPath } from '@piibs/shared/policy-change';
import { applyPath, tenderAuditPath } from '@piibs/shared/project-order';
import type { ReviewDecision, TaskKind } from '@piibs/shared/review';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { applications, customers, policies, preventionFunds, secondaryOrders } from '../../db/schema.ts';
import { taskReviewers, userName } from '../tasks/reviewers.ts';
import { notify } from './service.ts';

const ids = (rows: { id: number | string | null }[]) =>
  rows.filter((r) => r.id != null).map((r) => Number(r.id));
const except = (userIds: number[], ...left: (number | null | undefined)[]) =>
  userIds.filter((id) => !left.includes(id));

/** The policy page (the web's policyViewPath). */
const policyViewPath = (id: number) => `/piibs/projectManage/policyInsuranceView/${id}`;

/** The page of an application (every applicant channel opens it). */
const applicationPath = (a: { id: number; policyholderType: number }) =>
  `/piibs/insured/viewInsurance/${a.id}/${a.policyholderType}`;

/**
 * The users an application concerns on the applicant's side: who made it, the agent entering it, and the
 * enabled enterprise accounts of its applicant (their uscc is the customer's).
 */
export async function applicantUsers(tx: Pick<Db, 'execute'>, applicationId: number): Promise<number[]> {
  const res = await tx.execute<{ id: number | string | null }>(sql`
    SELECT a.owner_id AS id FROM application a WHERE a.id = ${applicationId}
    UNION SELECT a.agent_id FROM application a WHERE a.id = ${applicationId}
    UNION SELECT u.id FROM application a
      JOIN customer c ON c.id = a.customer_id
      JOIN app_user u ON upper(u.uscc) = c.uscc AND u.enabled
      WHERE a.id = ${applicationId} AND EXISTS (SELECT 1 FROM user_role ur JOIN role r ON r.id = ur.role_id
        WHERE ur.user_id = u.id AND r.code = ${ROLE_CODES.enterprise})`);
  return ids(res.rows);
}

/** Enabled members of a service organisation. */
async function orgMembers(tx: Tx, orgId: number): Promise<number[]> {
  const res = await tx.execute<{ id: number | string }>(sql`
    SELECT m.user_id AS id FROM service_org_member m JOIN app_user u ON u.id = m.user_id
    WHERE m.org_id = ${orgId} AND u.enabled`);
  return ids(res.rows);
}

// ---- review tasks ----

/**
 * A record went to review: the users who can act on its task — enabled, holding the kind's review permission
 * (the admin role holds every one), seeing the record within their data scope — and its assignee, if any; never
 * the submitter.
 */
export async function notifyTaskOpened(
  tx: Tx,
  task: {
    id: number;
    kind: TaskKind;
    subjectId: number;
    title: string;
    submittedBy: number;
    assigneeId?: number | null;
  },
): Promise<void> {
  const reviewers = (await taskReviewers(tx, task)).map((r) => r.id);
  await notify(tx, {
    userIds: except(
      [...reviewers, task.assigneeId ?? null].filter((id) => id != null),
      task.submittedBy,
    ),
    kind: 'task.assigned',
    ...NOTIFICATION_TEXTS.taskOpened({
      kind: task.kind,
      title: task.title,
      submitterName: await userName(tx, task.submittedBy),
    }),
    link: task.kind === 'tender' ? tenderAuditPath(task.id, true) : `/piibs/task/audit/${task.id}/true`,
    eventKey: `task:${task.id}:assigned`,
  });
}

/** A task was assigned (指派) to a reviewer: they are told, once per assignment (the task's new version). */
export async function notifyTaskAssigned(
  tx: Tx,
  task: {
    id: number;
    kind: TaskKind;
    title: string;
    assigneeId: number;
    assignedBy: string;
    version: number;
  },
): Promise<void> {
  await notify(tx, {
    userIds: [task.assigneeId],
    kind: 'task.assigned',
    ...NOTIFICATION_TEXTS.taskAssigned({
      kind: task.kind,
      title: task.title,
      assignedByName: task.assignedBy,
    }),
    link: task.kind === 'tender' ? tenderAuditPath(task.id, true) : `/piibs/task/audit/${task.id}/true`,
    eventKey: `task:${task.id}:assignee:${task.assigneeId}:${task.version}`,
  });
}

/** A held task went to someone else: its former holder is told they need not go on with it. */
export async function notifyTaskReassigned(
  tx: Tx,
  task: {
    id: number;
    kind: TaskKind;
    title: string;
    formerId: number;
    assigneeName: string;
    assignedBy: string;
    version: number;
  },
): Promise<void> {
  await notify(tx, {
    userIds: [task.formerId],
    kind: 'task.assigned',
    ...NOTIFICATION_TEXTS.taskReassigned({
      kind: task.kind,
      title: task.title,
      assignedByName: task.assignedBy,
      assigneeName: task.assigneeName,
    }),
    link: task.kind === 'tender' ? tenderAuditPath(task.id, false) : `/piibs/task/audit/${task.id}/false`,
    eventKey: `task:${task.id}:former:${task.formerId}:${task.version}`,
  });
}

const DECIDED_KEYS: Record<ReviewDecision, string> = {
  approve: 'approved',
  return: 'returned',
  reject: 'rejected',
};

/** An application with what its notices name: its number, its policyholder, its version (for one-off keys). */
async function applicationOf(tx: Tx, id: number) {
  const [a] = await tx
    .select({
      id: applications.id,
      number: applications.number,
      version: applications.version,
      policyholderType: applications.policyholderType,
      customerName: customers.name,
    })
    .from(applications)
    .innerJoin(customers, eq(customers.id, applications.customerId))
    .where(eq(applications.id, id));
  return a;
}

/** A reviewer decided a task: the submitting side of the record is told, with the opinion. */
export async function notifyReviewDecision(
  tx: Tx,
  d: {
    taskId: number;
    kind: TaskKind;
    subjectId: number;
    decision: ReviewDecision;
    opinion: string | null;
    /** The labels of the documents a return asks for (applications). */
    requested?: readonly string[];
    submittedBy: number | null;
    deciderId: number;
  },
): Promise<void> {
  const key = DECIDED_KEYS[d.decision];
  const eventKey = `${d.kind}:${d.subjectId}:${key}:${d.taskId}`;
  const kind = `${d.kind}.${key}` as NotificationKind;
  const { decision, opinion } = d;
  if (d.kind === 'customer') {
    const [c] = await tx.select().from(customers).where(eq(customers.id, d.subjectId));
    if (!c) return;
    const recipients = except(
      [d.submittedBy, c.ownerId].filter((id) => id != null),
      d.deciderId,
    );
    if (recipients.length === 0) return;
    // Agents open their clients on their own route; a returned record opens for editing.
    const agents = new Set(
      ids(
        (
          await tx.execute<{ id: number | string }>(sql`
          SELECT ur.user_id AS id FROM user_role ur JOIN role r ON r.id = ur.role_id
          WHERE r.code = ${ROLE_CODES.agent} AND ur.user_id IN (${sql.join(
            recipients.map((id) => sql`${id}`),
            sql`, `,
          )})`)
        ).rows,
      ),
    );
    const detail = d.decision !== 'return';
    for (const agent of [true, false]) {
      await notify(tx, {
        userIds: recipients.filter((id) => agents.has(id) === agent),
        kind,
        ...NOTIFICATION_TEXTS.customerDecided({ decision, name: c.name, uscc: c.uscc, opinion }),
        link: `/piibs/${agent ? 'agent/applicant' : 'applicant'}/newUpdate/${c.id}/${detail}`,
        eventKey,
      });
    }
    return;
  }
  if (d.kind === 'application') {
    const a = await applicationOf(tx, d.subjectId);
    if (!a) return;
    await notify(tx, {
      userIds: except(await applicantUsers(tx, a.id), d.deciderId),
      kind,
      ...NOTIFICATION_TEXTS.applicationDecided({
        decision,
        number: a.number,
        customerName: a.customerName,
        opinion,
        requested: d.requested ?? [],
      }),
      link: applicationPath(a),
      eventKey,
    });
    return;
  }
  const [s] = await tx.select().from(secondaryOrders).where(eq(secondaryOrders.id, d.subjectId));
  if (!s) return;
  await notify(tx, {
    userIds: except(
      [s.ownerId, s.agentId].filter((id) => id != null),
      d.deciderId,
    ),
    kind,
    ...NOTIFICATION_TEXTS.tenderDecided({ decision, number: s.number, projectName: s.projectName, opinion }),
    link: applyPath(s.id, { detail: true, view: '1' }),
    eventKey,
  });
}

/**
 * The underwriter asked for documents while reviewing an application: its applicant side is told what to upload
 * (once per request: the application's version after it).
 */
export async function notifyMaterialsRequested(
  tx: Tx,
  r: {
    taskId: number;
    applicationId: number;
    requested: readonly string[];
    opinion: string | null;
    requesterId: number;
  },
): Promise<void> {
  const a = await applicationOf(tx, r.applicationId);
  if (!a) return;
  await notify(tx, {
    userIds: except(await applicantUsers(tx, a.id), r.requesterId),
    kind: 'application.materials_requested',
    ...NOTIFICATION_TEXTS.materialsRequested({
      number: a.number,
      customerName: a.customerName,
      requested: r.requested,
      opinion: r.opinion,
    }),
    link: applicationPath(a),
    eventKey: `application:${a.id}:materials:${r.taskId}:${a.version}`,
  });
}

// ---- payments and policies ----

/** A payment order became PAID (the one settling path). */
export async function notifyPaymentReceived(
  tx: Tx,
  p: { orderId: number; applicationId: number; amountFen: number },
): Promise<void> {
  const a = await applicationOf(tx, p.applicationId);
  if (!a) return;
  await notify(tx, {
    userIds: await applicantUsers(tx, a.id),
    kind: 'payment.received',
    ...NOTIFICATION_TEXTS.paymentReceived({
      applicationNumber: a.number,
      holderName: a.customerName,
      amountFen: p.amountFen,
    }),
    link: applicationPath(a),
    eventKey: `payment:${p.orderId}:received`,
  });
}

/** A policy was issued. */
export async function notifyPolicyIssued(
  tx: Tx,
  p: {
    policyId: number;
    number: string;
    applicationId: number;
    applicationNumber: string;
    holderName: string;
  },
): Promise<void> {
  await notify(tx, {
    userIds: await applicantUsers(tx, p.applicationId),
    kind: 'policy.issued',
    ...NOTIFICATION_TEXTS.policyIssued(p),
    link: policyViewPath(p.policyId),
    eventKey: `policy:${p.policyId}:issued`,
  });
}

// ---- risk control ----

interface ServiceOrderFacts {
  id: number;
  number: string;
  fundId: number;
  orgId: number;
  itemType: string;
  scheduledDate: string;
  dispatchedBy: number | null;
}

async function orderContext(tx: Tx, o: ServiceOrderFacts) {
  const [row] = await tx
    .select({ seqNo: preventionFunds.seqNo, holderName: policies.holderName })
    .from(preventionFunds)
    .innerJoin(policies, eq(policies.id, preventionFunds.policyId))
    .where(eq(preventionFunds.id, o.fundId));
  return { seqNo: row?.seqNo ?? '', holderName: row?.holderName ?? '' };
}

/** A service order was dispatched: the organisation's accounts. */
export async function notifyServiceDispatched(tx: Tx, o: ServiceOrderFacts): Promise<void> {
  const c = await orderContext(tx, o);
  await notify(tx, {
    userIds: except(await orgMembers(tx, o.orgId), o.dispatchedBy),
    kind: 'service.dispatched',
    ...NOTIFICATION_TEXTS.serviceDispatched({ ...o, holderName: c.holderName }),
    link: `/piibs/riskControl/prevention/service/${c.seqNo}?order=${o.number}`,
    eventKey: `service:${o.id}:dispatched`,
  });
}

/** The enterprise confirmed a service: the dispatcher and the organisation's accounts. */
export async function notifyServiceConfirmed(
  tx: Tx,
  o: ServiceOrderFacts,
  confirmedBy: number,
): Promise<void> {
  const c = await orderContext(tx, o);
  await notify(tx, {
    userIds: except(
      [o.dispatchedBy, ...(await orgMembers(tx, o.orgId))].filter((id) => id != null),
      confirmedBy,
    ),
    kind: 'service.confirmed',
    ...NOTIFICATION_TEXTS.serviceConfirmed({ ...o, holderName: c.holderName }),
    link: `/piibs/riskControl/prevention/view/${c.seqNo}?order=${o.number}`,
    eventKey: `service:${o.id}:confirmed`,
  });
}

// ---- endorsements and cancellations of issued policies ----

/**
 * A policyholder asked for (or resubmitted) an endorsement or cancellation: the underwriters who may review the
 * policy's application (the review permission, its data scope), never the requester; linked to the request's
 * page in the queue (批改审核). Once per submission (the request's version).
 */
export async function notifyPolicyChangeSubmitted(
  tx: Tx,
  c: {
    id: number;
    applicationId: number;
    requestedBy: number;
    kindLabel: string;
    number: string;
    policyNumber: string;
    holderName: string;
    changeText: string;
    version: number;
  },
): Promise<void> {
  const reviewers = await taskReviewers(tx, {
    kind: 'application',
    subjectId: c.applicationId,
    submittedBy: c.requestedBy,
  });
  await notify(tx, {
    userIds: reviewers.map((r) => r.id),
    kind: 'policy_change.submitted',
    ...NOTIFICATION_TEXTS.policyChangeSubmitted(c),
    link: policyChangeAuditPath(c.id),
    eventKey: `policy_change:${c.id}:submitted:${c.version}`,
  });
}

/** An approved endorsement's additional premium was not paid in time: the applicant's side. */
export async function notifyPolicyChangeLapsed(
  tx: Tx,
  c: {
    id: number;
    policyId: number;
    applicationId: number;
    number: string;
    policyNumber: string;
    deltaFen: number;
  },
): Promise<void> {
  await notify(tx, {
    userIds: await applicantUsers(tx, c.applicationId),
    kind: 'policy_change.lapsed',
    ...NOTIFICATION_TEXTS.policyChangeLapsed(c),
    link: policyViewPath(c.policyId),
    eventKey: `policy_change:${c.id}:lapsed`,
  });
}

/** The underwriter decided a policy's endorsement or cancellation request: the applicant's side. */
export async function notifyPolicyChangeDecided(
  tx: Tx,
  c: {
    id: number;
    policyId: number;
    applicationId: number;
    kindLabel: string;
    number: string;
    policyNumber: string;
    decision: ReviewDecision;
    opinion: string | null;
    deltaFen: number;
    version: number;
  },
): Promise<void> {
  await notify(tx, {
    userIds: await applicantUsers(tx, c.applicationId),
    kind: 'policy_change.decided',
    ...NOTIFICATION_TEXTS.policyChangeDecided(c),
    link: policyViewPath(c.policyId),
    eventKey: `policy_change:${c.id}:${c.decision}:${c.version}`,
  });
}

/** An endorsement or cancellation took effect (paid or refunded): the applicant's side. */
export async function notifyPolicyChangeDone(
  tx: Tx,
  c: {
    id: number;
    policyId: number;
    applicationId: number;
    kind: 'ENDORSEMENT' | 'CANCELLATION';
    number: string;
    policyNumber: string;
    effectiveDate: string;
    deltaFen: number;
  },
): Promise<void> {
  await notify(tx, {
    userIds: await applicantUsers(tx, c.applicationId),
    kind: 'policy_change.done',
    ...NOTIFICATION_TEXTS.policyChangeDone(c),
    link: policyViewPath(c.policyId),
    eventKey: `policy_change:${c.id}:done`,
  });
}
