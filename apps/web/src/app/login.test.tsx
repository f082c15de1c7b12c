import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetHttp } from '@/lib/http.ts';
import { useUserStore } from '@/stores/user.ts';
import { fakeUser, type MockApi, type MockHandler, mockApi } from '@/test/mock-api.ts';
import { App } from './App.tsx';
// The router loads antd's providers lazily; loaded up front here, as importing antd the first time under
// jsdom takes longer than a findBy waits.
import './AntdRoot.tsx';
import { routes } from './router.tsx';

const initial = useUserStore.getState();
let api: MockApi;
let captchas = 0;

const captcha: MockHandler = () => {
  captchas++;
  return { data: { img: `data:image/svg+xml;base64,Y2FwdGNoYS0${captchas}`, uuid: `uuid-${captchas}` } };
};

const signedInApi = {
  'GET api/init/check': { data: { initialized: true } },
  'GET api/auth/code': captcha,
  'GET api/auth/getUserRole': { data: { role: 'admin', channel: 'staff', iSeeSwitch: false } },
  'GET api/menus/build': { data: [] },
  'GET api/auth/sessions': { data: [] },
  'GET api/auth/logins': { data: [] },
};

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<App router={router} />);
  return router;
}

async function fillAndSubmit(password = 'Demo@2026') {
  const user = userEvent.setup();
  await user.clear(await screen.findByLabelText('用户名'));
  await user.type(screen.getByLabelText('用户名'), 'admin');
  await user.type(screen.getByLabelText('密码'), password);
  await user.type(screen.getByLabelText('验证码'), 'ab12');
  await user.click(screen.getByRole('button', { name: /登\s*录/ }));
  return user;
}

beforeEach(() => {
  useUserStore.setState(initial, true);
  captchas = 0;
});

afterEach(() => {
  api?.restore();
  resetHttp();
});

