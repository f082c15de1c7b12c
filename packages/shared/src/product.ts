// Products (险种), coverages (责任), rate tables and quotes: request bodies and answers shared by the web's
// product pages and wizard and the server's routes. Import it as `@piibs/shared/product`; the arithmetic is in
// `@piibs/shared/rating`, the unit conversions in `@piibs/shared/money`.
//
// Units: money in fen, ratios in micro-percent (percent × 10⁶), rates in 10⁻⁷ (per-mille × 10⁴), multipliers
// × 10⁴. Field titles name the field in the server's 400 messages.
import { z } from 'zod';
import { sectionOfDivision } from './industry.ts';
import { RATE_SCALE } from './money.ts';
import { fenField } from './money-field.ts';
import type { FieldProblem } from './problem.ts';
import {
  COVERAGE_LABELS,
  COVERAGE_TYPES,
  type CostBand,
  type CoverageType,
  costBandsProblem,
  DEDUCTIBLE_LABEL,
  factorDefProblem,
  LIMIT_LABELS,
  MAX_AMOUNT_FEN,
  MAX_COMMISSION_RATE,
  MAX_HEADCOUNT,
  MAX_MULTIPLIER,
  MAX_PER_PERSON_LIMIT_FEN,
  MAX_PREVENTION_RATIO,
  MIN_DEATH_DISABILITY_LIMIT_FEN,
  MIN_MULTIPLIER,
  PER_PERSON_COVERAGES,
  PRODUCT_CLASSES,
  type ProductClass,
  SAFETY_LIABILITY_CLASSES,
} from './rating.ts';
import { SHORT_PERIOD_RULES, shortRateTableProblem } from './short-period.ts';

export const PRODUCT_CODE = /^[A-Z][A-Z0-9_-]{1,31}$/;
/** A GB/T 2260 region code (the `region_*` dictionaries). */
export const REGION_CODE = /^\d{6}$/;
/** A GB/T 4754 section letter (A–T) or a two-digit division. */
export const INDUSTRY_CODE = /^(?:[A-T]|\d{2})$/;
const FACTOR_CODE = /^[A-Z][A-Z0-9_]{1,31}$/;

export const PRODUCT_SORT_FIELDS = [
  'id',
  'code',
  'name',
  'productClass',
  'region',
  'validFrom',
  'validTo',
  'enabled',
  'createdAt',
  'updatedAt',
] as const;

export const RATE_TABLE_STATUSES = ['draft', 'active', 'retired'] as const;
export type RateTableStatus = (typeof RATE_TABLE_STATUSES)[number];
export const RATE_TABLE_STATUS_LABELS: Readonly<Record<RateTableStatus, string>> = Object.freeze({
  draft: '草稿',
  active: '生效',
  retired: '已停用',
});

// ---- field helpers ----

const trimmedOrNull = (v: unknown) => {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  return t === '' ? null : t;
};
const id = (title: string) => z.number().int().positive().meta({ title });
const version = z.number().int().min(0).meta({ title: '版本号' });
const fen = (title: string, max = MAX_AMOUNT_FEN) =>
  z
    .number({ error: '请输入金额（分）' })
    .int({ error: '金额须为整数（分）' })
    .min(0, { error: '不能小于 0' })
    .max(max, { error: `不能超过 ${max} 分` })
    .meta({ title, description: '金额，单位：分' });
const microPercent = (title: string, max: number, maxText: string) =>
  z
    .number({ error: '请输入数字' })
    .int({ error: '须为整数（百分比 × 10⁶）' })
    .min(0, { error: '不能小于 0' })
    .max(max, { error: `不能超过 ${maxText}` })
    .meta({ title, description: '比例：百分比 × 10⁶（如 15% → 15000000）' });
const multiplier = (title: string) =>
  z
    .number({ error: '请输入数字' })
    .int({ error: '须为整数（系数 × 10⁴）' })
    .min(MIN_MULTIPLIER, { error: '不能小于 0.1（1000）' })
    .max(MAX_MULTIPLIER, { error: '不能大于 3（30000）' })
    .meta({ title, description: '系数 × 10⁴（如 1.3 → 13000）' });
const rate = z
  .number({ error: '请输入费率' })
  .int({ error: '费率须为整数（千分比 × 10⁴）' })
  .min(0, { error: '不能小于 0' })
  .max(RATE_SCALE, { error: '不能超过 100%' })
  .meta({ title: '费率', description: '费率：10⁻⁷（千分比 × 10⁴，如 0.65‰ → 6500）' });
