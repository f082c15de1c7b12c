import { SIDEBAR_STATUS_KEY } from '@piibs/shared/constants';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RootRoute } from '@/app/RootRoute.tsx';
import { ICP_SITE, POLICE_SITE } from '@/components/FilingLinks.tsx';
import { useAppStore } from '@/stores/app.ts';
import { usePermissionStore } from '@/stores/permission.ts';
import { SETTINGS_STORAGE_KEY, useSettingsStore } from '@/stores/settings.ts';
import Layout from './Layout.tsx';
import { FAKE_MENUS, Providers, renderShell, resetShellStores, setBodyWidth } from './test-helpers.tsx';

vi.mock('@/app/view-registry.ts', async (original) =>
  (await import('./test-views.tsx')).mockViewRegistry(original),
);

beforeEach(() => {
  resetShellStores();
  setBodyWidth(1280);
});
afterEach(() => vi.restoreAllMocks());

const shellElement = () => screen.getByTestId('shell');

describe('device mode and mobile closing rules', () => {
  it('desktop at 993 px: the sidebar stays as stored', () => {
    setBodyWidth(993);
    renderShell('/piibs/dashboard');
    expect(useAppStore.getState().device).toBe('desktop');
    expect(shellElement()).toHaveClass('shell-desktop', 'shell-opened');
  });

  it('going mobile (992 px) closes the sidebar without animation', () => {
    setBodyWidth(992);
    renderShell('/piibs/dashboard');
    expect(useAppStore.getState().device).toBe('mobile');
    expect(useAppStore.getState().sidebar).toEqual({ opened: false, withoutAnimation: true });
    expect(shellElement()).toHaveClass('shell-mobile', 'shell-collapsed', 'shell-no-animation');
  });

  it('resizing the window to mobile width closes the sidebar', () => {
    renderShell('/piibs/dashboard');
    expect(useAppStore.getState().device).toBe('desktop');
    setBodyWidth(600);
    act(() => {
      window.dispatchEvent(new Event('resize'));
    });
    expect(useAppStore.getState().device).toBe('mobile');
    expect(useAppStore.getState().sidebar.opened).toBe(false);
  });

  it('a route change on mobile closes an open sidebar', async () => {
    setBodyWidth(600);
    const shell = renderShell('/piibs/dashboard');
    await userEvent.click(screen.getByRole('button', { name: '展开侧边栏' }));
    expect(useAppStore.getState().sidebar.opened).toBe(true);
    await shell.navigate('/piibs/system/user');
    expect(useAppStore.getState().sidebar).toEqual({ opened: false, withoutAnimation: false });
  });

  it('a route change on desktop leaves the sidebar open', async () => {
    const shell = renderShell('/piibs/dashboard');
    await shell.navigate('/piibs/system/user');
    expect(useAppStore.getState().sidebar.opened).toBe(true);
  });

  it('clicking the backdrop closes the sidebar', async () => {
    setBodyWidth(600);
    renderShell('/piibs/dashboard');
    await userEvent.click(screen.getByRole('button', { name: '展开侧边栏' }));
    await userEvent.click(screen.getByRole('button', { name: '关闭侧边栏' }));
    expect(useAppStore.getState().sidebar.opened).toBe(false);
    expect(localStorage.getItem(SIDEBAR_STATUS_KEY)).toBe('0');
    expect(screen.queryByRole('button', { name: '关闭侧边栏' })).not.toBeInTheDocument();
  });
});

describe('footer', () => {
  it('shows the footer text and the ICP and public-security filing links', () => {
    useSettingsStore.setState({
      caseNumber: '苏ICP备12345678号-1',
      policeNumber: '苏公网安备 32010202000001号',
    });
    renderShell('/piibs/dashboard');
    const footer = within(screen.getByRole('contentinfo'));
    expect(footer.getByText('© 2026 财产保险互联网出单系统')).toBeInTheDocument();
    expect(footer.getByRole('link', { name: '苏ICP备12345678号-1' })).toHaveAttribute('href', ICP_SITE);
    expect(footer.getByRole('link', { name: '苏公网安备 32010202000001号' })).toHaveAttribute(
      'href',
      `${POLICE_SITE}32010202000001`,
    );
  });

  it('footer hidden when showFooter is off', () => {
    useSettingsStore.getState().changeSetting('showFooter', false);
    renderShell('/piibs/dashboard');
    expect(screen.queryByRole('contentinfo')).not.toBeInTheDocument();
  });
});

