// Keyset (cursor) paging and cached counts, for the lists of business records that grow large.
//
// A deep page by OFFSET reads and throws away every row before it. A list ordered by one NOT NULL column (then
// the primary key, same direction) can instead continue from a cursor: the sort key and id of the last (or
// first) row shown, compared as a row value, `(col, id) < (key, id)`, which an index on (col, id) answers by
// reading only the page. The answer carries the cursors of its first and last rows (`cursors.before/after`);
// the client sends `after` for the next page and `before` for the previous one, with `page` still telling
// the page number (for totalElements). Cursors are opaque (base64url JSON of the order, key and id) and bound to
// the order they were made for: another order, or a mangled cursor, answers 400.

import { type AnyColumn, asc, desc, type SQL, sql } from 'drizzle-orm';
import type pg from 'pg';
import { z } from 'zod';
import { type Db, listPoolOf } from '../db/client.ts';
import { badRequest } from './errors.ts';
import { SORT_ITEM, sortItems, statementName } from './paging.ts';
import { asIs, type Bind } from './statement-shapes.ts';

export const CURSOR_INVALID = '游标：无效或与当前排序不一致，请回到第一页重新翻页';

/** The cursor parameters, to `.extend()` a list query with. */
export const cursorParams = {
  after: z.string().max(400).optional().meta({
    title: '游标',
    description: '取该游标之后的一页（上一页答复的 cursors.after）；按游标翻页时 page 仍为页码',
  }),
  before: z
    .string()
    .max(400)
    .optional()
    .meta({ title: '游标', description: '取该游标之前的一页（下一页答复的 cursors.before）' }),
};

/** A sort field that can page by cursor: its column (NOT NULL) and how its key is written in the cursor. */
export interface KeysetField {
  column: AnyColumn;
  kind: 'timestamp' | 'text';
}

interface Cursor {
  key: string;
  id: number;
}

/** An order a list can page by cursor in. */
export interface KeysetOrder {
  /** `field,dir`: a cursor is only valid for the order it was made in. */
  signature: string;
  /** The order, and its reverse (to fetch the page before a cursor, then turn it round). */
  orderBy: SQL[];
  reversed: SQL[];
  /** The sort key of a row as exact text (timestamps to the microsecond, UTC). */
  keyText: SQL<string>;
  /** The rows strictly after (or before) the cursor in this order; `bind` its values for a shaped statement. */
  boundary(cursor: Cursor, side: 'after' | 'before', bind?: Bind): SQL;
  /** Whether a cursor's key is one this order writes (checked before it reaches SQL). */
  validKey(key: string): boolean;
}

const TIMESTAMP_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** A real instant written as keyText writes it (2026-02-30 and the like would make PostgreSQL fail, not 400). */
function validTimestampKey(key: string): boolean {
  if (!TIMESTAMP_KEY.test(key) || key.startsWith('0000')) return false;
  const ms = `${key.slice(0, 23)}Z`;
  const t = Date.parse(ms);
  return !Number.isNaN(t) && new Date(t).toISOString() === ms;
}

const dir = (column: AnyColumn | SQL, descending: boolean) => (descending ? desc(column) : asc(column));

/**
 * The keyset order of a sort, or null when it cannot page by cursor (several sort fields, or a nullable one).
 * No sort: the primary key, descending (newest first).
 */
export function keysetOrder<F extends string>(
  sort: string | string[] | undefined,
  fields: Partial<Record<F, KeysetField>>,
  id: AnyColumn,
): KeysetOrder | null {
  const items = sortItems(sort);
  if (items.length > 1) return null;
  const m = items.length ? SORT_ITEM.exec(items[0]!) : null;
  if (items.length && !m) return null;
  const name = m?.[1] ?? 'id';
  const descending = m ? m[2]?.toLowerCase() === 'desc' : true;
  const signature = `${name},${descending ? 'desc' : 'asc'}`;
  if (name === 'id') {
    return {
      signature,
      orderBy: [dir(id, descending)],
      reversed: [dir(id, !descending)],
      keyText: sql<string>`''`,
      boundary: (c, side, bind = asIs) =>
        (side === 'after') === descending ? sql`${id} < ${bind(c.id)}` : sql`${id} > ${bind(c.id)}`,
      validKey: (key) => key === '',
    };
  }
  const field = (fields as Record<string, KeysetField | undefined>)[name];
  if (!field) return null;
  const { column, kind } = field;
  const keyText =
    kind === 'timestamp'
      ? sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
      : sql<string>`${column}::text`;
  const keyValue = (key: unknown) => (kind === 'timestamp' ? sql`${key}::timestamptz` : sql`${key}::text`);
  return {
    signature,
    orderBy: [dir(column, descending), dir(id, descending)],
    reversed: [dir(column, !descending), dir(id, !descending)],
    keyText,
    boundary: (c, side, bind = asIs) =>
      (side === 'after') === descending
        ? sql`(${column}, ${id}) < (${keyValue(bind(c.key))}, ${bind(c.id)})`
        : sql`(${column}, ${id}) > (${keyValue(bind(c.key))}, ${bind(c.id)})`,
    validKey: (key) =>
      kind === 'timestamp' ? validTimestampKey(key) : key.length <= 200 && !key.includes('\0'),
  };
}

export function encodeCursor(order: KeysetOrder, key: string, id: number): string {
  return Buffer.from(JSON.stringify([order.signature, key, id])).toString('base64url');
}

