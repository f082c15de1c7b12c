import type { MenuRoute } from '@piibs/shared/menu';
import { CONTAINER_VIEWS } from '@piibs/shared/views';
import { create } from 'zustand';
import { EARLY_URLS, earlyOr } from '@/lib/early-requests.ts';
import { request } from '@/lib/http.ts';

/** View names that only group children: the main layout and eladmin's nested-directory view. */
const CONTAINER_VIEW_NAMES: ReadonlySet<string> = new Set(CONTAINER_VIEWS);
/**
 * eladmin's marker for "this directory has no page of its own" (no breadcrumb link). The server spells it
 * 'noredirect' (as eladmin's back end does), vue-element-admin 'noRedirect': either is the marker, never a
 * path (taken as one, it led to '<page>/noredirect').
 */
function isNoRedirect(redirect: string | null | undefined): boolean {
  return redirect?.toLowerCase() === 'noredirect';
}
const EXTERNAL = /^(https?:|mailto:|tel:)/;

/** A menu route with its path resolved against its parents and its meta flattened. */
export interface MenuNode {
  /** Absolute path pattern, e.g. '/piibs/epinsure/stepOne/:id/:policyholderType', or an external URL. */
  path: string;
  title: string;
  icon: string | undefined;
  /** The server's component name: a view name, or 'Layout' / 'ParentView' for a directory. */
  view: string;
  hidden: boolean;
  affix: boolean;
  noCache: boolean;
  /** Where the route redirects to, if anywhere ('noRedirect' is not a target: see `noRedirect`). */
  redirect: string | undefined;
  /** The server marked the entry 'noRedirect': its breadcrumb is plain text. */
  noRedirect: boolean;
  alwaysShow: boolean;
  external: boolean;
  /** Ancestors from the top, for the breadcrumb and the search titles. */
  parents: MenuNode[];
  children: MenuNode[];
}

export function isExternal(path: string): boolean {
  return EXTERNAL.test(path);
}

export function isContainer(node: MenuNode): boolean {
  return CONTAINER_VIEW_NAMES.has(node.view);
}

/** A path the user can be sent to as it is: no ':param' or '*' to fill in. */
export function isNavigable(node: MenuNode): boolean {
  return node.external || !/[:*]/.test(node.path);
}

function joinPath(parent: string, child: string): string {
  if (isExternal(child) || child.startsWith('/')) return child;
  if (child === '') return parent;
  return `${parent.replace(/\/+$/, '')}/${child}`;
}

/** Resolves the server's tree: nested paths joined, meta flattened, parents recorded. */
export function normalizeMenus(menus: readonly MenuRoute[], parents: MenuNode[] = []): MenuNode[] {
  const parentPath = parents.at(-1)?.path ?? '';
  return menus.map((menu) => {
    const path = joinPath(parentPath, menu.path);
    const node: MenuNode = {
      path,
      title: menu.meta?.title ?? '',
      icon: menu.meta?.icon ?? undefined,
      view: menu.component,
      hidden: menu.hidden === true,
      affix: menu.meta?.affix === true,
      noCache: menu.meta?.noCache === true,
      redirect: menu.redirect && !isNoRedirect(menu.redirect) ? menu.redirect : undefined,
      noRedirect: isNoRedirect(menu.redirect),
      alwaysShow: menu.alwaysShow === true,
      external: isExternal(path),
      parents,
      children: [],
    };
    node.children = normalizeMenus(menu.children ?? [], [...parents, node]);
    return node;
  });
}

/** Every node of the tree, parents before their children. */
export function flattenMenus(nodes: readonly MenuNode[]): MenuNode[] {
  return nodes.flatMap((node) => [node, ...flattenMenus(node.children)]);
}

/** Hidden itself or under a hidden parent: routable, but not in the sidebar or the search. */
export function isHiddenInMenu(node: MenuNode): boolean {
  return node.hidden || node.parents.some((parent) => parent.hidden);
}

/** The pages a user may open from a menu: visible, navigable, not a directory. */
export function menuPages(nodes: readonly MenuNode[]): MenuNode[] {
  return flattenMenus(nodes).filter(
    (node) => !isHiddenInMenu(node) && isNavigable(node) && !isContainer(node) && node.children.length === 0,
  );
}

interface PermissionState {
  /** The caller's route tree from GET /api/menus/build. */
  menus: MenuRoute[];
  /** `menus` resolved (paths joined, meta flattened); recomputed whenever menus change. */
  nodes: MenuNode[];
  loaded: boolean;
  /** Fetches the caller's menus (spec §4: on the first navigation after login and whenever loadMenus is true). */
  loadMenus(): Promise<MenuRoute[]>;
  setMenus(menus: MenuRoute[]): void;
  reset(): void;
}

// One request at a time: the guard and the layout may both ask on the first navigation.
let pending: Promise<MenuRoute[]> | null = null;

export const usePermissionStore = create<PermissionState>((set) => ({
  menus: [],
  nodes: [],
  loaded: false,
  loadMenus() {
    const ask = () => request<MenuRoute[]>({ url: EARLY_URLS.menus, method: 'get' });
    // An early answer that failed is asked again through the error policy, which shows why.
    pending ??= earlyOr(EARLY_URLS.menus, ask)
      .then((menus) => {
        set({ menus, nodes: normalizeMenus(menus), loaded: true });
        return menus;
      })
      .finally(() => {
        pending = null;
      });
    return pending;
  },
  setMenus: (menus) => set({ menus, nodes: normalizeMenus(menus), loaded: true }),
  reset: () => set({ menus: [], nodes: [], loaded: false }),
}));
