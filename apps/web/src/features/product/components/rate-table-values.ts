// The rate-table editor's form values (texts as typed: yuan, ‰, multipliers as decimals) and their
// conversion to the request body, checked with the shared rules (`rateTableCreateForm`, `rateRowsProblem`,
// `factorDefProblem` inside it) so the editor refuses what the server would, at the field concerned; a
// server refusal goes to the same fields by its `errors`.
import {
  fenToYuanText,
  multiplierText,
  perMilleTextToRate,
  rateText,
  yuanTextToFen,
} from '@piibs/shared/money';
import { problemText } from '@piibs/shared/problem';
import {
  type RateTableCreateForm,
  type RateTableDetail,
  rateRowsProblem,
  rateTableCreateForm,
} from '@piibs/shared/product';
import type { CoverageType, ProductClass } from '@piibs/shared/rating';
import type { ShortPeriodRule } from '@piibs/shared/short-period';
import type { NamePath } from 'antd/es/form/interface';
import dayjs, { type Dayjs } from 'dayjs';
import { type FieldNames, namePathOf } from '@/components/form/server-errors.ts';

export interface RateRowValues {
  coverageType?: CoverageType | null;
  industry?: string | null;
  /** Yuan. */
  limitTier?: string;
  /** Yuan; empty: the open top band. */
  costBandUpTo?: string;
  /** Per-mille (‰). */
  rate?: string;
}
export interface FactorOptionValues {
  value?: string;
  label?: string;
  /** A decimal multiplier ('1.3'). */
  multiplier?: string;
}
export interface FactorValues {
  code?: string;
  label?: string;
  min?: string;
  max?: string;
  defaultOption?: string;
  options?: FactorOptionValues[];
}
export interface RateTableValues {
  effectiveDate?: Dayjs | null;
  /** Construction only; empty: ×1.3. */
  highRiskLoading?: string;
  note?: string | null;
  shortPeriodRule?: ShortPeriodRule;
  /** 12 percentages, 1 … 12 months, separated by commas or 、; empty: the standard table. */
  shortRateTable?: string;
  rows?: RateRowValues[];
  factors?: FactorValues[];
}

export const DATE = 'YYYY-MM-DD';

/** '0.65' (‰) → 6_500. */
export const parseRate = perMilleTextToRate;
/** '1.3' → 13_000: multipliers are × 10⁴ with at most four decimals, as per-mille rates are. */
export const parseMultiplier = perMilleTextToRate;
/** 6_500 → '0.65' (‰, no sign). */
export const rateValueText = (rate: number): string => rateText(rate).replace(/‰$/, '');

const yuanOf = (fen: number | null): string | undefined =>
  fen == null ? undefined : fenToYuanText(fen).replace(/\.00$/, '');
const text = (v: string | null | undefined): string => (v ?? '').trim();

/** Basis points → '10, 20, … 100' (percent). */
export const shortRateTableValue = (table: readonly number[]): string =>
  table.map((bp) => String(bp / 100)).join(', ');

/** '10, 20, … 100' → basis points (a malformed share stays NaN for the shared rule to refuse); empty: null. */
export function parseShortRateTable(value: string | undefined): number[] | null {
  const parts = text(value)
    .split(/[,，、\s]+/)
    .filter(Boolean);
  if (parts.length === 0) return null;
  return parts.map((p) =>
    /^\d+(\.\d{1,2})?$/.test(p.replace(/%$/, ''))
      ? Math.round(Number(p.replace(/%$/, '')) * 100)
      : Number.NaN,
  );
}

/** The form's values for a table (a stored version, or the one a new draft copies). */
export function toValues(table: RateTableDetail, effectiveDate?: string): RateTableValues {
  return {
    effectiveDate: dayjs(effectiveDate ?? table.effectiveDate),
    highRiskLoading: table.highRiskLoading == null ? undefined : multiplierText(table.highRiskLoading),
    note: table.note,
    shortPeriodRule: table.shortPeriodRule,
    shortRateTable: table.shortRateTable ? shortRateTableValue(table.shortRateTable) : undefined,
    rows: table.rows.map((r) => ({
      coverageType: r.coverageType,
      industry: r.industry,
      limitTier: yuanOf(r.limitTierFen),
      costBandUpTo: yuanOf(r.costBandUpToFen),
      rate: rateValueText(r.rate),
    })),
    factors: table.factors.map((f) => ({
      code: f.code,
      label: f.label,
      min: multiplierText(f.min),
      max: multiplierText(f.max),
      defaultOption: f.defaultOption,
      options: f.options.map((o) => ({
        value: o.value,
        label: o.label,
        multiplier: multiplierText(o.multiplier),
      })),
    })),
  };
}

/** A malformed number stays NaN, so the shared schema refuses it rather than it passing as 0. */
const numberOf = (value: string | undefined, parse: (t: string) => number | null): number =>
  parse(text(value)) ?? Number.NaN;
const optionalNumber = (value: string | undefined, parse: (t: string) => number | null): number | null =>
  text(value) === '' ? null : numberOf(value, parse);

