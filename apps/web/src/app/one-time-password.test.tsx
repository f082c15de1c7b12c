// A one-time password from an administrator (new account, reset) signs in to a session that may only change
// the password: the sign-in goes to the change step, as for a psPower-0 password.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetHttp } from '@/lib/http.ts';
import { useUserStore } from '@/stores/user.ts';
import { fakeUser, type MockApi, mockApi } from '@/test/mock-api.ts';
import { App } from './App.tsx';
// The router loads antd's providers lazily; loaded up front here, as importing antd the first time under
// jsdom takes longer than a findBy waits.
import './AntdRoot.tsx';
import { routes } from './router.tsx';

const initial = useUserStore.getState();
let api: MockApi;

beforeEach(() => useUserStore.setState(initial, true));
afterEach(() => {
  api?.restore();
  resetHttp();
});

describe('sign-in with a one-time password', () => {
  it('a strong password whose session is limited to changing it leads to the change step, nothing stored', async () => {
    api = mockApi({
      'GET api/init/check': { data: { initialized: true } },
      'GET api/auth/code': { data: { img: 'data:image/svg+xml;base64,eA==', uuid: 'u1' } },
      'POST api/auth/login': {
        data: { token: 'one-time-token', psPower: 3, user: fakeUser({ roles: ['svc'] }) },
      },
      'GET api/auth/getUserRole': { status: 403, data: { status: 403, message: '请先修改密码' } },
      'GET api/menus/build': { status: 403, data: { status: 403, message: '请先修改密码' } },
    });
    const router = createMemoryRouter(routes, { initialEntries: ['/piibs/login'] });
    render(<App router={router} />);
    await screen.findByRole('img', { name: '验证码' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('用户名'), 'lisi');
    await user.type(screen.getByLabelText('密码'), 'Xy7#kP2m@Qa9');
    await user.type(screen.getByLabelText('验证码'), 'ab12');
    await user.click(screen.getByRole('button', { name: /登\s*录/ }));

    expect(await screen.findByText('您正在使用管理员设置的一次性密码，请先修改密码')).toBeInTheDocument();
    expect(api.callsTo('GET api/auth/getUserRole')[0]?.headers.Authorization).toBe('Bearer one-time-token');
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
    expect(api.callsTo('GET api/menus/build')).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/piibs/login');
  });
});
