import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { yuan } from './money.ts';
import type { AvailableProduct, ProductRow } from './product.ts';
import {
  type ComposedQuote,
  composeQuote,
  type QuoteCoverage,
  type QuoteInputs,
  type QuoteProduct,
  type QuoteTable,
} from './quote.ts';
import {
  type CoverageType,
  coverageLimitsText,
  type FactorDef,
  type RateRow,
  RatingError,
  ratedLimitOf,
} from './rating.ts';

// ---- fixtures (rates per-mille × 10⁴: 4_000 = 0.40‰; multipliers × 10⁴) ----

const cover = (
  type: CoverageType,
  mandatory: boolean,
  limits: { perPerson?: number; perAccident?: number; aggregate?: number },
): QuoteCoverage => ({
  type,
  name: `${type} 名称`,
  mandatory,
  perPersonLimitFen: limits.perPerson === undefined ? null : yuan(limits.perPerson),
  perAccidentLimitFen: limits.perAccident === undefined ? null : yuan(limits.perAccident),
  aggregateLimitFen: limits.aggregate === undefined ? null : yuan(limits.aggregate),
});

const row = (r: Partial<RateRow> & { rate: number }): RateRow => ({
  coverageType: null,
  industry: null,
  limitTierFen: null,
  costBandUpToFen: null,
  ...r,
});

const ACCIDENT_HISTORY: FactorDef = {
  code: 'ACCIDENT_HISTORY',
  label: '事故记录',
  min: 9_000,
  max: 13_000,
  defaultOption: 'UNKNOWN',
  options: [
    { value: 'UNKNOWN', label: '未提供', multiplier: 10_000 },
    { value: 'ONE', label: '一起', multiplier: 11_000 },
  ],
};
const SAFETY_AWARD: FactorDef = {
  code: 'SAFETY_AWARD',
  label: '标准化',
  min: 8_500,
  max: 10_000,
  defaultOption: 'NONE',
  options: [
    { value: 'NONE', label: '无', multiplier: 10_000 },
    { value: 'LEVEL3', label: '三级', multiplier: 9_500 },
  ],
};

/** Work safety: death 50万/人 (default), medical 5万/人, third-party injury 500万 (aggregate), all mandatory;
 * legal costs (aggregate 20万) and appraisal (no rate row) optional. Prevention 15–21%. */
const WS: QuoteProduct = {
  productClass: 'work_safety',
  preventionRatioMin: 15_000_000,
  preventionRatioMax: 21_000_000,
  coverages: [
    cover('EMPLOYEE_DEATH_DISABILITY', true, { perPerson: 500_000 }),
    cover('EMPLOYEE_MEDICAL', true, { perPerson: 50_000 }),
    cover('THIRD_PARTY_INJURY', true, { perPerson: 500_000, perAccident: 3_000_000, aggregate: 5_000_000 }),
    cover('LEGAL_COSTS', false, { perAccident: 100_000, aggregate: 200_000 }),
    cover('APPRAISAL', false, { perAccident: 100_000 }),
  ],
};
const death = (industry: string | null, tier: number, rate: number) =>
  row({ coverageType: 'EMPLOYEE_DEATH_DISABILITY', industry, limitTierFen: yuan(tier), rate });
/** Death at 40万/50万: any industry 0.50/0.475‰, manufacturing (C) 0.40/0.38‰, division 26 (C) 0.665‰ at 50万. */
const WS_TABLE: QuoteTable = {
  versionNo: 3,
  factors: [ACCIDENT_HISTORY, SAFETY_AWARD],
  highRiskLoading: null,
  rows: [
    death(null, 400_000, 5_000),
    death(null, 500_000, 4_750),
    death('C', 400_000, 4_000),
    death('C', 500_000, 3_800),
    death('26', 500_000, 6_650),
    row({ coverageType: 'EMPLOYEE_MEDICAL', rate: 6_000 }),
    row({ coverageType: 'THIRD_PARTY_INJURY', rate: 1_000 }),
    row({ coverageType: 'LEGAL_COSTS', rate: 2_500 }),
  ],
};

