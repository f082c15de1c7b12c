// Annual orders (年度订单) and their changes: opened by hand by staff, made from an epinsure application
// (生成年度订单), edited and closed by staff.
//
// From an application: an epinsure application (channel 'project') of a construction product, issued — or paid
// and waiting for issuance — becomes its contractor's annual order: the applicant, the product, the period, the
// contact, and a quota (given, else the application's premium). One order per application (the unique index
// annual_order.application_id): a second call, or two at once, answer the one order. Applications made for a
// declared project (a secondary order's) are not frameworks and never convert.
//
// Edit and close lock the order's row (the same lock submits and decisions take), so the quota never drops
// below what is consumed and no declaration slips in while the order closes.

import { maskPhone } from '@piibs/shared';
import {
  APPLICATION_STATUS_LABELS,
  type ApplicationStatus,
  shanghaiToday,
} from '@piibs/shared/application-status';
import { formatFen } from '@piibs/shared/money';
import {
  type AnnualOrderDetail,
  type annualOrderCreateForm,
  type annualOrderFromApplicationForm,
  type annualOrderUpdateForm,
  DECLARATION_OPEN,
} from '@piibs/shared/project-order';
import { MESSAGES } from '@piibs/shared/validators';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import {
  annualOrders,
  applications,
  customers,
  products,
  rateTables,
  secondaryOrders,
} from '../../db/schema.ts';
import { type Actor, auditAction } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { conflict, fieldError, notFound } from '../../lib/errors.ts';
import { applicationsVisibleTo } from '../applications/access.ts';
import { APPLICATION_NOT_FOUND } from '../applications/changes.ts';
import { getCustomer } from '../customers/service.ts';
import { getProduct } from '../products/service.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import { annualOrdersVisibleTo, seeAllProjects } from './access.ts';
import { getAnnualOrder } from './annual-order-queries.ts';
import { ORDER_NOT_FOUND, type ProjectActor, serial, year } from './common.ts';
import { lockAnnualOrder } from './declarations.ts';

// ---- opening one by hand ----

/** The product an annual order may be opened on: enabled, construction, with an active rate table (400). */
async function checkOrderProduct(db: Db | Tx, productId: number): Promise<void> {
  const product = await getProduct(db as Db, productId);
  if (product.productClass !== 'construction')
    throw fieldError('productId', '年度订单须选择建筑工程类险种', '险种');
  if (!product.enabled) throw fieldError('productId', '险种已停用', '险种');
  const [table] = await db
    .select({ id: rateTables.id })
    .from(rateTables)
    .where(and(eq(rateTables.productId, product.id), eq(rateTables.status, 'active')));
  if (!table) throw fieldError('productId', '该险种尚无生效的费率表', '险种');
}

interface NewAnnualOrder {
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
async function insertAnnualOrder(tx: Tx, actor: Actor, o: NewAnnualOrder): Promise<number> {
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
  if (customer.reviewStatus !== 'approved')
    throw fieldError('customerId', '尚未审核通过', '施工企业（投保人）');
  await checkOrderProduct(db, form.productId);
  if (form.endDate < shanghaiToday()) throw fieldError('endDate', '不能早于今天', '终止日期');
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

// ---- from an application ----

/** The application states in which the framework is settled: paid (issuing) or issued. */
const CONVERTIBLE: readonly ApplicationStatus[] = ['PAID', 'ISSUED', 'IN_FORCE'];

/** The annual order made from an application, if any. */
async function orderOfApplication(db: Db, applicationId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: annualOrders.id })
    .from(annualOrders)
    .where(eq(annualOrders.applicationId, applicationId));
  return row?.id ?? null;
}

/**
 * POST /api/project-orders/from-application/:applicationId (生成年度订单). 404 for an application the caller may
 * not see; 409 (naming why) for one that cannot become an annual order; the existing order when it already did.
 */
export async function annualOrderFromApplication(
  db: Db,
  actor: ProjectActor,
  applicationId: number,
  form: z.infer<typeof annualOrderFromApplicationForm>,
): Promise<AnnualOrderDetail> {
  const [a] = await db
    .select({
      app: applications,
      productClass: products.productClass,
      customerApproved: sql<boolean>`${customers.reviewStatus} = 'approved'`,
      declared: sql<boolean>`exists (select 1 from secondary_order s where s.application_id = ${applications.id})`,
    })
    .from(applications)
    .innerJoin(products, eq(products.id, applications.productId))
    .innerJoin(customers, eq(customers.id, applications.customerId))
    .where(and(eq(applications.id, applicationId), applicationsVisibleTo(db, actor.project.viewer)));
  if (!a) throw notFound(APPLICATION_NOT_FOUND);
  const seeAll = seeAllProjects(actor.project);
  const existing = await orderOfApplication(db, applicationId);
  if (existing) return getAnnualOrder(db, seeAll, existing, false);

  const app = a.app;
  const status = app.status as ApplicationStatus;
  if (app.channel !== 'project' || a.productClass !== 'construction')
    throw conflict('投保单：只有工程险（epinsure）建筑工程类投保单可以生成年度订单');
  if (a.declared) throw conflict('投保单：该投保单由二次下单项目生成，不能再生成年度订单');
  if (!CONVERTIBLE.includes(status))
    throw conflict(
      `投保单：当前状态为「${APPLICATION_STATUS_LABELS[status]}」，须审核通过并缴费出单后才能生成年度订单`,
    );
  if (!a.customerApproved) throw conflict('投保单：投保人尚未审核通过');
  if (!app.startDate || !app.endDate || app.endDate < shanghaiToday())
    throw conflict('投保单：保险期间已结束，不能生成年度订单');
  await checkOrderProduct(db, app.productId);
  const quotaFen = form.quotaFen ?? app.premiumFen ?? 0;
  if (quotaFen <= 0) throw fieldError('quotaFen', '请输入保费额度', '保费额度');

  let id: number;
  try {
    id = await db.transaction((tx) =>
      insertAnnualOrder(tx, actor, {
        customerId: app.customerId,
        productId: app.productId,
        startDate: app.startDate!,
        endDate: app.endDate!,
        quotaFen,
        note: `由投保单 ${app.number} 生成`,
        contactName: app.contactName,
        contactPhone: app.contactPhone,
        applicationId: app.id,
      }),
    );
  } catch (err) {
    // Two clicks at once: the unique index lets one order through; the other answers it.
    const winner = isUniqueViolation(err) ? await orderOfApplication(db, applicationId) : null;
    if (!winner) throw err;
    id = winner;
  }
  return getAnnualOrder(db, seeAll, id, false);
}

