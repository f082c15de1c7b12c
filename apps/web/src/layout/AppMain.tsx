import { Activity, useEffect, useMemo } from 'react';
import { type Location, useLocation } from 'react-router';
import { MenuRoutes, renderMenuRoutes } from '@/app/menu-routes.tsx';
import { redirectTarget, type ShellMatch } from '@/app/shell-routes.ts';
import { HOME_PATH } from '@/lib/paths.ts';
import { isNavigable, type MenuNode } from '@/stores/permission.ts';
import { useTagsViewStore } from '@/stores/tagsView.ts';

interface AppMainProps {
  nodes: readonly MenuNode[];
  flat: readonly MenuNode[];
  /** The layout's mount path, for the descendant routes. */
  base: string;
  loaded: boolean;
  match: ShellMatch | null;
  reduced: boolean;
}

/** The id of the page's content, where the skip-to-content link leads. */
export const MAIN_CONTENT_ID = 'main-content';

/** A page is a tab unless it only redirects; the reduced shell has no home tab (spec §6). */
export function isTab(node: MenuNode, reduced: boolean): boolean {
  return !!node.title && !redirectTarget(node) && !(reduced && node.path === HOME_PATH);
}

/**
 * The content area with keep-alive. Each kept tab renders inside <Activity>, visible only while it is
 * the current page, through <Routes location={its own saved location}> so a hidden page keeps its own
 * params and query instead of reading the visible page's. A tab is kept when its route is not noCache,
 * up to MAX_CACHED_VIEWS (least recently shown dropped first), and dropped when it is closed or refreshed.
 * Hidden pages have their effects cleaned up by <Activity>: a page must not rely on staying mounted to
 * keep a timer or a socket alive. Other pages render normally and unmount when left.
 */
export function AppMain({ nodes, flat, base, loaded, match, reduced }: AppMainProps) {
  const location = useLocation();
  const routes = useMemo(() => renderMenuRoutes(nodes, base, loaded), [nodes, base, loaded]);
  const visitedViews = useTagsViewStore((s) => s.visitedViews);
  const cachedViews = useTagsViewStore((s) => s.cachedViews);
  const refreshStamps = useTagsViewStore((s) => s.refreshStamps);

  const activeKey = location.pathname;
  const activeNode = match?.node;
  const activeIsTab = !!activeNode && isTab(activeNode, reduced);
  const activeCached = activeIsTab && !activeNode.noCache;

  // Affixed routes are tabs from the start (spec §4: the dashboard is pinned).
  useEffect(() => {
    const store = useTagsViewStore.getState();
    for (const node of flat) {
      if (!node.affix || !isNavigable(node) || node.external || !isTab(node, reduced)) continue;
      if (store.visitedViews.some((view) => view.key === node.path)) continue;
      store.addVisitedView({
        key: node.path,
        fullPath: node.path,
        title: node.title,
        affix: true,
        noCache: node.noCache,
        location: { pathname: node.path, search: '', hash: '', state: null, key: 'affix' },
      });
    }
  }, [flat, reduced]);

  // Every navigation adds or updates its tab (and marks the page as most recently shown).
  useEffect(() => {
    if (!activeNode || !activeIsTab) return;
    useTagsViewStore.getState().addView({
      key: location.pathname,
      fullPath: `${location.pathname}${location.search}${location.hash}`,
      title: activeNode.title,
      affix: activeNode.affix,
      noCache: activeNode.noCache,
      location,
    });
  }, [location, activeNode, activeIsTab]);

  // Kept pages in tab order (stable, so switching tabs never moves a page's DOM), plus the current page
  // when it is about to be kept: it mounts in its <Activity> from the first render.
  const saved = new Map(visitedViews.map((view) => [view.key, view.location]));
  const kept = visitedViews.map((view) => view.key).filter((key) => cachedViews.includes(key));
  if (activeCached && !kept.includes(activeKey)) kept.push(activeKey);

  const stamp = (key: string) => `${key}#${refreshStamps[key] ?? 0}`;
  return (
    // tabIndex -1: the skip link (and nothing else) puts the focus here.
    <main className="shell-content" id={MAIN_CONTENT_ID} tabIndex={-1}>
      {kept.map((key) => {
        const active = key === activeKey;
        const tabLocation = active ? location : (saved.get(key) as Location | undefined);
        if (!tabLocation) return null;
        return (
          <Activity key={stamp(key)} mode={active ? 'visible' : 'hidden'}>
            <MenuRoutes routes={routes} location={tabLocation} />
          </Activity>
        );
      })}
      {!activeCached && <MenuRoutes key={stamp(activeKey)} routes={routes} location={location} />}
    </main>
  );
}
