// Page anchors: a jump by page number to a far page without an OFFSET over every row before it.
//
// A list in a keyset order (keyset.ts) keeps, per filter and data scope, the sort key and id of every
// `stride`-th row: anchor j is the row at position (j + 1) * stride - 1 (0-based). Page `start` is then the rows
// after the anchor at or before it, skipping fewer than `stride` — the same rows, in the same order, as
// `OFFSET start`, provided the query sees the same data the anchors were taken from. That holds by construction:
//
//  - The anchors carry the table's data version (a sequence a statement trigger advances on every change, before
//    its transaction commits), and the page query answers rows only while the sequence still reads that version
//    (a guard in the same statement, so in the page's own snapshot). A different version: no rows; the caller
//    falls back to OFFSET.
//  - The version alone is not enough: a writer advances the sequence before it commits, so anchors taken while a
//    writer was between the two would carry the version that writer already counted without seeing its rows.
//    So the version is read first, then PostgreSQL's lock table is asked whether any transaction holds a write
//    lock on the table (taken before the trigger runs, released only once the commit is visible), and only then
//    are the anchors read (a later snapshot). A writer that counted in that version either still held its lock
//    (the anchors are not kept) or had committed before the anchors' snapshot (they see it). A version read again
//    with the anchors must be the same.
//  - What the WHERE reads from other tables (the applicants of an agent or an enterprise, the users of a
//    department scope) is not in that version: `inputs`, a digest of those subqueries, is taken with the anchors
//    and checked by the same guard.
import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { dataVersionOf, sequenceVersion } from './keyset.ts';

/** The sort key (as keyset.ts writes it) and id of a row. */
export interface Anchor {
  key: string;
  id: number;
}

/** Anchors of one list (filter, scope and order) at one data version. */
export interface AnchorSet {
  version: string;
  /** md5 of the WHERE's reads from other tables, or '' when it has none. */
  inputs: string;
  /** The rows of the list then. */
  total: number;
  anchors: Anchor[];
}

/**
 * The anchor a page starts from and the rows to skip after it; null when the page is before the first anchor or
 * past the end of the list the anchors were read from.
 */
export function anchorFor(
  set: AnchorSet,
  stride: number,
  start: number,
): { anchor: Anchor; skip: number } | null {
  const j = Math.floor(start / stride) - 1;
  if (j < 0 || start >= set.total) return null;
  return { anchor: set.anchors[j]!, skip: start - (j + 1) * stride };
}

/** A cache key for the exact WHERE and order a list runs (its rendered SQL and parameters). */
export function anchorKey(query: { sql: string; params: unknown[] }, order: string): string {
  return createHash('sha1')
    .update(JSON.stringify([order, query.sql, query.params]))
    .digest('base64url');
}

/**
 * Anchor sets per list, at most `maxEntries` (then emptied). Concurrent requests for one list share its
 * computation. One per app instance.
 */
export class AnchorCache {
  readonly stride: number;
  readonly maxEntries: number;
  /** Pages answered from an anchor; anchor sets computed; sets not kept (a writer in flight, a version moved). */
  hits = 0;
  computed = 0;
  refused = 0;
  private readonly entries = new Map<string, AnchorSet>();
  private readonly running = new Map<string, Promise<AnchorSet | null>>();

  constructor(opts: { stride?: number; maxEntries?: number } = {}) {
    this.stride = opts.stride ?? 200;
    this.maxEntries = opts.maxEntries ?? 200;
  }

  peek(key: string): AnchorSet | undefined {
    return this.entries.get(key);
  }

  drop(key: string, version?: string): void {
    if (version === undefined || this.entries.get(key)?.version === version) this.entries.delete(key);
  }

  /** The anchor set of `key`, computed by `compute` unless a computation is running (null: none to keep). */
  load(key: string, compute: () => Promise<AnchorSet | null>): Promise<AnchorSet | null> {
    let running = this.running.get(key);
    if (!running) {
      running = compute()
        .then((set) => {
          this.computed++;
          if (!set) {
            this.refused++;
            return null;
          }
          if (this.entries.size >= this.maxEntries) this.entries.clear();
          this.entries.set(key, set);
          return set;
        })
        .finally(() => this.running.delete(key));
      this.running.set(key, running);
    }
    return running;
  }
}

const inputsDigest = (inputs: SQL | undefined): SQL<string> =>
  inputs ? sql<string>`md5(${inputs})` : sql<string>`''`;

/** Whether another transaction holds a lock on `table` that may change its rows (it has not ended yet). */
async function writerInFlight(db: Pick<Db, 'execute'>, table: string): Promise<boolean> {
  const res = await db.execute<{ busy: boolean }>(sql`select exists(
      select 1 from pg_locks
      where locktype = 'relation' and relation = to_regclass(${table})
        and database = (select oid from pg_database where datname = current_database())
        and mode in ('RowExclusiveLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock')
        and pid is distinct from pg_backend_pid()) as busy`);
  return res.rows[0]?.busy === true;
}

/**
 * Reads the anchors of a list as described in the file header: `rows` is the list's rows in order — an
 * expression over a subquery aliased as the table, with `key` its rows' sort key — under `where`; `inputs` the
 * WHERE's reads from other tables as one text expression (or none). Null when no stable set could be read.
 */
export async function readAnchors(
  db: Pick<Db, 'execute'>,
  q: {
    table: string;
    sequence: string;
    stride: number;
    /** `select <sort columns and id> from <table> where … ` for the list (no ORDER BY, no LIMIT). */
    rows: SQL;
    /** The list's ORDER BY items. */
    orderBy: SQL[];
    key: SQL<string>;
    id: SQL;
    inputs?: SQL | undefined;
  },
): Promise<AnchorSet | null> {
  const version = dataVersionOf(q.sequence);
  const before = await sequenceVersion(db, q.sequence);
  if (await writerInFlight(db, q.table)) return null;
  const order = sql.join(q.orderBy, sql`, `);
  const table = sql.identifier(q.table);
  const res = await db.execute<{
    key: string | null;
    id: number | string | null;
    v: string;
    inputs: string;
    total: number | string;
  }>(sql`
    select ${q.key} as key, ${q.id} as id, ${version} as v, ${inputsDigest(q.inputs)} as inputs, total
    from (select *, row_number() over (order by ${order}) as anchor_n, count(*) over () as total
      from (${q.rows}) as ${table}) as ${table}
    where anchor_n % ${q.stride} = 0 or anchor_n = total
    order by anchor_n`);
  // The last row comes too (for the total and the version when there is no anchor).
  const last = res.rows.at(-1);
  if (!last) return { version: before, inputs: '', total: 0, anchors: [] };
  if (last.v !== before) return null;
  const total = Number(last.total);
  const anchors = res.rows.slice(0, Math.floor(total / q.stride));
  return {
    version: before,
    inputs: last.inputs,
    total,
    anchors: anchors.map((r) => ({ key: r.key ?? '', id: Number(r.id) })),
  };
}

/** The guard a page read from an anchor set runs under: the same version and the same reads elsewhere. */
export function anchorGuard(sequence: string, set: AnchorSet, inputs: SQL | undefined): SQL {
  return sql`(${dataVersionOf(sequence)} = ${set.version}
    and ${inputsDigest(inputs)} = ${set.inputs})`;
}
