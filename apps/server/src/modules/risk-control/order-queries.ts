// Reading service orders (服务单): one with its hazards, complaints, timeline and the plan's fund; the paged,
// filtered and sorted list of what the caller may see; and an enterprise's service archive (xlsx).

import { shanghaiToday } from '@piibs/shared/application-status';
import { formatTime } from '@piibs/shared/constants';
import { fenToYuanText } from '@piibs/shared/money';
import {
  COMPLAINABLE,
  type ComplaintRow,
  HAZARD_LEVEL_LABELS,
  HAZARD_STATUS_LABELS,
  type HazardLevel,
  type HazardRow,
  type HazardStatus,
  type OrderEventRow,
  type Party,
  RATEABLE,
  RECORD_EDITABLE,
  RECTIFIABLE,
  SERVICE_ITEM_LABELS,
  SERVICE_ORDER_NUMBER,
  type SERVICE_ORDER_SORT_FIELDS,
  SERVICE_ORDER_STATUS_LABELS,
  type ServiceItemType,
  type ServiceOrderDetail,
  type ServiceOrderRow,
  type ServiceOrderStatus,
  serviceOrderActionsFor,
} from '@piibs/shared/risk-control';
import { and, asc, count, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  policies,
  preventionFunds,
  serviceComplaints,
  serviceHazards,
  serviceOrderEvents,
  serviceOrders,
  serviceOrgs,
} from '../../db/schema.ts';
import { actorNameOf } from '../../lib/audit.ts';
import { notFound } from '../../lib/errors.ts';
import { blurry } from '../../lib/filters.ts';
import { type ListSpec, listSource, pageFrom, type SortColumns } from '../../lib/paging.ts';
import type { XlsxColumn } from '../../lib/xlsx.ts';
import { enterpriseSeesPolicy, ordersVisibleTo, type PreventionViewer } from './access.ts';
import { fundSummaryOf } from './plans.ts';

export type Order = typeof serviceOrders.$inferSelect;

export const ORDER_NOT_FOUND = '服务单不存在';
export const HAZARD_NOT_FOUND = '隐患不存在';
export const COMPLAINT_NOT_FOUND = '投诉不存在';

const iso = (d: Date | null) => d?.toISOString() ?? null;
export const statusLabel = (s: string) => SERVICE_ORDER_STATUS_LABELS[s as ServiceOrderStatus] ?? s;

/** An order reference: its number (YF…-001) or its id. */
export function refCondition(ref: string): SQL {
  if (/^\d{1,15}$/.test(ref)) return eq(serviceOrders.id, Number(ref));
  if (SERVICE_ORDER_NUMBER.test(ref)) return eq(serviceOrders.number, ref);
  return sql`false`;
}

// ---- reading ----

/** An order's columns with its record, policy and organisation; the caller's part is added per request. */
const orderColumns = {
  order: serviceOrders,
  seqNo: preventionFunds.seqNo,
  policyNumber: policies.number,
  policyStartDate: policies.startDate,
  policyEndDate: policies.endDate,
  holderName: policies.holderName,
  holderUscc: policies.holderUscc,
  orgName: serviceOrgs.name,
  hazardCount: sql<number>`(select count(*)::int from service_hazard h where h.order_id = "service_order"."id")`,
  openHazardCount: sql<number>`(select count(*)::int from service_hazard h
    where h.order_id = "service_order"."id" and h.status = 'OPEN')`,
  openComplaint: sql<boolean>`exists (select 1 from service_complaint c
    where c.order_id = "service_order"."id" and c.status = 'OPEN')`,
  // The assigned persons' names, [id, name] pairs, read with the row (not in a statement of their own).
  personNames: sql<[number, string][]>`(select coalesce(jsonb_agg(jsonb_build_array(p.id, p.name)), '[]')
    from service_person p where p.id in (select jsonb_array_elements("service_order"."person_ids")::int))`,
};
/** Whether the caller sees the order as its enterprise (depends on the caller: rendered per request). */
const enterpriseSeesOrder = (db: Db | Tx, v: PreventionViewer) => ({
  enterpriseSees: sql<boolean>`${enterpriseSeesPolicy(db, v, serviceOrders.policyId)}`,
});
const selectOrders = (db: Db | Tx, v: PreventionViewer) =>
  db
    .select({ ...orderColumns, ...enterpriseSeesOrder(db, v) })
    .from(serviceOrders)
    .innerJoin(preventionFunds, eq(preventionFunds.id, serviceOrders.fundId))
    .innerJoin(policies, eq(policies.id, serviceOrders.policyId))
    .innerJoin(serviceOrgs, eq(serviceOrgs.id, serviceOrders.orgId));
