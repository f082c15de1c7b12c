// Secondary orders (二次下单): the projects a contractor declares against an annual order (年度订单), and their
// changes (批改, kind 2; made in changes.ts): created, saved, submitted and cancelled here. Rules and states:
// @piibs/shared/project-order. The reviewer's decision: review.ts.
//
// Quota: a declaration's premium is reserved when it is submitted. Submit, cancel and the reviewer's decision
// lock the secondary order first and then its annual order (`select … for update`), read `consumed_fen` under
// that lock and move it by the declaration's delta, so two declarations racing for the last of the quota are
// serialised on the annual order's row: the second sees what the first took and gets 409. The CHECK on
// annual_order (0 ≤ consumed ≤ quota) backs this up in the database.
//
// Pricing: the shared rating code (composeQuote, through products/quote.ts) on the product's ACTIVE rate table
// at the time: on create and save (so the contractor sees the premium) and again, authoritatively, at submit.
// The quote snapshot (rate-table id and version, inputs, band lines) is kept on the row.
//
// Changes keep their project's name and start, their end date must not reach back, they must change something,
// and what they hold of the quota is the positive part of their premium difference (holdOf).

import { earliestStart } from '@piibs/shared/application-status';
import type { QuoteResult } from '@piibs/shared/product';
import {
  CHANGE_FROM_PROJECT,
  changePeriodProblem,
  changesBetween,
  DECLARATION_EDITABLE,
  DECLARATION_KIND_LABELS,
  DECLARATION_STATUS_LABELS,
  type DeclarationAction,
  type DeclarationDetail,
  type DeclarationStatus,
  type declarationCreateForm,
  type declarationFields,
  declarationNext,
  type declarationSaveForm,
  holdOf,
  NOTHING_CHANGED,
  type ProjectValues,
  projectPeriodProblem,
  quotaDelta,
  quotaProblem,
} from '@piibs/shared/project-order';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { annualOrders, customers, secondaryOrders } from '../../db/schema.ts';
import { entityAudit } from '../../lib/audit.ts';
import { badRequest, conflict, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { quoteProduct } from '../products/quote.ts';
import { openReviewTask } from '../tasks/queue.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import {
  declarationsVisibleTo,
  declaresFor,
  isDeclarationOwner,
  type ProjectViewer,
  seeAllProjects,
} from './access.ts';
import { loadOrder } from './annual-order-queries.ts';
import {
  DECLARATION_NOT_FOUND,
  type Declaration,
  NOT_DECLARATION_OWNER,
  NOT_DECLARER,
  ORDER_CLOSED,
  ORDER_NOT_FOUND,
  type ProjectActor,
  serial,
  year,
} from './common.ts';
import { getDeclaration } from './declaration-queries.ts';

// ---- secondary orders: changes ----

type ProjectInput = z.infer<typeof declarationFields>;

/** Prices a project on the product's active rate table (a bad input answers 400 naming the field). */
async function priceProject(
  tx: Tx,
  p: ProjectViewer,
  productId: number,
  f: Pick<ProjectInput, 'projectCostFen' | 'highRisk'>,
): Promise<QuoteResult> {
  const caller = { viewer: seeAllProjects(p).viewer, canSeeDrafts: false };
  return quoteProduct(tx as unknown as Db, caller, productId, {
    projectCostFen: f.projectCostFen,
    highRisk: f.highRisk,
  });
}

const projectColumns = (f: ProjectInput, q: QuoteResult) => ({
  projectName: f.projectName,
  projectAddress: f.projectAddress,
  projectCostFen: f.projectCostFen,
  startDate: f.startDate,
  endDate: f.endDate,
  highRisk: f.highRisk,
  headcount: f.headcount ?? null,
  quote: q,
  rateTableId: q.rateTableId,
  premiumFen: q.premiumFen,
});

