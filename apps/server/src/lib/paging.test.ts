import { describe, expect, it } from 'vitest';
import { applications } from '../db/schema.ts';
import { CountCache, CURSOR_INVALID, decodeCursor, encodeCursor, keysetOrder } from './keyset.ts';

const FIELDS = {
  updatedAt: { column: applications.updatedAt, kind: 'timestamp' as const },
  number: { column: applications.number, kind: 'text' as const },
};

describe('keyset orders and cursors', () => {
  it('one NOT NULL sort field (or none: id desc) pages by cursor; several or others do not', () => {
    expect(keysetOrder(undefined, FIELDS, applications.id)?.signature).toBe('id,desc');
    expect(keysetOrder('updatedAt,asc', FIELDS, applications.id)?.signature).toBe('updatedAt,asc');
    expect(keysetOrder('number', FIELDS, applications.id)?.signature).toBe('number,asc');
    expect(keysetOrder('premiumFen,desc', FIELDS, applications.id)).toBeNull();
    expect(keysetOrder(['updatedAt,desc', 'number,asc'], FIELDS, applications.id)).toBeNull();
  });

  it('a cursor round-trips for its order only, and keys that would upset PostgreSQL are refused', () => {
    const order = keysetOrder('updatedAt,desc', FIELDS, applications.id)!;
    const key = '2026-03-01T02:00:00.123456Z';
    expect(decodeCursor(order, encodeCursor(order, key, 42))).toEqual({ key, id: 42 });
    const other = keysetOrder('updatedAt,asc', FIELDS, applications.id)!;
    const bad = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const text of [
      encodeCursor(other, key, 42),
      bad(['updatedAt,desc', '2026-02-30T00:00:00.000000Z', 1]),
      bad(['updatedAt,desc', '0000-01-01T00:00:00.000000Z', 1]),
      bad(['updatedAt,desc', key, 1.5]),
      bad(['updatedAt,desc', key]),
      bad({ key, id: 1 }),
      '%%%',
    ])
      expect(() => decodeCursor(order, text)).toThrow(CURSOR_INVALID);
    expect(() => decodeCursor(null, encodeCursor(order, key, 42))).toThrow(CURSOR_INVALID);
  });
});

describe('CountCache', () => {
  const counter = (values: number[]) => {
    let calls = 0;
    return {
      fn: async () => values[Math.min(calls++, values.length - 1)]!,
      calls: () => calls,
    };
  };

  it('answers a count again for the same key and version; a new version recounts first', async () => {
    const cache = new CountCache();
    const c = counter([5, 6]);
    expect(await cache.get('k', 'v1', c.fn)).toBe(5);
    expect(await cache.get('k', 'v1', c.fn)).toBe(5);
    expect(await cache.get('k', 'v2', c.fn)).toBe(6);
    expect([c.calls(), cache.hits, cache.misses]).toEqual([2, 1, 2]);
  });

  it('after its time to live answers the cached count once more while one recount runs', async () => {
    const cache = new CountCache({ ttlMs: 0 });
    const c = counter([5, 7]);
    expect(await cache.get('k', 'v1', c.fn)).toBe(5);
    expect(await Promise.all([cache.get('k', 'v1', c.fn), cache.get('k', 'v1', c.fn)])).toEqual([5, 5]);
    await new Promise((r) => setTimeout(r, 0));
    expect(c.calls()).toBe(2);
    expect(await cache.get('k', 'v1', c.fn)).toBe(7);
  });

  it('concurrent misses of one key share one count', async () => {
    const cache = new CountCache();
    const c = counter([9]);
    const all = await Promise.all(Array.from({ length: 10 }, () => cache.get('k', 'v1', c.fn)));
    expect(all).toEqual(Array(10).fill(9));
    expect(c.calls()).toBe(1);
  });
});