/** The cursor's key and id; 400 (CURSOR_INVALID) when it is malformed or made for another order. */
export function decodeCursor(order: KeysetOrder | null, text: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      order &&
      Array.isArray(value) &&
      value.length === 3 &&
      value[0] === order.signature &&
      typeof value[1] === 'string' &&
      order.validKey(value[1]) &&
      Number.isSafeInteger(value[2])
    )
      return { key: value[1], id: value[2] as number };
  } catch {
    // falls through to the 400
  }
  throw badRequest(CURSOR_INVALID);
}

/**
 * Runs a rendered select (dialect.sqlToQuery, or a builder's toSQL()) as a named prepared statement, named after a hash of its SQL text: PostgreSQL parses and
 * plans each distinct statement once per connection rather than at every request, and the text is sent once.
 * A list's query has a handful of shapes (filters given, order, cursor), so a handful of statements. Rows come
 * back keyed like the flat selection (`keys`, in its order), with values as node-postgres parses them (cast
 * date columns to text).
 */
export async function runNamed<T>(
  db: Db,
  query: { sql: string; params: unknown[] },
  keys: readonly string[],
): Promise<T[]> {
  // The pool drizzle was made with (a transaction object has none).
  const pool = (db as { $client?: Pick<pg.Pool, 'query'> }).$client;
  if (!pool) throw new Error('runNamed runs on the database, not in a transaction');
  // The lists' pool: generic plans (db/client.ts listPoolOf).
  const client = listPoolOf(pool) ?? pool;
  const { sql: text, params } = query;
  const res = await client.query<unknown[]>({
    name: statementName(text),
    text,
    values: params,
    rowMode: 'array',
  });
  return res.rows.map(rowMakerOf(keys)) as T[];
}

const rowMakers = new WeakMap<readonly string[], (row: unknown[]) => object>();
/**
 * A row's object from its array: an object literal of the keys, compiled once per key list (the keys are the
 * code's own column names). Assigning the keys one by one in a loop was a twentieth of a list page's CPU time.
 */
function rowMakerOf(keys: readonly string[]): (row: unknown[]) => object {
  let make = rowMakers.get(keys);
  if (!make) {
    const fields = keys.map((k, i) => `${JSON.stringify(k)}: r[${i}]`).join(', ');
    make = new Function('r', `return { ${fields} };`) as (row: unknown[]) => object;
    rowMakers.set(keys, make);
  }
  return make;
}

/**
 * A data version, as text: how far a statement trigger advanced `sequence` on the changes of a table. 0 until its
 * first change: a new sequence's last_value is 1 both before and after its first nextval (is_called tells them
 * apart), so last_value alone missed the first change after a migration. Of several sequences (a list over two
 * tables), their versions joined by dots.
 */
export const dataVersionOf = (...sequences: string[]): SQL<string> =>
  sql<string>`${sql.join(
    sequences.map(
      (s) => sql`(select case when is_called then last_value else 0 end from ${sql.identifier(s)})::text`,
    ),
    sql` || '.' || `,
  )}`;

/** A data version read on its own (dataVersionOf). */
export async function sequenceVersion(db: Pick<Db, 'execute'>, ...sequences: string[]): Promise<string> {
  const res = await db.execute<{ v: string }>(sql`select ${dataVersionOf(...sequences)} as v`);
  return String(res.rows[0]?.v ?? 0);
}

/**
 * Counts of a list, cached per key (the filters and the caller's data scope) and data version. A changed
 * version means a recount before answering. After `ttlMs` with the same version (which bounds what the version
 * does not see: a user moved to another department, a renamed customer) the cached count is answered once more
 * while one recount runs in the background. Concurrent recounts of one key share a query. One per app instance.
 */
export class CountCache {
  readonly ttlMs: number;
  readonly maxEntries: number;
  hits = 0;
  misses = 0;
  private readonly entries = new Map<
    string,
    { version: string; at: number; n: number; refreshing: boolean }
  >();
  private readonly running = new Map<string, Promise<number>>();

  constructor(opts: { ttlMs?: number; maxEntries?: number } = {}) {
    this.ttlMs = opts.ttlMs ?? 30_000;
    this.maxEntries = opts.maxEntries ?? 5_000;
  }

  async get(key: string, version: string, count: () => Promise<number>): Promise<number> {
    const hit = this.entries.get(key);
    if (hit && hit.version === version) {
      this.hits++;
      if (Date.now() - hit.at >= this.ttlMs && !hit.refreshing) {
        hit.refreshing = true;
        this.load(key, version, count).catch(() => {
          hit.refreshing = false;
        });
      }
      return hit.n;
    }
    this.misses++;
    return this.load(key, version, count);
  }

  /**
   * A list's count for one caller and filter set: cached under `key` (the caller's data scope and the filters), at
   * the data version the page's rows were read with, or read now from `sequences` when the page read none (empty).
   */
  async ofList(
    db: Pick<Db, 'execute'>,
    key: readonly unknown[],
    version: string | undefined,
    sequences: readonly string[],
    count: () => Promise<number>,
  ): Promise<number> {
    return this.get(JSON.stringify(key), version ?? (await sequenceVersion(db, ...sequences)), count);
  }

  private load(key: string, version: string, count: () => Promise<number>): Promise<number> {
    const flight = `${version}\0${key}`;
    let running = this.running.get(flight);
    if (!running) {
      const at = Date.now();
      running = count()
        .then((n) => {
          if (this.entries.size >= this.maxEntries) this.entries.clear();
          this.entries.set(key, { version, at, n, refreshing: false });
          return n;
        })
        .finally(() => this.running.delete(flight));
      this.running.set(flight, running);
    }
    return running;
  }
}
