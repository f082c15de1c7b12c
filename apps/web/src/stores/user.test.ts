import { ROLE_CODES } from '@piibs/shared/auth';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp, resetHttp } from '@/lib/http.ts';
import { fakeUser, type MockApi, mockApi } from '@/test/mock-api.ts';
import { usePermissionStore } from './permission.ts';
import { browser, type LoginPayload, rolesOf, useUserStore } from './user.ts';

const initial = useUserStore.getState();
let api: MockApi;
let shown: string[];

const form: LoginPayload = {
  username: 'admin',
  password: 'Demo@2026',
  code: 'ab12',
  uuid: 'u-1',
  psPower: 2,
};
const role = { data: { role: 'admin', channel: 'staff', iSeeSwitch: true } };

beforeEach(() => {
  useUserStore.setState(initial, true);
  shown = [];
  configureHttp({ ui: { confirm: () => shown.push('confirm'), error: (message) => shown.push(message) } });
});

afterEach(() => {
  api?.restore();
  resetHttp();
  vi.restoreAllMocks();
});

describe('login (spec §4 session)', () => {
  it('posts the spec login payload form-encoded: username, password, code, uuid, psPower', async () => {
    api = mockApi({
      'POST api/auth/login': { data: { token: 't1', psPower: 2, user: fakeUser() } },
      'GET api/auth/getUserRole': role,
    });
    await useUserStore.getState().login(form);
    const [call] = api.callsTo('POST api/auth/login');
    expect(call?.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(String(call?.data)))).toEqual({
      username: 'admin',
      password: 'Demo@2026',
      code: 'ab12',
      uuid: 'u-1',
      psPower: '2',
    });
  });

  it('with any other psPower: the token is stored and the user is set, menus to load', async () => {
    api = mockApi({
      'POST api/auth/login': { data: { token: 't1', psPower: 1, user: fakeUser() } },
      'GET api/auth/getUserRole': role,
    });
    await useUserStore.getState().login(form);
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBe('t1');
    const state = useUserStore.getState();
    expect(state.token).toBe('t1');
    expect(state.user?.username).toBe('admin');
    expect(state.roles).toEqual(['admin']);
    expect(state.loadMenus).toBe(true);
    expect(state.isCA).toBe(false);
  });

  it('with psPower 0: the token is NOT stored and the response is handed back', async () => {
    api = mockApi({ 'POST api/auth/login': { data: { token: 'weak', psPower: 0, user: fakeUser() } } });
    const result = await useUserStore.getState().login({ ...form, password: 'abc', psPower: 0 });
    expect(result).toMatchObject({ token: 'weak', psPower: 0 });
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
    expect(useUserStore.getState().token).toBeNull();
    expect(useUserStore.getState().user).toBeNull();
    expect(useUserStore.getState().loadMenus).toBe(false);
  });

  it("the server's psPower decides, not the client's estimate", async () => {
    api = mockApi({ 'POST api/auth/login': { data: { token: 'weak', psPower: 0, user: fakeUser() } } });
    await useUserStore.getState().login({ ...form, psPower: 3 });
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
  });

  it('a refusal is returned to the form, without the session-expired dialog', async () => {
    api = mockApi({
      'POST api/auth/login': { status: 401, data: { status: 401, message: '用户名或密码错误' } },
    });
    await expect(useUserStore.getState().login(form)).rejects.toMatchObject({
      status: 401,
      message: '用户名或密码错误',
    });
    expect(shown).toEqual([]);
  });
});

describe('with no roles, the role list defaults to ROLE_SYSTEM_DEFAULT', () => {
  it('rolesOf', () => {
    expect(rolesOf(fakeUser({ roles: [] }))).toEqual(['ROLE_SYSTEM_DEFAULT']);
    expect(rolesOf(null)).toEqual(['ROLE_SYSTEM_DEFAULT']);
    expect(rolesOf(fakeUser({ roles: [ROLE_CODES.enterprise] }))).toEqual([ROLE_CODES.enterprise]);
  });

  it('getInfo loads the user and its role summary', async () => {
    localStorage.setItem('EL-ADMIN-TOEKN', 't');
    api = mockApi({
      'GET api/auth/info': { data: fakeUser({ roles: [] }) },
      'GET api/auth/getUserRole': {
        data: { role: 'ROLE_SYSTEM_DEFAULT', channel: 'agent', iSeeSwitch: true },
      },
    });
    await useUserStore.getState().getInfo();
    const state = useUserStore.getState();
    expect(state.roles).toEqual(['ROLE_SYSTEM_DEFAULT']);
    expect(state).toMatchObject({ role: 'ROLE_SYSTEM_DEFAULT', channel: 'agent', iSeeSwitch: true });
  });
});

