import { DEFAULT_SETTINGS } from '@piibs/shared/constants';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useEffect } from 'react';
import { type DataRouter, RouterProvider } from 'react-router';
import { antdHttpUi, configureHttp } from '@/lib/http.ts';

dayjs.locale('zh-cn');

const queryClient = new QueryClient({
  defaultOptions: {
    // The HTTP client already tells the user about every failure; retries would repeat the notice.
    queries: { retry: false, refetchOnWindowFocus: false },
  },
});

/** Gives the HTTP error policy antd's context-aware dialogs, so they follow the app's locale and theme. */
function HttpUiBridge() {
  const { modal, notification } = AntApp.useApp();
  useEffect(() => {
    configureHttp({ ui: antdHttpUi(modal, notification) });
  }, [modal, notification]);
  return null;
}

export function App({ router }: { router: DataRouter }) {
  return (
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: DEFAULT_SETTINGS.theme } }}>
      <AntApp>
        <HttpUiBridge />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
