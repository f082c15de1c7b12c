import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { verification } from '@/features/policy/test-data.ts';
import { HttpError, http, request } from '@/lib/http.ts';
import { useUserStore } from '@/stores/user.ts';
import { fakeUser, type MockApi, mockApi } from '@/test/mock-api.ts';
import { App } from './App.tsx';
// The router loads antd's providers lazily; loaded up front here, as importing antd the first time under
// jsdom takes longer than a findBy waits.
import './AntdRoot.tsx';
import { createAppRouter, routes } from './router.tsx';

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<App router={router} />);
  return router;
}

let api: MockApi;
const initialUser = useUserStore.getState();

// These routes are behind the guard: signed in, with the user known and the menus loaded.
beforeEach(() => {
  vi.mocked(window.scrollTo).mockClear();
  localStorage.setItem('EL-ADMIN-TOEKN', 'token');
  useUserStore.setState(
    { ...initialUser, token: 'token', user: fakeUser(), roles: ['admin'], loadMenus: true },
    true,
  );
  api = mockApi({
    'GET api/init/check': { data: { initialized: true } },
    'GET api/menus/build': { data: [] },
  });
});

afterEach(() => {
  api.restore();
  useUserStore.setState(initialUser, true);
});

describe('routes (spec §2)', () => {
  it('/ redirects to /piibs/dashboard', async () => {
    const router = renderAt('/');
    expect(
      await screen.findByText('欢迎使用财产保险互联网出单系统', undefined, { timeout: 20_000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/piibs/dashboard');
  });

  it('/piibs also goes to the dashboard', async () => {
    const router = renderAt('/piibs');
    expect(
      await screen.findByText('欢迎使用财产保险互联网出单系统', undefined, { timeout: 20_000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/piibs/dashboard');
  });

  it('/piibs/404 is the catch-all', async () => {
    const router = renderAt('/piibs/no/such/page');
    expect(await screen.findByText('抱歉，您访问的页面不存在')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/piibs/404');
  });

  it('/piibs/401 renders the no-permission page', async () => {
    renderAt('/piibs/401');
    expect(await screen.findByText('抱歉，您没有权限访问该页面')).toBeInTheDocument();
  });

  it('返回首页 on the 404 page goes to the dashboard', async () => {
    const router = renderAt('/piibs/404');
    await userEvent.click(await screen.findByRole('button', { name: /返回首页/ }));
    expect(
      await screen.findByText('欢迎使用财产保险互联网出单系统', undefined, { timeout: 20_000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/piibs/dashboard');
  });
});

describe('the policy verification page (/piibs/verify/:code)', () => {
  it('opens without a sign-in, outside the layout, and shows the verification', async () => {
    localStorage.removeItem('EL-ADMIN-TOEKN');
    useUserStore.setState(initialUser, true);
    api.restore();
    api = mockApi({
      'GET api/init/check': { data: { initialized: true } },
      'GET api/policies/verify/K7M2Q9X4TB8R3N6P': { data: verification() },
    });
    const router = renderAt('/piibs/verify/K7M2Q9X4TB8R3N6P');
    expect(await screen.findByText('保单真实有效', undefined, { timeout: 20_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/piibs/verify/K7M2Q9X4TB8R3N6P');
    expect(document.title).toBe('保单验真 - 财产保险互联网出单系统');
    expect(api.callsTo('GET api/menus/build')).toHaveLength(0);
  });
});

describe("the page title is the route's title followed by the site title", () => {
  it('names the dashboard 首页', async () => {
    renderAt('/piibs/dashboard');
    await screen.findByText('欢迎使用财产保险互联网出单系统', undefined, { timeout: 20_000 });
    expect(document.title).toBe('首页 - 财产保险互联网出单系统');
  });

  it('follows navigation', async () => {
    const router = renderAt('/piibs/dashboard');
    await screen.findByText('欢迎使用财产保险互联网出单系统', undefined, { timeout: 20_000 });
    await act(() => router.navigate('/piibs/401'));
    await screen.findByText('抱歉，您没有权限访问该页面');
    expect(document.title).toBe('401 - 财产保险互联网出单系统');
  });
});

describe('scroll resets to the top on each navigation', () => {
  it('scrolls to the top when the page changes', async () => {
    const router = renderAt('/piibs/dashboard');
    await screen.findByText('欢迎使用财产保险互联网出单系统', undefined, { timeout: 20_000 });
    vi.mocked(window.scrollTo).mockClear();
    await act(() => router.navigate('/piibs/401'));
    await screen.findByText('抱歉，您没有权限访问该页面');
    expect(window.scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('keeps the position when only the query string changes (list filters live in the URL)', async () => {
    const router = renderAt('/piibs/dashboard');
    await screen.findByText('欢迎使用财产保险互联网出单系统', undefined, { timeout: 20_000 });
    vi.mocked(window.scrollTo).mockClear();
    await act(() => router.navigate('/piibs/dashboard?page=2'));
    expect(window.scrollTo).not.toHaveBeenCalled();
  });
});

describe('a 403 response leads to /piibs/401', () => {
  it('the app router receives the navigation from the HTTP client', async () => {
    http.transport = async () => ({ data: {}, status: 403, headers: {} });
    const router = createAppRouter();
    await expect(request({ url: 'api/menus/build' })).rejects.toBeInstanceOf(HttpError);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/piibs/401'));
    router.dispose();
  });
});
