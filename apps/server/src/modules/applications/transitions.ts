// The transitions of an application (投保单): submit (checked for completeness, re-rated on the active rate table,
// into the review queue), cancel, and the underwriter's decision (called by the task service, inside its
// transaction; approval opens the payment order).

import type { ApplicationDetail } from '@piibs/shared/application';
import { ID_CARD_MESSAGE, isIdCardNumber } from '@piibs/shared/application';
import {
  type ApplicationStatus,
  nextStatus,
  periodProblem,
  reviewNext,
} from '@piibs/shared/application-status';
import { coinsuranceProblem } from '@piibs/shared/coinsurance';
import type { ReviewStatus } from '@piibs/shared/review';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  applicationCoinsurers,
  applicationInsuredPersons,
  applications,
  customers,
  paymentOrders,
  products,
} from '../../db/schema.ts';
import type { Actor } from '../../lib/audit.ts';
import { badRequest, conflict, fieldError, notFound, problemError } from '../../lib/errors.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { checkApplicationMaterials } from '../materials/requirements.ts';
import { getProduct } from '../products/service.ts';
import { DECISION_OF, openReviewTask } from '../tasks/queue.ts';
import { applicationsVisibleTo } from './access.ts';
import {
  APPLICATION_NOT_FOUND,
  type ApplicationActor,
  addEvent,
  audit,
  CUSTOMER_NOT_APPROVED,
  checkChange,
  lockApplication,
  nextPaymentNumber,
  PAYMENT_TTL_MS,
} from './changes.ts';
import { checkRatios, quoteColumns, rateApplication, resplit } from './pricing.ts';
import { getApplication } from './queries.ts';

/** A field the submitted application must have: a 400 at the wizard's field (its request path) when empty. */
const required = (value: unknown, field: string, label: string) => {
  if (value === null || value === undefined || value === '') throw fieldError(field, '不能为空', label);
};

/**
 * DRAFT / RETURNED → PENDING_REVIEW: checks completeness (messages name the field) and the documents (the
 * product's SUBMIT-stage types and what the underwriter asked for), re-rates on the ACTIVE rate table and stores
 * the snapshot, re-splits the co-insurers, opens an application review task.
 */
