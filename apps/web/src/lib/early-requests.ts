import { authorization, getToken } from './auth-storage.ts';
import { HOME_PATH } from './paths.ts';
import { ApiError, apiErrorOf, requestInline } from './request-inline.ts';

/** Asked on a signed-in page load: whether the system is set up, the user, their role summary, their menus. */
export const EARLY_URLS = Object.freeze({
  init: 'api/init/check',
  info: 'api/auth/info',
  role: 'api/auth/getUserRole',
  menus: 'api/menus/build',
});

/** The dashboard's figures for its default range (features/dashboard/api.ts takes them). */
export const EARLY_DASHBOARD_URL = 'api/dashboard';

/**
 * What a new application's first step shows at once (features/application/api.ts takes them): the products on
 * offer and the approved customers the caller may apply for, the applicant line's answer.
 */
export const EARLY_WIZARD_URLS = Object.freeze({
  products: 'api/products/available',
  customers: 'api/customers?reviewStatus=approved&page=0&size=50&sort=name,asc',
});

/** A new application's first step in any of the three wizards (features/application/flows.ts). */
const NEW_APPLICATION_FIRST_STEP = /^\/piibs\/(insured|epinsure|agent)\/stepOne\/0(\/[12])?\/?$/;

/**
 * What a page load asks at once: signed out, the init check; signed in, the guard's four answers, and the
 * dashboard's figures when the tab opens on the dashboard with its default range (no from / to in the address),
 * or a new application's products and customers when it opens on a wizard's first step. Any other page asks for
 * its data once its code has run.
 */
export function firstLoadUrls(
  { pathname, search }: Pick<Location, 'pathname' | 'search'>,
  signedIn: boolean,
): string[] {
  if (!signedIn) return [EARLY_URLS.init];
  const params = new URLSearchParams(search);
  const dashboard = pathname === HOME_PATH && !params.has('from') && !params.has('to');
  const page = dashboard
    ? [EARLY_DASHBOARD_URL]
    : NEW_APPLICATION_FIRST_STEP.test(pathname)
      ? Object.values(EARLY_WIZARD_URLS)
      : [];
  return [...Object.values(EARLY_URLS), ...page];
}

type Early = { token: string | null; answer: Promise<unknown>; at: number };

/**
 * How long an early answer may stand in for the page's own request: the page it was asked for normally takes it
 * within a second or two; one left untaken (the guard sent the tab elsewhere) must not show a later visit stale data.
 */
const EARLY_MAX_AGE_MS = 30_000;

/**
 * GET `url` as requestInline would answer it, with fetch: fetch sends at once, where the HTTP client sends only
 * after the script that called it (the router's set-up) has run. A network failure is asked again through the
 * client, which tells the user.
 */
async function fetchEarly(url: string): Promise<unknown> {
  try {
    const auth = authorization();
    const res = await fetch(`/${url}`, { headers: auth ? { Authorization: auth } : {} });
    const body: unknown = await res.json().catch(() => null);
    if (res.ok) return body;
    throw apiErrorOf(res.status, body);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    return requestInline<unknown>({ url, method: 'get' });
  }
}

const early = new Map<string, Early>();

/**
 * Sends GET requests at once whose answers later steps take (`takeEarly`): on a first load the guard's init
 * check, user, role and menus would otherwise go one after the other, each waiting for the last (four round
 * trips before the page can start). Errors come back as the caller's own request would give them
 * (requestInline's ApiError); an answer nobody takes is dropped.
 */
export function requestEarly(urls: readonly string[]): void {
  const token = getToken();
  for (const url of urls) {
    const answer = fetchEarly(url);
    answer.catch(() => {});
    early.set(url, { token, answer, at: Date.now() });
  }
}

/**
 * The early answer for `url`, once, and only while the session it was asked with is still the tab's (a
 * hand-off or a new sign-in in between must ask again) and for EARLY_MAX_AGE_MS; undefined otherwise.
 */
export function takeEarly<T>(url: string): Promise<T> | undefined {
  const entry = early.get(url);
  early.delete(url);
  const fresh = entry && entry.token === getToken() && Date.now() - entry.at <= EARLY_MAX_AGE_MS;
  return fresh ? (entry.answer as Promise<T>) : undefined;
}

/**
 * The early answer for `url` (takeEarly), else `ask()`; an early answer that failed is asked again with `ask`, so
 * the caller's own client reports the error as it would have.
 */
export function earlyOr<T>(url: string, ask: () => Promise<T>): Promise<T> {
  return takeEarly<T>(url)?.catch(ask) ?? ask();
}

/** The early answer for `url` (takeEarly), or the same GET asked now, as requestInline answers it. */
export function earlyOrNow<T>(url: string): Promise<T> {
  return takeEarly<T>(url) ?? requestInline<T>({ url, method: 'get' });
}

/** Drops every early answer not taken; for tests. */
export function dropEarly(): void {
  early.clear();
}
