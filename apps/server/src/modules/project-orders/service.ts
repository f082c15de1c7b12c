// Project insurance: annual orders (年度订单) and the secondary orders (二次下单) declared against them.
// Rules and states: @piibs/shared/project-order.
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
// Changes (批改, kind 2; made in changes.ts) are saved, submitted and cancelled here like new projects: their
// name and start stay, their end date must not reach back, they must change something, and what they hold of
// the quota is the positive part of their premium difference (holdOf). The reviewer's decision: review.ts.
import { maskPhone } from '@piibs/shared';
import { earliestStart } from '@piibs/shared/application-status';
import { formatTime } from '@piibs/shared/constants';
import { fenToYuanText } from '@piibs/shared/money';
import type { QuoteResult } from '@piibs/shared/product';
import {
  type ANNUAL_ORDER_SORT_FIELDS,
  ANNUAL_ORDER_STATE_LABELS,
  type AnnualOrderDetail,
  type AnnualOrderRow,
  type annualOrderCreateForm,
  annualOrderState,
  CHANGE_FROM_PROJECT,
  changePeriodProblem,
  changesBetween,
  DECLARATION_EDITABLE,
  DECLARATION_EVENT_LABELS,
  DECLARATION_KIND_LABELS,
  type DECLARATION_SORT_FIELDS,
  DECLARATION_STATUS_LABELS,
  type DeclarationAction,
  type DeclarationDetail,
  type DeclarationEvent,
  type DeclarationRow,
  type DeclarationRowAction,
  type DeclarationStatus,
  type declarationCreateForm,
  type declarationFields,
  declarationNext,
  type declarationSaveForm,
  holdOf,
  NOTHING_CHANGED,
  type ProjectPolicyRow,
  type ProjectValues,
  projectPeriodProblem,
  quotaDelta,
  quotaProblem,
} from '@piibs/shared/project-order';
import { and, asc, count, desc, eq, getTableColumns, gte, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import {
  annualOrders,
  auditLog,
  customers,
  policies,
  products,
  rateTables,
  secondaryOrders,
  users,
} from '../../db/schema.ts';
import { type Actor, auditAction, entityAudit } from '../../lib/audit.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { blurry, type ListSpec, type SortColumns } from '../../lib/paging.ts';
import { getCustomer } from '../customers/service.ts';
import { quoteProduct } from '../products/quote.ts';
import { getProduct, today } from '../products/service.ts';
import { openReviewTask } from '../tasks/queue.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import {
  annualOrdersVisibleTo,
  declarationsVisibleTo,
  declaresFor,
  isDeclarationOwner,
  type ProjectViewer,
  seeAllProjects,
} from './access.ts';
import { endorsementOfChange, endorsementsOfProject } from './endorsements.ts';

type Declaration = typeof secondaryOrders.$inferSelect;

export const ORDER_NOT_FOUND = '年度订单不存在';
export const DECLARATION_NOT_FOUND = '二次下单申报不存在';
export const NOT_DECLARER = '只有该年度订单的施工企业（或其代理人）可以申报项目';
export const ORDER_CLOSED = '该年度订单已关闭，不能再申报项目或批改';
const NOT_DECLARATION_OWNER = '只有申报人（或其代理人）可以修改该申报';