type OrderRaw = Awaited<ReturnType<typeof selectOrders>>[number];
/** The list's select list and joins, rendered once (lib/paging.ts listSource). */
const ORDER_LIST = listSource<OrderRaw>(orderColumns, (select) =>
  select
    .from(serviceOrders)
    .innerJoin(preventionFunds, eq(preventionFunds.id, serviceOrders.fundId))
    .innerJoin(policies, eq(policies.id, serviceOrders.policyId))
    .innerJoin(serviceOrgs, eq(serviceOrgs.id, serviceOrders.orgId)),
);

/** The side the caller acts on for an order: its organisation first, then the enterprise, then staff. */
const rowParty = (v: PreventionViewer, r: { order: Order; enterpriseSees: boolean }): Party =>
  v.orgId != null && r.order.orgId === v.orgId ? 'org' : r.enterpriseSees ? 'enterprise' : 'insurer';

function toOrderRow(v: PreventionViewer, r: OrderRaw): ServiceOrderRow {
  const o = r.order;
  const names = new Map(r.personNames);
  const status = o.status as ServiceOrderStatus;
  const party = rowParty(v, r);
  return {
    id: o.id,
    number: o.number,
    seqNo: r.seqNo,
    policyId: o.policyId,
    policyNumber: r.policyNumber,
    policyStartDate: r.policyStartDate,
    policyEndDate: r.policyEndDate,
    holderName: r.holderName,
    holderUscc: r.holderUscc,
    planItemId: o.planItemId,
    itemType: o.itemType as ServiceItemType,
    itemLabel: SERVICE_ITEM_LABELS[o.itemType as ServiceItemType] ?? o.itemType,
    orgId: o.orgId,
    orgName: r.orgName,
    persons: (o.personIds as number[]).map((id) => ({ id, name: names.get(id) ?? String(id) })),
    scheduledDate: o.scheduledDate,
    serviceDate: o.serviceDate,
    costFen: o.costFen,
    status,
    statusLabel: statusLabel(status),
    hazardCount: Number(r.hazardCount),
    openHazardCount: Number(r.openHazardCount),
    satisfaction: o.satisfaction,
    openComplaint: Boolean(r.openComplaint),
    // Staff see the orders of the policies in their scope; a staff row's actions need that scope too.
    actions: party === 'insurer' && !v.insurer ? [] : serviceOrderActionsFor(status, party),
    version: o.version,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

export interface OrderFilter {
  status?: ServiceOrderStatus | undefined;
  seqNo?: string | undefined;
  orgId?: number | undefined;
  itemType?: ServiceItemType | undefined;
  uscc?: string | undefined;
  blurry?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

type OrderSortField = (typeof SERVICE_ORDER_SORT_FIELDS)[number];
const orderSort: SortColumns<OrderSortField> = {
  id: serviceOrders.id,
  number: serviceOrders.number,
  scheduledDate: serviceOrders.scheduledDate,
  status: serviceOrders.status,
  createdAt: serviceOrders.createdAt,
};

function orderWhere(db: Db, v: PreventionViewer, f: OrderFilter): SQL | undefined {
  return and(
    ordersVisibleTo(db, v),
    f.status ? eq(serviceOrders.status, f.status) : undefined,
    f.seqNo ? eq(preventionFunds.seqNo, f.seqNo) : undefined,
    f.orgId ? eq(serviceOrders.orgId, f.orgId) : undefined,
    f.itemType ? eq(serviceOrders.itemType, f.itemType) : undefined,
    f.uscc ? eq(policies.holderUscc, f.uscc) : undefined,
    blurry(f.blurry, serviceOrders.number, policies.number, policies.holderName),
    f.startDate ? gte(serviceOrders.scheduledDate, f.startDate) : undefined,
    f.endDate ? lte(serviceOrders.scheduledDate, f.endDate) : undefined,
  );
}

/** GET /api/prevention/orders ("my service orders"): the orders the caller may see, newest first. */
export function orderListSpec(
  db: Db,
  v: PreventionViewer,
  f: OrderFilter,
): ListSpec<OrderSortField, ServiceOrderRow> {
  const where = orderWhere(db, v, f);
  return {
    columns: orderSort,
    defaultOrder: [sql`"service_order"."id" desc`],
    fetch: async (q) =>
      (await pageFrom(db, ORDER_LIST, where, q, enterpriseSeesOrder(db, v))).map((r) => toOrderRow(v, r)),
    count: async () =>
      (
        await db
          .select({ n: count() })
          .from(serviceOrders)
          .innerJoin(preventionFunds, eq(preventionFunds.id, serviceOrders.fundId))
          .innerJoin(policies, eq(policies.id, serviceOrders.policyId))
          .where(where)
      )[0]?.n ?? 0,
  };
}

async function hazardsOf(db: Db | Tx, orderIds: number[]): Promise<Map<number, HazardRow[]>> {
  const out = new Map<number, HazardRow[]>();
  if (orderIds.length === 0) return out;
  const today = shanghaiToday();
  const rows = await db
    .select()
    .from(serviceHazards)
    .where(inArray(serviceHazards.orderId, orderIds))
    .orderBy(asc(serviceHazards.orderId), asc(serviceHazards.seq));
  for (const h of rows) {
    const list = out.get(h.orderId) ?? [];
    list.push({
      id: h.id,
      seq: h.seq,
      description: h.description,
      location: h.location,
      level: h.level as HazardLevel,
      levelLabel: HAZARD_LEVEL_LABELS[h.level as HazardLevel] ?? h.level,
      measure: h.measure,
      deadline: h.deadline,
      status: h.status as HazardStatus,
      statusLabel: HAZARD_STATUS_LABELS[h.status as HazardStatus] ?? h.status,
      rectifiedDate: h.rectifiedDate,
      rectifyNote: h.rectifyNote,
      overdue: h.status === 'OPEN' && today > h.deadline,
    });
    out.set(h.orderId, list);
  }
  return out;
}

async function complaintsOf(db: Db | Tx, orderIds: number[]): Promise<Map<number, ComplaintRow[]>> {
  const out = new Map<number, ComplaintRow[]>();
  if (orderIds.length === 0) return out;
  const today = shanghaiToday();
  const rows = await db
    .select()
    .from(serviceComplaints)
    .where(inArray(serviceComplaints.orderId, orderIds))
    .orderBy(asc(serviceComplaints.id));
  for (const c of rows) {
    const list = out.get(c.orderId) ?? [];
    list.push({
      id: c.id,
      content: c.content,
      complainedOn: c.complainedOn,
      deadline: c.deadline,
      status: c.status as 'OPEN' | 'REPLIED',
      reply: c.reply,
      repliedAt: iso(c.repliedAt),
      repliedBy: c.repliedByName,
      overdue: c.status === 'OPEN' && today > c.deadline,
      createdBy: c.createdByName,
      createdAt: c.createdAt.toISOString(),
    });
    out.set(c.orderId, list);
  }
  return out;
}

async function eventsOf(db: Db | Tx, orderId: number): Promise<OrderEventRow[]> {
  const rows = await db
    .select({
      e: serviceOrderEvents,
      actor: actorNameOf(serviceOrderEvents.actorId, serviceOrderEvents.actorName),
    })
    .from(serviceOrderEvents)
    .where(eq(serviceOrderEvents.orderId, orderId))
    .orderBy(asc(serviceOrderEvents.id));
  return rows.map(({ e, actor }) => ({
    id: e.id,
    action: e.action,
    fromStatus: e.fromStatus as ServiceOrderStatus | null,
    toStatus: e.toStatus as ServiceOrderStatus,
    actor,
    opinion: e.opinion,
    at: e.createdAt.toISOString(),
  }));
}

/** GET /api/prevention/orders/:ref: the order with its record, hazards, complaints, timeline and fund. */
export async function getOrder(db: Db | Tx, v: PreventionViewer, ref: string): Promise<ServiceOrderDetail> {
  const [raw] = await selectOrders(db, v).where(and(refCondition(ref), ordersVisibleTo(db, v)));
  if (!raw) throw notFound(ORDER_NOT_FOUND);
  const o = raw.order;
  const row = toOrderRow(v, raw);
  const [hazards, complaints, events, { summary }] = await Promise.all([
    hazardsOf(db, [o.id]),
    complaintsOf(db, [o.id]),
    eventsOf(db, o.id),
    fundSummaryOf(db, { id: o.policyId, preventionFeeFen: 0 }),
  ]);
  const party = rowParty(v, raw);
  const status = o.status as ServiceOrderStatus;
  return {
    ...row,
    note: o.note,
    address: o.address,
    findings: o.findings,
    participants: (o.participants as ServiceOrderDetail['participants']).map((p) => ({
      ...p,
      position: p.position ?? null,
    })),
    hazards: hazards.get(o.id) ?? [],
    rejectReason: o.rejectReason,
    cancelReason: o.cancelReason,
    returnOpinion: o.returnOpinion,
    satisfactionComment: o.satisfactionComment,
    ratedAt: iso(o.ratedAt),
    acceptedAt: iso(o.acceptedAt),
    startedAt: iso(o.startedAt),
    submittedAt: iso(o.submittedAt),
    confirmedAt: iso(o.confirmedAt),
    closedAt: iso(o.closedAt),
    party,
    canRecord: party === 'org' && RECORD_EDITABLE.includes(status),
    canRectify: party === 'org' && RECTIFIABLE.includes(status),
    canRate: party === 'enterprise' && RATEABLE.includes(status) && o.satisfaction == null,
    canComplain: party === 'enterprise' && COMPLAINABLE.includes(status) && !raw.openComplaint,
    complaints: complaints.get(o.id) ?? [],
    events,
    fund: summary,
  };
}

// ---- the service archive of an enterprise (xlsx) ----

export interface ArchiveRow extends ServiceOrderRow {
  findings: string | null;
  participants: string;
  hazards: HazardRow[];
  complaints: ComplaintRow[];
  satisfactionComment: string | null;
  confirmedAt: string | null;
  closedAt: string | null;
}

/** The export of GET /api/prevention/archive/download: every visible order of an enterprise, oldest first. */
export function archiveSpec(
  db: Db,
  v: PreventionViewer,
  uscc: string,
): Pick<ListSpec<OrderSortField, ArchiveRow>, 'columns' | 'defaultOrder' | 'fetch'> {
  const base = orderListSpec(db, v, { uscc });
  return {
    columns: base.columns,
    defaultOrder: [sql`"service_order"."id" asc`],
    fetch: async (q) => {
      const rows = await base.fetch(q);
      const ids = rows.map((r) => r.id);
      const [hazards, complaints, extra] = await Promise.all([
        hazardsOf(db, ids),
        complaintsOf(db, ids),
        ids.length
          ? db
              .select({
                id: serviceOrders.id,
                findings: serviceOrders.findings,
                participants: serviceOrders.participants,
                satisfactionComment: serviceOrders.satisfactionComment,
                confirmedAt: serviceOrders.confirmedAt,
                closedAt: serviceOrders.closedAt,
              })
              .from(serviceOrders)
              .where(inArray(serviceOrders.id, ids))
          : Promise.resolve([]),
      ]);
      const byId = new Map(extra.map((e) => [e.id, e]));
      return rows.map((r) => {
        const e = byId.get(r.id);
        return {
          ...r,
          findings: e?.findings ?? null,
          participants: ((e?.participants ?? []) as { name: string; position: string | null }[])
            .map((p) => (p.position ? `${p.name}（${p.position}）` : p.name))
            .join('、'),
          hazards: hazards.get(r.id) ?? [],
          complaints: complaints.get(r.id) ?? [],
          satisfactionComment: e?.satisfactionComment ?? null,
          confirmedAt: iso(e?.confirmedAt ?? null),
          closedAt: iso(e?.closedAt ?? null),
        };
      });
    },
  };
}

const timeText = (t: string | null) => (t ? formatTime(t) : null);

export const ARCHIVE_COLUMNS: XlsxColumn<ArchiveRow>[] = [
  { header: '服务单号', width: 26, value: (r) => r.number },
  { header: '事故预防编号', width: 22, value: (r) => r.seqNo },
  { header: '保单号', width: 20, value: (r) => r.policyNumber },
  { header: '投保企业', width: 30, value: (r) => r.holderName },
  { header: '统一社会信用代码', width: 22, value: (r) => r.holderUscc },
  { header: '服务项目', value: (r) => r.itemLabel },
  { header: '服务机构', width: 30, value: (r) => r.orgName },
  { header: '服务人员', width: 20, value: (r) => r.persons.map((p) => p.name).join('、') },
  { header: '计划服务日期', value: (r) => r.scheduledDate },
  { header: '实际服务日期', value: (r) => r.serviceDate },
  { header: '状态', value: (r) => r.statusLabel },
  { header: '服务费用（元）', value: (r) => fenToYuanText(r.costFen) },
  { header: '服务情况', width: 40, value: (r) => r.findings },
  { header: '参与人员', width: 30, value: (r) => r.participants },
  { header: '隐患数', value: (r) => r.hazardCount },
  {
    header: '隐患明细',
    width: 60,
    value: (r) =>
      r.hazards
        .map(
          (h) => `${h.seq}. [${h.levelLabel}] ${h.description}（整改期限 ${h.deadline}，${h.statusLabel}）`,
        )
        .join('\n') || null,
  },
  { header: '未整改隐患', value: (r) => r.openHazardCount },
  { header: '企业确认时间', width: 20, value: (r) => timeText(r.confirmedAt) },
  { header: '关闭时间', width: 20, value: (r) => timeText(r.closedAt) },
  { header: '满意度', value: (r) => r.satisfaction },
  { header: '评价', width: 30, value: (r) => r.satisfactionComment },
  {
    header: '投诉',
    width: 40,
    value: (r) =>
      r.complaints
        .map(
          (c) =>
            `${c.complainedOn} ${c.content}（答复期限 ${c.deadline}${c.reply ? `，已答复：${c.reply}` : '，未答复'}）`,
        )
        .join('\n') || null,
  },
];
