// Premium rating: pure integer arithmetic shared by the server (quotes, re-rating on submit) and the
// application wizard. Import it as `@piibs/shared/rating`. No zod here, so the wizard can price as the user
// types without loading the schemas.
//
// Units (see money.ts): money in fen; rates in 10⁻⁷ of their base (per-mille × 10⁴: 0.65‰ → 6_500);
// multipliers × 10⁴ (×1.3 → 13_000); ratios in micro-percent (21% → 21_000_000).
//
// Premium = Σ over lines (base × rate) × Π factor multipliers [DOMAIN: "rounded once, to the fen, at the end"].
// The sum is kept as an exact fraction (BigInt numerator over 10⁷ × 10⁴ⁿ) and rounded ONCE, half-up (a half
// fen or more goes up; premiums are never negative, so this is also half-away-from-zero). The amounts shown in
// between are for display only: the per-line amounts share out the final premium by largest remainder (so
// they add up to it exactly), and each factor step shows the premium rounded before and after that factor.
import { amountShortText, HUNDRED_PERCENT, MULTIPLIER_SCALE, RATE_SCALE, rateText, yuan } from './money.ts';
import { type FieldProblem, problemText } from './problem.ts';

// ---- products and coverages ----

export const PRODUCT_CLASSES = ['work_safety', 'construction', 'guarantee'] as const;
export type ProductClass = (typeof PRODUCT_CLASSES)[number];
export const PRODUCT_CLASS_LABELS: Readonly<Record<ProductClass, string>> = Object.freeze({
  work_safety: '安全生产责任保险',
  construction: '建筑施工安全生产责任保险',
  guarantee: '保证保险',
});
/** The classes that are work-safety liability insurance (安责险), to which the 2025 national rules apply. */
export const SAFETY_LIABILITY_CLASSES: readonly ProductClass[] = Object.freeze([
  'work_safety',
  'construction',
]);

export const COVERAGE_TYPES = [
  'EMPLOYEE_DEATH_DISABILITY',
  'EMPLOYEE_MEDICAL',
  'THIRD_PARTY_INJURY',
  'THIRD_PARTY_PROPERTY',
  'RESCUE',
  'APPRAISAL',
  'LEGAL_COSTS',
  'PERFORMANCE_GUARANTEE',
] as const;
export type CoverageType = (typeof COVERAGE_TYPES)[number];
export const COVERAGE_LABELS: Readonly<Record<CoverageType, string>> = Object.freeze({
  EMPLOYEE_DEATH_DISABILITY: '从业人员伤亡（死亡/伤残）',
  EMPLOYEE_MEDICAL: '从业人员医疗费用',
  THIRD_PARTY_INJURY: '第三者人身伤亡',
  THIRD_PARTY_PROPERTY: '第三者财产损失',
  RESCUE: '事故应急救援费用',
  APPRAISAL: '事故鉴定费用',
  LEGAL_COSTS: '法律诉讼费用',
  PERFORMANCE_GUARANTEE: '履约保证责任',
});
/** Coverages rated per head (base = headcount × per-person limit); the others are rated on their limit. */
export const PER_PERSON_COVERAGES: readonly CoverageType[] = Object.freeze([
  'EMPLOYEE_DEATH_DISABILITY',
  'EMPLOYEE_MEDICAL',
]);

/** The limits a coverage may have, in the order a policy prints them. */
export const LIMIT_FIELDS = ['perPersonLimitFen', 'perAccidentLimitFen', 'aggregateLimitFen'] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];
export const LIMIT_LABELS: Readonly<Record<LimitField, string>> = Object.freeze({
  perPersonLimitFen: '每人限额',
  perAccidentLimitFen: '每次事故限额',
  aggregateLimitFen: '累计限额',
});
export const DEDUCTIBLE_LABEL = '免赔额';

/** A coverage's limits (each null when it has none of that kind). */
export type CoverageLimits = Readonly<Record<LimitField, number | null>>;

/**
 * The limit a coverage is rated on: per-head coverages (PER_PERSON_COVERAGES) their per-person limit, the others
 * their aggregate limit, else their per-accident limit, else their per-person limit. Null when it has none.
 */
