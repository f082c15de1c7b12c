// Customers (投保人): list (visibility, masked phones), read, create, update, resubmit, unmask.
//
// Review rules (see @piibs/shared/review): a create or an edit by a non-reviewer puts the record to 'pending'
// and opens a review task (an edit of a pending record bumps the open task's version instead, so a reviewer
// deciding on what they saw before gets 409). An approved record that is edited goes back to 'pending' —
// applications then wait for the re-review; the audit trail keeps what changed. A rejected record is final:
// only a reviewer may still change it. A reviewer's own create is approved at once and their edits keep the
// status. The owner resubmits a returned record unchanged with POST /customers/:id/resubmit.
import { maskPhone } from '@piibs/shared';
import type {
  CUSTOMER_SORT_FIELDS,
  CustomerRow,
  customerCreateForm,
  customerResubmitForm,
  customerUpdateForm,
} from '@piibs/shared/customer';
import {
  type ReviewStatus,
  statusAfterEdit,
  statusAfterResubmit,
  statusOnCreate,
} from '@piibs/shared/review';
import { and, eq, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { customers, reviewTasks, users } from '../../db/schema.ts';
import { type Actor, auditAction, auditChange } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { conflict, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { givenFilters, keyedContains, timeRangeFilters } from '../../lib/filters.ts';
import { type CountCache, dataVersionOf } from '../../lib/keyset.ts';
import {
  countRows,
  type ListSpec,
  listSource,
  orderedOnlyBy,
  pageFrom,
  type SortColumns,
} from '../../lib/paging.ts';
import { type Bind, Binder } from '../../lib/statement-shapes.ts';
import { frequentTrigrams } from '../../lib/trigram-probe.ts';
import { checkDictCodes, dictLabel, regionLabel } from '../dicts/codes.ts';
import { dictLabels } from '../dicts/labels.ts';
import { openReviewTask } from '../tasks/queue.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import { type CustomerViewer, customerScopeShape, customersVisibleTo, viewerScopeKey } from './access.ts';

export const CUSTOMER_NOT_FOUND = '投保人不存在';
export const USCC_TAKEN = '统一社会信用代码已存在：该投保人已登记';
const FINGERPRINT_TAKEN = 'CA证书指纹已绑定其他投保人';
const OWN_ENTERPRISE_ONLY = '企业用户只能维护本企业（统一社会信用代码与账号一致）的投保人信息';

/** The caller of a change: who, from where, what they may see and whether they review customers. */
export interface CustomerActor extends Actor {
  viewer: CustomerViewer;
  isReviewer: boolean;
}

// ---- reading ----

const owner = alias(users, 'owner');

/** A customer row's columns but its dictionary labels, which a list page takes from memory (dicts/labels.ts). */
const listColumns = {
  id: customers.id,
  uscc: customers.uscc,
  name: customers.name,
  industrySection: customers.industrySection,
  industryDivision: customers.industryDivision,
  region: customers.region,
  address: customers.address,
  legalRepresentative: customers.legalRepresentative,
  contactName: customers.contactName,
  phone: customers.phone,
  headcount: customers.headcount,
  licenceNo: customers.licenceNo,
  caFingerprint: customers.caFingerprint,
  ownerId: customers.ownerId,
  ownerName: sql<string | null>`coalesce(${owner.nickName}, ${owner.username})`,
  reviewStatus: customers.reviewStatus,
  reviewOpinion: customers.reviewOpinion,
  reviewedAt: customers.reviewedAt,
  openTaskId: sql<number | null>`(select t.id from review_task t where t.kind = 'customer'
    and t.subject_id = "customer"."id" and t.status = 'open')`,
  version: customers.version,
  createdAt: customers.createdAt,
  updatedAt: customers.updatedAt,
};
/** One customer's columns, its labels read in the same statement. */
const rowColumns = {
  ...listColumns,
  industrySectionName: dictLabel('industry_section', customers.industrySection),
  industryDivisionName: dictLabel('industry_division', customers.industryDivision),
  regionName: regionLabel(customers.region),
};

const selectRows = (db: Db | Tx) =>
  db.select(rowColumns).from(customers).leftJoin(owner, eq(owner.id, customers.ownerId));
type RawRow = Awaited<ReturnType<typeof selectRows>>[number];

const CHANGE_SEQUENCE = 'customer_change_seq';
/** The list's rows, each with the customers' data version (migration 0024) read in the same statement. */
const LIST_SOURCE = listSource<Omit<RawRow, keyof Labels> & { dataVersion: string }>(
  {
    ...listColumns,
    dataVersion: dataVersionOf(CHANGE_SEQUENCE),
  },
  (select) => select.from(customers).leftJoin(owner, eq(owner.id, customers.ownerId)),
);

/** A list row's dictionary labels (read in SQL for one customer, from memory for a list page). */
type Labels = Pick<CustomerRow, 'industrySectionName' | 'industryDivisionName' | 'regionName'>;

/**
 * The row as the API answers it. Written field by field: a list page maps 20 rows per request, and spreading
 * (or rest-destructuring) a 25-column row cost more than the rest of the mapping.
 */
function toRow(r: Omit<RawRow, keyof Labels>, labels: Labels): CustomerRow {
  return {
    id: r.id,
    uscc: r.uscc,
    name: r.name,
    industrySection: r.industrySection,
    industrySectionName: labels.industrySectionName,
    industryDivision: r.industryDivision,
    industryDivisionName: labels.industryDivisionName,
    region: r.region,
    regionName: labels.regionName,
    address: r.address,
    legalRepresentative: r.legalRepresentative,
    contactName: r.contactName,
    phone: maskPhone(r.phone) ?? '',
    headcount: r.headcount,
    licenceNo: r.licenceNo,
    caFingerprint: r.caFingerprint,
    ownerId: r.ownerId,
    ownerName: r.ownerName,
    reviewStatus: r.reviewStatus as ReviewStatus,
    reviewOpinion: r.reviewOpinion,
    reviewedAt: r.reviewedAt?.toISOString() ?? null,
    openTaskId: r.openTaskId == null ? null : Number(r.openTaskId),
    version: r.version,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export interface CustomerFilter {
  blurry?: string | undefined;
  uscc?: string | undefined;
  reviewStatus?: ReviewStatus | undefined;
  region?: string | undefined;
  industrySection?: string | undefined;
  ownerId?: number | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

type SortField = (typeof CUSTOMER_SORT_FIELDS)[number];
const sortColumns: SortColumns<SortField> = {
  id: customers.id,
  name: customers.name,
  uscc: customers.uscc,
  region: customers.region,
  headcount: customers.headcount,
  reviewStatus: customers.reviewStatus,
  createdAt: customers.createdAt,
  updatedAt: customers.updatedAt,
};

/** The customer list's filters but the keyword (givenFilters: `bind` their values for a shaped statement). */
function customerFilters(f: CustomerFilter, bind?: Bind) {
  return givenFilters(
    [
      [customers.uscc, f.uscc],
      [customers.reviewStatus, f.reviewStatus],
      [customers.region, f.region],
      [customers.industrySection, f.industrySection],
      [customers.ownerId, f.ownerId],
      ...timeRangeFilters(customers.createdAt, f.startTime, f.endTime),
    ],
    bind,
  );
}

/** The customer list's default order, newest first (one object: a page in it is shaped, below). */
const NEWEST_FIRST = sql`${customers.id} desc`;

/**
 * The customers the viewer may see, filtered; phones masked. With `counts`, the count is cached per filter and
 * data scope until a customer changes (or 30 s pass), as the application list's is. Newest first without a
 * keyword, a page's statement is shaped (lib/statement-shapes.ts): its values bound, its text rendered once per
 * scope and filters.
 */
export function customerListSpec(
  db: Db,
  viewer: CustomerViewer,
  f: CustomerFilter,
  counts?: CountCache,
): ListSpec<SortField, CustomerRow> {
  const whereOf = (scope: SQL | undefined, filters: SQL | undefined) =>
    and(
      scope,
      keyedContains(
        f.blurry,
        customers.searchKey,
        [customers.name, customers.uscc, customers.contactName],
        frequentTrigrams(db, 'customer'),
      ),
      filters,
    );
  let version: string | undefined;
  const countAll = () =>
    countRows(db, customers, whereOf(customersVisibleTo(db, viewer), customerFilters(f).where));
  return {
    columns: sortColumns,
    defaultOrder: [NEWEST_FIRST],
    fetch: async (q) => {
      const binder = new Binder();
      const scope =
        orderedOnlyBy(q.orderBy, NEWEST_FIRST) && !f.blurry ? customerScopeShape(db, viewer, binder) : null;
      const filters = customerFilters(f, scope ? binder.bind : undefined);
      const where = whereOf(scope ? scope.where : customersVisibleTo(db, viewer), filters.where);
      const shape = scope ? { key: `customer list|${scope.shape}|${filters.shape}`, binder } : undefined;
      const [rows, labels] = await Promise.all([
        pageFrom(db, LIST_SOURCE, where, q, {}, shape),
        dictLabels(db),
      ]);
      version = rows[0]?.dataVersion;
      return rows.map((r) =>
        toRow(r, {
          industrySectionName: labels.label('industry_section', r.industrySection),
          industryDivisionName: labels.label('industry_division', r.industryDivision),
          regionName: labels.region(r.region),
        }),
      );
    },
    count: async () => {
      if (!counts) return countAll();
      const { blurry, uscc, reviewStatus, region, industrySection, ownerId, startTime, endTime } = f;
      const key = [
        viewerScopeKey(viewer),
        blurry,
        uscc,
        reviewStatus,
        region,
        industrySection,
        ownerId,
        startTime,
        endTime,
      ];
      return counts.ofList(db, key, version, [CHANGE_SEQUENCE], countAll);
    },
  };
}

/** One customer the viewer may see (404 otherwise), phone masked. */
export async function getCustomer(db: Db | Tx, viewer: CustomerViewer, id: number): Promise<CustomerRow> {
  const [row] = await selectRows(db).where(and(eq(customers.id, id), customersVisibleTo(db, viewer)));
  if (!row) throw notFound(CUSTOMER_NOT_FOUND);
  return toRow(row, row);
}

/** One customer by code the viewer may see (404 otherwise). */
export async function getCustomerByUscc(db: Db, viewer: CustomerViewer, uscc: string): Promise<CustomerRow> {
  const [row] = await selectRows(db).where(and(eq(customers.uscc, uscc), customersVisibleTo(db, viewer)));
  if (!row) throw notFound(CUSTOMER_NOT_FOUND);
  return toRow(row, row);
}

export const NO_OWN_ENTERPRISE = '当前账号未关联企业（统一社会信用代码），没有本企业的投保人信息';
export const OWN_RECORD_MISSING = '本企业尚未登记投保人信息';

/**
 * The enterprise account's own record (role 17: the customer whose code is the account's uscc), phone masked.
 * 404 when the caller is no enterprise account, has no code, or the enterprise is not registered yet.
 */
export async function getOwnCustomer(db: Db, viewer: CustomerViewer): Promise<CustomerRow> {
  if (!viewer.isEnterprise || !viewer.uscc) throw notFound(NO_OWN_ENTERPRISE);
  const [row] = await selectRows(db).where(eq(customers.uscc, viewer.uscc));
  if (!row) throw notFound(OWN_RECORD_MISSING);
  return toRow(row, row);
}

/** A customer by id, without a visibility check (the caller has just changed it). */
async function loadRow(tx: Tx, id: number): Promise<CustomerRow> {
  const [row] = await selectRows(tx).where(eq(customers.id, id));
  if (!row) throw notFound(CUSTOMER_NOT_FOUND);
  return toRow(row, row);
}

type Customer = typeof customers.$inferSelect;

/** Locks a customer the viewer may see for a change (404 otherwise). */
export async function lockCustomer(tx: Tx, viewer: CustomerViewer, id: number): Promise<Customer> {
  const [row] = await tx
    .select()
    .from(customers)
    .where(and(eq(customers.id, id), customersVisibleTo(tx, viewer)))
    .for('update', { of: customers });
  if (!row) throw notFound(CUSTOMER_NOT_FOUND);
  return row;
}

/** What the audit trail keeps of a customer: the phone masked. */
function snapshot(c: {
  uscc: string;
  name: string;
  industrySection: string;
  industryDivision: string;
  region: string;
  address: string;
  legalRepresentative: string;
  contactName: string;
  phone: string;
  headcount: number;
  licenceNo: string | null;
  caFingerprint: string | null;
  ownerId: number | null;
  reviewStatus: string;
}) {
  return {
    uscc: c.uscc,
    name: c.name,
    industrySection: c.industrySection,
    industryDivision: c.industryDivision,
    region: c.region,
    address: c.address,
    legalRepresentative: c.legalRepresentative,
    contactName: c.contactName,
    phone: maskPhone(c.phone),
    headcount: c.headcount,
    licenceNo: c.licenceNo,
    caFingerprint: c.caFingerprint,
    ownerId: c.ownerId,
    reviewStatus: c.reviewStatus,
  };
}

export const taskTitle = (c: { name: string; uscc: string }) => `${c.name}（${c.uscc}）`;

// ---- rules ----

/** An enterprise account (and nothing else) may only keep its own enterprise's record. */
function checkOwnEnterprise(viewer: CustomerViewer, uscc: string): void {
  const enterpriseOnly = viewer.isEnterprise && !viewer.isAgent && !viewer.staffScope;
  if (enterpriseOnly && uscc !== viewer.uscc) throw forbidden(OWN_ENTERPRISE_ONLY);
}

function constraintOf(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const c = (e as { constraint?: unknown }).constraint;
    if (typeof c === 'string') return c;
  }
  return undefined;
}

async function guardUnique<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict(constraintOf(err) === 'customer_ca_fingerprint' ? FINGERPRINT_TAKEN : USCC_TAKEN);
    throw err;
  }
}

async function taken(db: Db | Tx, column: 'uscc' | 'caFingerprint', value: string | null, exceptId?: number) {
  if (!value) return false;
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers[column], value), exceptId ? ne(customers.id, exceptId) : undefined))
    .limit(1);
  return Boolean(row);
}