const dateText = (title: string) =>
  z.iso.date({ error: '请输入正确的日期，如 2026-01-01' }).meta({ title, description: 'YYYY-MM-DD' });
const text = (title: string, max: number) =>
  z
    .string({ error: '请输入文字' })
    .trim()
    .min(1, { error: '不能为空' })
    .max(max, { error: `不能超过 ${max} 个字符` })
    .meta({ title });
const optionalText = (title: string, max: number) =>
  z
    .preprocess(
      trimmedOrNull,
      z
        .string()
        .max(max, { error: `不能超过 ${max} 个字符` })
        .nullish(),
    )
    .meta({ title });

// ---- products and coverages ----

/**
 * When a required document must be on the application: before it is submitted (提交投保), or before the
 * underwriter may approve it (核保通过).
 */
export const MATERIAL_STAGES = ['SUBMIT', 'APPROVE'] as const;
export type MaterialStage = (typeof MATERIAL_STAGES)[number];
export const MATERIAL_STAGE_LABELS: Readonly<Record<MaterialStage, string>> = Object.freeze({
  SUBMIT: '提交投保时',
  APPROVE: '核保通过前',
});
export const requiredMaterial = z.object({
  docType: z
    .string({ error: '请选择资料类型' })
    .trim()
    .min(1, { error: '请选择资料类型' })
    .max(64, { error: '不能超过 64 个字符' })
    .meta({ title: '资料类型' }),
  stage: z.enum(MATERIAL_STAGES, { error: '请选择提交投保时或核保通过前' }).meta({ title: '环节' }),
});
export type RequiredMaterial = z.infer<typeof requiredMaterial>;

export const coverageForm = z.object({
  type: z.enum(COVERAGE_TYPES, { error: '请选择正确的责任类型' }).meta({ title: '责任类型' }),
  /** Empty: the type's standard name. */
  name: optionalText('责任名称', 50),
  perPersonLimitFen: fen(LIMIT_LABELS.perPersonLimitFen).nullish(),
  perAccidentLimitFen: fen(LIMIT_LABELS.perAccidentLimitFen).nullish(),
  aggregateLimitFen: fen(LIMIT_LABELS.aggregateLimitFen).nullish(),
  deductibleFen: fen(DEDUCTIBLE_LABEL).default(0),
  mandatory: z.boolean({ error: '请选择是或否' }).default(false).meta({ title: '是否必选' }),
  sort: z.number().int().min(0).max(9999).default(0).meta({ title: '排序' }),
});
export type CoverageForm = z.input<typeof coverageForm>;

const productFields = z.object({
  code: z
    .string()
    .trim()
    .regex(PRODUCT_CODE, { error: '险种代码为 2–32 位大写字母、数字、_ 或 -，以字母开头' })
    .meta({ title: '险种代码' }),
  name: text('险种名称', 60),
  productClass: z
    .enum(PRODUCT_CLASSES, { error: '请选择安责险、建筑施工安责险或保证保险' })
    .meta({ title: '险种类别' }),
  clauseVersion: text('条款版本', 60),
  region: z.string().trim().regex(REGION_CODE, { error: '请选择地区' }).meta({ title: '适用地区' }),
  validFrom: dateText('生效日期'),
  validTo: dateText('失效日期'),
  allowsCoinsurance: z.boolean().default(false).meta({ title: '允许共保' }),
  /** The product asks for a named insured list (从业人员名单): the headcount follows the list. */
  namedInsuredRequired: z.boolean().default(false).meta({ title: '需要从业人员名单' }),
  /** In a co-insured policy the issuing insurer (本公司) leads unless this is false (a co-insurer may lead). */
  issuerLeads: z.boolean().default(true).meta({ title: '本公司为主承保' }),
  /** A premium below this is raised to it (0: no minimum). */
  minPremiumFen: fen('最低保费').default(0),
  /** Construction products: a project costing less is refused (null: no minimum). */
  minProjectCostFen: fenField('最低工程造价').nullish(),
  /** The documents an application must carry, by stage. */
  requiredMaterials: z
    .array(requiredMaterial)
    .max(20, { error: '最多 20 项必备资料' })
    .default([])
    .meta({ title: '必备资料' }),
  /** Regional floor of the accident-prevention ratio. */
  preventionRatioMin: microPercent('事故预防费用比例下限', MAX_PREVENTION_RATIO, '21%'),
  /** At most 21% [rule]. */
  preventionRatioMax: microPercent('事故预防费用比例上限', MAX_PREVENTION_RATIO, '21%'),
  /** At most 5% [rule]. */
  commissionCap: microPercent('手续费比例上限', MAX_COMMISSION_RATE, '5%'),
  enabled: z.boolean().default(true).meta({ title: '状态' }),
  description: optionalText('说明', 500),
  coverages: z.array(coverageForm).max(20, { error: '最多 20 项责任' }).default([]).meta({ title: '责任' }),
});
type ProductFields = z.output<typeof productFields>;

