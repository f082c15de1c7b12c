// Reading secondary orders (二次下单申报, new projects and changes): one with its timeline, endorsement and
// policies, the paged, filtered and sorted list, and the export's columns.

import { shanghaiToday } from '@piibs/shared/application-status';
import { actorText, SYSTEM_ACTOR } from '@piibs/shared/audit-text';
import { formatTime } from '@piibs/shared/constants';
import { fenToYuanText } from '@piibs/shared/money';
import type { QuoteResult } from '@piibs/shared/product';
import {
  DECLARATION_EDITABLE,
  DECLARATION_EVENT_LABELS,
  DECLARATION_KIND_LABELS,
  type DECLARATION_SORT_FIELDS,
  DECLARATION_STATUS_LABELS,
  type DeclarationDetail,
  type DeclarationEvent,
  type DeclarationRow,
  type DeclarationRowAction,
  type DeclarationStatus,
  type ProjectValues,
} from '@piibs/shared/project-order';
import { and, asc, count, eq, getTableColumns, gte, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { annualOrders, auditLog, customers, policies, secondaryOrders } from '../../db/schema.ts';
import { actorNameOf } from '../../lib/audit.ts';
import { notFound } from '../../lib/errors.ts';
import { blurry } from '../../lib/filters.ts';
import type { ListSpec, SortColumns } from '../../lib/paging.ts';
import type { XlsxColumn } from '../../lib/xlsx.ts';
import {
  declarationsVisibleTo,
  declaresFor,
  isDeclarationOwner,
  type ProjectViewer,
  seeAllProjects,
} from './access.ts';
import { loadOrder, toOrderRow } from './annual-order-queries.ts';
import { DECLARATION_NOT_FOUND, iso } from './common.ts';
import { endorsementOfChange, endorsementsOfProject } from './endorsements.ts';

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
    shanghaiToday() <= d.endDate &&
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
      actor: actorNameOf(auditLog.actorId, auditLog.actorName),
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
      actor: actorText(SYSTEM_ACTOR),
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
      actor: actorText(SYSTEM_ACTOR),
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

export const DECLARATION_EXPORT_COLUMNS: XlsxColumn<DeclarationRow>[] = [
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
  { header: '工程造价（元）', value: (r) => fenToYuanText(r.projectCostFen) },
  { header: '危大工程', value: (r) => (r.highRisk ? '是' : '否') },
  { header: '开工日期', value: (r) => r.startDate },
  { header: '竣工日期', value: (r) => r.endDate },
  { header: '保费（元）', value: (r) => fenToYuanText(r.premiumFen) },
  {
    header: '保费差额（元）',
    value: (r) => (r.premiumDiffFen == null ? null : fenToYuanText(r.premiumDiffFen)),
  },
  { header: '状态', value: (r) => r.statusLabel },
  { header: '审核意见', width: 30, value: (r) => r.reviewOpinion },
  { header: '保单号', width: 20, value: (r) => r.policyNumber },
  { header: '申报人', value: (r) => r.ownerName },
  { header: '提交时间', width: 20, value: (r) => (r.submittedAt ? formatTime(r.submittedAt) : null) },
];
