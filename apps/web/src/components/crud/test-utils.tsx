// Test fixtures for the CRUD kit and the pages built on it: a render helper with the providers a page needs
// (antd App, react-query, a memory router that exposes its location) and a signed-in user.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { useUserStore } from '@/stores/user.ts';
import { freshUserState, resetAppState } from '@/test/jsdom.ts';
import { fakeUser } from '@/test/mock-api.ts';

/** Signs a fake user in: roles, and permission codes when given (as GET /api/auth/info would send them). */
export function signInAs(roles: string[], permissions?: string[]): void {
  const user = { ...fakeUser({ roles }), ...(permissions ? { permissions } : {}) };
  useUserStore.setState({ ...freshUserState, token: 't', user, roles }, true);
}

export function resetKitState(): void {
  resetAppState();
}

/** Renders `ui` at `url` under the providers; answers the router (its location, navigate(-1) for Back …). */
export function renderWithProviders(ui: ReactNode, url = '/piibs/things') {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [url] });
  const view = render(
    // Notices stay until unmounted: an auto-close timer firing after the test file's jsdom is gone would throw.
    <AntApp message={{ duration: 0 }} notification={{ duration: 0 }}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
  return { ...view, router, client, search: () => new URLSearchParams(router.state.location.search) };
}