// ---- changes ----

type CreateInput = z.infer<typeof customerCreateForm>;
type UpdateInput = z.infer<typeof customerUpdateForm>;

/** Creates a customer: pending with an open review task, unless a reviewer creates it (approved). */
export async function createCustomer(db: Db, actor: CustomerActor, form: CreateInput): Promise<CustomerRow> {
  checkOwnEnterprise(actor.viewer, form.uscc);
  await checkDictCodes(db, form);
  if (await taken(db, 'uscc', form.uscc)) throw conflict(USCC_TAKEN);
  if (await taken(db, 'caFingerprint', form.caFingerprint ?? null)) throw conflict(FINGERPRINT_TAKEN);
  return guardUnique(() =>
    db.transaction(async (tx) => {
      const status = statusOnCreate(actor.isReviewer);
      const values = {
        uscc: form.uscc,
        name: form.name,
        industrySection: form.industrySection,
        industryDivision: form.industryDivision,
        region: form.region,
        address: form.address,
        legalRepresentative: form.legalRepresentative,
        contactName: form.contactName,
        phone: form.phone,
        headcount: form.headcount,
        licenceNo: form.licenceNo ?? null,
        caFingerprint: form.caFingerprint ?? null,
        // Agent-created clients belong to the agent; enterprise accounts are linked by their uscc.
        ownerId: actor.viewer.isAgent ? actor.user.id : null,
        reviewStatus: status,
      };
      const [row] = await tx
        .insert(customers)
        .values({
          ...values,
          createdBy: actor.user.id,
          reviewedAt: status === 'approved' ? sql`now()` : null,
        })
        .returning({ id: customers.id });
      const id = row!.id;
      if (status === 'pending')
        await openReviewTask(tx, {
          kind: 'customer',
          subjectId: id,
          title: taskTitle(form),
          submittedBy: actor.user.id,
        });
      await auditChange(tx, actor, {
        action: 'create',
        entity: 'customer',
        entityId: id,
        after: snapshot(values),
      });
      return loadRow(tx, id);
    }),
  );
}