/** Construction: 0.65‰ to 1000万, 0.60‰ to 5000万, 0.55‰ above; high-risk loading from the table (null: ×1.3). */
const CONSTRUCTION: QuoteProduct = {
  productClass: 'construction',
  preventionRatioMin: 15_000_000,
  preventionRatioMax: 21_000_000,
  coverages: [
    cover('EMPLOYEE_DEATH_DISABILITY', true, { perPerson: 500_000 }),
    cover('RESCUE', true, { perAccident: 500_000, aggregate: 1_000_000 }),
  ],
};
const CONSTRUCTION_TABLE: QuoteTable = {
  versionNo: 1,
  factors: [ACCIDENT_HISTORY],
  highRiskLoading: null,
  rows: [
    row({ costBandUpToFen: yuan(50_000_000), rate: 6_000 }),
    row({ costBandUpToFen: yuan(10_000_000), rate: 6_500 }),
    row({ rate: 5_500 }),
  ],
};

/** Guarantee: 1.5% (construction, E: 1.2%), capped at the aggregate limit 3000万 (not the per-accident 5000万). */
const GUARANTEE: QuoteProduct = {
  productClass: 'guarantee',
  preventionRatioMin: 0,
  preventionRatioMax: 0,
  coverages: [cover('PERFORMANCE_GUARANTEE', true, { perAccident: 50_000_000, aggregate: 30_000_000 })],
};
const GUARANTEE_TABLE: QuoteTable = {
  versionNo: 2,
  factors: [
    {
      code: 'PERFORMANCE_RECORD',
      label: '履约记录',
      min: 9_000,
      max: 13_000,
      defaultOption: 'NORMAL',
      options: [
        { value: 'GOOD', label: '良好', multiplier: 9_000 },
        { value: 'NORMAL', label: '一般', multiplier: 10_000 },
      ],
    },
  ],
  highRiskLoading: null,
  rows: [row({ rate: 150_000 }), row({ industry: 'E', rate: 120_000 })],
};

// ---- premiums ----

interface Case {
  name: string;
  product: QuoteProduct;
  table: QuoteTable;
  inputs: QuoteInputs;
  premiumFen: number;
  preventionFeeFen: number;
  /** Parts of the resolved input to check. */
  input?: Partial<ComposedQuote['input']>;
  lines?: [string, number][];
  combinedMultiplier?: string;
}

