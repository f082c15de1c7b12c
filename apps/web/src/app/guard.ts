// The navigation guard (spec §2 access rules, §4 session states): a pure decision function, and the thin
// glue that runs it as the root route's loader on every navigation.
import { type LoaderFunctionArgs, replace } from 'react-router';
import { getToken } from '@/lib/auth-storage.ts';
import { EARLY_URLS, earlyOrNow } from '@/lib/early-requests.ts';
import { HOME_PATH, NOT_FOUND_PATH } from '@/lib/paths.ts';
import { ApiError } from '@/lib/request-inline.ts';
import { usePermissionStore } from '@/stores/permission.ts';
import { useUserStore } from '@/stores/user.ts';

const LOGIN_PATH = '/piibs/login';
const INIT_PATH = '/piibs/init';

/**
 * Reachable without a token. The spec names login, init and CAlogin; the others must be open too:
 * - loginEP is a sign-in page (for project-insurance enterprises);
 * - 404 and 401 are where unknown paths and 403 answers land, also before sign-in (the contract's catch-all);
 * - insured/start and api/loginByManange bring their own hand-off token and sign the user in themselves;
 * - redirect/* only re-navigates to the path after it, which the guard then checks.
 */
const OPEN_PATHS = new Set([
  LOGIN_PATH,
  INIT_PATH,
  '/piibs/CAlogin',
  '/piibs/loginEP',
  NOT_FOUND_PATH,
  '/piibs/401',
  '/piibs/insured/start',
  '/piibs/api/loginByManange',
]);
const OPEN_PREFIXES = ['/piibs/redirect/'];

/**
 * Public pages: open to anyone whatever session the tab holds, so a stale token never turns them into a
 * sign-in. Only the verification of one code (/piibs/verify/:code, where the e-policy's QR code points):
 * exactly one non-empty segment after the prefix, nothing below it.
 */
const PUBLIC_PAGE = /^\/piibs\/verify\/[^/]+\/?$/;

/** Spec §2: "/piibs/logged and the login routes redirect to piibs/dashboard when a token exists". */
const SIGNED_IN_ELSEWHERE = new Set([LOGIN_PATH, '/piibs/CAlogin', '/piibs/loginEP', '/piibs/logged']);

/** Hand-off pages: they exchange the token in their query for a session, whatever session the tab had. */
const HANDOFF_PATHS = new Set(['/piibs/insured/start', '/piibs/api/loginByManange']);

/** Paths that only redirect onwards (/ and /piibs go to the dashboard, which the guard then checks). */
const FORWARDING_PATHS = new Set(['/', '/piibs', '/piibs/']);

/**
 * Areas of the signed-in app whose routes come from the server's menus (spec §2 "Routes under the layout",
 * plus eladmin's administration areas). Before sign-in those routes do not exist yet, so an unknown path in
 * one of them is a bookmark that needs a sign-in, not a 404.
 */
const MENU_AREAS = [
  'epinsure',
  'insured',
  'riskControl',
  'policy',
  'applicant',
  'product',
  'task',
  'projectManage',
  'agent',
  'user',
  'system',
  'monitor',
  'tools',
];

export type AccessInput = {
  /** Path name of the target. */
  path: string;
  /** Path with its query string: what the login page returns to. */
  fullPath: string;
  /** Whether the system is set up; the guard asks GET /api/init/check. */
  initialized: boolean;
  hasToken: boolean;
  /** The user's roles are known (empty roles mean the user info has not been loaded). */
  hasRoles: boolean;
  /** Spec §4 loadMenus flag. */
  loadMenus: boolean;
  /** A route other than the 404 catch-all matches the path. */
  knownRoute: boolean;
};

export type AccessDecision =
  | { action: 'allow'; rule: string }
  | { action: 'redirect'; to: string; rule: string }
  /** Load the user (info + role); on failure log out and go to the login page. */
  | { action: 'loadInfo'; rule: string }
  /** Load the menus, clear the flag, then repeat the navigation. */
  | { action: 'loadMenus'; rule: string };

function isOpenPath(path: string): boolean {
  return OPEN_PATHS.has(path) || OPEN_PREFIXES.some((prefix) => path.startsWith(prefix));
}

function isMenuArea(path: string): boolean {
  const area = /^\/piibs\/([^/]+)\//.exec(`${path}/`)?.[1];
  return area !== undefined && MENU_AREAS.includes(area);
}

