// The products every installation starts with (first start, when the product table is empty; demo or not):
// 安责险（工贸行业）, 建筑施工安责险 and 工程履约保证保险, each with an active rate table (version 1).
//
// The figures are realistic for Jiangsu in 2025 and internally consistent:
// - 安责险（工贸行业）: per-head rating. Death/disability 500,000 yuan per person by default (the 2025 floor is
//   400,000 [rule]); limit tiers 40/50/60/80/100万 with a volume discount (×1, ×0.95, ×0.9, ×0.85, ×0.8 on the
//   rate). Base rates at the 40万 tier by industry: mining (B) 1.00‰, construction (E) 0.80‰, transport (G)
//   0.60‰, utilities (D) 0.45‰, manufacturing (C) 0.40‰, trade and catering (F, H) 0.25‰, any other 0.50‰;
//   hazardous-chemicals and fuel processing (divisions 25, 26) 0.70‰, metal smelting (31, 32) 0.60‰. Further
//   coverages on their limits: medical 0.60‰ of 50,000 yuan per head, third-party injury 0.10‰ of 5,000,000,
//   third-party property 0.20‰ of 1,000,000, rescue 0.10‰ of 1,000,000, appraisal 0.20‰ and legal costs
//   0.25‰ of 200,000. E.g. a 50-employee machinery maker (C/34) at 500,000 yuan: 50 × 500,000 × 0.38‰ =
//   9,500 + medical 1,500 + third-party injury 500 + rescue 100 = 11,600 yuan before factors.
//   Prevention ratio 15–21% of premium, commission cap 5%.
// - 建筑施工安责险: premium = project cost × rate by cost band, each slice at its band's rate: 0.65‰ up to
//   10 million yuan, 0.60‰ to 50 million, 0.55‰ to 100 million, 0.50‰ to 500 million, 0.45‰ to 1 billion,
//   0.40‰ above; high-risk projects (深基坑、高大模板、起重吊装等危大工程) ×1.3. A 50-million-yuan project:
//   6,500 + 24,000 = 30,500 yuan (39,650 high-risk).
// - 工程履约保证保险: guaranteed amount × 1.5% (construction, E: 1.2%), up to 50 million yuan per contract;
//   no prevention fund (ratio 0), commission cap 5%.
// Documents (影像资料) each application must carry: the applicant's 营业执照 at submission (a licence scan already
// on the customer counts); 安责险 also the 被保险人清单 (the insured employees) before approval — the headcount
// may still change while under review; 建筑施工 and 履约保证 also the 施工合同 at submission (the project's cost
// and the guaranteed obligation are read from it).
// Floating factors (bounded): accident history ×0.9–×1.3, safety standardisation ×0.85–×1 (only down),
// credit blacklist ×1–×1.5 (only up).
import { yuan } from '@piibs/shared/money';
import type { CoverageForm, FactorDefForm, ProductCreateForm, RateRowForm } from '@piibs/shared/product';
import { COVERAGE_LABELS, type CoverageType } from '@piibs/shared/rating';
import { count, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { coverages, products, rateTableRows, rateTables } from '../../db/schema.ts';

const ZHENJIANG = '321100';
const VALID = { validFrom: '2025-01-01', validTo: '2030-12-31' } as const;

const coverage = (
  type: CoverageType,
  limits: { perPerson?: number; perAccident?: number; aggregate?: number; deductible?: number },
  mandatory: boolean,
  sort: number,
): CoverageForm => ({
  type,
  perPersonLimitFen: limits.perPerson ? yuan(limits.perPerson) : null,
  perAccidentLimitFen: limits.perAccident ? yuan(limits.perAccident) : null,
  aggregateLimitFen: limits.aggregate ? yuan(limits.aggregate) : null,
  deductibleFen: yuan(limits.deductible ?? 0),
  mandatory,
  sort,
});

const ACCIDENT_HISTORY: FactorDefForm = {
  code: 'ACCIDENT_HISTORY',
  label: '近三年生产安全事故记录',
  min: 9_000,
  max: 13_000,
  defaultOption: 'UNKNOWN',
  options: [
    { value: 'UNKNOWN', label: '未提供', multiplier: 10_000 },
    { value: 'NONE', label: '无生产安全事故', multiplier: 9_000 },
    { value: 'ONE', label: '发生一般事故 1 起', multiplier: 11_000 },
    { value: 'SEVERE', label: '一般事故 2 起及以上或较大及以上事故', multiplier: 13_000 },
  ],
};
const SAFETY_AWARD: FactorDefForm = {
  code: 'SAFETY_AWARD',
  label: '安全生产标准化 / 表彰',
  min: 8_500,
  max: 10_000,
  defaultOption: 'NONE',
  options: [
    { value: 'NONE', label: '无', multiplier: 10_000 },
    { value: 'LEVEL3', label: '安全生产标准化三级达标', multiplier: 9_500 },
    { value: 'LEVEL2', label: '二级及以上达标或省级以上表彰', multiplier: 9_000 },
  ],
};
const CREDIT_BLACKLIST: FactorDefForm = {
  code: 'CREDIT_BLACKLIST',
  label: '安全生产失信联合惩戒对象',
  min: 10_000,
  max: 15_000,
  defaultOption: 'NO',
  options: [
    { value: 'NO', label: '否', multiplier: 10_000 },
    { value: 'YES', label: '是', multiplier: 13_000 },
  ],
};

const TIERS: [number, number][] = [
  [400_000, 100],
  [500_000, 95],
  [600_000, 90],
  [800_000, 85],
  [1_000_000, 80],
];
/** Death/disability rate at the 40万 tier (per-mille × 10⁴), by industry (null: any). */
const DEATH_RATES: [string | null, number][] = [
  [null, 5_000],
  ['B', 10_000],
  ['C', 4_000],
  ['D', 4_500],
  ['E', 8_000],
  ['F', 2_500],
  ['G', 6_000],
  ['H', 2_500],
  ['25', 7_000],
  ['26', 7_000],
  ['31', 6_000],
  ['32', 6_000],
];

const row = (r: Partial<RateRowForm> & { rate: number }): RateRowForm => ({
  coverageType: null,
  industry: null,
  limitTierFen: null,
  costBandUpToFen: null,
  ...r,
});

export interface SeedProduct {
  product: ProductCreateForm & { coverages: CoverageForm[] };
  table: {
    effectiveDate: string;
    highRiskLoading?: number;
    factors: FactorDefForm[];
    rows: RateRowForm[];
    note: string;
  };
}

export const SEED_PRODUCTS: SeedProduct[] = [
  {
    product: {
      code: 'AZX_GM_2025',
      name: '安全生产责任保险（工贸行业）',
      productClass: 'work_safety',
      clauseVersion: '安全生产责任保险条款（2025版）',
      region: ZHENJIANG,
      ...VALID,
      allowsCoinsurance: true,
      minPremiumFen: yuan(500),
      preventionRatioMin: 15_000_000,
      preventionRatioMax: 21_000_000,
      commissionCap: 5_000_000,
      enabled: true,
      description: '工贸行业生产经营单位；按人计费，全体从业人员同一保险金额（应急〔2025〕27号）',
      requiredMaterials: [
        { docType: 'BUSINESS_LICENSE', stage: 'SUBMIT' },
        { docType: 'INSURED_LIST', stage: 'APPROVE' },
      ],
      coverages: [
        coverage('EMPLOYEE_DEATH_DISABILITY', { perPerson: 500_000 }, true, 1),
        coverage('EMPLOYEE_MEDICAL', { perPerson: 50_000 }, true, 2),
        coverage(
          'THIRD_PARTY_INJURY',
          { perPerson: 500_000, perAccident: 3_000_000, aggregate: 5_000_000 },
          true,
          3,
        ),
        coverage(
          'THIRD_PARTY_PROPERTY',
          { perAccident: 500_000, aggregate: 1_000_000, deductible: 1_000 },
          false,
          4,
        ),
        coverage('RESCUE', { perAccident: 500_000, aggregate: 1_000_000 }, true, 5),
        coverage('APPRAISAL', { perAccident: 100_000, aggregate: 200_000 }, false, 6),
        coverage('LEGAL_COSTS', { perAccident: 100_000, aggregate: 200_000 }, false, 7),
      ],
    },
    table: {
      effectiveDate: '2025-01-01',
      factors: [ACCIDENT_HISTORY, SAFETY_AWARD, CREDIT_BLACKLIST],
      note: '初始费率表',
      rows: [
        ...DEATH_RATES.flatMap(([industry, base]) =>
          TIERS.map(([tier, pct]) =>
            row({
              coverageType: 'EMPLOYEE_DEATH_DISABILITY',
              industry,
              limitTierFen: yuan(tier),
              rate: (base * pct) / 100,
            }),
          ),
        ),
        row({ coverageType: 'EMPLOYEE_MEDICAL', rate: 6_000 }),
        row({ coverageType: 'THIRD_PARTY_INJURY', rate: 1_000 }),
        row({ coverageType: 'THIRD_PARTY_PROPERTY', rate: 2_000 }),
        row({ coverageType: 'RESCUE', rate: 1_000 }),
        row({ coverageType: 'APPRAISAL', rate: 2_000 }),
        row({ coverageType: 'LEGAL_COSTS', rate: 2_500 }),
      ],
    },
  },
  {
    product: {
      code: 'JZSG_AZX_2025',
      name: '建筑施工安全生产责任保险',
      productClass: 'construction',
      clauseVersion: '建筑施工安全生产责任保险条款（2025版）',
      region: ZHENJIANG,
      ...VALID,
      allowsCoinsurance: true,
      minPremiumFen: yuan(200),
      minProjectCostFen: yuan(100_000),
      preventionRatioMin: 15_000_000,
      preventionRatioMax: 21_000_000,
      commissionCap: 5_000_000,
      enabled: true,
      description: '按工程造价分档计费；危大工程上浮',
      requiredMaterials: [
        { docType: 'BUSINESS_LICENSE', stage: 'SUBMIT' },
        { docType: 'CONSTRUCTION_CONTRACT', stage: 'SUBMIT' },
      ],
      coverages: [
        coverage('EMPLOYEE_DEATH_DISABILITY', { perPerson: 500_000 }, true, 1),
        coverage('EMPLOYEE_MEDICAL', { perPerson: 50_000 }, true, 2),
        coverage('RESCUE', { perAccident: 500_000, aggregate: 1_000_000 }, true, 3),
        coverage('LEGAL_COSTS', { perAccident: 100_000, aggregate: 200_000 }, true, 4),
      ],
    },
    table: {
      effectiveDate: '2025-01-01',
      highRiskLoading: 13_000,
      factors: [ACCIDENT_HISTORY, CREDIT_BLACKLIST],
      note: '初始费率表',
      rows: [
        row({ costBandUpToFen: yuan(10_000_000), rate: 6_500 }),
        row({ costBandUpToFen: yuan(50_000_000), rate: 6_000 }),
        row({ costBandUpToFen: yuan(100_000_000), rate: 5_500 }),
        row({ costBandUpToFen: yuan(500_000_000), rate: 5_000 }),
        row({ costBandUpToFen: yuan(1_000_000_000), rate: 4_500 }),
        row({ rate: 4_000 }),
      ],
    },
  },
  {
    product: {
      code: 'LYBZ_2025',
      name: '工程履约保证保险',
      productClass: 'guarantee',
      clauseVersion: '工程履约保证保险条款（2025版）',
      region: ZHENJIANG,
      ...VALID,
      allowsCoinsurance: false,
      minPremiumFen: yuan(1_000),
      preventionRatioMin: 0,
      preventionRatioMax: 0,
      commissionCap: 5_000_000,
      enabled: true,
      description: '承包人未按合同履约时向发包人赔偿，保证金额按合同约定',
      requiredMaterials: [
        { docType: 'BUSINESS_LICENSE', stage: 'SUBMIT' },
        { docType: 'CONSTRUCTION_CONTRACT', stage: 'SUBMIT' },
      ],
      coverages: [
        coverage('PERFORMANCE_GUARANTEE', { perAccident: 50_000_000, aggregate: 50_000_000 }, true, 1),
      ],
    },
    table: {
      effectiveDate: '2025-01-01',
      factors: [
        {
          code: 'PERFORMANCE_RECORD',
          label: '近三年履约记录',
          min: 9_000,
          max: 13_000,
          defaultOption: 'NORMAL',
          options: [
            { value: 'GOOD', label: '良好（无违约）', multiplier: 9_000 },
            { value: 'NORMAL', label: '一般', multiplier: 10_000 },
            { value: 'BAD', label: '有违约记录', multiplier: 13_000 },
          ],
        },
        {
          ...CREDIT_BLACKLIST,
          options: [CREDIT_BLACKLIST.options[0]!, { value: 'YES', label: '是', multiplier: 15_000 }],
        },
      ],
      note: '初始费率表',
      rows: [row({ rate: 150_000 }), row({ industry: 'E', rate: 120_000 })],
    },
  },
];

/**
 * Writes the seed products with their active rate tables when the product table is empty (first start). An
 * advisory lock keeps two instances starting together from both seeding. Answers true when it seeded.
 */
export async function seedProducts(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(72177003)`);
    const [existing] = await tx.select({ n: count() }).from(products);
    if ((existing?.n ?? 0) > 0) return false;
    for (const seed of SEED_PRODUCTS) await insertSeedProduct(tx, seed);
    return true;
  });
}

/** Writes one product with its coverages and its active rate table (version 1); answers its id. */
export async function insertSeedProduct(tx: Tx, { product: p, table: t }: SeedProduct): Promise<number> {
  const { coverages: cs, ...fields } = p;
  const [row] = await tx
    .insert(products)
    .values({
      ...fields,
      allowsCoinsurance: fields.allowsCoinsurance ?? false,
      enabled: fields.enabled ?? true,
      description: typeof fields.description === 'string' ? fields.description : null,
    })
    .returning({ id: products.id });
  const productId = row!.id;
  await tx.insert(coverages).values(
    cs.map((c) => ({
      productId,
      type: c.type,
      name: COVERAGE_LABELS[c.type],
      perPersonLimitFen: c.perPersonLimitFen ?? null,
      perAccidentLimitFen: c.perAccidentLimitFen ?? null,
      aggregateLimitFen: c.aggregateLimitFen ?? null,
      deductibleFen: c.deductibleFen ?? 0,
      mandatory: c.mandatory ?? false,
      sort: c.sort ?? 0,
    })),
  );
  const [table] = await tx
    .insert(rateTables)
    .values({
      productId,
      versionNo: 1,
      effectiveDate: t.effectiveDate,
      status: 'active',
      highRiskLoading: t.highRiskLoading ?? null,
      factors: t.factors,
      note: t.note,
      activatedAt: sql`now()`,
    })
    .returning({ id: rateTables.id });
  await tx.insert(rateTableRows).values(
    t.rows.map((r, i) => ({
      rateTableId: table!.id,
      coverageType: r.coverageType ?? null,
      industry: r.industry ?? null,
      limitTierFen: r.limitTierFen ?? null,
      costBandUpToFen: r.costBandUpToFen ?? null,
      rate: r.rate,
      sort: i,
    })),
  );
  return productId;
}