/** The caller of a change: who, from where and what they may see. */
export interface ProjectActor extends Actor {
  project: ProjectViewer;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;
const num = (v: unknown) => Number(v ?? 0);

// ---- annual orders: reading ----

const creator = alias(users, 'annual_order_creator');

const orderColumns = {
  ...getTableColumns(annualOrders),
  customerName: customers.name,
  customerUscc: customers.uscc,
  customerOwnerId: customers.ownerId,
  productCode: products.code,
  productName: products.name,
  createdByName: sql<string | null>`coalesce(${creator.nickName}, ${creator.username})`,
  declaredCount: sql<number>`(select count(*)::int from secondary_order s
    where s.annual_order_id = "annual_order"."id" and s.kind = 1 and s.status not in ('DRAFT', 'CANCELLED'))`,
  approvedCount: sql<number>`(select count(*)::int from secondary_order s
    where s.annual_order_id = "annual_order"."id" and s.kind = 1 and s.status = 'APPROVED')`,
  approvedCostFen: sql<string>`(select coalesce(sum(s.project_cost_fen), 0)::text from secondary_order s
    where s.annual_order_id = "annual_order"."id" and s.kind = 1 and s.status = 'APPROVED')`,
  openCount: sql<number>`(select count(*)::int from secondary_order s
    where s.annual_order_id = "annual_order"."id" and s.status in ('DRAFT', 'PENDING_REVIEW', 'RETURNED'))`,
  applicationNumber: sql<string | null>`(select a.number from application a
    where a.id = "annual_order"."application_id")`,
  sourcePolicyId: sql<string | null>`(select p.id::text from policy p
    where p.application_id = "annual_order"."application_id")`,
  sourcePolicyNumber: sql<string | null>`(select p.number from policy p
    where p.application_id = "annual_order"."application_id")`,
};

const selectOrders = (db: Db | Tx) =>
  db
    .select(orderColumns)
    .from(annualOrders)
    .innerJoin(customers, eq(customers.id, annualOrders.customerId))
    .innerJoin(products, eq(products.id, annualOrders.productId))
    .leftJoin(creator, eq(creator.id, annualOrders.createdBy));
type RawOrder = Awaited<ReturnType<typeof selectOrders>>[number];

function toOrderRow(r: RawOrder, day = today()): AnnualOrderRow {
  const state = annualOrderState(r, day);
  return {
    id: r.id,
    number: r.number,
    customerId: r.customerId,
    customerName: r.customerName,
    customerUscc: r.customerUscc,
    productId: r.productId,
    productCode: r.productCode,
    productName: r.productName,
    startDate: r.startDate,
    endDate: r.endDate,
    state,
    stateLabel: ANNUAL_ORDER_STATE_LABELS[state],
    quotaFen: r.quotaFen,
    consumedFen: r.consumedFen,
    remainingFen: r.quotaFen - r.consumedFen,
    declaredCount: num(r.declaredCount),
    approvedCount: num(r.approvedCount),
    approvedCostFen: num(r.approvedCostFen),
    note: r.note,
    contactName: r.contactName,
    // Masked wherever an order is shown or exported; the full number is the customer's (unmask there).
    contactPhone: maskPhone(r.contactPhone),
    applicationId: r.applicationId,
    applicationNumber: r.applicationNumber,
    closedAt: iso(r.closedAt),
    createdBy: r.createdByName,
    createdAt: r.createdAt.toISOString(),
    version: r.version,
  };
}

export async function loadOrder(db: Db | Tx, p: ProjectViewer, id: number): Promise<RawOrder> {
  const [row] = await selectOrders(db).where(
    and(eq(annualOrders.id, id), annualOrdersVisibleTo(db as Db, p)),
  );
  if (!row) throw notFound(ORDER_NOT_FOUND);
  return row;
}

/** The policies issued under an annual order, newest first. */
async function policiesOf(db: Db | Tx, orderId: number): Promise<ProjectPolicyRow[]> {
  const rows = await db
    .select({
      policyId: policies.id,
      number: policies.number,
      declarationId: secondaryOrders.id,
      projectName: secondaryOrders.projectName,
      premiumFen: policies.premiumFen,
      startDate: policies.startDate,
      endDate: policies.endDate,
      issuedAt: policies.issuedAt,
    })
    .from(secondaryOrders)
    .innerJoin(policies, eq(policies.applicationId, secondaryOrders.applicationId))
    .where(eq(secondaryOrders.annualOrderId, orderId))
    .orderBy(desc(policies.issuedAt), desc(policies.id));
  return rows.map((r) => ({ ...r, issuedAt: r.issuedAt.toISOString() }));
}

/** One annual order the viewer may see (404 otherwise), with what they may do and its policies. */
export async function getAnnualOrder(
  db: Db,
  p: ProjectViewer,
  id: number,
  canApply: boolean,
): Promise<AnnualOrderDetail> {
  const r = await loadOrder(db, p, id);
  const row = toOrderRow(r);
  const open = today() < r.endDate && !r.closedAt;
  return {
    ...row,
    canDeclare: canApply && open && declaresFor(p, { uscc: r.customerUscc, ownerId: r.customerOwnerId }),
    sourcePolicyId: r.sourcePolicyId == null ? null : Number(r.sourcePolicyId),
    sourcePolicyNumber: r.sourcePolicyNumber,
    openCount: num(r.openCount),
    policies: await policiesOf(db, id),
  };
}

export interface AnnualOrderFilter {
  customerId?: number | undefined;
  applicationId?: number | undefined;
  blurry?: string | undefined;
}

type OrderSortField = (typeof ANNUAL_ORDER_SORT_FIELDS)[number];
const orderSortColumns: SortColumns<OrderSortField> = {
  id: annualOrders.id,
  number: annualOrders.number,
  startDate: annualOrders.startDate,
  createdAt: annualOrders.createdAt,
  quotaFen: annualOrders.quotaFen,
};

/** The annual orders the viewer may see, newest first. */
export function annualOrderListSpec(
  db: Db,
  p: ProjectViewer,
  f: AnnualOrderFilter,
): ListSpec<OrderSortField, AnnualOrderRow> {
  const where = and(
    annualOrdersVisibleTo(db, p),
    f.customerId ? eq(annualOrders.customerId, f.customerId) : undefined,
    f.applicationId ? eq(annualOrders.applicationId, f.applicationId) : undefined,
    blurry(f.blurry, annualOrders.number, customers.name, customers.uscc),
  );
  return {
    columns: orderSortColumns,
    defaultOrder: [sql`${annualOrders.id} desc`],
    fetch: async ({ limit, offset, orderBy }) => {
      const day = today();
      return (
        await selectOrders(db)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset)
      ).map((r) => toOrderRow(r, day));
    },
    count: async () =>
      (
        await db
          .select({ n: count() })
          .from(annualOrders)
          .innerJoin(customers, eq(customers.id, annualOrders.customerId))
          .where(where)
      )[0]?.n ?? 0,
  };
}