export function ratedLimitOf(
  c: CoverageLimits & { type: CoverageType },
): { field: LimitField; fen: number } | null {
  const order: readonly LimitField[] = PER_PERSON_COVERAGES.includes(c.type)
    ? ['perPersonLimitFen']
    : ['aggregateLimitFen', 'perAccidentLimitFen', 'perPersonLimitFen'];
  for (const field of order) {
    const fen = c[field];
    if (fen != null) return { field, fen };
  }
  return null;
}

/** Every limit of a coverage, labelled: 每次事故限额 50万元，累计限额 100万元 ('' when it has none). */
export function coverageLimitsText(c: CoverageLimits): string {
  return LIMIT_FIELDS.flatMap((f) => {
    const fen = c[f];
    return fen == null ? [] : [`${LIMIT_LABELS[f]} ${amountShortText(fen)}`];
  }).join('，');
}

// ---- rules ([rule] 应急〔2025〕27号) ----

/** Death/disability limit of a work-safety policy: at least 400,000 yuan per person. */
export const MIN_DEATH_DISABILITY_LIMIT_FEN = yuan(400_000);
/** Accident-prevention spending: at most 21% of the premium. */
export const MAX_PREVENTION_RATIO = 21_000_000;
/** Agent commission: at most 5%. */
export const MAX_COMMISSION_RATE = 5_000_000;

// ---- limits of the inputs (far beyond any real case, well inside exact integer arithmetic) ----

export const MAX_HEADCOUNT = 999_999;
/** 10 million yuan per person. */
export const MAX_PER_PERSON_LIMIT_FEN = yuan(10_000_000);
/** 1 trillion yuan. */
export const MAX_AMOUNT_FEN = yuan(1_000_000_000_000);
/** A multiplier between ×0.1 and ×3. */
export const MIN_MULTIPLIER = 1_000;
export const MAX_MULTIPLIER = 30_000;
/** High-risk construction (深基坑、高大模板、起重吊装等危大工程) loading when the rate table sets none: ×1.3. */
export const DEFAULT_HIGH_RISK_LOADING = 13_000;

/** A bad rating input, at its field: `message` is the Chinese notice ("label：what is wrong"). */
export class RatingError extends Error {
  readonly problem: FieldProblem;
  constructor(field: string, message: string, label?: string) {
    const problem = { field, message, ...(label ? { label } : {}) };
    super(problemText(problem));
    this.problem = problem;
  }

  get field(): string {
    return this.problem.field;
  }
}

// ---- floating factors ----

export interface FactorOption {
  value: string;
  label: string;
  /** × 10⁴. */
  multiplier: number;
}

/** A floating factor of a rate table: a bounded multiplier chosen by option. */
export interface FactorDef {
  code: string;
  label: string;
  /** Bounds of every option's multiplier, × 10⁴. */
  min: number;
  max: number;
  /** The option taken when the quote names none. */
  defaultOption: string;
  options: FactorOption[];
}

/** The direction a well-known factor may move the premium: safety awards only down, the blacklist only up. */
export const FACTOR_DIRECTIONS: Readonly<Record<string, 'down' | 'up'>> = Object.freeze({
  SAFETY_AWARD: 'down',
  CREDIT_BLACKLIST: 'up',
});

/** The first problem of a factor definition (Chinese), or null. */
export function factorDefProblem(def: FactorDef): string | null {
  const name = `浮动因子「${def.label}」`;
  const bounded = (m: number) => Number.isInteger(m) && m >= MIN_MULTIPLIER && m <= MAX_MULTIPLIER;
  if (!bounded(def.min) || !bounded(def.max) || def.min > def.max)
    return `${name}的系数范围须在 0.1–3 之间且下限不大于上限`;
  const direction = FACTOR_DIRECTIONS[def.code];
  if (direction === 'down' && def.max > MULTIPLIER_SCALE) return `${name}只能下浮（系数上限不得大于 1）`;
  if (direction === 'up' && def.min < MULTIPLIER_SCALE) return `${name}只能上浮（系数下限不得小于 1）`;
  if (def.options.length === 0) return `${name}至少需要一个选项`;
  const seen = new Set<string>();
  for (const o of def.options) {
    if (seen.has(o.value)) return `${name}的选项 ${o.value} 重复`;
    seen.add(o.value);
    if (!Number.isInteger(o.multiplier) || o.multiplier < def.min || o.multiplier > def.max)
      return `${name}的选项「${o.label}」系数超出范围`;
  }
  if (!seen.has(def.defaultOption)) return `${name}的默认选项不存在`;
  return null;
}

