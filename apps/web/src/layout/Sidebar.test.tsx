import { ROLE_CODES } from '@piibs/shared/auth';
import { SIDEBAR_STATUS_KEY, SITE_TITLE } from '@piibs/shared/constants';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialShell, useAppStore } from '@/stores/app.ts';
import { useSettingsStore } from '@/stores/settings.ts';
import { renderShell, resetShellStores, setBodyWidth, signIn } from './test-helpers.tsx';

vi.mock('@/app/view-registry.ts', async (original) =>
  (await import('./test-views.tsx')).mockViewRegistry(original),
);

beforeEach(() => {
  resetShellStores();
  setBodyWidth(1280);
});
afterEach(() => vi.restoreAllMocks());

const sidebar = () => within(screen.getByRole('complementary', { name: '侧边栏' }));
const submenu = (title: string) => sidebar().getByText(title).closest('li');

describe('sidebar from the permitted routes', () => {
  it('shows the logo with the title 财产保险互联网出单系统 and the visible routes, not the hidden ones', async () => {
    renderShell('/piibs/dashboard');
    expect(sidebar().getByText(SITE_TITLE)).toBeInTheDocument();
    // The menu's code loads beside the shell's (Sidebar.tsx): its entries may come a moment after the logo.
    expect(await sidebar().findByText('首页')).toBeInTheDocument();
    expect(sidebar().getByText('系统管理')).toBeInTheDocument();
    expect(sidebar().getByText('风险管理')).toBeInTheDocument();
    // A directory with one visible page shows the page in its place.
    expect(sidebar().getByText('投保单列表')).toBeInTheDocument();
    expect(sidebar().queryByText('投保管理')).not.toBeInTheDocument();
    // Hidden routes stay routable but are not in the menu.
    expect(sidebar().queryByText('填写投保信息')).not.toBeInTheDocument();
    expect(sidebar().queryByText('个人中心')).not.toBeInTheDocument();
  });

  it(`is ${205} px wide (SIDEBAR_WIDTH_PX)`, () => {
    renderShell('/piibs/dashboard');
    expect(screen.getByTestId('shell').style.getPropertyValue('--shell-sidebar-width')).toBe('205px');
  });

  it('clicking an entry navigates to its route', async () => {
    const shell = renderShell('/piibs/dashboard');
    await userEvent.click(sidebar().getByText('投保单列表'));
    expect(shell.probe.location.pathname).toBe('/piibs/epinsure/insureList');
  });

  it('an external link opens in a new window', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const shell = renderShell('/piibs/dashboard');
    await userEvent.click(sidebar().getByText('帮助文档'));
    expect(open).toHaveBeenCalledWith('https://example.com/help', '_blank', 'noopener');
    expect(shell.probe.location.pathname).toBe('/piibs/dashboard');
  });

  it('maps icon names through the fixed table, with a fallback for unknown names', async () => {
    renderShell('/piibs/system/role');
    expect(submenu('系统管理')?.querySelector('[data-icon="setting"]')).toBeInTheDocument();
    // '角色管理' names an icon the table does not know.
    expect(
      sidebar().getByText('角色管理').closest('li')?.querySelector('[data-icon="appstore"]'),
    ).toBeInTheDocument();
  });

  it('the logo links home', () => {
    renderShell('/piibs/dashboard');
    expect(sidebar().getByRole('link', { name: SITE_TITLE })).toHaveAttribute('href', '/piibs/dashboard');
  });

  it('the logo is not a link and the root entry is hidden for role-17 users', () => {
    signIn([ROLE_CODES.enterprise]);
    renderShell('/piibs/epinsure/insureList');
    expect(sidebar().queryByRole('link', { name: SITE_TITLE })).not.toBeInTheDocument();
    expect(sidebar().getByTestId('shell-logo')).toHaveTextContent(SITE_TITLE);
    expect(sidebar().queryByText('首页')).not.toBeInTheDocument();
  });

  it('the logo is not a link and the root entry is hidden for CA users', () => {
    signIn(['ROLE_SYSTEM_DEFAULT'], true);
    renderShell('/piibs/epinsure/insureList');
    expect(sidebar().queryByRole('link', { name: SITE_TITLE })).not.toBeInTheDocument();
    expect(sidebar().queryByText('首页')).not.toBeInTheDocument();
  });

  it('hides the logo when the sidebarLogo setting is off', () => {
    useSettingsStore.getState().changeSetting('sidebarLogo', false);
    renderShell('/piibs/dashboard');
    expect(sidebar().queryByText(SITE_TITLE)).not.toBeInTheDocument();
  });

  it("opens the current page's directory", () => {
    renderShell('/piibs/system/user');
    expect(submenu('系统管理')).toHaveClass('ant-menu-submenu-open');
  });
});

