// The layout's routing that needs no React rendering: its own pages, which menu node a path opens, and the
// first page's code loaded early. Light (no antd), so the router can load it beside the shell.
import type { MenuRoute } from '@piibs/shared/menu';
import { matchRoutes, type Params } from 'react-router';
import { HOME_PATH } from '@/lib/paths.ts';
import {
  flattenMenus,
  isContainer,
  type MenuNode,
  normalizeMenus,
  usePermissionStore,
} from '@/stores/permission.ts';
import { preloadView } from './view-registry.ts';

export const USER_CENTER_PATH = '/piibs/user/center';

/** Pages the layout serves whatever the server's menus say (spec §2: dashboard is 首页, pinned, not cached). */
export const STATIC_MENUS: readonly MenuRoute[] = Object.freeze([
  {
    path: HOME_PATH,
    component: 'Dashboard',
    name: 'Dashboard',
    meta: { title: '首页', icon: 'dashboard', affix: true, noCache: true },
  },
  {
    path: USER_CENTER_PATH,
    component: 'UserCenter',
    name: 'UserCenter',
    hidden: true,
    meta: { title: '个人中心', icon: 'user' },
  },
]);

export const STATIC_NODES = normalizeMenus(STATIC_MENUS);

/** Where a node sends the user instead of rendering: its redirect, or a directory's first child page. */
export function redirectTarget(node: MenuNode): string | undefined {
  if (node.redirect) return node.redirect;
  if (!isContainer(node)) return undefined;
  return node.children.find((child) => !child.external && !/[:*]/.test(child.path))?.path;
}

export function isRoutable(node: MenuNode): boolean {
  return !node.external && (!isContainer(node) || redirectTarget(node) !== undefined);
}

export type ShellMatch = { node: MenuNode; params: Params };

/** The menu node a pathname renders, with its params; null for paths the menus do not know. */
export function matchShellRoute(flat: readonly MenuNode[], pathname: string): ShellMatch | null {
  const routable = flat.filter(isRoutable);
  const matches = matchRoutes(
    routable.map((node, index) => ({ id: String(index), path: node.path })),
    pathname,
  );
  const last = matches?.at(-1);
  if (!last) return null;
  return { node: routable[Number(last.route.id)]!, params: last.params };
}

/** Path relative to the layout's mount point, or undefined when the layout cannot serve it. */
export function toRoutePath(path: string, base: string): string | undefined {
  if (base === '/' || base === '') return path;
  if (path.startsWith(`${base}/`)) return path.slice(base.length);
  return undefined;
}

/**
 * Starts loading the code of the page a tab opens with as soon as it is known (one of the layout's own pages at
 * once, a menu page when the menus arrive) instead of once the shell around it has rendered: on a first load
 * the page's code then comes beside the shell's, not after it. Resolves once the code of a page known now is
 * there (or failed); a menu page still waiting for the menus does not hold it up.
 */
export function preloadFirstPage(pathname: string): Promise<void> {
  const known = () =>
    matchShellRoute(flattenMenus([...STATIC_NODES, ...usePermissionStore.getState().nodes]), pathname)?.node;
  const preload = (node: MenuNode) => (redirectTarget(node) ? Promise.resolve() : preloadView(node.view));
  const node = known();
  if (node) return preload(node);
  if (!usePermissionStore.getState().loaded) {
    const stop = usePermissionStore.subscribe((s) => {
      if (!s.loaded) return;
      stop();
      const later = known();
      if (later) void preload(later);
    });
  }
  return Promise.resolve();
}