export interface AppliedFactor {
  code: string;
  label: string;
  option: string | null;
  optionLabel: string | null;
  /** × 10⁴. */
  multiplier: number;
}

/** The factors of a quote: each definition's chosen option (or its default). Unknown codes or options throw. */
export function chooseFactors(
  defs: readonly FactorDef[],
  chosen: Record<string, string> = {},
): AppliedFactor[] {
  for (const code of Object.keys(chosen)) {
    if (!defs.some((d) => d.code === code))
      throw new RatingError('factors', `费率表中没有 ${code}`, '浮动因子');
  }
  return defs.map((d) => {
    const value = chosen[d.code] ?? d.defaultOption;
    const option = d.options.find((o) => o.value === value);
    if (!option) throw new RatingError('factors', `「${d.label}」没有选项 ${value}`, '浮动因子');
    return {
      code: d.code,
      label: d.label,
      option: option.value,
      optionLabel: option.label,
      multiplier: option.multiplier,
    };
  });
}

// ---- rate rows ----

/** A row of a rate table: the rate for a coverage, by industry and limit tier, or a construction cost band. */
export interface RateRow {
  /** null: the whole contract (construction cost bands, guarantee). */
  coverageType: CoverageType | null;
  /** GB/T 4754 section letter or two-digit division; null: any industry. */
  industry: string | null;
  /** The per-person limit this rate is for; null: any limit. */
  limitTierFen: number | null;
  /** Upper bound (inclusive) of a construction cost band; null on every other row and on the top band. */
  costBandUpToFen: number | null;
  rate: number;
}

export interface RateQuery {
  coverageType: CoverageType | null;
  industrySection?: string | null | undefined;
  industryDivision?: string | null | undefined;
  limitTierFen?: number | null | undefined;
}

/**
 * The most specific row for a coverage: an exact division beats its section, which beats "any industry";
 * then an exact limit tier beats "any limit". Undefined when no row applies.
 */
export function pickRate<R extends RateRow>(rows: readonly R[], q: RateQuery): R | undefined {
  let best: R | undefined;
  let bestScore = -1;
  for (const r of rows) {
    if (r.coverageType !== q.coverageType || r.costBandUpToFen !== null) continue;
    let industry: number;
    if (r.industry === null) industry = 0;
    else if (q.industryDivision && r.industry === q.industryDivision) industry = 2;
    else if (q.industrySection && r.industry === q.industrySection) industry = 1;
    else continue;
    let tier: number;
    if (r.limitTierFen === null) tier = 0;
    else if (q.limitTierFen != null && r.limitTierFen === q.limitTierFen) tier = 1;
    else continue;
    const score = industry * 2 + tier;
    if (score > bestScore) {
      best = r;
      bestScore = score;
    }
  }
  return best;
}

/** The per-person limits a table prices for a coverage, ascending (empty: any limit). */
export function limitTiersOf(
  rows: readonly RateRow[],
  coverageType: CoverageType = 'EMPLOYEE_DEATH_DISABILITY',
): number[] {
  const tiers = new Set<number>();
  for (const r of rows)
    if (r.coverageType === coverageType && r.limitTierFen !== null) tiers.add(r.limitTierFen);
  return [...tiers].sort((a, b) => a - b);
}

export interface CostBand {
  /** Inclusive upper bound; null on the top band. */
  upToFen: number | null;
  rate: number;
}

/** The cost bands of a construction table (its whole-contract rows), ascending, the open top band last. */
export function costBandsOf(rows: readonly RateRow[]): CostBand[] {
  return rows
    .filter((r) => r.coverageType === null)
    .map((r) => ({ upToFen: r.costBandUpToFen, rate: r.rate }))
    .sort((a, b) => (a.upToFen ?? Number.POSITIVE_INFINITY) - (b.upToFen ?? Number.POSITIVE_INFINITY));
}