// ---- annual orders: opening one ----

export const year = () => formatTime(Date.now(), '{y}');

export async function serial(tx: Tx, sequence: string): Promise<string> {
  const res = await tx.execute<{ n: string }>(sql`select nextval(${sequence}::regclass)::text as n`);
  return res.rows[0]!.n.padStart(6, '0');
}

/** The product an annual order may be opened on: enabled, construction, with an active rate table (400). */
export async function checkOrderProduct(db: Db | Tx, productId: number): Promise<void> {
  const product = await getProduct(db as Db, productId);
  if (product.productClass !== 'construction') throw badRequest('险种：年度订单须选择建筑工程类险种');
  if (!product.enabled) throw badRequest('险种：险种已停用');
  const [table] = await db
    .select({ id: rateTables.id })
    .from(rateTables)
    .where(and(eq(rateTables.productId, product.id), eq(rateTables.status, 'active')));
  if (!table) throw badRequest('险种：该险种尚无生效的费率表');
}

export interface NewAnnualOrder {
  customerId: number;
  productId: number;
  startDate: string;
  endDate: string;
  quotaFen: number;
  note: string | null;
  contactName: string | null;
  contactPhone: string | null;
  applicationId?: number;
}

/** Inserts an annual order (numbered ND + year + serial) with its audit entry; answers its id. */
export async function insertAnnualOrder(tx: Tx, actor: Actor, o: NewAnnualOrder): Promise<number> {
  const [row] = await tx
    .insert(annualOrders)
    .values({
      number: `ND${year()}${await serial(tx, 'annual_order_number_seq')}`,
      ...o,
      createdBy: actor.user.id,
    })
    .returning();
  await auditAction(tx, actor, {
    action: 'create',
    entity: 'annual_order',
    entityId: row!.id,
    detail: {
      number: row!.number,
      customerId: o.customerId,
      productId: o.productId,
      period: [o.startDate, o.endDate],
      quotaFen: o.quotaFen,
      ...(o.applicationId ? { applicationId: o.applicationId } : {}),
    },
  });
  return row!.id;
}

