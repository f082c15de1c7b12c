// Policies: the list (the caller's scope, as applications: a policy is visible exactly when its application
// is), the detail with payments and the timeline, the e-policy download, and the public verification.
import { type ApplicationStatus, type Channel, shanghaiToday } from '@piibs/shared/application-status';
import { DOCUMENT_KIND_LABELS, type DocumentKind, type IssuedDocumentRow } from '@piibs/shared/documents';
import { fenToYuanText } from '@piibs/shared/money';
import { PAYMENT_PROVIDER_LABELS, type PaymentProviderName, type PaymentSource } from '@piibs/shared/payment';
import {
  maskHolderName,
  POLICY_NOT_FOUND,
  type POLICY_SORT_FIELDS,
  POLICY_STATUS_LABELS,
  type PolicyCoverage,
  type PolicyDetail,
  type PolicyRow,
  type PolicyStatus,
  type PolicyVerification,
  policyCoinsurerOf,
  policyCoversOf,
  policyStatusOn,
  VERIFY_FAILED,
  verifyPath,
} from '@piibs/shared/policy';
import type { QuoteResult } from '@piibs/shared/product';
import { and, asc, eq, gte, inArray, lt, lte, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  applications,
  endorsements,
  issuedDocuments,
  paymentOrders,
  payments,
  policies,
  policyCoinsurers,
  products,
  users,
} from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { blurry, givenFilters, timeRangeFilters } from '../../lib/filters.ts';
import { type CountCache, dataVersionOf } from '../../lib/keyset.ts';
import {
  countRows,
  type ListSpec,
  listSource,
  orderedOnlyBy,
  pageFrom,
  type SortColumns,
} from '../../lib/paging.ts';
import { asIs, type Bind, Binder } from '../../lib/statement-shapes.ts';
import type { XlsxColumn } from '../../lib/xlsx.ts';
import { applicationsVisibleTo, policyScopeBranches, policyScopeShape } from '../applications/access.ts';
import { applicationEventsOf } from '../applications/queries.ts';
import { type CustomerViewer, viewerScopeKey } from '../customers/access.ts';
import { insurerName } from '../init/service.ts';
import { getProduct } from '../products/service.ts';

/**
 * The condition limiting policies to those whose application the viewer may see (undefined: all). Shaped for one
 * policy (a row by id: its application is checked, one probe); a list reads the policy's own copies of the scope
 * columns (policyScopeBranches).
 */
export function policiesVisibleTo(db: Db, viewer: CustomerViewer): SQL | undefined {
  const visible = applicationsVisibleTo(db, viewer);
  if (!visible) return undefined;
  return inArray(
    policies.applicationId,
    db.select({ id: applications.id }).from(applications).where(visible),
  );
}

const rowColumns = {
  id: policies.id,
  number: policies.number,
  applicationId: policies.applicationId,
  applicationNumber: applications.number,
  productId: policies.productId,
  productCode: products.code,
  productName: products.name,
  customerId: policies.customerId,
  holderName: policies.holderName,
  holderUscc: policies.holderUscc,
  insuredName: policies.insuredName,
  startDate: policies.startDate,
  endDate: policies.endDate,
  premiumFen: policies.premiumFen,
  preventionFeeFen: policies.preventionFeeFen,
  status: policies.status,
  issuedAt: policies.issuedAt,
};

const selectRows = (db: Db) =>
  db
    .select(rowColumns)
    .from(policies)
    .innerJoin(applications, eq(applications.id, policies.applicationId))
    .innerJoin(products, eq(products.id, policies.productId));
type RawRow = Awaited<ReturnType<typeof selectRows>>[number];

const CHANGE_SEQUENCE = 'policy_data_version_seq';
/** The list's rows, each with the policies' data version (migration 0028) read in the same statement. */
const LIST_SOURCE = listSource<RawRow & { dataVersion: string }>(
  {
    ...rowColumns,
    dataVersion: dataVersionOf(CHANGE_SEQUENCE),
  },
  (select) =>
    select
      .from(policies)
      .innerJoin(applications, eq(applications.id, policies.applicationId))
      .innerJoin(products, eq(products.id, policies.productId)),
);