function checkPeriod(
  f: { startDate: string; endDate: string },
  order: { startDate: string; endDate: string },
) {
  const problem = projectPeriodProblem(f.startDate, f.endDate, order, earliestStart());
  if (problem) throw badRequest(problem);
}

/**
 * A change's project as it would stand (400 naming the field otherwise): the same name and start as the
 * project, an end date that does not reach back, and at least one field changed.
 */
export function checkChange(
  base: { projectName: string; startDate: string; values: ProjectValues },
  f: Pick<
    ProjectInput,
    'projectName' | 'projectAddress' | 'projectCostFen' | 'startDate' | 'endDate' | 'highRisk' | 'headcount'
  >,
): void {
  if (f.projectName !== base.projectName) throw fieldError('projectName', '批改不能变更工程名称', '工程名称');
  if (f.startDate !== base.startDate) throw fieldError('startDate', '批改不能变更开工日期', '开工日期');
  const problem = changePeriodProblem(f.startDate, f.endDate, earliestStart(), base.values.endDate);
  if (problem) throw badRequest(problem);
  const after = { ...f, headcount: f.headcount ?? null };
  if (changesBetween(base.values, after).length === 0) throw badRequest(NOTHING_CHANGED);
}

/** The project period (a new project) or the change (a change) of a declaration as saved or submitted. */
function checkDeclaration(d: Declaration, f: ProjectInput, order: { startDate: string; endDate: string }) {
  if (d.kind === 2)
    checkChange(
      { projectName: d.projectName, startDate: d.startDate, values: d.baseValues as ProjectValues },
      f,
    );
  else checkPeriod(f, order);
}

const auditDeclaration = entityAudit('secondary_order');

/**
 * Inside a declaration's insert: the order re-read under a share lock, so a close in progress is waited for and
 * a closed order refuses (409).
 */
async function checkOrderOpen(tx: Tx, orderId: number): Promise<void> {
  const [o] = await tx
    .select({ closedAt: annualOrders.closedAt })
    .from(annualOrders)
    .where(eq(annualOrders.id, orderId))
    .for('share');
  if (o?.closedAt) throw conflict(ORDER_CLOSED);
}

/** A new secondary order (DRAFT, priced) against an annual order the caller declares for. */
export async function createDeclaration(
  db: Db,
  actor: ProjectActor,
  orderId: number,
  form: z.infer<typeof declarationCreateForm>,
): Promise<DeclarationDetail> {
  if (form.kind !== 1) throw fieldError('kind', CHANGE_FROM_PROJECT, '申报类型');
  const order = await loadOrder(db, actor.project, orderId);
  if (!declaresFor(actor.project, { uscc: order.customerUscc, ownerId: order.customerOwnerId }))
    throw forbidden(NOT_DECLARER);
  if (order.closedAt) throw conflict(ORDER_CLOSED);
  checkPeriod(form, order);
  const id = await db.transaction((tx) => insertDeclaration(tx, actor, order, form));
  return getDeclaration(db, actor.project, id);
}

/**
 * Inserts a secondary order (DRAFT, priced on the active rate table) against an annual order that must still be
 * open, with its audit entry; answers its id. A new project (no `change`), or a change (kind 2) of the project
 * `change.baseId`, keeping the project's values as they stand (`base_values`) and the premium difference.
 */
export async function insertDeclaration(
  tx: Tx,
  actor: ProjectActor,
  order: { id: number; productId: number },
  input: ProjectInput,
  change?: { baseId: number; values: ProjectValues },
): Promise<number> {
  await checkOrderOpen(tx, order.id);
  const q = await priceProject(tx, actor.project, order.productId, input);
  const kind = change ? 2 : 1;
  const ofChange = change && {
    baseId: change.baseId,
    premiumDiffFen: q.premiumFen - change.values.premiumFen,
  };
  const [row] = await tx
    .insert(secondaryOrders)
    .values({
      number: `EC${year()}${await serial(tx, 'secondary_order_number_seq')}`,
      annualOrderId: order.id,
      kind,
      ...ofChange,
      ...(change && { baseValues: change.values }),
      ...projectColumns(input, q),
      ownerId: actor.user.id,
      agentId: actor.project.viewer.isAgent ? actor.user.id : null,
    })
    .returning({ id: secondaryOrders.id, number: secondaryOrders.number });
  await auditDeclaration(tx, actor, 'create', row!.id, {
    number: row!.number,
    annualOrderId: order.id,
    kind: DECLARATION_KIND_LABELS[kind],
    projectCostFen: input.projectCostFen,
    premiumFen: q.premiumFen,
    ...ofChange,
  });
  return row!.id;
}

