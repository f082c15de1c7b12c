// Applications (投保单): drafts saved step by step, co-insurers, submit (re-rated on the active rate table, into
// the review queue), cancel, the underwriter's decision (called by the task service), lists and the timeline.
//
// Every change locks the application row, checks who may change it (owner or its agent, else 403), its state
// (409) and its version (409 when stale), and bumps the version. Every transition writes application_event (the
// timeline) and the audit trail in the same transaction. Money is integer fen; the quote kept on the row is the
// full QuoteResult (rate-table id and version, every input, lines, factors), so it can be reproduced.

import type { Page, PageCursors } from '@piibs/shared/admin';
import type {
  APPLICATION_SORT_FIELDS,
  ApplicationDetail,
  ApplicationEventRow,
  ApplicationRow,
  applicationCreateForm,
  applicationDraftForm,
  CoinsurerRow,
  coinsurersForm,
} from '@piibs/shared/application';
import { ID_CARD_MESSAGE, isIdCardNumber } from '@piibs/shared/application';
import {
  APPLICATION_STATUS_LABELS,
  type ApplicationStatus,
  actionsFor,
  type Channel,
  defaultEnd,
  EDITABLE_STATUSES,
  earliestStart,
  nextStatus,
  periodProblem,
  reviewNext,
} from '@piibs/shared/application-status';
import { coinsuranceProblem, splitAmount } from '@piibs/shared/coinsurance';
import { formatTime } from '@piibs/shared/constants';
import { fenToYuanText, microPercentText, percentTextToMicro } from '@piibs/shared/money';
import type { QuoteResult, quoteForm } from '@piibs/shared/product';
import type { ReviewStatus } from '@piibs/shared/review';
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { type AnyPgColumn, alias, PgDialect, QueryBuilder } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import {
  applicationCoinsurers,
  applicationEvents,
  applicationNumberSeq,
  applications,
  customers,
  dictDetails,
  dicts,
  paymentOrderNumberSeq,
  paymentOrders,
  products,
  users,
} from '../../db/schema.ts';
import { type Actor, entityAudit } from '../../lib/audit.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../lib/errors.ts';
import {
  blurry,
  type CountCache,
  decodeCursor,
  encodeCursor,
  type KeysetField,
  keysetOrder,
  type ListSpec,
  orderByOf,
  type PageParams,
  runNamed,
  type SortColumns,
  sequenceVersion,
} from '../../lib/paging.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { getCustomer } from '../customers/service.ts';
import { quoteProduct } from '../products/quote.ts';
import { getProduct } from '../products/service.ts';
import { openReviewTask } from '../tasks/queue.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import { applicationsVisibleTo, isApplicationOwner } from './access.ts';

type Application = typeof applications.$inferSelect;

export const APPLICATION_NOT_FOUND = '投保单不存在';
export const CUSTOMER_NOT_APPROVED = '投保人尚未审核通过';
export const NOT_OWNER = '只有投保单的创建人（或其代理人）可以操作';
/** Payment orders expire 24 hours after approval. */
export const PAYMENT_TTL_MS = 24 * 60 * 60 * 1000;

/** The caller of a change: who, from where and what they may see. */
export interface ApplicationActor extends Actor {
  viewer: CustomerViewer;
}

/** A viewer that sees everything: for reads after the access check has been made. */
const seeAll = (v: CustomerViewer): CustomerViewer => ({ ...v, staffScope: { all: true } });

// ---- reading ----

const owner = alias(users, 'app_owner');

const rowColumns = {
  ...getTableColumns(applications),
  productCode: products.code,
  productName: products.name,
  productClass: products.productClass,
  allowsCoinsurance: products.allowsCoinsurance,
  applicantName: customers.name,
  applicantUscc: customers.uscc,
  ownerName: sql<string | null>`coalesce(${owner.nickName}, ${owner.username})`,
  openTaskId: sql<number | null>`(select t.id from review_task t where t.kind = 'application'
    and t.subject_id = "application"."id" and t.status = 'open')`,
};

const selectRows = (db: Db | Tx) =>
  db
    .select(rowColumns)
    .from(applications)
    .innerJoin(products, eq(products.id, applications.productId))
    .innerJoin(customers, eq(customers.id, applications.customerId))
    .leftJoin(owner, eq(owner.id, applications.ownerId));
type RawRow = Awaited<ReturnType<typeof selectRows>>[number];

/** Advanced by a statement trigger on every insert, update or delete of application (migration 0014). */
const CHANGE_SEQUENCE = 'application_change_seq';

/** `Date.toISOString()`'s text, made by PostgreSQL. */
const isoText = (column: AnyPgColumn) =>
  sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** What a list row shows (toRow): no quote snapshot, no open-task lookup. */
