import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { type ReactNode, useEffect } from 'react';
import { ThemeProvider } from '@/layout/ThemeProvider.tsx';
import { useAppApis } from './app-apis.tsx';
import { configureHttp, staticHttpUi } from './http.ts';
import { antdHttpUi } from './http-ui.ts';

// Everything here stays out of the entry: the login page renders plain markup and never loads antd's
// providers, react-query or dayjs' locale (docs/ARCHITECTURE "Performance").
dayjs.locale('zh-cn');

/** One client for every page below the providers, so its cache survives route changes. */
export const queryClient = new QueryClient({
  defaultOptions: {
    // The HTTP client already tells the user about every failure; retries would repeat the notice.
    queries: { retry: false, refetchOnWindowFocus: false },
  },
});

/** Gives the HTTP error policy antd's context-aware dialogs, so they follow the app's locale and theme. */
function HttpUiBridge() {
  const { modal, notification } = useAppApis();
  useEffect(() => {
    configureHttp({ ui: antdHttpUi(modal, notification) });
    // Back on a page without antd's providers (the login page), the on-demand static dialogs take over.
    return () => configureHttp({ ui: staticHttpUi });
  }, [modal, notification]);
  return null;
}

/**
 * antd's locale and the settings' theme with its App context (modal, message, notification: ThemeProvider, which
 * the layout inside adds nothing to), and react-query.
 */
export function AntdProviders({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider>
      <HttpUiBridge />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ThemeProvider>
  );
}