/** Updates a customer the caller may see (404 otherwise); a stale version answers 409. */
export async function updateCustomer(db: Db, actor: CustomerActor, form: UpdateInput): Promise<CustomerRow> {
  await checkDictCodes(db, form);
  return guardUnique(() =>
    db.transaction(async (tx) => {
      const before = await lockCustomer(tx, actor.viewer, form.id);
      checkOwnEnterprise(actor.viewer, form.uscc);
      if (before.version !== form.version) throw conflict(STALE_VERSION);
      const next = statusAfterEdit(before.reviewStatus as ReviewStatus, actor.isReviewer);
      if (!next) throw conflict('投保人已被拒绝，不能修改');
      if (form.uscc !== before.uscc && (await taken(tx, 'uscc', form.uscc, form.id)))
        throw conflict(USCC_TAKEN);
      const fingerprint = form.caFingerprint ?? null;
      if (fingerprint !== before.caFingerprint && (await taken(tx, 'caFingerprint', fingerprint, form.id)))
        throw conflict(FINGERPRINT_TAKEN);
      let phone = form.phone;
      if (phone.includes('*')) {
        if (phone !== maskPhone(before.phone))
          throw fieldError('phone', '请输入正确的电话号码或者固话号码', '联系电话');
        phone = before.phone;
      }
      const values = {
        uscc: form.uscc,
        name: form.name,
        industrySection: form.industrySection,
        industryDivision: form.industryDivision,
        region: form.region,
        address: form.address,
        legalRepresentative: form.legalRepresentative,
        contactName: form.contactName,
        phone,
        headcount: form.headcount,
        licenceNo: form.licenceNo ?? null,
        caFingerprint: fingerprint,
        ownerId: before.ownerId,
        reviewStatus: next,
      };
      await tx
        .update(customers)
        .set({ ...values, version: sql`${customers.version} + 1`, updatedAt: sql`now()` })
        .where(eq(customers.id, form.id));
      if (next === 'pending')
        await openReviewTask(tx, {
          kind: 'customer',
          subjectId: form.id,
          title: taskTitle(values),
          submittedBy: actor.user.id,
        });
      await auditChange(tx, actor, {
        action: 'update',
        entity: 'customer',
        entityId: form.id,
        before: snapshot(before),
        after: snapshot(values),
      });
      return loadRow(tx, form.id);
    }),
  );
}