const listColumns = {
  id: applications.id,
  number: applications.number,
  productId: applications.productId,
  channel: applications.channel,
  policyholderType: applications.policyholderType,
  customerId: applications.customerId,
  status: applications.status,
  // As text: the list runs as a plain prepared statement (runNamed), and node-postgres reads a date as a Date.
  startDate: sql<string | null>`${applications.startDate}::text`,
  endDate: sql<string | null>`${applications.endDate}::text`,
  premiumFen: applications.premiumFen,
  preventionFeeFen: applications.preventionFeeFen,
  reviewOpinion: applications.reviewOpinion,
  ownerId: applications.ownerId,
  agentId: applications.agentId,
  // Instants as ISO text from PostgreSQL: parsing them into Dates only to print them again cost more.
  submittedAt: isoText(applications.submittedAt),
  createdAt: isoText(applications.createdAt) as SQL<string>,
  updatedAt: isoText(applications.updatedAt) as SQL<string>,
  version: applications.version,
  productCode: rowColumns.productCode,
  productName: rowColumns.productName,
  productClass: rowColumns.productClass,
  applicantName: rowColumns.applicantName,
  applicantUscc: rowColumns.applicantUscc,
  ownerName: rowColumns.ownerName,
};
type Instant = Date | string;
type ListRaw = Omit<Pick<RawRow, keyof typeof listColumns>, 'submittedAt' | 'createdAt' | 'updatedAt'> & {
  submittedAt: Instant | null;
  createdAt: Instant;
  updatedAt: Instant;
};

/**
 * List rows, each with its sort key as text (`cursorKey`, for the page's cursors) and the applications' data
 * version (`dataVersion`, for the cached count: read with the rows, not in a query of its own).
 */
const listSelection = (cursorKey: SQL<string>) => ({
  ...listColumns,
  cursorKey,
  dataVersion: sql<string>`(select last_value from ${sql.identifier(CHANGE_SEQUENCE)})::text`,
});
const LIST_KEYS = Object.keys(listSelection(sql``));
type ListRowWithKey = ListRaw & { cursorKey: string; dataVersion: string };
const CURSOR_KEY_MARK = '/*cursor key*/';
/**
 * `select <the list row's columns> from application join … left join app_owner`, rendered once: drizzle would
 * build the long select list again at every request (the most of the list's own CPU time).
 */
const LIST_FROM = new QueryBuilder()
  .select(listSelection(sql.raw(CURSOR_KEY_MARK) as SQL<string>))
  .from(applications)
  .innerJoin(products, eq(products.id, applications.productId))
  .innerJoin(customers, eq(customers.id, applications.customerId))
  .leftJoin(owner, eq(owner.id, applications.ownerId))
  .toSQL().sql;
const dialect = new PgDialect();

const isoOf = (d: Instant) => (typeof d === 'string' ? d : d.toISOString());
const iso = (d: Instant | null) => (d === null ? null : isoOf(d));

function toRow(r: ListRaw, userId: number): ApplicationRow {
  const status = r.status as ApplicationStatus;
  return {
    id: r.id,
    number: r.number,
    productId: r.productId,
    productCode: r.productCode,
    productName: r.productName,
    productClass: r.productClass,
    channel: r.channel as Channel,
    policyholderType: r.policyholderType === 2 ? 2 : 1,
    customerId: r.customerId,
    applicantName: r.applicantName,
    applicantUscc: r.applicantUscc,
    status,
    statusLabel: APPLICATION_STATUS_LABELS[status],
    startDate: r.startDate,
    endDate: r.endDate,
    premiumFen: r.premiumFen,
    preventionFeeFen: r.preventionFeeFen,
    reviewOpinion: r.reviewOpinion,
    ownerId: r.ownerId,
    ownerName: r.ownerName,
    agentId: r.agentId,
    submittedAt: iso(r.submittedAt),
    createdAt: isoOf(r.createdAt),
    updatedAt: isoOf(r.updatedAt),
    version: r.version,
    actions: actionsFor(status, isApplicationOwner(r, userId)),
  };
}

async function coinsurersOf(db: Db | Tx, id: number): Promise<CoinsurerRow[]> {
  const rows = await db
    .select({
      insurerCode: applicationCoinsurers.insurerCode,
      insurerName: sql<string | null>`(select dd.label from dict_detail dd join dict d on d.id = dd.dict_id
        where d.name = 'coinsurer' and dd.value = ${applicationCoinsurers.insurerCode} limit 1)`,
      lead: applicationCoinsurers.lead,
      share: applicationCoinsurers.share,
      premiumFen: applicationCoinsurers.premiumFen,
      preventionFeeFen: applicationCoinsurers.preventionFeeFen,
    })
    .from(applicationCoinsurers)
    .where(eq(applicationCoinsurers.applicationId, id))
    .orderBy(asc(applicationCoinsurers.sort), asc(applicationCoinsurers.id));
  return rows.map((r) => ({ ...r, shareText: microPercentText(r.share) }));
}

