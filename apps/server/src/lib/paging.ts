// The one paging convention of every list: query `page` (0-based), `size` (default 10, max 500),
// `sort=field,asc|desc` (repeatable; fields whitelisted per list) → `{ content, totalElements }`.
//
// Counting: `totalElements` is exact. When the page comes back short (the last page) the total is
// offset + rows and no count query runs; otherwise one `count(*)` with the same filters runs. For the
// append-only logs (audit_log, login_attempt), which grow without bound, an unfiltered list answers
// PostgreSQL's own estimate (pg_class.reltuples, kept current by autovacuum/ANALYZE) once that estimate
// passes ESTIMATE_OVER rows, so opening the log page never scans millions of rows. Lists of business records
// that grow large (applications) page by cursor as well and cache their count (keyset.ts). The filters lists
// share: filters.ts.
//
// Reading a page: pageRows takes a drizzle select; a list with a wide select list renders it once (listSource)
// and pages with pageFrom. Either way the page runs as a statement named after its text, on the lists' pool
// (db/client.ts listPoolOf) outside a transaction.

import { createHash } from 'node:crypto';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@piibs/shared/admin';
import { type AnyColumn, asc, Column, count, desc, getTableColumns, is, SQL, sql, Table } from 'drizzle-orm';
import {
  PgDialect,
  type PgSelectBuilder,
  type PgTable,
  QueryBuilder,
  type SelectedFields,
  type SelectedFieldsOrdered,
} from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { type Db, listPoolOf, type Tx } from '../db/client.ts';
import { type Binder, shapedQuery } from './statement-shapes.ts';

export interface PageParams {
  page: number;
  size: number;
  sort?: string | string[] | undefined;
}

export interface Page<T> {
  content: T[];
  totalElements: number;
}

export const SORT_ITEM = /^([A-Za-z][A-Za-z0-9_]*)(?:,(asc|desc))?$/i;

export function sortItems(sort: string | string[] | undefined): string[] {
  if (sort === undefined) return [];
  return (Array.isArray(sort) ? sort : [sort]).map((s) => s.trim()).filter(Boolean);
}

/**
 * The query schema of a paged list: page, size and sort (validated against `sortable`), to `.extend()` with
 * the list's filters. `maxSize` raises the size cap (the dictionary fetch asks for 9999).
 */
export function pageQuery(sortable: readonly string[], opts: { maxSize?: number } = {}) {
  const maxSize = opts.maxSize ?? MAX_PAGE_SIZE;
  return z.object({
    page: z.coerce
      .number({ error: '请输入数字' })
      .int()
      .min(0, { error: '最小为 0' })
      .max(10_000_000)
      .default(0)
      .meta({ title: '页码' }),
    size: z.coerce
      .number({ error: '请输入数字' })
      .int()
      .min(1, { error: '最小为 1' })
      .max(maxSize, { error: `最大为 ${maxSize}` })
      .default(DEFAULT_PAGE_SIZE)
      .meta({ title: '每页条数' }),
    sort: z
      .union([z.string().max(100), z.array(z.string().max(100)).max(5)])
      .optional()
      .superRefine((value, ctx) => {
        for (const item of sortItems(value)) {
          const m = SORT_ITEM.exec(item);
          if (!m) {
            ctx.addIssue({ code: 'custom', message: `格式应为 字段,asc 或 字段,desc，收到 ${item}` });
            return;
          }
          if (!sortable.includes(m[1]!)) {
            ctx.addIssue({
              code: 'custom',
              message: `不支持按 ${m[1]} 排序，可选：${sortable.join('、')}`,
            });
            return;
          }
        }
      })
      .meta({ title: '排序字段', description: `field,asc|desc；可选字段：${sortable.join(', ')}` }),
  });
}

export type SortColumns<F extends string> = Record<F, AnyColumn | SQL>;

/** ORDER BY for the requested sort, then `tiebreak` (which must end in a unique column, for stable pages). */
export function orderByOf<F extends string>(
  sort: string | string[] | undefined,
  columns: SortColumns<F>,
  tiebreak: SQL[],
): SQL[] {
  const out: SQL[] = [];
  for (const item of sortItems(sort)) {
    const m = SORT_ITEM.exec(item);
    const column = m ? columns[m[1] as F] : undefined;
    if (!m || !column) continue; // the schema has refused these already
    out.push(m[2]?.toLowerCase() === 'desc' ? desc(column) : asc(column));
  }
  return [...out, ...tiebreak];
}

export interface ListSpec<F extends string, T> {
  columns: SortColumns<F>;
  /** The default order when no sort is given, ending in a unique column. */
  defaultOrder: SQL[];
  /** One page of rows in the given order. */
  fetch: (q: { limit: number; offset: number; orderBy: SQL[] }) => Promise<T[]>;
  /** The exact number of rows matching the filters. */
  count: () => Promise<number>;
}

