// Reading applications (投保单): one with its quote, co-insurers, applicant and payment order; the timeline; the
// paged, filtered and sorted list (keyset paging, cached counts) and the export's columns.
import type { Page, PageCursors } from '@piibs/shared/admin';
import type {
  APPLICATION_SORT_FIELDS,
  ApplicationDetail,
  ApplicationEventRow,
  ApplicationRow,
  CoinsurerRow,
} from '@piibs/shared/application';
import {
  APPLICATION_STATUS_LABELS,
  type ApplicationStatus,
  actionsFor,
  type Channel,
} from '@piibs/shared/application-status';
import { ISSUER_CODE } from '@piibs/shared/coinsurance';
import { formatTime } from '@piibs/shared/constants';
import { fenToYuanText, microPercentText } from '@piibs/shared/money';
import type { QuoteResult } from '@piibs/shared/product';
import { and, asc, count, desc, eq, getTableColumns, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias, PgDialect, QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import {
  applicationCoinsurers,
  applicationEvents,
  applications,
  auditLog,
  customers,
  paymentOrders,
  policies,
  products,
  reviewTasks,
  users,
} from '../../db/schema.ts';
import { actorNameOf, diff } from '../../lib/audit.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { givenFilters, keyedContains, timeRangeFilters } from '../../lib/filters.ts';
import {
  type CountCache,
  dataVersionOf,
  decodeCursor,
  encodeCursor,
  type KeysetField,
  type KeysetOrder,
  keysetOrder,
  runNamed,
} from '../../lib/keyset.ts';
import { type AnchorCache, anchorFor, anchorGuard, anchorKey, readAnchors } from '../../lib/page-anchors.ts';
import {
  countRows,
  type ListSpec,
  orderByOf,
  type PageParams,
  type SortColumns,
  sortItems,
} from '../../lib/paging.ts';
import { type Bind, Binder, shapedQuery } from '../../lib/statement-shapes.ts';
import { frequentTrigrams } from '../../lib/trigram-probe.ts';
import type { XlsxColumn } from '../../lib/xlsx.ts';
import { type CustomerViewer, viewerScopeKey } from '../customers/access.ts';
import { getCustomer } from '../customers/service.ts';
import { insurerName } from '../init/service.ts';
import { customerDocTypes } from '../materials/requirements.ts';
import {
  applicationScopeBranches,
  applicationScopeReads,
  applicationScopeShape,
  applicationsVisibleTo,
  isApplicationOwner,
} from './access.ts';
import { APPLICATION_NOT_FOUND, seeAll } from './changes.ts';

// ---- reading ----

const owner = alias(users, 'app_owner');

const rowColumns = {
  ...getTableColumns(applications),
  productCode: products.code,
  productName: products.name,
  productClass: products.productClass,
  allowsCoinsurance: products.allowsCoinsurance,
  issuerLeads: products.issuerLeads,
  requiredMaterials: products.requiredMaterials,
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

/**
 * An instant as PostgreSQL writes a UTC timestamp (`2026-11-29 05:41:46.123456`, the fraction as long as it needs;
 * toRow writes it as `Date.toISOString()` does): to_char took PostgreSQL 0.7 µs a value, 60 a page of 20 rows; this
 * takes 0.14.
 */
const isoText = (column: AnyPgColumn) => sql<string | null>`(${column} at time zone 'UTC')::text`;

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
  // Instants as text from PostgreSQL (isoText): parsing them into Dates only to print them again cost more.
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
  dataVersion: dataVersionOf(CHANGE_SEQUENCE),
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

/** PostgreSQL's text of a UTC timestamp (isoText), as `Date.toISOString()` writes it: milliseconds, truncated. */
const isoOfText = (t: string) => `${t.slice(0, 10)}T${t.slice(11, 19)}.${t.slice(20, 23).padEnd(3, '0')}Z`;
const isoOf = (d: Instant) => (typeof d === 'string' ? isoOfText(d) : d.toISOString());
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

/**
 * An application's co-insurers with their shares and parts, in their order (copied onto its policy at issue):
 * dictionary insurers by their label, the issuing insurer (ISSUER_CODE) by the organisation's name.
 */
export async function applicationCoinsurersOf(
  db: Db | Tx,
  id: number,
  issuer?: string,
): Promise<CoinsurerRow[]> {
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
  const name = rows.some((r) => r.insurerCode === ISSUER_CODE) ? (issuer ?? (await insurerName(db))) : null;
  return rows.map((r) => ({
    ...r,
    insurerName: r.insurerCode === ISSUER_CODE ? name : r.insurerName,
    shareText: microPercentText(r.share),
  }));
}

async function detailOf(db: Db | Tx, viewer: CustomerViewer, r: RawRow): Promise<ApplicationDetail> {
  // One after another: on a transaction (one connection) concurrent queries are not allowed.
  const issuerName = await insurerName(db);
  const coinsurers = await applicationCoinsurersOf(db, r.id, issuerName);
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
    issuerLeads: r.issuerLeads,
    issuerName,
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
    requiredMaterials: r.requiredMaterials,
    requestedDocTypes: r.requestedDocTypes,
    customerDocTypes: await customerDocTypes(db, r.customerId),
    policy:
      (
        await db
          .select({ id: policies.id, number: policies.number })
          .from(policies)
          .where(eq(policies.applicationId, r.id))
          .limit(1)
      )[0] ?? null,
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
    .select({
      e: applicationEvents,
      actor: actorNameOf(applicationEvents.actorId, applicationEvents.actorName),
    })
    .from(applicationEvents)
    .where(eq(applicationEvents.applicationId, id))
    .orderBy(asc(applicationEvents.id));
  return rows.map(({ e, actor }) => ({
    id: e.id,
    action: e.action,
    fromStatus: e.fromStatus as ApplicationStatus | null,
    toStatus: e.toStatus as ApplicationStatus,
    actor,
    opinion: e.opinion,
    at: e.createdAt.toISOString(),
  }));
}

type Fields = Record<string, unknown>;
const isFields = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A resubmission's changes: what the applicant's saves changed between the last return and the submission that
 * opened task `taskId`, merged field by field (the value at the return → the value submitted; a field changed
 * back is left out). Null when that submission follows no return.
 */
export async function changesSinceReturn(
  db: Db,
  applicationId: number,
  taskId: number,
): Promise<{ before: Fields; after: Fields } | null> {
  const rows = await db
    .select({ action: auditLog.action, detail: auditLog.detail })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, 'application'),
        eq(auditLog.entityId, String(applicationId)),
        inArray(auditLog.action, ['review_return', 'update']),
        // The submission's task opens in the submission's transaction: its time is the submission's.
        sql`${auditLog.createdAt} <= (select ${reviewTasks.createdAt} from ${reviewTasks}
          where ${reviewTasks.id} = ${taskId})`,
      ),
    )
    .orderBy(asc(auditLog.id));
  let merged: { before: Fields; after: Fields } | null = null;
  for (const { action, detail } of rows) {
    if (action === 'review_return') merged = { before: {}, after: {} };
    else if (merged && isFields(detail) && isFields(detail.before) && isFields(detail.after)) {
      for (const [field, value] of Object.entries(detail.after)) {
        if (!(field in merged.before)) merged.before[field] = detail.before[field] ?? null;
        merged.after[field] = value;
      }
    }
  }
  if (!merged) return null;
  return diff(merged.before, merged.after);
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
/**
 * The id and the columns an order reads (its rendered text), for the merged branches of a scoped or searched list:
 * no more, so that a branch whose rows come from several index ranges (an agent's clients, the applicants found)
 * is an index-only scan of (column, key, id).
 */
