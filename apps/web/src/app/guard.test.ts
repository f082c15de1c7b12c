import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dropEarly, EARLY_URLS, requestEarly } from '@/lib/early-requests.ts';
import { configureHttp, HttpError, resetHttp, type SentRequest } from '@/lib/http.ts';
import { usePermissionStore } from '@/stores/permission.ts';
import { useUserStore } from '@/stores/user.ts';
import { fakeUser, type MockApi, mockApi } from '@/test/mock-api.ts';
import { type AccessInput, createGuardLoader, decideAccess, guardNavigation, resetGuard } from './guard.ts';

const base: AccessInput = {
  path: '/piibs/user/center',
  fullPath: '/piibs/user/center',
  initialized: true,
  hasToken: false,
  hasRoles: false,
  loadMenus: false,
  knownRoute: true,
};
const at = (path: string, more: Partial<AccessInput> = {}) =>
  decideAccess({ ...base, path, fullPath: path, ...more });
const signedIn = { hasToken: true, hasRoles: true };

describe('guard: access rules (spec §2)', () => {
  it.each(['/piibs/login', '/piibs/init', '/piibs/CAlogin'])('%s is reachable without a token', (path) => {
    expect(at(path).action).toBe('allow');
  });

  it.each([
    '/piibs/loginEP',
    '/piibs/404',
    '/piibs/401',
    '/piibs/insured/start',
    '/piibs/api/loginByManange',
    '/piibs/redirect/piibs/user/center',
  ])('%s is also reachable without a token', (path) => {
    expect(at(path).action).toBe('allow');
  });

  it('the policy verification page is public: open with or without a session, nothing below or beside it', () => {
    const code = '/piibs/verify/K7M2Q9X4TB8R3N6P';
    expect(at(code).action).toBe('allow');
    // A stale or half-loaded session never turns it into a sign-in.
    expect(at(code, { hasToken: true }).action).toBe('allow');
    expect(at(code, { ...signedIn, loadMenus: true }).action).toBe('allow');
    expect(at(`${code}/`).action).toBe('allow');
    // Only one code: not the prefix alone, not deeper paths, not look-alikes.
    expect(at('/piibs/verify', { knownRoute: false }).action).toBe('redirect');
    expect(at('/piibs/verify/', { knownRoute: false }).action).toBe('redirect');
    expect(at(`${code}/extra`, { knownRoute: false }).action).toBe('redirect');
    expect(at('/piibs/verifyX/K7M2Q9X4TB8R3N6P', { knownRoute: false }).action).toBe('redirect');
    expect(at('/piibs/insured/verify/K7M2Q9X4TB8R3N6P', { knownRoute: false })).toMatchObject({
      action: 'redirect',
      to: '/piibs/login?redirect=%2Fpiibs%2Finsured%2Fverify%2FK7M2Q9X4TB8R3N6P',
    });
    // The first-run setup still comes first.
    expect(at(code, { initialized: false })).toMatchObject({ action: 'redirect', to: '/piibs/init' });
  });

  it.each(['/piibs/login', '/piibs/CAlogin', '/piibs/loginEP', '/piibs/logged'])(
    '/piibs/logged and the login routes redirect to /piibs/dashboard when a token exists: %s',
    (path) => {
      expect(at(path, signedIn)).toMatchObject({ action: 'redirect', to: '/piibs/dashboard' });
      // Even before the user info is loaded.
      expect(at(path, { hasToken: true })).toMatchObject({ action: 'redirect', to: '/piibs/dashboard' });
    },
  );

  it('unauthenticated access to any other route redirects to /piibs/login?redirect={path}', () => {
    expect(at('/piibs/user/center')).toMatchObject({
      action: 'redirect',
      to: '/piibs/login?redirect=%2Fpiibs%2Fuser%2Fcenter',
    });
    expect(at('/piibs/dashboard').action).toBe('redirect');
    expect(at('/piibs/logged')).toMatchObject({ to: '/piibs/login?redirect=%2Fpiibs%2Flogged' });
  });

  it('the redirect keeps the query string', () => {
    expect(
      decideAccess({
        ...base,
        path: '/piibs/epinsure/insureList',
        fullPath: '/piibs/epinsure/insureList?page=2',
      }),
    ).toMatchObject({ to: '/piibs/login?redirect=%2Fpiibs%2Fepinsure%2FinsureList%3Fpage%3D2' });
  });

  it('a server menu route not added yet (before sign-in) still asks for a sign-in', () => {
    expect(at('/piibs/insured/viewInsuranceCA/12', { knownRoute: false })).toMatchObject({
      action: 'redirect',
      to: '/piibs/login?redirect=%2Fpiibs%2Finsured%2FviewInsuranceCA%2F12',
    });
  });

  it('/piibs/404 is the catch-all: an unknown path outside the menu areas goes on to the 404 page', () => {
    expect(at('/piibs/no/such/page', { knownRoute: false })).toMatchObject({
      action: 'redirect',
      to: '/piibs/404',
    });
  });

  it('/ and /piibs go to the dashboard first (which the guard then checks)', () => {
    expect(at('/').action).toBe('allow');
    expect(at('/piibs').action).toBe('allow');
  });

  it('a token with empty roles: load the user info', () => {
    expect(at('/piibs/dashboard', { hasToken: true }).action).toBe('loadInfo');
    expect(at('/piibs/404', { hasToken: true }).action).toBe('loadInfo');
  });

  it('loadMenus true (first navigation after login): load the menus', () => {
    expect(at('/piibs/dashboard', { ...signedIn, loadMenus: true }).action).toBe('loadMenus');
  });

  it('signed in with roles and menus: go ahead', () => {
    expect(at('/piibs/user/center', signedIn).action).toBe('allow');
  });

  it('the hand-off pages sign in with their own token, whatever session the tab has', () => {
    expect(at('/piibs/insured/start', { hasToken: true }).action).toBe('allow');
    expect(at('/piibs/api/loginByManange', { hasToken: true }).action).toBe('allow');
  });

  it('while the system is not initialised, every page leads to /piibs/init', () => {
    for (const path of ['/piibs/login', '/piibs/dashboard', '/', '/piibs/404']) {
      expect(at(path, { initialized: false, ...signedIn })).toMatchObject({
        action: 'redirect',
        to: '/piibs/init',
      });
    }
    expect(at('/piibs/init', { initialized: false }).action).toBe('allow');
  });
});

