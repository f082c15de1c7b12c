// Products (险种) with their coverages (责任): list, read, the products an applicant may choose, create, update,
// delete. Their versioned rate tables: rate-tables.ts.

import { shanghaiToday } from '@piibs/shared/application-status';
import type {
  CoverageRow,
  PRODUCT_SORT_FIELDS,
  ProductRow,
  productCreateForm,
  productUpdateForm,
} from '@piibs/shared/product';
import { COVERAGE_LABELS, type ProductClass } from '@piibs/shared/rating';
import { and, asc, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { coverages, products, rateTables } from '../../db/schema.ts';
import { type Actor, auditChange } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { conflict, fieldError, notFound } from '../../lib/errors.ts';
import { blurry } from '../../lib/filters.ts';
import { countRows, type ListSpec, pageRows, type SortColumns } from '../../lib/paging.ts';
import { checkDictCodes, regionLabel } from '../dicts/codes.ts';
import { STALE_VERSION } from '../users/admin-service.ts';

export const PRODUCT_NOT_FOUND = '险种不存在';

const CODE_TAKEN = '险种代码已存在';

/**
 * The prefix of the numbers of a product's applications, policies and endorsements: the letters of its code
 * before the first '_' (AZX_GM_2025 → AZX), else `fallback`.
 */
export const numberPrefix = (productCode: string, fallback: string): string =>
  (productCode.split('_')[0] ?? '').replace(/[^A-Za-z0-9]/g, '').toUpperCase() || fallback;

// ---- reading products ----

const coveragesJson = sql<CoverageRow[]>`coalesce((select json_agg(json_build_object(
    'id', c.id, 'type', c.type, 'name', c.name, 'perPersonLimitFen', c.per_person_limit_fen,
    'perAccidentLimitFen', c.per_accident_limit_fen, 'aggregateLimitFen', c.aggregate_limit_fen,
    'deductibleFen', c.deductible_fen, 'mandatory', c.mandatory, 'sort', c.sort) order by c.sort, c.id)
  from coverage c where c.product_id = "product"."id"), '[]'::json)`;

const activeJson = sql<{
  id: number;
  versionNo: number;
  effectiveDate: string;
} | null>`(select json_build_object('id', r.id, 'versionNo', r.version_no, 'effectiveDate', r.effective_date)
  from rate_table r where r.product_id = "product"."id" and r.status = 'active')`;

const rowColumns = {
  id: products.id,
  code: products.code,
  name: products.name,
  productClass: products.productClass,
  clauseVersion: products.clauseVersion,
  region: products.region,
  regionName: regionLabel(products.region),
  validFrom: products.validFrom,
  validTo: products.validTo,
  allowsCoinsurance: products.allowsCoinsurance,
  namedInsuredRequired: products.namedInsuredRequired,
  issuerLeads: products.issuerLeads,
  minPremiumFen: products.minPremiumFen,
  minProjectCostFen: products.minProjectCostFen,
  requiredMaterials: products.requiredMaterials,
  preventionRatioMin: products.preventionRatioMin,
  preventionRatioMax: products.preventionRatioMax,
  commissionCap: products.commissionCap,
  enabled: products.enabled,
  description: products.description,
  coverages: coveragesJson,
  activeRateTable: activeJson,
  version: products.version,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
};

const selectRows = (db: Db | Tx) => db.select(rowColumns).from(products);
type RawRow = Awaited<ReturnType<typeof selectRows>>[number];

const toRow = (r: RawRow): ProductRow => ({
  ...r,
  productClass: r.productClass as ProductClass,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export interface ProductFilter {
  blurry?: string | undefined;
  productClass?: ProductClass | undefined;
  region?: string | undefined;
  enabled?: boolean | undefined;
}

type SortField = (typeof PRODUCT_SORT_FIELDS)[number];
const sortColumns: SortColumns<SortField> = {
  id: products.id,
  code: products.code,
  name: products.name,
  productClass: products.productClass,
  region: products.region,
  validFrom: products.validFrom,
  validTo: products.validTo,
  enabled: products.enabled,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
};

export function productListSpec(db: Db, f: ProductFilter): ListSpec<SortField, ProductRow> {
  const where = and(
    blurry(f.blurry, products.code, products.name),
    f.productClass ? eq(products.productClass, f.productClass) : undefined,
    f.region ? eq(products.region, f.region) : undefined,
    f.enabled !== undefined ? eq(products.enabled, f.enabled) : undefined,
  );
  return {
    columns: sortColumns,
    defaultOrder: [asc(products.id)],
    fetch: async (q) => (await pageRows(db, selectRows(db), where, q)).map(toRow),
    count: () => countRows(db, products, where),
  };
}

export async function getProduct(db: Db | Tx, id: number): Promise<ProductRow> {
  const [row] = await selectRows(db).where(eq(products.id, id));
  if (!row) throw notFound(PRODUCT_NOT_FOUND);
  return toRow(row);
}

/** Enabled products in force today, optionally by class and region (the region's prefecture and province too). */
export async function availableProducts(
  db: Db,
  f: { productClass?: ProductClass | undefined; region?: string | undefined },
): Promise<ProductRow[]> {
  const day = shanghaiToday();
  const regions = f.region ? regionAncestors(f.region) : undefined;
  const rows = await selectRows(db)
    .where(
      and(
        eq(products.enabled, true),
        lte(products.validFrom, day),
        gte(products.validTo, day),
        f.productClass ? eq(products.productClass, f.productClass) : undefined,
        regions ? inArray(products.region, regions) : undefined,
      ),
    )
    .orderBy(asc(products.id));
  const sorted = regions
    ? rows.sort((a, b) => regions.indexOf(a.region) - regions.indexOf(b.region) || a.id - b.id)
    : rows;
  return sorted.map(toRow);
}

/** A GB/T 2260 code and the codes above it, most specific first: 321102 → 321102, 321100, 320000. */
export function regionAncestors(code: string): string[] {
  const out = [code, `${code.slice(0, 4)}00`, `${code.slice(0, 2)}0000`];
  return [...new Set(out)];
}

// ---- changing products ----

type CreateInput = z.infer<typeof productCreateForm>;
type UpdateInput = z.infer<typeof productUpdateForm>;
type CoverageInput = CreateInput['coverages'][number];

type ProductFieldsIn = Pick<
  CreateInput,
  | 'code'
  | 'name'
  | 'clauseVersion'
  | 'region'
  | 'validFrom'
  | 'validTo'
  | 'allowsCoinsurance'
  | 'namedInsuredRequired'
  | 'issuerLeads'
  | 'minPremiumFen'
  | 'minProjectCostFen'
  | 'requiredMaterials'
  | 'preventionRatioMin'
  | 'preventionRatioMax'
  | 'commissionCap'
  | 'enabled'
> & { productClass: string; description?: string | null | undefined };

function productValues(form: ProductFieldsIn) {
  return {
    code: form.code,
    name: form.name,
    productClass: form.productClass,
    clauseVersion: form.clauseVersion,
    region: form.region,
    validFrom: form.validFrom,
    validTo: form.validTo,
    allowsCoinsurance: form.allowsCoinsurance,
    namedInsuredRequired: form.namedInsuredRequired,
    issuerLeads: form.issuerLeads,
    minPremiumFen: form.minPremiumFen,
    minProjectCostFen: form.minProjectCostFen ?? null,
    requiredMaterials: form.requiredMaterials,
    preventionRatioMin: form.preventionRatioMin,
    preventionRatioMax: form.preventionRatioMax,
    commissionCap: form.commissionCap,
    enabled: form.enabled,
    description: form.description ?? null,
  };
}

const coverageValues = (productId: number, c: CoverageInput) => ({
  productId,
  type: c.type,
  name: c.name ?? COVERAGE_LABELS[c.type],
  perPersonLimitFen: c.perPersonLimitFen ?? null,
  perAccidentLimitFen: c.perAccidentLimitFen ?? null,
  aggregateLimitFen: c.aggregateLimitFen ?? null,
  deductibleFen: c.deductibleFen,
  mandatory: c.mandatory,
  sort: c.sort,
});

/** What the audit trail keeps of a product. */
const snapshot = (
  p: ReturnType<typeof productValues>,
  cs: ({ type: string } & Record<string, unknown>)[],
) => ({
  ...p,
  coverages: cs
    .map(({ productId: _, ...c }) => c)
    .sort((a, b) => String(a.type).localeCompare(String(b.type))),
});

async function guard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(CODE_TAKEN);
    throw err;
  }
}

async function codeTaken(db: Db | Tx, code: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.code, code), exceptId ? ne(products.id, exceptId) : undefined));
  return Boolean(row);
}