const cases: Case[] = [
  {
    // 50 × 50万 × 0.38‰ = 9,500 + medical 50 × 5万 × 0.6‰ = 1,500 + injury 500万 × 0.1‰ = 500 → 11,500 yuan;
    // prevention 15% (the minimum) = 1,725 yuan.
    name: 'work safety: per head, section from the division, default limit, factors and ratio',
    product: WS,
    table: WS_TABLE,
    inputs: { headcount: 50, industryDivision: '34' },
    premiumFen: yuan(11_500),
    preventionFeeFen: yuan(1_725),
    input: {
      industrySection: 'C',
      industryDivision: '34',
      headcount: 50,
      perPersonLimitFen: yuan(500_000),
      coverages: ['EMPLOYEE_DEATH_DISABILITY', 'EMPLOYEE_MEDICAL', 'THIRD_PARTY_INJURY'],
      projectCostFen: null,
      highRisk: false,
      guaranteeAmountFen: null,
      factors: { ACCIDENT_HISTORY: 'UNKNOWN', SAFETY_AWARD: 'NONE' },
      preventionRatio: 15_000_000,
    },
    lines: [
      ['EMPLOYEE_DEATH_DISABILITY', yuan(9_500)],
      ['EMPLOYEE_MEDICAL', yuan(1_500)],
      ['THIRD_PARTY_INJURY', yuan(500)],
    ],
    combinedMultiplier: '1',
  },
  {
    // (11,500 + legal costs 20万 × 0.25‰ = 50) × 1.1 × 0.95 = 11,550 × 1.045 = 12,069.75 yuan; fund 20% = 2,413.95.
    name: 'work safety: an optional coverage and two factors, ratio 20%',
    product: WS,
    table: WS_TABLE,
    inputs: {
      headcount: 50,
      perPersonLimitFen: yuan(500_000),
      industrySection: 'C',
      coverages: ['LEGAL_COSTS'],
      factors: { ACCIDENT_HISTORY: 'ONE', SAFETY_AWARD: 'LEVEL3' },
      preventionRatio: 20_000_000,
    },
    premiumFen: 1_206_975,
    preventionFeeFen: 241_395,
    input: {
      coverages: ['EMPLOYEE_DEATH_DISABILITY', 'EMPLOYEE_MEDICAL', 'THIRD_PARTY_INJURY', 'LEGAL_COSTS'],
      factors: { ACCIDENT_HISTORY: 'ONE', SAFETY_AWARD: 'LEVEL3' },
      preventionRatio: 20_000_000,
    },
    combinedMultiplier: '1.045',
  },
  {
    // The division's own rate beats its section's: 10 × 50万 × 0.665‰ = 3,325 + 300 + 500 = 4,125 yuan.
    name: 'work safety: a division row beats its section',
    product: WS,
    table: WS_TABLE,
    inputs: { headcount: 10, industryDivision: '26' },
    premiumFen: yuan(4_125),
    preventionFeeFen: 61_875,
    input: { industrySection: 'C', industryDivision: '26' },
  },
  {
    // No row for F: any industry at 40万: 10 × 40万 × 0.5‰ = 2,000 + 300 + 500 = 2,800 yuan.
    name: 'work safety: an industry without rows takes the any-industry rate, limit tier 40万',
    product: WS,
    table: WS_TABLE,
    inputs: { headcount: 10, perPersonLimitFen: yuan(400_000), industrySection: 'F' },
    premiumFen: yuan(2_800),
    preventionFeeFen: yuan(420),
    input: { industrySection: 'F', industryDivision: null, perPersonLimitFen: yuan(400_000) },
  },
  {
    // A table without limit tiers prices any limit: 3 × 45万 × 0.5‰ = 675 + 3 × 5万 × 0.6‰ = 90 + 500 = 1,265
    // × 1.1 = 1,391.50 yuan; fund 15% = 208.725 → 208.73 (half-up).
    name: 'work safety: a table without limit tiers, rounding half-up',
    product: WS,
    table: {
      ...WS_TABLE,
      rows: [row({ coverageType: 'EMPLOYEE_DEATH_DISABILITY', rate: 5_000 }), ...WS_TABLE.rows.slice(5)],
    },
    inputs: { headcount: 3, perPersonLimitFen: yuan(450_000), factors: { ACCIDENT_HISTORY: 'ONE' } },
    premiumFen: 139_150,
    preventionFeeFen: 20_873,
    input: { industrySection: null, industryDivision: null, perPersonLimitFen: yuan(450_000) },
  },
  {
    // null counts as not given: every default.
    name: 'work safety: nulls take the defaults',
    product: WS,
    table: WS_TABLE,
    inputs: {
      headcount: 50,
      industrySection: null,
      industryDivision: '34',
      perPersonLimitFen: null,
      coverages: null,
      projectCostFen: null,
      highRisk: null,
      guaranteeAmountFen: null,
      factors: null,
      preventionRatio: null,
    },
    premiumFen: yuan(11_500),
    preventionFeeFen: yuan(1_725),
  },
  {
    name: 'construction: 500万 in the first band, 0.65‰ = 3,250 yuan',
    product: CONSTRUCTION,
    table: CONSTRUCTION_TABLE,
    inputs: { projectCostFen: yuan(5_000_000) },
    premiumFen: yuan(3_250),
    preventionFeeFen: 48_750,
    input: {
      projectCostFen: yuan(5_000_000),
      highRisk: false,
      headcount: null,
      perPersonLimitFen: null,
      coverages: ['EMPLOYEE_DEATH_DISABILITY', 'RESCUE'],
      factors: { ACCIDENT_HISTORY: 'UNKNOWN' },
      industrySection: null,
      industryDivision: null,
    },
  },
  {
    // Each slice at its band's rate: 1000万 × 0.65‰ = 6,500 + 4000万 × 0.60‰ = 24,000 → 30,500 yuan.
    name: 'construction: 5000万 across two bands = 30,500 yuan',
    product: CONSTRUCTION,
    table: CONSTRUCTION_TABLE,
    inputs: { projectCostFen: yuan(50_000_000) },
    premiumFen: yuan(30_500),
    preventionFeeFen: yuan(4_575),
    lines: [
      ['band:0', yuan(6_500)],
      ['band:1', yuan(24_000)],
    ],
  },
  {
    // 6,500 + 24,000 + 1000万 × 0.55‰ = 5,500 → 36,000 yuan.
    name: 'construction: 6000万 reaches the open top band',
    product: CONSTRUCTION,
    table: CONSTRUCTION_TABLE,
    inputs: { projectCostFen: yuan(60_000_000) },
    premiumFen: yuan(36_000),
    preventionFeeFen: yuan(5_400),
  },
  {
    name: 'construction: high-risk at the default ×1.3 = 39,650 yuan',
    product: CONSTRUCTION,
    table: CONSTRUCTION_TABLE,
    inputs: { projectCostFen: yuan(50_000_000), highRisk: true },
    premiumFen: yuan(39_650),
    preventionFeeFen: yuan(5_947.5),
    input: { highRisk: true },
    combinedMultiplier: '1.3',
  },
  {
    // 30,500 × 1.2 × 1.1 = 40,260 yuan; fund 21% = 8,454.60.
    name: "construction: high-risk at the table's ×1.2 and a factor, ratio 21%",
    product: CONSTRUCTION,
    table: { ...CONSTRUCTION_TABLE, highRiskLoading: 12_000 },
    inputs: {
      projectCostFen: yuan(50_000_000),
      highRisk: true,
      factors: { ACCIDENT_HISTORY: 'ONE' },
      preventionRatio: 21_000_000,
    },
    premiumFen: yuan(40_260),
    preventionFeeFen: 845_460,
    combinedMultiplier: '1.32',
  },
  {
    name: 'guarantee: 200万 for a builder (E, from division 48) at 1.2% = 24,000 yuan; no prevention fund',
    product: GUARANTEE,
    table: GUARANTEE_TABLE,
    inputs: { guaranteeAmountFen: yuan(2_000_000), industryDivision: '48' },
    premiumFen: yuan(24_000),
    preventionFeeFen: 0,
    input: {
      guaranteeAmountFen: yuan(2_000_000),
      industrySection: 'E',
      coverages: ['PERFORMANCE_GUARANTEE'],
      factors: { PERFORMANCE_RECORD: 'NORMAL' },
      preventionRatio: 0,
    },
  },
  {
    name: 'guarantee: any other industry at 1.5%, a good record ×0.9 = 27,000 yuan',
    product: GUARANTEE,
    table: GUARANTEE_TABLE,
    inputs: { guaranteeAmountFen: yuan(2_000_000), factors: { PERFORMANCE_RECORD: 'GOOD' } },
    premiumFen: yuan(27_000),
    preventionFeeFen: 0,
  },
  {
    name: 'guarantee: exactly the cap (the aggregate limit, 3000万) = 450,000 yuan',
    product: GUARANTEE,
    table: GUARANTEE_TABLE,
    inputs: { guaranteeAmountFen: yuan(30_000_000) },
    premiumFen: yuan(450_000),
    preventionFeeFen: 0,
  },
];