export async function submitApplication(
  db: Db,
  actor: ApplicationActor,
  id: number,
  version: number,
): Promise<ApplicationDetail> {
  await db.transaction(async (tx) => {
    const a = await lockApplication(tx, actor.viewer, id);
    const next = nextStatus(a.status as ApplicationStatus, 'submit');
    checkChange(a, actor, next !== null, version);
    const product = await getProduct(tx, a.productId);
    const [customer] = await tx
      .select({ name: customers.name, reviewStatus: customers.reviewStatus })
      .from(customers)
      .where(eq(customers.id, a.customerId));
    if (customer?.reviewStatus !== 'approved') throw badRequest(CUSTOMER_NOT_APPROVED);
    required(a.startDate, 'startDate', '保险起期');
    required(a.endDate, 'endDate', '保险止期');
    const problem = periodProblem(a.startDate!, a.endDate!);
    if (problem) throw problemError(problem);
    if (a.policyholderType === 2) {
      required(a.insuredName, 'insuredName', '被保险人姓名');
      required(a.insuredUscc, 'insuredIdNumber', '被保险人身份证号');
      if (!isIdCardNumber(a.insuredUscc!))
        throw fieldError('insuredIdNumber', ID_CARD_MESSAGE, '被保险人身份证号');
    } else {
      required(a.insuredName, 'insuredName', '被保险人名称');
    }
    required(a.contactName, 'contactName', '联系人');
    required(a.contactPhone, 'contactPhone', '联系电话');
    if (product.productClass === 'construction') {
      required(a.projectName, 'projectName', '工程名称');
      required(a.projectAddress, 'projectAddress', '工程地址');
      required(a.projectCostFen, 'projectCostFen', '工程造价');
    }
    if (product.productClass === 'work_safety') required(a.headcount, 'headcount', '参保人数');
    if (product.namedInsuredRequired) {
      // The product asks for the people by name: the list is there and the headcount is its length.
      const [listed] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(applicationInsuredPersons)
        .where(eq(applicationInsuredPersons.applicationId, id));
      const n = listed?.n ?? 0;
      if (n === 0) throw fieldError('persons', '请录入或导入从业人员名单', '从业人员名单');
      if (a.headcount !== n) throw fieldError('headcount', `须与从业人员名单人数（${n} 人）一致`, '参保人数');
    }
    checkRatios(product, a);
    const shares = await tx
      .select()
      .from(applicationCoinsurers)
      .where(eq(applicationCoinsurers.applicationId, id));
    if (shares.length) {
      if (!product.allowsCoinsurance) throw fieldError('shares', '该险种不支持共保/联保', '共保信息');
      const bad = coinsuranceProblem(shares, { issuerLeads: product.issuerLeads });
      if (bad) throw problemError(bad);
    }
    await checkApplicationMaterials(tx, a, product, 'SUBMIT');
    const q = await rateApplication(tx, actor.viewer, a);
    await tx
      .update(applications)
      .set({
        ...quoteColumns(q),
        preventionRatio: q.preventionRatio,
        status: next!,
        submittedAt: sql`now()`,
        version: sql`${applications.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(applications.id, id));
    await resplit(tx, id, q.premiumFen, q.preventionFeeFen);
    await addEvent(tx, actor, { applicationId: id, action: 'submit', from: a.status, to: next! });
    await audit(tx, actor, 'submit', id, {
      before: { status: a.status, premiumFen: a.premiumFen },
      after: {
        status: next,
        premiumFen: q.premiumFen,
        rateTableId: q.rateTableId,
        rateTableVersion: q.rateTableVersion,
      },
    });
    await openReviewTask(tx, {
      kind: 'application',
      subjectId: id,
      title: `${a.number} ${customer.name}`,
      submittedBy: actor.user.id,
    });
  });
  return getApplication(db, actor.viewer, id);
}

/** DRAFT / RETURNED / PENDING_PAYMENT → CANCELLED, by the owner; an open payment order is cancelled with it. */
export async function cancelApplication(
  db: Db,
  actor: ApplicationActor,
  id: number,
  version: number,
): Promise<ApplicationDetail> {
  await db.transaction(async (tx) => {
    const a = await lockApplication(tx, actor.viewer, id);
    const next = nextStatus(a.status as ApplicationStatus, 'cancel');
    checkChange(a, actor, next !== null, version);
    await tx
      .update(applications)
      .set({ status: next!, version: sql`${applications.version} + 1`, updatedAt: sql`now()` })
      .where(eq(applications.id, id));
    await tx
      .update(paymentOrders)
      .set({ status: 'CANCELLED', updatedAt: sql`now()` })
      .where(and(eq(paymentOrders.applicationId, id), eq(paymentOrders.status, 'PENDING')));
    await addEvent(tx, actor, { applicationId: id, action: 'cancel', from: a.status, to: next! });
    await audit(tx, actor, 'cancel', id, { before: { status: a.status }, after: { status: next } });
  });
  return getApplication(db, actor.viewer, id);
}

// ---- the underwriter's decision (called by the task service, inside its transaction) ----

/** Locks the application under review; its status as the review machine sees it (pending or not). */
export async function lockApplicationForReview(
  tx: Tx,
  viewer: CustomerViewer,
  id: number,
): Promise<{ status: ReviewStatus; title: string } | null> {
  const [row] = await tx
    .select({ status: applications.status, number: applications.number })
    .from(applications)
    .where(and(eq(applications.id, id), applicationsVisibleTo(tx as unknown as Db, viewer)))
    .for('update', { of: applications });
  if (!row) return null;
  // Anything but PENDING_REVIEW is "not pending" to the review machine (→ 409).
  return { status: row.status === 'PENDING_REVIEW' ? 'pending' : 'approved', title: row.number };
}

/** The timeline's note of a request for documents: the opinion, then what was asked for. */
const requestNote = (opinion: string | null, labels: readonly string[]): string | null =>
  [opinion, labels.length ? `要求补充资料：${labels.join('、')}` : null].filter(Boolean).join('；') || null;

/**
 * Approve → PENDING_PAYMENT with a payment order (premium, 24 h), refused (400, nothing changed) unless every
 * document approval needs is on file; return → RETURNED, asking for `docTypes` (needed at the next submit);
 * reject → DECLINED. A decision other than return clears what was asked for.
 */
export async function applyApplicationReview(
  tx: Tx,
  id: number,
  decided: ReviewStatus,
  opinion: string | null,
  actor: Actor,
  request: { docTypes: readonly string[]; labels: readonly string[] } = { docTypes: [], labels: [] },
): Promise<void> {
  const [a] = await tx.select().from(applications).where(eq(applications.id, id));
  if (!a) throw notFound(APPLICATION_NOT_FOUND);
  const decision = DECISION_OF[decided];
  const next = reviewNext(a.status as ApplicationStatus, decision);
  if (!next) throw conflict('该投保单当前不是待审核状态');
  if (decision === 'approve') {
    const [product] = await tx
      .select({ requiredMaterials: products.requiredMaterials })
      .from(products)
      .where(eq(products.id, a.productId));
    await checkApplicationMaterials(tx, a, product!, 'APPROVE');
  }
  await tx
    .update(applications)
    .set({
      status: next,
      reviewOpinion: opinion,
      requestedDocTypes: decision === 'return' ? [...request.docTypes] : [],
      decidedAt: sql`now()`,
      version: sql`${applications.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(applications.id, id));
  if (next === 'PENDING_PAYMENT')
    await tx.insert(paymentOrders).values({
      number: await nextPaymentNumber(tx),
      applicationId: id,
      amountFen: a.premiumFen ?? 0,
      expiresAt: new Date(Date.now() + PAYMENT_TTL_MS),
    });
  await addEvent(tx, actor, {
    applicationId: id,
    action: decision === 'reject' ? 'decline' : decision,
    from: a.status,
    to: next,
    opinion: decision === 'return' ? requestNote(opinion, request.labels) : opinion,
  });
}

/**
 * The underwriter asks for documents while the application stays PENDING_REVIEW (409 otherwise): the applicant
 * may upload those types meanwhile, and approval needs them. Replaces what was asked for before; the timeline
 * records it. Answers what was asked for before.
 */
export async function requestApplicationMaterials(
  tx: Tx,
  id: number,
  request: { docTypes: readonly string[]; labels: readonly string[] },
  opinion: string | null,
  actor: Actor,
): Promise<string[]> {
  const [a] = await tx.select().from(applications).where(eq(applications.id, id));
  if (!a) throw notFound(APPLICATION_NOT_FOUND);
  if (a.status !== 'PENDING_REVIEW') throw conflict('该投保单当前不是待审核状态');
  await tx
    .update(applications)
    .set({
      requestedDocTypes: [...request.docTypes],
      version: sql`${applications.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(applications.id, id));
  await addEvent(tx, actor, {
    applicationId: id,
    action: 'request_materials',
    from: a.status,
    to: a.status,
    opinion: requestNote(opinion, request.labels),
  });
  return a.requestedDocTypes;
}