describe('CA login sets a CA marker in local storage, stores the token and loads the menus', () => {
  it('loginCA', async () => {
    api = mockApi({
      'POST api/auth/loginCA': {
        data: { token: 'ca-token', user: fakeUser({ roles: [ROLE_CODES.enterprise] }) },
      },
      'GET api/auth/getUserRole': role,
    });
    await useUserStore.getState().loginCA({ certificate: 'PEM', challenge: 'c', signature: 's' });
    expect(api.callsTo('POST api/auth/loginCA')[0]?.data).toBe(
      JSON.stringify({ certificate: 'PEM', challenge: 'c', signature: 's' }),
    );
    expect(localStorage.getItem('CA')).not.toBeNull();
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBe('ca-token');
    expect(useUserStore.getState()).toMatchObject({
      isCA: true,
      loadMenus: true,
      roles: [ROLE_CODES.enterprise],
    });
  });

  it('a password login clears an old CA marker', async () => {
    localStorage.setItem('CA', 'true');
    api = mockApi({
      'POST api/auth/login': { data: { token: 't', psPower: 2, user: fakeUser() } },
      'GET api/auth/getUserRole': role,
    });
    await useUserStore.getState().login(form);
    expect(localStorage.getItem('CA')).toBeNull();
  });
});

describe('hand-off: the token is stored in session storage as a bearer value', () => {
  it('loginHandoff', () => {
    api = mockApi({ 'GET api/auth/getUserRole': role });
    localStorage.setItem('EL-ADMIN-TOEKN', 'own');
    useUserStore.getState().loginHandoff({ token: 'h1', user: fakeUser({ roles: [ROLE_CODES.enterprise] }) });
    expect(sessionStorage.getItem('EL-ADMIN-TOEKN')).toBe('Bearer h1');
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
    expect(useUserStore.getState().loadMenus).toBe(true);
  });
});

describe('logout: clears the token and roles, removes the CA marker, and redirects to the jumpUrl', () => {
  it('logout', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    localStorage.setItem('EL-ADMIN-TOEKN', 'ca-token');
    localStorage.setItem('CA', 'true');
    useUserStore.setState({
      token: 'ca-token',
      roles: [ROLE_CODES.enterprise],
      isCA: true,
      user: fakeUser(),
    });
    usePermissionStore.setState({
      menus: [{ path: '/x', component: 'Layout', meta: { title: 'x' } }],
      loaded: true,
    });
    api = mockApi({ 'POST api/auth/logout': { data: { jumpUrl: '/piibs/CAlogin' } } });
    await useUserStore.getState().logout();
    expect(api.callsTo('POST api/auth/logout')[0]?.headers.Authorization).toBe('Bearer ca-token');
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
    expect(localStorage.getItem('CA')).toBeNull();
    expect(useUserStore.getState()).toMatchObject({ token: null, roles: [], isCA: false, user: null });
    expect(usePermissionStore.getState()).toMatchObject({ menus: [], loaded: false });
    expect(assign).toHaveBeenCalledWith('/piibs/CAlogin');
  });

  it('still ends the local session when the server call fails (expired token), going to the login page', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    localStorage.setItem('EL-ADMIN-TOEKN', 'old');
    api = mockApi({
      'POST api/auth/logout': { status: 401, data: { status: 401, message: '登录状态已过期' } },
    });
    await useUserStore.getState().logout();
    expect(localStorage.getItem('EL-ADMIN-TOEKN')).toBeNull();
    expect(assign).toHaveBeenCalledWith('/piibs/login');
    expect(shown).toEqual([]);
  });
});