describe('guard glue (root loader)', () => {
  const initial = useUserStore.getState();
  let api: MockApi;
  const deps = { checkInitialized: async () => true, isKnownRoute: () => true };
  const url = (path: string) => new URL(path, 'http://localhost');

  beforeEach(() => {
    useUserStore.setState(initial, true);
    configureHttp({ ui: { confirm: vi.fn(), error: vi.fn() } });
  });

  afterEach(() => {
    api?.restore();
    resetHttp();
  });

  it('a token with empty roles: loads the user, then the menus, then repeats the navigation', async () => {
    localStorage.setItem('EL-ADMIN-TOEKN', 't');
    api = mockApi({
      'GET api/auth/info': { data: fakeUser() },
      'GET api/auth/getUserRole': { data: { role: 'admin', channel: 'staff', iSeeSwitch: false } },
      'GET api/menus/build': { data: [] },
    });
    const result = await guardNavigation(url('/piibs/user/center?tab=1'), deps);
    expect(result?.status).toBe(302);
    expect(result?.headers.get('Location')).toBe('/piibs/user/center?tab=1');
    expect(useUserStore.getState()).toMatchObject({ roles: ['admin'], loadMenus: false });
    expect(usePermissionStore.getState().loaded).toBe(true);
    // The repeated navigation goes ahead.
    expect(await guardNavigation(url('/piibs/user/center?tab=1'), deps)).toBeNull();
  });

  it('user info cannot be loaded: the user is logged out and goes to /piibs/login', async () => {
    localStorage.setItem('EL-ADMIN-TOEKN', 'stale');
    localStorage.setItem('CA', 'true');
    api = mockApi({
      'GET api/auth/info': { status: 401, data: { status: 401, message: '登录状态已过期，请重新登录' } },
      'POST api/auth/logout': { status: 401, data: { status: 401, message: '登录状态已过期，请重新登录' } },
    });
    const result = await guardNavigation(url('/piibs/dashboard'), deps);
    expect(result?.headers.get('Location')).toMatch(/^\/piibs\/login/);
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
    expect(localStorage.getItem('CA')).toBeNull();
  });

  const unreachable = (config: SentRequest): never => {
    throw new HttpError('Network Error', 'ERR_NETWORK', config);
  };

  it('user info that gets no answer while the page stays (the server is unreachable): logged out all the same', async () => {
    localStorage.setItem('EL-ADMIN-TOEKN', 't');
    api = mockApi({ 'GET api/auth/info': unreachable, 'POST api/auth/logout': unreachable });
    const result = await guardNavigation(url('/piibs/dashboard'), deps);
    expect(result?.headers.get('Location')).toMatch(/^\/piibs\/login/);
    expect(api.callsTo('POST api/auth/logout')).toHaveLength(1);
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
  });

  it('a user-info request cut off by leaving the page (F5, another address typed in) does not end the session', async () => {
    localStorage.setItem('EL-ADMIN-TOEKN', 't');
    api = mockApi({
      'GET api/auth/info': (config) => {
        window.dispatchEvent(new Event('pagehide'));
        return unreachable(config);
      },
    });
    const result = await guardNavigation(url('/piibs/riskControl?tab=2'), deps);
    // The next page finds the session as it was: the token is still stored and the server was not told to end it.
    expect(api.callsTo('POST api/auth/logout')).toEqual([]);
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBe('t');
    expect(result?.headers.get('Location')).toBe('/piibs/riskControl?tab=2');
  });

  it('a failed menu load is shown by the HTTP client and the app stays usable', async () => {
    const error = vi.fn();
    configureHttp({ ui: { confirm: vi.fn(), error } });
    localStorage.setItem('EL-ADMIN-TOEKN', 't');
    useUserStore.setState({ roles: ['admin'], loadMenus: true });
    api = mockApi({ 'GET api/menus/build': { status: 500, data: { status: 500, message: '菜单加载失败' } } });
    expect(await guardNavigation(url('/piibs/dashboard'), deps)).toBeNull();
    expect(error).toHaveBeenCalledWith('菜单加载失败', 5000);
    expect(useUserStore.getState().loadMenus).toBe(false);
  });

  it('not initialised: leads to /piibs/init', async () => {
    const result = await guardNavigation(url('/piibs/login'), {
      ...deps,
      checkInitialized: async () => false,
    });
    expect(result?.headers.get('Location')).toBe('/piibs/init');
  });
});

