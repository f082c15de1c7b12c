// The admin shell (spec §1, §2 shell behaviour and access rules, §4, §6, §8, §9) against the real server:
// guard, server menus, tags and keep-alive, navbar tools, settings, mobile mode, the reduced shell of role 17
// and CA sessions, and the 401 / 403 policy. No mocks, except the 403 answer (see that test).
import { expect, type Page, test } from '@playwright/test';
import {
  avatarMenu,
  bearer,
  breadcrumb,
  CA_MARKER_KEY,
  content,
  fillSignIn,
  menuItem,
  navigateInApp,
  opened,
  openFromSidebar,
  pageToken,
  recordExternalRequests,
  SITE_TITLE,
  shell,
  sidebar,
  signIn,
  signInAlone,
  signInQuickly,
  storage,
  TOKEN_KEY,
  tab,
  tabLink,
  tagsBar,
} from './support.ts';

type MenuRoute = { path: string; hidden?: boolean; meta?: { title?: string }; children?: MenuRoute[] };
type TreeNode = { id: number; label: string; children?: TreeNode[] };

const tabTitles = (page: Page) => tagsBar(page).getByRole('link');
const contextMenu = (page: Page) => page.getByRole('list', { name: '标签操作' });

/** The page inside the content area has rendered something (a page, or the "missing view" notice). */
async function expectPageRendered(page: Page) {
  await expect(content(page).locator(':scope > *').first()).toBeVisible();
  await expect(page.locator('.ant-spin-spinning, .piibs-page-loading')).toHaveCount(0);
}

