import 'nprogress/nprogress.css';
import NProgress from 'nprogress';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import { pageTitle } from '@/lib/page-title.ts';
import type { RouteHandle } from './route-handle.ts';

NProgress.configure({ showSpinner: false });

/** Spec §2: "Scroll resets to the top on each navigation". */
export function useScrollReset(): void {
  const { pathname } = useLocation();
  const scrolledFor = useRef<string | null>(null);
  // Keyed on the path only: list pages keep their filters in the query string, and changing a filter
  // must not throw the user back to the top.
  useLayoutEffect(() => {
    if (scrolledFor.current === pathname) return;
    scrolledFor.current = pathname;
    window.scrollTo(0, 0);
  }, [pathname]);
}

function usePageTitle(): void {
  const matches = useMatches();
  // The deepest route that names itself wins, so a child page overrides its layout's title.
  const title = matches.map((match) => (match.handle as RouteHandle | undefined)?.title).findLast(Boolean);
  // Pages inside the layout name themselves (their titles come from the server's menus).
  useEffect(() => {
    if (title) document.title = pageTitle(title);
  }, [title]);
}

function useNavigationProgress(): void {
  const { state } = useNavigation();
  useEffect(() => {
    if (state === 'idle') NProgress.done();
    else NProgress.start();
  }, [state]);
}

/** The top route: page title, scroll reset and the progress bar for every page below it. */
export function RootRoute() {
  useScrollReset();
  usePageTitle();
  useNavigationProgress();
  return <Outlet />;
}