/** Locks a secondary order the viewer may see (404 otherwise). */
async function lockDeclaration(tx: Tx, p: ProjectViewer, id: number): Promise<Declaration> {
  const [row] = await tx
    .select()
    .from(secondaryOrders)
    .where(and(eq(secondaryOrders.id, id), declarationsVisibleTo(tx as unknown as Db, p)))
    .for('update', { of: secondaryOrders });
  if (!row) throw notFound(DECLARATION_NOT_FOUND);
  return row;
}

/** Locks an annual order (after its secondary order: always in this order). */
export async function lockAnnualOrder(tx: Tx, id: number): Promise<typeof annualOrders.$inferSelect> {
  const [row] = await tx.select().from(annualOrders).where(eq(annualOrders.id, id)).for('update');
  if (!row) throw notFound(ORDER_NOT_FOUND);
  return row;
}

/** A change's premium difference against its project's premium when it was made; null for a new project. */
const diffOf = (d: Declaration, premiumFen: number): number | null =>
  d.kind === 2 ? premiumFen - (d.baseValues as ProjectValues).premiumFen : null;

/** Owner (403), then the transition (409), then the version (409); answers the next state. */
function checkTransition(
  d: Declaration,
  actor: ProjectActor,
  action: DeclarationAction,
  version: number,
): DeclarationStatus {
  if (!isDeclarationOwner(d, actor.user.id)) throw forbidden(NOT_DECLARATION_OWNER);
  const status = d.status as DeclarationStatus;
  const next = declarationNext(status, action);
  if (!next) throw conflict(`该申报当前状态为「${DECLARATION_STATUS_LABELS[status]}」，不能执行此操作`);
  if (d.version !== version) throw conflict(STALE_VERSION);
  return next;
}

/** Moves an annual order's consumed premium by `deltaFen` (under its lock); 409 when it does not fit. */
export async function moveQuota(
  tx: Tx,
  order: typeof annualOrders.$inferSelect,
  deltaFen: number,
): Promise<void> {
  if (deltaFen === 0) return;
  const problem = quotaProblem(order, deltaFen);
  if (problem) throw conflict(problem);
  await tx
    .update(annualOrders)
    .set({
      consumedFen: order.consumedFen + deltaFen,
      version: sql`${annualOrders.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(annualOrders.id, order.id));
}

/** Saves the project (DRAFT or RETURNED, by its owner, on the current version) and re-prices it. */
export async function saveDeclaration(
  db: Db,
  actor: ProjectActor,
  id: number,
  form: z.infer<typeof declarationSaveForm>,
): Promise<DeclarationDetail> {
  await db.transaction(async (tx) => {
    const d = await lockDeclaration(tx, actor.project, id);
    if (!isDeclarationOwner(d, actor.user.id)) throw forbidden(NOT_DECLARATION_OWNER);
    const status = d.status as DeclarationStatus;
    if (!DECLARATION_EDITABLE.includes(status))
      throw conflict(`该申报当前状态为「${DECLARATION_STATUS_LABELS[status]}」，不能修改`);
    if (d.version !== form.version) throw conflict(STALE_VERSION);
    const [order] = await tx.select().from(annualOrders).where(eq(annualOrders.id, d.annualOrderId));
    checkDeclaration(d, form, order!);
    const q = await priceProject(tx, actor.project, order!.productId, form);
    await tx
      .update(secondaryOrders)
      .set({
        ...projectColumns(form, q),
        premiumDiffFen: diffOf(d, q.premiumFen),
        version: sql`${secondaryOrders.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(secondaryOrders.id, id));
    await auditDeclaration(tx, actor, 'update', id, {
      before: { projectCostFen: d.projectCostFen, highRisk: d.highRisk, premiumFen: d.premiumFen },
      after: { projectCostFen: form.projectCostFen, highRisk: form.highRisk },
      premiumFen: q.premiumFen,
    });
  });
  return getDeclaration(db, actor.project, id);
}

