import { describe, expect, it } from 'vitest';
import { readRange, shortcutOf, shortcutRange, withRange } from './range.ts';

const TODAY = '2026-03-15';

describe('the range in the URL', () => {
  it('reads a valid range, ignores anything else (the default applies)', () => {
    expect(readRange(new URLSearchParams('from=2026-03-01&to=2026-03-15'))).toEqual({
      from: '2026-03-01',
      to: '2026-03-15',
    });
    for (const bad of [
      '',
      'from=2026-03-01',
      'from=2026-02-30&to=2026-03-01',
      'from=2026-03-02&to=2026-03-01',
      'from=2024-01-01&to=2025-12-31',
    ])
      expect(readRange(new URLSearchParams(bad))).toBeNull();
  });

  it('the shortcuts', () => {
    expect(shortcutRange('today', TODAY)).toEqual({ from: TODAY, to: TODAY });
    expect(shortcutRange('last7', TODAY)).toEqual({ from: '2026-03-09', to: TODAY });
    expect(shortcutRange('last30', TODAY)).toEqual({ from: '2026-02-14', to: TODAY });
    expect(shortcutRange('month', TODAY)).toEqual({ from: '2026-03-01', to: TODAY });
    expect(shortcutRange('year', TODAY)).toEqual({ from: '2025-03-16', to: TODAY });
    expect(shortcutOf(null, TODAY)).toBe('last30');
    expect(shortcutOf({ from: '2026-03-09', to: TODAY }, TODAY)).toBe('last7');
    expect(shortcutOf({ from: '2026-03-02', to: TODAY }, TODAY)).toBeNull();
  });

  it('the default range is no parameters; other parameters are kept', () => {
    const search = new URLSearchParams('tab=x&from=2026-03-01&to=2026-03-02');
    expect(withRange(search, shortcutRange('last30', TODAY), TODAY).toString()).toBe('tab=x');
    expect(withRange(search, { from: TODAY, to: TODAY }, TODAY).toString()).toBe(
      'tab=x&from=2026-03-15&to=2026-03-15',
    );
  });
});
