// Short periods, mid-term changes and cancellation: the premium of a period shorter than a year, the premium
// delta of an endorsement and the refund of a cancellation. Pure and integer: every amount is fen, every factor
// a ratio of integers, every product rounded once, half up (BigInt, so no amount is too large). Shared by the
// quote (server and wizard), the endorsement and cancellation services and their pages.
// Import it as `@piibs/shared/short-period`.
//
// Dates are Asia/Shanghai calendar days 'yyyy-mm-dd'; a period covers 00:00 of its start day to 24:00 of its
// end day, so a period's length in days counts both ends.
import { addDays, defaultEnd } from './application-status.ts';

/** How a product prices a period shorter than a year. */
export const SHORT_PERIOD_RULES = ['SHORT_RATE_TABLE', 'PRO_RATA_DAILY'] as const;
export type ShortPeriodRule = (typeof SHORT_PERIOD_RULES)[number];
export const SHORT_PERIOD_RULE_LABELS: Readonly<Record<ShortPeriodRule, string>> = Object.freeze({
  SHORT_RATE_TABLE: '短期费率表',
  PRO_RATA_DAILY: '按日比例',
});

/**
 * The standard short-rate table: the share of the annual premium, in basis points (1/10,000), for a period of
 * 1 … 12 months, a started month counting as a whole month.
 */
export const STANDARD_SHORT_RATE_TABLE: readonly number[] = Object.freeze([
  1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 8500, 9000, 9500, 10000,
]);

/** The problem of a short-rate table (12 shares in basis points, each 1–10000, never falling, the last 10000), or null. */
export function shortRateTableProblem(table: readonly number[]): string | null {
  if (table.length !== 12) return '短期费率表：须列明 1 至 12 个月共 12 档';
  for (const [i, bp] of table.entries()) {
    if (!Number.isInteger(bp) || bp < 1 || bp > 10000)
      return `短期费率表：第 ${i + 1} 个月须在 0.01% 至 100% 之间`;
    if (i > 0 && bp < (table[i - 1] as number)) return `短期费率表：第 ${i + 1} 个月不能低于第 ${i} 个月`;
  }
  if (table[11] !== 10000) return '短期费率表：12 个月须为 100%';
  return null;
}

const MS_PER_DAY = 86_400_000;
const utc = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
};

/** Days from `from` to `to` (to − from; negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((utc(to) - utc(from)) / MS_PER_DAY);

/** The days a period covers, both ends counted (2026-12-01 … 2026-12-31 → 31). */
export const periodDays = (start: string, end: string): number => daysBetween(start, end) + 1;

/** The days of the year that starts on `start` (365, or 366 when it holds a 29 February). */
export const yearDays = (start: string): number => periodDays(start, defaultEnd(start));

/**
 * The last day of `months` months from `start`: the day before the same day of the month `months` later, or the
 * last day of that month when it has no such day (2026-01-31 + 1 → 2026-02-28; 2026-03-01 + 12 → 2027-02-28;
 * 2028-02-29 + 12 → 2029-02-28: twelve months end where `defaultEnd` does).
 */
export function monthsEnd(start: string, months: number): string {
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  const lastOfTarget = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  const target = new Date(Date.UTC(y, m - 1 + months, Math.min(d, lastOfTarget))).toISOString().slice(0, 10);
  return d > lastOfTarget ? target : addDays(target, -1);
}

/** The months a period takes, a started month counting whole (2026-12-01 … 2026-12-31 → 1; … 2027-01-01 → 2). */
export function periodMonths(start: string, end: string): number {
  let months = Math.max(1, Math.floor(daysBetween(start, end) / 31));
  while (months > 1 && monthsEnd(start, months - 1) >= end) months--;
  while (monthsEnd(start, months) < end) months++;
  return months;
}

/** A share of the annual premium: numerator / denominator, with the words the quote shows. */
export interface PeriodFactor {
  rule: ShortPeriodRule;
  numerator: number;
  denominator: number;
  months: number;
  days: number;
  /** True when the period is a whole year (the factor is 1). */
  fullYear: boolean;
  /** 短期费率 1 个月 10% / 按日比例 31/365 天 / 一年期. */
  text: string;
}

/** A basis-point share as the quote shows it: 1000 → 10%, 8500 → 85%, 1234 → 12.34%. */
export function basisPointsText(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const rest = bp % 100;
  return rest === 0 ? `${whole}%` : `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}%`;
}

/**
 * The share of the annual premium a period costs. A whole year (or a period ending where a year from its start
 * ends) is 1. Shorter: the short-rate table's share of its months, or its days over the days of the year that
 * starts with it. Throws RangeError for an end before the start or a period longer than a year.
 */
