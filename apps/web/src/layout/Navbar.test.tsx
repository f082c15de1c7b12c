import { ROLE_CODES } from '@piibs/shared/auth';
import { SIZE_KEY } from '@piibs/shared/constants';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAppStore } from '@/stores/app.ts';
import { useSettingsStore } from '@/stores/settings.ts';
import { useTagsViewStore } from '@/stores/tagsView.ts';
import { FULLSCREEN_UNSUPPORTED } from './Screenfull.tsx';
import { renderShell, resetShellStores, setBodyWidth, signIn } from './test-helpers.tsx';

vi.mock('@/app/view-registry.ts', async (original) =>
  (await import('./test-views.tsx')).mockViewRegistry(original),
);
const fullscreen = vi.hoisted(() => ({
  isEnabled: false,
  isFullscreen: false,
  toggle: vi.fn(),
  on: vi.fn(),
  off: vi.fn(),
}));
vi.mock('screenfull', () => ({ default: fullscreen }));

beforeEach(() => {
  resetShellStores();
  setBodyWidth(1280);
});
afterEach(() => vi.restoreAllMocks());

const crumbs = () =>
  Array.from(document.querySelectorAll('.shell-breadcrumb li'))
    .map((li) => li.textContent?.trim())
    .filter((text) => text && text !== '/');

/** The open navbar menu (the sidebar is a menu too). */
async function dropdownMenu(): Promise<HTMLElement> {
  return waitFor(() => {
    const menu = document.querySelector<HTMLElement>('.shell-menu[role="menu"]');
    if (!menu) throw new Error('no open dropdown');
    return menu;
  });
}

describe('breadcrumb home crumb', () => {
  it('prepends 首页, linked to the dashboard, before the page trail', () => {
    renderShell('/piibs/system/user');
    expect(crumbs()).toEqual(['首页', '系统管理', '用户管理']);
    const trail = within(document.querySelector('.shell-breadcrumb') as HTMLElement);
    expect(trail.getByRole('link', { name: '首页' })).toHaveAttribute('href', '/piibs/dashboard');
    // 'noRedirect' directories and the current page are not links.
    expect(trail.queryByRole('link', { name: '系统管理' })).not.toBeInTheDocument();
    expect(trail.queryByRole('link', { name: '用户管理' })).not.toBeInTheDocument();
  });

  it('links a directory to its redirect', () => {
    renderShell('/piibs/epinsure/stepOne/7/A');
    expect(crumbs()).toEqual(['首页', '投保管理', '填写投保信息']);
    const trail = within(document.querySelector('.shell-breadcrumb') as HTMLElement);
    expect(trail.getByRole('link', { name: '投保管理' })).toHaveAttribute(
      'href',
      '/piibs/epinsure/insureList',
    );
  });

  it('shows only 首页 on the dashboard', () => {
    renderShell('/piibs/dashboard');
    expect(crumbs()).toEqual(['首页']);
  });

  it('has no home crumb for role-17 users', () => {
    signIn([ROLE_CODES.enterprise]);
    renderShell('/piibs/system/user');
    expect(crumbs()).toEqual(['系统管理', '用户管理']);
  });

  it('has no home crumb for CA users', () => {
    signIn(['ROLE_SYSTEM_DEFAULT'], true);
    renderShell('/piibs/system/user');
    expect(crumbs()).toEqual(['系统管理', '用户管理']);
  });
});

describe('fullscreen', () => {
  it('unsupported: warns exactly "your browser can not work"', async () => {
    expect(FULLSCREEN_UNSUPPORTED).toBe('your browser can not work');
    renderShell('/piibs/dashboard');
    await userEvent.click(screen.getByRole('button', { name: '全屏' }));
    expect(await screen.findByText('your browser can not work')).toBeInTheDocument();
    expect(fullscreen.toggle).not.toHaveBeenCalled();
  });

  it('supported: toggles fullscreen', async () => {
    fullscreen.isEnabled = true;
    try {
      renderShell('/piibs/dashboard');
      await userEvent.click(screen.getByRole('button', { name: '全屏' }));
      expect(fullscreen.toggle).toHaveBeenCalled();
    } finally {
      fullscreen.isEnabled = false;
    }
  });
});