/** The first problem of a set of cost bands (Chinese), or null. */
export function costBandsProblem(bands: readonly CostBand[]): string | null {
  if (bands.length === 0) return '造价分档：至少需要一个档次';
  let previous = 0;
  for (const [i, b] of bands.entries()) {
    if (b.upToFen === null) {
      if (i !== bands.length - 1) return '造价分档：只有最高一档可以不设上限';
      continue;
    }
    if (b.upToFen <= previous) return '造价分档：各档上限须从低到高递增';
    previous = b.upToFen;
  }
  return null;
}

// ---- exact arithmetic ----

function roundHalfUp(num: bigint, den: bigint): bigint {
  return (2n * num + den) / (2n * den);
}

function toSafe(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RatingError('premium', '超出可计算的范围', '保费');
  return Number(value);
}

/** `num / 10^digits` as a plain decimal without trailing zeros. */
function decimalText(num: bigint, digits: number): string {
  if (digits === 0) return num.toString();
  const scale = 10n ** BigInt(digits);
  const frac = (num % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  return `${num / scale}${frac ? `.${frac}` : ''}`;
}

function checkAmount(field: string, label: string, value: number, min = 0, max = MAX_AMOUNT_FEN): void {
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new RatingError(field, `须为 ${min}–${max} 之间的整数（分）`, label);
}

// ---- quotes ----

/** A priced line: a coverage (or a cost band slice) with the amount its rate applies to. */
export interface RateLine {
  /** Stable key: the coverage type, or `band:<i>` for a cost band slice. */
  key: string;
  label: string;
  coverageType: CoverageType | null;
  /** The amount the rate applies to, fen. */
  baseFen: number;
  rate: number;
}

export interface QuoteLine extends RateLine {
  /** base × rate before the factors, rounded half-up (display). */
  basePremiumFen: number;
  /** This line's share of the premium (the shares add up to premiumFen exactly). */
  premiumFen: number;
}

export interface QuoteFactor extends AppliedFactor {
  /** The premium before and after this factor, each rounded half-up (display). */
  beforeFen: number;
  afterFen: number;
  deltaFen: number;
}

export interface PremiumQuote {
  /** The premium, fen: rounded once, half-up. */
  premiumFen: number;
  /** Σ base × rate before any factor, rounded half-up (display). */
  basePremiumFen: number;
  /** Π multipliers as an exact decimal ('1.08'). */
  combinedMultiplier: string;
  lines: QuoteLine[];
  factors: QuoteFactor[];
}

/**
 * Applies the factors to the priced lines and rounds once: premium = round½↑(Σ base × rate × Π m). Every
 * input must be a non-negative safe integer; rates at most 100%, multipliers within ×0.1–×3.
 */
export function applyFactors(
  lines: readonly RateLine[],
  factors: readonly AppliedFactor[] = [],
): PremiumQuote {
  for (const l of lines) {
    checkAmount('baseFen', l.label, l.baseFen, 0, Number.MAX_SAFE_INTEGER);
    if (!Number.isInteger(l.rate) || l.rate < 0 || l.rate > RATE_SCALE)
      throw new RatingError('rate', '费率须在 0–100% 之间', l.label);
  }
  for (const f of factors) {
    if (!Number.isInteger(f.multiplier) || f.multiplier < MIN_MULTIPLIER || f.multiplier > MAX_MULTIPLIER)
      throw new RatingError('factors', `「${f.label}」系数须在 0.1–3 之间`, '浮动因子');
  }
  const factorScale = BigInt(MULTIPLIER_SCALE) ** BigInt(factors.length);
  const multiplier = factors.reduce((m, f) => m * BigInt(f.multiplier), 1n);
  const den = BigInt(RATE_SCALE) * factorScale;
  const raw = lines.map((l) => BigInt(l.baseFen) * BigInt(l.rate));
  const rawSum = raw.reduce((a, b) => a + b, 0n);
  const premium = roundHalfUp(rawSum * multiplier, den);

  // Largest remainder: floor every line, then hand the fen left over to the largest remainders.
  const nums = raw.map((r) => r * multiplier);
  const shares = nums.map((n) => n / den);
  let leftover = premium - shares.reduce((a, b) => a + b, 0n);
  const order = nums
    .map((n, i) => ({ i, rem: n % den }))
    .sort((a, b) => (a.rem === b.rem ? a.i - b.i : a.rem > b.rem ? -1 : 1));
  for (const { i } of order) {
    if (leftover <= 0n) break;
    shares[i] = shares[i]! + 1n;
    leftover -= 1n;
  }

  const steps: QuoteFactor[] = [];
  let num = rawSum;
  let scale = BigInt(RATE_SCALE);
  for (const f of factors) {
    const before = roundHalfUp(num, scale);
    num *= BigInt(f.multiplier);
    scale *= BigInt(MULTIPLIER_SCALE);
    const after = roundHalfUp(num, scale);
    steps.push({
      ...f,
      beforeFen: toSafe(before),
      afterFen: toSafe(after),
      deltaFen: toSafe(after) - toSafe(before),
    });
  }

  return {
    premiumFen: toSafe(premium),
    basePremiumFen: toSafe(roundHalfUp(rawSum, BigInt(RATE_SCALE))),
    combinedMultiplier: decimalText(multiplier, 4 * factors.length),
    lines: lines.map((l, i) => ({
      ...l,
      basePremiumFen: toSafe(roundHalfUp(raw[i]!, BigInt(RATE_SCALE))),
      premiumFen: toSafe(shares[i]!),
    })),
    factors: steps,
  };
}

/** A further coverage priced with the death/disability coverage of a work-safety quote. */
export interface ExtraCoverage {
  type: CoverageType;
  label?: string;
  /** Per-head coverages (PER_PERSON_COVERAGES): the per-person limit; base = headcount × it. */
  perPersonLimitFen?: number | null;
  /** Other coverages: the limit the rate applies to (ratedLimitOf: aggregate, else per accident). */
  limitFen?: number | null;
  /** Which limit that is, named in the line (累计限额). */
  limitLabel?: string;
  rate: number;
}

export interface WorkSafetyInput {
  headcount: number;
  /** Death/disability limit per person (every employee is covered at the same sum insured). */
  perPersonLimitFen: number;
  /** Rate of the death/disability coverage: premium per head = limit × rate. */
  rate: number;
  factors?: readonly AppliedFactor[];
  coverages?: readonly ExtraCoverage[];
}

/** Work-safety liability rated per head: headcount × per-person limit × rate (+ further coverages) × factors. */
export function quoteWorkSafety(input: WorkSafetyInput): PremiumQuote {
  const { headcount, perPersonLimitFen } = input;
  if (!Number.isInteger(headcount) || headcount < 1 || headcount > MAX_HEADCOUNT)
    throw new RatingError('headcount', `须为 1–${MAX_HEADCOUNT} 之间的整数`, '参保人数');
  checkAmount('perPersonLimitFen', '每人伤亡限额', perPersonLimitFen, 0, MAX_PER_PERSON_LIMIT_FEN);
  if (perPersonLimitFen < MIN_DEATH_DISABILITY_LIMIT_FEN)
    throw new RatingError('perPersonLimitFen', '安责险每人死亡/伤残限额不得低于 40万元', '每人伤亡限额');
  const lines: RateLine[] = [
    {
      key: 'EMPLOYEE_DEATH_DISABILITY',
      label: `${COVERAGE_LABELS.EMPLOYEE_DEATH_DISABILITY} ${amountShortText(perPersonLimitFen)}/人 × ${headcount}人 × ${rateText(input.rate)}`,
      coverageType: 'EMPLOYEE_DEATH_DISABILITY',
      baseFen: headcount * perPersonLimitFen,
      rate: input.rate,
    },
  ];
  for (const c of input.coverages ?? []) {
    const name = c.label ?? COVERAGE_LABELS[c.type];
    if (PER_PERSON_COVERAGES.includes(c.type)) {
      const limit = c.perPersonLimitFen ?? 0;
      checkAmount('perPersonLimitFen', `${name}每人限额`, limit, 0, MAX_PER_PERSON_LIMIT_FEN);
      lines.push({
        key: c.type,
        label: `${name} ${amountShortText(limit)}/人 × ${headcount}人 × ${rateText(c.rate)}`,
        coverageType: c.type,
        baseFen: headcount * limit,
        rate: c.rate,
      });
    } else {
      const limit = c.limitFen ?? 0;
      checkAmount('limitFen', `${name}限额`, limit);
      lines.push({
        key: c.type,
        label: `${name} ${c.limitLabel ? `${c.limitLabel} ` : ''}${amountShortText(limit)} × ${rateText(c.rate)}`,
        coverageType: c.type,
        baseFen: limit,
        rate: c.rate,
      });
    }
  }
  return applyFactors(lines, input.factors ?? []);
}

export interface ConstructionInput {
  projectCostFen: number;
  bands: readonly CostBand[];
  highRisk: boolean;
  /** × 10⁴; DEFAULT_HIGH_RISK_LOADING when not given. */
  highRiskLoading?: number | null;
  factors?: readonly AppliedFactor[];
}

/**
 * Construction work-safety rated on the project cost by cost band (‰). Each slice of the cost is rated at its
 * own band's rate (like tax brackets), so the premium never drops when the cost crosses into a cheaper band.
 * A high-risk project is loaded by the table's multiplier, shown as the first factor.
 */
export function quoteConstruction(input: ConstructionInput): PremiumQuote {
  const cost = input.projectCostFen;
  checkAmount('projectCostFen', '工程造价', cost, 1);
  const problem = costBandsProblem(input.bands);
  if (problem) throw new RatingError('bands', problem);
  const top = input.bands[input.bands.length - 1]!;
  if (top.upToFen !== null && cost > top.upToFen)
    throw new RatingError(
      'projectCostFen',
      `超出费率表的最高档次（${amountShortText(top.upToFen)}）`,
      '工程造价',
    );
  const lines: RateLine[] = [];
  let lower = 0;
  for (const [i, band] of input.bands.entries()) {
    if (cost <= lower) break;
    const upper = band.upToFen === null ? cost : Math.min(cost, band.upToFen);
    const range =
      band.upToFen === null
        ? `${amountShortText(lower)}以上部分`
        : lower === 0
          ? `${amountShortText(band.upToFen)}及以下部分`
          : `${amountShortText(lower)}至${amountShortText(band.upToFen)}部分`;
    lines.push({
      key: `band:${i}`,
      label: `工程造价 ${range} × ${rateText(band.rate)}`,
      coverageType: null,
      baseFen: upper - lower,
      rate: band.rate,
    });
    if (band.upToFen === null) break;
    lower = band.upToFen;
  }
  const factors: AppliedFactor[] = input.highRisk
    ? [
        {
          code: 'HIGH_RISK',
          label: '高风险工程加成',
          option: 'YES',
          optionLabel: '是',
          multiplier: input.highRiskLoading ?? DEFAULT_HIGH_RISK_LOADING,
        },
      ]
    : [];
  return applyFactors(lines, [...factors, ...(input.factors ?? [])]);
}

export interface GuaranteeInput {
  /** The guaranteed amount (e.g. the performance bond required by the contract). */
  amountFen: number;
  rate: number;
  factors?: readonly AppliedFactor[];
}

/** Guarantee insurance: guaranteed amount × rate × factors. */
export function quoteGuarantee(input: GuaranteeInput): PremiumQuote {
  checkAmount('amountFen', '保证金额', input.amountFen, 1);
  return applyFactors(
    [
      {
        key: 'PERFORMANCE_GUARANTEE',
        label: `${COVERAGE_LABELS.PERFORMANCE_GUARANTEE} ${amountShortText(input.amountFen)} × ${rateText(input.rate)}`,
        coverageType: 'PERFORMANCE_GUARANTEE',
        baseFen: input.amountFen,
        rate: input.rate,
      },
    ],
    input.factors ?? [],
  );
}

/** The accident-prevention fee funded by a premium: premium × ratio, rounded half-up to the fen. */
export function preventionFee(premiumFen: number, ratio: number): number {
  if (!Number.isSafeInteger(premiumFen) || premiumFen < 0)
    throw new RangeError('premium must be a fen amount');
  if (!Number.isInteger(ratio) || ratio < 0 || ratio > MAX_PREVENTION_RATIO)
    throw new RatingError('preventionRatio', '须在 0–21% 之间', '事故预防费用比例');
  return Number(roundHalfUp(BigInt(premiumFen) * BigInt(ratio), BigInt(HUNDRED_PERCENT)));
}