/** The owner sends a returned record back to review unchanged. */
export async function resubmitCustomer(
  db: Db,
  actor: CustomerActor,
  id: number,
  form: z.infer<typeof customerResubmitForm>,
): Promise<CustomerRow> {
  return db.transaction(async (tx) => {
    const before = await lockCustomer(tx, actor.viewer, id);
    if (before.version !== form.version) throw conflict(STALE_VERSION);
    const next = statusAfterResubmit(before.reviewStatus as ReviewStatus);
    if (!next) throw conflict('只有已退回的投保人可以重新提交审核');
    await tx
      .update(customers)
      .set({ reviewStatus: next, version: sql`${customers.version} + 1`, updatedAt: sql`now()` })
      .where(eq(customers.id, id));
    const taskId = await openReviewTask(tx, {
      kind: 'customer',
      subjectId: id,
      title: taskTitle(before),
      submittedBy: actor.user.id,
    });
    await auditAction(tx, actor, {
      action: 'resubmit',
      entity: 'customer',
      entityId: id,
      detail: {
        before: { reviewStatus: before.reviewStatus },
        after: { reviewStatus: next },
        taskId,
        note: form.note ?? null,
      },
    });
    return loadRow(tx, id);
  });
}

/** The full phone number of a customer the caller may see; every read is written to the audit trail. */
export async function unmaskCustomer(db: Db, actor: CustomerActor, id: number): Promise<{ phone: string }> {
  const [row] = await db
    .select({ phone: customers.phone })
    .from(customers)
    .where(and(eq(customers.id, id), customersVisibleTo(db, actor.viewer)));
  if (!row) throw notFound(CUSTOMER_NOT_FOUND);
  await auditAction(db, actor, {
    action: 'unmask',
    entity: 'customer',
    entityId: id,
    detail: { field: 'phone' },
  });
  return { phone: row.phone };
}

