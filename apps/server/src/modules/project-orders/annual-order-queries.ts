// Reading annual orders (年度订单): one with its quota, what is consumed and its declared projects' policies, the
// paged, filtered and sorted list, and the export's columns.

import { maskPhone } from '@piibs/shared';
import { shanghaiToday } from '@piibs/shared/application-status';
import { formatTime } from '@piibs/shared/constants';
import { fenToYuanText } from '@piibs/shared/money';
import {
  type ANNUAL_ORDER_SORT_FIELDS,
  ANNUAL_ORDER_STATE_LABELS,
  type AnnualOrderDetail,
  type AnnualOrderRow,
  annualOrderState,
  type ProjectPolicyRow,
} from '@piibs/shared/project-order';
import { and, count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { annualOrders, customers, policies, products, secondaryOrders, users } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { blurry } from '../../lib/filters.ts';
import type { ListSpec, SortColumns } from '../../lib/paging.ts';
import type { XlsxColumn } from '../../lib/xlsx.ts';
import { annualOrdersVisibleTo, declaresFor, type ProjectViewer } from './access.ts';
import { iso, num, ORDER_NOT_FOUND } from './common.ts';

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

export function toOrderRow(r: RawOrder, day = shanghaiToday()): AnnualOrderRow {
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
  const open = shanghaiToday() < r.endDate && !r.closedAt;
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
      const day = shanghaiToday();
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

// ---- exports ----

export const ORDER_EXPORT_COLUMNS: XlsxColumn<AnnualOrderRow>[] = [
  { header: '年度订单号', width: 18, value: (r) => r.number },
  { header: '施工企业', width: 30, value: (r) => r.customerName },
  { header: '统一社会信用代码', width: 22, value: (r) => r.customerUscc },
  { header: '险种', width: 28, value: (r) => r.productName },
  { header: '起始日期', value: (r) => r.startDate },
  { header: '终止日期', value: (r) => r.endDate },
  { header: '状态', value: (r) => r.stateLabel },
  { header: '保费额度（元）', value: (r) => fenToYuanText(r.quotaFen) },
  { header: '已占用（元）', value: (r) => fenToYuanText(r.consumedFen) },
  { header: '剩余额度（元）', value: (r) => fenToYuanText(r.remainingFen) },
  { header: '已申报项目', value: (r) => r.declaredCount },
  { header: '已承保项目', value: (r) => r.approvedCount },
  { header: '创建时间', width: 20, value: (r) => formatTime(r.createdAt) },
];
