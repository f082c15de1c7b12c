// Labels of dictionary codes for list pages, kept in memory: looked up per row in SQL (codes.ts dictLabel,
// regionLabel), three labels over a 20-row page of customers cost more PostgreSQL time than the page itself.
// A book is loaded once per database and loaded again after a dictionary write through this instance has
// answered (dicts/routes.ts calls dictLabelsChanged: its transaction is over) or once it is MAX_AGE_MS old (a
// change made through another instance or in the database shows within that time).
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dictDetails, dicts } from '../../db/schema.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';

const MAX_AGE_MS = 60_000;

/** The labels of every dictionary's codes, as the SQL lookups answer them. */
export interface DictLabelBook {
  /** The label of `value` in the dictionary named `dictName` (its first entry with that value). */
  label(dictName: string, value: string | null): string | null;
  /** The label of a region code: from the first region dictionary (region_*, by id) that has it. */
  region(value: string | null): string | null;
}

const books = new WeakMap<Db, TtlCache<DictLabelBook>>();

/** The book of `db`'s dictionaries: from memory while fresh, else loaded (once for concurrent callers). */
export function dictLabels(db: Db, now = Date.now()): Promise<DictLabelBook> {
  let cache = books.get(db);
  if (!cache) {
    cache = new TtlCache<DictLabelBook>(MAX_AGE_MS, 1);
    books.set(db, cache);
  }
  return cache.get('book', () => loadBook(db), now);
}

/** Forgets `db`'s book: the next list reads the dictionaries again. */
export function dictLabelsChanged(db: Db): void {
  books.delete(db);
}

async function loadBook(db: Db): Promise<DictLabelBook> {
  const rows = await db
    .select({ name: dicts.name, value: dictDetails.value, label: dictDetails.label })
    .from(dictDetails)
    .innerJoin(dicts, eq(dicts.id, dictDetails.dictId))
    .orderBy(asc(dicts.id), asc(dictDetails.id));
  const byDict = new Map<string, Map<string, string>>();
  const regions = new Map<string, string>();
  for (const { name, value, label } of rows) {
    const entries = byDict.get(name) ?? new Map<string, string>();
    byDict.set(name, entries);
    if (!entries.has(value)) entries.set(value, label);
    if (name.startsWith('region_') && !regions.has(value)) regions.set(value, label);
  }
  return {
    label: (dictName, value) => (value === null ? null : (byDict.get(dictName)?.get(value) ?? null)),
    region: (value) => (value === null ? null : (regions.get(value) ?? null)),
  };
}