describe('composeQuote: premiums (hand-computed)', () => {
  it.each(cases)('$name', (c) => {
    const q = composeQuote(c.product, c.table, c.inputs);
    expect(q.premium.premiumFen).toBe(c.premiumFen);
    expect(q.preventionFeeFen).toBe(c.preventionFeeFen);
    expect(q.preventionRatio).toBe(q.input.preventionRatio);
    if (c.input) expect(q.input).toMatchObject(c.input);
    if (c.lines) expect(q.premium.lines.map((l) => [l.key, l.premiumFen])).toEqual(c.lines);
    if (c.combinedMultiplier) expect(q.premium.combinedMultiplier).toBe(c.combinedMultiplier);
    expect(q.premium.lines.reduce((s, l) => s + l.premiumFen, 0)).toBe(c.premiumFen);
  });

  it('labels the extra lines with the coverage names of the product', () => {
    const q = composeQuote(WS, WS_TABLE, { headcount: 1, industrySection: 'C' });
    expect(q.premium.lines[1]!.label).toMatch(/^EMPLOYEE_MEDICAL 名称 5万元\/人 × 1人/);
  });

  it('names the limit a coverage is rated on, as the wizard labels the coverage (coverageLimitsText)', () => {
    // Third-party injury: 每人 50万, 每次事故 300万, 累计 500万 — rated on the aggregate, and said so.
    const q = composeQuote(WS, WS_TABLE, { headcount: 1, industrySection: 'C', coverages: ['LEGAL_COSTS'] });
    const injury = WS.coverages[2]!;
    expect(q.premium.lines[2]!.label).toBe('THIRD_PARTY_INJURY 名称 累计限额 500万元 × 0.1‰');
    expect(coverageLimitsText(injury)).toBe('每人限额 50万元，每次事故限额 300万元，累计限额 500万元');
    expect(ratedLimitOf(injury)).toEqual({ field: 'aggregateLimitFen', fen: yuan(5_000_000) });
    // Without an aggregate limit the per-accident one is rated; per-head coverages on their per-person limit.
    expect(ratedLimitOf(WS.coverages[4]!)).toEqual({ field: 'perAccidentLimitFen', fen: yuan(100_000) });
    expect(ratedLimitOf(WS.coverages[1]!)).toEqual({ field: 'perPersonLimitFen', fen: yuan(50_000) });
    expect(q.premium.lines[3]!.label).toBe('LEGAL_COSTS 名称 累计限额 20万元 × 0.25‰');
    expect(coverageLimitsText(WS.coverages[4]!)).toBe('每次事故限额 10万元');
    expect(coverageLimitsText(cover('RESCUE', false, {}))).toBe('');
  });

  it('is pure: the same inputs give the same quote and nothing passed in changes', () => {
    const inputs: QuoteInputs = { headcount: 50, industryDivision: '34', coverages: ['LEGAL_COSTS'] };
    const copies = JSON.stringify([WS, WS_TABLE, inputs]);
    expect(composeQuote(WS, WS_TABLE, inputs)).toEqual(composeQuote(WS, WS_TABLE, inputs));
    expect(JSON.stringify([WS, WS_TABLE, inputs])).toBe(copies);
  });
});