export async function createProduct(db: Db, actor: Actor, form: CreateInput): Promise<ProductRow> {
  await checkDictCodes(db, { region: form.region }, { region: '适用地区' });
  if (await codeTaken(db, form.code)) throw conflict(CODE_TAKEN);
  return guard(() =>
    db.transaction(async (tx) => {
      const values = productValues(form);
      const [row] = await tx
        .insert(products)
        .values({ ...values, createdBy: actor.user.id })
        .returning({ id: products.id });
      const cs = form.coverages.map((c) => coverageValues(row!.id, c));
      if (cs.length) await tx.insert(coverages).values(cs);
      await auditChange(tx, actor, {
        action: 'create',
        entity: 'product',
        entityId: row!.id,
        after: snapshot(values, cs),
      });
      return getProduct(tx, row!.id);
    }),
  );
}

export async function updateProduct(db: Db, actor: Actor, form: UpdateInput): Promise<ProductRow> {
  await checkDictCodes(db, { region: form.region }, { region: '适用地区' });
  return guard(() =>
    db.transaction(async (tx) => {
      const [before] = await tx.select().from(products).where(eq(products.id, form.id)).for('update');
      if (!before) throw notFound(PRODUCT_NOT_FOUND);
      if (before.version !== form.version) throw conflict(STALE_VERSION);
      if (form.code !== before.code && (await codeTaken(tx, form.code, form.id))) throw conflict(CODE_TAKEN);
      if (form.productClass !== before.productClass) {
        const [table] = await tx
          .select({ id: rateTables.id })
          .from(rateTables)
          .where(eq(rateTables.productId, form.id))
          .limit(1);
        if (table) throw fieldError('productClass', '险种已有费率表，不能修改类别', '险种类别');
      }
      const oldCoverages = await tx.select().from(coverages).where(eq(coverages.productId, form.id));
      const values = productValues(form);
      await tx
        .update(products)
        .set({ ...values, version: sql`${products.version} + 1`, updatedAt: sql`now()` })
        .where(eq(products.id, form.id));
      await tx.delete(coverages).where(eq(coverages.productId, form.id));
      const cs = form.coverages.map((c) => coverageValues(form.id, c));
      if (cs.length) await tx.insert(coverages).values(cs);
      await auditChange(tx, actor, {
        action: 'update',
        entity: 'product',
        entityId: form.id,
        before: snapshot(
          productValues(before),
          oldCoverages.map(({ id: _, ...c }) => c),
        ),
        after: snapshot(values, cs),
      });
      return getProduct(tx, form.id);
    }),
  );
}

/** Deletes products never priced on: a product with an active or retired rate table can only be disabled. */
export async function deleteProducts(db: Db, actor: Actor, ids: number[]): Promise<{ deleted: number }> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  return db.transaction(async (tx) => {
    const rows = await tx.select().from(products).where(inArray(products.id, unique)).for('update');
    if (rows.length !== unique.length) throw notFound(PRODUCT_NOT_FOUND);
    const [used] = await tx
      .select({ productId: rateTables.productId })
      .from(rateTables)
      .where(and(inArray(rateTables.productId, unique), ne(rateTables.status, 'draft')))
      .limit(1);
    if (used) {
      const name = rows.find((r) => r.id === used.productId)?.name ?? '';
      throw conflict(`险种「${name}」已有生效或历史费率表，不能删除，请改为停用`);
    }
    await tx.delete(products).where(inArray(products.id, unique));
    for (const p of rows) {
      await auditChange(tx, actor, {
        action: 'delete',
        entity: 'product',
        entityId: p.id,
        before: { code: p.code, name: p.name, productClass: p.productClass },
      });
    }
    return { deleted: rows.length };
  });
}
