import { type DataRouter, RouterProvider } from 'react-router';

/**
 * The app is its router. antd's providers and react-query live in a lazily loaded route (AntdRoot.tsx)
 * around the pages that use them, so the login page's first load carries neither.
 */
export function App({ router }: { router: DataRouter }) {
  return <RouterProvider router={router} />;
}
