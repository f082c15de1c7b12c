// A list's statement rendered once per shape. Rendering a drizzle SQL tree walks every chunk (a list page's
// statement: its scope, filters, union of branches and select list) at each request; the text depends only on the
// shape of the request (which scope branches, which filters, the order, the page size), not on its values. A shaped
// statement is built with a placeholder for every value (`Binder.bind`), rendered at its shape's first use, and
// later requests of that shape only fill the placeholders with their own values.
//
// Safety: a rendered statement is kept only when every one of its parameters is a placeholder (a value written as
// a plain parameter would otherwise be answered to the next caller of the shape), and a filled one must take as many
// values as its shape's. Under test every request renders its statement anyway and stops on a text that differs
// from its shape's: a shape key that misses something the text depends on fails the suite.

import { fillPlaceholders, Param, Placeholder, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

const dialect = new PgDialect();

/** A value as it goes into a statement: itself, or bound to a shaped statement's placeholder (Binder.bind). */
export type Bind = <T>(value: T) => T | Placeholder<string, T>;
export const asIs: Bind = (value) => value;

/** The values of one request's statement, each bound to a placeholder named in binding order. */
export class Binder {
  readonly values: Record<string, unknown> = {};
  private n = 0;

  /** The value as a placeholder of this statement (where the SQL would take the value itself); a Bind. */
  readonly bind = <T>(value: T): Placeholder<string, T> => {
    const name = `v${this.n++}`;
    this.values[name] = value;
    return sql.placeholder(name) as Placeholder<string, T>;
  };

  get count(): number {
    return this.n;
  }
}

interface Rendered {
  sql: string;
  params: unknown[];
  /** How many values its placeholders take. */
  count: number;
}

const MAX_SHAPES = 500;
const shapes = new Map<string, Rendered>();
const checkEveryRender = process.env.VITEST !== undefined;
/** How many statements were filled from their shape's, for the tests. */
export const shapeStats = { filled: 0 };

/** A parameter that takes a bound value (eq() keeps a placeholder as it is; sql.param() wraps one). */
const isPlaceholder = (p: unknown) =>
  p instanceof Placeholder || (p instanceof Param && p.value instanceof Placeholder);

/**
 * The statement of `shape` with `binder`'s values. `build` composes it from parts whose values are already bound to
 * `binder` (it binds nothing itself); it runs and is rendered at the shape's first use, and under test at every use.
 * `shape` must name everything the statement's text depends on. A statement with a value not bound as a placeholder
 * is rendered every time and never kept.
 */
export function shapedQuery(
  shape: string,
  binder: Binder,
  build: () => SQL,
): { sql: string; params: unknown[] } {
  const known = shapes.get(shape);
  if (known && known.count === binder.count) {
    if (checkEveryRender) {
      const fresh = dialect.sqlToQuery(build()).sql;
      if (fresh !== known.sql)
        throw new Error(`statement shape ${shape} renders another text:\n${known.sql}\n---\n${fresh}`);
    }
    shapeStats.filled++;
    return { sql: known.sql, params: fillPlaceholders(known.params, binder.values) };
  }
  if (known && checkEveryRender)
    throw new Error(`statement shape ${shape} takes ${known.count} values, this one ${binder.count}`);
  const query = dialect.sqlToQuery(build());
  if (query.params.every(isPlaceholder)) {
    if (shapes.size >= MAX_SHAPES) shapes.clear();
    shapes.set(shape, { ...query, count: binder.count });
  }
  return { sql: query.sql, params: fillPlaceholders(query.params, binder.values) };
}
