// The filters lists share: keyword "contains" over several columns, and time ranges.

import { type AnyColumn, and, gte, lte, or, type SQL, sql } from 'drizzle-orm';

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
 * check (a key may match across characters or columns).
 */
export function keyedContains(
  text: string | undefined | null,
  key: AnyColumn,
  ...columns: AnyColumn[]
): SQL | undefined {
  if (!text) return undefined;
  const pattern = likePattern(text);
  return sql`(${key} like '%' || piibs_text_key(${text}) || '%' and ${or(...columns.map((c) => sql`${c} ilike ${pattern}`))})`;
}

/** start ≤ column ≤ end, either bound optional (send 23:59:59 as the end of a whole day). */
export function timeRange(column: AnyColumn, start?: Date, end?: Date): SQL | undefined {
  return and(start ? gte(column, start) : undefined, end ? lte(column, end) : undefined);
}