// ---- review (called by the task service when a reviewer decides) ----

/** Locks the customer under review; null when the reviewer may not see it. */
export async function lockForReview(
  tx: Tx,
  viewer: CustomerViewer,
  id: number,
): Promise<{ status: ReviewStatus; title: string } | null> {
  const [row] = await tx
    .select({ status: customers.reviewStatus, name: customers.name, uscc: customers.uscc })
    .from(customers)
    .where(and(eq(customers.id, id), customersVisibleTo(tx, viewer)))
    .for('update', { of: customers });
  return row ? { status: row.status as ReviewStatus, title: taskTitle(row) } : null;
}

/** Records a decision on the customer. */
export async function applyReview(
  tx: Tx,
  id: number,
  next: ReviewStatus,
  opinion: string | null,
): Promise<void> {
  await tx
    .update(customers)
    .set({
      reviewStatus: next,
      reviewOpinion: opinion,
      reviewedAt: sql`now()`,
      version: sql`${customers.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(customers.id, id));
}

/** The condition limiting review tasks of kind 'customer' to customers the viewer may see. */
export function customerTasksVisibleTo(db: Db, viewer: CustomerViewer): SQL | undefined {
  const visible = customersVisibleTo(db, viewer);
  if (!visible) return undefined;
  return sql`${reviewTasks.subjectId} in (select ${customers.id} from ${customers} where ${visible})`;
}