describe('a signed-in page load asks its first answers at once', () => {
  const initial = useUserStore.getState();
  const answers: Record<string, unknown> = {
    [EARLY_URLS.init]: { initialized: true },
    [EARLY_URLS.info]: fakeUser(),
    [EARLY_URLS.role]: { role: 'admin', channel: 'staff', iSeeSwitch: false },
    [EARLY_URLS.menus]: [],
  };
  let api: MockApi;
  let asked: { url: string; authorization: string | null }[];

  beforeEach(() => {
    useUserStore.setState(initial, true);
    usePermissionStore.getState().reset();
    resetGuard();
    configureHttp({ ui: { confirm: vi.fn(), error: vi.fn() } });
    asked = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      asked.push({ url, authorization: new Headers(init?.headers).get('Authorization') });
      return Response.json(answers[url.slice(1)]);
    });
    // Anything the guard asks again goes through the HTTP client.
    api = mockApi({
      [`GET ${EARLY_URLS.init}`]: { data: answers[EARLY_URLS.init] },
      [`GET ${EARLY_URLS.info}`]: { data: answers[EARLY_URLS.info] },
      [`GET ${EARLY_URLS.role}`]: { data: answers[EARLY_URLS.role] },
      [`GET ${EARLY_URLS.menus}`]: { data: [] },
    });
  });

  afterEach(() => {
    api.restore();
    resetHttp();
    dropEarly();
    vi.unstubAllGlobals();
  });

  const firstNavigation = (path: string) =>
    createGuardLoader(() => true)({
      request: new Request(`http://localhost${path}`),
      params: {},
      context: undefined,
    } as never);

  it('the init check, the user, the role and the menus go out together, with the session; the guard takes those answers instead of asking one after another', async () => {
    localStorage.setItem('EL-ADMIN-TOEKN', 't');
    requestEarly(Object.values(EARLY_URLS));
    // Sent before anything is awaited.
    expect(asked).toEqual(
      Object.values(EARLY_URLS).map((url) => ({ url: `/${url}`, authorization: 'Bearer t' })),
    );
    const result = (await firstNavigation('/piibs/dashboard')) as Response;
    expect(result.headers.get('Location')).toBe('/piibs/dashboard');
    expect(useUserStore.getState()).toMatchObject({ roles: ['admin'], role: 'admin' });
    expect(usePermissionStore.getState().loaded).toBe(true);
    expect(api.calls).toEqual([]);
  });

  it('answers asked with another session are not used: after a new sign-in or a hand-off the guard asks again', async () => {
    localStorage.setItem('EL-ADMIN-TOEKN', 'old');
    requestEarly(Object.values(EARLY_URLS));
    localStorage.setItem('EL-ADMIN-TOEKN', 'new');
    await firstNavigation('/piibs/dashboard');
    expect(api.callsTo(`GET ${EARLY_URLS.info}`)).toHaveLength(1);
    expect(api.callsTo(`GET ${EARLY_URLS.menus}`)).toHaveLength(1);
    expect(api.calls.every((c) => c.headers.Authorization === 'Bearer new')).toBe(true);
  });

  it('a stale session found early still signs the user out quietly, to the login page', async () => {
    localStorage.setItem('EL-ADMIN-TOEKN', 'stale');
    answers[EARLY_URLS.info] = { status: 401, message: '登录状态已过期，请重新登录' };
    vi.stubGlobal('fetch', async (url: string) =>
      url.endsWith(EARLY_URLS.info)
        ? Response.json(answers[EARLY_URLS.info], { status: 401 })
        : Response.json(answers[url.slice(1)]),
    );
    requestEarly(Object.values(EARLY_URLS));
    const result = (await firstNavigation('/piibs/dashboard')) as Response;
    expect(result.headers.get('Location')).toMatch(/^\/piibs\/login/);
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
    answers[EARLY_URLS.info] = fakeUser();
  });
});