/**
 * Staff open an annual order for an approved customer they may see, on an enabled construction product with an
 * active rate table. The period runs up to a year and must not have ended.
 */
export async function createAnnualOrder(
  db: Db,
  actor: ProjectActor,
  form: z.infer<typeof annualOrderCreateForm>,
): Promise<AnnualOrderDetail> {
  const customer = await getCustomer(db, actor.project.viewer, form.customerId);
  if (customer.reviewStatus !== 'approved') throw badRequest('施工企业（投保人）：尚未审核通过');
  await checkOrderProduct(db, form.productId);
  if (form.endDate < today()) throw badRequest('终止日期：不能早于今天');
  const [contact] = await db
    .select({ name: customers.contactName, phone: customers.phone })
    .from(customers)
    .where(eq(customers.id, customer.id));
  const id = await db.transaction((tx) =>
    insertAnnualOrder(tx, actor, {
      customerId: customer.id,
      productId: form.productId,
      startDate: form.startDate,
      endDate: form.endDate,
      quotaFen: form.quotaFen,
      note: form.note ?? null,
      contactName: contact?.name ?? null,
      contactPhone: contact?.phone ?? null,
    }),
  );
  return getAnnualOrder(db, seeAllProjects(actor.project), id, false);
}

// ---- secondary orders: reading ----

/** A change's project (the kind-1 declaration it changes). */
const baseDeclaration = alias(secondaryOrders, 'base_order');

const declarationColumns = {
  ...getTableColumns(secondaryOrders),
  annualOrderNumber: annualOrders.number,
  orderClosedAt: annualOrders.closedAt,
  baseNumber: baseDeclaration.number,
  customerName: customers.name,
  customerUscc: customers.uscc,
  customerOwnerId: customers.ownerId,
  ownerName: sql<string | null>`(select coalesce(u.nick_name, u.username) from app_user u
    where u.id = "secondary_order"."owner_id")`,
  policyId: policies.id,
  policyNumber: policies.number,
  policyIssuedAt: policies.issuedAt,
  openTaskId: sql<number | null>`(select t.id from review_task t where t.kind = 'tender'
    and t.subject_id = "secondary_order"."id" and t.status = 'open')`,
  openChangeId: sql<string | null>`(select c.id::text from secondary_order c
    where c.base_id = "secondary_order"."id" and c.status in ('DRAFT', 'PENDING_REVIEW', 'RETURNED'))`,
};

/** Declarations with their order, contractor and policy (a change shows its project's policy). */
const selectDeclarations = (db: Db | Tx) =>
  db
    .select(declarationColumns)
    .from(secondaryOrders)
    .innerJoin(annualOrders, eq(annualOrders.id, secondaryOrders.annualOrderId))
    .innerJoin(customers, eq(customers.id, annualOrders.customerId))
    .leftJoin(baseDeclaration, eq(baseDeclaration.id, secondaryOrders.baseId))
    .leftJoin(
      policies,
      eq(
        policies.applicationId,
        sql`coalesce(${baseDeclaration.applicationId}, ${secondaryOrders.applicationId})`,
      ),
    );
type RawDeclaration = Awaited<ReturnType<typeof selectDeclarations>>[number];

/**
 * What the caller may do: the declarer edits, submits and cancels a draft or returned one; the contractor's side
 * starts a change of an approved project whose policy is issued, with no change open, on an open order.
 */
