import { ROLE_CODES } from '@piibs/shared/auth';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App as AntApp } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browser, useUserStore } from '@/stores/user.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { useConfirmLogout } from './logout.ts';

function LogoutButton() {
  const confirmLogout = useConfirmLogout();
  return (
    <button type="button" onClick={confirmLogout}>
      退出登录
    </button>
  );
}

let api: MockApi;
afterEach(() => {
  api?.restore();
  vi.restoreAllMocks();
});

describe("logout confirm dialog: 'Are you sure to log out of the system?' (title 'Prompt', OK/Cancel)", () => {
  it('shows 提示 / 确定注销并退出系统吗？ with 确定 and 取消; 取消 keeps the session', async () => {
    localStorage.setItem('EL-ADMIN-TOEKN', 't');
    render(
      <AntApp>
        <LogoutButton />
      </AntApp>,
    );
    await userEvent.click(screen.getByRole('button', { name: '退出登录' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('提示');
    expect(dialog).toHaveTextContent('确定注销并退出系统吗？');
    expect(screen.getByRole('button', { name: /确\s*定/ })).toBeInTheDocument();
    api = mockApi({});
    await userEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
    expect(api.calls).toEqual([]);
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBe('t');
  });

  it('确定 logs out: token and CA marker gone, off to the jumpUrl', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    localStorage.setItem('EL-ADMIN-TOEKN', 't');
    localStorage.setItem('CA', 'true');
    useUserStore.setState({ token: 't', roles: [ROLE_CODES.enterprise], isCA: true });
    api = mockApi({ 'POST api/auth/logout': { data: { jumpUrl: '/piibs/CAlogin' } } });
    render(
      <AntApp>
        <LogoutButton />
      </AntApp>,
    );
    await userEvent.click(screen.getByRole('button', { name: '退出登录' }));
    await userEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/piibs/CAlogin'));
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
    expect(localStorage.getItem('CA')).toBeNull();
    expect(useUserStore.getState().roles).toEqual([]);
  });
});