// ---- edit and close ----

/** Locks an annual order the caller may see (404 otherwise), on the version loaded, not closed (409). */
async function lockForChange(tx: Tx, actor: ProjectActor, id: number, version: number) {
  const [seen] = await tx
    .select({ id: annualOrders.id })
    .from(annualOrders)
    .where(and(eq(annualOrders.id, id), annualOrdersVisibleTo(tx as unknown as Db, actor.project)));
  if (!seen) throw notFound(ORDER_NOT_FOUND);
  const order = await lockAnnualOrder(tx, id);
  if (order.closedAt) throw conflict('该年度订单已关闭，不能再修改');
  if (order.version !== version) throw conflict(STALE_VERSION);
  return order;
}

/** POST /api/project-orders/:id/update: the quota (not below what is consumed), contact and note. */
export async function updateAnnualOrder(
  db: Db,
  actor: ProjectActor,
  id: number,
  form: z.infer<typeof annualOrderUpdateForm>,
  canApply: boolean,
): Promise<AnnualOrderDetail> {
  await db.transaction(async (tx) => {
    const o = await lockForChange(tx, actor, id, form.version);
    if (form.quotaFen < o.consumedFen)
      throw fieldError(
        'quotaFen',
        `不能低于已占用的保费 ${formatFen(o.consumedFen)}（拟调整为 ${formatFen(form.quotaFen)}）`,
        '保费额度',
        409,
      );
    let phone = form.contactPhone ?? null;
    if (phone?.includes('*')) {
      // The masked number as shown keeps the stored one; any other masked text is not a number.
      if (phone !== maskPhone(o.contactPhone)) throw fieldError('contactPhone', MESSAGES.phone, '联系电话');
      phone = o.contactPhone;
    }
    const after = {
      quotaFen: form.quotaFen,
      contactName: form.contactName ?? null,
      contactPhone: phone,
      note: form.note ?? null,
    };
    await tx
      .update(annualOrders)
      .set({ ...after, version: sql`${annualOrders.version} + 1`, updatedAt: sql`now()` })
      .where(eq(annualOrders.id, id));
    await auditAction(tx, actor, {
      action: 'update',
      entity: 'annual_order',
      entityId: id,
      detail: {
        before: {
          quotaFen: o.quotaFen,
          contactName: o.contactName,
          contactPhone: maskPhone(o.contactPhone),
          note: o.note,
        },
        after: { ...after, contactPhone: maskPhone(after.contactPhone) },
      },
    });
  });
  return getAnnualOrder(db, actor.project, id, canApply);
}

/**
 * POST /api/project-orders/:id/close: no declarations (new or changes) after it. 409 while any declaration is
 * open (draft, under review, returned): they must be decided or cancelled first. Declarations being made at
 * the same moment re-check the order under a share lock (checkOrderOpen, declarations.ts), so none slips in.
 */
export async function closeAnnualOrder(
  db: Db,
  actor: ProjectActor,
  id: number,
  version: number,
  canApply: boolean,
): Promise<AnnualOrderDetail> {
  await db.transaction(async (tx) => {
    const o = await lockForChange(tx, actor, id, version);
    const [open] = await tx
      .select({ n: count() })
      .from(secondaryOrders)
      .where(
        and(eq(secondaryOrders.annualOrderId, id), inArray(secondaryOrders.status, [...DECLARATION_OPEN])),
      );
    if (open && open.n > 0)
      throw conflict(
        `该年度订单还有 ${open.n} 个未完成的申报（草稿、待审核或已退回），请先完成审核或撤销后再关闭`,
      );
    await tx
      .update(annualOrders)
      .set({ closedAt: sql`now()`, version: sql`${annualOrders.version} + 1`, updatedAt: sql`now()` })
      .where(eq(annualOrders.id, id));
    await auditAction(tx, actor, {
      action: 'close',
      entity: 'annual_order',
      entityId: id,
      detail: { number: o.number, quotaFen: o.quotaFen, consumedFen: o.consumedFen },
    });
  });
  return getAnnualOrder(db, actor.project, id, canApply);
}
