// Where a page starts from in a set of page anchors, and the cache that shares and keeps them. The anchors'
// reading and guards run against the database in modules/applications/list-paging.test.ts.
import { describe, expect, it } from 'vitest';
import { AnchorCache, type AnchorSet, anchorFor } from './page-anchors.ts';

/** Anchors of a list of `total` rows every `stride`: anchor j is row (j + 1) * stride - 1 (its id here). */
const setOf = (total: number, stride: number): AnchorSet => ({
  version: '7',
  inputs: '',
  total,
  anchors: Array.from({ length: Math.floor(total / stride) }, (_, j) => ({
    key: '',
    id: (j + 1) * stride - 1,
  })),
});

describe('anchorFor', () => {
  it('starts after the last anchor at or before the page, skipping fewer than a stride', () => {
    const set = setOf(1005, 200);
    expect(anchorFor(set, 200, 0)).toBeNull();
    expect(anchorFor(set, 200, 180)).toBeNull();
    expect(anchorFor(set, 200, 200)).toEqual({ anchor: { key: '', id: 199 }, skip: 0 });
    expect(anchorFor(set, 200, 399)).toEqual({ anchor: { key: '', id: 199 }, skip: 199 });
    expect(anchorFor(set, 200, 1000)).toEqual({ anchor: { key: '', id: 999 }, skip: 0 });
    expect(anchorFor(set, 200, 1004)).toEqual({ anchor: { key: '', id: 999 }, skip: 4 });
  });

  it('answers nothing past the end of the list the anchors were read from', () => {
    expect(anchorFor(setOf(1005, 200), 200, 1005)).toBeNull();
    expect(anchorFor(setOf(1000, 200), 200, 1000)).toBeNull();
    expect(anchorFor(setOf(0, 200), 200, 400)).toBeNull();
  });
});

describe('AnchorCache', () => {
  it('shares one computation among concurrent requests and keeps its set', async () => {
    const cache = new AnchorCache({ stride: 10 });
    let runs = 0;
    const compute = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 10));
      return setOf(100, 10);
    };
    const [a, b] = await Promise.all([cache.load('k', compute), cache.load('k', compute)]);
    expect(runs).toBe(1);
    expect(a).toBe(b);
    expect(cache.peek('k')).toBe(a);
    expect([cache.computed, cache.refused]).toEqual([1, 0]);
  });

  it('keeps nothing a computation refused, and drops a set only at the version it was read at', async () => {
    const cache = new AnchorCache();
    expect(await cache.load('k', async () => null)).toBeNull();
    expect(cache.peek('k')).toBeUndefined();
    expect([cache.computed, cache.refused]).toEqual([1, 1]);
    await cache.load('k', async () => setOf(1000, 200));
    cache.drop('k', '6');
    expect(cache.peek('k')).toBeDefined();
    cache.drop('k', '7');
    expect(cache.peek('k')).toBeUndefined();
  });

  it('holds at most maxEntries sets', async () => {
    const cache = new AnchorCache({ maxEntries: 2 });
    for (const k of ['a', 'b', 'c']) await cache.load(k, async () => setOf(10, 200));
    expect([cache.peek('a'), cache.peek('b')]).toEqual([undefined, undefined]);
    expect(cache.peek('c')).toBeDefined();
  });
});