function sortedBy(orderText: string): SQL {
  let columns = sortedColumns.get(orderText);
  if (columns === undefined) {
    const names = new Set(['id']);
    for (const m of orderText.matchAll(/"application"\."(\w+)"/g)) names.add(m[1]!);
    columns = [...names].map((n) => `"${n}"`).join(', ');
    if (sortedColumns.size >= 100) sortedColumns.clear(); // a few orders in use: the sortable columns, each way
    sortedColumns.set(orderText, columns);
  }
  return sql.raw(columns);
}
const sortedColumns = new Map<string, string>();

/** An order as the statement writes it: rendered once, as text (an order names columns, no values). */
function orderOf(orderBy: SQL[]): { sql: SQL; text: string } {
  const joined = sql.join(orderBy, sql`, `);
  const rendered = dialect.sqlToQuery(joined);
  return { sql: rendered.params.length ? joined : sql.raw(rendered.sql), text: rendered.sql };
}

/** The sorts that page by cursor (NOT NULL columns, each with an index on (column, id)); no sort: by id. */
const KEYSET: Partial<Record<SortField, KeysetField>> = {
  number: { column: applications.number, kind: 'text' },
  createdAt: { column: applications.createdAt, kind: 'timestamp' },
  updatedAt: { column: applications.updatedAt, kind: 'timestamp' },
};

