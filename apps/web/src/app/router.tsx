import type { ComponentType } from 'react';
import { createBrowserRouter, type DataRouter, matchRoutes, type RouteObject, replace } from 'react-router';
import LoginPage from '@/features/auth/pages/LoginPage.tsx';
import { configureHttp } from '@/lib/http.ts';
import { HOME_PATH, NOT_FOUND_PATH } from '@/lib/paths.ts';
import { useUserStore } from '@/stores/user.ts';
import { createGuardLoader } from './guard.ts';
import { RootRoute } from './RootRoute.tsx';
import { PageLoading, RouteError } from './RouteStatus.tsx';
import type { RouteHandle } from './route-handle.ts';

/** Route handle with the flags the shell reads (spec §3 menu meta): hidden from menus, not cached, pinned tab. */
type PageHandle = RouteHandle & { hidden?: boolean; noCache?: boolean; affix?: boolean };

// Lazy route modules: the router waits for the chunk before it commits the navigation, so the old page
// stays on screen (with the progress bar) instead of flashing a fallback.
function page(handle: PageHandle, load: () => Promise<{ default: ComponentType }>) {
  return {
    handle,
    lazy: async () => ({ Component: (await load()).default }),
  };
}

/** Spec §2 "Login-type pages (hidden, not cached)". */
function loginTypePage(title: string, load: () => Promise<{ default: ComponentType }>) {
  return page({ title, hidden: true, noCache: true }, load);
}

function redirectTo(path: string, title: string) {
  // `replace` keeps the redirecting URL out of history, so Back does not bounce straight forward again.
  // `element: null` says "renders nothing" explicitly (the loader always redirects first).
  return { handle: { title } satisfies RouteHandle, loader: () => replace(path), element: null };
}

const HOME_TITLE = '首页';
const CATCH_ALL_ID = 'catch-all';
const LAYOUT_ID = 'layout';
const ANTD_ROOT_ID = 'antd';
/** Pages the layout serves itself (the rest of its routes come from the server's menus). */
const LAYOUT_STATIC_PATHS = new Set([HOME_PATH, '/piibs/user/center']);

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootRoute,
    HydrateFallback: PageLoading,
    ErrorBoundary: RouteError,
    // The navigation guard (app/guard.ts) runs before every navigation, including repeated ones.
    loader: createGuardLoader(isKnownRoute),
    shouldRevalidate: () => true,
    children: [
      { index: true, ...redirectTo(HOME_PATH, HOME_TITLE) },
      {
        path: 'piibs',
        children: [
          { index: true, ...redirectTo(HOME_PATH, HOME_TITLE) },

          // ---- Login-type pages: outside the layout, hidden, not cached ----
          // The password sign-in pages are plain markup: they stay outside the antd providers' route below,
          // so their first load carries neither antd nor react-query.
          // In the entry chunk, not lazy: nearly every visit starts here, and a lazy route is one more round trip
          // before the sign-in form paints (Lighthouse mobile: about 0.3 s of LCP).
          { path: 'login', handle: { title: '登录', hidden: true, noCache: true }, Component: LoginPage },
          {
            path: 'loginEP',
            ...loginTypePage('工程险企业登录', () => import('@/features/auth/pages/LoginEpPage.tsx')),
          },
          {
            // Pathless: antd's locale, theme and App context plus react-query, for every page that uses them.
            id: ANTD_ROOT_ID,
            lazy: async () => ({ Component: (await import('./AntdRoot.tsx')).default }),
            children: [
              {
                path: 'CAlogin',
                ...loginTypePage('证书登录', () => import('@/features/auth/pages/CaSignInPage.tsx')),
              },
              {
                path: 'logged',
                ...loginTypePage('已登录', () => import('@/features/auth/pages/LoggedPage.tsx')),
              },
              {
                path: 'init',
                ...loginTypePage('系统初始化', () => import('@/features/auth/pages/InitPage.tsx')),
              },
              {
                path: 'insured/start',
                ...loginTypePage('正在登录', () => import('@/features/auth/pages/HandoffPage.tsx')),
              },
              {
                // Spelt as the spec spells it.
                path: 'api/loginByManange',
                ...loginTypePage('正在登录', () => import('@/features/auth/pages/HandoffPage.tsx')),
              },
              {
                path: 'redirect/*',
                ...loginTypePage('跳转中', () => import('@/features/auth/pages/RedirectPage.tsx')),
              },
              {
                path: '404',
                ...loginTypePage('404', () => import('@/features/errors/pages/NotFoundPage.tsx')),
              },
              {
                path: '401',
                ...loginTypePage('401', () => import('@/features/errors/pages/ForbiddenPage.tsx')),
              },
              {
                // Public (guard.ts PUBLIC_PAGE): the e-policy's QR code leads anyone here, signed in or not.
                path: 'verify/:code',
                ...loginTypePage('保单验真', () => import('@/features/policy/pages/VerifyPage.tsx')),
              },

              // ---- Protected pages (the guard requires a token) ----
              // The main layout renders the dashboard, the personal center and every menu route from the
              // server (see layout/Layout.tsx); lazily loaded, so the sign-in pages never download the shell.
              {
                id: LAYOUT_ID,
                path: '*',
                lazy: async () => {
                  // The first page's code comes beside the shell's (shell-routes.ts), not after it, and the
                  // shell waits for it when the page is known now: shell and page then render in one pass.
                  const [layout] = await Promise.all([
                    import('@/layout/Layout.tsx'),
                    import('./shell-routes.ts').then((m) => m.preloadFirstPage(window.location.pathname)),
                    // The home page needs no menus to be known: its code is asked for with the shell's, not after.
                    window.location.pathname === HOME_PATH
                      ? import('@/features/dashboard/pages/DashboardPage.tsx')
                      : null,
                  ]);
                  return { Component: layout.default };
                },
              },
            ],
          },
        ],
      },
      // Spec §2: "/piibs/404 is the catch-all".
      { id: CATCH_ALL_ID, path: '*', ...redirectTo(NOT_FOUND_PATH, '404') },
    ],
  },
];

/** Whether a route other than the 404 catch-all matches the path (the guard's `knownRoute`). */
function isKnownRoute(path: string): boolean {
  const last = matchRoutes(routes, path)?.at(-1)?.route.id;
  if (last === LAYOUT_ID) return LAYOUT_STATIC_PATHS.has(path.replace(/\/+$/, ''));
  return last !== undefined && last !== CATCH_ALL_ID;
}

/** The browser router, also handed to the HTTP client so a 403 can navigate without a reload. */
export function createAppRouter(): DataRouter {
  const router = createBrowserRouter(routes);
  configureHttp({
    navigate: (to: string) => void router.navigate(to),
    // A confirmed "session expired" dialog ends the session locally before the reload (spec §8).
    onLogout: () => useUserStore.getState().clearSession(),
  });
  return router;
}