/** The request body for the values (POST /products/:id/rateTables; the update adds `version`). */
export function toBody(values: RateTableValues, productClass: ProductClass): RateTableCreateForm {
  return {
    effectiveDate: values.effectiveDate ? values.effectiveDate.format(DATE) : '',
    highRiskLoading:
      productClass === 'construction' ? optionalNumber(values.highRiskLoading, parseMultiplier) : null,
    note: text(values.note) || null,
    shortPeriodRule: values.shortPeriodRule ?? 'SHORT_RATE_TABLE',
    shortRateTable: parseShortRateTable(values.shortRateTable),
    rows: (values.rows ?? []).map((r) => ({
      coverageType: productClass === 'work_safety' ? (r.coverageType ?? null) : null,
      industry: productClass === 'construction' ? null : r.industry || null,
      // Sent as typed: a tier on another coverage is refused by the shared rule, at its field.
      limitTierFen: productClass === 'work_safety' ? optionalNumber(r.limitTier, yuanTextToFen) : null,
      costBandUpToFen: productClass === 'construction' ? optionalNumber(r.costBandUpTo, yuanTextToFen) : null,
      rate: numberOf(r.rate, parseRate),
    })),
    factors: (values.factors ?? []).map((f) => ({
      code: text(f.code),
      label: text(f.label),
      min: numberOf(f.min, parseMultiplier),
      max: numberOf(f.max, parseMultiplier),
      defaultOption: text(f.defaultOption),
      options: (f.options ?? []).map((o) => ({
        value: text(o.value),
        label: text(o.label),
        multiplier: numberOf(o.multiplier, parseMultiplier),
      })),
    })),
  };
}

/** A problem and the form field it belongs to (null: the table as a whole). */
export interface Problem {
  name: NamePath | null;
  message: string;
}

const ROW_FIELDS: Readonly<Record<string, keyof RateRowValues>> = {
  coverageType: 'coverageType',
  industry: 'industry',
  limitTierFen: 'limitTier',
  costBandUpToFen: 'costBandUpTo',
  rate: 'rate',
};

/**
 * Where a factor's problem (`factorDefProblem`: `浮动因子「…」的…`) belongs: the bound, option or default it
 * is about, else the factor's name.
 */
export function factorProblemField(factor: FactorValues, index: number, message: string): NamePath {
  const at = (...rest: (string | number)[]): NamePath => ['factors', index, ...rest];
  if (message.includes('只能下浮')) return at('max');
  if (message.includes('只能上浮') || message.includes('系数范围')) return at('min');
  if (message.includes('默认选项')) return at('defaultOption');
  const options = factor.options ?? [];
  const duplicate = /选项 (\S+) 重复/.exec(message);
  if (duplicate) {
    const j = options.findLastIndex((o) => text(o.value) === duplicate[1]);
    if (j >= 0) return at('options', j, 'value');
  }
  const outOfRange = /选项「(.+)」系数超出范围/.exec(message);
  if (outOfRange) {
    const j = options.findIndex((o) => text(o.label) === outOfRange[1]);
    if (j >= 0) return at('options', j, 'multiplier');
  }
  return at('label');
}

/** Path of a schema issue → the form field (the body's fen / rate keys are the form's yuan / ‰ texts). */
function issueField(values: RateTableValues, path: readonly PropertyKey[], message: string): NamePath | null {
  const [head, i, key, j, optionKey] = path;
  if (
    path.length === 1 &&
    ['effectiveDate', 'highRiskLoading', 'note', 'shortPeriodRule', 'shortRateTable'].includes(String(head))
  )
    return String(head);
  if (head === 'rows' && typeof i === 'number' && typeof key === 'string' && ROW_FIELDS[key])
    return ['rows', i, ROW_FIELDS[key]!];
  if (head === 'factors' && typeof i === 'number') {
    if (key === undefined) return factorProblemField(values.factors?.[i] ?? {}, i, message);
    if (key === 'options' && typeof j === 'number' && typeof optionKey === 'string')
      return ['factors', i, 'options', j, optionKey];
    if (key === 'options') return ['factors', i, 'label'];
    return ['factors', i, String(key)];
  }
  return null;
}

/**
 * Every problem the shared rules find in the values, at its field; empty when the server would take them.
 * Rows are checked against the product class only once each field passes.
 */
export function tableProblems(values: RateTableValues, productClass: ProductClass): Problem[] {
  const parsed = rateTableCreateForm.safeParse(toBody(values, productClass));
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => ({
      name: issueField(values, issue.path, issue.message),
      message: issue.message,
    }));
  }
  const problem = rateRowsProblem(productClass, parsed.data.rows);
  if (!problem) return [];
  const name = issueField(values, namePathOf(problem.field), problem.message);
  return [{ name, message: name ? problem.message : problemText(problem) }];
}

/** Where a refused request field goes in the editor (the server's refusal, by its `errors`). */
export const refusalFields =
  (values: RateTableValues): FieldNames =>
  (path, message) =>
    issueField(values, path, message);