function actionsOf(d: RawDeclaration, p: ProjectViewer): DeclarationRowAction[] {
  const out: DeclarationRowAction[] = [];
  if (isDeclarationOwner(d, p.viewer.user.id) && DECLARATION_EDITABLE.includes(d.status as DeclarationStatus))
    out.push('edit', 'submit', 'cancel');
  if (
    d.kind === 1 &&
    d.status === 'APPROVED' &&
    d.policyId &&
    !d.openChangeId &&
    !d.orderClosedAt &&
    today() <= d.endDate &&
    declaresFor(p, { uscc: d.customerUscc, ownerId: d.customerOwnerId })
  )
    out.push('change');
  return out;
}

function toDeclarationRow(r: RawDeclaration, p: ProjectViewer): DeclarationRow {
  const status = r.status as DeclarationStatus;
  return {
    id: r.id,
    number: r.number,
    annualOrderId: r.annualOrderId,
    annualOrderNumber: r.annualOrderNumber,
    customerName: r.customerName,
    kind: r.kind,
    baseId: r.baseId,
    baseNumber: r.baseNumber,
    premiumDiffFen: r.premiumDiffFen,
    projectName: r.projectName,
    projectAddress: r.projectAddress,
    projectCostFen: r.projectCostFen,
    startDate: r.startDate,
    endDate: r.endDate,
    highRisk: r.highRisk,
    headcount: r.headcount,
    premiumFen: r.premiumFen,
    reservedFen: r.reservedFen,
    status,
    statusLabel: DECLARATION_STATUS_LABELS[status],
    reviewOpinion: r.reviewOpinion,
    ownerName: r.ownerName,
    submittedAt: iso(r.submittedAt),
    decidedAt: iso(r.decidedAt),
    createdAt: r.createdAt.toISOString(),
    version: r.version,
    policyId: r.policyId,
    policyNumber: r.policyNumber,
    openTaskId: r.openTaskId == null ? null : Number(r.openTaskId),
    actions: actionsOf(r, p),
  };
}

/** The declaration's history from the audit trail (and its policy's issue), oldest first. */
async function eventsOf(db: Db | Tx, r: RawDeclaration): Promise<DeclarationEvent[]> {
  const rows = await db
    .select({
      at: auditLog.createdAt,
      actor: auditLog.actorName,
      action: auditLog.action,
      detail: auditLog.detail,
    })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'secondary_order'), eq(auditLog.entityId, String(r.id))))
    .orderBy(asc(auditLog.id));
  const events: DeclarationEvent[] = rows.map((e) => {
    const detail = (e.detail ?? {}) as { opinion?: unknown; premiumFen?: unknown };
    return {
      at: e.at.toISOString(),
      actor: e.actor,
      action: e.action,
      actionLabel: DECLARATION_EVENT_LABELS[e.action] ?? e.action,
      opinion: typeof detail.opinion === 'string' ? detail.opinion : null,
      premiumFen: typeof detail.premiumFen === 'number' ? detail.premiumFen : null,
    };
  });
  if (r.kind === 1 && r.policyId && r.policyIssuedAt)
    events.push({
      at: r.policyIssuedAt.toISOString(),
      actor: 'system',
      action: 'issue',
      actionLabel: DECLARATION_EVENT_LABELS.issue!,
      opinion: `保单号 ${r.policyNumber}`,
      premiumFen: null,
    });
  return events;
}