/**
 * DRAFT / RETURNED → PENDING_REVIEW: the period checked again (no back-dating), re-priced on the ACTIVE rate
 * table, the premium reserved against the annual order under its row lock (409 「年度订单剩余额度不足…」 when it
 * does not fit), a tender review task opened.
 */
export async function submitDeclaration(
  db: Db,
  actor: ProjectActor,
  id: number,
  version: number,
): Promise<DeclarationDetail> {
  await db.transaction(async (tx) => {
    const d = await lockDeclaration(tx, actor.project, id);
    const next = checkTransition(d, actor, 'submit', version);
    const order = await lockAnnualOrder(tx, d.annualOrderId);
    if (order.closedAt) throw conflict(ORDER_CLOSED);
    checkDeclaration(d, d, order);
    const q = await priceProject(tx, actor.project, order.productId, d);
    const diff = diffOf(d, q.premiumFen);
    const hold = holdOf(q.premiumFen, diff);
    await moveQuota(tx, order, quotaDelta(next, d.reservedFen, hold));
    await tx
      .update(secondaryOrders)
      .set({
        quote: q,
        rateTableId: q.rateTableId,
        premiumFen: q.premiumFen,
        premiumDiffFen: diff,
        reservedFen: hold,
        status: next,
        submittedAt: sql`now()`,
        version: sql`${secondaryOrders.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(secondaryOrders.id, id));
    await auditDeclaration(tx, actor, 'submit', id, {
      before: { status: d.status, reservedFen: d.reservedFen },
      after: { status: next, reservedFen: hold },
      premiumFen: q.premiumFen,
      ...(diff == null ? {} : { premiumDiffFen: diff }),
      rateTableId: q.rateTableId,
      rateTableVersion: q.rateTableVersion,
    });
    const [customer] = await tx
      .select({ name: customers.name })
      .from(customers)
      .where(eq(customers.id, order.customerId));
    await openReviewTask(tx, {
      kind: 'tender',
      subjectId: id,
      title: `${d.number} ${d.kind === 2 ? '【批改】' : ''}${d.projectName}（${customer?.name ?? ''}）`,
      submittedBy: actor.user.id,
    });
  });
  return getDeclaration(db, actor.project, id);
}

/** DRAFT / RETURNED → CANCELLED by the owner; what it held of the quota is released. */
export async function cancelDeclaration(
  db: Db,
  actor: ProjectActor,
  id: number,
  version: number,
): Promise<DeclarationDetail> {
  await db.transaction(async (tx) => {
    const d = await lockDeclaration(tx, actor.project, id);
    const next = checkTransition(d, actor, 'cancel', version);
    const order = await lockAnnualOrder(tx, d.annualOrderId);
    await moveQuota(tx, order, quotaDelta(next, d.reservedFen, d.premiumFen));
    await tx
      .update(secondaryOrders)
      .set({
        status: next,
        reservedFen: 0,
        version: sql`${secondaryOrders.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(secondaryOrders.id, id));
    await auditDeclaration(tx, actor, 'cancel', id, {
      before: { status: d.status, reservedFen: d.reservedFen },
      after: { status: next, reservedFen: 0 },
    });
  });
  return getDeclaration(db, actor.project, id);
}