// ---- errors: the server answers each with a 400 carrying the same message ----

const errors: [string, QuoteProduct, QuoteTable, QuoteInputs, string, string][] = [
  ['no headcount', WS, WS_TABLE, { industrySection: 'C' }, 'headcount', '参保人数：不能为空'],
  [
    'null headcount',
    WS,
    WS_TABLE,
    { headcount: null, industrySection: 'C' },
    'headcount',
    '参保人数：不能为空',
  ],
  [
    'headcount 0 (a customer of none)',
    WS,
    WS_TABLE,
    { headcount: 0, industrySection: 'C' },
    'headcount',
    '参保人数：须为 1–999999 之间的整数',
  ],
  [
    'no limit and none on the death coverage',
    { ...WS, coverages: [cover('EMPLOYEE_DEATH_DISABILITY', true, {})] },
    WS_TABLE,
    { headcount: 10, industrySection: 'C' },
    'perPersonLimitFen',
    '每人伤亡限额：不能为空',
  ],
  [
    'a limit the table does not price',
    WS,
    WS_TABLE,
    { headcount: 10, industrySection: 'C', perPersonLimitFen: yuan(450_000) },
    'perPersonLimitFen',
    '每人伤亡限额：请选择 40万元、50万元',
  ],
  [
    'below the 2025 floor (a table without tiers)',
    WS,
    {
      ...WS_TABLE,
      rows: [row({ coverageType: 'EMPLOYEE_DEATH_DISABILITY', rate: 5_000 }), ...WS_TABLE.rows.slice(5)],
    },
    { headcount: 10, perPersonLimitFen: yuan(300_000) },
    'perPersonLimitFen',
    '每人伤亡限额：安责险每人死亡/伤残限额不得低于 40万元',
  ],
  [
    'no industry on a table rated by industry',
    WS,
    WS_TABLE,
    { headcount: 10 },
    'industrySection',
    '行业门类：不能为空',
  ],
  [
    'a coverage the product does not have',
    WS,
    WS_TABLE,
    { headcount: 10, industrySection: 'C', coverages: ['PERFORMANCE_GUARANTEE'] },
    'coverages',
    '附加责任：该险种没有「履约保证责任」',
  ],
  [
    'a chosen coverage the table does not price',
    WS,
    WS_TABLE,
    { headcount: 10, industrySection: 'C', coverages: ['APPRAISAL'] },
    'rateTable',
    '费率表（第 3 版）没有「事故鉴定费用」在该行业下的费率',
  ],
  [
    'no death rate for the industry and limit',
    WS,
    { ...WS_TABLE, rows: WS_TABLE.rows.slice(2) },
    { headcount: 10, industrySection: 'F' },
    'rateTable',
    '费率表（第 3 版）没有「从业人员伤亡（死亡/伤残）」在该行业、限额下的费率',
  ],
  [
    'a prevention ratio below the range',
    WS,
    WS_TABLE,
    { headcount: 10, industrySection: 'C', preventionRatio: 10_000_000 },
    'preventionRatio',
    '事故预防费用比例：须在 15%–21% 之间',
  ],
  [
    'a prevention ratio above the range (checked before anything else)',
    { ...WS, preventionRatioMin: 15_500_000, preventionRatioMax: 20_000_000 },
    WS_TABLE,
    { preventionRatio: 20_000_001 },
    'preventionRatio',
    '事故预防费用比例：须在 15.5%–20% 之间',
  ],
  [
    'a factor the table does not have',
    WS,
    WS_TABLE,
    { headcount: 10, industrySection: 'C', factors: { CREDIT_BLACKLIST: 'YES' } },
    'factors',
    '浮动因子：费率表中没有 CREDIT_BLACKLIST',
  ],
  [
    'an option the factor does not have',
    WS,
    WS_TABLE,
    { headcount: 10, industrySection: 'C', factors: { ACCIDENT_HISTORY: 'MANY' } },
    'factors',
    '浮动因子：「事故记录」没有选项 MANY',
  ],
  ['no project cost', CONSTRUCTION, CONSTRUCTION_TABLE, {}, 'projectCostFen', '工程造价：不能为空'],
  [
    'a project cost of 0',
    CONSTRUCTION,
    CONSTRUCTION_TABLE,
    { projectCostFen: 0 },
    'projectCostFen',
    `工程造价：须为 1–${yuan(1_000_000_000_000)} 之间的整数（分）`,
  ],
  [
    "a project cost under the product's minimum",
    { ...CONSTRUCTION, minProjectCostFen: yuan(100_000) },
    CONSTRUCTION_TABLE,
    { projectCostFen: yuan(100_000) - 1 },
    'projectCostFen',
    '工程造价：不能低于本险种最低工程造价 10万元',
  ],
  [
    'a project cost whose premium rounds to nothing (¥0.01 × 0.65‰)',
    CONSTRUCTION,
    CONSTRUCTION_TABLE,
    { projectCostFen: 1 },
    'projectCostFen',
    '工程造价：按此金额计算的保费为 0，请检查',
  ],
  ['no guaranteed amount', GUARANTEE, GUARANTEE_TABLE, {}, 'guaranteeAmountFen', '保证金额：不能为空'],
  [
    'a guaranteed amount over the cap',
    GUARANTEE,
    GUARANTEE_TABLE,
    { guaranteeAmountFen: yuan(30_000_000) + 1 },
    'guaranteeAmountFen',
    '保证金额：不能超过 3000万元',
  ],
  [
    'no whole-contract rate for the industry',
    GUARANTEE,
    { ...GUARANTEE_TABLE, rows: [row({ industry: 'E', rate: 120_000 })] },
    { guaranteeAmountFen: yuan(1_000_000), industrySection: 'C' },
    'rateTable',
    '费率表（第 2 版）没有整单在该行业下的费率',
  ],
];

