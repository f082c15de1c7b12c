// Every menu page of every demo role, as the role sees it with the demo data: no machine language on screen.
// What a page shows must be plain Chinese — no `null`/`undefined`/`NaN`, no JSON, no internal codes (snake_case
// or UPPER_SNAKE identifiers), no region codes where a region name belongs, no machine actor names.
// The same page load is checked by axe-core (WCAG 2.1 A and AA): no serious or critical violation, in the default
// theme, in dark mode and in each of the eight theme colours (issue #22 item 9). The themes are switched in place
// (ThemeSwitcher, axe.ts) rather than by reloading: a page is loaded and settled once, and each further theme
// costs a re-render and one axe pass — the full rule set in dark mode, which recolours everything, and only the
// colour rules in the other seven colours, the only rules a theme colour can change.
// Every page of every role is checked in full in the default theme. Dark mode and a theme colour recolour the
// same kinds of component (primary buttons, links, tags, the chosen menu entry, tabs, the pager, the table)
// whichever role's rows fill the page, so each menu path goes through dark mode and the seven other colours once,
// with one of the roles that have it: the one with the fewest pages, which spreads that work over the tests (a
// page shared by five roles was swept five times, 57 sweeps for 27 paths).
import type { MenuRoute } from '@piibs/shared/menu';
import { expect, type Page, test } from '@playwright/test';
import { seriousViolations, ThemeSwitcher } from './axe.ts';
import { bearer, content, DEMO_USERS, type DemoUser, savedToken, signInQuickly } from './support.ts';

/** What must never be read on a page, each with what it stands for in a failure. */
const MACHINE_TEXT: readonly [RegExp, string][] = [
  [/\bnull\b|\bundefined\b|\bNaN\b|\[object \w+\]/, 'a missing value printed as code'],
  [/\{\s*"[^"]+"\s*:|"\w+"\s*:\s*["\d[{]/, 'JSON'],
  [/\b[a-z]+(?:_[a-z0-9]+)+\b/, 'a snake_case code'],
  [/\b[A-Z]{2,}(?:_[A-Z]{2,})+\b/, 'an UPPER_SNAKE code'],
  [/(?<![\d.,A-Za-z*-])32\d{4}(?![\d.,%])/, 'a region code'],
  [/payment:sandbox|(?<![/\w])system(?![/\w])/, 'a machine actor'],
];

/**
 * Identifiers an administrator types and reads as such: a dictionary's name (字典名称, the key the spec's
 * dictionary page edits, shown beside its description).
 */
const IDENTIFIER_PAGES: Readonly<Record<string, string>> = { '/piibs/system/dict': 'a snake_case code' };

/** The menu pages (not hidden, not layouts) of a role, as absolute paths. */
function leafPaths(routes: readonly MenuRoute[], parent = ''): string[] {
  return routes.flatMap((r) => {
    if (r.hidden) return [];
    const path = r.path.startsWith('/') ? r.path : `${parent}/${r.path}`;
    return r.children?.length ? leafPaths(r.children, path) : r.path.includes(':') ? [] : [path];
  });
}

/** The menu pages of a role. */
async function menuPaths(page: Page, user: DemoUser): Promise<string[]> {
  const menus = await page.request.get('/api/menus/build', { headers: bearer(savedToken(user)) });
  expect(menus.ok()).toBe(true);
  return leafPaths((await menus.json()) as MenuRoute[]);
}

/** The paths `user` sweeps through the other themes: of the roles with a path, the one with the fewest pages. */
async function themedPaths(page: Page, user: DemoUser): Promise<Set<string>> {
  const byRole = await Promise.all(DEMO_USERS.map(async (u) => [u, await menuPaths(page, u)] as const));
  const sweeper = new Map<string, DemoUser>();
  for (const [u, paths] of [...byRole].sort((a, b) => a[1].length - b[1].length))
    for (const path of paths) if (!sweeper.has(path)) sweeper.set(path, u);
  return new Set([...sweeper].filter(([, u]) => u === user).map(([path]) => path));
}

/** The page's text once its data is in: nothing loading, the network quiet. */
async function settledText(page: Page): Promise<string> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active, .piibs-page-loading')).toHaveCount(0);
  return content(page).innerText();
}

/**
 * The sweeps: each role's menu pages, the administrator's (by far the most pages) in two halves, every
 * other page each, so the two workers share them instead of one waiting minutes for the last.
 */
const SWEEPS = DEMO_USERS.flatMap<{ user: DemoUser; part: number; of: number; title: string }>((user) =>
  user === 'admin'
    ? [1, 2].map((part) => ({ user, part, of: 2, title: `${user} (part ${part} of 2)` }))
    : [{ user, part: 1, of: 1, title: user }],
);

for (const { user, part, of, title } of SWEEPS) {
  test(`plain words: every menu page of ${title} shows no code, JSON or null, and no serious accessibility fault`, async ({
    page,
  }) => {
    test.setTimeout(480_000);
    await signInQuickly(page, user);
    const paths = await menuPaths(page, user);
    expect(paths.length).toBeGreaterThan(0);
    const mine = await themedPaths(page, user);
    const turns = [...paths.entries()].filter(([turn]) => turn % of === part - 1);
    const found: string[] = [];
    const inaccessible: string[] = [];
    const themes = turns.some(([, path]) => mine.has(path)) ? await ThemeSwitcher.open(page) : undefined;
    for (const [turn, path] of turns) {
      await page.goto(path);
      const text = await settledText(page);
      inaccessible.push(...(await seriousViolations(page, path)));
      if (themes && mine.has(path)) inaccessible.push(...(await themes.sweep(path, turn)));
      for (const [pattern, what] of MACHINE_TEXT) {
        if (IDENTIFIER_PAGES[path] === what) continue;
        const hit = pattern.exec(text);
        if (hit)
          found.push(`${path}: ${what} 「${text.slice(Math.max(0, hit.index - 20), hit.index + 40)}」`);
      }
    }
    await themes?.close();
    expect(found, `pages of ${user} with machine text`).toEqual([]);
    expect(inaccessible, `serious or critical WCAG 2.1 A/AA violations on the pages of ${user}`).toEqual([]);
  });
}
