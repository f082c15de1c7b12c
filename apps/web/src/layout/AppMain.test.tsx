import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_CACHED_VIEWS, useTagsViewStore } from '@/stores/tagsView.ts';
import { renderShell, resetShellStores, setBodyWidth } from './test-helpers.tsx';

vi.mock('@/app/view-registry.ts', async (original) =>
  (await import('./test-views.tsx')).mockViewRegistry(original),
);

beforeEach(() => {
  resetShellStores();
  setBodyWidth(1280);
});
afterEach(() => vi.restoreAllMocks());

const input = () => screen.getByLabelText('输入框');

describe('Activity keep-alive', () => {
  it('keeps a typed input value across tab switches', async () => {
    const shell = renderShell('/piibs/system/user');
    await userEvent.type(input(), '张三');
    await shell.navigate('/piibs/system/role');
    expect(screen.getByText('普通页面')).toBeInTheDocument();
    // The kept page is still mounted, hidden.
    expect(screen.getByLabelText('输入框', { selector: 'input' })).not.toBeVisible();
    await shell.navigate('/piibs/system/user');
    expect(input()).toBeVisible();
    expect(input()).toHaveValue('张三');
  });

  it('drops the state after its tab is closed', async () => {
    const shell = renderShell('/piibs/system/user');
    await userEvent.type(input(), '张三');
    await shell.navigate('/piibs/system/role');
    await userEvent.click(screen.getByRole('button', { name: '关闭 用户管理' }));
    expect(screen.queryByLabelText('输入框')).not.toBeInTheDocument();
    await shell.navigate('/piibs/system/user');
    expect(input()).toHaveValue('');
  });

  it('keeps each detail tab with its own params and state (no stale params in hidden pages)', async () => {
    const shell = renderShell('/piibs/epinsure/stepOne/1/A');
    await userEvent.type(screen.getByLabelText('详情输入 1'), 'one');
    await shell.navigate('/piibs/epinsure/stepOne/2/A');
    await userEvent.type(screen.getByLabelText('详情输入 2'), 'two');
    // The hidden page still renders its own id, not the visible page's.
    expect(screen.getByText('详情 1')).not.toBeVisible();
    expect(screen.getByText('详情 2')).toBeVisible();
    await shell.navigate('/piibs/epinsure/stepOne/1/A');
    expect(screen.getByLabelText('详情输入 1')).toHaveValue('one');
    expect(screen.getByLabelText('详情输入 2')).toHaveValue('two');
    expect(screen.getByText('详情 1')).toBeVisible();
  });

  it('a hidden page keeps its own query string', async () => {
    const shell = renderShell('/piibs/system/user?page=3');
    await shell.navigate('/piibs/epinsure/insureList?page=1');
    expect(screen.getByText(/表单 \/piibs\/system\/user/)).not.toBeVisible();
    expect(
      useTagsViewStore.getState().visitedViews.find((v) => v.key === '/piibs/system/user')?.fullPath,
    ).toBe('/piibs/system/user?page=3');
  });

  it('noCache not cached: a noCache page starts fresh each visit', async () => {
    const shell = renderShell('/piibs/epinsure/stepSuccess/9');
    await userEvent.type(input(), 'temp');
    await shell.navigate('/piibs/system/role');
    expect(screen.queryByLabelText('输入框')).not.toBeInTheDocument();
    await shell.navigate('/piibs/epinsure/stepSuccess/9');
    expect(input()).toHaveValue('');
    expect(useTagsViewStore.getState().cachedViews).not.toContain('/piibs/epinsure/stepSuccess/9');
  });

  it(`keeps at most ${MAX_CACHED_VIEWS} pages alive`, async () => {
    const shell = renderShell('/piibs/epinsure/stepOne/0/A');
    for (let id = 1; id <= MAX_CACHED_VIEWS; id++) await shell.navigate(`/piibs/epinsure/stepOne/${id}/A`);
    expect(screen.queryByText('详情 0')).not.toBeInTheDocument();
    expect(screen.getByText('详情 1')).toBeInTheDocument();
    expect(useTagsViewStore.getState().visitedViews).toHaveLength(MAX_CACHED_VIEWS + 2);
  });

  it('redirect honoured: a directory with a redirect goes there', async () => {
    const shell = renderShell('/piibs/epinsure');
    expect(await screen.findByText(/表单 \/piibs\/epinsure\/insureList/)).toBeInTheDocument();
    expect(shell.probe.location.pathname).toBe('/piibs/epinsure/insureList');
  });

  it('an unknown path goes to /piibs/404', async () => {
    renderShell('/piibs/no/such/page');
    expect(await screen.findByText('404 页面')).toBeInTheDocument();
  });
});
