// Composing a quote: which rows of a rate table, which coverages, which factors a product's quote takes, and
// the resolved inputs it records. Pure, shared by the server (POST /api/products/:id/quote, re-rating an
// application) and the application wizard, which prices live on what GET /api/products/available answers
// (the product with its coverages and prevention-ratio range; `rating` with the active table's rows). The
// server stays authoritative: it loads the product and table, merges the customer's defaults, and stores the
// quote. Import it as `@piibs/shared/quote`. No zod here (see rating.ts).
//
// Every bad input throws RatingError, its Chinese message starting with the field's label (the server answers
// it as a 400 with that message).
import { defaultEnd } from './application-status.ts';
import { sectionOfDivision } from './industry.ts';
import { amountShortText, formatFen, microPercentText } from './money.ts';
import {
  COVERAGE_LABELS,
  type CoverageType,
  chooseFactors,
  costBandsOf,
  type ExtraCoverage,
  type FactorDef,
  LIMIT_LABELS,
  limitTiersOf,
  PER_PERSON_COVERAGES,
  type PremiumQuote,
  type ProductClass,
  pickRate,
  preventionFee,
  quoteConstruction,
  quoteGuarantee,
  quoteWorkSafety,
  type RateRow,
  RatingError,
  ratedLimitOf,
} from './rating.ts';
import {
  basisPointsText,
  type PeriodFactor,
  periodFactor,
  periodPremium,
  type ShortPeriodRule,
  STANDARD_SHORT_RATE_TABLE,
} from './short-period.ts';

/** A coverage of a product, as far as pricing goes. */
export interface QuoteCoverage {
  type: CoverageType;
  name: string;
  mandatory: boolean;
  perPersonLimitFen: number | null;
  perAccidentLimitFen: number | null;
  aggregateLimitFen: number | null;
}

/** What pricing needs of a product (a ProductRow or an AvailableProduct fits). */
export interface QuoteProduct {
  productClass: ProductClass;
  /** Micro-percent; the default ratio is the minimum. */
  preventionRatioMin: number;
  preventionRatioMax: number;
  coverages: readonly QuoteCoverage[];
  /** A premium below it is raised to it (0 or absent: no minimum). */
  minPremiumFen?: number | undefined;
  /** Construction: a project costing less is refused (null or absent: no minimum). */
  minProjectCostFen?: number | null | undefined;
}

/** What pricing needs of a rate-table version (an AvailableProduct's `rating` fits). */
export interface QuoteTable {
  /** Named in the "no rate" message. */
  versionNo: number;
  factors: readonly FactorDef[];
  /** Construction: the high-risk loading (× 10⁴); null: ×1.3. */
  highRiskLoading?: number | null | undefined;
  rows: readonly RateRow[];
  /** How a period shorter than a year is priced; absent or null: the standard short-rate table. */
  shortPeriodRule?: ShortPeriodRule | null | undefined;
  /** The version's short-rate table (basis points, 1 … 12 months); absent or null: the standard table. */
  shortRateTable?: readonly number[] | null | undefined;
}

/**
 * The inputs of a quote (a quote form), the customer's defaults (industry, headcount) already merged in by the
 * caller. null counts as not given. Which fields count depends on the product class:
 * - work_safety: headcount, perPersonLimitFen (default: the death/disability coverage's limit), industry,
 *   optional coverages to add (the mandatory ones are always priced);
 * - construction: projectCostFen, highRisk;
 * - guarantee: guaranteeAmountFen (industry picks the rate when the table has industry rows).
 * `industrySection` defaults to the section of `industryDivision`.
 */
export interface QuoteInputs {
  industrySection?: string | null | undefined;
  industryDivision?: string | null | undefined;
  headcount?: number | null | undefined;
  perPersonLimitFen?: number | null | undefined;
  coverages?: readonly CoverageType[] | null | undefined;
  projectCostFen?: number | null | undefined;
  highRisk?: boolean | null | undefined;
  guaranteeAmountFen?: number | null | undefined;
  /** An option per floating factor (`{ ACCIDENT_HISTORY: 'ONE' }`); missing: the default. */
  factors?: Readonly<Record<string, string>> | null | undefined;
  /** Micro-percent, within the product's range; default its minimum. */
  preventionRatio?: number | null | undefined;
  /** The period, 'yyyy-mm-dd' (Asia/Shanghai days, both ends covered); absent: a whole year. */
  periodStart?: string | null | undefined;
  /** Absent with a start: a whole year from it. */
  periodEnd?: string | null | undefined;
}