test.describe('shell', () => {
  test('guard: an unauthenticated deep link goes to login with the redirect, back to it after sign-in; a signed-in visit to /piibs/login goes to the dashboard', async ({
    page,
  }) => {
    const deep = '/piibs/riskControl/prevention/expert';
    await page.goto(deep);
    await expect(page).toHaveURL(/\/piibs\/login\?redirect=%2Fpiibs%2FriskControl%2Fprevention%2Fexpert$/);
    await fillSignIn(page, 'underwriter');
    await expect(page).toHaveURL(new RegExp(`${deep}$`));
    await expect(breadcrumb(page)).toContainText('服务机构');
    await expect(page).toHaveTitle(`服务机构 - ${SITE_TITLE}`);

    await page.goto('/piibs/login');
    await expect(page).toHaveURL(/\/piibs\/dashboard$/);
  });

  test("menus: after sign-in the sidebar shows the server's menus for the role; F5 on a deep menu route stays there, signed in, with the page rendered", async ({
    page,
  }) => {
    await signIn(page, 'service');
    const token = await pageToken(page);
    const res = await page.request.get('/api/menus/build', { headers: bearer(token) });
    const menus = (await res.json()) as MenuRoute[];
    const visible = (list: MenuRoute[] = []) => list.filter((m) => !m.hidden).map((m) => m.meta?.title ?? '');

    // Top level: the dashboard, then the server's visible entries, in the server's order.
    const topLevel = sidebar(page).locator(
      'ul.ant-menu-root > li.ant-menu-item, ul.ant-menu-root > li.ant-menu-submenu > .ant-menu-submenu-title',
    );
    await expect(topLevel).toHaveText(['首页', ...visible(menus)]);
    await expect(menuItem(page, '系统管理')).toHaveCount(0);

    // A directory opens onto the role's pages in it.
    const risk = menus.find((m) => m.meta?.title === '风险管控')!;
    await menuItem(page, '风险管控').click();
    for (const title of visible(risk.children)) await expect(menuItem(page, title)).toBeVisible();
    // Its entries slide open: a click on one while it still moves can land beside it (as openFromSidebar waits).
    await expect(page.locator('.ant-motion-collapse')).toHaveCount(0);

    // A directory is not a page: its crumb is plain text, and its address leads to its first page.
    await menuItem(page, '服务机构').click();
    await expect(breadcrumb(page)).toContainText('风险管控');
    await expect(breadcrumb(page).getByRole('link', { name: '风险管控' })).toHaveCount(0);
    await page.goto('/piibs/riskControl');
    await expect(page).toHaveURL(/\/piibs\/riskControl\/prevention\/serviceList$/);

    // A hidden route with params, loaded by address and reloaded.
    const deep = '/piibs/riskControl/prevention/view/E2E-SEQ-1';
    await page.goto(deep);
    await page.reload();
    await expect(page).toHaveURL(new RegExp(`${deep}$`));
    await expect(page).toHaveTitle(`服务详情 - ${SITE_TITLE}`);
    await expect(breadcrumb(page)).toContainText('服务详情');
    await expect(tabLink(page, '服务详情')).toHaveAttribute('aria-current', 'page');
    await expectPageRendered(page);
    expect(await storage(page, TOKEN_KEY)).toBe(token);
  });

  test('tags: visiting pages adds tabs; close, close others and close all; the affixed 首页 tab survives them all and has no close button; the context menu is 105 px wide', async ({
    page,
  }) => {
    await signInQuickly(page, 'admin');
    await expect(tabTitles(page)).toHaveText(['首页']);
    await expect(tagsBar(page).getByRole('button', { name: '关闭 首页' })).toHaveCount(0);

    await openFromSidebar(page, '风险管控', '我的服务单');
    await openFromSidebar(page, '风险管控', '服务机构');
    await openFromSidebar(page, '产品管理', '险种与责任');
    await expect(tabTitles(page)).toHaveText(['首页', '我的服务单', '服务机构', '险种与责任']);
    await expect(tabLink(page, '险种与责任')).toHaveAttribute('aria-current', 'page');

    // Close the open tab: the most recent tab left is shown.
    await tagsBar(page).getByRole('button', { name: '关闭 险种与责任' }).click();
    await expect(tabTitles(page)).toHaveText(['首页', '我的服务单', '服务机构']);
    await expect(page).toHaveURL(/\/piibs\/riskControl\/prevention\/expert$/);

    // The context menu of a tab.
    await tabLink(page, '我的服务单').click({ button: 'right' });
    await expect(contextMenu(page).getByRole('button')).toHaveText(['刷新', '关闭', '关闭其他', '关闭所有']);
    expect((await contextMenu(page).boundingBox())?.width).toBe(105);
    await contextMenu(page).getByRole('button', { name: '关闭其他' }).click();
    await expect(contextMenu(page)).toHaveCount(0);
    await expect(tabTitles(page)).toHaveText(['首页', '我的服务单']);
    await expect(page).toHaveURL(/\/piibs\/riskControl\/prevention\/serviceList$/);

    // The affixed tab's menu has no 关闭; 关闭所有 leaves it alone, and it is shown.
    await openFromSidebar(page, '风险管控', '服务机构');
    await tabLink(page, '首页').click({ button: 'right' });
    await expect(contextMenu(page).getByRole('button')).toHaveText(['刷新', '关闭其他', '关闭所有']);
    await contextMenu(page).getByRole('button', { name: '关闭所有' }).click();
    await expect(tabTitles(page)).toHaveText(['首页']);
    await expect(page).toHaveURL(/\/piibs\/dashboard$/);
    await expect(tagsBar(page).getByRole('button', { name: '关闭 首页' })).toHaveCount(0);
  });

  test('tags: with more tabs than the bar holds, the new tab is scrolled into view and arrows reach the others', async ({
    page,
  }) => {
    await signInQuickly(page, 'admin');
    // Service-order detail tabs: one per number, each a tab of its own.
    for (let seq = 1; seq <= 24; seq++) {
      const path = `/piibs/riskControl/prevention/index/${seq}`;
      await navigateInApp(page, path);
      await expect(tab(page, path)).toHaveCount(1);
    }
    const last = tagsBar(page).locator('[data-tag-key]').last();
    await expect(last.getByRole('link')).toHaveAttribute('aria-current', 'page');
    await expect(last).toBeInViewport({ ratio: 0.95 });
    const left = tagsBar(page).getByRole('button', { name: '向左滚动标签' });
    await expect(left).toBeEnabled();
    await expect(tabLink(page, '首页')).not.toBeInViewport({ ratio: 0.5 });
    // The left arrow works until the bar is back at its start, where it is disabled.
    await expect(async () => {
      if (await left.isEnabled()) await left.click({ timeout: 500 });
      await expect(left).toBeDisabled({ timeout: 200 });
    }).toPass({ timeout: 15_000 });
    await expect(tabLink(page, '首页')).toBeInViewport({ ratio: 0.95 });
    await expect(tagsBar(page).getByRole('button', { name: '向右滚动标签' })).toBeEnabled();
  });

  test('keep-alive: a cached route with a parameter keeps one state per tab across tab switches; a closed tab reopens fresh', async ({
    page,
  }) => {
    const token = await signInQuickly(page, 'admin');
    const headers = bearer(token);
    const tree = (await (await page.request.get('/api/menus/tree', { headers })).json()) as TreeNode[];
    const risk = tree.find((node) => node.label === '风险管控');
    expect(risk, '风险管控 in the menu tree').toBeTruthy();
    const created = await page.request.post('/api/menus', {
      headers,
      data: {
        type: 1,
        title: 'E2E缓存页',
        parentId: risk!.id,
        path: 'e2eCached/:id',
        // A page with text inputs (the personal center's profile form).
        component: 'UserCenter',
        cache: true,
        hidden: true,
      },
    });
    expect(created.status()).toBe(200);
    const { id } = (await created.json()) as { id: number };
    const one = '/piibs/riskControl/e2eCached/1';
    const two = '/piibs/riskControl/e2eCached/2';
    try {
      // A full load signs in again from the token: the menus (with the new route) are loaded afresh.
      await page.goto(one);
      // The first text box of the visible page (the kept-alive one is hidden): the nickname.
      const input = content(page).getByRole('textbox').first();
      await expect(input).toHaveValue('系统管理员');
      await input.fill('第一个标签');

      await navigateInApp(page, two);
      await expect(tab(page, one)).toBeVisible();
      await expect(tab(page, two)).toBeVisible();
      await expect(input).toHaveValue('系统管理员');
      await input.fill('第二个标签');

      await tab(page, one).getByRole('link').click();
      await expect(page).toHaveURL(new RegExp(`${one}$`));
      await expect(input).toHaveValue('第一个标签');
      await tabLink(page, '首页').click();
      await expect(page).toHaveURL(/\/piibs\/dashboard$/);
      await tab(page, two).getByRole('link').click();
      await expect(input).toHaveValue('第二个标签');
      await tab(page, one).getByRole('link').click();
      await expect(input).toHaveValue('第一个标签');

      // Closed, then opened again: a new page.
      await tab(page, one).getByRole('button', { name: '关闭 E2E缓存页' }).click();
      await expect(tab(page, one)).toHaveCount(0);
      await expect(page).toHaveURL(new RegExp(`${two}$`));
      await expect(input).toHaveValue('第二个标签');
      await navigateInApp(page, one);
      await expect(input).toHaveValue('系统管理员');

      // 刷新 in the tab's menu starts the page afresh too.
      await input.fill('刷新之前');
      await tab(page, one).getByRole('link').click({ button: 'right' });
      await contextMenu(page).getByRole('button', { name: '刷新' }).click();
      await expect(input).toHaveValue('系统管理员');
    } finally {
      await page.request.post('/api/menus/delete', { headers, data: [id] });
    }
  });

  test('header search: part of a menu title finds the page and jumps to it', async ({ page }) => {
    await signInQuickly(page, 'admin');
    await page.getByRole('button', { name: '搜索菜单' }).click();
    await page.getByRole('combobox', { name: '菜单搜索' }).fill('服务机');
    // On a busy machine a click can land while the filtered list is still re-rendering: pick again until it takes.
    await expect(async () => {
      await page.locator('.ant-select-dropdown').getByTitle('风险管控 > 服务机构').click();
      await expect(page).toHaveURL(/\/piibs\/riskControl\/prevention\/expert$/, { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    await expect(breadcrumb(page)).toContainText('服务机构');
  });

  test('size selector: another size says 布局设置成功 and keeps the page', async ({ page }) => {
    await signInQuickly(page, 'admin', '/piibs/user/center');
    const save = content(page).getByRole('button', { name: /保\s*存/ });
    await expect(save).toBeVisible();
    // On a busy machine a click can land while the dropdown is still opening: open and pick again until it takes.
    await expect(async () => {
      const item = page.getByRole('menuitem', { name: '默认' });
      if (!(await item.isVisible())) await page.getByRole('button', { name: '布局大小' }).click();
      await item.click({ timeout: 2_000 });
      await expect(page.getByText('布局设置成功')).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 20_000 });
    await expect(page).toHaveURL(/\/piibs\/user\/center$/);
    // The refreshed page is there, at the new size (antd's default control height: 40 px).
    await expect(save).toBeVisible();
    await expect.poll(async () => (await save.boundingBox())?.height).toBe(40);
    expect(await storage(page, 'size')).toBe('default');
  });

  test('theme: a preset colour from 布局设置 recolours the primary buttons (in a shade white text reads on), with no request leaving the server', async ({
    page,
  }) => {
    const external = recordExternalRequests(page);
    await signInQuickly(page, 'admin', '/piibs/user/center');
    const save = content(page).getByRole('button', { name: /保\s*存/ });
    await expect(save).toBeVisible();

    await avatarMenu(page, '布局设置');
    const drawer = page.getByRole('dialog', { name: '系统布局设置' });
    await drawer.getByRole('button', { name: '主题颜色 #11a983' }).click();
    await expect(drawer.getByRole('button', { name: '主题颜色 #11a983' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // #11a983 under white text reads 2.9:1: the button takes the nearest shade of it that reads at 4.5:1 (WCAG AA),
    // the stored setting keeps the spec's value.
    await expect(save).toHaveCSS('background-color', 'rgb(13, 132, 102)');
    expect(external).toEqual([]);
  });

  test('fullscreen: the toggle enters and leaves full screen', async ({ page }) => {
    await signInQuickly(page, 'admin');
    await page.getByRole('button', { name: '全屏', exact: true }).click();
    await expect(page.getByRole('button', { name: '退出全屏' })).toBeVisible();
    expect(await page.evaluate('document.fullscreenElement !== null')).toBe(true);
    await page.getByRole('button', { name: '退出全屏' }).click();
    await expect(page.getByRole('button', { name: '全屏', exact: true })).toBeVisible();
    expect(await page.evaluate('document.fullscreenElement === null')).toBe(true);
  });

  test('fullscreen: where unsupported, the toggle warns "your browser can not work"', async ({ page }) => {
    await page.addInitScript({
      content: "Object.defineProperty(Document.prototype, 'fullscreenEnabled', { get: () => false });",
    });
    await signInQuickly(page, 'admin');
    await page.getByRole('button', { name: '全屏', exact: true }).click();
    await expect(page.getByText('your browser can not work')).toBeVisible();
  });

  test('footer: shown with its text by default; 显示页脚 off in the settings hides it, and stays off after a reload', async ({
    page,
  }) => {
    await signInQuickly(page, 'admin');
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText(`© 2026 ${SITE_TITLE}`);

    await avatarMenu(page, '布局设置');
    const toggle = page.getByRole('switch', { name: '显示页脚' });
    await expect(toggle).toBeChecked();
    await toggle.click();
    await expect(footer).toHaveCount(0);

    await page.reload();
    await expect(shell(page)).toBeVisible();
    await expect(footer).toHaveCount(0);
    await avatarMenu(page, '布局设置');
    await expect(page.getByRole('switch', { name: '显示页脚' })).not.toBeChecked();
  });

  test('reduced shell for role 17: no home crumb, no 首页 tab or menu entry, the logo is not a link, the last tab cannot be closed', async ({
    page,
  }) => {
    await signIn(page, 'enterprise');
    await expect(page).toHaveURL(/\/piibs\/dashboard$/);
    await expect(page.getByTestId('shell-logo')).toBeVisible();
    await expect(sidebar(page).getByRole('link', { name: SITE_TITLE })).toHaveCount(0);
    await expect(menuItem(page, '首页')).toHaveCount(0);
    await expect(tabTitles(page)).toHaveCount(0);

    await openFromSidebar(page, '风险管控', '我的服务单');
    await expect(breadcrumb(page)).toContainText('我的服务单');
    await expect(breadcrumb(page)).not.toContainText('首页');
    await expect(tabTitles(page)).toHaveText(['我的服务单']);
    await expect(tagsBar(page).getByRole('button', { name: /^关闭/ })).toHaveCount(0);
    await tabLink(page, '我的服务单').click({ button: 'right' });
    await expect(contextMenu(page).getByRole('button')).toHaveText(['刷新', '关闭其他', '关闭所有']);
    await contextMenu(page).getByRole('button', { name: '关闭所有' }).click();
    await expect(tabTitles(page)).toHaveText(['我的服务单']);

    // Two tabs can be closed down to one, which then stays.
    await openFromSidebar(page, '投保管理', '在线投保');
    await expect(tabTitles(page)).toHaveText(['我的服务单', '在线投保']);
    await tagsBar(page).getByRole('button', { name: '关闭 在线投保' }).click();
    await expect(tabTitles(page)).toHaveText(['我的服务单']);
    await expect(page).toHaveURL(/\/piibs\/riskControl\/prevention\/serviceList$/);
    await expect(tagsBar(page).getByRole('button', { name: /^关闭/ })).toHaveCount(0);
  });

  test('reduced shell for a CA session (CA marker set): no 首页 tab, the logo is not a link', async ({
    page,
  }) => {
    // The only demo certificate is the enterprise's (role 17 anyway): a non-17 user with the CA marker
    // that the certificate sign-in sets shows that the marker alone reduces the shell.
    await signInQuickly(page, 'agent');
    await expect(tabLink(page, '首页')).toBeVisible();
    await page.evaluate((key) => localStorage.setItem(key, 'true'), CA_MARKER_KEY);
    await page.reload();
    await expect(shell(page)).toBeVisible();
    await expect(page.getByTestId('shell-logo')).toBeVisible();
    await expect(sidebar(page).getByRole('link', { name: SITE_TITLE })).toHaveCount(0);
    await expect(tabLink(page, '首页')).toHaveCount(0);
    await expect(menuItem(page, '首页')).toHaveCount(0);
  });

  test('401: a revoked session opens the 系统提示 dialog; 重新登录 lands on the login page with the token gone', async ({
    page,
  }) => {
    // A session of its own: the saved agent session is shared by the other specs.
    const token = await signInAlone(page, 'agent', '/piibs/user/center');
    const res = await page.request.post('/api/auth/logout', { headers: bearer(token) });
    expect(res.status()).toBe(200);

    // Any call from the UI now: the personal center's device list.
    await content(page).getByRole('tab', { name: '在线设备' }).click();
    const dialog = await opened(page.getByRole('dialog'));
    await expect(dialog).toContainText('系统提示');
    await expect(dialog).toContainText('登录状态已过期，您可以继续留在该页面，或者重新登录');
    await expect(dialog.getByRole('button')).toHaveCount(2);
    await expect(dialog.getByRole('button', { name: '重新登录' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: /^取\s*消$/ })).toBeVisible();
    await dialog.getByRole('button', { name: '重新登录' }).click();
    await expect(page).toHaveURL(/\/piibs\/login(\?|$)/);
    await expect(page.getByRole('textbox', { name: '用户名' })).toBeVisible();
    expect(await storage(page, TOKEN_KEY)).toBeNull();
  });

  test('403: a refused call leads to /piibs/401', async ({ page }) => {
    // No page reachable by a non-admin calls an admin endpoint (the menus only offer a role its own pages),
    // so one real call of the agent's personal center is answered with the server's 403 body.
    await signInQuickly(page, 'agent', '/piibs/user/center');
    await page.route('**/api/auth/logins', (route) =>
      route.fulfill({ status: 403, json: { status: 403, message: '没有权限执行此操作' } }),
    );
    await content(page).getByRole('tab', { name: '登录记录' }).click();
    await expect(page).toHaveURL(/\/piibs\/401$/);
    await expect(page.getByText('抱歉，您没有权限访问该页面')).toBeVisible();
  });
});

test.describe('shell on a mobile viewport', () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test('mobile sidebar: starts closed; the hamburger opens it with a backdrop; the backdrop closes it; a menu choice closes it', async ({
    page,
  }) => {
    await signInQuickly(page, 'underwriter');
    const backdrop = page.getByRole('button', { name: '关闭侧边栏' });
    await expect(sidebar(page)).not.toBeInViewport();
    await expect(backdrop).toHaveCount(0);

    await page.getByRole('button', { name: '展开侧边栏' }).click();
    await expect(sidebar(page)).toBeInViewport({ ratio: 1 });
    await expect(backdrop).toBeVisible();
    // Beside the sidebar, which lies over the backdrop's left part.
    await backdrop.click({ position: { x: 350, y: 400 } });
    await expect(backdrop).toHaveCount(0);
    await expect(sidebar(page)).not.toBeInViewport();

    await page.getByRole('button', { name: '展开侧边栏' }).click();
    await expect(sidebar(page)).toBeInViewport({ ratio: 1 });
    await openFromSidebar(page, '产品管理', '险种与责任');
    await expect(page).toHaveURL(/\/piibs\/product\/risk$/);
    await expect(backdrop).toHaveCount(0);
    await expect(sidebar(page)).not.toBeInViewport();
  });

  test('header search is hidden on a mobile viewport', async ({ page }) => {
    await signInQuickly(page, 'admin');
    await expect(page.getByRole('button', { name: '布局大小' })).toBeVisible();
    await expect(page.getByRole('button', { name: '搜索菜单' })).toHaveCount(0);
  });
});
