// Applications (投保单): drafts saved step by step, co-insurers, submit (re-rated on the active rate table, into
// the review queue), cancel, the underwriter's decision (called by the task service), lists and the timeline.
//
// Every change locks the application row, checks who may change it (owner or its agent, else 403), its state
// (409) and its version (409 when stale), and bumps the version. Every transition writes application_event (the
// timeline) and the audit trail in the same transaction. Money is integer fen; the quote kept on the row is the
// full QuoteResult (rate-table id and version, every input, lines, factors), so it can be reproduced.

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
import { and, asc, count, desc, eq, getTableColumns, gte, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
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
import { type Actor, writeAudit } from '../../lib/audit.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../lib/errors.ts';
import { blurry, type ListSpec, type SortColumns } from '../../lib/paging.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { getCustomer } from '../customers/service.ts';
import { quoteProduct } from '../products/quote.ts';
import { getProduct } from '../products/service.ts';
import { openReviewTask } from '../tasks/queue.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import { applicationsVisibleTo, isApplicationOwner } from './access.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
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

const iso = (d: Date | null) => d?.toISOString() ?? null;

function toRow(r: RawRow, userId: number): ApplicationRow {
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
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
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
  const [coinsurers, customer, [order]] = await Promise.all([
    coinsurersOf(db, r.id),
    getCustomer(db, seeAll(viewer), r.customerId),
    db
      .select()
      .from(paymentOrders)
      .where(eq(paymentOrders.applicationId, r.id))
      .orderBy(desc(paymentOrders.id))
      .limit(1),
  ]);
  return {
    ...toRow(r, viewer.user.id),
    insuredName: r.insuredName,
    insuredUscc: r.insuredUscc,
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

/** insureList: the applications the viewer may see, filtered; newest first. */
export function applicationListSpec(
  db: Db,
  viewer: CustomerViewer,
  f: ApplicationFilter,
): ListSpec<SortField, ApplicationRow> {
  const where = and(
    applicationsVisibleTo(db, viewer),
    f.status ? eq(applications.status, f.status) : undefined,
    f.productId ? eq(applications.productId, f.productId) : undefined,
    f.customerId ? eq(applications.customerId, f.customerId) : undefined,
    f.channel ? eq(applications.channel, f.channel) : undefined,
    blurry(f.blurry, applications.number, customers.name, customers.uscc, applications.insuredName),
    f.startTime ? gte(applications.createdAt, f.startTime) : undefined,
    f.endTime ? lte(applications.createdAt, f.endTime) : undefined,
  );
  return {
    columns: sortColumns,
    defaultOrder: [sql`${applications.id} desc`],
    fetch: async ({ limit, offset, orderBy }) =>
      (
        await selectRows(db)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset)
      ).map((r) => toRow(r, viewer.user.id)),
    count: async () =>
      (
        await db
          .select({ n: count() })
          .from(applications)
          .innerJoin(customers, eq(customers.id, applications.customerId))
          .where(where)
      )[0]?.n ?? 0,
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

async function audit(
  tx: Tx,
  actor: Actor,
  action: string,
  id: number,
  detail: Record<string, unknown>,
): Promise<void> {
  await writeAudit(tx, {
    actorId: actor.user.id,
    actorName: actor.user.username,
    action,
    entity: 'application',
    entityId: id,
    detail,
    ip: actor.ip,
  });
}

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
        insuredUscc: customer.uscc,
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
    });
    return { id: a.id, quoteProblem };
  });
  return { ...(await getApplication(db, actor.viewer, result.id)), quoteProblem: result.quoteProblem };
}

type DraftInput = z.infer<typeof applicationDraftForm>;

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
    const { version: _v, ...fields } = form;
    const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<
      typeof applications.$inferInsert
    >;
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
    await audit(tx, actor, 'update', id, { fields: Object.keys(fields).filter((k) => k in patch) });
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
    required(a.insuredName, '被保险人名称');
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
