import { ROLE_CODES } from '@piibs/shared/auth';
import { TAG_CONTEXT_MENU_WIDTH_PX } from '@piibs/shared/constants';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSettingsStore } from '@/stores/settings.ts';
import { useTagsViewStore } from '@/stores/tagsView.ts';
import { TagsView } from './TagsView.tsx';
import { renderShell, resetShellStores, setBodyWidth, signIn } from './test-helpers.tsx';

vi.mock('@/app/view-registry.ts', async (original) =>
  (await import('./test-views.tsx')).mockViewRegistry(original),
);

beforeEach(() => {
  resetShellStores();
  setBodyWidth(1280);
});
afterEach(() => vi.restoreAllMocks());

const bar = () => within(screen.getByRole('navigation', { name: '标签栏' }));
const tabTitles = () =>
  bar()
    .queryAllByRole('link')
    .map((link) => link.textContent);
const tab = (title: string) => bar().getByRole('link', { name: title });

async function visit(shell: ReturnType<typeof renderShell>, ...paths: string[]) {
  for (const path of paths) await shell.navigate(path);
}

describe('tags bar', () => {
  it('tags add on navigation, after the affixed dashboard', async () => {
    const shell = renderShell('/piibs/dashboard');
    await screen.findByText('欢迎使用财产保险互联网出单系统');
    await visit(shell, '/piibs/system/user', '/piibs/epinsure/insureList');
    expect(tabTitles()).toEqual(['首页', '用户管理', '投保单列表']);
    expect(tab('投保单列表')).toHaveAttribute('aria-current', 'page');
  });

  it('per-full-path tabs: two detail pages of one route are two tabs', async () => {
    const shell = renderShell('/piibs/epinsure/stepOne/1/A');
    await visit(shell, '/piibs/epinsure/stepOne/2/A');
    expect(tabTitles()).toEqual(['首页', '填写投保信息', '填写投保信息']);
    expect(
      bar()
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/piibs/dashboard', '/piibs/epinsure/stepOne/1/A', '/piibs/epinsure/stepOne/2/A']);
  });

  it('two tabs of one view for different records read differently: each names its record', async () => {
    const shell = renderShell('/piibs/epinsure/stepOne/1/A');
    await visit(shell, '/piibs/epinsure/stepOne/2/A');
    // What a page says of its record (useTabRecord): a customer's name, a business number.
    act(() => {
      useTagsViewStore.getState().setRecordTitle('/piibs/epinsure/stepOne/1/A', '镇江润扬机械制造有限公司');
      useTagsViewStore.getState().setRecordTitle('/piibs/epinsure/stepOne/2/A', '镇江示例安全科技有限公司');
    });
    expect(tabTitles()).toEqual([
      '首页',
      '填写投保信息 镇江润扬机械制造有限公司',
      '填写投保信息 镇江示例安全科技有限公司',
    ]);
    expect(
      bar().getByRole('button', { name: '关闭 填写投保信息 镇江示例安全科技有限公司' }),
    ).toBeInTheDocument();
  });

  it('no close button on affix tabs', () => {
    renderShell('/piibs/system/user');
    expect(bar().queryByRole('button', { name: '关闭 首页' })).not.toBeInTheDocument();
    expect(bar().getByRole('button', { name: '关闭 用户管理' })).toBeInTheDocument();
  });

  it('close: closing the current tab shows the last remaining one', async () => {
    const shell = renderShell('/piibs/system/user');
    await visit(shell, '/piibs/system/role');
    await userEvent.click(bar().getByRole('button', { name: '关闭 角色管理' }));
    expect(tabTitles()).toEqual(['首页', '用户管理']);
    expect(shell.probe.location.pathname).toBe('/piibs/system/user');
  });

  it('is hidden when the tagsView setting is off', () => {
    useSettingsStore.getState().changeSetting('tagsView', false);
    renderShell('/piibs/system/user');
    expect(screen.queryByRole('navigation', { name: '标签栏' })).not.toBeInTheDocument();
  });
});

describe('tag context menu', () => {
  it(`context menu items and width ${TAG_CONTEXT_MENU_WIDTH_PX} px: 刷新 / 关闭 / 关闭其他 / 关闭所有`, () => {
    renderShell('/piibs/system/user');
    fireEvent.contextMenu(tab('用户管理'), { clientX: 40, clientY: 60 });
    const menu = screen.getByRole('list', { name: '标签操作' });
    expect(
      within(menu)
        .getAllByRole('button')
        .map((item) => item.textContent),
    ).toEqual(['刷新', '关闭', '关闭其他', '关闭所有']);
    expect(menu).toHaveStyle({ width: '105px', left: '40px', top: '60px' });
  });

  it('an affixed tab has no 关闭 in its menu', () => {
    renderShell('/piibs/system/user');
    fireEvent.contextMenu(tab('首页'));
    const menu = screen.getByRole('list', { name: '标签操作' });
    expect(
      within(menu)
        .getAllByRole('button')
        .map((item) => item.textContent),
    ).toEqual(['刷新', '关闭其他', '关闭所有']);
  });

  it('关闭其他 keeps the chosen tab and the affixed ones, and opens the chosen tab', async () => {
    const shell = renderShell('/piibs/system/user');
    await visit(shell, '/piibs/system/role', '/piibs/epinsure/insureList');
    fireEvent.contextMenu(tab('角色管理'));
    await userEvent.click(screen.getByRole('button', { name: '关闭其他' }));
    expect(tabTitles()).toEqual(['首页', '角色管理']);
    expect(shell.probe.location.pathname).toBe('/piibs/system/role');
  });

  it('关闭所有 leaves the affixed tabs (affix survive) and goes to the last of them', async () => {
    const shell = renderShell('/piibs/system/user');
    await visit(shell, '/piibs/system/role');
    fireEvent.contextMenu(tab('用户管理'));
    await userEvent.click(screen.getByRole('button', { name: '关闭所有' }));
    expect(tabTitles()).toEqual(['首页']);
    expect(shell.probe.location.pathname).toBe('/piibs/dashboard');
  });

  it('关闭 closes the right-clicked tab', async () => {
    const shell = renderShell('/piibs/system/user');
    await visit(shell, '/piibs/system/role');
    fireEvent.contextMenu(tab('用户管理'));
    await userEvent.click(screen.getByRole('button', { name: '关闭' }));
    expect(tabTitles()).toEqual(['首页', '角色管理']);
    expect(shell.probe.location.pathname).toBe('/piibs/system/role');
  });

  it('刷新 remounts the page with fresh state', async () => {
    renderShell('/piibs/system/user');
    await userEvent.type(screen.getByLabelText('输入框'), 'abc');
    fireEvent.contextMenu(tab('用户管理'));
    await userEvent.click(screen.getByRole('button', { name: '刷新' }));
    expect(screen.getByLabelText('输入框')).toHaveValue('');
    expect(screen.queryByRole('list', { name: '标签操作' })).not.toBeInTheDocument();
  });

  it('a click elsewhere closes the menu', async () => {
    renderShell('/piibs/system/user');
    fireEvent.contextMenu(tab('用户管理'));
    await userEvent.click(document.body);
    expect(screen.queryByRole('list', { name: '标签操作' })).not.toBeInTheDocument();
  });
});

describe('reduced shell hides home tab and keeps the last tab', () => {
  it('role 17: no home tab, and no close button on the last tab', async () => {
    signIn([ROLE_CODES.enterprise]);
    const shell = renderShell('/piibs/epinsure/insureList');
    expect(tabTitles()).toEqual(['投保单列表']);
    expect(bar().queryByRole('button', { name: '关闭 投保单列表' })).not.toBeInTheDocument();
    await visit(shell, '/piibs/system/user');
    expect(tabTitles()).toEqual(['投保单列表', '用户管理']);
    await userEvent.click(bar().getByRole('button', { name: '关闭 用户管理' }));
    expect(tabTitles()).toEqual(['投保单列表']);
    expect(shell.probe.location.pathname).toBe('/piibs/epinsure/insureList');
  });

  it('CA user: 关闭所有 keeps the right-clicked tab, and the last tab offers no 关闭', async () => {
    signIn(['ROLE_SYSTEM_DEFAULT'], true);
    const shell = renderShell('/piibs/system/user');
    await visit(shell, '/piibs/system/role');
    fireEvent.contextMenu(tab('用户管理'));
    await userEvent.click(screen.getByRole('button', { name: '关闭所有' }));
    expect(tabTitles()).toEqual(['用户管理']);
    expect(shell.probe.location.pathname).toBe('/piibs/system/user');
    fireEvent.contextMenu(tab('用户管理'));
    const menu = screen.getByRole('list', { name: '标签操作' });
    expect(within(menu).queryByRole('button', { name: '关闭' })).not.toBeInTheDocument();
  });

  it('role 17 visiting the dashboard gets no home tab', async () => {
    signIn([ROLE_CODES.enterprise]);
    const shell = renderShell('/piibs/system/user');
    await visit(shell, '/piibs/dashboard');
    expect(tabTitles()).toEqual(['用户管理']);
    expect(useTagsViewStore.getState().visitedViews.map((v) => v.key)).toEqual(['/piibs/system/user']);
  });

  it('role 17 landing on the dashboard sees no empty tags band (the home tab is hidden, nothing else is open)', async () => {
    signIn([ROLE_CODES.enterprise]);
    renderShell('/piibs/dashboard');
    await screen.findByTestId('shell');
    expect(screen.queryByRole('navigation', { name: '标签栏' })).not.toBeInTheDocument();
  });

  it('is drawn before its first tab is added when the page will be one (the page below does not move down)', () => {
    const bare = (activeIsTab: boolean) =>
      render(
        <MemoryRouter>
          <TagsView activeKey="/piibs/dashboard" reduced={false} activeIsTab={activeIsTab} />
        </MemoryRouter>,
      );
    expect(useTagsViewStore.getState().visitedViews).toEqual([]);
    const coming = bare(true);
    expect(screen.getByRole('navigation', { name: '标签栏' })).toBeInTheDocument();
    expect(tabTitles()).toEqual([]);
    coming.unmount();
    bare(false);
    expect(screen.queryByRole('navigation', { name: '标签栏' })).not.toBeInTheDocument();
  });
});