const statementNames = new Map<string, string>();
/**
 * A prepared statement's name from its text: one name per text, as node-postgres requires. Remembered per text
 * (a list has a handful of shapes), so a page does not hash its 2 KB statement again.
 */
export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `q_${createHash('sha1').update(text).digest('base64url')}`;
    if (statementNames.size >= 2_000) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/** A select as drizzle's builder holds it: its text and parameters, what it selects and its rows' type. */
interface RenderedSelect<R> {
  toSQL(): { sql: string; params: unknown[] };
  _: { selectedFields: Record<string, unknown>; result: R[] };
}

/** A select a list reads its pages from (drizzle's select builder, after `.from()` and any joins). */
interface PagedSelect<R> {
  where(where: SQL | undefined): {
    orderBy(...orderBy: SQL[]): { limit(limit: number): { offset(offset: number): RenderedSelect<R> } };
  };
}

const fieldOrders = new WeakMap<object, SelectedFieldsOrdered>();
/**
 * The columns of `selection` in their order: a key's column or expression, or a table's columns under a key.
 * Kept per selection object (a list's selection is a constant its builders share).
 */
function orderedFields(selection: Record<string, unknown>): SelectedFieldsOrdered {
  const known = fieldOrders.get(selection);
  if (known) return known;
  const out: SelectedFieldsOrdered = [];
  for (const [key, value] of Object.entries(selection)) {
    if (is(value, Table))
      for (const [name, column] of Object.entries(getTableColumns(value)))
        out.push({ path: [key, name], field: column as SelectedFieldsOrdered[number]['field'] });
    else if (is(value, Column) || is(value, SQL) || is(value, SQL.Aliased))
      out.push({ path: [key], field: value as SelectedFieldsOrdered[number]['field'] });
    else throw new Error(`a list selects columns, expressions and tables: ${key} is none`);
  }
  fieldOrders.set(selection, out);
  return out;
}

/**
 * Runs a rendered list statement, named after its text: each connection parses and plans a list's shape once,
 * not at every page (planning a list with label subqueries cost PostgreSQL more than running it). Outside a
 * transaction it runs on the lists' pool (generic plans: db/client.ts listPoolOf). Rows are mapped by drizzle.
 */
function runList<R>(
  db: Db | Tx,
  query: { sql: string; params: unknown[] },
  fields: SelectedFieldsOrdered,
): Promise<R[]> {
  const prepared = db._.session.prepareQuery<{ execute: R[]; all: unknown; values: unknown }>(
    query,
    fields,
    statementName(query.sql),
    true,
  );
  // drizzle's node-postgres prepared query keeps its pool in `client`; a change there fails here, loudly.
  const p = prepared as unknown as { client?: unknown };
  if (!p.client) throw new Error('drizzle-orm: a prepared query no longer holds its client');
  p.client = listPoolOf(p.client) ?? p.client;
  return prepared.execute();
}

const EXTRA_COLUMNS = '/*extra columns*/';
const dialect = new PgDialect();

/**
 * A list's `select <columns> from <table and joins>`, rendered once (listSource), for pageFrom. drizzle renders a
 * select list again at every request: for a list of 25 columns and a few subqueries that was a fifth to a third
 * of the page's CPU time in Node.
 */
export interface ListSource<R> {
  /** `select <columns>` (extra columns follow it). */
  readonly columns: string;
  /** ` from … joins`. */
  readonly from: string;
  /** The columns in the order of the select list, with the path of each in a row (drizzle's mapping). */
  readonly fields: SelectedFieldsOrdered;
  /** The row type (never set). */
  readonly row?: R;
}

/**
 * Renders a list's select list and joins once: `selection` (columns, expressions without parameters, or a table
 * under a key), `from` adds the table and joins. `R` is the row as drizzle maps it (with any extra columns).
 */
export function listSource<R>(
  selection: SelectedFields,
  from: (select: PgSelectBuilder<SelectedFields, 'qb'>) => { toSQL(): { sql: string; params: unknown[] } },
): ListSource<R> {
  const { sql: text, params } = from(
    new QueryBuilder().select({ ...selection, [EXTRA_COLUMNS]: sql.raw(EXTRA_COLUMNS) }),
  ).toSQL();
  const at = text.indexOf(EXTRA_COLUMNS);
  if (params.length || at < 0) throw new Error('a list source renders once, without parameters');
  return {
    columns: text.slice(0, at).replace(/,\s*$/, ''),
    from: text.slice(at + EXTRA_COLUMNS.length),
    fields: orderedFields(selection),
  };
}

