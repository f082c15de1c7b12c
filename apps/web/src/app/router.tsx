import type { ComponentType } from 'react';
import { createBrowserRouter, type DataRouter, type RouteObject, replace } from 'react-router';
import { configureHttp } from '@/lib/http.ts';
import { HOME_PATH, NOT_FOUND_PATH } from '@/lib/paths.ts';
import { RootRoute } from './RootRoute.tsx';
import { PageLoading, RouteError } from './RouteStatus.tsx';
import type { RouteHandle } from './route-handle.ts';

// Lazy route modules: the router waits for the chunk before it commits the navigation, so the old page
// stays on screen (with the progress bar) instead of flashing a fallback.
function page(title: string, load: () => Promise<{ default: ComponentType }>) {
  return {
    handle: { title } satisfies RouteHandle,
    lazy: async () => ({ Component: (await load()).default }),
  };
}

function redirectTo(path: string, title: string) {
  // `replace` keeps the redirecting URL out of history, so Back does not bounce straight forward again.
  // `element: null` says "renders nothing" explicitly (the loader always redirects first).
  return { handle: { title } satisfies RouteHandle, loader: () => replace(path), element: null };
}

const HOME_TITLE = '首页';

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootRoute,
    HydrateFallback: PageLoading,
    ErrorBoundary: RouteError,
    children: [
      { index: true, ...redirectTo(HOME_PATH, HOME_TITLE) },
      {
        path: 'piibs',
        children: [
          { index: true, ...redirectTo(HOME_PATH, HOME_TITLE) },
          { path: 'dashboard', ...page(HOME_TITLE, () => import('@/features/dashboard/DashboardPage.tsx')) },
          { path: '404', ...page('404', () => import('@/features/error-pages/NotFoundPage.tsx')) },
          { path: '401', ...page('401', () => import('@/features/error-pages/ForbiddenPage.tsx')) },
        ],
      },
      // Spec §2: "/piibs/404 is the catch-all".
      { path: '*', ...redirectTo(NOT_FOUND_PATH, '404') },
    ],
  },
];

/** The browser router, also handed to the HTTP client so a 403 can navigate without a reload. */
export function createAppRouter(): DataRouter {
  const router = createBrowserRouter(routes);
  configureHttp({ navigate: (to: string) => void router.navigate(to) });
  return router;
}