/** Cross-field rules of a product, including the 2025 work-safety rules. */
function productRules(p: ProductFields, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: 'custom', path, message });
  if (p.preventionRatioMin > p.preventionRatioMax)
    issue(['preventionRatioMin'], '不能大于事故预防费用比例上限');
  if (p.validFrom > p.validTo) issue(['validTo'], '不能早于生效日期');
  if (p.minProjectCostFen != null && p.productClass !== 'construction')
    issue(['minProjectCostFen'], '仅建筑施工安责险可设最低工程造价');
  const required = new Set<string>();
  for (const [i, m] of p.requiredMaterials.entries()) {
    const key = `${m.stage}|${m.docType}`;
    if (required.has(key)) issue(['requiredMaterials', i, 'docType'], '同一环节的资料类型重复');
    required.add(key);
  }
  const seen = new Set<CoverageType>();
  for (const [i, c] of p.coverages.entries()) {
    if (seen.has(c.type)) issue(['coverages', i, 'type'], `「${COVERAGE_LABELS[c.type]}」重复`);
    seen.add(c.type);
    if (c.perPersonLimitFen == null && c.perAccidentLimitFen == null && c.aggregateLimitFen == null)
      issue(['coverages', i, 'perAccidentLimitFen'], '每人、每次事故、累计限额至少填写一项');
    if (PER_PERSON_COVERAGES.includes(c.type) && c.perPersonLimitFen == null)
      issue(['coverages', i, 'perPersonLimitFen'], '从业人员责任须填写每人限额');
    if (c.perPersonLimitFen != null && c.perPersonLimitFen > MAX_PER_PERSON_LIMIT_FEN)
      issue(['coverages', i, 'perPersonLimitFen'], '不能超过 1000万元');
    if (
      c.perPersonLimitFen != null &&
      c.perAccidentLimitFen != null &&
      c.perAccidentLimitFen < c.perPersonLimitFen
    )
      issue(['coverages', i, 'perAccidentLimitFen'], '不能小于每人限额');
    const below = c.perAccidentLimitFen ?? c.perPersonLimitFen;
    if (below != null && c.aggregateLimitFen != null && c.aggregateLimitFen < below)
      issue(['coverages', i, 'aggregateLimitFen'], '不能小于每次事故（每人）限额');
  }
  if (SAFETY_LIABILITY_CLASSES.includes(p.productClass)) {
    const i = p.coverages.findIndex((c) => c.type === 'EMPLOYEE_DEATH_DISABILITY');
    const death = p.coverages[i];
    if (!death) {
      issue(['coverages'], '安责险须包含「从业人员伤亡（死亡/伤残）」责任');
    } else {
      if (!death.mandatory) issue(['coverages', i, 'mandatory'], '安责险的从业人员伤亡责任必须为必选');
      if (death.perPersonLimitFen != null && death.perPersonLimitFen < MIN_DEATH_DISABILITY_LIMIT_FEN)
        issue(
          ['coverages', i, 'perPersonLimitFen'],
          '安责险从业人员每人死亡/伤残限额不得低于 40万元（400000 元，应急〔2025〕27号）',
        );
    }
  }
}

/** POST /api/products: a product with its coverages. */
export const productCreateForm = productFields.superRefine(productRules);
export type ProductCreateForm = z.input<typeof productCreateForm>;
/** POST /api/products/update: replaces the product and its coverages; a stale `version` answers 409. */
export const productUpdateForm = productFields
  .extend({ id: id('险种ID'), version })
  .superRefine((p, ctx) => productRules(p, ctx));
export type ProductUpdateForm = z.input<typeof productUpdateForm>;