describe('settings drawer', () => {
  async function openDrawer() {
    await userEvent.click(screen.getByRole('button', { name: /^用户菜单/ }));
    await userEvent.click(await screen.findByText('布局设置'));
    return within(await screen.findByRole('dialog'));
  }

  it('offers the eight preset theme colours and the layout switches', async () => {
    renderShell('/piibs/dashboard');
    const drawer = await openDrawer();
    expect(drawer.getAllByRole('button', { name: /^主题颜色 / })).toHaveLength(8);
    expect(drawer.getByRole('button', { name: '主题颜色 #1890ff' })).toHaveAttribute('aria-pressed', 'true');
    for (const name of [
      '暗色模式',
      '大字模式',
      '显示标签',
      '固定 Header',
      '显示 Logo',
      '菜单 UniqueOpened',
      '显示页脚',
    ]) {
      expect(drawer.getByRole('switch', { name })).toBeInTheDocument();
    }
  });

  it('a switch applies and is persisted at once', async () => {
    renderShell('/piibs/dashboard');
    const drawer = await openDrawer();
    await userEvent.click(drawer.getByRole('switch', { name: '显示页脚' }));
    expect(screen.queryByRole('contentinfo')).not.toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY) ?? '{}').state.showFooter).toBe(false);
  });

  it('大字模式 (适老化) enlarges the shell at once and is remembered like the other settings', async () => {
    renderShell('/piibs/dashboard');
    const drawer = await openDrawer();
    expect(shellElement()).not.toHaveClass('shell-large-text');
    await userEvent.click(drawer.getByRole('switch', { name: '大字模式' }));
    expect(shellElement()).toHaveClass('shell-large-text');
    expect(JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY) ?? '{}').state.largeText).toBe(true);
  });

  it('picking a theme colour shows a loading message, then success, and persists the colour', async () => {
    renderShell('/piibs/dashboard');
    const drawer = await openDrawer();
    await userEvent.click(drawer.getByRole('button', { name: '主题颜色 #f5222d' }));
    expect(useSettingsStore.getState().theme).toBe('#f5222d');
    expect(await screen.findByText('主题已切换')).toBeInTheDocument();
    // The shell paints the nearest shade that reads white text at 4.5:1; the setting keeps the spec's value.
    expect(shellElement().style.getPropertyValue('--shell-primary')).toBe('#e6202a');
    expect(JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY) ?? '{}').state.theme).toBe('#f5222d');
  });

  it('shows the loading message first', async () => {
    renderShell('/piibs/dashboard');
    const drawer = await openDrawer();
    // Hold the success note back: only timers started from here on are fake.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      act(() => drawer.getByRole('button', { name: '主题颜色 #13c2c2' }).click());
      expect(screen.getByText('正在应用主题…')).toBeInTheDocument();
      expect(screen.queryByText('主题已切换')).not.toBeInTheDocument();
      act(() => vi.runOnlyPendingTimers());
    } finally {
      vi.useRealTimers();
    }
    expect(await screen.findByText('主题已切换')).toBeInTheDocument();
  });
});

describe('page title', () => {
  it("is the menu route's title followed by the site title", async () => {
    const shell = renderShell('/piibs/system/user');
    await waitFor(() => expect(document.title).toBe('用户管理 - 财产保险互联网出单系统'));
    await shell.navigate('/piibs/epinsure/stepOne/3/A');
    await waitFor(() => expect(document.title).toBe('填写投保信息 - 财产保险互联网出单系统'));
  });
});

describe('unknown view name error page', () => {
  it('renders 页面组件不存在：{name} instead of a blank screen', async () => {
    renderShell('/piibs/broken/page');
    expect(await screen.findByRole('alert')).toHaveTextContent('页面组件不存在：nope/Missing');
  });
});

describe('mounting', () => {
  it('mounts in the data router as documented: piibs/* under RootRoute, title included', async () => {
    usePermissionStore.getState().setMenus(FAKE_MENUS);
    const router = createMemoryRouter(
      [
        {
          Component: RootRoute,
          children: [
            {
              path: 'piibs',
              children: [
                { path: '404', element: <p>404 页面</p> },
                { id: 'protected', children: [{ path: '*', Component: Layout }] },
              ],
            },
          ],
        },
      ],
      { initialEntries: ['/piibs/system/user'] },
    );
    render(<RouterProvider router={router} />, { wrapper: Providers });
    expect(await screen.findByLabelText('输入框')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('用户管理 - 财产保险互联网出单系统'));
    await act(() => router.navigate('/piibs/epinsure/stepOne/5/B'));
    expect(await screen.findByText('详情 5')).toBeVisible();
    await act(() => router.navigate('/piibs/nowhere'));
    expect(await screen.findByText('404 页面')).toBeInTheDocument();
    router.dispose();
  });

  it('works without a parent route too (base /)', async () => {
    usePermissionStore.getState().setMenus(FAKE_MENUS);
    render(
      <MemoryRouter initialEntries={['/piibs/system/user']}>
        <Layout />
      </MemoryRouter>,
      { wrapper: Providers },
    );
    expect(await screen.findByLabelText('输入框')).toBeInTheDocument();
  });

  it('waits for the menus instead of sending an unknown path to 404', () => {
    render(
      <MemoryRouter initialEntries={['/piibs/system/user']}>
        <Layout />
      </MemoryRouter>,
      { wrapper: Providers },
    );
    expect(screen.queryByText('404 页面')).not.toBeInTheDocument();
    expect(screen.getByRole('status', { name: '加载中' })).toBeInTheDocument();
  });
});

describe('dashboard', () => {
  it('welcomes the user with their role and offers shortcut cards for their menus', async () => {
    renderShell('/piibs/dashboard');
    expect(await screen.findByText('欢迎使用财产保险互联网出单系统')).toBeInTheDocument();
    expect(screen.getByText(/当前角色：系统管理员/)).toBeInTheDocument();
    const shortcuts = within(screen.getByRole('list', { name: '快捷入口' }));
    expect(shortcuts.getByRole('link', { name: /用户管理/ })).toHaveAttribute('href', '/piibs/system/user');
    expect(shortcuts.getByRole('link', { name: /投保单列表/ })).toBeInTheDocument();
    expect(shortcuts.queryByRole('link', { name: /填写投保信息/ })).not.toBeInTheDocument();
  });
});
