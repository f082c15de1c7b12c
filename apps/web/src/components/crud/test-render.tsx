// Renders a page under a route pattern, so the page reads its params ('/piibs/task/audit/:id/:audit').
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';

export function renderRoute(ui: ReactNode, pattern: string, url: string) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(
    [
      { path: pattern, element: ui },
      { path: '*', element: <div>other page</div> },
    ],
    { initialEntries: [url] },
  );
  const view = render(
    <AntApp>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
  return { ...view, router, client };
}
