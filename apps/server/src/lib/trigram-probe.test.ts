import { describe, expect, it } from 'vitest';
import { probeOf } from './trigram-probe.ts';

describe('the part of a search key a keyword search asks the trigram index for', () => {
  // Every application number of 2026 holds "202", "026" and "260"; the serials starting 01… hold "601", "017".
  const frequent = new Set(['azx', 'zx2', 'x20', '202', '026', '260', '601', '017']);

  it("is the key's longest run of rare trigrams: a number's serial, not its year", () => {
    expect(probeOf('26017348', frequent)).toBe('17348');
    expect(probeOf('azx2026017348', frequent)).toBe('17348');
    // The rare trigrams between frequent ones (609, 092, 920 between 260 and 202).
    expect(probeOf('2609202', new Set(['260', '202']))).toBe('60920');
  });

  it('is the whole key when none of its trigrams is frequent, or all are, or nothing is known yet', () => {
    expect(probeOf('17348', frequent)).toBe('17348');
    expect(probeOf('2026017', frequent)).toBe('2026017');
    expect(probeOf('26017348', undefined)).toBe('26017348');
    expect(probeOf('26017348', new Set())).toBe('26017348');
    expect(probeOf('ab', frequent)).toBe('ab');
  });

  it('keeps within a word (pg_trgm takes no trigram across a space), the later of equal runs', () => {
    expect(probeOf('260 abcd 2026 wxyz', frequent)).toBe('wxyz');
    expect(probeOf('abcde 260 wxyz', frequent)).toBe('abcde');
    // Always a part of the key, so every row holding the key holds it.
    for (const key of ['260 abcd 2026 wxyz', 'azx2026017348', 'q 2601 7348x'])
      expect(key).toContain(probeOf(key, frequent));
  });
});
