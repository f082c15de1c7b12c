// A keyword search probes a trigram index (search_key, migrations 0017 and 0023) with the part of its key whose
// trigrams are rare in the table. A trigram most rows share (the year in every application number: "260" in
// AZX2026…) makes the index decode a posting list of the whole table: a number search over 100,000 applications
// took 1 ms of the index's time for it, against 0.1 ms for the number's rare tail. The full term is still checked
// on the row (keyedContains), so the answer is the same; only the index's work changes.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** The tables that keep a search key. */
export type KeyedTable = 'application' | 'customer';

/**
 * A trigram found in at least `frequentRows` rows (by a sample) counts as frequent. `sampleRows` rows are sampled
 * at most every `refreshMs`. Tests lower the threshold.
 */
export const trigramStats = { frequentRows: 2_000, sampleRows: 3_000, refreshMs: 10 * 60_000 };

/** The trigrams pg_trgm takes from inside a key: its three-character windows within one word (spaces split). */
function windowsOf(key: string): Set<string> {
  const out = new Set<string>();
  for (const word of key.split(' ')) for (let i = 0; i + 3 <= word.length; i++) out.add(word.slice(i, i + 3));
  return out;
}

/**
 * The part of a search key (textKey) to look up in the index: the longest run of rare trigrams (the later of
 * equals; it is a substring of the key, so every row holding the key holds it), or the whole key when none of its
 * trigrams is frequent, or all are.
 */
export function probeOf(key: string, frequent: ReadonlySet<string> | undefined): string {
  if (!frequent?.size) return key;
  let best = '';
  let bestCount = 0;
  let anyFrequent = false;
  for (const word of key.split(' ')) {
    let start = -1; // first window of the current run of rare trigrams
    for (let i = 0; i + 3 <= word.length + 1; i++) {
      const rare = i + 3 <= word.length && !frequent.has(word.slice(i, i + 3));
      if (i + 3 <= word.length && !rare) anyFrequent = true;
      if (rare && start < 0) start = i;
      if (!rare && start >= 0) {
        const count = i - start;
        if (count >= bestCount) {
          best = word.slice(start, i + 2);
          bestCount = count;
        }
        start = -1;
      }
    }
  }
  return anyFrequent && bestCount > 0 ? best : key;
}

/** The last sample's trigrams; `taken` counts the samples begun, so only the latest one is kept. */
type State = { set: ReadonlySet<string> | undefined; at: number; loading: boolean; taken: number };
const states = new WeakMap<Db, Record<KeyedTable, State>>();

function stateOf(db: Db, table: KeyedTable): State {
  let tables = states.get(db);
  if (!tables) {
    const fresh = (): State => ({ set: undefined, at: 0, loading: false, taken: 0 });
    tables = { application: fresh(), customer: fresh() };
    states.set(db, tables);
  }
  return tables[table];
}

/**
 * The frequent trigrams of a table's search keys, as last sampled (undefined before the first sample is in). A
 * sample older than `refreshMs` is taken again in the background; the search meanwhile uses the one it has.
 */
export function frequentTrigrams(db: Db, table: KeyedTable): ReadonlySet<string> | undefined {
  const state = stateOf(db, table);
  if (!state.loading && Date.now() - state.at >= trigramStats.refreshMs)
    // A failure (the database went away: shutdown, a restart) is tried again at a later search.
    refreshFrequentTrigrams(db, table).catch(() => {});
  return state.set;
}

/** Samples a table's search keys now, and keeps the frequent trigrams for its searches (frequentTrigrams). */
export async function refreshFrequentTrigrams(db: Db, table: KeyedTable): Promise<ReadonlySet<string>> {
  const state = stateOf(db, table);
  const mine = ++state.taken;
  state.loading = true;
  try {
    const set = await sampleFrequent(db, table);
    if (mine === state.taken) state.set = set;
    return set;
  } finally {
    if (mine === state.taken) {
      state.at = Date.now();
      state.loading = false;
    }
  }
}

/** Samples a table's search keys (Bernoulli, about `sampleRows` rows) and answers the trigrams in frequent rows. */
async function sampleFrequent(db: Pick<Db, 'execute'>, table: KeyedTable): Promise<Set<string>> {
  const size = await db.execute<{ n: number }>(
    sql`select greatest(reltuples, 0)::float8 as n from pg_class where oid = ${table}::regclass`,
  );
  const rows = Number(size.rows[0]?.n ?? 0);
  const frequent = new Set<string>();
  if (rows < trigramStats.frequentRows) return frequent;
  const percent = Math.min(100, (100 * trigramStats.sampleRows) / rows);
  const sample = await db.execute<{ k: string }>(
    sql`select search_key as k from ${sql.identifier(table)} tablesample bernoulli (${percent})
      where search_key is not null`,
  );
  if (!sample.rows.length) return frequent;
  const counts = new Map<string, number>();
  for (const { k } of sample.rows) for (const t of windowsOf(k)) counts.set(t, (counts.get(t) ?? 0) + 1);
  const scale = rows / sample.rows.length;
  for (const [t, n] of counts) if (n * scale >= trigramStats.frequentRows) frequent.add(t);
  return frequent;
}
