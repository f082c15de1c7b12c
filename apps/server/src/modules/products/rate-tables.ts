// The versioned rate tables of products (险种).
//
// A product has numbered versions. A draft can be edited or deleted; activating it makes it the product's
// single active version (the previous active one retires) and freezes it. Quotes record the rate_table id they
// were priced on, so activating a later version never changes an existing quote, and POST /products/:id/quote
// with that rateTableId reproduces it. Quotes use the active version, so a draft can only be activated on or
// after its effective date (no version prices before the day it takes effect).

import { shanghaiToday } from '@piibs/shared/application-status';
import {
  type RateTableDetail,
  type RateTableRow,
  rateRowsProblem,
  type rateTableCreateForm,
  type rateTableUpdateForm,
} from '@piibs/shared/product';
import type { CoverageType, FactorDef, ProductClass } from '@piibs/shared/rating';
import { and, asc, desc, eq, max, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { products, rateTableRows, rateTables } from '../../db/schema.ts';
import { type Actor, auditChange } from '../../lib/audit.ts';
import { badRequest, conflict, fieldError, notFound, problemError } from '../../lib/errors.ts';
import { STALE_VERSION } from '../users/admin-service.ts';
import { getProduct, PRODUCT_NOT_FOUND } from './service.ts';

export const RATE_TABLE_NOT_FOUND = '费率表不存在';

const tableColumns = {
  id: rateTables.id,
  productId: rateTables.productId,
  versionNo: rateTables.versionNo,
  effectiveDate: rateTables.effectiveDate,
  status: rateTables.status,
  highRiskLoading: rateTables.highRiskLoading,
  factors: rateTables.factors,
  note: rateTables.note,
  shortPeriodRule: rateTables.shortPeriodRule,
  shortRateTable: rateTables.shortRateTable,
  rowCount: sql<number>`(select count(*)::int from rate_table_row rr where rr.rate_table_id = "rate_table"."id")`,
  activatedAt: rateTables.activatedAt,
  activatedBy: sql<
    string | null
  >`(select coalesce(u.nick_name, u.username) from app_user u where u.id = "rate_table"."activated_by")`,
  version: rateTables.version,
  createdAt: rateTables.createdAt,
  updatedAt: rateTables.updatedAt,
};

function toTableRow(r: {
  id: number;
  productId: number;
  versionNo: number;
  effectiveDate: string;
  status: string;
  highRiskLoading: number | null;
  factors: unknown;
  note: string | null;
  shortPeriodRule: string;
  shortRateTable: number[] | null;
  rowCount: number;
  activatedAt: Date | null;
  activatedBy: string | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}): RateTableRow {
  return {
    ...r,
    status: r.status as RateTableRow['status'],
    shortPeriodRule: r.shortPeriodRule as RateTableRow['shortPeriodRule'],
    factors: r.factors as FactorDef[],
    rowCount: Number(r.rowCount),
    activatedAt: r.activatedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function listRateTables(db: Db, productId: number): Promise<RateTableRow[]> {
  await getProduct(db, productId);
  const rows = await db
    .select(tableColumns)
    .from(rateTables)
    .where(eq(rateTables.productId, productId))
    .orderBy(desc(rateTables.versionNo));
  return rows.map(toTableRow);
}

export async function getRateTable(db: Db | Tx, id: number): Promise<RateTableDetail> {
  const [table] = await db.select(tableColumns).from(rateTables).where(eq(rateTables.id, id));
  if (!table) throw notFound(RATE_TABLE_NOT_FOUND);
  const rows = await db
    .select({
      id: rateTableRows.id,
      coverageType: rateTableRows.coverageType,
      industry: rateTableRows.industry,
      limitTierFen: rateTableRows.limitTierFen,
      costBandUpToFen: rateTableRows.costBandUpToFen,
      rate: rateTableRows.rate,
    })
    .from(rateTableRows)
    .where(eq(rateTableRows.rateTableId, id))
    .orderBy(asc(rateTableRows.sort), asc(rateTableRows.id));
  return {
    ...toTableRow(table),
    rows: rows.map((r) => ({ ...r, coverageType: r.coverageType as CoverageType | null })),
  };
}

type TableInput = z.infer<typeof rateTableCreateForm>;

function checkRows(productClass: string, form: TableInput): void {
  const problem = rateRowsProblem(productClass as ProductClass, form.rows);
  if (problem) throw problemError(problem);
  if (form.highRiskLoading != null && productClass !== 'construction')
    throw fieldError('highRiskLoading', '只适用于建筑施工险种', '高风险加成系数');
}

async function insertRows(tx: Tx, tableId: number, form: TableInput): Promise<void> {
  await tx.insert(rateTableRows).values(
    form.rows.map((r, i) => ({
      rateTableId: tableId,
      coverageType: r.coverageType,
      industry: r.industry,
      limitTierFen: r.limitTierFen,
      costBandUpToFen: r.costBandUpToFen,
      rate: r.rate,
      sort: i,
    })),
  );
}

const tableSnapshot = (t: {
  effectiveDate: string;
  highRiskLoading?: number | null;
  note?: string | null;
  shortPeriodRule?: string;
  shortRateTable?: number[] | null;
}) => ({
  effectiveDate: t.effectiveDate,
  highRiskLoading: t.highRiskLoading ?? null,
  note: t.note ?? null,
  shortPeriodRule: t.shortPeriodRule ?? 'SHORT_RATE_TABLE',
  shortRateTable: t.shortRateTable ?? null,
});

/** A new draft version (numbered after the product's latest). */
export async function createRateTable(
  db: Db,
  actor: Actor,
  productId: number,
  form: TableInput,
): Promise<RateTableDetail> {
  return db.transaction(async (tx) => {
    // Locking the product numbers concurrent drafts one after the other.
    const [product] = await tx.select().from(products).where(eq(products.id, productId)).for('update');
    if (!product) throw notFound(PRODUCT_NOT_FOUND);
    checkRows(product.productClass, form);
    const [last] = await tx
      .select({ n: max(rateTables.versionNo) })
      .from(rateTables)
      .where(eq(rateTables.productId, productId));
    const versionNo = (last?.n ?? 0) + 1;
    const [row] = await tx
      .insert(rateTables)
      .values({
        productId,
        versionNo,
        effectiveDate: form.effectiveDate,
        status: 'draft',
        highRiskLoading: form.highRiskLoading ?? null,
        factors: form.factors,
        note: form.note ?? null,
        shortPeriodRule: form.shortPeriodRule,
        shortRateTable: form.shortRateTable ?? null,
        createdBy: actor.user.id,
      })
      .returning({ id: rateTables.id });
    await insertRows(tx, row!.id, form);
    await auditChange(tx, actor, {
      action: 'create',
      entity: 'rate_table',
      entityId: row!.id,
      after: {
        productId,
        versionNo,
        ...tableSnapshot(form),
        rows: form.rows.length,
        factors: form.factors.length,
      },
    });
    return getRateTable(tx, row!.id);
  });
}

async function lockTable(tx: Tx, id: number) {
  const [table] = await tx.select().from(rateTables).where(eq(rateTables.id, id)).for('update');
  if (!table) throw notFound(RATE_TABLE_NOT_FOUND);
  return table;
}

/** Replaces a draft's settings and rows; active and retired versions are frozen (409). */
export async function updateRateTable(
  db: Db,
  actor: Actor,
  id: number,
  form: z.infer<typeof rateTableUpdateForm>,
): Promise<RateTableDetail> {
  return db.transaction(async (tx) => {
    const table = await lockTable(tx, id);
    if (table.version !== form.version) throw conflict(STALE_VERSION);
    if (table.status !== 'draft') throw conflict('只有草稿状态的费率表可以修改；请新建版本');
    const [product] = await tx.select().from(products).where(eq(products.id, table.productId));
    checkRows(product!.productClass, form);
    await tx
      .update(rateTables)
      .set({
        effectiveDate: form.effectiveDate,
        highRiskLoading: form.highRiskLoading ?? null,
        factors: form.factors,
        note: form.note ?? null,
        shortPeriodRule: form.shortPeriodRule,
        shortRateTable: form.shortRateTable ?? null,
        version: sql`${rateTables.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(rateTables.id, id));
    await tx.delete(rateTableRows).where(eq(rateTableRows.rateTableId, id));
    await insertRows(tx, id, form);
    await auditChange(tx, actor, {
      action: 'update',
      entity: 'rate_table',
      entityId: id,
      before: tableSnapshot(table),
      after: { ...tableSnapshot(form), rows: form.rows.length, factors: form.factors.length },
    });
    return getRateTable(tx, id);
  });
}

/**
 * Makes a draft the product's active version; the previous active version retires. A draft dated in the
 * future is refused (400 naming 生效日期) until its effective date.
 */
export async function activateRateTable(
  db: Db,
  actor: Actor,
  id: number,
  version: number,
): Promise<RateTableDetail> {
  return db.transaction(async (tx) => {
    const [peek] = await tx
      .select({ productId: rateTables.productId })
      .from(rateTables)
      .where(eq(rateTables.id, id));
    if (!peek) throw notFound(RATE_TABLE_NOT_FOUND);
    // The product first (as createRateTable does): activations of one product run one after the other.
    await tx.select({ id: products.id }).from(products).where(eq(products.id, peek.productId)).for('update');
    const table = await lockTable(tx, id);
    if (table.version !== version) throw conflict(STALE_VERSION);
    if (table.status !== 'draft') throw conflict('只有草稿状态的费率表可以生效');
    // Quotes price on the active version whatever its date, so a version must not become active before its
    // effective date: a future-dated draft waits as a draft until that day.
    const day = shanghaiToday();
    if (table.effectiveDate > day)
      throw badRequest(`生效日期：${table.effectiveDate} 未到，当天或之后才能生效（今天是 ${day}）`);
    const retired = await tx
      .update(rateTables)
      .set({ status: 'retired', version: sql`${rateTables.version} + 1`, updatedAt: sql`now()` })
      .where(and(eq(rateTables.productId, table.productId), eq(rateTables.status, 'active')))
      .returning({ id: rateTables.id, versionNo: rateTables.versionNo });
    await tx
      .update(rateTables)
      .set({
        status: 'active',
        activatedAt: sql`now()`,
        activatedBy: actor.user.id,
        version: sql`${rateTables.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(rateTables.id, id));
    await auditChange(tx, actor, {
      action: 'activate',
      entity: 'rate_table',
      entityId: id,
      before: { status: 'draft', activeVersion: retired[0]?.versionNo ?? null },
      after: { status: 'active', activeVersion: table.versionNo },
    });
    return getRateTable(tx, id);
  });
}

/** Deletes a draft; active and retired versions are kept (quotes refer to them). */
export async function deleteRateTable(db: Db, actor: Actor, id: number): Promise<{ deleted: number }> {
  return db.transaction(async (tx) => {
    const table = await lockTable(tx, id);
    if (table.status !== 'draft') throw conflict('只有草稿状态的费率表可以删除');
    await tx.delete(rateTables).where(eq(rateTables.id, id));
    await auditChange(tx, actor, {
      action: 'delete',
      entity: 'rate_table',
      entityId: id,
      before: { productId: table.productId, versionNo: table.versionNo, ...tableSnapshot(table) },
    });
    return { deleted: 1 };
  });
}
