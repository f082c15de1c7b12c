import type { MenuRoute } from '@piibs/shared/menu';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOME_PATH } from '@/lib/paths.ts';
import { flattenMenus, normalizeMenus, usePermissionStore } from '@/stores/permission.ts';
import {
  matchShellRoute,
  preloadFirstPage,
  redirectTarget,
  STATIC_MENUS,
  toRoutePath,
} from './shell-routes.ts';
import { resetViewLoads, VIEW_PAGES } from './view-registry.ts';

const menus: MenuRoute[] = [
  {
    path: '/piibs/policy',
    component: 'Layout',
    meta: { title: '保单管理', icon: 'policy' },
    children: [
      { path: 'marge/:id/:detail', component: 'policy/Marge', hidden: true, meta: { title: '补充资料' } },
      {
        path: 'marge/updateSale',
        component: 'policy/UpdateSale',
        meta: { title: '销售信息', noCache: true },
      },
      { path: '/piibs/absolute/child', component: 'policy/Abs', meta: { title: '绝对路径', affix: true } },
    ],
  },
  {
    path: '/piibs/old',
    component: 'Layout',
    redirect: '/piibs/policy/marge/updateSale',
    meta: { title: '旧入口' },
  },
];

const flat = flattenMenus(normalizeMenus([...STATIC_MENUS, ...menus]));

describe('menu routes', () => {
  it('nested paths joined; absolute child paths kept', () => {
    expect(flat.map((node) => node.path)).toEqual([
      HOME_PATH,
      '/piibs/user/center',
      '/piibs/policy',
      '/piibs/policy/marge/:id/:detail',
      '/piibs/policy/marge/updateSale',
      '/piibs/absolute/child',
      '/piibs/old',
    ]);
  });

  it('meta flags carried: title, noCache, affix, hidden', () => {
    const updateSale = flat.find((node) => node.view === 'policy/UpdateSale');
    expect(updateSale).toMatchObject({ title: '销售信息', noCache: true, affix: false, hidden: false });
    expect(flat.find((node) => node.view === 'policy/Abs')?.affix).toBe(true);
    expect(flat.find((node) => node.view === 'policy/Marge')?.hidden).toBe(true);
  });

  it('hidden routes are routable, with their params', () => {
    const match = matchShellRoute(flat, '/piibs/policy/marge/12/1');
    expect(match?.node.title).toBe('补充资料');
    expect(match?.params).toMatchObject({ id: '12', detail: '1' });
  });

  it('static segments win over params', () => {
    expect(matchShellRoute(flat, '/piibs/policy/marge/updateSale')?.node.title).toBe('销售信息');
  });

  it('the layout serves the dashboard (首页, affixed, not cached) and the personal center', () => {
    expect(matchShellRoute(flat, HOME_PATH)?.node).toMatchObject({
      title: '首页',
      affix: true,
      noCache: true,
    });
    expect(matchShellRoute(flat, '/piibs/user/center')?.node).toMatchObject({
      title: '个人中心',
      hidden: true,
    });
  });

  it('redirect honoured; a directory without one leads to its first page', () => {
    expect(redirectTarget(flat.find((node) => node.path === '/piibs/old')!)).toBe(
      '/piibs/policy/marge/updateSale',
    );
    expect(redirectTarget(flat.find((node) => node.path === '/piibs/policy')!)).toBe(
      '/piibs/policy/marge/updateSale',
    );
  });

  it('unknown paths match nothing', () => {
    expect(matchShellRoute(flat, '/piibs/nothing')).toBeNull();
  });

  it('route paths are relative to the mount path', () => {
    expect(toRoutePath('/piibs/policy/marge/:id/:detail', '/piibs')).toBe('/policy/marge/:id/:detail');
    expect(toRoutePath('/piibs/policy', '/')).toBe('/piibs/policy');
    expect(toRoutePath('/elsewhere', '/piibs')).toBeUndefined();
  });
});

describe("the first page's code loads beside the shell's", () => {
  const loaded = () => Promise.resolve({ default: () => <p /> });
  beforeEach(() => resetViewLoads());
  afterEach(() => {
    // The stand-in pages loaded here must not be what a later file's pages render.
    resetViewLoads();
    vi.restoreAllMocks();
    usePermissionStore.getState().reset();
  });

  it("the dashboard (the layout's own page) starts loading at once, before any menu arrives", () => {
    const dashboard = vi.spyOn(VIEW_PAGES, 'Dashboard').mockImplementation(loaded);
    preloadFirstPage(HOME_PATH);
    expect(dashboard).toHaveBeenCalledTimes(1);
  });

  it('a menu page starts loading when the menus arrive, not before; a redirecting directory loads nothing', () => {
    const sale = vi.spyOn(VIEW_PAGES, 'policy/UpdateSale').mockImplementation(loaded);
    preloadFirstPage('/piibs/policy/marge/updateSale');
    preloadFirstPage('/piibs/old');
    expect(sale).not.toHaveBeenCalled();
    usePermissionStore.getState().setMenus(menus);
    expect(sale).toHaveBeenCalledTimes(1);
  });

  it("resolves once a known page's code is there; a menu page that waits for the menus does not hold it", async () => {
    let arrive = () => {};
    vi.spyOn(VIEW_PAGES, 'Dashboard').mockImplementation(
      () =>
        new Promise((resolve) => {
          arrive = () => resolve({ default: () => <p /> });
        }),
    );
    let done = false;
    const dashboard = preloadFirstPage(HOME_PATH).then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    arrive();
    await dashboard;
    expect(done).toBe(true);
    await expect(preloadFirstPage('/piibs/policy/marge/updateSale')).resolves.toBeUndefined();
  });
});