/** Every input the premium depends on, resolved (defaults filled in): the quote's `input`. */
export interface ResolvedInput {
  industrySection: string | null;
  industryDivision: string | null;
  headcount: number | null;
  perPersonLimitFen: number | null;
  /** Every coverage priced (work safety: death/disability, the mandatory and the chosen ones). */
  coverages: CoverageType[];
  projectCostFen: number | null;
  highRisk: boolean;
  guaranteeAmountFen: number | null;
  /** The option taken per factor. */
  factors: Record<string, string>;
  preventionRatio: number;
  /** The period priced (null: a whole year, no dates given). */
  periodStart: string | null;
  periodEnd: string | null;
}

/** The period of a quote: the share of the annual premium it costs. */
export interface QuotePeriod extends PeriodFactor {
  start: string;
  end: string;
  /** The premium of a whole year for the same risk (fen), the minimum premium applied. */
  annualPremiumFen: number;
}

export interface ComposedQuote {
  input: ResolvedInput;
  premium: PremiumQuote;
  /** Micro-percent. */
  preventionRatio: number;
  /** premium × ratio, rounded half-up to the fen. */
  preventionFeeFen: number;
  /** The period priced and its factor; null: no dates given (a whole year). */
  period: QuotePeriod | null;
}

/** The line a period shorter than a year carries: the part of the annual premium it does not cost (negative). */
export const SHORT_PERIOD_LINE = 'SHORT_PERIOD';

/**
 * The premium of a period shorter than a year: the annual premium (every rate, factor and the minimum premium
 * applied) times the period's factor, rounded once, half up, to the fen (`periodPremium`). The difference is a
 * line of its own (短期费率 1 个月 10%：年保费 ¥…), so the lines still add up to the premium.
 */