/** The WHERE of insureList: what the viewer may see, and the filters. Conditions on application alone. */
function listFilter(db: Db, viewer: CustomerViewer, f: ApplicationFilter): SQL | undefined {
  return and(applicationsVisibleTo(db, viewer), filterOf(db, f));
}

/** The list's filters, without the viewer's scope. */
function filterOf(db: Db, f: ApplicationFilter): SQL | undefined {
  const search = searchBranches(db, f.blurry);
  return and(plainFilterOf(f).where, search && or(...search));
}

/** The list's filters but the keyword (givenFilters: `bind` their values for a shaped statement). */
function plainFilterOf(f: ApplicationFilter, bind?: Bind) {
  return givenFilters(
    [
      [applications.status, f.status],
      [applications.productId, f.productId],
      [applications.customerId, f.customerId],
      [applications.channel, f.channel],
      ...timeRangeFilters(applications.createdAt, f.startTime, f.endTime),
    ],
    bind,
  );
}

/**
 * The keyword ("contains" on number, insured name, applicant's name or credit code) as the branches of an OR,
 * each on its own index: the number and an insured other than the applicant by application.search_key's
 * trigrams (migration 0023), the applicants by customer.search_key's, their applications by
 * (customer_id, updated_at, id). A page reads each branch's first rows in list order (fetchListPage).
 */
function searchBranches(db: Db, text: string | undefined): SQL[] | undefined {
  if (!text) return undefined;
  const applicants = db
    .select({ id: customers.id })
    .from(customers)
    .where(
      keyedContains(
        text,
        customers.searchKey,
        [customers.name, customers.uscc],
        frequentTrigrams(db, 'customer'),
      ),
    );
  return [
    keyedContains(
      text,
      applications.searchKey,
      [applications.number, applications.insuredName],
      frequentTrigrams(db, 'application'),
    )!,
    sql`${applications.customerId} = any(array(${applicants}))`,
  ];
}

/**
 * The branches a page reads (fetchListPage), whose OR is the scope and the keyword: the viewer's scope (owner,
 * agent, clients …), the keyword's (own key, applicants), or with both, the own key with each scope branch (the
 * indexes AND) and the applicants once, with the whole scope as a filter (one look-up of the applicants, whose
 * rows are read along (customer_id, updated_at, id)).
 */
function pageBranches(scope: SQL[] | undefined, search: SQL[] | undefined): SQL[] | undefined {
  if (!scope || !search) return scope ?? search;
  const [own, applicants] = search as [SQL, SQL];
  return [...scope.map((branch) => and(branch, own)!), and(applicants, or(...scope))!];
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
    /** The viewer's scope and the keyword as the branches of an OR (pageBranches), when `where` leaves them out. */
    branches?: SQL[] | undefined;
    /** A condition without columns the page is answered under (no rows when false): page anchors' guard. */
    guard?: SQL | undefined;
    /**
     * The statement's shape when every value in `where`, `branches` and `boundary` is bound to `binder`
     * (lib/statement-shapes.ts): `key` names the scope, the filters, the order and the cursor's side.
     */
    shape?: { key: string; binder: Binder } | undefined;
  },
) {
  // LIMIT written out (a page size, one of a few): with LIMIT as a parameter PostgreSQL keeps re-planning the
  // prepared statement (runNamed) instead of settling on its generic plan. OFFSET only when paging by number;
  // written out too after a page anchor (fewer rows than a stride: a few values per page size).
  const limit = sql.raw(String(Math.trunc(q.limit)));
  const offset = !q.offset
    ? sql``
    : q.guard
      ? sql.raw(` offset ${Math.trunc(q.offset)}`)
      : sql` offset ${q.shape ? q.shape.binder.bind(q.offset) : q.offset}`;
  const build = () => listPageStatement(where, q, limit, offset);
  const query = q.shape
    ? shapedQuery(
        // Each branch reads limit + offset rows (written out below), so with branches the offset is in the text.
        `application list|${q.shape.key}|${q.limit}|${q.branches ? `${q.branches.length}+${q.offset}` : q.offset ? 'offset' : ''}`,
        q.shape.binder,
        build,
      )
    : dialect.sqlToQuery(build());
  return runNamed<ListRowWithKey>(db, query, LIST_KEYS);
}

