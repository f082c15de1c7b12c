// axe-core (WCAG 2.1 A and AA rules) on the page as it is: the serious and critical violations, each as one line
// naming the rule, what it means and where (the first few nodes), for a failure message a person can act on.
// And a page's theme sweep: the same page, unreloaded, in dark mode and in every theme colour of the settings
// drawer, each chosen in the drawer of a second tab of the app.
import { DEFAULT_THEME_COLOR, PREDEFINED_THEME_COLORS } from '@piibs/shared/constants';
import { expect, type Page } from '@playwright/test';
import axe, { type AxeResults, type ContextObject, type RunOptions } from 'axe-core';
import { shell } from './support.ts';

export const WCAG21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The WCAG 2.1 A/AA rules whose outcome depends on colours: text contrast (1.4.3) and a link told from the text
 * around it by its colour alone (1.4.1). A theme colour changes nothing else a rule looks at.
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Runs axe in the page, put in once per document: a check is one `axe.run`. (@axe-core/playwright put axe in
 * again and finished each run in a fresh blank tab: about four times the cost of the check itself.) The app
 * has no frames.
 */
async function runAxe(page: Page, context: ContextObject | undefined, options: RunOptions) {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axe.source);
  return (await page.evaluate(
    ([context, options]) =>
      // biome-ignore lint/suspicious/noExplicitAny: axe lives in the page; the e2e project has no DOM typings
      (globalThis as any).axe.run(context ?? (globalThis as any).document, options),
    [context, options] as const,
  )) as AxeResults;
}

/** The page's serious and critical WCAG 2.1 A/AA violations (or by `rules` only, within `include`). */
export async function seriousViolations(
  page: Page,
  where: string,
  { rules, include }: { rules?: readonly string[]; include?: string } = {},
): Promise<string[]> {
  // A table reloading (the monitor polls) is shown dimmed under its spinner: check what a reader reads, loaded.
  await expect(page.locator('.ant-spin-spinning, .piibs-page-loading')).toHaveCount(0, { timeout: 15_000 });
  const { violations } = await runAxe(page, include ? { include: [include] } : undefined, {
    runOnly: rules ? { type: 'rule', values: [...rules] } : { type: 'tag', values: WCAG21_AA },
    // Violations only: axe skips collecting what passed, which halves its time on a long list page.
    resultTypes: ['violations'],
    iframes: false,
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')}${n.any[0]?.message ? ` (${n.any[0].message})` : ''}`)
        .join('; ');
      return `${where}: ${v.id} [${v.impact}] ×${v.nodes.length} — ${v.help}: ${nodes}`;
    });
}

/** The attribute marking an element a theme colour recoloured, for axe's context. */
const RECOLOURED = 'data-axe-recoloured';

// In-page functions (strings in the end: the e2e project has no DOM typings).
/** Each element of the page with what decides its text contrast: its colour and its backgrounds. */
const colours = `() => new Map([...document.body.querySelectorAll('*')].map((el) => {
  const own = getComputedStyle(el);
  const before = getComputedStyle(el, '::before');
  const after = getComputedStyle(el, '::after');
  return [el, [own.color, own.backgroundColor, own.backgroundImage, before.backgroundColor,
    before.backgroundImage, after.backgroundColor, after.backgroundImage].join('|')];
}))`;
/** Marks (only) the elements whose colours differ from the baseline's, or that are new; answers how many. */
const markRecoloured = `(colours) => {
  for (const el of document.querySelectorAll('[${RECOLOURED}]')) el.removeAttribute('${RECOLOURED}');
  let marked = 0;
  for (const [el, now] of colours()) {
    if (window.__themeBaseline.get(el) === now) continue;
    el.setAttribute('${RECOLOURED}', '');
    marked += 1;
  }
  return marked;
}`;

/** What the wait below reads in the page (the e2e project has no DOM typings). */
type InPage = {
  document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null };
};

type Theme = { color: string; dark: boolean };
const DEFAULT_THEME: Theme = { color: DEFAULT_THEME_COLOR, dark: false };

/**
 * Switches the theme of a page in place, the way a user with the app open in two tabs would: the settings
 * drawer stays open in a second tab of the same session, a colour or the dark switch is clicked there, and the
 * page under test follows through the settings store (it rehydrates on the browser's `storage` event). The page
 * is not reloaded and nothing is injected: what axe then reads is the product's own theming of the loaded page.
 */
export class ThemeSwitcher {
  private theme: Theme = DEFAULT_THEME;

  private readonly page: Page;
  private readonly drawerTab: Page;

  private constructor(page: Page, drawerTab: Page) {
    this.page = page;
    this.drawerTab = drawerTab;
  }

