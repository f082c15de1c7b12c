// Accessibility of the shell (issue #22 items 3 and 9) against the real server, beside the plain-words sweep that
// runs axe-core on every menu page of every demo role, in the default theme, dark mode and every theme colour:
// - axe-core (WCAG 2.1 A and AA) in every theme colour of the settings panel, light and dark, on the pages that are
//   no menu page (the dashboard, 个人中心 as a form); and on pages loaded in a theme remembered from storage;
// - the keyboard: a skip link first, a visible focus ring, the tag context menu and the settings drawer operated
//   by keys, Esc closing them and the focus going back where it was;
// - reflow: at 320 and 375 px the navbar stays one 50 px line with every control whole, and no page scrolls
//   sideways (a list is a column of cards).
import { PREDEFINED_THEME_COLORS } from '@piibs/shared/constants';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { seriousViolations, ThemeSwitcher } from './axe.ts';
import { content, shell, signInQuickly, tab, tagsBar } from './support.ts';

const SETTINGS_KEY = 'layout-settings';

async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active, .piibs-page-loading')).toHaveCount(0);
}

// The pages that are no menu page, checked as plain-words checks the menu pages: loaded once, then switched in
// place through every theme colour (the colour rules on what each recolours) and dark mode (every rule).
test('axe: the dashboard and 个人中心 (a form) in every theme colour and in dark mode have no serious fault', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInQuickly(page, 'admin');
  const themes = await ThemeSwitcher.open(page);
  const found: string[] = [];
  for (const [turn, path] of ['/piibs/dashboard', '/piibs/user/center'].entries()) {
    await page.goto(path);
    await settled(page);
    found.push(...(await seriousViolations(page, path)), ...(await themes.sweep(path, turn)));
  }
  await themes.close();
  expect(found).toEqual([]);
});

// A returning user's theme is read from storage as the app loads: the dashboard and a list loaded in a
// remembered colour, light and dark.
for (const [color, dark] of [
  [PREDEFINED_THEME_COLORS[3]!, false],
  [PREDEFINED_THEME_COLORS[5]!, true],
] as const) {
  test(`axe: loaded in a remembered theme (${color}${dark ? ', 暗色' : ''}), the dashboard and a list have no serious fault`, async ({
    page,
  }) => {
    await signInQuickly(page, 'admin');
    const defaultTheme = await shell(page).getAttribute('style');
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
      SETTINGS_KEY,
      JSON.stringify({ state: { theme: color, dark }, version: 1 }),
    ] as const);
    const found: string[] = [];
    for (const path of ['/piibs/dashboard', '/piibs/system/user']) {
      await page.goto(path);
      await settled(page);
      expect(await shell(page).getAttribute('style'), 'the remembered theme applies').not.toBe(defaultTheme);
      found.push(...(await seriousViolations(page, `${path} (${color}${dark ? ', 暗色' : ''})`)));
    }
    expect(found).toEqual([]);
  });
}

// The scripts are strings because the e2e project has no DOM typings.
/** The element that has the focus, as its accessible name or text. */
const focusedText = (page: Page) =>
  page.evaluate(
    `(() => { const el = document.activeElement; return el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? ''; })()`,
  ) as Promise<string>;

/** Whether the focused element draws a focus ring (an outline of some width). */
const focusRing = (page: Page) =>
  page.evaluate(
    `(() => { const s = getComputedStyle(document.activeElement); return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0; })()`,
  ) as Promise<boolean>;

/** The texts among `selector`'s elements that break over more than one line. */
const brokenTexts = (page: Page, selector: string) =>
  page.evaluate(
    `[...document.querySelectorAll(${JSON.stringify(selector)})]
      .filter((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
      })
      .map((el) => el.textContent)`,
  ) as Promise<string[]>;

/** The card titles on the page cut short (wider than their box). */
const cutCardTitles = (page: Page) =>
  page.evaluate(
    `[...document.querySelectorAll('main .ant-card-head-title')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent)`,
  ) as Promise<string[]>;

/** How far the page scrolls sideways (0 when it does not). */
const sidewaysScroll = (page: Page) =>
  page.evaluate(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  ) as Promise<number>;

