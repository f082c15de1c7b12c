// The README's screenshots (docs/screenshots/*.png), taken from a running demo server. Not a test (the
// Playwright config only picks up *.spec.ts). From the repository root:
//
//   (cd apps/web && ./node_modules/.bin/vite build)
//   DATA_DIR=/tmp/shots PIIBS_DEMO=1 PIIBS_CAPTCHA=off PORT=8240 node apps/server/src/main.ts &
//   PATH=$PWD/node_modules/.bin:$PATH node e2e/screenshots.ts [http://127.0.0.1:8240]
//
// A fresh DATA_DIR gives the same demo data every time.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, expect, type Page } from '@playwright/test';
import { toIndexedPng } from './png-palette.ts';
import {
  avatarMenu,
  fillSignIn,
  menuItem,
  navigateInApp,
  openFromSidebar,
  signInQuickly,
  tabLink,
} from './support.ts';

const baseURL = process.argv[2] ?? process.env.BASE_URL ?? 'http://127.0.0.1:8240';
const outDir = path.resolve(import.meta.dirname, '../docs/screenshots');
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 390, height: 800 };
/** Larger screenshots are re-encoded with a 128-colour palette. */
const MAX_BYTES = 150 * 1024;

async function newPage(browser: Browser, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    viewport,
    deviceScaleFactor: 1,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    reducedMotion: 'reduce',
  });
  return context.newPage();
}

/** Waits for the page to settle (lazy chunks, fonts, drawer animations, notices) and saves it. */
async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.locator('.ant-message-notice').waitFor({ state: 'detached' });
  await page.waitForTimeout(400);
  const file = path.join(outDir, `${name}.png`);
  let png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
  if (png.length > MAX_BYTES) png = toIndexedPng(png);
  writeFileSync(file, png);
  console.log(`${file} (${Math.round(png.length / 1024)} KB)`);
  await page.context().close();
}

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars'],
});
try {
  // The sign-in page, filled in.
  {
    const page = await newPage(browser);
    await page.goto('/piibs/login');
    await expect(page.getByRole('img', { name: '验证码' })).toBeVisible();
    await page.getByRole('textbox', { name: '用户名' }).fill('admin');
    await shoot(page, 'login');
  }

  // The full shell: an administrator with a few pages open.
  {
    const page = await newPage(browser);
    await page.goto('/piibs/login');
    await fillSignIn(page, 'admin');
    await expect(page).toHaveURL(/\/piibs\/dashboard$/);
    await openFromSidebar(page, '风险管控', '我的服务单');
    await openFromSidebar(page, '风险管控', '服务机构');
    await avatarMenu(page, '个人中心');
    await tabLink(page, '首页').click();
    await expect(page.getByRole('heading', { name: '欢迎使用财产保险互联网出单系统' })).toBeVisible();
    await shoot(page, 'dashboard-admin');
  }

  // The reduced shell of role 17: no home tab or crumb, the logo is not a link.
  {
    const page = await newPage(browser);
    await signInQuickly(page, 'enterprise');
    await openFromSidebar(page, '风险管控', '我的服务单');
    await openFromSidebar(page, '投保管理', '在线投保');
    // Back to the welcome page (no menu entry or logo link leads there in this shell).
    await navigateInApp(page, '/piibs/dashboard');
    await expect(page.getByRole('heading', { name: '欢迎使用财产保险互联网出单系统' })).toBeVisible();
    await shoot(page, 'dashboard-enterprise');
  }

  // Every other role's start page: the dashboard drawn from its own figures.
  for (const role of ['underwriter', 'agent', 'service', 'contractor'] as const) {
    const page = await newPage(browser);
    await signInQuickly(page, role);
    await expect(page.getByRole('heading', { name: '欢迎使用财产保险互联网出单系统' })).toBeVisible();
    await expect(page.getByRole('main').locator('section[aria-label] canvas').first()).toBeVisible({
      timeout: 20_000,
    });
    // Let the charts' entry animation finish.
    await page.waitForTimeout(1500);
    await shoot(page, `dashboard-${role}`);
  }

  // The enterprise's application wizard: the premium follows the inputs.
  {
    const page = await newPage(browser);
    await signInQuickly(page, 'enterprise', '/piibs/insured/stepOne/0/1');
    const main = page.getByRole('main');
    await main.getByLabel('险种', { exact: true }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    await main.getByLabel('参保人数').fill('120');
    await expect(main.getByTestId('premium')).toHaveText(/¥/);
    await shoot(page, 'apply-enterprise');
  }

  // The underwriter's review of a co-insured application: quote, co-insurers, applicant, history.
  {
    const page = await newPage(browser);
    await signInQuickly(page, 'underwriter', '/piibs/task/list');
    const main = page.getByRole('main');
    await main.getByRole('row').filter({ hasText: '投保单' }).first().getByRole('button').first().click();
    await expect(main.getByText('保费明细（按责任）')).toBeVisible();
    await shoot(page, 'review-underwriter');
  }

  // A phone: the sidebar slides over the page, with a backdrop.
  {
    const page = await newPage(browser, MOBILE);
    await signInQuickly(page, 'underwriter');
    await page.getByRole('button', { name: '展开侧边栏' }).click();
    await expect(page.getByRole('button', { name: '关闭侧边栏' })).toBeVisible();
    await menuItem(page, '风险管控').click();
    await shoot(page, 'mobile');
  }

  // A list on a phone: the search folded to its first field, a card per service order, its actions at the foot.
  {
    const page = await newPage(browser, MOBILE);
    await signInQuickly(page, 'service', '/piibs/riskControl/prevention/serviceList');
    const cards = page.getByRole('list', { name: '服务单列表' });
    await expect(cards.getByRole('listitem').first()).toBeVisible();
    await shoot(page, 'mobile-list');
  }

  // The layout settings drawer.
  {
    const page = await newPage(browser);
    await signInQuickly(page, 'admin');
    await avatarMenu(page, '布局设置');
    await expect(page.getByRole('switch', { name: '显示页脚' })).toBeVisible();
    await shoot(page, 'settings');
  }
} finally {
  await browser.close();
}