describe('unique-opened menu', () => {
  it('opening a directory closes the other one when uniqueOpened is on', async () => {
    renderShell('/piibs/dashboard');
    await userEvent.click(sidebar().getByText('系统管理'));
    expect(submenu('系统管理')).toHaveClass('ant-menu-submenu-open');
    await userEvent.click(sidebar().getByText('风险管理'));
    expect(submenu('风险管理')).toHaveClass('ant-menu-submenu-open');
    expect(submenu('系统管理')).not.toHaveClass('ant-menu-submenu-open');
  });

  it('several directories stay open when uniqueOpened is off', async () => {
    useSettingsStore.getState().changeSetting('uniqueOpened', false);
    renderShell('/piibs/dashboard');
    await userEvent.click(sidebar().getByText('系统管理'));
    await userEvent.click(sidebar().getByText('风险管理'));
    expect(submenu('系统管理')).toHaveClass('ant-menu-submenu-open');
    expect(submenu('风险管理')).toHaveClass('ant-menu-submenu-open');
  });
});

describe('hamburger and sidebarStatus', () => {
  it('the sidebar is open by default', () => {
    renderShell('/piibs/dashboard');
    expect(screen.getByTestId('shell')).toHaveClass('shell-opened');
    expect(screen.getByRole('button', { name: '收起侧边栏' })).toBeInTheDocument();
  });

  it("the hamburger toggles the sidebar and stores sidebarStatus '0' / '1'", async () => {
    renderShell('/piibs/dashboard');
    await userEvent.click(screen.getByRole('button', { name: '收起侧边栏' }));
    expect(screen.getByTestId('shell')).toHaveClass('shell-collapsed');
    expect(localStorage.getItem(SIDEBAR_STATUS_KEY)).toBe('0');
    await userEvent.click(screen.getByRole('button', { name: '展开侧边栏' }));
    expect(screen.getByTestId('shell')).toHaveClass('shell-opened');
    expect(localStorage.getItem(SIDEBAR_STATUS_KEY)).toBe('1');
  });
});

describe('on a phone', () => {
  it('the closed sidebar is out of reach (inert) and makes its menu only when first opened, then keeps it', async () => {
    setBodyWidth(600);
    // As a phone's page starts: the store measured the device when it was made.
    useAppStore.setState(initialShell());
    renderShell('/piibs/dashboard');
    const aside = screen.getByRole('complementary', { name: '侧边栏' });
    expect(aside).toHaveAttribute('inert');
    expect(sidebar().queryByText('系统管理')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: '展开侧边栏' }));
    expect(aside).not.toHaveAttribute('inert');
    expect(sidebar().getByText('系统管理')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: '关闭侧边栏' }));
    expect(aside).toHaveAttribute('inert');
    // Kept while it slides away.
    expect(sidebar().getByText('系统管理')).toBeInTheDocument();
  });

  it('on a desktop the sidebar is never inert', () => {
    renderShell('/piibs/dashboard');
    expect(screen.getByRole('complementary', { name: '侧边栏' })).not.toHaveAttribute('inert');
  });
});