test.describe('keyboard use of the shell', () => {
  test('the skip link comes first, shows when focused and takes the focus to the page content; shell controls show a focus ring', async ({
    page,
  }) => {
    await signInQuickly(page, 'admin', '/piibs/system/user');
    const skip = page.getByRole('link', { name: '跳到主要内容' });
    await page.keyboard.press('Tab');
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    expect(await focusRing(page)).toBe(true);
    await page.keyboard.press('Enter');
    await expect(content(page)).toBeFocused();
    await expect(page).toHaveURL(/\/piibs\/system\/user$/);

    // The navbar's controls, reached by Tab, each with a visible ring.
    const hamburger = page.getByRole('button', { name: /侧边栏/ });
    await hamburger.focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    await expect(hamburger).toBeFocused();
    expect(await focusRing(page)).toBe(true);
  });

  test('the tag context menu opens with Shift+F10 on a tab, is walked with the arrows, runs with Enter; Esc closes it and the focus goes back to the tab', async ({
    page,
  }) => {
    await signInQuickly(page, 'admin', '/piibs/system/role');
    await page.goto('/piibs/system/user');
    const menu = page.getByRole('list', { name: '标签操作' });
    const userTab = tab(page, '/piibs/system/user').getByRole('link');
    await expect(userTab).toBeVisible();

    await userTab.focus();
    await page.keyboard.press('Shift+F10');
    await expect(menu).toBeVisible();
    expect(await focusedText(page)).toBe('刷新');
    await page.keyboard.press('ArrowDown');
    expect(await focusedText(page)).toBe('关闭');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focusedText(page)).toBe('关闭所有');
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(userTab).toBeFocused();

    // 关闭其他 by keys: the other tabs go, this one stays and keeps the focus.
    await page.keyboard.press('Shift+F10');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await focusedText(page)).toBe('关闭其他');
    await page.keyboard.press('Enter');
    await expect(menu).toBeHidden();
    await expect(tab(page, '/piibs/system/role')).toHaveCount(0);
    await expect(userTab).toBeFocused();
    await expect(tagsBar(page)).toBeVisible();
  });

  test('the settings drawer opens from the avatar menu by keys, its theme colours are chosen with Enter, Esc closes it and the focus goes back to the avatar button', async ({
    page,
  }) => {
    await signInQuickly(page, 'admin');
    const avatar = page.getByRole('button', { name: '用户菜单' });
    await avatar.focus();
    await page.keyboard.press('Enter');
    const entry = page.getByRole('menuitem', { name: '布局设置' });
    await expect(entry).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: '个人中心' })).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(entry).toBeFocused();
    await page.keyboard.press('Enter');

    const drawer = page.getByRole('dialog', { name: '系统布局设置' });
    await expect(drawer).toBeVisible();
    const green = drawer.getByRole('button', { name: '主题颜色 #11a983' });
    await green.focus();
    expect(await focusRing(page)).toBe(true);
    await page.keyboard.press('Enter');
    await expect(green).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(avatar).toBeFocused();
  });
});

/** Boxes of the navbar and its direct controls. */
async function navbarBoxes(page: Page) {
  const navbar = page.locator('.shell-navbar');
  const controls: Locator[] = [
    page.getByRole('button', { name: /侧边栏/ }),
    page.locator('.shell-breadcrumb'),
    ...(await page.locator('.shell-navbar-right > *').all()),
  ];
  return {
    bar: (await navbar.boundingBox())!,
    boxes: await Promise.all(controls.map(async (c) => (await c.boundingBox())!)),
  };
}

