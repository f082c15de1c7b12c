import { vi } from 'vitest';
import { PHONE } from '@/lib/use-phone.ts';

/** The window answers as a phone's (under 576 px wide) until `vi.restoreAllMocks()`; other queries as before. */
export function onPhone(): void {
  const wide = window.matchMedia;
  vi.spyOn(window, 'matchMedia').mockImplementation((query) =>
    query === PHONE ? { ...wide(query), matches: true } : wide(query),
  );
}