describe("composeQuote: the product's minimums", () => {
  const MIN = { ...CONSTRUCTION, minPremiumFen: yuan(200), minProjectCostFen: yuan(100_000) };

  it('prices a project at the minimum cost', () => {
    // 10万 × 0.65‰ = 65 yuan, under the 200-yuan minimum premium.
    const q = composeQuote(MIN, CONSTRUCTION_TABLE, { projectCostFen: yuan(100_000) });
    expect(q.premium.premiumFen).toBe(yuan(200));
    expect(q.premium.basePremiumFen).toBe(yuan(65));
    const topUp = q.premium.lines.at(-1)!;
    expect(topUp).toMatchObject({ key: 'MIN_PREMIUM', coverageType: null, premiumFen: yuan(135) });
    expect(topUp.label).toBe('最低保费补足（按费率计算 ¥65.00，本险种最低保费 ¥200.00）');
    expect(q.premium.lines.reduce((a, l) => a + l.premiumFen, 0)).toBe(q.premium.premiumFen);
    // The prevention fee is funded by the premium charged.
    expect(q.preventionFeeFen).toBe(yuan(30));
  });

  it('leaves a premium above the minimum alone', () => {
    const q = composeQuote(MIN, CONSTRUCTION_TABLE, { projectCostFen: yuan(5_000_000) });
    expect(q.premium.premiumFen).toBe(yuan(3_250));
    expect(q.premium.lines.some((l) => l.key === 'MIN_PREMIUM')).toBe(false);
  });
});

