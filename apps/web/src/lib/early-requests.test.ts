import { describe, expect, it } from 'vitest';
import { EARLY_DASHBOARD_URL, EARLY_URLS, firstLoadUrls } from './early-requests.ts';

describe('what a page load asks at once', () => {
  const at = (path: string) => {
    const url = new URL(path, 'http://localhost');
    return { pathname: url.pathname, search: url.search };
  };

  it('signed out: only the init check', () => {
    expect(firstLoadUrls(at('/piibs/dashboard'), false)).toEqual([EARLY_URLS.init]);
  });

  it("signed in: the guard's four answers, and on the dashboard with its default range its figures too", () => {
    const guard = Object.values(EARLY_URLS);
    expect(firstLoadUrls(at('/piibs/dashboard'), true)).toEqual([...guard, EARLY_DASHBOARD_URL]);
    // Another range, or another page: the page asks when it knows what to ask.
    expect(firstLoadUrls(at('/piibs/dashboard?from=2026-01-01&to=2026-01-31'), true)).toEqual(guard);
    expect(firstLoadUrls(at('/piibs/system/user'), true)).toEqual(guard);
  });
});