  /** Opens the second tab (the personal center, signed in through the shared storage) and its drawer. */
  static async open(page: Page): Promise<ThemeSwitcher> {
    const drawerTab = await page.context().newPage();
    await drawerTab.goto('/piibs/user/center');
    await expect(shell(drawerTab)).toBeVisible();
    // By the keys (as a keyboard user would): no click to lose on a menu still animating in.
    const drawer = drawerTab.getByRole('dialog', { name: '系统布局设置' });
    await expect(async () => {
      const entry = drawerTab.getByRole('menuitem', { name: '布局设置' });
      if (!(await entry.isVisible())) {
        await drawerTab.getByRole('button', { name: /^用户菜单/ }).focus();
        await drawerTab.keyboard.press('Enter');
      }
      await expect(entry).toBeFocused({ timeout: 2_000 });
      await drawerTab.keyboard.press('Enter');
      await expect(drawer).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: 30_000 });
    return new ThemeSwitcher(page, drawerTab);
  }

  /** Makes one choice in the drawer (the colour, or the dark switch) and, with `follow`, waits for the page. */
  private async choose(next: Theme, follow: boolean): Promise<void> {
    const drawer = this.drawerTab.getByRole('dialog', { name: '系统布局设置' });
    const before = follow ? await shell(this.page).getAttribute('style') : null;
    if (next.color !== this.theme.color)
      await drawer.getByRole('button', { name: `主题颜色 ${next.color}` }).click();
    else if (next.dark !== this.theme.dark) await drawer.getByRole('switch', { name: '暗色模式' }).click();
    else return;
    this.theme = {
      ...this.theme,
      ...(next.color !== this.theme.color ? { color: next.color } : { dark: next.dark }),
    };
    if (!follow) return;
    // The shell's style carries the theme's colours (its CSS variables): changed, the page has re-rendered.
    await this.page.waitForFunction(
      (was) =>
        (globalThis as unknown as InPage).document
          .querySelector('[data-testid="shell"]')
          ?.getAttribute('style') !== was,
      before,
      { polling: 'raf' },
    );
    // antd eases colour changes (0.2 s): end the transitions this change started, so axe reads the colours a
    // reader settles on. Endless animations (a spinner, a pulsing status dot) are left running.
    await this.page.evaluate(`document.getAnimations().forEach((a) => {
      if (a.effect?.getTiming().iterations !== Infinity) a.finish();
    })`);
  }

  /**
   * The page's serious and critical violations in the other themes, the page being in the default theme (its
   * load, checked in full): each other theme colour in light mode, and dark mode.
   * - A theme colour recolours a few things (the primary button, links, the chosen menu entry, the active tab, a
   *   chosen pager item): only the colour rules can change with it, and only on what it recoloured. Each colour
   *   is checked by the colour rules on the elements whose colour or background (their own, or their ::before /
   *   ::after box's) differs from the default theme's, and on what lies inside them; what kept its colours keeps
   *   the contrast the full check measured. (A whole-page colour pass costs as much as a full check, seven times
   *   a page.)
   * - Dark mode recolours everything: checked in full. It is checked in the page's `turn`-th colour, so a sweep of
   *   several pages sees it in every colour.
   * The page is left in the default theme again, for the next page load.
   */
  async sweep(where: string, turn: number): Promise<string[]> {
    const found: string[] = [];
    await this.page.evaluate(`window.__themeBaseline = (${colours})()`);
    const darkColor = PREDEFINED_THEME_COLORS[turn % PREDEFINED_THEME_COLORS.length]!;
    // Each other colour in light mode, ending on the one dark mode is checked in.
    const others = PREDEFINED_THEME_COLORS.filter((c) => c !== darkColor && c !== DEFAULT_THEME_COLOR);
    for (const color of [...others, darkColor]) {
      await this.choose({ color, dark: false }, true);
      if (color === DEFAULT_THEME_COLOR) continue;
      // Nothing recoloured (no element of the page takes the theme colour): nothing new to check.
      if (!(await this.page.evaluate(`(${markRecoloured})(${colours})`))) continue;
      found.push(
        ...(await seriousViolations(this.page, `${where} (${color})`, {
          rules: COLOUR_RULES,
          include: `[${RECOLOURED}]`,
        })),
      );
    }
    await this.choose({ color: darkColor, dark: true }, true);
    found.push(...(await seriousViolations(this.page, `${where} (${darkColor}, 暗色)`)));
    // Back to the default theme: written at once, read by the next page load.
    await this.choose({ color: darkColor, dark: false }, false);
    await this.choose(DEFAULT_THEME, false);
    return found;
  }

  async close(): Promise<void> {
    await this.drawerTab.close();
  }
}
