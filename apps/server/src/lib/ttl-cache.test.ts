import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.ts';

describe('TtlCache', () => {
  it('entries expire, failures are not kept, and the oldest entry goes first when full', async () => {
    const cache = new TtlCache<number>(1000, 2);
    let n = 0;
    const next = async () => ++n;
    expect(await cache.get('a', next, 0)).toBe(1);
    expect(await cache.get('a', next, 999)).toBe(1);
    expect(await cache.get('a', next, 1000)).toBe(2);
    await expect(cache.get('b', () => Promise.reject(new Error('x')), 0)).rejects.toThrow('x');
    expect(await cache.get('b', next, 1)).toBe(3);
    await cache.get('c', next, 1);
    expect(await cache.get('a', next, 1)).toBe(5);
  });
});