async function detailOf(db: Db | Tx, viewer: CustomerViewer, r: RawRow): Promise<ApplicationDetail> {
  // One after another: on a transaction (one connection) concurrent queries are not allowed.
  const coinsurers = await coinsurersOf(db, r.id);
  const customer = await getCustomer(db, seeAll(viewer), r.customerId);
  const [order] = await db
    .select()
    .from(paymentOrders)
    .where(eq(paymentOrders.applicationId, r.id))
    .orderBy(desc(paymentOrders.id))
    .limit(1);
  const person = r.policyholderType === 2;
  return {
    ...toRow(r, viewer.user.id),
    insuredName: r.insuredName,
    // One column, insured_uscc, holds the insured's code: a credit code, or an individual's identity card.
    insuredUscc: person ? null : r.insuredUscc,
    insuredIdNumber: person ? r.insuredUscc : null,
    insuredAddress: r.insuredAddress,
    contactName: r.contactName,
    contactPhone: r.contactPhone,
    contactEmail: r.contactEmail,
    specialTerms: r.specialTerms,
    industrySection: r.industrySection,
    industryDivision: r.industryDivision,
    headcount: r.headcount,
    payrollFen: r.payrollFen,
    perPersonLimitFen: r.perPersonLimitFen,
    coverages: r.coverages as string[],
    factors: r.factors as Record<string, string>,
    guaranteeAmountFen: r.guaranteeAmountFen,
    projectName: r.projectName,
    projectAddress: r.projectAddress,
    projectCostFen: r.projectCostFen,
    contractor: r.contractor,
    highRisk: r.highRisk,
    preventionRatio: r.preventionRatio,
    commissionRate: r.commissionRate,
    allowsCoinsurance: r.allowsCoinsurance,
    quote: (r.quote as QuoteResult | null) ?? null,
    rateTableId: r.rateTableId,
    coinsurers,
    customer,
    paymentOrder: order
      ? {
          id: order.id,
          number: order.number,
          amountFen: order.amountFen,
          status: order.status,
          expiresAt: order.expiresAt.toISOString(),
          createdAt: order.createdAt.toISOString(),
        }
      : null,
    openTaskId: r.openTaskId == null ? null : Number(r.openTaskId),
  };
}

/** One application the viewer may see (404 otherwise), with its quote, co-insurers, applicant and payment. */
export async function getApplication(
  db: Db | Tx,
  viewer: CustomerViewer,
  id: number,
): Promise<ApplicationDetail> {
  const [row] = await selectRows(db).where(
    and(eq(applications.id, id), applicationsVisibleTo(db as Db, viewer)),
  );
  if (!row) throw notFound(APPLICATION_NOT_FOUND);
  return detailOf(db, viewer, row);
}

/** The history timeline, oldest first (404 unless the viewer may see the application). */
export async function applicationEventsOf(
  db: Db,
  viewer: CustomerViewer,
  id: number,
): Promise<ApplicationEventRow[]> {
  const [seen] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.id, id), applicationsVisibleTo(db, viewer)));
  if (!seen) throw notFound(APPLICATION_NOT_FOUND);
  const rows = await db
    .select()
    .from(applicationEvents)
    .where(eq(applicationEvents.applicationId, id))
    .orderBy(asc(applicationEvents.id));
  return rows.map((e) => ({
    id: e.id,
    action: e.action,
    fromStatus: e.fromStatus as ApplicationStatus | null,
    toStatus: e.toStatus as ApplicationStatus,
    actor: e.actorName,
    opinion: e.opinion,
    at: e.createdAt.toISOString(),
  }));
}

