import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { Binder, shapedQuery, shapeStats } from './statement-shapes.ts';

/** A statement of one shape: a column compared with a bound value, for `user`. */
function ownedBy(shape: string, user: number) {
  const binder = new Binder();
  const value = binder.bind(user);
  return shapedQuery(shape, binder, () => sql`select id from application where owner_id = ${value}`);
}

describe('a statement rendered once per shape', () => {
  it("fills the first caller's text with each later caller's own values", () => {
    const first = ownedBy('shapes: owner', 7);
    const filled = shapeStats.filled;
    const second = ownedBy('shapes: owner', 8);
    expect(first).toEqual({ sql: 'select id from application where owner_id = $1', params: [7] });
    expect(second).toEqual({ sql: first.sql, params: [8] });
    expect(shapeStats.filled).toBe(filled + 1);
  });

  it('never keeps a statement with a value not bound to a placeholder: the next caller gets its own value', () => {
    const unbound = (user: number) =>
      shapedQuery(
        'shapes: unbound',
        new Binder(),
        () => sql`select id from application where owner_id = ${user}`,
      );
    expect(unbound(7).params).toEqual([7]);
    expect(unbound(8).params).toEqual([8]);
    // Bound and unbound values together: each filled in.
    const mixed = (user: number) => {
      const binder = new Binder();
      const agent = binder.bind(user);
      return shapedQuery('shapes: mixed', binder, () => sql`select ${user} where ${agent} > 0`);
    };
    expect(mixed(7).params).toEqual([7, 7]);
    expect(mixed(8).params).toEqual([8, 8]);
  });

  it('stops on a shape whose text differs from its first (a key that misses part of the statement)', () => {
    ownedBy('shapes: loose', 7);
    const binder = new Binder();
    const value = binder.bind(8);
    expect(() =>
      shapedQuery('shapes: loose', binder, () => sql`select id from application where agent_id = ${value}`),
    ).toThrow(/renders another text/);
    const more = new Binder();
    const [a, b] = [more.bind(1), more.bind(2)];
    expect(() =>
      shapedQuery(
        'shapes: loose',
        more,
        () => sql`select id from application where owner_id in (${a}, ${b})`,
      ),
    ).toThrow(/takes 1 values, this one 2/);
  });
});
