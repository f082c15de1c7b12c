/*
 * The admin shell: sidebar, navbar (breadcrumb, search, fullscreen, size, notification bell, avatar menu),
 * tags bar, keep-alive content area, footer and the settings drawer, themed by the settings.
 *
 * How to mount (router.tsx): replace the children of the `protected` group under `piibs` with one splat
 * route, lazily loaded so the sign-in pages never download the shell:
 *
 *   {
 *     id: 'protected',
 *     children: [
 *       { path: '*', lazy: async () => ({ Component: (await import('@/layout/Layout.tsx')).default }) },
 *     ],
 *   },
 *
 * (the same as `{ path: '/piibs/*', element: <Guard><Layout /></Guard> }` where the guard is a component).
 * Give that route no `handle`. The layout renders itself, through descendant <Routes>:
 *   /piibs                → redirect to /piibs/dashboard
 *   /piibs/dashboard      → Dashboard (首页; pinned tab, not cached)
 *   /piibs/user/center    → UserCenter (个人中心; hidden from the sidebar)
 *   every route of usePermissionStore().menus (paths joined, see app/menu-routes.tsx and the naming rule
 *   in app/view-registry.ts); any other path → redirect to /piibs/404.
 * The standalone pages stay where they are (static segments outrank the splat): login, CAlogin, loginEP,
 * logged, init, insured/start, api/loginByManange, redirect/*, 404, 401.
 *
 * The guard loads the menus before the first protected page (usePermissionStore.loadMenus); until they
 * are loaded an unknown path shows a spinner rather than the 404 page. The page title comes from the menu
 * route's title; RootRoute would write the site title alone over it when the layout first renders (no data
 * route names itself), so the layout writes its title again after RootRoute's effect — better still,
 * RootRoute leaves document.title alone when no data route has a title.
 * App may also wrap everything in ThemeProvider (./ThemeProvider.tsx) so the sign-in pages follow the theme
 * colour, size and dark mode; the layout wraps itself in it either way.
 */
import './layout.css';
import { SIDEBAR_WIDTH_PX } from '@piibs/shared/constants';
import theme from 'antd/es/theme';
import { type CSSProperties, lazy, Suspense, useEffect, useMemo } from 'react';
import { useLocation } from 'react-router';
import { useRouteBase, useShellNodes } from '@/app/menu-routes.tsx';
import { matchShellRoute } from '@/app/shell-routes.ts';
import { pageTitle } from '@/lib/page-title.ts';
import { HOME_PATH } from '@/lib/paths.ts';
import { useAppStore } from '@/stores/app.ts';
import { isHiddenInMenu, type MenuNode, menuPages } from '@/stores/permission.ts';
import { useSettingsStore } from '@/stores/settings.ts';
import { useTagsViewStore } from '@/stores/tagsView.ts';
import { AppMain, isTab, MAIN_CONTENT_ID } from './AppMain.tsx';
import { Footer } from './Footer.tsx';
import type { SearchEntry } from './header-search.ts';
import { Navbar } from './Navbar.tsx';
import { Sidebar } from './Sidebar.tsx';
import { useReducedShell } from './session-adapter.ts';
import { TagsView } from './TagsView.tsx';
import { SIDEBAR_BG, ThemeProvider } from './ThemeProvider.tsx';
import { useDeviceMode } from './use-device-mode.ts';
import { useOpenedOnce } from './use-opened-once.ts';

const SettingsDrawer = lazy(() => import('./Settings.tsx'));

const SIDEBAR_COLLAPSED_WIDTH_PX = 54;

/** The drawer's code loads on first open and then stays, so it can animate closed. */
function SettingsHost() {
  const used = useOpenedOnce(useSettingsStore((s) => s.drawerOpen));
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <SettingsDrawer />
    </Suspense>
  );
}

function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    const text = pageTitle(title);
    document.title = text;
    // Parents' effects run after their children's, so on the layout's first render RootRoute writes the
    // data routes' title over this one; write it again once that has run.
    let live = true;
    queueMicrotask(() => {
      if (live) document.title = text;
    });
    return () => {
      live = false;
    };
  }, [title]);
}

