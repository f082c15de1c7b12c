import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetHttp } from '@/lib/http.ts';
import { useUserStore } from '@/stores/user.ts';
import { fakeUser, type MockApi, mockApi } from '@/test/mock-api.ts';
import { avatarProblem } from '../components/ProfileCard.tsx';
import UserCenterPage from './UserCenterPage.tsx';

const initialUser = useUserStore.getState();
let api: MockApi;

const session = (id: string, current: boolean) => ({
  id,
  method: 'password',
  ip: '127.0.0.1',
  userAgent: 'Mozilla/5.0 (Windows NT 10.0) Chrome/140.0',
  createdAt: '2026-01-02T03:04:05.000Z',
  lastSeenAt: '2026-01-02T03:04:05.000Z',
  expiresAt: '2026-01-09T03:04:05.000Z',
  current,
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AntApp>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <UserCenterPage />
        </MemoryRouter>
      </QueryClientProvider>
    </AntApp>,
  );
}

beforeEach(() => {
  localStorage.setItem('EL-ADMIN-TOEKN', 't');
  useUserStore.setState(
    {
      ...initialUser,
      token: 't',
      user: fakeUser({
        phone: '138****5678',
        channel: 'agent',
        roles: ['agent', 'safety_officer'],
        roleNames: ['代理人', '安全专员'],
      }),
      roles: ['agent', 'safety_officer'],
    },
    true,
  );
});

afterEach(() => {
  api?.restore();
  resetHttp();
  useUserStore.setState(initialUser, true);
});

describe('personal center', () => {
  it('avatar: png/jpeg/webp up to 2 MB, checked before the upload', () => {
    expect(avatarProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(avatarProblem({ type: 'image/webp', size: 2 * 1024 * 1024 })).toBeNull();
    expect(avatarProblem({ type: 'image/gif', size: 1000 })).toBe('头像只能是 PNG、JPEG 或 WebP 格式');
    expect(avatarProblem({ type: 'image/jpeg', size: 2 * 1024 * 1024 + 1 })).toBe('头像大小不能超过 2MB');
  });

  it('shows the profile; saving keeps the masked phone and validates the email with the shared rule', async () => {
    api = mockApi({
      'PUT api/users/center': (config) => ({
        data: fakeUser({ ...JSON.parse(String(config.data)), channel: 'agent' }),
      }),
    });
    renderPage();
    // Roles by name, a custom role too (never its code).
    expect(screen.getByText('代理人、安全专员')).toBeInTheDocument();
    expect(screen.queryByText(/safety_officer/)).toBeNull();
    expect(screen.getByText('代理渠道')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('用户邮箱'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('请输入正确的邮箱地址')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('用户邮箱'));
    await user.type(screen.getByLabelText('用户邮箱'), 'a@example.com');
    await user.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.callsTo('PUT api/users/center')).toHaveLength(1));
    expect(JSON.parse(String(api.callsTo('PUT api/users/center')[0]?.data))).toEqual({
      nickName: '系统管理员',
      phone: '138****5678',
      email: 'a@example.com',
    });
  });

  it('avatar upload is sent as multipart with the field avatar', async () => {
    api = mockApi({ 'POST api/users/updateAvatar': { data: { avatar: 'abc.png' } } });
    renderPage();
    const input = screen
      .getByRole('button', { name: /更换头像/ })
      .closest('span')
      ?.querySelector('input');
    await userEvent.upload(input as HTMLInputElement, new File(['png'], 'me.png', { type: 'image/png' }));
    await waitFor(() => expect(useUserStore.getState().user?.avatar).toBe('abc.png'));
    const [call] = api.callsTo('POST api/users/updateAvatar');
    expect(call?.data).toBeInstanceOf(FormData);
    expect((call!.data as FormData).get('avatar')).toBeInstanceOf(File);
  });

  it('wrong old password is shown on its field', async () => {
    api = mockApi({
      'POST api/users/updatePass': {
        status: 400,
        data: { status: 400, message: '旧密码错误', errors: [{ field: 'oldPass', message: '旧密码错误' }] },
      },
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: '修改密码' }));
    await user.type(screen.getByLabelText('旧密码'), 'Old#Pass2026');
    await user.type(screen.getByLabelText('新密码'), 'New#Pass2026x');
    await user.type(screen.getByLabelText('确认密码'), 'New#Pass2026x');
    await user.click(screen.getAllByRole('button', { name: /修改密码/ }).at(-1)!);
    await waitFor(() =>
      expect(screen.getByLabelText('旧密码').closest('.ant-form-item')).toHaveTextContent('旧密码错误'),
    );
  });

  it('active sessions: 退出其他设备 revokes the others', async () => {
    let sessions = [session('a', true), session('b', false)];
    api = mockApi({
      'GET api/auth/sessions': () => ({ data: sessions }),
      'GET api/auth/logins': { data: [] },
      'POST api/auth/sessions/revokeOthers': () => {
        sessions = [session('a', true)];
        return { data: { revoked: 1 } };
      },
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: '在线设备' }));
    expect(await screen.findByText('当前设备')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '退出其他设备' }));
    await user.click(await screen.findByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('已退出 1 个其他设备')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: '退出其他设备' })).toBeDisabled());
  });
});
