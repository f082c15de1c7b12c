// The filters lists share: keyword "contains" over several columns, and time ranges.

import { type AnyColumn, and, eq, gte, lte, or, type SQL, sql } from 'drizzle-orm';
import { asIs, type Bind } from './statement-shapes.ts';
import { probeOf } from './trigram-probe.ts';

/** `%text%` for ILIKE with the wildcards in `text` escaped. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}

/** Case-insensitive "contains" over several columns (undefined when there is no text). */
export function blurry(text: string | undefined | null, ...columns: (AnyColumn | SQL)[]): SQL | undefined {
  if (!text) return undefined;
  const pattern = likePattern(text);
  return or(...columns.map((c) => sql`${c} ilike ${pattern}`));
}

/**
 * "Contains" (as blurry) over columns whose table keeps them in a search key (migration 0017: `search_key`, the
 * columns written by piibs_text_key in letters and digits, with a trigram index; the C locale gives Chinese
 * characters no trigrams). The key finds the candidates through the index, ILIKE on the columns is the exact
 * check (a key may match across characters or columns). With the table's `frequent` trigrams (trigram-probe.ts)
 * the index is asked for the key's rare part only: a part of the key, so no row holding the term is missed.
 */
export function keyedContains(
  text: string | undefined | null,
  key: AnyColumn,
  columns: AnyColumn[],
  frequent?: ReadonlySet<string>,
): SQL | undefined {
  if (!text) return undefined;
  const pattern = likePattern(text);
  // The key's pattern as a value: PostgreSQL plans each search for its term, and computing piibs_text_key there
  // costs that planning more than the statement's run (the key holds no LIKE wildcards).
  const probe = probeOf(textKey(text), frequent);
  return sql`(${key} like ${`%${probe}%`} and ${or(...columns.map((c) => sql`${c} ilike ${pattern}`))})`;
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * PostgreSQL's piibs_text_key (migration 0017) here: each character as itself (ASCII letters and digits, lowered),
 * a space (other ASCII) or three base-36 digits of its code point (anything else).
 */
export function textKey(text: string): string {
  let key = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (/^[A-Za-z0-9]$/.test(ch)) key += ch.toLowerCase();
    else if (code < 128) key += ' ';
    else
      key += BASE36[Math.floor(code / 1296) % 36]! + BASE36[Math.floor(code / 36) % 36]! + BASE36[code % 36]!;
  }
  return key;
}

/** start ≤ column ≤ end, either bound optional (send 23:59:59 as the end of a whole day). */
export function timeRange(column: AnyColumn, start?: Date, end?: Date): SQL | undefined {
  return and(start ? gte(column, start) : undefined, end ? lte(column, end) : undefined);
}

/** A list filter on an optional value: the column, the value, and how they compare (default `=`). */
export type GivenFilter = readonly [column: AnyColumn, value: unknown, compare?: typeof eq];

/** timeRange as two given filters: from `start`, up to `end`. */
export function timeRangeFilters(column: AnyColumn, start?: Date, end?: Date): GivenFilter[] {
  return [
    [column, start, gte],
    [column, end, lte],
  ];
}

/**
 * The filters whose value is given, ANDed (each value bound with `bind` for a shaped statement), and which were
 * given: everything their text depends on (a statement's shape, statement-shapes.ts).
 */
export function givenFilters(
  filters: readonly GivenFilter[],
  bind: Bind = asIs,
): { where: SQL | undefined; shape: string } {
  return {
    where: and(
      ...filters.map(([column, value, compare = eq]) => (value ? compare(column, bind(value)) : undefined)),
    ),
    shape: filters.map(([, value]) => (value ? 1 : 0)).join(''),
  };
}