/** One secondary order the viewer may see (404 otherwise), with its quote, annual order and history. */
export async function getDeclaration(db: Db | Tx, p: ProjectViewer, id: number): Promise<DeclarationDetail> {
  const [r] = await selectDeclarations(db).where(
    and(eq(secondaryOrders.id, id), declarationsVisibleTo(db as Db, p)),
  );
  if (!r) throw notFound(DECLARATION_NOT_FOUND);
  const [order, events, endorsement, endorsements] = await Promise.all([
    loadOrder(db, seeAllProjects(p), r.annualOrderId),
    eventsOf(db, r),
    r.kind === 2 ? endorsementOfChange(db, r.id) : null,
    r.kind === 1 ? endorsementsOfProject(db, r.id) : [],
  ]);
  if (endorsement)
    events.push({
      at: endorsement.issuedAt,
      actor: 'system',
      action: 'endorsement',
      actionLabel: DECLARATION_EVENT_LABELS.endorsement!,
      opinion: `批单号 ${endorsement.number}`,
      premiumFen: null,
    });
  return {
    ...toDeclarationRow(r, p),
    quote: r.quote as QuoteResult,
    order: toOrderRow(order),
    events,
    base: (r.baseValues as ProjectValues | null) ?? null,
    endorsement,
    endorsements,
    openChangeId: r.openChangeId == null ? null : Number(r.openChangeId),
  };
}

export interface DeclarationFilter {
  orderId?: number | undefined;
  status?: DeclarationStatus | undefined;
  blurry?: string | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

type DeclarationSortField = (typeof DECLARATION_SORT_FIELDS)[number];
const declarationSortColumns: SortColumns<DeclarationSortField> = {
  id: secondaryOrders.id,
  number: secondaryOrders.number,
  createdAt: secondaryOrders.createdAt,
  submittedAt: secondaryOrders.submittedAt,
  premiumFen: secondaryOrders.premiumFen,
};

/** The secondary orders the viewer may see (of one annual order, or all), newest first. */
export function declarationListSpec(
  db: Db,
  p: ProjectViewer,
  f: DeclarationFilter,
): ListSpec<DeclarationSortField, DeclarationRow> {
  const where = and(
    declarationsVisibleTo(db, p),
    f.orderId ? eq(secondaryOrders.annualOrderId, f.orderId) : undefined,
    f.status ? eq(secondaryOrders.status, f.status) : undefined,
    blurry(f.blurry, secondaryOrders.number, secondaryOrders.projectName, customers.name),
    f.startTime ? gte(secondaryOrders.createdAt, f.startTime) : undefined,
    f.endTime ? lte(secondaryOrders.createdAt, f.endTime) : undefined,
  );
  return {
    columns: declarationSortColumns,
    defaultOrder: [sql`${secondaryOrders.id} desc`],
    fetch: async ({ limit, offset, orderBy }) =>
      (
        await selectDeclarations(db)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset)
      ).map((r) => toDeclarationRow(r, p)),
    count: async () =>
      (
        await db
          .select({ n: count() })
          .from(secondaryOrders)
          .innerJoin(annualOrders, eq(annualOrders.id, secondaryOrders.annualOrderId))
          .innerJoin(customers, eq(customers.id, annualOrders.customerId))
          .where(where)
      )[0]?.n ?? 0,
  };
}

// ---- secondary orders: changes ----

type ProjectInput = z.infer<typeof declarationFields>;