/** The statement of fetchListPage. */
function listPageStatement(
  where: SQL | undefined,
  q: Parameters<typeof fetchListPage>[2],
  limit: SQL,
  offset: SQL,
): SQL {
  // Written up to five times below: rendered once.
  const { sql: order, text: orderText } = orderOf(q.orderBy);
  let ids: SQL;
  if (q.branches && q.branches.length > 1) {
    // A data scope or a keyword (an OR of owner, agent, clients …, of number, applicant …): each branch's first
    // offset + limit rows in list order, along its own index, merged; then the page. The union's rows carry the id
    // and the sort columns under the table's name, so the order (and the cursor boundary inside each branch) reads
    // as it does on the table.
    const each = sql.raw(String(Math.trunc(q.limit + q.offset)));
    const columns = sortedBy(orderText);
    const parts = q.branches.map(
      (branch) => sql`(select ${columns} from ${applications}
        where ${and(branch, where, q.boundary)} order by ${order} limit ${each})`,
    );
    ids = sql`(select ${applications.id} from (${sql.join(parts, sql` union `)}) as ${applications}
      order by ${order} limit ${limit}${offset})`;
  } else {
    ids = sql`(select ${applications.id} from ${applications} where ${and(where, q.boundary) ?? sql`true`}
      order by ${order} limit ${limit}${offset})`;
  }
  // The sort key expression goes into the pre-rendered select list: a column expression, without parameters.
  const key = q.key ? dialect.sqlToQuery(q.key).sql : `''`;
  const guard = q.guard ? sql`${q.guard} and ` : sql``;
  return sql`${sql.raw(LIST_FROM.replace(CURSOR_KEY_MARK, key))} where ${guard}${applications.id} in ${ids}
    order by ${order}`;
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
    count: () => countRows(db, applications, where),
  };
}

/** What listFilter depends on: the viewer's visibility (applicationsVisibleTo) and the filters. */
function countKey(v: CustomerViewer, f: ApplicationFilter): unknown[] {
  const { status, productId, customerId, channel, blurry, startTime, endTime } = f;
  return [viewerScopeKey(v), status, productId, customerId, channel, blurry, startTime, endTime];
}

export interface ApplicationListQuery extends ApplicationFilter, PageParams {
  after?: string | undefined;
  before?: string | undefined;
}

/**
 * A far page by number from the list's page anchors (lib/page-anchors.ts): the rows after the anchor before
 * `start`, skipping fewer than a stride, under the anchors' guard. Null when the anchors cannot answer it (none
 * kept, the page lies past them, or the data moved since): the caller reads it by OFFSET.
 */
async function pageFromAnchors(
  db: Db,
  viewer: CustomerViewer,
  q: ApplicationListQuery,
  order: KeysetOrder,
  anchors: AnchorCache,
  page: { where: SQL | undefined; branches: SQL[] | undefined; start: number },
): Promise<ListRowWithKey[] | null> {
  const where = listFilter(db, viewer, q);
  const key = anchorKey(dialect.sqlToQuery(where ?? sql`true`), order.signature);
  const reads = applicationScopeReads(db, viewer);
  const compute = () =>
    readAnchors(db, {
      table: 'application',
      sequence: CHANGE_SEQUENCE,
      stride: anchors.stride,
      rows: sql`select ${sortedBy(orderOf(order.orderBy).text)} from ${applications}
        where ${where ?? sql`true`}`,
      orderBy: order.orderBy,
      key: order.keyText,
      id: sql`${applications.id}`,
      inputs: reads,
    });
  // A set read before the last change answers nothing: read it again once.
  for (let attempt = 0; attempt < 2; attempt++) {
    const set = anchors.peek(key) ?? (await anchors.load(key, compute));
    if (!set) return null;
    const at = anchorFor(set, anchors.stride, page.start);
    if (!at) return null;
    const rows = await fetchListPage(db, page.where, {
      branches: page.branches,
      limit: q.size,
      offset: at.skip,
      orderBy: order.orderBy,
      boundary: order.boundary(at.anchor, 'after'),
      key: order.keyText,
      guard: anchorGuard(CHANGE_SEQUENCE, set, reads),
    });
    if (rows.length) {
      anchors.hits++;
      return rows;
    }
    anchors.drop(key, set.version);
  }
  return null;
}

