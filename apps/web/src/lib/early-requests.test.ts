import { afterEach, describe, expect, it, vi } from 'vitest';
import { approvedCustomersParams } from '@/features/application/api.ts';
import { FLOWS } from '@/features/application/flows.ts';
import {
  dropEarly,
  EARLY_DASHBOARD_URL,
  EARLY_URLS,
  EARLY_WIZARD_URLS,
  firstLoadUrls,
  requestEarly,
  takeEarly,
} from './early-requests.ts';
import { urlOf } from './http.ts';

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

  it("signed in on a new application's first step (every wizard): its products and customers too", () => {
    const guard = Object.values(EARLY_URLS);
    const wizard = Object.values(EARLY_WIZARD_URLS);
    for (const flow of Object.values(FLOWS)) {
      const first = `${flow.base}/${flow.steps[0]!.path}`;
      expect(firstLoadUrls(at(`${first}/0/1`), true)).toEqual([...guard, ...wizard]);
      expect(firstLoadUrls(at(`${first}/0/2`), true)).toEqual([...guard, ...wizard]);
      // A saved draft shows its own applicant; a later step, what was saved on the first.
      expect(firstLoadUrls(at(`${first}/12/1`), true)).toEqual(guard);
      expect(firstLoadUrls(at(`${flow.base}/${flow.steps[1]!.path}/0/1`), true)).toEqual(guard);
    }
    expect(firstLoadUrls(at('/piibs/insured/stepOne/0/1'), false)).toEqual([EARLY_URLS.init]);
  });

  it("asks the customers exactly as the wizard's own query does", () => {
    expect(`/${EARLY_WIZARD_URLS.customers}`).toBe(urlOf('api/customers', approvedCustomersParams('')));
  });
});

describe('an early answer', () => {
  afterEach(() => {
    dropEarly();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('is taken once, within 30 s of being asked: a page reached later asks again and gets fresh data', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.stubGlobal('fetch', async () => Response.json({ figures: 1 }));
    requestEarly([EARLY_DASHBOARD_URL]);
    vi.advanceTimersByTime(29_000);
    expect(await takeEarly(EARLY_DASHBOARD_URL)).toEqual({ figures: 1 });
    expect(takeEarly(EARLY_DASHBOARD_URL)).toBeUndefined();

    requestEarly(Object.values(EARLY_WIZARD_URLS));
    vi.advanceTimersByTime(31_000);
    expect(takeEarly(EARLY_WIZARD_URLS.products)).toBeUndefined();
    expect(takeEarly(EARLY_WIZARD_URLS.customers)).toBeUndefined();
  });
});