/** Prices a project on the product's active rate table (a bad input answers 400 naming the field). */
export async function priceProject(
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

export const projectColumns = (f: ProjectInput, q: QuoteResult) => ({
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
  if (f.projectName !== base.projectName) throw badRequest('工程名称：批改不能变更工程名称');
  if (f.startDate !== base.startDate) throw badRequest('开工日期：批改不能变更开工日期');
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

export const auditDeclaration = entityAudit('secondary_order');

/**
 * Inside a declaration's insert: the order re-read under a share lock, so a close in progress is waited for and
 * a closed order refuses (409).
 */
export async function checkOrderOpen(tx: Tx, orderId: number): Promise<void> {
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
  if (form.kind !== 1) throw badRequest(`申报类型：${CHANGE_FROM_PROJECT}`);
  const order = await loadOrder(db, actor.project, orderId);
  if (!declaresFor(actor.project, { uscc: order.customerUscc, ownerId: order.customerOwnerId }))
    throw forbidden(NOT_DECLARER);
  if (order.closedAt) throw conflict(ORDER_CLOSED);
  checkPeriod(form, order);
  const id = await db.transaction(async (tx) => {
    await checkOrderOpen(tx, order.id);
    const q = await priceProject(tx, actor.project, order.productId, form);
    const [row] = await tx
      .insert(secondaryOrders)
      .values({
        number: `EC${year()}${await serial(tx, 'secondary_order_number_seq')}`,
        annualOrderId: order.id,
        kind: form.kind,
        ...projectColumns(form, q),
        ownerId: actor.user.id,
        agentId: actor.project.viewer.isAgent ? actor.user.id : null,
      })
      .returning({ id: secondaryOrders.id, number: secondaryOrders.number });
    await auditDeclaration(tx, actor, 'create', row!.id, {
      number: row!.number,
      annualOrderId: order.id,
      kind: DECLARATION_KIND_LABELS[form.kind],
      projectCostFen: form.projectCostFen,
      premiumFen: q.premiumFen,
    });
    return row!.id;
  });
  return getDeclaration(db, actor.project, id);
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

// ---- exports ----

type Column<T> = { header: string; width?: number; value: (r: T) => string | number | null };
const yuanCell = (fen: number) => fenToYuanText(fen);

export const ORDER_EXPORT_COLUMNS: Column<AnnualOrderRow>[] = [
  { header: '年度订单号', width: 18, value: (r) => r.number },
  { header: '施工企业', width: 30, value: (r) => r.customerName },
  { header: '统一社会信用代码', width: 22, value: (r) => r.customerUscc },
  { header: '险种', width: 28, value: (r) => r.productName },
  { header: '起始日期', value: (r) => r.startDate },
  { header: '终止日期', value: (r) => r.endDate },
  { header: '状态', value: (r) => r.stateLabel },
  { header: '保费额度（元）', value: (r) => yuanCell(r.quotaFen) },
  { header: '已占用（元）', value: (r) => yuanCell(r.consumedFen) },
  { header: '剩余额度（元）', value: (r) => yuanCell(r.remainingFen) },
  { header: '已申报项目', value: (r) => r.declaredCount },
  { header: '已承保项目', value: (r) => r.approvedCount },
  { header: '创建时间', width: 20, value: (r) => formatTime(r.createdAt) },
];

export const DECLARATION_EXPORT_COLUMNS: Column<DeclarationRow>[] = [
  { header: '申报单号', width: 18, value: (r) => r.number },
  { header: '年度订单号', width: 18, value: (r) => r.annualOrderNumber },
  {
    header: '申报类型',
    width: 14,
    value: (r) => DECLARATION_KIND_LABELS[r.kind === 2 ? 2 : 1],
  },
  { header: '批改项目', width: 18, value: (r) => r.baseNumber },
  { header: '施工企业', width: 30, value: (r) => r.customerName },
  { header: '工程名称', width: 30, value: (r) => r.projectName },
  { header: '工程地址', width: 30, value: (r) => r.projectAddress },
  { header: '工程造价（元）', value: (r) => yuanCell(r.projectCostFen) },
  { header: '危大工程', value: (r) => (r.highRisk ? '是' : '否') },
  { header: '开工日期', value: (r) => r.startDate },
  { header: '竣工日期', value: (r) => r.endDate },
  { header: '保费（元）', value: (r) => yuanCell(r.premiumFen) },
  {
    header: '保费差额（元）',
    value: (r) => (r.premiumDiffFen == null ? null : yuanCell(r.premiumDiffFen)),
  },
  { header: '状态', value: (r) => r.statusLabel },
  { header: '审核意见', width: 30, value: (r) => r.reviewOpinion },
  { header: '保单号', width: 20, value: (r) => r.policyNumber },
  { header: '申报人', value: (r) => r.ownerName },
  { header: '提交时间', width: 20, value: (r) => (r.submittedAt ? formatTime(r.submittedAt) : null) },
];