/**
 * insureList: one page of the applications the viewer may see, filtered; newest first. Sorted by id, number,
 * createdAt or updatedAt (or not at all) it also pages by cursor (`after` / `before`, see lib/paging.ts), and
 * answers its cursors; a far page by number (no keyword) starts from the list's page anchors when `anchors` is
 * given. The count runs only for a full page, and is cached per filter and data scope until an application
 * changes (or 30 s pass).
 */
export async function listApplications(
  db: Db,
  viewer: CustomerViewer,
  q: ApplicationListQuery,
  counts: CountCache,
  anchors?: AnchorCache,
): Promise<Page<ApplicationRow> & { cursors: PageCursors | null }> {
  if (q.after !== undefined && q.before !== undefined) throw badRequest('游标：after 与 before 只能给一个');
  const order = keysetOrder(q.sort, KEYSET, applications.id);
  const text = q.after ?? q.before;
  const cursor = text === undefined ? null : decodeCursor(order, text);
  const back = q.before !== undefined;
  const start = q.page * q.size;
  const fromAnchors = !!anchors && !!order && !cursor && !q.blurry && start >= anchors.stride;
  // Without a keyword or page anchors, the page's statement is shaped (lib/statement-shapes.ts): its values bound,
  // its text rendered once per scope, filters, order and cursor side.
  const binder = new Binder();
  const scope = q.blurry || fromAnchors ? null : applicationScopeShape(db, viewer, binder);
  const bind = scope ? binder.bind : undefined;
  // A scope or keyword of several branches is read branch by branch (fetchListPage); one branch is a plain WHERE.
  const parts = pageBranches(
    scope ? scope.branches : applicationScopeBranches(db, viewer),
    searchBranches(db, q.blurry),
  );
  const branches = parts && parts.length > 1 ? parts : undefined;
  const filters = plainFilterOf(q, bind);
  const pageWhere = branches ? filters.where : and(parts && or(...parts), filters.where);
  const anchored = fromAnchors
    ? await pageFromAnchors(db, viewer, q, order!, anchors!, { where: pageWhere, branches, start })
    : null;
  const side = back ? 'before' : 'after';
  const rows =
    anchored ??
    (await fetchListPage(db, pageWhere, {
      branches,
      limit: q.size,
      offset: cursor ? 0 : start,
      orderBy: order
        ? back
          ? order.reversed
          : order.orderBy
        : orderByOf(q.sort, sortColumns, DEFAULT_ORDER),
      boundary: cursor && order ? order.boundary(cursor, side, bind) : undefined,
      key: order?.keyText,
      shape: scope
        ? {
            key: `${scope.shape}|${filters.shape}|${order?.signature ?? sortItems(q.sort).join(';')}|${cursor ? side : ''}`,
            binder,
          }
        : undefined,
    }));
  if (back) rows.reverse();
  const short = !back && rows.length < q.size && (rows.length > 0 || start === 0);
  let totalElements = start + rows.length;
  if (!short) {
    totalElements = await counts.ofList(
      db,
      countKey(viewer, q),
      rows[0]?.dataVersion,
      [CHANGE_SEQUENCE],
      async () => {
        // Values as they are (the page's are bound to its shaped statement).
        const where = listFilter(db, viewer, q);
        return (await db.select({ n: count() }).from(applications).where(where))[0]?.n ?? 0;
      },
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

/** The export's columns. */
export const EXPORT_COLUMNS: XlsxColumn<ApplicationRow>[] = [
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
