// Fixtures for the shell's tests: a fake menu tree, fake pages, and a render helper with a MemoryRouter.
import type { MenuRoute } from '@piibs/shared/menu';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { type ReactNode, useState } from 'react';
import {
  type Location,
  MemoryRouter,
  type NavigateFunction,
  Route,
  Routes,
  useLocation,
  useNavigate,
} from 'react-router';
import { vi } from 'vitest';
import { resetAppStore } from '@/stores/app.ts';
import { usePermissionStore } from '@/stores/permission.ts';
import { DEFAULT_LAYOUT_SETTINGS, useSettingsStore } from '@/stores/settings.ts';
import { useTagsViewStore } from '@/stores/tagsView.ts';
import { useUserStore } from '@/stores/user.ts';
import Layout from './Layout.tsx';

export const FAKE_MENUS: MenuRoute[] = [
  {
    path: '/piibs/system',
    component: 'Layout',
    redirect: 'noRedirect',
    alwaysShow: true,
    meta: { title: '系统管理', icon: 'system' },
    children: [
      { path: 'user', component: 'test/Form', meta: { title: '用户管理', icon: 'peoples' } },
      { path: 'role', component: 'test/Plain', meta: { title: '角色管理', icon: 'no-such-icon' } },
    ],
  },
  {
    path: '/piibs/epinsure',
    component: 'Layout',
    redirect: '/piibs/epinsure/insureList',
    meta: { title: '投保管理', icon: 'form' },
    children: [
      { path: 'insureList', component: 'test/Form', meta: { title: '投保单列表', icon: 'list' } },
      {
        path: 'stepOne/:id/:policyholderType',
        component: 'test/Detail',
        hidden: true,
        meta: { title: '填写投保信息' },
      },
      {
        path: 'stepSuccess/:id',
        component: 'test/Form',
        hidden: true,
        meta: { title: '提交成功', noCache: true },
      },
    ],
  },
  {
    path: '/piibs/riskControl',
    component: 'Layout',
    meta: { title: '风险管理', icon: 'shield' },
    children: [
      { path: 'prevention/serviceList', component: 'test/Plain', meta: { title: '我的服务单' } },
      { path: 'prevention/expert', component: 'test/Plain', meta: { title: '服务机构' } },
    ],
  },
  {
    path: 'https://example.com/help',
    component: 'Layout',
    meta: { title: '帮助文档', icon: 'documentation' },
  },
  {
    path: '/piibs/broken',
    component: 'Layout',
    meta: { title: '配置错误', icon: 'guide' },
    children: [{ path: 'page', component: 'nope/Missing', meta: { title: '缺失页面' } }],
  },
];

export function setBodyWidth(width: number): void {
  vi.spyOn(document.body, 'getBoundingClientRect').mockReturnValue({
    width,
    height: 800,
    top: 0,
    left: 0,
    right: width,
    bottom: 800,
    x: 0,
    y: 0,
    toJSON: () => ({}),
  });
}

export function signIn(roles: string[], isCA = false): void {
  useUserStore.setState({
    token: 'token',
    roles,
    isCA,
    user: {
      id: 1,
      username: 'tester',
      nickName: '测试用户',
      email: null,
      phone: null,
      gender: null,
      avatar: null,
      channel: 'staff',
      uscc: null,
      dept: null,
      roles,
      roleNames: roles.map((code) => (code === 'admin' ? '系统管理员' : code)),
      permissions: [],
    },
  });
}

export function resetShellStores(): void {
  useTagsViewStore.getState().reset();
  usePermissionStore.getState().reset();
  useSettingsStore.setState({ ...DEFAULT_LAYOUT_SETTINGS, drawerOpen: false });
  resetAppStore();
  signIn(['admin']);
}

type Probe = { location: Location; navigate: NavigateFunction };

function RouterProbe({ probe }: { probe: Probe }) {
  probe.location = useLocation();
  probe.navigate = useNavigate();
  return null;
}

/** The providers the app gives every page that the layout needs in tests (server state). */
export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(() => {
    const c = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // The footer's server settings, as if already fetched (no network in unit tests).
    c.setQueryData(['site-settings'], { footerTxt: '', caseNumber: '', policeNumber: '' });
    return c;
  });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** Renders the layout at `path`, mounted as the lead mounts it: under a '/piibs/*' route. */
export function renderShell(path: string, menus: MenuRoute[] = FAKE_MENUS) {
  usePermissionStore.getState().setMenus(menus);
  const probe = {} as Probe;
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path="/piibs/*"
          element={
            <>
              <Layout />
              <RouterProbe probe={probe} />
            </>
          }
        />
        <Route path="/piibs/404" element={<p>404 页面</p>} />
      </Routes>
    </MemoryRouter>,
    { wrapper: Providers },
  );
  return {
    ...view,
    probe,
    navigate: (to: string) =>
      act(async () => {
        await probe.navigate(to);
      }),
  };
}
