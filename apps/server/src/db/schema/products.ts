// Products (险种), their coverages (责任) and versioned rate tables.
// Money in fen (BIGINT); ratios in micro-percent (percent × 10⁶); rates in 10⁻⁷ (per-mille × 10⁴);
// multipliers × 10⁴. See packages/shared/src/money.ts.

import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, fen, id, updatedAt } from './columns.ts';

/** Insurance products (险种). The 2025 work-safety rules are CHECK constraints as well as form rules. */
export const products = pgTable(
  'product',
  {
    id: id(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** work_safety | construction | guarantee */
    productClass: text('product_class').notNull(),
    clauseVersion: text('clause_version').notNull(),
    /** GB/T 2260 region code (region_* dictionaries). */
    region: text('region').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }).notNull(),
    allowsCoinsurance: boolean('allows_coinsurance').notNull().default(false),
    /** The product asks for a named insured list (从业人员名单): the headcount follows the list. */
    namedInsuredRequired: boolean('named_insured_required').notNull().default(false),
    /** In a co-insured policy the issuing insurer leads unless false. */
    issuerLeads: boolean('issuer_leads').notNull().default(true),
    /** A premium below it is raised to it; 0: no minimum. */
    minPremiumFen: fen('min_premium_fen').notNull().default(0),
    /** Construction products: the least project cost declared; null: no minimum. */
    minProjectCostFen: fen('min_project_cost_fen'),
    /** RequiredMaterial[] of @piibs/shared/product: document types by stage (SUBMIT | APPROVE). */
    requiredMaterials: jsonb('required_materials')
      .$type<{ docType: string; stage: 'SUBMIT' | 'APPROVE' }[]>()
      .notNull()
      .default([]),
    /** Micro-percent, 0 ≤ min ≤ max ≤ 21% [rule]. */
    preventionRatioMin: integer('prevention_ratio_min').notNull(),
    preventionRatioMax: integer('prevention_ratio_max').notNull(),
    /** Micro-percent, ≤ 5% [rule]. */
    commissionCap: integer('commission_cap').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    description: text('description'),
    createdBy: bigint('created_by', { mode: 'number' }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('product_code').on(t.code),
    index('product_class_region').on(t.productClass, t.region),
    check(
      'product_prevention_ratio',
      sql`0 <= ${t.preventionRatioMin} and ${t.preventionRatioMin} <= ${t.preventionRatioMax} and ${t.preventionRatioMax} <= 21000000`,
    ),
    check('product_commission_cap', sql`${t.commissionCap} between 0 and 5000000`),
    check('product_validity', sql`${t.validFrom} <= ${t.validTo}`),
    check(
      'product_minimums',
      sql`${t.minPremiumFen} >= 0 and (${t.minProjectCostFen} is null or ${t.minProjectCostFen} > 0)`,
    ),
  ],
);

/** Coverages (责任) of a product, one per type. */
export const coverages = pgTable(
  'coverage',
  {
    id: id(),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    name: text('name').notNull(),
    perPersonLimitFen: fen('per_person_limit_fen'),
    perAccidentLimitFen: fen('per_accident_limit_fen'),
    aggregateLimitFen: fen('aggregate_limit_fen'),
    deductibleFen: fen('deductible_fen').notNull().default(0),
    mandatory: boolean('mandatory').notNull().default(false),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('coverage_product_type').on(t.productId, t.type)],
);

/**
 * Versioned rate tables of a product. Drafts are editable; activating one makes it the single active version
 * (the previous one retires) and freezes it, so a quote that stored its rate_table id stays reproducible.
 */
export const rateTables = pgTable(
  'rate_table',
  {
    id: id(),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    versionNo: integer('version_no').notNull(),
    effectiveDate: date('effective_date', { mode: 'string' }).notNull(),
    /** draft | active | retired */
    status: text('status').notNull().default('draft'),
    /** Construction: the high-risk loading (× 10⁴); null: ×1.3. */
    highRiskLoading: integer('high_risk_loading'),
    /** How a period shorter than a year is priced: SHORT_RATE_TABLE | PRO_RATA_DAILY (short-period.ts). */
    shortPeriodRule: text('short_period_rule').notNull().default('SHORT_RATE_TABLE'),
    /** The short-rate table, basis points for 1 … 12 months; null: the standard table. */
    shortRateTable: jsonb('short_rate_table').$type<number[]>(),
    /** Floating factors: FactorDef[] (see packages/shared/src/rating.ts). */
    factors: jsonb('factors').notNull().default([]),
    note: text('note'),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    activatedBy: bigint('activated_by', { mode: 'number' }),
    createdBy: bigint('created_by', { mode: 'number' }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('rate_table_product_version').on(t.productId, t.versionNo),
    uniqueIndex('rate_table_one_active').on(t.productId).where(sql`${t.status} = 'active'`),
    check('rate_table_status', sql`${t.status} in ('draft', 'active', 'retired')`),
    check(
      'rate_table_short_period_rule',
      sql`${t.shortPeriodRule} in ('SHORT_RATE_TABLE', 'PRO_RATA_DAILY')`,
    ),
  ],
);

/** Rows of a rate table: a rate by coverage, industry and limit tier, or a construction cost band. */
export const rateTableRows = pgTable(
  'rate_table_row',
  {
    id: id(),
    rateTableId: bigint('rate_table_id', { mode: 'number' })
      .notNull()
      .references(() => rateTables.id, { onDelete: 'cascade' }),
    coverageType: text('coverage_type'),
    /** GB/T 4754 section letter or two-digit division; null: any. */
    industry: text('industry'),
    limitTierFen: fen('limit_tier_fen'),
    costBandUpToFen: fen('cost_band_up_to_fen'),
    /** 10⁻⁷ of the base (per-mille × 10⁴). */
    rate: integer('rate').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    index('rate_table_row_table').on(t.rateTableId),
    check('rate_table_row_rate', sql`${t.rate} between 0 and 10000000`),
  ],
);