export interface ApplicationFilter {
  status?: ApplicationStatus | undefined;
  productId?: number | undefined;
  customerId?: number | undefined;
  channel?: Channel | undefined;
  blurry?: string | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

type SortField = (typeof APPLICATION_SORT_FIELDS)[number];
const sortColumns: SortColumns<SortField> = {
  id: applications.id,
  number: applications.number,
  createdAt: applications.createdAt,
  updatedAt: applications.updatedAt,
  submittedAt: applications.submittedAt,
  premiumFen: applications.premiumFen,
};
const DEFAULT_ORDER = [sql`${applications.id} desc`];
/** The sorts that page by cursor (NOT NULL columns, each with an index on (column, id)); no sort: by id. */
const KEYSET: Partial<Record<SortField, KeysetField>> = {
  number: { column: applications.number, kind: 'text' },
  createdAt: { column: applications.createdAt, kind: 'timestamp' },
  updatedAt: { column: applications.updatedAt, kind: 'timestamp' },
};

/** The WHERE of insureList: what the viewer may see, and the filters. Conditions on application alone. */
function listFilter(db: Db, viewer: CustomerViewer, f: ApplicationFilter): SQL | undefined {
  return and(
    applicationsVisibleTo(db, viewer),
    f.status ? eq(applications.status, f.status) : undefined,
    f.productId ? eq(applications.productId, f.productId) : undefined,
    f.customerId ? eq(applications.customerId, f.customerId) : undefined,
    f.channel ? eq(applications.channel, f.channel) : undefined,
    f.blurry
      ? or(
          blurry(f.blurry, applications.number, applications.insuredName),
          inArray(
            applications.customerId,
            db
              .select({ id: customers.id })
              .from(customers)
              .where(blurry(f.blurry, customers.name, customers.uscc)),
          ),
        )
      : undefined,
    f.startTime ? gte(applications.createdAt, f.startTime) : undefined,
    f.endTime ? lte(applications.createdAt, f.endTime) : undefined,
  );
}

/**
 * One page in `orderBy`: the ids first, from application alone (a deep OFFSET then skips index entries, not
 * joined rows), then the rows of those ids with their products, applicants and owners.
 */
function fetchListPage(
  db: Db,
  where: SQL | undefined,
  q: {
    limit: number;
    offset: number;
    orderBy: SQL[];
    boundary?: SQL | undefined;
    key?: SQL<string> | undefined;
  },
) {
  // LIMIT written out (a page size, one of a few): with LIMIT as a parameter PostgreSQL keeps re-planning the
  // prepared statement (runNamed) instead of settling on its generic plan. OFFSET only when paging by number.
  const limit = sql.raw(String(Math.trunc(q.limit)));
  const ids = sql`(select ${applications.id} from ${applications} where ${and(where, q.boundary) ?? sql`true`}
    order by ${sql.join(q.orderBy, sql`, `)} limit ${limit}${q.offset ? sql` offset ${q.offset}` : sql``})`;
  // The sort key expression goes into the pre-rendered select list: a column expression, without parameters.
  const key = q.key ? dialect.sqlToQuery(q.key).sql : `''`;
  const query = sql`${sql.raw(LIST_FROM.replace(CURSOR_KEY_MARK, key))} where ${applications.id} in ${ids}
    order by ${sql.join(q.orderBy, sql`, `)}`;
  return runNamed<ListRowWithKey>(db, dialect.sqlToQuery(query), LIST_KEYS);
}

/** The export's rows: the applications the viewer may see, filtered, in the list's order. */
export function applicationListSpec(
  db: Db,
  viewer: CustomerViewer,
  f: ApplicationFilter,
): ListSpec<SortField, ApplicationRow> {
  const where = listFilter(db, viewer, f);
  return {
    columns: sortColumns,
    defaultOrder: DEFAULT_ORDER,
    fetch: async (q) => (await fetchListPage(db, where, q)).map((r) => toRow(r, viewer.user.id)),
    count: async () => (await db.select({ n: count() }).from(applications).where(where))[0]?.n ?? 0,
  };
}

/** What listFilter depends on: the viewer's visibility (applicationsVisibleTo) and the filters. */
function countKey(v: CustomerViewer, f: ApplicationFilter): string {
  const scope = v.staffScope?.all
    ? 'all'
    : [v.user.id, v.isEnterprise ? v.uscc : null, v.isAgent, v.staffScope?.deptIds ?? null];
  const { status, productId, customerId, channel, blurry, startTime, endTime } = f;
  return JSON.stringify([scope, status, productId, customerId, channel, blurry, startTime, endTime]);
}

export interface ApplicationListQuery extends ApplicationFilter, PageParams {
  after?: string | undefined;
  before?: string | undefined;
}

/**
 * insureList: one page of the applications the viewer may see, filtered; newest first. Sorted by id, number,
 * createdAt or updatedAt (or not at all) it also pages by cursor (`after` / `before`, see lib/paging.ts), and
 * answers its cursors. The count runs only for a full page, and is cached per filter and data scope until an
 * application changes (or 30 s pass).
 */
export async function listApplications(
  db: Db,
  viewer: CustomerViewer,
  q: ApplicationListQuery,
  counts: CountCache,
): Promise<Page<ApplicationRow> & { cursors: PageCursors | null }> {
  if (q.after !== undefined && q.before !== undefined) throw badRequest('游标：after 与 before 只能给一个');
  const where = listFilter(db, viewer, q);
  const order = keysetOrder(q.sort, KEYSET, applications.id);
  const text = q.after ?? q.before;
  const cursor = text === undefined ? null : decodeCursor(order, text);
  const back = q.before !== undefined;
  const start = q.page * q.size;
  const rows = await fetchListPage(db, where, {
    limit: q.size,
    offset: cursor ? 0 : start,
    orderBy: order ? (back ? order.reversed : order.orderBy) : orderByOf(q.sort, sortColumns, DEFAULT_ORDER),
    boundary: cursor && order ? order.boundary(cursor, back ? 'before' : 'after') : undefined,
    key: order?.keyText,
  });
  if (back) rows.reverse();
  const short = !back && rows.length < q.size && (rows.length > 0 || start === 0);
  let totalElements = start + rows.length;
  if (!short) {
    totalElements = await counts.get(
      countKey(viewer, q),
      rows[0]?.dataVersion ?? (await sequenceVersion(db, CHANGE_SEQUENCE)),
      async () => (await db.select({ n: count() }).from(applications).where(where))[0]?.n ?? 0,
    );
  }
  const first = rows[0];
  const last = rows.at(-1);
  return {
    content: rows.map((r) => toRow(r, viewer.user.id)),
    totalElements,
    cursors:
      order && first && last
        ? {
            before: encodeCursor(order, first.cursorKey, first.id),
            after: encodeCursor(order, last.cursorKey, last.id),
          }
        : null,
  };
}

// ---- helpers of the changes ----

/** Locks an application the viewer may see (404 otherwise). */
async function lockApplication(tx: Tx, viewer: CustomerViewer, id: number): Promise<Application> {
  const [row] = await tx
    .select()
    .from(applications)
    .where(and(eq(applications.id, id), applicationsVisibleTo(tx as unknown as Db, viewer)))
    .for('update', { of: applications });
  if (!row) throw notFound(APPLICATION_NOT_FOUND);
  return row;
}

/** Owner (403), then state (409), then version (409). */
function checkChange(a: Application, actor: ApplicationActor, allowed: boolean, version: number): void {
  if (!isApplicationOwner(a, actor.user.id)) throw forbidden(NOT_OWNER);
  if (!allowed)
    throw conflict(
      `投保单当前状态为「${APPLICATION_STATUS_LABELS[a.status as ApplicationStatus]}」，不能执行此操作`,
    );
  if (a.version !== version) throw conflict(STALE_VERSION);
}

async function addEvent(
  tx: Tx,
  actor: Actor,
  e: { applicationId: number; action: string; from: string | null; to: string; opinion?: string | null },
): Promise<void> {
  await tx.insert(applicationEvents).values({
    applicationId: e.applicationId,
    action: e.action,
    fromStatus: e.from,
    toStatus: e.to,
    actorId: actor.user.id,
    actorName: actor.user.username,
    opinion: e.opinion ?? null,
  });
}

const audit = entityAudit('application');

/** The number prefix of a product: the letters of its code before the first '_' (AZX_GM_2025 → AZX). */
const prefixOf = (productCode: string) =>
  (productCode.split('_')[0] ?? 'TB').replace(/[^A-Za-z0-9]/g, '').toUpperCase() || 'TB';
const year = () => formatTime(Date.now(), '{y}');

async function nextNumber(tx: Tx, productCode: string): Promise<string> {
  const res = await tx.execute<{ n: string }>(sql`select nextval('application_number_seq')::text as n`);
  void applicationNumberSeq;
  return `${prefixOf(productCode)}${year()}${res.rows[0]!.n.padStart(6, '0')}`;
}

async function nextPaymentNumber(tx: Tx): Promise<string> {
  const res = await tx.execute<{ n: string }>(sql`select nextval('payment_order_number_seq')::text as n`);
  void paymentOrderNumberSeq;
  return `ZF${formatTime(Date.now(), '{y}{m}{d}')}${res.rows[0]!.n.padStart(8, '0')}`;
}

type QuoteInput = z.infer<typeof quoteForm>;

/** The rating inputs of an application as a quote request. */
function quoteInputOf(a: Application): QuoteInput {
  const opt = <T>(v: T | null) => (v === null ? undefined : v);
  return {
    customerId: a.customerId,
    industrySection: opt(a.industrySection),
    industryDivision: opt(a.industryDivision),
    headcount: opt(a.headcount),
    perPersonLimitFen: opt(a.perPersonLimitFen),
    coverages: a.coverages as QuoteInput['coverages'],
    projectCostFen: opt(a.projectCostFen),
    highRisk: a.highRisk,
    guaranteeAmountFen: opt(a.guaranteeAmountFen),
    factors: a.factors as Record<string, string>,
    preventionRatio: opt(a.preventionRatio),
  };
}

/** Prices an application on the product's active rate table with the shared rating code. */
async function rate(tx: Tx, viewer: CustomerViewer, a: Application): Promise<QuoteResult> {
  return quoteProduct(
    tx as unknown as Db,
    { viewer: seeAll(viewer), canSeeDrafts: false },
    a.productId,
    quoteInputOf(a),
  );
}

const quoteColumns = (q: QuoteResult | null) => ({
  quote: q,
  rateTableId: q?.rateTableId ?? null,
  premiumFen: q?.premiumFen ?? null,
  preventionFeeFen: q?.preventionFeeFen ?? null,
});

/** Re-splits the co-insurers' parts after the premium changed. */
async function resplit(tx: Tx, id: number, premiumFen: number | null, preventionFeeFen: number | null) {
  const rows = await tx
    .select()
    .from(applicationCoinsurers)
    .where(eq(applicationCoinsurers.applicationId, id))
    .orderBy(asc(applicationCoinsurers.sort), asc(applicationCoinsurers.id));
  if (rows.length === 0) return;
  const premium = splitAmount(premiumFen ?? 0, rows);
  const prevention = splitAmount(preventionFeeFen ?? 0, rows);
  for (const [i, r] of rows.entries())
    await tx
      .update(applicationCoinsurers)
      .set({ premiumFen: premium[i]!, preventionFeeFen: prevention[i]! })
      .where(eq(applicationCoinsurers.id, r.id));
}

const RATING_FIELDS = [
  'industrySection',
  'industryDivision',
  'headcount',
  'perPersonLimitFen',
  'coverages',
  'factors',
  'guaranteeAmountFen',
  'projectCostFen',
  'highRisk',
  'preventionRatio',
] as const;

type ProductRules = { commissionCap: number; preventionRatioMin: number; preventionRatioMax: number };

function checkRatios(p: ProductRules, a: { commissionRate: number | null; preventionRatio: number | null }) {
  if (a.commissionRate != null && a.commissionRate > p.commissionCap)
    throw badRequest(`手续费比例：不能超过该险种的上限 ${microPercentText(p.commissionCap)}%`);
  if (
    a.preventionRatio != null &&
    (a.preventionRatio < p.preventionRatioMin || a.preventionRatio > p.preventionRatioMax)
  )
    throw badRequest(
      `事故预防费用比例：须在 ${microPercentText(p.preventionRatioMin)}%–${microPercentText(p.preventionRatioMax)}% 之间`,
    );
}

// ---- create, save a step, co-insurers ----

type CreateInput = z.infer<typeof applicationCreateForm>;

/** A new draft for a product and an approved applicant the caller may see. */
export async function createApplication(
  db: Db,
  actor: ApplicationActor,
  form: CreateInput,
): Promise<ApplicationDetail & { quoteProblem: string | null }> {
  const customer = await getCustomer(db, actor.viewer, form.customerId);
  if (customer.reviewStatus !== 'approved') throw badRequest(CUSTOMER_NOT_APPROVED);
  const product = await getProduct(db, form.productId);
  if (!product.enabled) throw badRequest('险种：险种已停用');
  const start = earliestStart();
  if (start < product.validFrom || start > product.validTo) throw badRequest('险种：险种不在有效期内');
  const roles = actor.viewer.user.roles;
  const channel: Channel =
    form.channel ??
    (product.productClass === 'construction' || roles.includes('contractor')
      ? 'project'
      : roles.includes('agent') && !roles.includes('17')
        ? 'agent'
        : 'enterprise');
  const death = product.coverages.find((c) => c.type === 'EMPLOYEE_DEATH_DISABILITY');
  // An individual's code is an identity card: the applicant's credit code is not one (unless it reads as one).
  const person = form.policyholderType === 2;
  const insuredCode = !person || isIdCardNumber(customer.uscc) ? customer.uscc : null;
  const result = await db.transaction(async (tx) => {
    const [raw] = await tx
      .select({ phone: customers.phone })
      .from(customers)
      .where(eq(customers.id, customer.id));
    const [row] = await tx
      .insert(applications)
      .values({
        number: await nextNumber(tx, product.code),
        productId: product.id,
        channel,
        policyholderType: form.policyholderType,
        customerId: customer.id,
        insuredName: customer.name,
        insuredUscc: insuredCode,
        insuredAddress: customer.address,
        contactName: customer.contactName,
        contactPhone: raw?.phone ?? null,
        startDate: start,
        endDate: defaultEnd(start),
        industrySection: customer.industrySection,
        industryDivision: customer.industryDivision,
        headcount:
          product.productClass === 'work_safety' && customer.headcount > 0 ? customer.headcount : null,
        perPersonLimitFen: product.productClass === 'work_safety' ? (death?.perPersonLimitFen ?? null) : null,
        contractor: product.productClass === 'construction' ? customer.name : null,
        preventionRatio: product.preventionRatioMin,
        agentId: roles.includes('agent') ? actor.user.id : null,
        ownerId: actor.user.id,
      })
      .returning();
    const a = row!;
    let quoteProblem: string | null = null;
    try {
      const q = await rate(tx, actor.viewer, a);
      await tx.update(applications).set(quoteColumns(q)).where(eq(applications.id, a.id));
    } catch (err) {
      if (!(err instanceof HttpError && err.status === 400)) throw err;
      quoteProblem = err.message;
    }
    await addEvent(tx, actor, { applicationId: a.id, action: 'create', from: null, to: 'DRAFT' });
    await audit(tx, actor, 'create', a.id, {
      number: a.number,
      productId: a.productId,
      customerId: a.customerId,
      channel,
      policyholderType: a.policyholderType,
    });
    return { id: a.id, quoteProblem };
  });
  return { ...(await getApplication(db, actor.viewer, result.id)), quoteProblem: result.quoteProblem };
}

type DraftInput = z.infer<typeof applicationDraftForm>;

/**
 * The insured's code of a draft: insured_uscc holds a credit code for an enterprise policyholder (type 1) and
 * an identity card number for an individual (type 2). The other type's field may be sent empty (a wizard step
 * sends what it shows), not filled (400 naming it). A change of type drops the code of the old type.
 */
function insuredCodePatch(
  a: Application,
  patch: Partial<typeof applications.$inferInsert>,
  idNumber: string | null | undefined,
): void {
  const type = patch.policyholderType ?? a.policyholderType;
  if (type === 2) {
    if (patch.insuredUscc) throw badRequest('被保险人统一社会信用代码：个人投保人不填写统一社会信用代码');
    delete patch.insuredUscc;
    if (idNumber !== undefined) patch.insuredUscc = idNumber;
  } else if (idNumber) {
    throw badRequest('被保险人身份证号：企业投保人请填写统一社会信用代码');
  }
  if (type !== a.policyholderType && patch.insuredUscc === undefined) patch.insuredUscc = null;
}

/**
 * Saves a wizard step: the fields sent (null clears), in DRAFT or RETURNED, by the owner, on the current
 * version. The period is checked (no back-dating; the end defaults to a year less a day); a change of a rating
 * input re-quotes on the active rate table (an incomplete input leaves the quote empty and says why).
 */
export async function saveDraft(
  db: Db,
  actor: ApplicationActor,
  id: number,
  form: DraftInput,
): Promise<ApplicationDetail & { quoteProblem: string | null }> {
  const quoteProblem = await db.transaction(async (tx) => {
    const a = await lockApplication(tx, actor.viewer, id);
    checkChange(a, actor, EDITABLE_STATUSES.includes(a.status as ApplicationStatus), form.version);
    const { version: _v, insuredIdNumber, ...fields } = form;
    const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<
      typeof applications.$inferInsert
    >;
    insuredCodePatch(a, patch, insuredIdNumber);
    if (patch.startDate && patch.endDate === undefined && patch.startDate !== a.startDate)
      patch.endDate = defaultEnd(patch.startDate);
    const merged = { ...a, ...patch } as Application;
    if (merged.startDate && merged.endDate) {
      const problem = periodProblem(merged.startDate, merged.endDate);
      if (problem) throw badRequest(problem);
    } else if (merged.startDate && merged.startDate < earliestStart()) {
      throw badRequest(`保险起期：不能早于 ${earliestStart()}（不得倒签）`);
    }
    const product = await getProduct(tx, a.productId);
    checkRatios(product, merged);
    let problem: string | null = null;
    if (RATING_FIELDS.some((k) => k in patch) || a.quote == null) {
      try {
        Object.assign(patch, quoteColumns(await rate(tx, actor.viewer, merged)));
      } catch (err) {
        if (!(err instanceof HttpError && err.status === 400)) throw err;
        problem = err.message;
        Object.assign(patch, quoteColumns(null));
      }
    }
    await tx
      .update(applications)
      .set({ ...patch, version: sql`${applications.version} + 1`, updatedAt: sql`now()` })
      .where(eq(applications.id, id));
    if ('premiumFen' in patch)
      await resplit(tx, id, patch.premiumFen ?? null, patch.preventionFeeFen ?? null);
    await audit(tx, actor, 'update', id, {
      fields: Object.keys(form).filter(
        (k) => k !== 'version' && (form as Record<string, unknown>)[k] !== undefined,
      ),
    });
    return problem;
  });
  return { ...(await getApplication(db, actor.viewer, id)), quoteProblem };
}

/** Reads the codes of the `coinsurer` dictionary. */
async function coinsurerCodes(tx: Tx): Promise<string[]> {
  const rows = await tx
    .select({ value: dictDetails.value })
    .from(dictDetails)
    .innerJoin(dicts, eq(dicts.id, dictDetails.dictId))
    .where(eq(dicts.name, 'coinsurer'));
  return rows.map((r) => r.value);
}

/** Replaces the co-insurance table (only for a product that allows co-insurance); an empty list clears it. */
export async function replaceCoinsurers(
  db: Db,
  actor: ApplicationActor,
  id: number,
  form: z.infer<typeof coinsurersForm>,
): Promise<ApplicationDetail> {
  await db.transaction(async (tx) => {
    const a = await lockApplication(tx, actor.viewer, id);
    checkChange(a, actor, EDITABLE_STATUSES.includes(a.status as ApplicationStatus), form.version);
    const product = await getProduct(tx, a.productId);
    if (!product.allowsCoinsurance && form.shares.length) throw badRequest('共保信息：该险种不支持共保/联保');
    const shares = form.shares.map((s) => ({
      insurerCode: s.insurerCode,
      lead: s.lead,
      share: percentTextToMicro(s.share) ?? 0,
    }));
    const problem = coinsuranceProblem(shares, await coinsurerCodes(tx));
    if (problem) throw badRequest(problem.message);
    await tx.delete(applicationCoinsurers).where(eq(applicationCoinsurers.applicationId, id));
    if (shares.length) {
      const premium = splitAmount(a.premiumFen ?? 0, shares);
      const prevention = splitAmount(a.preventionFeeFen ?? 0, shares);
      await tx.insert(applicationCoinsurers).values(
        shares.map((s, i) => ({
          applicationId: id,
          ...s,
          premiumFen: premium[i]!,
          preventionFeeFen: prevention[i]!,
          sort: i,
        })),
      );
    }
    await tx
      .update(applications)
      .set({ version: sql`${applications.version} + 1`, updatedAt: sql`now()` })
      .where(eq(applications.id, id));
    await audit(tx, actor, 'coinsurers', id, {
      shares: shares.map((s) => ({ insurerCode: s.insurerCode, lead: s.lead, share: s.share })),
    });
  });
  return getApplication(db, actor.viewer, id);
}

// ---- transitions ----

const required = (value: unknown, label: string) => {
  if (value === null || value === undefined || value === '') throw badRequest(`${label}：不能为空`);
};

/**
 * DRAFT / RETURNED → PENDING_REVIEW: checks completeness (messages name the field), re-rates on the ACTIVE rate
 * table and stores the snapshot, re-splits the co-insurers, opens an application review task.
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
    required(a.startDate, '保险起期');
    required(a.endDate, '保险止期');
    const problem = periodProblem(a.startDate!, a.endDate!);
    if (problem) throw badRequest(problem);
    if (a.policyholderType === 2) {
      required(a.insuredName, '被保险人姓名');
      required(a.insuredUscc, '被保险人身份证号');
      if (!isIdCardNumber(a.insuredUscc!)) throw badRequest(`被保险人身份证号：${ID_CARD_MESSAGE}`);
    } else {
      required(a.insuredName, '被保险人名称');
    }
    required(a.contactName, '联系人');
    required(a.contactPhone, '联系电话');
    if (product.productClass === 'construction') {
      required(a.projectName, '工程名称');
      required(a.projectAddress, '工程地址');
      required(a.projectCostFen, '工程造价');
    }
    if (product.productClass === 'work_safety') required(a.headcount, '参保人数');
    checkRatios(product, a);
    const shares = await tx
      .select()
      .from(applicationCoinsurers)
      .where(eq(applicationCoinsurers.applicationId, id));
    if (shares.length) {
      if (!product.allowsCoinsurance) throw badRequest('共保信息：该险种不支持共保/联保');
      const bad = coinsuranceProblem(shares);
      if (bad) throw badRequest(bad.message);
    }
    const q = await rate(tx, actor.viewer, a);
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

const DECISION_OF: Record<ReviewStatus, 'approve' | 'return' | 'reject'> = {
  approved: 'approve',
  returned: 'return',
  rejected: 'reject',
  pending: 'approve',
};

/** Approve → PENDING_PAYMENT with a payment order (premium, 24 h); return → RETURNED; reject → DECLINED. */
export async function applyApplicationReview(
  tx: Tx,
  id: number,
  decided: ReviewStatus,
  opinion: string | null,
  actor: Actor,
): Promise<void> {
  const [a] = await tx.select().from(applications).where(eq(applications.id, id));
  if (!a) throw notFound(APPLICATION_NOT_FOUND);
  const decision = DECISION_OF[decided];
  const next = reviewNext(a.status as ApplicationStatus, decision);
  if (!next) throw conflict('该投保单当前不是待审核状态');
  await tx
    .update(applications)
    .set({
      status: next,
      reviewOpinion: opinion,
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
    opinion,
  });
}

/** The export's columns. */
export const EXPORT_COLUMNS: {
  header: string;
  width?: number;
  value: (r: ApplicationRow) => string | number | null;
}[] = [
  { header: '投保单号', width: 20, value: (r) => r.number },
  { header: '险种', width: 30, value: (r) => r.productName },
  { header: '投保人', width: 30, value: (r) => r.applicantName },
  { header: '统一社会信用代码', width: 22, value: (r) => r.applicantUscc },
  { header: '状态', value: (r) => r.statusLabel },
  { header: '保险起期', value: (r) => r.startDate },
  { header: '保险止期', value: (r) => r.endDate },
  { header: '保费（元）', value: (r) => (r.premiumFen == null ? null : fenToYuanText(r.premiumFen)) },
  {
    header: '事故预防费用（元）',
    value: (r) => (r.preventionFeeFen == null ? null : fenToYuanText(r.preventionFeeFen)),
  },
  { header: '创建人', value: (r) => r.ownerName },
  { header: '创建时间', width: 20, value: (r) => formatTime(r.createdAt) },
  { header: '提交时间', width: 20, value: (r) => (r.submittedAt ? formatTime(r.submittedAt) : null) },
];