for (const width of [320, 375]) {
  test.describe(`at ${width} px wide`, () => {
    test.use({ viewport: { width, height: 740 } });

    test(`the navbar is one 50 px line: every control whole, side by side, the avatar square, the crumbs on one line`, async ({
      page,
    }) => {
      await signInQuickly(page, 'underwriter', '/piibs/riskControl/prevention/expert');
      const { bar, boxes } = await navbarBoxes(page);
      expect(bar.height).toBe(50);
      expect(bar.width).toBeLessThanOrEqual(width);
      for (const box of boxes) {
        expect(box.y).toBeGreaterThanOrEqual(bar.y);
        expect(box.y + box.height).toBeLessThanOrEqual(bar.y + bar.height + 0.5);
        expect(box.x + box.width).toBeLessThanOrEqual(width + 0.5);
      }
      for (let i = 1; i < boxes.length; i += 1)
        expect(boxes[i]!.x, `control ${i} after control ${i - 1}`).toBeGreaterThanOrEqual(
          boxes[i - 1]!.x + boxes[i - 1]!.width - 0.5,
        );
      const avatar = (await page.locator('.shell-avatar .shell-avatar-image').boundingBox())!;
      expect([avatar.width, avatar.height]).toEqual([30, 30]);
      const crumbs = (await page.locator('.shell-breadcrumb ol').boundingBox())!;
      expect(crumbs.height).toBeLessThanOrEqual(24);
      // The bell's badge sits at its corner, not over the bell.
      const bell = (await page.locator('.shell-bell .anticon-bell').boundingBox())!;
      const badge = page.locator('.shell-bell .ant-badge-count');
      if (await badge.count()) {
        const b = (await badge.boundingBox())!;
        expect(b.x, 'the badge starts right of the bell’s middle').toBeGreaterThanOrEqual(
          bell.x + bell.width / 2,
        );
      }
      // The navbar's popups stay on the screen: the bell's list and the size menu.
      for (const [opener, popup] of [
        [page.getByRole('button', { name: /^消息通知/ }), page.getByRole('dialog', { name: '消息通知' })],
        [page.getByRole('button', { name: '布局大小' }), page.getByRole('menu', { name: '布局大小' })],
      ] as const) {
        await opener.click();
        await expect(popup).toBeVisible();
        await expect(popup.getByText(/查看全部|默认/)).toBeVisible();
        const box = (await popup.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width + 0.5);
        await page.keyboard.press('Escape');
        await expect(popup).toBeHidden();
      }
    });

    test('the dashboard, a list and a form reflow: no sideways scroll of the page; a list is a column of whole cards, axe-clean', async ({
      page,
    }) => {
      await signInQuickly(page, 'admin');
      for (const path of ['/piibs/dashboard', '/piibs/system/user', '/piibs/user/center']) {
        await page.goto(path);
        await settled(page);
        const overflow = await sidewaysScroll(page);
        expect(overflow, `${path} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
      }
      await page.goto('/piibs/system/user');
      await settled(page);
      const cards = content(page).getByRole('list', { name: '用户列表' }).getByRole('listitem');
      await expect(cards.first()).toBeVisible();
      await expect(content(page).getByRole('table')).toHaveCount(0);
      for (const card of (await cards.all()).slice(0, 3)) {
        const box = (await card.boundingBox())!;
        const title = (await card.locator('.crud-card-title').boundingBox())!;
        expect(title.x + title.width, 'the card’s heading is whole').toBeLessThanOrEqual(box.x + box.width);
      }
      expect(await seriousViolations(page, `/piibs/system/user at ${width} px`)).toEqual([]);
    });

    test('a policy’s page: card titles whole beside their buttons, its tables as cards, short labels on one line', async ({
      page,
    }) => {
      await signInQuickly(page, 'enterprise', '/piibs/policy/myPolicies');
      await content(page).locator('.crud-card-title').first().getByRole('button').click();
      await expect(
        content(page)
          .getByRole('button', { name: /下载电子保单/ })
          .first(),
      ).toBeVisible();
      await settled(page);
      expect(await cutCardTitles(page), 'card titles cut off').toEqual([]);
      // Covers, co-insurers, changes and payments: a card per row, nothing scrolled sideways inside a table.
      await expect(
        content(page).getByRole('list', { name: '保险责任列表' }).getByRole('listitem'),
      ).not.toHaveCount(0);
      expect(await content(page).locator('.ant-table').count(), 'tables left on a phone').toBe(0);
      const labels = (await brokenTexts(page, 'main .ant-descriptions-item-label')).filter(
        (text) => text.length <= 4,
      );
      expect(labels, 'labels of up to four characters broken').toEqual([]);
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page, `a policy’s page at ${width} px`)).toEqual([]);
    });

    test('a product’s details: one fact a line, its covers and rate tables as cards', async ({ page }) => {
      await signInQuickly(page, 'underwriter', '/piibs/product/risk');
      await content(page).locator('.crud-card-actions').first().getByRole('button', { name: '详情' }).click();
      const drawer = page.getByRole('dialog');
      await expect(drawer.getByRole('list', { name: '责任列表' }).getByRole('listitem')).not.toHaveCount(0);
      await expect(drawer.getByRole('list', { name: '费率表列表' }).getByRole('listitem')).not.toHaveCount(0);
      expect(await drawer.locator('.ant-table').count(), 'tables left on a phone').toBe(0);
      const labels = (await brokenTexts(page, '.ant-drawer .ant-descriptions-item-label')).filter(
        (text) => text.length <= 4,
      );
      expect(labels, 'labels of up to four characters broken').toEqual([]);
    });

    test('the insure wizard: where the user is in one line above the form, axe-clean', async ({ page }) => {
      await signInQuickly(page, 'enterprise', '/piibs/insured/stepOne/0/1');
      const steps = content(page).getByRole('navigation', { name: '投保步骤' });
      await expect(steps).toContainText('第 1 步，共 5 步：填写投保信息');
      expect((await steps.boundingBox())!.height, 'the steps take three short lines').toBeLessThanOrEqual(90);
      await expect(content(page).getByRole('combobox', { name: '投保人（企业）' })).toBeInViewport();
      await settled(page);
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page, `the insure wizard at ${width} px`)).toEqual([]);
    });
  });
}