/** The row as the API answers it, written field by field (a list page's row carries its data version too). */
function toRow(r: RawRow, today: string): PolicyRow {
  const status = policyStatusOn(r, today);
  return {
    id: r.id,
    number: r.number,
    applicationId: r.applicationId,
    applicationNumber: r.applicationNumber,
    productId: r.productId,
    productCode: r.productCode,
    productName: r.productName,
    customerId: r.customerId,
    holderName: r.holderName,
    holderUscc: r.holderUscc,
    insuredName: r.insuredName,
    startDate: r.startDate,
    endDate: r.endDate,
    premiumFen: r.premiumFen,
    preventionFeeFen: r.preventionFeeFen,
    status,
    statusLabel: POLICY_STATUS_LABELS[status],
    issuedAt: r.issuedAt.toISOString(),
  };
}

export interface PolicyFilter {
  status?: PolicyStatus | undefined;
  productId?: number | undefined;
  customerId?: number | undefined;
  blurry?: string | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

/**
 * The WHERE of a status as of today: what `policyStatusOn` derives (a cancelled policy is 已退保 whatever its
 * period; otherwise the period decides), so the filter and the shown status agree whether or not the hourly
 * pass (expiry.ts) has stored it yet.
 */
function statusCondition(
  status: PolicyStatus | undefined,
  today: string | Placeholder<string, string>,
): SQL | undefined {
  if (!status) return undefined;
  if (status === 'CANCELLED') return eq(policies.status, 'CANCELLED');
  const live = sql`${policies.status} <> 'CANCELLED'`;
  if (status === 'EXPIRED') return and(live, lt(policies.endDate, today));
  if (status === 'IN_FORCE') return and(live, lte(policies.startDate, today), gte(policies.endDate, today));
  return and(live, sql`${policies.startDate} > ${today}`);
}

/** The columns of the policy export (保单查询 / 我的保单 → 导出). */
export const POLICY_EXPORT_COLUMNS: XlsxColumn<PolicyRow>[] = [
  { header: '保单号', width: 22, value: (r) => r.number },
  { header: '投保人', width: 30, value: (r) => r.holderName },
  { header: '被保险人', width: 30, value: (r) => r.insuredName },
  { header: '险种', width: 30, value: (r) => r.productName },
  { header: '保险起期', width: 12, value: (r) => r.startDate },
  { header: '保险止期', width: 12, value: (r) => r.endDate },
  { header: '保费（元）', width: 14, value: (r) => fenToYuanText(r.premiumFen) },
  { header: '状态', width: 10, value: (r) => r.statusLabel },
  { header: '投保单号', width: 20, value: (r) => r.applicationNumber },
  { header: '出单日期', width: 12, value: (r) => r.issuedAt.slice(0, 10) },
];

type SortField = (typeof POLICY_SORT_FIELDS)[number];
const sortColumns: SortColumns<SortField> = {
  id: policies.id,
  number: policies.number,
  issuedAt: policies.issuedAt,
  startDate: policies.startDate,
  endDate: policies.endDate,
  premiumFen: policies.premiumFen,
};

/** GET /api/policies: the policies the viewer may see, filtered; newest first. */
export const NEWEST_FIRST = sql`${policies.id} desc`;

/**
 * A page newest first under a scope of several branches (an agent's owner, agent and clients): each branch's first
 * offset + limit policies along its own index ((owner | agent | applicant_owner | customer, id)), merged, then the
 * page's ids (read them at offset 0). As one OR PostgreSQL's generic plan walks every policy newest first,
 * filtering (an enterprise's 29 policies among 25,000: 16 ms a page). Undefined where it does not apply: a scope
 * of one branch (or none), or another order.
 */
export function mergedPage(
  branches: SQL[] | undefined,
  filters: SQL | undefined,
  q: { limit: number; offset: number; orderBy: readonly SQL[] },
  bind: Bind = asIs,
): SQL | undefined {
  if (!branches || branches.length < 2 || !orderedOnlyBy(q.orderBy, NEWEST_FIRST)) return undefined;
  const each = sql.raw(String(Math.trunc(q.limit + q.offset)));
  const parts = branches.map(
    (branch) => sql`(select ${policies.id} from ${policies} where ${and(branch, filters)}
      order by ${NEWEST_FIRST} limit ${each})`,
  );
  return sql`${policies.id} in (select "id" from (${sql.join(parts, sql` union `)}) as merged
    order by "id" desc limit ${sql.raw(String(Math.trunc(q.limit)))} offset ${bind(q.offset)})`;
}

/**
 * The policy list's filters (givenFilters: `bind` their values for a shaped statement), and their shape: also the
 * status, each of which has its own condition (the keyword's statement is never shaped).
 */
function policyFilters(f: PolicyFilter, today: string, bind: Bind = asIs) {
  const given = givenFilters(
    [
      [policies.productId, f.productId],
      [policies.customerId, f.customerId],
      ...timeRangeFilters(policies.issuedAt, f.startTime, f.endTime),
    ],
    bind,
  );
  return {
    where: and(
      statusCondition(f.status, bind(today)),
      given.where,
      blurry(f.blurry, policies.number, policies.holderName, policies.holderUscc, policies.insuredName),
    ),
    shape: `${f.status ?? ''}|${given.shape}`,
  };
}

export function policyListSpec(
  db: Db,
  viewer: CustomerViewer,
  f: PolicyFilter,
  counts?: CountCache,
): ListSpec<SortField, PolicyRow> {
  const today = shanghaiToday();
  let version: string | undefined;
  const countAll = () => {
    const branches = policyScopeBranches(db, viewer);
    return countRows(db, policies, and(branches && or(...branches), policyFilters(f, today).where));
  };
  return {
    columns: sortColumns,
    defaultOrder: [NEWEST_FIRST],
    fetch: async (q) => {
      // Newest first without a keyword, the page's statement is shaped (lib/statement-shapes.ts): its values bound,
      // its text rendered once per scope, filters and window.
      const binder = new Binder();
      const scope =
        orderedOnlyBy(q.orderBy, NEWEST_FIRST) && !f.blurry ? policyScopeShape(db, viewer, binder) : null;
      const bind = scope ? binder.bind : asIs;
      const branches = scope ? scope.branches : policyScopeBranches(db, viewer);
      const filters = policyFilters(f, today, bind);
      const merged = mergedPage(branches, filters.where, q, bind);
      const shape = scope
        ? {
            key: `policy list|${scope.shape}|${filters.shape}|${merged ? `merged ${q.limit}+${q.offset}` : ''}`,
            binder,
          }
        : undefined;
      const rows = await pageFrom(
        db,
        LIST_SOURCE,
        merged ?? and(branches && or(...branches), filters.where),
        merged ? { ...q, offset: 0 } : q,
        {},
        shape,
      );
      version = rows[0]?.dataVersion;
      return rows.map((r) => toRow(r, today));
    },
    count: async () => {
      if (!counts) return countAll();
      const { status, productId, customerId, blurry, startTime, endTime } = f;
      // The status of a policy follows the date (policyStatusOn): a day's counts are that day's.
      const key = [viewerScopeKey(viewer), today, status, productId, customerId, blurry, startTime, endTime];
      return counts.ofList(db, key, version, [CHANGE_SEQUENCE], countAll);
    },
  };
}

async function visibleRow(db: Db, viewer: CustomerViewer, id: number): Promise<RawRow> {
  const [row] = await selectRows(db).where(and(eq(policies.id, id), policiesVisibleTo(db, viewer)));
  if (!row) throw notFound(POLICY_NOT_FOUND);
  return row;
}

/** What policies issued before the covers were stored kept instead: the quote's lines with limits. */
interface IssuedLine extends Omit<PolicyCoverage, 'type' | 'premiumFen'> {
  type: PolicyCoverage['type'] | null;
  baseFen: number;
}

/**
 * A policy's covers (保险责任) as stored at issue. A policy issued before the covers were stored kept the quote's
 * lines instead (rating formulas as names; construction's cost bands without limits): its covers are rebuilt
 * from its application's quote and the product's coverages, with the limits and deductible a line recorded at
 * issue where there is one.
 */
export async function policyCovers(
  db: Db | Tx,
  p: { coverages: unknown; productId: number; applicationId: number },
): Promise<PolicyCoverage[]> {
  const stored = p.coverages as (PolicyCoverage | IssuedLine)[];
  if (!stored.some((c) => 'baseFen' in c)) return stored as PolicyCoverage[];
  const [app] = await db
    .select({ quote: applications.quote })
    .from(applications)
    .where(eq(applications.id, p.applicationId));
  const quote = app?.quote as QuoteResult | null | undefined;
  if (!quote) return [];
  return policyCoversOf((await getProduct(db, p.productId)).coverages, quote).map((c) => {
    const line = stored.find((l) => l.type === c.type);
    return line
      ? {
          ...c,
          perPersonLimitFen: line.perPersonLimitFen,
          perAccidentLimitFen: line.perAccidentLimitFen,
          aggregateLimitFen: line.aggregateLimitFen,
          deductibleFen: line.deductibleFen,
        }
      : c;
  });
}

/** GET /api/policies/:id (404 unless the viewer may see the policy's application). */
export async function getPolicy(db: Db, viewer: CustomerViewer, id: number): Promise<PolicyDetail> {
  const row = await visibleRow(db, viewer, id);
  const [[p], coinsurers, paid, [app], events] = await Promise.all([
    db.select().from(policies).where(eq(policies.id, id)),
    db
      .select()
      .from(policyCoinsurers)
      .where(eq(policyCoinsurers.policyId, id))
      .orderBy(asc(policyCoinsurers.sort), asc(policyCoinsurers.id)),
    db
      .select({ payment: payments, orderNumber: paymentOrders.number })
      .from(payments)
      .innerJoin(paymentOrders, eq(paymentOrders.id, payments.orderId))
      .where(eq(payments.applicationId, row.applicationId))
      .orderBy(asc(payments.id)),
    db
      .select({
        id: applications.id,
        number: applications.number,
        status: applications.status,
        channel: applications.channel,
        policyholderType: applications.policyholderType,
        submittedAt: applications.submittedAt,
        ownerName: sql<string | null>`coalesce(${users.nickName}, ${users.username})`,
      })
      .from(applications)
      .leftJoin(users, eq(users.id, applications.ownerId))
      .where(eq(applications.id, row.applicationId)),
    applicationEventsOf(db, { ...viewer, staffScope: { all: true } }, row.applicationId),
  ]);
  const person = app!.policyholderType === 2;
  return {
    ...toRow(row, shanghaiToday()),
    // The policy stores either code in one column; the application's policyholder type says which it is.
    insuredUscc: person ? null : p!.insuredUscc,
    insuredIdNumber: person ? p!.insuredUscc : null,
    insuredAddress: p!.insuredAddress,
    preventionRatio: p!.preventionRatio,
    headcount: p!.headcount,
    projectName: p!.projectName,
    specialTerms: p!.specialTerms,
    coverages: await policyCovers(db, p!),
    coinsurers: coinsurers.map(policyCoinsurerOf),
    verificationCode: p!.verificationCode,
    verifyPath: verifyPath(p!.verificationCode),
    document: { sha256: p!.pdfSha256, sizeBytes: p!.pdfSize, downloadPath: `/api/policies/${id}/pdf` },
    payments: paid.map(({ payment: m, orderNumber }) => ({
      id: m.id,
      orderNumber,
      provider: m.provider,
      providerLabel: PAYMENT_PROVIDER_LABELS[m.provider as PaymentProviderName] ?? m.provider,
      tradeNo: m.tradeNo,
      amountFen: m.amountFen,
      paidAt: m.paidAt.toISOString(),
      source: m.source as PaymentSource,
    })),
    application: {
      id: app!.id,
      number: app!.number,
      status: app!.status as ApplicationStatus,
      channel: app!.channel as Channel,
      submittedAt: app!.submittedAt?.toISOString() ?? null,
      ownerName: app!.ownerName,
    },
    events,
  };
}

/**
 * The e-policy of a policy the viewer may see (404 otherwise): `stored` answers the policy's stored file, drawn
 * first when it has none (issue.ts storedPolicyDocument; given by the route, as issue.ts reaches this module).
 */
export async function policyPdf(
  db: Db,
  viewer: CustomerViewer,
  id: number,
  stored: (policyId: number) => Promise<{ content: Buffer; sha256: string } | null>,
): Promise<{ number: string; content: Buffer; sha256: string }> {
  const row = await visibleRow(db, viewer, id);
  const doc = await stored(id);
  if (!doc) throw notFound(POLICY_NOT_FOUND);
  return { number: row.number, content: doc.content, sha256: doc.sha256 };
}

/**
 * Every file issued for a policy, oldest first: its kind, number, SHA-256 and signing certificate. A policy
 * issued before documents were signed lists its e-policy as stored, without a certificate.
 */
export async function policyDocumentsOf(
  db: Db,
  p: { id: number; number: string; pdfSha256: string; pdfSize: number; issuedAt: Date },
): Promise<IssuedDocumentRow[]> {
  const rows = await db
    .select({
      kind: issuedDocuments.kind,
      number: issuedDocuments.number,
      sha256: issuedDocuments.sha256,
      size: issuedDocuments.size,
      issuedAt: issuedDocuments.issuedAt,
      subject: issuedDocuments.certSubject,
      issuer: issuedDocuments.certIssuer,
      serial: issuedDocuments.certSerial,
      notBefore: issuedDocuments.certNotBefore,
      notAfter: issuedDocuments.certNotAfter,
    })
    .from(issuedDocuments)
    .where(eq(issuedDocuments.policyId, p.id))
    .orderBy(asc(issuedDocuments.issuedAt), asc(issuedDocuments.id));
  const docs: IssuedDocumentRow[] = rows.map((r) => ({
    kind: r.kind as DocumentKind,
    kindLabel: DOCUMENT_KIND_LABELS[r.kind as DocumentKind] ?? r.kind,
    number: r.number,
    sha256: r.sha256,
    sizeBytes: r.size,
    issuedAt: r.issuedAt.toISOString(),
    certificate: {
      subject: r.subject,
      issuer: r.issuer,
      serial: r.serial,
      notBefore: r.notBefore.toISOString(),
      notAfter: r.notAfter.toISOString(),
    },
  }));
  if (p.pdfSha256 && !docs.some((d) => d.sha256 === p.pdfSha256))
    docs.unshift({
      kind: 'POLICY',
      kindLabel: DOCUMENT_KIND_LABELS.POLICY,
      number: p.number,
      sha256: p.pdfSha256,
      sizeBytes: p.pdfSize,
      issuedAt: p.issuedAt.toISOString(),
      certificate: null,
    });
  return docs;
}

/** GET /api/policies/verify/:code (public): masked data only; an unknown code answers 404. */
export async function verifyPolicy(db: Db, code: string): Promise<PolicyVerification> {
  const normal = code.trim().toUpperCase();
  const [row] = normal
    ? await db
        .select({ policy: policies, productName: products.name })
        .from(policies)
        .innerJoin(products, eq(products.id, policies.productId))
        .where(eq(policies.verificationCode, normal))
    : [];
  if (!row) throw notFound(VERIFY_FAILED);
  const p = row.policy;
  const status = policyStatusOn(p);
  const [insurer, covers, endorsed, documents] = await Promise.all([
    insurerName(db),
    policyCovers(db, p),
    db
      .select({
        number: endorsements.number,
        effectiveDate: endorsements.effectiveDate,
        premiumDiffFen: endorsements.premiumDiffFen,
        issuedAt: endorsements.issuedAt,
      })
      .from(endorsements)
      .where(eq(endorsements.policyId, p.id))
      .orderBy(asc(endorsements.issuedAt), asc(endorsements.id)),
    policyDocumentsOf(db, p),
  ]);
  return {
    valid: true,
    insurerName: insurer,
    policyNumber: p.number,
    productName: row.productName,
    holderName: maskHolderName(p.holderName),
    startDate: p.startDate,
    endDate: p.endDate,
    premiumFen: p.premiumFen,
    coverages: covers,
    status,
    statusLabel: POLICY_STATUS_LABELS[status],
    issuedAt: p.issuedAt.toISOString(),
    endorsements: endorsed.map((e) => ({ ...e, issuedAt: e.issuedAt.toISOString() })),
    documents,
  };
}