describe('composeQuote: a period shorter than a year', () => {
  const inputs: QuoteInputs = { headcount: 37, industrySection: 'C', factors: { ACCIDENT_HISTORY: 'ONE' } };

  it('prices one month (2026-12-01 … 2026-12-31) at 10% of the twelve-month quote, to the fen', () => {
    const year = composeQuote(WS, WS_TABLE, { ...inputs, periodStart: '2026-12-01' });
    const month = composeQuote(WS, WS_TABLE, {
      ...inputs,
      periodStart: '2026-12-01',
      periodEnd: '2026-12-31',
    });
    expect(year.input).toMatchObject({ periodStart: '2026-12-01', periodEnd: '2027-11-30' });
    expect(year.period).toMatchObject({ fullYear: true, text: '一年期' });
    expect(year.premium.premiumFen).toBe(composeQuote(WS, WS_TABLE, inputs).premium.premiumFen);
    // Hand-computed: 10% of the annual premium, half up.
    expect(month.premium.premiumFen).toBe(Math.round(year.premium.premiumFen / 10));
    expect(month.period).toMatchObject({
      text: '短期费率 1 个月 10%',
      months: 1,
      days: 31,
      annualPremiumFen: year.premium.premiumFen,
    });
    const line = month.premium.lines.at(-1)!;
    expect(line.key).toBe('SHORT_PERIOD');
    expect(line.label).toMatch(/^短期费率 1 个月 10%（年保费 ¥/);
    expect(month.premium.lines.reduce((a, l) => a + l.premiumFen, 0)).toBe(month.premium.premiumFen);
    // The prevention fee follows the premium.
    expect(month.preventionFeeFen).toBe(Math.round((month.premium.premiumFen * 15) / 100));
  });

  it('counts a started month whole and takes the version’s own table or the daily pro rata rule', () => {
    const twoMonths = composeQuote(WS, WS_TABLE, {
      ...inputs,
      periodStart: '2026-12-01',
      periodEnd: '2027-01-01',
    });
    expect(twoMonths.period?.text).toBe('短期费率 2 个月 20%');
    const own = [1500, 2500, 3000, 4000, 5000, 6000, 7000, 8000, 8500, 9000, 9500, 10000];
    const custom = composeQuote(
      WS,
      { ...WS_TABLE, shortRateTable: own },
      {
        ...inputs,
        periodStart: '2026-12-01',
        periodEnd: '2026-12-31',
      },
    );
    expect(custom.period?.text).toBe('短期费率 1 个月 15%');
    const daily = composeQuote(
      WS,
      { ...WS_TABLE, shortPeriodRule: 'PRO_RATA_DAILY' },
      {
        ...inputs,
        periodStart: '2026-12-01',
        periodEnd: '2026-12-31',
      },
    );
    expect(daily.period?.text).toBe('按日比例 31/365 天');
    const annual = daily.period!.annualPremiumFen;
    expect(daily.premium.premiumFen).toBe(Math.floor((annual * 31 * 2 + 365) / (2 * 365)));
  });

  it('scales the minimum premium with the period (the minimum is annual)', () => {
    const MIN = { ...CONSTRUCTION, minPremiumFen: yuan(200) };
    const q = composeQuote(MIN, CONSTRUCTION_TABLE, {
      projectCostFen: yuan(100_000),
      periodStart: '2026-12-01',
      periodEnd: '2027-02-15',
    });
    expect(q.premium.premiumFen).toBe(yuan(60));
    expect(q.period?.text).toBe('短期费率 3 个月 30%');
    expect(q.premium.lines.slice(-2).map((l) => [l.key, l.premiumFen])).toEqual([
      ['MIN_PREMIUM', yuan(135)],
      ['SHORT_PERIOD', -yuan(140)],
    ]);
  });

  it.each([
    [{ periodEnd: '2026-12-31' }, 'periodStart', '保险起期：不能为空'],
    [{ periodStart: '2026-12-01', periodEnd: '2026-11-30' }, 'periodEnd', '保险止期：不能早于保险起期'],
    [{ periodStart: '2026-12-01', periodEnd: '2027-12-01' }, 'periodEnd', '保险止期：保险期间不能超过一年'],
  ])('refuses a bad period %o', (period, field, message) => {
    let thrown: unknown;
    try {
      composeQuote(WS, WS_TABLE, { ...inputs, ...period });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(RatingError);
    expect(thrown).toMatchObject({ field, message });
  });

  it('property: every period costs its factor of the annual premium, never more, lines adding up', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 0, max: 364 }),
        fc.integer({ min: 0, max: 400 }),
        fc.constantFrom('SHORT_RATE_TABLE', 'PRO_RATA_DAILY') as fc.Arbitrary<
          'SHORT_RATE_TABLE' | 'PRO_RATA_DAILY'
        >,
        (headcount, length, offset, rule) => {
          const start = new Date(Date.UTC(2026, 0, 1 + offset)).toISOString().slice(0, 10);
          const end = new Date(Date.UTC(2026, 0, 1 + offset + length)).toISOString().slice(0, 10);
          const table = { ...WS_TABLE, shortPeriodRule: rule };
          const q = composeQuote(WS, table, {
            headcount,
            industrySection: 'C',
            periodStart: start,
            periodEnd: end,
          });
          const annual = q.period!.annualPremiumFen;
          const { numerator: n, denominator: d } = q.period!;
          expect(Number.isInteger(q.premium.premiumFen)).toBe(true);
          expect(q.premium.premiumFen).toBeLessThanOrEqual(annual);
          // Rounded once, half up: within half a fen of the exact share.
          expect(Math.abs(q.premium.premiumFen * d - annual * n) * 2).toBeLessThanOrEqual(d);
          expect(q.premium.lines.reduce((a, l) => a + l.premiumFen, 0)).toBe(q.premium.premiumFen);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('composeQuote: a RatingError naming the field for every bad input', () => {
  it.each(errors)('%s', (_, product, table, inputs, field, message) => {
    let thrown: unknown;
    try {
      composeQuote(product, table, inputs);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(RatingError);
    expect(thrown).toMatchObject({ field, message });
  });
});

describe('types', () => {
  it('takes a product row or what GET /api/products/available answers as it is', () => {
    expectTypeOf<ProductRow>().toExtend<QuoteProduct>();
    expectTypeOf<AvailableProduct>().toExtend<QuoteProduct>();
    expectTypeOf<NonNullable<AvailableProduct['rating']>>().toExtend<QuoteTable>();
  });
});