describe('size selector', () => {
  it('offers default / medium / small / mini', async () => {
    renderShell('/piibs/dashboard');
    await userEvent.click(screen.getByRole('button', { name: '布局大小' }));
    const menu = within(await dropdownMenu());
    expect(menu.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      '默认',
      '中等',
      '小型',
      '迷你',
    ]);
  });

  it('size change: stores the size, refreshes the current view and shows 布局设置成功', async () => {
    renderShell('/piibs/epinsure/insureList');
    await userEvent.type(screen.getByLabelText('输入框'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: '布局大小' }));
    await userEvent.click(await screen.findByText('中等'));
    expect(await screen.findByText('布局设置成功')).toBeInTheDocument();
    expect(useAppStore.getState().size).toBe('medium');
    expect(localStorage.getItem(SIZE_KEY)).toBe('medium');
    expect(useTagsViewStore.getState().refreshStamps['/piibs/epinsure/insureList']).toBe(1);
    // The view was remounted: its state is fresh.
    expect(screen.getByLabelText('输入框')).toHaveValue('');
  });
});

describe('avatar dropdown', () => {
  it('shows the nick name and offers 布局设置, 个人中心 and 退出登录', async () => {
    renderShell('/piibs/dashboard');
    await userEvent.click(screen.getByRole('button', { name: /^用户菜单/ }));
    const menu = within(await dropdownMenu());
    expect(menu.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      '布局设置',
      '个人中心',
      '退出登录',
    ]);
    expect(screen.getByRole('button', { name: /^用户菜单/ })).toHaveTextContent('测试用户');
  });

  it('without the showSettings setting it offers no 布局设置', async () => {
    useSettingsStore.setState({ showSettings: false });
    renderShell('/piibs/dashboard');
    await userEvent.click(screen.getByRole('button', { name: /^用户菜单/ }));
    const menu = within(await dropdownMenu());
    expect(menu.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['个人中心', '退出登录']);
  });

  it('个人中心 goes to /piibs/user/center', async () => {
    const shell = renderShell('/piibs/dashboard');
    await userEvent.click(screen.getByRole('button', { name: /^用户菜单/ }));
    await userEvent.click(await screen.findByText('个人中心'));
    expect(shell.probe.location.pathname).toBe('/piibs/user/center');
  });

  it('布局设置 opens the settings drawer', async () => {
    renderShell('/piibs/dashboard');
    await userEvent.click(screen.getByRole('button', { name: /^用户菜单/ }));
    await userEvent.click(await screen.findByText('布局设置'));
    expect(useSettingsStore.getState().drawerOpen).toBe(true);
    expect(await screen.findByText('系统布局设置')).toBeInTheDocument();
  });

  it('退出登录 asks to confirm before logging out', async () => {
    renderShell('/piibs/dashboard');
    await userEvent.click(screen.getByRole('button', { name: /^用户菜单/ }));
    await userEvent.click(await screen.findByText('退出登录'));
    expect(await screen.findByText('确定注销并退出系统吗？')).toBeInTheDocument();
  });
});

describe('header search', () => {
  it('is shown on desktop and hidden on mobile', () => {
    const shell = renderShell('/piibs/dashboard');
    expect(screen.getByRole('button', { name: '搜索菜单' })).toBeInTheDocument();
    shell.unmount();
    setBodyWidth(800);
    renderShell('/piibs/dashboard');
    expect(screen.queryByRole('button', { name: '搜索菜单' })).not.toBeInTheDocument();
  });

  it('jumps to the chosen route', async () => {
    const shell = renderShell('/piibs/dashboard');
    await userEvent.click(screen.getByRole('button', { name: '搜索菜单' }));
    const box = await screen.findByRole('combobox');
    await userEvent.type(box, '服务');
    await userEvent.click(await screen.findByText('风险管理 > 我的服务单'));
    expect(shell.probe.location.pathname).toBe('/piibs/riskControl/prevention/serviceList');
  });
});
