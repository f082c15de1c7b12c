import { ROLE_CODES } from '@piibs/shared/auth';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import forge from 'node-forge';
import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetHttp } from '@/lib/http.ts';
import { useUserStore } from '@/stores/user.ts';
import { fakeUser, type MockApi, mockApi } from '@/test/mock-api.ts';
import { App } from './App.tsx';
// The router loads antd's providers lazily; loaded up front here, as importing antd the first time under
// jsdom takes longer than a findBy waits.
import './AntdRoot.tsx';
import { resetGuard } from './guard.ts';
import { routes } from './router.tsx';

const initialUser = useUserStore.getState();
let api: MockApi;

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<App router={router} />);
  return router;
}

const common = {
  'GET api/init/check': { data: { initialized: true } },
  'GET api/auth/code': { data: { img: 'data:image/svg+xml;base64,eA==', uuid: 'u' } },
  'GET api/auth/getUserRole': {
    data: { role: ROLE_CODES.enterprise, channel: 'enterprise', iSeeSwitch: false },
  },
  'GET api/menus/build': { data: [] },
};

beforeEach(() => {
  resetGuard();
  useUserStore.setState(initialUser, true);
});

afterEach(() => {
  api?.restore();
  resetHttp();
});

describe('/piibs/init (first-run setup; the e2e server is demo-seeded, so this is covered here with a mocked API)', () => {
  it('while not initialised every page leads to /piibs/init; the setup creates the admin and goes to login', async () => {
    let initialized = false;
    api = mockApi({
      ...common,
      'GET api/init/check': () => ({ data: { initialized } }),
      'POST api/init': () => {
        initialized = true;
        return { data: { initialized: true } };
      },
    });
    const router = renderAt('/piibs/login');
    expect(await screen.findByRole('heading', { name: '系统初始化' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/piibs/init');

    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('机构名称'), '示例财产保险股份有限公司');
    await user.type(screen.getByLabelText('管理员账号'), 'root');
    await user.type(screen.getByLabelText('密码'), 'weakpass');
    await user.type(screen.getByLabelText('确认密码'), 'weakpass');
    await user.click(screen.getByRole('button', { name: '完成初始化' }));
    // 8 lower-case letters: under 15 characters a password needs 3 of the 4 kinds of character.
    expect(
      await screen.findByText(/^不足 15 位时须包含大写字母、小写字母、数字、符号中的至少 3 类/),
    ).toBeInTheDocument();
    expect(api.callsTo('POST api/init')).toHaveLength(0);

    await user.clear(screen.getByLabelText('密码'));
    await user.type(screen.getByLabelText('密码'), 'First#Admin2026');
    await user.clear(screen.getByLabelText('确认密码'));
    await user.type(screen.getByLabelText('确认密码'), 'First#Admin2026');
    await user.type(screen.getByLabelText('昵称'), '管理员');
    await user.click(screen.getByRole('button', { name: '完成初始化' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/login'));
    expect(JSON.parse(String(api.callsTo('POST api/init')[0]?.data))).toEqual({
      organisationName: '示例财产保险股份有限公司',
      username: 'root',
      password: 'First#Admin2026',
      nickName: '管理员',
    });
    expect(await screen.findByText('初始化完成，请使用管理员账号登录')).toBeInTheDocument();
  });

  it('the confirmation must match', async () => {
    api = mockApi({ ...common, 'GET api/init/check': { data: { initialized: false } } });
    renderAt('/piibs/init');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('密码'), 'First#Admin2026');
    await user.type(screen.getByLabelText('确认密码'), 'First#Admin2027');
    await user.click(screen.getByRole('button', { name: '完成初始化' }));
    expect(await screen.findByText('两次输入的密码不一致')).toBeInTheDocument();
  });

  it('already initialised: says so and links to the login page', async () => {
    api = mockApi(common);
    renderAt('/piibs/init');
    expect(await screen.findByText('系统已完成初始化')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /前往登录/ })).toHaveAttribute('href', '/piibs/login');
  });
});

describe('/piibs/insured/start?token=… (hand-off)', () => {
  it('exchanges the token, keeps it in session storage as a bearer value, and goes to the dashboard', async () => {
    api = mockApi({
      ...common,
      'POST api/auth/handoff/exchange': {
        data: { token: 'session-token', user: fakeUser({ roles: [ROLE_CODES.enterprise] }) },
      },
    });
    const router = renderAt('/piibs/insured/start?token=one-time');
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/dashboard'));
    expect(JSON.parse(String(api.callsTo('POST api/auth/handoff/exchange')[0]?.data))).toEqual({
      token: 'one-time',
    });
    expect(sessionStorage.getItem('EL-ADMIN-TOEKN')).toBe('Bearer session-token');
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
    expect(api.callsTo('POST api/auth/handoff/exchange')).toHaveLength(1);
  });

  it('an invalid token: message and a link to the login page', async () => {
    api = mockApi({
      ...common,
      'POST api/auth/handoff/exchange': {
        status: 401,
        data: { status: 401, message: '交接令牌无效或已过期' },
      },
    });
    renderAt('/piibs/insured/start?token=used');
    expect(await screen.findByText('交接令牌无效或已过期')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /前往登录/ })).toHaveAttribute('href', '/piibs/login');
    expect(screen.queryByText(/登录状态已过期/)).toBeNull();
  });

  it('/piibs/api/loginByManange does the same and honours only a same-site redirect', async () => {
    api = mockApi({
      ...common,
      'POST api/auth/handoff/exchange': {
        data: { token: 's', user: fakeUser({ roles: [ROLE_CODES.enterprise] }) },
      },
      'GET api/auth/sessions': { data: [] },
      'GET api/auth/logins': { data: [] },
    });
    const router = renderAt('/piibs/api/loginByManange?token=t&redirect=%2Fpiibs%2Fuser%2Fcenter');
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/user/center'));
  });
});

