// Money, ratios, rates and multipliers as the product keeps them: integers, never floats. Import it as
// `@piibs/shared/money`.
//
//   money          fen (1 yuan = 100 fen), BIGINT in the database, integer in JSON
//   ratio / share  micro-percent: percent × 10⁶ (21% → 21_000_000; 100% → 100_000_000)
//   rate           10⁻⁷ of the base it applies to, i.e. per-mille × 10⁴ (0.65‰ → 6_500; 1.5% → 150_000)
//   multiplier     × 10⁴ (×1.30 → 13_000; ×0.90 → 9_000; ×1 → 10_000)
//
// Text conversions go through decimal strings and BigInt, so no binary fraction ever creeps in.

export const FEN_PER_YUAN = 100;
/** Micro-percent units in one percent. */
export const PERCENT_SCALE = 1_000_000;
/** 100% in micro-percent. */
export const HUNDRED_PERCENT = 100 * PERCENT_SCALE;
/** A rate of 1 (100%) in rate units: rates are fractions × 10⁷. */
export const RATE_SCALE = 10_000_000;
/** Rate units in one per-mille (‰). */
export const PER_MILLE = 10_000;
/** A multiplier of ×1 in multiplier units. */
export const MULTIPLIER_SCALE = 10_000;

/** `value / 10^digits` as a plain decimal without trailing zeros (at least `minDecimals` decimals). */
function scaledText(value: number, digits: number, minDecimals = 0): string {
  const negative = value < 0;
  const abs = BigInt(Math.abs(Math.trunc(value)));
  const scale = 10n ** BigInt(digits);
  const whole = abs / scale;
  let frac = (abs % scale).toString().padStart(digits, '0').replace(/0+$/, '');
  if (frac.length < minDecimals) frac = frac.padEnd(minDecimals, '0');
  return `${negative && abs > 0n ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** A plain decimal (no sign, at most `digits` decimals) × 10^digits, or null when malformed or too large. */
function parseScaled(text: string, digits: number): number | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const frac = m[2] ?? '';
  if (frac.length > digits) return null;
  const value = BigInt(m[1]!) * 10n ** BigInt(digits) + BigInt(frac.padEnd(digits, '0') || '0');
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : null;
}

/** 123450 → '1234.50' (always two decimals). */
export function fenToYuanText(fen: number): string {
  return scaledText(fen, 2, 2);
}

/**
 * The one way an amount is shown, on screens, in messages, PDFs and notifications: 2_676_000 → '¥26,760.00',
 * -150 → '-¥1.50'; no amount → '—'. (Inputs and spreadsheet cells take the plain `fenToYuanText`.)
 */
export function formatFen(fen: number | null | undefined): string {
  if (fen === null || fen === undefined) return '—';
  const [whole, frac] = fenToYuanText(Math.abs(fen)).split('.');
  return `${fen < 0 ? '-' : ''}¥${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

/** '1234.5' → 123450 fen; null unless a non-negative amount with at most two decimals. */
export function yuanTextToFen(text: string): number | null {
  return parseScaled(text, 2);
}

/** Whole yuan → fen (400000 → 40_000_000). */
export const yuan = (amount: number): number => amount * FEN_PER_YUAN;

/** Short amount for labels: 40万元, 10亿元, 1234.56元. */
export function amountShortText(fen: number): string {
  if (fen >= 10_000_000_000 && fen % 10_000_000_000 === 0) return `${fen / 10_000_000_000}亿元`;
  if (fen >= 1_000_000 && fen % 1_000_000 === 0) return `${fen / 1_000_000}万元`;
  return `${fenToYuanText(fen).replace(/\.00$/, '')}元`;
}

/** 21_000_000 → '21'; 15_500_000 → '15.5' (percent, no sign). */
export function microPercentText(micro: number): string {
  return scaledText(micro, 6);
}

/** '15.5' → 15_500_000; null unless a non-negative percentage with at most six decimals. */
export function percentTextToMicro(text: string): number | null {
  return parseScaled(text, 6);
}

/** 6_500 → '0.65‰'. */
export function rateText(rate: number): string {
  return `${scaledText(rate, 4)}‰`;
}

/** '0.65' (per-mille) → 6_500; null unless at most four decimals. */
export function perMilleTextToRate(text: string): number | null {
  return parseScaled(text, 4);
}

/** 13_000 → '1.3'. */
export function multiplierText(multiplier: number): string {
  return scaledText(multiplier, 4);
}