function loginRedirect(fullPath: string): string {
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(fullPath)}`;
}

/** What the guard does with a navigation, rule by rule in the spec's order. */
export function decideAccess(input: AccessInput): AccessDecision {
  const { path } = input;
  if (!input.initialized) {
    return path === INIT_PATH
      ? { action: 'allow', rule: 'first-run setup' }
      : { action: 'redirect', to: INIT_PATH, rule: 'not initialised: every page leads to /piibs/init' };
  }
  if (FORWARDING_PATHS.has(path)) {
    return { action: 'allow', rule: '/ and /piibs go to the dashboard first' };
  }
  if (HANDOFF_PATHS.has(path)) {
    return { action: 'allow', rule: 'hand-off pages bring their own token' };
  }
  if (PUBLIC_PAGE.test(path)) {
    return { action: 'allow', rule: 'public page (policy verification)' };
  }
  if (input.hasToken) {
    if (SIGNED_IN_ELSEWHERE.has(path)) {
      return { action: 'redirect', to: HOME_PATH, rule: 'logged and login routes redirect to the dashboard' };
    }
    if (!input.hasRoles) return { action: 'loadInfo', rule: 'token without roles: load the user info' };
    if (input.loadMenus) return { action: 'loadMenus', rule: 'first navigation after login: load the menus' };
    return { action: 'allow', rule: 'signed in' };
  }
  if (isOpenPath(path)) return { action: 'allow', rule: 'reachable without a token' };
  if (!input.knownRoute && !isMenuArea(path)) {
    // Straight to the 404 page: inside the layout's splat an unknown path would wait for menus that a
    // visitor without a token never loads.
    return { action: 'redirect', to: NOT_FOUND_PATH, rule: 'unknown path: the catch-all shows 404' };
  }
  return {
    action: 'redirect',
    to: loginRedirect(input.fullPath),
    rule: 'unauthenticated: login with redirect',
  };
}

// ---- glue ----

let initializedForPage = false;

/**
 * GET /api/init/check, asked once per page load: only a positive answer is kept, because the setup page
 * flips it without a reload. A failed check lets the navigation through. It bypasses the error policy:
 * a 403 there would navigate, and that navigation would run this check again, forever.
 */
async function checkInitialized(): Promise<boolean> {
  if (initializedForPage) return true;
  try {
    const { initialized } = await earlyOrNow<{ initialized: boolean }>(EARLY_URLS.init);
    initializedForPage = initialized;
    return initialized;
  } catch {
    return true;
  }
}

export type GuardDeps = {
  checkInitialized: () => Promise<boolean>;
  /** Whether a route other than the catch-all matches a path. */
  isKnownRoute: (path: string) => boolean;
};

/** Forgets the cached init answer; for tests. */
export function resetGuard(): void {
  initializedForPage = false;
}

/** How many times this page was hidden to leave it (pagehide). */
let pageHides = 0;
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    pageHides++;
  });
}

/** How long a request that got no answer waits before it counts as a failure rather than a page being left. */
const LEAVE_GRACE_MS = 300;

/**
 * Whether a request that got no answer at all (no HTTP status: a network failure, a timeout, a cut-off) failed
 * while the page stays. Leaving the page (a reload, an address typed over it) cuts off its requests; the page's
 * timers then never run, or run after its pagehide. Such a cut-off is not the server refusing the user.
 */
async function failedWhilePageStays(error: unknown, hidesAtAsking: number): Promise<boolean> {
  if (error instanceof ApiError) return true;
  await new Promise((resolve) => setTimeout(resolve, LEAVE_GRACE_MS));
  return pageHides === hidesAtAsking;
}

/** Runs the access rules for one navigation: null to go ahead, or a redirect response. */
export async function guardNavigation(url: URL, deps: GuardDeps): Promise<Response | null> {
  const path = url.pathname;
  const fullPath = `${path}${url.search}`;
  const initialized = await deps.checkInitialized();
  // Two rounds at most: user info, then the menus.
  for (let round = 0; round < 3; round++) {
    const user = useUserStore.getState();
    const decision = decideAccess({
      path,
      fullPath,
      initialized,
      hasToken: Boolean(getToken()),
      hasRoles: user.roles.length > 0,
      loadMenus: user.loadMenus,
      knownRoute: deps.isKnownRoute(path),
    });
    switch (decision.action) {
      case 'allow':
        return null;
      case 'redirect':
        return replace(decision.to);
      case 'loadInfo': {
        const hides = pageHides;
        try {
          await user.getInfo();
        } catch (error) {
          // A page being left ends here; one kept in the back-forward cache asks again when it comes back.
          if (!(await failedWhilePageStays(error, hides))) return replace(fullPath);
          // Spec §4/§8: user info cannot be loaded → the user is logged out.
          await user.endSession();
          return replace(loginRedirect(fullPath));
        }
        // As the original: once the user is known, its menus are loaded and the navigation repeated.
        useUserStore.getState().setLoadMenus(true);
        break;
      }
      case 'loadMenus':
        useUserStore.getState().setLoadMenus(false);
        try {
          await usePermissionStore.getState().loadMenus();
        } catch {
          // The HTTP client has shown the error; the app stays usable without server menus.
          return null;
        }
        // Repeat the navigation so it matches the routes the menus just added.
        return replace(fullPath);
    }
  }
  return null;
}

/** The root route's loader. */
export function createGuardLoader(isKnownRoute: GuardDeps['isKnownRoute']) {
  return async ({ request: req }: LoaderFunctionArgs) => {
    const redirect = await guardNavigation(new URL(req.url), { checkInitialized, isKnownRoute });
    if (redirect) return redirect;
    return null;
  };
}
