import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PHONE, useActionsFixed, usePhone } from './use-phone.ts';

/** A window whose width can be changed: the phone query matches under 576 px. */
function windowOf(width: number) {
  const listeners = new Set<() => void>();
  const state = { width };
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query) =>
      ({
        media: query,
        get matches() {
          return query === PHONE && state.width < 576;
        },
        addEventListener: (_: string, listener: () => void) => listeners.add(listener),
        removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
      }) as unknown as MediaQueryList,
  );
  return (next: number) => {
    state.width = next;
    for (const listener of listeners) listener();
  };
}

afterEach(() => vi.restoreAllMocks());

describe('usePhone', () => {
  it('is right on the first render and follows a rotation', () => {
    const resize = windowOf(375);
    const { result } = renderHook(() => usePhone());
    expect(result.current).toBe(true);
    act(() => resize(812));
    expect(result.current).toBe(false);
    act(() => resize(320));
    expect(result.current).toBe(true);
  });

  it('a table fixes its actions column at the end, but not on a phone', () => {
    windowOf(1280);
    expect(renderHook(() => useActionsFixed()).result.current).toBe('right');
    windowOf(375);
    expect(renderHook(() => useActionsFixed()).result.current).toBeUndefined();
  });
});