describe('/piibs/logged and the refresh helper', () => {
  it('/piibs/logged with a token goes to the dashboard', async () => {
    localStorage.setItem('EL-ADMIN-TOEKN', 't');
    useUserStore.setState({ roles: ['admin'], user: fakeUser() });
    api = mockApi(common);
    const router = renderAt('/piibs/logged');
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/dashboard'));
  });

  it('/piibs/redirect/* comes back to the path after /redirect, with its query', async () => {
    localStorage.setItem('EL-ADMIN-TOEKN', 't');
    useUserStore.setState({ roles: ['admin'], user: fakeUser() });
    api = mockApi({ ...common, 'GET api/auth/sessions': { data: [] }, 'GET api/auth/logins': { data: [] } });
    const router = renderAt('/piibs/redirect/piibs/user/center?tab=2');
    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/user/center'));
    expect(router.state.location.search).toBe('?tab=2');
  });
});

describe('/piibs/CAlogin', () => {
  function demoP12(password: string): File {
    const keys = forge.pki.rsa.generateKeyPair({ bits: 1024, e: 0x10001 });
    const cert = forge.pki.createCertificate();
    cert.publicKey = keys.publicKey;
    cert.serialNumber = '01';
    cert.validity.notBefore = new Date(Date.now() - 86_400_000);
    cert.validity.notAfter = new Date(Date.now() + 86_400_000);
    cert.setSubject([{ name: 'commonName', value: 'Enterprise' }]);
    cert.setIssuer([{ name: 'commonName', value: 'Enterprise' }]);
    cert.sign(keys.privateKey, forge.md.sha256.create());
    const der = forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert], password)).getBytes();
    return new File([Uint8Array.from(der, (c) => c.charCodeAt(0))], 'enterprise.p12', {
      type: 'application/x-pkcs12',
    });
  }

  it('signs the challenge in the browser, sends certificate + signature, sets the CA marker', async () => {
    api = mockApi({
      ...common,
      'GET api/auth/ca/challenge': {
        data: { challenge: 'the-challenge', expiresAt: '2030-01-01T00:00:00Z' },
      },
      'POST api/auth/loginCA': {
        data: { token: 'ca-token', user: fakeUser({ roles: [ROLE_CODES.enterprise] }) },
      },
    });
    const router = renderAt('/piibs/CAlogin');
    const user = userEvent.setup();
    const input = (await screen.findByRole('button', { name: /选择证书文件/ }))
      .closest('span')
      ?.querySelector('input');
    await user.upload(input as HTMLInputElement, demoP12('Demo@2026'));
    await user.type(screen.getByLabelText('证书密码'), 'Demo@2026');
    await user.click(screen.getAllByRole('button', { name: '证书登录' }).at(-1)!);

    await waitFor(() => expect(router.state.location.pathname).toBe('/piibs/dashboard'), { timeout: 5000 });
    const body = JSON.parse(String(api.callsTo('POST api/auth/loginCA')[0]?.data));
    expect(body.challenge).toBe('the-challenge');
    expect(body.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(body.certificate).not.toMatch(/PRIVATE KEY/);
    expect(body.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(localStorage.getItem('CA')).not.toBeNull();
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBe('ca-token');
  });

  it('a wrong file password is told in Chinese, nothing is sent', async () => {
    api = mockApi(common);
    renderAt('/piibs/CAlogin');
    const user = userEvent.setup();
    const input = (await screen.findByRole('button', { name: /选择证书文件/ }))
      .closest('span')
      ?.querySelector('input');
    await user.upload(input as HTMLInputElement, demoP12('Demo@2026'));
    await user.type(screen.getByLabelText('证书密码'), 'wrong');
    await user.click(screen.getAllByRole('button', { name: '证书登录' }).at(-1)!);
    expect(await screen.findByText('证书密码错误', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(api.callsTo('POST api/auth/loginCA')).toHaveLength(0);
  });
});