export function withPeriod(premium: PremiumQuote, factor: PeriodFactor): PremiumQuote {
  if (factor.fullYear) return premium;
  const periodFen = periodPremium(premium.premiumFen, factor);
  return {
    ...premium,
    premiumFen: periodFen,
    lines: [
      ...premium.lines,
      {
        key: SHORT_PERIOD_LINE,
        label: `${factor.text}（年保费 ${formatFen(premium.premiumFen)}）`,
        coverageType: null,
        baseFen: 0,
        rate: 0,
        basePremiumFen: 0,
        premiumFen: periodFen - premium.premiumFen,
      },
    ],
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The period of the inputs and its factor, or null when no start is given. Throws RatingError. */
export function quotePeriodFactor(
  table: QuoteTable,
  inputs: QuoteInputs,
): (PeriodFactor & { start: string; end: string }) | null {
  const start = inputs.periodStart || null;
  if (!start) {
    if (inputs.periodEnd) throw new RatingError('periodStart', '不能为空', '保险起期');
    return null;
  }
  if (!DATE.test(start)) throw new RatingError('periodStart', '请输入正确的日期', '保险起期');
  const end = inputs.periodEnd || defaultEnd(start);
  if (!DATE.test(end)) throw new RatingError('periodEnd', '请输入正确的日期', '保险止期');
  if (end < start) throw new RatingError('periodEnd', '不能早于保险起期', '保险止期');
  if (end > defaultEnd(start)) throw new RatingError('periodEnd', '保险期间不能超过一年', '保险止期');
  const table12 = table.shortRateTable?.length === 12 ? table.shortRateTable : STANDARD_SHORT_RATE_TABLE;
  return { ...periodFactor(table.shortPeriodRule ?? 'SHORT_RATE_TABLE', start, end, table12), start, end };
}

/** A short-rate table in words: 1 个月 10%、2 个月 20% …. */
export const shortRateTableText = (table: readonly number[]): string =>
  table.map((bp, i) => `${i + 1} 个月 ${basisPointsText(bp)}`).join('、');

/** The input a premium of 0 points at, by product class. */
const MAIN_INPUT: Readonly<Record<ProductClass, [field: string, label: string]>> = {
  work_safety: ['headcount', '参保人数'],
  construction: ['projectCostFen', '工程造价'],
  guarantee: ['guaranteeAmountFen', '保证金额'],
};

/** The line a premium raised to the product's minimum carries, for the difference. */
export const MIN_PREMIUM_LINE = 'MIN_PREMIUM';

/**
 * A premium below the product's minimum is raised to it: the difference is a line of its own (最低保费补足), so
 * the lines still add up to the premium and the breakdown says why it is more than the rates give.
 */
export function withMinimumPremium(premium: PremiumQuote, minPremiumFen: number): PremiumQuote {
  if (premium.premiumFen >= minPremiumFen) return premium;
  return {
    ...premium,
    premiumFen: minPremiumFen,
    lines: [
      ...premium.lines,
      {
        key: MIN_PREMIUM_LINE,
        label: `最低保费补足（按费率计算 ${formatFen(premium.premiumFen)}，本险种最低保费 ${formatFen(minPremiumFen)}）`,
        coverageType: null,
        baseFen: 0,
        rate: 0,
        basePremiumFen: 0,
        premiumFen: minPremiumFen - premium.premiumFen,
      },
    ],
  };
}

const given = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/**
 * Prices `inputs` on a product and one of its rate-table versions. Throws RatingError (Chinese, starting with
 * the field's label) for every bad or missing input and for a rate the table does not have.
 */
export function composeQuote(product: QuoteProduct, table: QuoteTable, inputs: QuoteInputs): ComposedQuote {
  const industryDivision = inputs.industryDivision || null;
  const industrySection =
    inputs.industrySection || (industryDivision ? sectionOfDivision(industryDivision) : null) || null;

  const ratio = inputs.preventionRatio ?? product.preventionRatioMin;
  if (ratio < product.preventionRatioMin || ratio > product.preventionRatioMax)
    throw new RatingError(
      'preventionRatio',
      `须在 ${microPercentText(product.preventionRatioMin)}%–${microPercentText(product.preventionRatioMax)}% 之间`,
      '事故预防费用比例',
    );

  const factors = chooseFactors(table.factors, inputs.factors ?? {});
  const input: ResolvedInput = {
    industrySection,
    industryDivision,
    headcount: null,
    perPersonLimitFen: null,
    coverages: [],
    projectCostFen: null,
    highRisk: false,
    guaranteeAmountFen: null,
    factors: Object.fromEntries(factors.map((f) => [f.code, f.option ?? ''])),
    preventionRatio: ratio,
    periodStart: null,
    periodEnd: null,
  };
  const period = quotePeriodFactor(table, inputs);
  const { rows } = table;
  const rateOf = (coverageType: CoverageType | null, limitTierFen?: number) => {
    const row = pickRate(rows, { coverageType, industrySection, industryDivision, limitTierFen });
    if (!row) {
      const what = coverageType ? `「${COVERAGE_LABELS[coverageType]}」` : '整单';
      throw new RatingError(
        'rateTable',
        `费率表（第 ${table.versionNo} 版）没有${what}在该行业${limitTierFen ? '、限额' : ''}下的费率`,
      );
    }
    return row.rate;
  };

  let premium: PremiumQuote;
  if (product.productClass === 'work_safety') {
    const headcount = inputs.headcount;
    if (!given(headcount)) throw new RatingError('headcount', '不能为空', '参保人数');
    const death = product.coverages.find((c) => c.type === 'EMPLOYEE_DEATH_DISABILITY');
    const limit = inputs.perPersonLimitFen ?? death?.perPersonLimitFen;
    if (!given(limit)) throw new RatingError('perPersonLimitFen', '不能为空', '每人伤亡限额');
    const tiers = limitTiersOf(rows);
    const anyLimit = rows.some(
      (r) => r.coverageType === 'EMPLOYEE_DEATH_DISABILITY' && r.limitTierFen === null,
    );
    if (tiers.length && !anyLimit && !tiers.includes(limit))
      throw new RatingError(
        'perPersonLimitFen',
        `请选择 ${tiers.map(amountShortText).join('、')}`,
        '每人伤亡限额',
      );
    const industrySpecific = rows.some((r) => r.coverageType === 'EMPLOYEE_DEATH_DISABILITY' && r.industry);
    if (industrySpecific && !industrySection)
      throw new RatingError('industrySection', '不能为空', '行业门类');

    const chosen = new Set<CoverageType>(inputs.coverages ?? []);
    for (const type of chosen) {
      if (!product.coverages.some((c) => c.type === type))
        throw new RatingError('coverages', `该险种没有「${COVERAGE_LABELS[type]}」`, '附加责任');
    }
    const included = product.coverages.filter(
      (c) => c.type !== 'EMPLOYEE_DEATH_DISABILITY' && (c.mandatory || chosen.has(c.type)),
    );
    const extras: ExtraCoverage[] = included.map((c) => {
      if (PER_PERSON_COVERAGES.includes(c.type))
        return { type: c.type, label: c.name, perPersonLimitFen: c.perPersonLimitFen, rate: rateOf(c.type) };
      const limit = ratedLimitOf(c);
      return {
        type: c.type,
        label: c.name,
        limitFen: limit?.fen ?? null,
        ...(limit ? { limitLabel: LIMIT_LABELS[limit.field] } : {}),
        rate: rateOf(c.type),
      };
    });
    premium = quoteWorkSafety({
      headcount,
      perPersonLimitFen: limit,
      rate: rateOf('EMPLOYEE_DEATH_DISABILITY', limit),
      factors,
      coverages: extras,
    });
    input.headcount = headcount;
    input.perPersonLimitFen = limit;
    input.coverages = ['EMPLOYEE_DEATH_DISABILITY', ...included.map((c) => c.type)];
  } else if (product.productClass === 'construction') {
    const cost = inputs.projectCostFen;
    if (!given(cost)) throw new RatingError('projectCostFen', '不能为空', '工程造价');
    const highRisk = inputs.highRisk ?? false;
    const least = product.minProjectCostFen;
    if (given(least) && cost < least)
      throw new RatingError(
        'projectCostFen',
        `不能低于本险种最低工程造价 ${amountShortText(least)}`,
        '工程造价',
      );
    premium = quoteConstruction({
      projectCostFen: cost,
      bands: costBandsOf(rows),
      highRisk,
      highRiskLoading: table.highRiskLoading ?? null,
      factors,
    });
    input.projectCostFen = cost;
    input.highRisk = highRisk;
    input.coverages = product.coverages.map((c) => c.type);
  } else {
    const amount = inputs.guaranteeAmountFen;
    if (!given(amount)) throw new RatingError('guaranteeAmountFen', '不能为空', '保证金额');
    const cover = product.coverages.find((c) => c.type === 'PERFORMANCE_GUARANTEE');
    const cap = cover ? (cover.aggregateLimitFen ?? cover.perAccidentLimitFen) : null;
    if (cap != null && amount > cap)
      throw new RatingError('guaranteeAmountFen', `不能超过 ${amountShortText(cap)}`, '保证金额');
    premium = quoteGuarantee({ amountFen: amount, rate: rateOf(null), factors });
    input.guaranteeAmountFen = amount;
    input.coverages = product.coverages.map((c) => c.type);
  }

  if (premium.premiumFen === 0) {
    const [field, label] = MAIN_INPUT[product.productClass];
    throw new RatingError(field, '按此金额计算的保费为 0，请检查', label);
  }
  premium = withMinimumPremium(premium, product.minPremiumFen ?? 0);
  const annualPremiumFen = premium.premiumFen;
  if (period) {
    premium = withPeriod(premium, period);
    input.periodStart = period.start;
    input.periodEnd = period.end;
  }

  return {
    input,
    premium,
    preventionRatio: ratio,
    // The prevention fee follows the premium: the ratio of the period's premium.
    preventionFeeFen: preventionFee(premium.premiumFen, ratio),
    period: period ? { ...period, annualPremiumFen } : null,
  };
}