/** Whether a page is in `order` alone (the same object a list's default order holds). */
export const orderedOnlyBy = (orderBy: readonly SQL[], order: SQL): boolean =>
  orderBy.length === 1 && orderBy[0] === order;

/**
 * One page of a list source's rows under `where`, in the order and window asked for (runList). `extra` adds
 * columns that depend on the caller (rendered at every request, after the source's). With `shape`, every value in
 * `where` and `extra` is bound to its binder and the statement is rendered once per shape (statement-shapes.ts):
 * its key names the source, the scope, the filters and the order.
 */
export function pageFrom<R>(
  db: Db | Tx,
  source: ListSource<R>,
  where: SQL | undefined,
  q: { limit: number; offset: number; orderBy: SQL[] },
  extra: Record<string, SQL> = {},
  shape?: { key: string; binder: Binder },
): Promise<R[]> {
  const extras = Object.values(extra);
  const limit = shape ? shape.binder.bind(q.limit) : q.limit;
  const offset = shape ? shape.binder.bind(q.offset) : q.offset;
  const build = () =>
    sql.join([
      sql.raw(source.columns),
      extras.length ? sql`, ${sql.join(extras, sql`, `)}` : sql``,
      sql.raw(source.from),
      where ? sql` where ${where}` : sql``,
      sql` order by ${sql.join(q.orderBy, sql`, `)} limit ${limit} offset ${offset}`,
    ]);
  const query = shape ? shapedQuery(shape.key, shape.binder, build) : dialect.sqlToQuery(build());
  return runList(db, query, extras.length ? [...source.fields, ...orderedFields(extra)] : source.fields);
}

/** One page of a list's rows: `query` (a drizzle select) under the list's filter, in the order and window asked for (runList). */
export function pageRows<R>(
  db: Db | Tx,
  query: PagedSelect<R>,
  where: SQL | undefined,
  q: { limit: number; offset: number; orderBy: SQL[] },
): Promise<R[]> {
  const page = query
    .where(where)
    .orderBy(...q.orderBy)
    .limit(q.limit)
    .offset(q.offset);
  return runList(db, page.toSQL(), orderedFields(page._.selectedFields));
}

/** The number of rows of `table` matching `where` (a list's exact count; runList, as a full page asks it every time). */
export async function countRows(db: Db | Tx, table: PgTable, where: SQL | undefined): Promise<number> {
  const query = db.select({ n: count() }).from(table).where(where);
  return (await runList<{ n: number }>(db, query.toSQL(), orderedFields(query._.selectedFields)))[0]?.n ?? 0;
}

/** Runs a paged list: one query for the rows, and a count only when the page is full. */
export async function paginate<F extends string, T>(p: PageParams, spec: ListSpec<F, T>): Promise<Page<T>> {
  const offset = p.page * p.size;
  const orderBy = orderByOf(p.sort, spec.columns, spec.defaultOrder);
  const content = await spec.fetch({ limit: p.size, offset, orderBy });
  const short = content.length < p.size && (content.length > 0 || offset === 0);
  const totalElements = short ? offset + content.length : await spec.count();
  return { content, totalElements };
}

/** Export batches: every row matching the filters in the list's order, `batchSize` at a time, up to `max`. */
export async function* allRows<F extends string, T>(
  p: Pick<PageParams, 'sort'>,
  spec: Pick<ListSpec<F, T>, 'columns' | 'defaultOrder' | 'fetch'>,
  opts: { batchSize?: number; max?: number } = {},
): AsyncGenerator<T[]> {
  const batchSize = opts.batchSize ?? 1000;
  const max = opts.max ?? EXPORT_MAX_ROWS;
  const orderBy = orderByOf(p.sort, spec.columns, spec.defaultOrder);
  for (let offset = 0; offset < max; offset += batchSize) {
    const rows = await spec.fetch({ limit: Math.min(batchSize, max - offset), offset, orderBy });
    if (rows.length) yield rows;
    if (rows.length < batchSize) return;
  }
}

/** At most this many rows go into one export file. */
export const EXPORT_MAX_ROWS = 100_000;

/** Above this estimate an unfiltered count of a log table answers the estimate (see the file header). */
export const ESTIMATE_OVER = 100_000;

/** Exact count, or the planner's estimate for an unfiltered list of a very large table. */
export async function countOrEstimate(
  db: Db,
  table: string,
  filtered: boolean,
  exact: () => Promise<number>,
): Promise<number> {
  if (!filtered) {
    const res = await db.execute<{ n: number | string | null }>(
      sql`select reltuples::bigint as n from pg_class where oid = to_regclass(${table})`,
    );
    const estimate = Number(res.rows[0]?.n ?? -1);
    if (estimate > ESTIMATE_OVER) return estimate;
  }
  return exact();
}