export const coverageRow = z.object({
  id: z.number(),
  type: z.enum(COVERAGE_TYPES),
  /** The coverage's own name, or its type's standard name. */
  name: z.string(),
  perPersonLimitFen: z.number().nullable(),
  perAccidentLimitFen: z.number().nullable(),
  aggregateLimitFen: z.number().nullable(),
  deductibleFen: z.number(),
  mandatory: z.boolean(),
  sort: z.number(),
});
export type CoverageRow = z.infer<typeof coverageRow>;

export const rateTableRef = z.object({ id: z.number(), versionNo: z.number(), effectiveDate: z.string() });

export const productRow = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  productClass: z.enum(PRODUCT_CLASSES),
  clauseVersion: z.string(),
  region: z.string(),
  /** The region's name from the region dictionaries (null when no dictionary has the code). */
  regionName: z.string().nullable(),
  validFrom: z.string(),
  validTo: z.string(),
  allowsCoinsurance: z.boolean(),
  namedInsuredRequired: z.boolean(),
  issuerLeads: z.boolean(),
  minPremiumFen: z.number(),
  minProjectCostFen: z.number().nullable(),
  requiredMaterials: z.array(z.object({ docType: z.string(), stage: z.enum(MATERIAL_STAGES) })),
  preventionRatioMin: z.number(),
  preventionRatioMax: z.number(),
  commissionCap: z.number(),
  enabled: z.boolean(),
  description: z.string().nullable(),
  coverages: z.array(coverageRow),
  /** The rate-table version quotes use now, if any. */
  activeRateTable: rateTableRef.nullable(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProductRow = z.infer<typeof productRow>;

// ---- rate tables ----

export const factorOptionForm = z.object({
  value: z
    .string()
    .trim()
    .regex(FACTOR_CODE, { error: '选项代码为大写字母、数字或 _' })
    .meta({ title: '选项代码' }),
  label: text('选项名称', 40),
  multiplier: multiplier('系数'),
});
export const factorDefForm = z.object({
  code: z
    .string()
    .trim()
    .regex(FACTOR_CODE, { error: '因子代码为大写字母、数字或 _' })
    .meta({ title: '因子代码' }),
  label: text('因子名称', 40),
  min: multiplier('系数下限'),
  max: multiplier('系数上限'),
  defaultOption: z.string().trim().min(1, { error: '不能为空' }).meta({ title: '默认选项' }),
  options: z.array(factorOptionForm).min(1, { error: '至少一个选项' }).max(20).meta({ title: '选项' }),
});
export type FactorDefForm = z.input<typeof factorDefForm>;

export const rateRowForm = z.object({
  /** null: the whole contract (construction cost bands, guarantee). */
  coverageType: z.enum(COVERAGE_TYPES, { error: '请选择正确的责任类型' }).nullable().default(null).meta({
    title: '责任类型',
  }),
  /** GB/T 4754 section letter or two-digit division; null: any industry. */
  industry: z
    .string()
    .trim()
    .regex(INDUSTRY_CODE, { error: '请选择行业门类或大类' })
    .nullable()
    .default(null)
    .meta({ title: '行业' }),
  /** The per-person limit the rate is for (death/disability); null: any. */
  limitTierFen: fen('限额档次', MAX_PER_PERSON_LIMIT_FEN).nullable().default(null),
  /** Inclusive upper bound of a construction cost band; null: the top band (or not a band). */
  costBandUpToFen: fen('造价档次上限').nullable().default(null),
  rate,
});
export type RateRowForm = z.input<typeof rateRowForm>;

const rateTableFields = z.object({
  effectiveDate: dateText('生效日期'),
  /** Construction: the high-risk loading (× 10⁴); null: ×1.3. */
  highRiskLoading: multiplier('高风险加成系数').nullish(),
  factors: z
    .array(factorDefForm)
    .max(10, { error: '最多 10 个浮动因子' })
    .default([])
    .meta({ title: '浮动因子' }),
  rows: z
    .array(rateRowForm)
    .min(1, { error: '至少一行费率' })
    .max(2000, { error: '最多 2000 行' })
    .meta({ title: '费率明细' }),
  note: optionalText('备注', 200),
  /** How a period shorter than a year is priced (default: the short-rate table). */
  shortPeriodRule: z
    .enum(SHORT_PERIOD_RULES, { error: '请选择短期费率规则' })
    .default('SHORT_RATE_TABLE')
    .meta({ title: '短期费率规则' }),
  /** The short-rate table: basis points of the annual premium for 1 … 12 months; null: the standard table. */
  shortRateTable: z
    .array(z.number({ error: '请输入数字' }))
    .nullish()
    .meta({ title: '短期费率表', description: '1 至 12 个月占年保费的万分比，如 1000 = 10%' }),
});

function rateTableRules(t: z.output<typeof rateTableFields>, ctx: z.RefinementCtx): void {
  if (t.shortRateTable) {
    const problem = shortRateTableProblem(t.shortRateTable);
    if (problem) ctx.addIssue({ code: 'custom', path: ['shortRateTable'], message: problem });
  }
  const codes = new Set<string>();
  for (const [i, f] of t.factors.entries()) {
    const problem = factorDefProblem(f);
    if (problem) ctx.addIssue({ code: 'custom', path: ['factors', i], message: problem });
    if (codes.has(f.code) || f.code === 'HIGH_RISK')
      ctx.addIssue({
        code: 'custom',
        path: ['factors', i, 'code'],
        message: `因子代码 ${f.code} 重复或为保留代码`,
      });
    codes.add(f.code);
  }
}

/** POST /api/products/:id/rateTables: a new draft version. */
export const rateTableCreateForm = rateTableFields.superRefine(rateTableRules);
export type RateTableCreateForm = z.input<typeof rateTableCreateForm>;
/** POST /api/rateTables/:id/update: drafts only; a stale `version` answers 409. */
export const rateTableUpdateForm = rateTableFields
  .extend({ version })
  .superRefine((t, ctx) => rateTableRules(t, ctx));
export type RateTableUpdateForm = z.input<typeof rateTableUpdateForm>;

type RowInput = z.output<typeof rateRowForm>;

/** The column of a row a duplicate is reported at: the row's first key column for the class. */
const FIRST_ROW_FIELD: Readonly<Record<ProductClass, keyof RowInput>> = {
  work_safety: 'coverageType',
  construction: 'costBandUpToFen',
  guarantee: 'industry',
};

/**
 * The first problem of a table's rows for a product class (Chinese, naming the row, at the row's column it is
 * about; the whole table at `rows`), or null:
 * - work safety: rows per coverage type (industry and, for death/disability, limit tier ≥ 400,000 yuan);
 *   at least one death/disability row;
 * - construction: cost bands only (whole contract), ascending, the open top band last;
 * - guarantee: whole-contract rows, optionally by industry.
 */
export function rateRowsProblem(productClass: ProductClass, rows: readonly RowInput[]): FieldProblem | null {
  const label = '费率明细';
  const keys = new Map<string, number>();
  for (const [i, r] of rows.entries()) {
    const n = i + 1;
    const at = (column: keyof RowInput, message: string): FieldProblem => ({
      field: `rows.${i}.${column}`,
      label,
      message: `第 ${n} 行${message}`,
    });
    const key = [r.coverageType, r.industry, r.limitTierFen, r.costBandUpToFen].join('|');
    const twin = keys.get(key);
    if (twin !== undefined) return at(FIRST_ROW_FIELD[productClass], `与第 ${twin} 行重复`);
    keys.set(key, n);
    if (r.industry !== null && /^\d{2}$/.test(r.industry) && !sectionOfDivision(r.industry))
      return at('industry', `行业大类 ${r.industry} 不存在`);
    if (productClass === 'work_safety') {
      if (r.coverageType === null || r.coverageType === 'PERFORMANCE_GUARANTEE')
        return at('coverageType', '须选择安责险的责任类型');
      if (r.costBandUpToFen !== null) return at('costBandUpToFen', '不适用造价分档');
      if (r.limitTierFen !== null && r.coverageType !== 'EMPLOYEE_DEATH_DISABILITY')
        return at('limitTierFen', '只有从业人员伤亡责任按限额分档');
      if (r.limitTierFen !== null && r.limitTierFen < MIN_DEATH_DISABILITY_LIMIT_FEN)
        return at('limitTierFen', '限额档次不得低于 40万元');
    } else {
      if (r.coverageType !== null) return at('coverageType', '应为整单费率（不选责任类型）');
      if (r.limitTierFen !== null) return at('limitTierFen', '不适用限额分档');
      if (productClass === 'construction' && r.industry !== null) return at('industry', '造价分档不区分行业');
      if (productClass === 'guarantee' && r.costBandUpToFen !== null)
        return at('costBandUpToFen', '不适用造价分档');
    }
  }
  if (productClass === 'work_safety' && !rows.some((r) => r.coverageType === 'EMPLOYEE_DEATH_DISABILITY'))
    return { field: 'rows', label, message: '须包含从业人员伤亡责任的费率' };
  if (productClass === 'construction') {
    const bands: CostBand[] = rows
      .map((r) => ({ upToFen: r.costBandUpToFen, rate: r.rate }))
      .sort((a, b) => (a.upToFen ?? Number.POSITIVE_INFINITY) - (b.upToFen ?? Number.POSITIVE_INFINITY));
    const problem = costBandsProblem(bands);
    if (problem) return { field: 'rows', message: problem };
    if (bands[bands.length - 1]!.upToFen !== null)
      return { field: 'rows', label: '造价分档', message: '最高一档须不设上限' };
  }
  return null;
}

const factorOptionRow = z.object({ value: z.string(), label: z.string(), multiplier: z.number() });
export const factorDefRow = z.object({
  code: z.string(),
  label: z.string(),
  min: z.number(),
  max: z.number(),
  defaultOption: z.string(),
  options: z.array(factorOptionRow),
});

export const rateTableRow = z.object({
  id: z.number(),
  productId: z.number(),
  versionNo: z.number(),
  effectiveDate: z.string(),
  status: z.enum(RATE_TABLE_STATUSES),
  highRiskLoading: z.number().nullable(),
  factors: z.array(factorDefRow),
  note: z.string().nullable(),
  shortPeriodRule: z.enum(SHORT_PERIOD_RULES),
  /** Basis points for 1 … 12 months; null: the standard table. */
  shortRateTable: z.array(z.number()).nullable(),
  rowCount: z.number(),
  activatedAt: z.string().nullable(),
  activatedBy: z.string().nullable(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RateTableRow = z.infer<typeof rateTableRow>;

export const rateRow = z.object({
  id: z.number(),
  coverageType: z.enum(COVERAGE_TYPES).nullable(),
  industry: z.string().nullable(),
  limitTierFen: z.number().nullable(),
  costBandUpToFen: z.number().nullable(),
  rate: z.number(),
});
export const rateTableDetail = rateTableRow.extend({ rows: z.array(rateRow) });
export type RateTableDetail = z.infer<typeof rateTableDetail>;

// ---- quotes ----

/**
 * POST /api/products/:id/quote. Which fields count depends on the product class:
 * - work_safety: headcount, perPersonLimitFen (one of the table's limit tiers; default the product's
 *   death/disability limit), industry (from `customerId` when given), optional coverages to add;
 * - construction: projectCostFen, highRisk;
 * - guarantee: guaranteeAmountFen.
 * `factors` picks an option per floating factor (`{ ACCIDENT_HISTORY: 'ONE' }`; missing: the default).
 * `rateTableId` re-prices on that version (reproducing a stored quote) instead of the active one.
 */
export const quoteForm = z.object({
  rateTableId: id('费率表版本').optional(),
  customerId: id('投保人').optional(),
  industrySection: z
    .string()
    .trim()
    .regex(/^[A-T]$/, { error: '请选择行业门类' })
    .optional()
    .meta({ title: '行业门类' }),
  industryDivision: z
    .string()
    .trim()
    .regex(/^\d{2}$/, { error: '请选择行业大类' })
    .optional()
    .meta({ title: '行业大类' }),
  headcount: z
    .number({ error: '请输入数字' })
    .int({ error: '须为整数' })
    .min(1, { error: '至少为 1 人' })
    .max(MAX_HEADCOUNT, { error: '请输入正确的单位总人数' })
    .optional()
    .meta({ title: '参保人数' }),
  perPersonLimitFen: fen('每人伤亡限额', MAX_PER_PERSON_LIMIT_FEN).optional(),
  /** Optional coverages to add (the mandatory ones are always priced). */
  coverages: z
    .array(z.enum(COVERAGE_TYPES, { error: '请选择正确的责任类型' }))
    .max(20)
    .optional()
    .meta({ title: '附加责任' }),
  projectCostFen: fen('工程造价').optional(),
  highRisk: z.boolean().default(false).meta({ title: '高风险工程' }),
  guaranteeAmountFen: fen('保证金额').optional(),
  factors: z
    .record(z.string().regex(FACTOR_CODE), z.string().max(32))
    .optional()
    .meta({ title: '浮动因子', description: '{ 因子代码: 选项代码 }' }),
  /** Within the product's range; default its lower bound. */
  preventionRatio: microPercent('事故预防费用比例', MAX_PREVENTION_RATIO, '21%').optional(),
  /** The period (both days covered); absent: a whole year. A shorter one is priced by the short-period rule. */
  periodStart: dateText('保险起期').optional(),
  /** Absent with a start: a year from it. */
  periodEnd: dateText('保险止期').optional(),
});
export type QuoteForm = z.input<typeof quoteForm>;

const appliedFactor = z.object({
  code: z.string(),
  label: z.string(),
  option: z.string().nullable(),
  optionLabel: z.string().nullable(),
  multiplier: z.number(),
});

export const quoteResult = z.object({
  productId: z.number(),
  productCode: z.string(),
  productName: z.string(),
  productClass: z.enum(PRODUCT_CLASSES),
  /** The rate-table version priced on: store it with the quote; activating a later version never changes it. */
  rateTableId: z.number(),
  rateTableVersion: z.number(),
  effectiveDate: z.string(),
  quotedAt: z.string(),
  /** Every input the premium depends on, resolved (defaults filled in), so the quote can be reproduced. */
  input: z.object({
    industrySection: z.string().nullable(),
    industryDivision: z.string().nullable(),
    headcount: z.number().nullable(),
    perPersonLimitFen: z.number().nullable(),
    coverages: z.array(z.enum(COVERAGE_TYPES)),
    projectCostFen: z.number().nullable(),
    highRisk: z.boolean(),
    guaranteeAmountFen: z.number().nullable(),
    factors: z.record(z.string(), z.string()),
    preventionRatio: z.number(),
    /** The period priced (absent or null: a whole year; quotes stored before periods were priced). */
    periodStart: z.string().nullish(),
    periodEnd: z.string().nullish(),
  }),
  /** The period's share of the annual premium (absent or null: a whole year). */
  period: z
    .object({
      start: z.string(),
      end: z.string(),
      rule: z.enum(SHORT_PERIOD_RULES),
      numerator: z.number(),
      denominator: z.number(),
      months: z.number(),
      days: z.number(),
      fullYear: z.boolean(),
      /** 短期费率 1 个月 10% / 按日比例 31/365 天 / 一年期. */
      text: z.string(),
      annualPremiumFen: z.number(),
    })
    .nullish(),
  premiumFen: z.number(),
  basePremiumFen: z.number(),
  combinedMultiplier: z.string(),
  lines: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      coverageType: z.enum(COVERAGE_TYPES).nullable(),
      baseFen: z.number(),
      rate: z.number(),
      basePremiumFen: z.number(),
      premiumFen: z.number(),
    }),
  ),
  factors: z.array(
    appliedFactor.extend({ beforeFen: z.number(), afterFen: z.number(), deltaFen: z.number() }),
  ),
  preventionRatio: z.number(),
  preventionFeeFen: z.number(),
  /** How the premium was rounded: once, to the fen, half-up. */
  rounding: z.literal('HALF_UP_FEN'),
});
export type QuoteResult = z.infer<typeof quoteResult>;

/**
 * GET /api/products/available: what the application wizard offers, with what it needs to price a quote live
 * exactly as the server does: `composeQuote(product, product.rating, inputs)` (`@piibs/shared/quote`) takes
 * the product's class, coverages (limits, mandatory flag) and prevention-ratio range, and `rating`: the active
 * rate-table version with its factors, high-risk loading and rows.
 */
export const availableProduct = productRow.extend({
  rating: z
    .object({
      rateTableId: z.number(),
      versionNo: z.number(),
      effectiveDate: z.string(),
      /** Death/disability limits a work-safety quote may choose (empty: any limit ≥ 400,000 yuan). */
      limitTiersFen: z.array(z.number()),
      factors: z.array(factorDefRow),
      highRiskLoading: z.number().nullable(),
      shortPeriodRule: z.enum(SHORT_PERIOD_RULES),
      shortRateTable: z.array(z.number()).nullable(),
      /** The table's rate rows, in table order. */
      rows: z.array(rateRow.omit({ id: true })),
    })
    .nullable(),
});
export type AvailableProduct = z.infer<typeof availableProduct>;