describe('/piibs/login', () => {
  it('shows the site title and the captcha image, which refreshes on click', async () => {
    api = mockApi(signedInApi);
    renderAt('/piibs/login');
    expect(await screen.findByRole('heading', { name: '财产保险互联网出单系统' })).toBeInTheDocument();
    const img = await screen.findByRole('img', { name: '验证码' });
    expect(img).toHaveAttribute('src', expect.stringContaining('Y2FwdGNoYS01'));
    await userEvent.click(screen.getByRole('button', { name: /刷新验证码/ }));
    await waitFor(() => expect(api.callsTo('GET api/auth/code')).toHaveLength(2));
    await waitFor(() =>
      expect(screen.getByRole('img', { name: '验证码' })).toHaveAttribute(
        'src',
        expect.stringContaining('Y2FwdGNoYS02'),
      ),
    );
    expect(screen.getByRole('link', { name: '证书登录' })).toHaveAttribute('href', '/piibs/CAlogin');
    expect(document.title).toBe('登录 - 财产保险互联网出单系统');
  });

  it('asks for the missing fields before calling the server', async () => {
    api = mockApi(signedInApi);
    renderAt('/piibs/login');
    await screen.findByRole('img', { name: '验证码' });
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(screen.getByText('请输入用户名')).toBeInTheDocument();
    expect(screen.getByText('请输入密码')).toBeInTheDocument();
    expect(screen.getByText('请输入验证码')).toBeInTheDocument();
    expect(api.callsTo('POST api/auth/login')).toHaveLength(0);
  });

  it('submits username, password, code, uuid and psPower form-encoded, then goes to the safe redirect', async () => {
    api = mockApi({
      ...signedInApi,
      'POST api/auth/login': { data: { token: 'tok', psPower: 2, user: fakeUser() } },
    });
    const router = renderAt('/piibs/login?redirect=%2Fpiibs%2Fuser%2Fcenter');
    await screen.findByRole('img', { name: '验证码' });
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/user/center'));
    const [call] = api.callsTo('POST api/auth/login');
    expect(call?.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(String(call?.data)))).toEqual({
      username: 'admin',
      password: 'Demo@2026',
      code: 'ab12',
      uuid: 'uuid-1',
      psPower: '2',
    });
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBe('tok');
    // The first navigation after login loaded the menus.
    await waitFor(() => expect(api.callsTo('GET api/menus/build')).toHaveLength(1));
  });

  it('refuses an open redirect and lands on the dashboard', async () => {
    api = mockApi({
      ...signedInApi,
      'POST api/auth/login': { data: { token: 'tok', psPower: 2, user: fakeUser() } },
    });
    const router = renderAt('/piibs/login?redirect=%2F%2Fevil.com');
    await screen.findByRole('img', { name: '验证码' });
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/dashboard'));
  });

  it("shows the server's refusal inline (not the session-expired dialog) and takes a fresh captcha", async () => {
    api = mockApi({
      ...signedInApi,
      'POST api/auth/login': { status: 401, data: { status: 401, message: '用户名或密码错误' } },
    });
    renderAt('/piibs/login');
    await screen.findByRole('img', { name: '验证码' });
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('用户名或密码错误');
    expect(screen.queryByText(/登录状态已过期/)).toBeNull();
    await waitFor(() => expect(api.callsTo('GET api/auth/code')).toHaveLength(2));
    expect(screen.getByLabelText('验证码')).toHaveValue('');
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
  });

  it('a refused password also tells the lock-out rule (the server answers a lock like a wrong password)', async () => {
    api = mockApi({
      ...signedInApi,
      'POST api/auth/login': { status: 401, data: { status: 401, message: '用户名或密码错误' } },
    });
    renderAt('/piibs/login');
    await screen.findByRole('img', { name: '验证码' });
    await fillAndSubmit();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('用户名或密码错误');
    expect(alert).toHaveTextContent('连续 5 次密码错误，账号将锁定 15 分钟');
  });

  it('shows the per-IP rate limit (429) without the lock-out rule', async () => {
    api = mockApi({
      ...signedInApi,
      'POST api/auth/login': { status: 429, data: { status: 429, message: '操作过于频繁，请 42 秒后再试' } },
    });
    renderAt('/piibs/login');
    await screen.findByRole('img', { name: '验证码' });
    await fillAndSubmit();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('操作过于频繁，请 42 秒后再试');
    expect(alert).not.toHaveTextContent('锁定');
  });

  it('remember me keeps only the username, never the password', async () => {
    api = mockApi({
      ...signedInApi,
      'POST api/auth/login': { data: { token: 'tok', psPower: 2, user: fakeUser() } },
    });
    const router = renderAt('/piibs/login');
    await screen.findByRole('img', { name: '验证码' });
    await userEvent.click(screen.getByRole('checkbox', { name: '记住我' }));
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/dashboard'));
    const stored = Object.entries(localStorage).map(([key, value]) => `${key}=${value}`);
    expect(stored).toContain('piibs-remember-username=admin');
    expect(stored.join('\n')).not.toContain('Demo@2026');
    expect(document.cookie).not.toContain('Demo@2026');
  });

  it('psPower 0: no token is stored; the change-password step uses the token in memory, then sign in again', async () => {
    api = mockApi({
      ...signedInApi,
      'POST api/auth/login': { data: { token: 'weak-token', psPower: 0, user: fakeUser() } },
      'POST api/users/updatePass': { data: { psPower: 2, revokedSessions: 0 } },
      'POST api/auth/logout': { data: { jumpUrl: '/piibs/login' } },
    });
    const router = renderAt('/piibs/login');
    await screen.findByRole('img', { name: '验证码' });
    const user = await fillAndSubmit('password');
    expect(await screen.findByText('您的密码强度过低，请先修改密码')).toBeInTheDocument();
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
    expect(sessionStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();

    await user.type(screen.getByLabelText('新密码'), 'weak');
    await user.click(screen.getByRole('button', { name: /修改密码/ }));
    expect(await screen.findByText('至少 8 个字符')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('新密码'));
    await user.type(screen.getByLabelText('新密码'), 'Strong#Pass2026');
    await user.type(screen.getByLabelText('确认密码'), 'Strong#Pass2026');
    expect(screen.getByText(/密码强度：强/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /修改密码/ }));

    expect(await screen.findByText('密码修改成功，请使用新密码重新登录')).toBeInTheDocument();
    const [change] = api.callsTo('POST api/users/updatePass');
    expect(change?.headers.Authorization).toBe('Bearer weak-token');
    expect(JSON.parse(String(change?.data))).toEqual({ oldPass: 'password', newPass: 'Strong#Pass2026' });
    expect(api.callsTo('POST api/auth/logout')[0]?.headers.Authorization).toBe('Bearer weak-token');
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
    expect(router.state.location.pathname).toBe('/piibs/login');
    expect(screen.getByLabelText('密码')).toHaveValue('');
  });
});

describe('/piibs/loginEP', () => {
  it('has its own heading and lands on the enterprise application list', async () => {
    api = mockApi({
      ...signedInApi,
      'POST api/auth/login': { data: { token: 'tok', psPower: 2, user: fakeUser() } },
    });
    const router = renderAt('/piibs/loginEP');
    const visited: string[] = [];
    router.subscribe((state) => {
      // Redirected before it commits, so the target shows as the pending navigation.
      if (state.navigation.location) visited.push(state.navigation.location.pathname);
    });
    expect(await screen.findByRole('heading', { name: '工程险企业登录' })).toBeInTheDocument();
    await screen.findByRole('img', { name: '验证码' });
    await fillAndSubmit();
    await waitFor(() => expect(visited).toContain('/piibs/epinsure/insureList'));
    // That list's route comes from the server's menus; the mocked menus are empty, so the catch-all answers.
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/404'));
  });
});
