import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

type PageModule = { default: ComponentType };
type PageLoader = () => Promise<PageModule>;

/*
 * Maps the server's view names (a menu route's `component`) to lazily loaded pages.
 *
 * Naming rule: the view name 'area/Page' is the default export of src/features/area/pages/Page.tsx.
 * A later issue adds a page by dropping that file in and naming it in the menu data; nothing to register.
 * Names are normalised first, so eladmin-style names work too: a leading '/', a trailing '/index' and a
 * file extension are ignored ('/epinsure/stepOne/index.vue' → 'epinsure/stepOne').
 * 'Layout' (and 'ParentView') are directories, handled by menu-routes.tsx, not pages.
 */
const featurePages = import.meta.glob<PageModule>([
  '/src/features/*/pages/*.tsx',
  '!/src/features/*/pages/*.test.tsx',
]);

// The personal center belongs to the identity feature; any of these files provides it, and while none
// exists the name falls through to the "missing view" page.
const userCenterPages = import.meta.glob<PageModule>([
  '/src/features/user-center/pages/UserCenter.tsx',
  '/src/features/user-center/UserCenterPage.tsx',
  '/src/features/user-center/pages/index.tsx',
]);

/** Names that do not follow the rule: pages that existed before it, and the error pages. */
const ALIASES: Readonly<Record<string, PageLoader | undefined>> = {
  Dashboard: () => import('@/features/dashboard/DashboardPage.tsx'),
  UserCenter: Object.values(userCenterPages)[0],
  '404': () => import('@/features/error-pages/NotFoundPage.tsx'),
  NotFound: () => import('@/features/error-pages/NotFoundPage.tsx'),
  '401': () => import('@/features/error-pages/ForbiddenPage.tsx'),
  Forbidden: () => import('@/features/error-pages/ForbiddenPage.tsx'),
};

export function normalizeViewName(name: string): string {
  return name
    .trim()
    .replace(/^\/+/, '')
    .replace(/\.(tsx|jsx|vue)$/, '')
    .replace(/\/index$/, '');
}

/** The file a view name maps to under the naming rule, or undefined when the name cannot map to one. */
export function viewFile(name: string): string | undefined {
  const normalized = normalizeViewName(name);
  const slash = normalized.indexOf('/');
  if (slash <= 0 || slash === normalized.length - 1) return undefined;
  return `/src/features/${normalized.slice(0, slash)}/pages/${normalized.slice(slash + 1)}.tsx`;
}

function findLoader(name: string): PageLoader | undefined {
  const normalized = normalizeViewName(name);
  if (Object.hasOwn(ALIASES, normalized)) return ALIASES[normalized];
  const file = viewFile(normalized);
  return file ? featurePages[file] : undefined;
}

// One lazy component per name: a new one on every render would remount the page each time.
const resolved = new Map<string, LazyExoticComponent<ComponentType> | null>();

/** The lazily loaded page for a view name, or null when no page has that name. */
export function resolveView(name: string): LazyExoticComponent<ComponentType> | null {
  let view = resolved.get(name);
  if (view === undefined) {
    const loader = findLoader(name);
    view = loader ? lazy(loader) : null;
    resolved.set(name, view);
  }
  return view;
}