export function periodFactor(
  rule: ShortPeriodRule,
  start: string,
  end: string,
  table: readonly number[] = STANDARD_SHORT_RATE_TABLE,
): PeriodFactor {
  if (end < start) throw new RangeError('保险止期不能早于保险起期');
  const fullEnd = defaultEnd(start);
  if (end > fullEnd) throw new RangeError('保险期间不能超过一年');
  const months = periodMonths(start, end);
  const days = periodDays(start, end);
  if (end === fullEnd)
    return { rule, numerator: 1, denominator: 1, months: 12, days, fullYear: true, text: '一年期' };
  if (rule === 'PRO_RATA_DAILY') {
    const year = yearDays(start);
    return {
      rule,
      numerator: days,
      denominator: year,
      months,
      days,
      fullYear: false,
      text: `按日比例 ${days}/${year} 天`,
    };
  }
  const bp = table[Math.min(months, 12) - 1] ?? 10000;
  return {
    rule,
    numerator: bp,
    denominator: 10000,
    months,
    days,
    fullYear: bp === 10000,
    text: `短期费率 ${months} 个月 ${basisPointsText(bp)}`,
  };
}

/** fen × numerator / denominator, rounded half up (half away from zero for negative amounts); exact for any size. */
export function scaleFen(fen: number, numerator: number, denominator: number): number {
  if (denominator <= 0) throw new RangeError('denominator must be positive');
  const p = BigInt(fen) * BigInt(numerator);
  const d = BigInt(denominator);
  const negative = p < 0n;
  const abs = negative ? -p : p;
  const q = (abs * 2n + d) / (2n * d);
  return Number(negative ? -q : q);
}

/** The premium of a period: the annual premium times the period's factor, to the fen. */
export const periodPremium = (
  annualFen: number,
  factor: Pick<PeriodFactor, 'numerator' | 'denominator'>,
): number => scaleFen(annualFen, factor.numerator, factor.denominator);

/**
 * The premium delta of a mid-term change of risk effective on `effective` (the first day the new risk is
 * covered): the change of the annual premium, pro rata by day for the days left to the policy's end over the
 * days of the policy's year. Positive: the holder pays more; negative: a return of premium. Zero when the change
 * takes effect after the end.
 */
export function endorsementDeltaFen(
  policy: { startDate: string; endDate: string },
  oldAnnualFen: number,
  newAnnualFen: number,
  effective: string,
): number {
  const from = effective < policy.startDate ? policy.startDate : effective;
  const daysLeft = Math.max(0, periodDays(from, policy.endDate));
  return scaleFen(newAnnualFen - oldAnnualFen, daysLeft, yearDays(policy.startDate));
}

/** Who asks for a cancellation: the policyholder (short-rate) or the insurer (pro rata by day). */
export const CANCELLATION_PARTIES = ['HOLDER', 'INSURER'] as const;
export type CancellationParty = (typeof CANCELLATION_PARTIES)[number];

export interface CancellationInput {
  policy: { startDate: string; endDate: string };
  /** The premium paid, net of earlier refunds (fen). */
  paidFen: number;
  /** The annual premium of the current risk (fen): the short-rate table applies to it. */
  annualFen: number;
  /** The first day no longer covered (cover ends at 24:00 of the day before). */
  effective: string;
  party: CancellationParty;
  /** Prevention fees already spent (fen): the refund never eats into them. */
  preventionSpentFen: number;
  table?: readonly number[];
}

export interface CancellationQuote {
  /** Days covered before the cancellation takes effect. */
  elapsedDays: number;
  /** The premium kept (fen): paid − refund. */
  earnedFen: number;
  refundFen: number;
  /** How the earned premium was reckoned, in words (短期费率 2 个月 20% / 按日比例 45/365 天 / 已用预防服务费). */
  basis: string;
}

/**
 * The refund of a cancellation. The holder's: paid − the short-rate premium of the elapsed months (on the annual
 * premium); the insurer's: paid − the paid premium pro rata by day for the elapsed days of the period. Either way
 * the premium kept is never below the prevention fees already spent nor above what was paid, so the refund is
 * never negative, and earned + refund = paid exactly.
 */
export function cancellationQuote(input: CancellationInput): CancellationQuote {
  const { policy, paidFen, annualFen, party, preventionSpentFen } = input;
  const effective =
    input.effective < policy.startDate
      ? policy.startDate
      : input.effective > addDays(policy.endDate, 1)
        ? addDays(policy.endDate, 1)
        : input.effective;
  const elapsedDays = daysBetween(policy.startDate, effective);
  let earned: number;
  let basis: string;
  if (elapsedDays === 0) {
    earned = 0;
    basis = '未起保，全额退还';
  } else if (party === 'HOLDER') {
    const f = periodFactor('SHORT_RATE_TABLE', policy.startDate, addDays(effective, -1), input.table);
    earned = periodPremium(annualFen, f);
    basis = f.text;
  } else {
    const total = periodDays(policy.startDate, policy.endDate);
    earned = scaleFen(paidFen, elapsedDays, total);
    basis = `按日比例 ${elapsedDays}/${total} 天`;
  }
  if (earned < preventionSpentFen) {
    earned = preventionSpentFen;
    basis = '已用预防服务费';
  }
  earned = Math.min(Math.max(earned, 0), Math.max(paidFen, 0));
  return { elapsedDays, earnedFen: earned, refundFen: Math.max(paidFen, 0) - earned, basis };
}