/** Titles and paths of the pages the user can see, for the header search. */
function searchEntries(nodes: readonly MenuNode[], reduced: boolean): SearchEntry[] {
  return menuPages(nodes)
    .filter((node) => !node.external && !(reduced && node.path === HOME_PATH))
    .map((node) => ({
      title: [...node.parents.filter((p) => !isHiddenInMenu(p)).map((p) => p.title), node.title],
      path: node.path,
    }));
}

function Shell() {
  const location = useLocation();
  const base = useRouteBase();
  const { nodes, flat, loaded } = useShellNodes();
  const match = useMemo(() => matchShellRoute(flat, location.pathname), [flat, location.pathname]);
  const active = match?.node;
  const reduced = useReducedShell();
  const entries = useMemo(() => searchEntries(nodes, reduced), [nodes, reduced]);
  const { tagsView, fixedHeader, sidebarLogo, showFooter, uniqueOpened, largeText } = useSettingsStore();
  const opened = useAppStore((s) => s.sidebar.opened);
  const withoutAnimation = useAppStore((s) => s.sidebar.withoutAnimation);
  const mobile = useAppStore((s) => s.device === 'mobile');
  const closeSideBar = useAppStore((s) => s.closeSideBar);
  const { token } = theme.useToken();

  useDeviceMode();
  usePageTitle(active?.title);

  const refreshCurrent = () => useTagsViewStore.getState().refreshView(location.pathname);

  const className = [
    'shell',
    opened ? 'shell-opened' : 'shell-collapsed',
    mobile ? 'shell-mobile' : 'shell-desktop',
    withoutAnimation ? 'shell-no-animation' : '',
    largeText ? 'shell-large-text' : '',
  ].join(' ');
  const style = {
    '--shell-sidebar-width': `${SIDEBAR_WIDTH_PX}px`,
    '--shell-sidebar-collapsed-width': `${SIDEBAR_COLLAPSED_WIDTH_PX}px`,
    '--shell-sidebar-bg': SIDEBAR_BG,
    '--shell-bg': token.colorBgLayout,
    '--shell-header-bg': token.colorBgContainer,
    '--shell-hover-bg': token.colorFillTertiary,
    '--shell-border': token.colorBorderSecondary,
    '--shell-text': token.colorText,
    '--shell-secondary-text': token.colorTextSecondary,
    '--shell-primary': token.colorPrimary,
    '--shell-focus': token.colorPrimaryText,
    '--shell-elevated-bg': token.colorBgElevated,
    '--shell-popup-shadow': token.boxShadowSecondary,
    '--shell-avatar-bg': token.colorTextPlaceholder,
    '--shell-description': token.colorTextDescription,
  } as CSSProperties;

  return (
    <div className={className} style={style} data-testid="shell">
      <a
        className="shell-skip-link"
        href={`#${MAIN_CONTENT_ID}`}
        onClick={(event) => {
          // Not a route: the focus moves to the page's content, the address stays.
          event.preventDefault();
          document.getElementById(MAIN_CONTENT_ID)?.focus();
        }}
      >
        跳到主要内容
      </a>
      {mobile && opened && (
        <button
          type="button"
          className="shell-backdrop"
          aria-label="关闭侧边栏"
          onClick={() => closeSideBar(false)}
        />
      )}
      <Sidebar
        nodes={nodes}
        active={active}
        collapsed={!opened && !mobile}
        reduced={reduced}
        showLogo={sidebarLogo}
        uniqueOpened={uniqueOpened}
        offscreen={mobile && !opened}
      />
      <div className="shell-main">
        <header className={fixedHeader ? 'shell-header shell-header-fixed' : 'shell-header'}>
          <Navbar active={active} reduced={reduced} searchEntries={entries} onRefresh={refreshCurrent} />
          {tagsView && (
            <TagsView
              activeKey={location.pathname}
              reduced={reduced}
              activeIsTab={!!active && isTab(active, reduced)}
            />
          )}
        </header>
        <AppMain nodes={nodes} flat={flat} base={base} loaded={loaded} match={match} reduced={reduced} />
        {showFooter && <Footer />}
      </div>
      <SettingsHost />
    </div>
  );
}

export default function Layout() {
  return (
    <ThemeProvider>
      <Shell />
    </ThemeProvider>
  );
}
