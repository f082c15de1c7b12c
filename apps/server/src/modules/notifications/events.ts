// The business events users are told about: who gets each one, what it says and where it links. Each is called by
// the module that makes the change, inside its transaction (so a rolled-back change tells nobody), with an event
// key that names the event once (retries, replays and job re-runs store nothing more).
import { ROLE_CODES } from '@piibs/shared/auth';
import { formatFen } from '@piibs/shared/money';
import type { NotificationKind } from '@piibs/shared/notification';
import { applyPath, tenderAuditPath } from '@piibs/shared/project-order';
import { type ReviewDecision, TASK_KIND_LABELS, type TaskKind } from '@piibs/shared/review';
import { SERVICE_ITEM_LABELS, type ServiceItemType } from '@piibs/shared/risk-control';
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
  const submitter = await userName(tx, task.submittedBy, '用户');
  const label = TASK_KIND_LABELS[task.kind];
  await notify(tx, {
    userIds: except(
      [...reviewers, task.assigneeId ?? null].filter((id) => id != null),
      task.submittedBy,
    ),
    kind: 'task.assigned',
    title: `新的${label}任务`,
    body: `${submitter} 提交了「${task.title}」，等待审核。`,
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
    title: `指派给您的${TASK_KIND_LABELS[task.kind]}任务`,
    body: `${task.assignedBy} 将「${task.title}」指派给您审核。`,
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
    title: `${TASK_KIND_LABELS[task.kind]}任务已改派`,
    body: `${task.assignedBy} 已将「${task.title}」改派给 ${task.assigneeName}，您无需再处理。`,
    link: task.kind === 'tender' ? tenderAuditPath(task.id, false) : `/piibs/task/audit/${task.id}/false`,
    eventKey: `task:${task.id}:former:${task.formerId}:${task.version}`,
  });
}

/** A reviewer's opinion as a sentence of a notification (empty without one). */
const opinionText = (opinion: string | null) =>
  opinion ? `审核意见：${opinion.replace(/[。.!！]+$/, '')}。` : '';

const DECIDED: Record<ReviewDecision, { key: string; word: string }> = {
  approve: { key: 'approved', word: '已审核通过' },
  return: { key: 'returned', word: '已被退回' },
  reject: { key: 'rejected', word: '已被拒绝' },
};

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
  const { key, word } = DECIDED[d.decision];
  const eventKey = `${d.kind}:${d.subjectId}:${key}:${d.taskId}`;
  const kind = `${d.kind}.${key}` as NotificationKind;
  const opinion = opinionText(d.opinion);
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
        title: `投保人${word.slice(1)}`,
        body: `投保人「${c.name}」（${c.uscc}）${word}。${opinion}`,
        link: `/piibs/${agent ? 'agent/applicant' : 'applicant'}/newUpdate/${c.id}/${detail}`,
        eventKey,
      });
    }
    return;
  }
  if (d.kind === 'application') {
    const [a] = await tx
      .select({
        id: applications.id,
        number: applications.number,
        policyholderType: applications.policyholderType,
        customerName: customers.name,
      })
      .from(applications)
      .innerJoin(customers, eq(customers.id, applications.customerId))
      .where(eq(applications.id, d.subjectId));
    if (!a) return;
    const next =
      d.decision === 'approve'
        ? '请在支付期限内完成支付。'
        : d.requested?.length
          ? `请补充影像资料：${d.requested.join('、')}。`
          : '';
    await notify(tx, {
      userIds: except(await applicantUsers(tx, a.id), d.deciderId),
      kind,
      title: `投保单${word.slice(1)}`,
      body: `投保单 ${a.number}（${a.customerName}）${word}。${opinion}${next}`,
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
    title: `二次下单${word.slice(1)}`,
    body: `二次下单 ${s.number}（${s.projectName}）${word}。${opinion}`,
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
    .where(eq(applications.id, r.applicationId));
  if (!a) return;
  const opinion = opinionText(r.opinion);
  await notify(tx, {
    userIds: except(await applicantUsers(tx, a.id), r.requesterId),
    kind: 'application.materials_requested',
    title: '投保单需补充资料',
    body: `投保单 ${a.number}（${a.customerName}）审核中，请补充影像资料：${r.requested.join('、')}。${opinion}`,
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
  const [a] = await tx.select().from(applications).where(eq(applications.id, p.applicationId));
  if (!a) return;
  await notify(tx, {
    userIds: await applicantUsers(tx, a.id),
    kind: 'payment.received',
    title: '保费支付成功',
    body: `投保单 ${a.number} 的保费 ${formatFen(p.amountFen)} 已支付成功，保单正在出具。`,
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
    title: '保单已签发',
    body: `投保单 ${p.applicationNumber}（${p.holderName}）已出单，保单号 ${p.number}，可查看并下载电子保单。`,
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
  return {
    seqNo: row?.seqNo ?? '',
    holderName: row?.holderName ?? '',
    item: SERVICE_ITEM_LABELS[o.itemType as ServiceItemType] ?? o.itemType,
  };
}

/** A service order was dispatched: the organisation's accounts. */
export async function notifyServiceDispatched(tx: Tx, o: ServiceOrderFacts): Promise<void> {
  const c = await orderContext(tx, o);
  await notify(tx, {
    userIds: except(await orgMembers(tx, o.orgId), o.dispatchedBy),
    kind: 'service.dispatched',
    title: '新的服务单',
    body: `服务单 ${o.number}：为「${c.holderName}」提供${c.item}，计划服务日期 ${o.scheduledDate}，请及时接单。`,
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
    title: '服务已确认',
    body: `「${c.holderName}」已确认服务单 ${o.number}（${c.item}）。`,
    link: `/piibs/riskControl/prevention/view/${c.seqNo}?order=${o.number}`,
    eventKey: `service:${o.id}:confirmed`,
  });
}
