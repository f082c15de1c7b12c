import { Component, type ErrorInfo, type ReactElement, type ReactNode, Suspense, useMemo } from 'react';
import { type Location, Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { HOME_PATH, NOT_FOUND_PATH } from '@/lib/paths.ts';
import { flattenMenus, type MenuNode, usePermissionStore } from '@/stores/permission.ts';
import { PageLoading, RouteError } from './RouteStatus.tsx';
import { isRoutable, redirectTarget, STATIC_NODES, toRoutePath } from './shell-routes.ts';
import { ViewMissing } from './ViewMissing.tsx';
import { resolveView } from './view-registry.ts';

/** The layout's routes: its own pages, then the server's menu tree, resolved. */
export function useShellNodes(): { nodes: MenuNode[]; flat: MenuNode[]; loaded: boolean } {
  const menuNodes = usePermissionStore((s) => s.nodes);
  const loaded = usePermissionStore((s) => s.loaded);
  return useMemo(() => {
    const nodes = [...STATIC_NODES, ...menuNodes];
    return { nodes, flat: flattenMenus(nodes), loaded };
  }, [menuNodes, loaded]);
}

type BoundaryState = { failed: boolean };

/** Keeps a page that fails to load or render inside its tab; the shell around it stays usable. */
class ViewBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

/** Renders the page a view name maps to, or the "missing view" page. */
export function ViewRoute({ name }: { name: string }) {
  const View = resolveView(name);
  if (!View) return <ViewMissing name={name} />;
  return (
    <ViewBoundary>
      <Suspense fallback={<PageLoading />}>
        <View />
      </Suspense>
    </ViewBoundary>
  );
}

function routeElement(node: MenuNode): ReactElement {
  const target = redirectTarget(node);
  if (target) return <Navigate to={target} replace />;
  return <ViewRoute name={node.view} />;
}

/**
 * The menu tree as <Route> elements, flat: every node gets its full path (nested paths joined), so
 * hidden detail routes are routable wherever they sit in the tree. `base` is the layout's mount path
 * ('/piibs' when mounted at '/piibs/*'): descendant routes match the rest of the URL.
 */
export function renderMenuRoutes(nodes: readonly MenuNode[], base: string, loaded: boolean): ReactElement[] {
  const seen = new Set<string>();
  const routes = flattenMenus(nodes).flatMap((node) => {
    const path = isRoutable(node) ? toRoutePath(node.path, base) : undefined;
    // The first route for a path wins, as the router would pick it anyway (the layout's own come first).
    if (!path || seen.has(path)) return [];
    seen.add(path);
    return [<Route key={path} path={path} element={routeElement(node)} />];
  });
  return [
    <Route key="index" index element={<Navigate to={HOME_PATH} replace />} />,
    ...routes,
    // Until the menus arrive an unknown path may still be one of them: wait instead of sending to 404.
    <Route key="*" path="*" element={loaded ? <Navigate to={NOT_FOUND_PATH} replace /> : <PageLoading />} />,
  ];
}

/** One tab's content: the menu routes rendered for that tab's own location. */
export function MenuRoutes({ routes, location }: { routes: ReactElement[]; location: Location }) {
  return <Routes location={location}>{routes}</Routes>;
}

/**
 * The path the layout is mounted at: '/piibs' under a '/piibs/*' route, '/' when rendered without a
 * parent route. Counted in segments, as the router does, so encoded params do not skew it.
 */
export function useRouteBase(): string {
  const { pathname } = useLocation();
  const splat = useParams()['*'];
  if (splat === undefined) return '/';
  const segments = pathname.split('/').filter(Boolean);
  const rest = splat.split('/').filter(Boolean).length;
  return `/${segments.slice(0, segments.length - rest).join('/')}`;
}
