// Shared helpers for the e2e specs: the demo accounts, signing in (through the form, or in the role's session
// saved once per run), local storage, calls with the signed-in token, and the shell's landmarks.
// The e2e server runs with PIIBS_DEMO=1 and PIIBS_CAPTCHA=off (see playwright.config.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type APIRequestContext,
  type APIResponse,
  type Browser,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test';

export const PASSWORD = 'Demo@2026';
/** Spec §9, as spelt. */
export const TOKEN_KEY = 'EL-ADMIN-TOEKN';
export const CA_MARKER_KEY = 'CA';
export const SITE_TITLE = '财产保险互联网出单系统';
/** Where the e2e server keeps its data (the demo CA certificates are under ca/). */
export const DATA_DIR = path.resolve(import.meta.dirname, '../test-results/e2e-data');

/** The demo accounts; `enterprise` holds role '17' (the reduced shell). */
export const DEMO_USERS = ['admin', 'underwriter', 'agent', 'enterprise', 'service', 'contractor'] as const;
export type DemoUser = (typeof DEMO_USERS)[number];

/**
 * Where the 'sign-in' project saves each demo role's session (auth.setup.ts): a storage state holding the token
 * where the login page puts it. Every spec reuses these sessions, so none may end them (log out, revoke): a test
 * about ending a session signs in on its own (`signInAlone`).
 */
export const authFile = (user: DemoUser) =>
  path.resolve(import.meta.dirname, `../test-results/e2e-auth/${user}.json`);

type SavedState = { origins: { localStorage: { name: string; value: string }[] }[] };

/** The token of a demo role's saved session. */
export function savedToken(user: DemoUser): string {
  const state = JSON.parse(readFileSync(authFile(user), 'utf8')) as SavedState;
  const token = state.origins[0]?.localStorage.find((item) => item.name === TOKEN_KEY)?.value;
  if (!token) throw new Error(`no saved session for ${user}: the 'sign-in' project writes ${authFile(user)}`);
  return token;
}

export const storage = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);

/** Fills and submits the password sign-in form the page is showing. */
export async function fillSignIn(page: Page, username: string, password = PASSWORD): Promise<void> {
  await page.getByRole('textbox', { name: '用户名' }).fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  // PIIBS_CAPTCHA=off: any answer will do, but the field is required.
  await page.getByRole('textbox', { name: '验证码' }).fill('0000');
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/** Signs in through the login page (optionally with a redirect) and waits until the page has left it. */
export async function signIn(page: Page, username: DemoUser, redirect?: string): Promise<void> {
  await page.goto(redirect ? `/piibs/login?redirect=${encodeURIComponent(redirect)}` : '/piibs/login');
  await fillSignIn(page, username);
  await expect(page).not.toHaveURL(/\/piibs\/login/);
}

/** A token for a demo user, from POST /api/auth/login (form-encoded, as the login page sends it). */
export async function apiToken(request: APIRequestContext, username: DemoUser): Promise<string> {
  const res = await request.post('/api/auth/login', {
    form: { username, password: PASSWORD, code: '0000', uuid: 'e2e', psPower: '2' },
  });
  expect(res.status(), `sign-in of ${username}`).toBe(200);
  const { token } = (await res.json()) as { token: string };
  return token;
}

/**
 * Signs in without the form: the page's context takes the role's saved session, then `path` is loaded (the
 * guard loads the user and the menus as after a page reload). Answers the session's token.
 */
export async function signInQuickly(page: Page, username: DemoUser, path = '/piibs/dashboard') {
  await page.context().setStorageState(authFile(username));
  await page.goto(path);
  await expect(shell(page)).toBeVisible();
  return savedToken(username);
}

/**
 * Signs in without the form in a session of the page's own: a token from the API is put where the login page
 * puts it, then `path` is loaded. For a test that ends its session.
 */
export async function signInAlone(page: Page, username: DemoUser, path = '/piibs/dashboard') {
  const token = await apiToken(page.request, username);
  // Any page of the origin will do to reach its storage; the 404 page is open and light.
  await page.goto('/piibs/404');
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [TOKEN_KEY, token] as const);
  await page.goto(path);
  await expect(shell(page)).toBeVisible();
  return token;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The signed-in page's token, for calls made beside the UI. */
export async function pageToken(page: Page): Promise<string> {
  const token = await storage(page, TOKEN_KEY);
  expect(token, 'a signed-in page').toBeTruthy();
  return token!;
}

/**
 * Navigates inside the single-page app, as a link would: the app and its in-memory state (tabs, kept-alive
 * pages) stay. For routes no link leads to (hidden routes with params).
 */
export async function navigateInApp(page: Page, to: string): Promise<void> {
  // The router follows popstate; the script is a string because the e2e project has no DOM typings.
  await page.evaluate(
    `history.pushState(null, '', ${JSON.stringify(to)}); dispatchEvent(new PopStateEvent('popstate'));`,
  );
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === to);
}

// ---- the shell's landmarks ----

export const shell = (page: Page) => page.getByTestId('shell');
export const sidebar = (page: Page) => page.getByRole('complementary', { name: '侧边栏' });
export const tagsBar = (page: Page) => page.getByRole('navigation', { name: '标签栏' });
/** The tab of a page, by its path (route params included). */
export const tab = (page: Page, key: string) => tagsBar(page).locator(`[data-tag-key="${key}"]`);
export const tabLink = (page: Page, title: string) =>
  tagsBar(page).getByRole('link', { name: title, exact: true });
export const breadcrumb = (page: Page) => page.locator('.shell-breadcrumb');
export const content = (page: Page) => page.getByRole('main');

/** A sidebar entry by its title (its accessible name also carries the icon's). */
export const menuItem = (page: Page, title: string) =>
  sidebar(page)
    .getByRole('menuitem')
    .filter({ hasText: new RegExp(`^${title}$`) });

/** Clicks through the sidebar: directories first, then the page. */
export async function openFromSidebar(page: Page, ...titles: string[]): Promise<void> {
  for (const [index, title] of titles.entries()) {
    const directory = index < titles.length - 1;
    // A directory's title comes before its entries (审核任务 holds a page of its own name).
    const item = directory ? menuItem(page, title).first() : menuItem(page, title).last();
    if (directory) {
      // A directory is opened unless it already is (the sidebar opens the current page's directory itself).
      if ((await item.getAttribute('aria-expanded')) !== 'true') await item.click();
      await expect(item).toHaveAttribute('aria-expanded', 'true');
      // Its entries slide open (antd's collapse motion names the moving list): a click on one while it still
      // moves can land beside it.
      await expect(page.locator('.ant-motion-collapse')).toHaveCount(0);
      continue;
    }
    // The page: clicked until its entry is the selected one. The motion check above can pass before the motion
    // has begun, and a click lost to the sliding list left a CI run one tab short.
    await expect(async () => {
      await item.click();
      await expect(item).toHaveClass(/ant-menu-item-selected/, { timeout: 3_000 });
    }).toPass({ timeout: 20_000 });
  }
}

/** Opens the avatar menu and chooses an entry (布局设置, 个人中心, 退出登录). */
export async function avatarMenu(page: Page, entry: string): Promise<void> {
  // A click that lands while the dropdown is still animating in can be lost: retry until the menu closes.
  await expect(async () => {
    const item = page.getByRole('menuitem', { name: entry });
    if (!(await item.isVisible())) await page.getByRole('button', { name: '用户菜单' }).click();
    await item.click({ timeout: 2000 });
    await expect(item).toBeHidden({ timeout: 2000 });
  }).toPass({ timeout: 15_000 });
}

/** Requests the page makes to anywhere but the test server. */
export function recordExternalRequests(page: Page, origin = 'http://127.0.0.1'): string[] {
  const external: string[] = [];
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) external.push(url);
  });
  return external;
}

/**
 * Picks an option of the antd select labelled `label` inside `scope`, by its text (typed into the select first
 * when `type` is set), and waits until the select holds it. The option is looked up in that select's own
 * dropdown, the one its aria-controls names: the dropdown of a select chosen a moment before may still be
 * fading out, and holds the same options. A click that lands while the dropdown is still opening, or while its
 * options arrive, can be lost: then the dropdown is opened again and the option clicked again.
 */
export async function pickOption(
  page: Page,
  scope: Locator,
  label: string,
  text: string,
  { type = false } = {},
): Promise<void> {
  const box = scope.getByLabel(label, { exact: true });
  await box.click();
  if (type) await box.fill(text);
  await expect(box).toHaveAttribute('aria-controls', /_list$/);
  const list = await box.getAttribute('aria-controls');
  const option = page
    .locator('.ant-select-dropdown')
    .filter({ has: page.locator(`[id="${list}"]`) })
    .locator('.ant-select-item-option', { hasText: text })
    .first();
  const selected = /ant-select-item-option-selected/;
  await expect(async () => {
    // Never click a chosen option again: in a multiple select that would take it out.
    if (selected.test((await option.getAttribute('class', { timeout: 1_000 }).catch(() => null)) ?? ''))
      return;
    if ((await box.getAttribute('aria-expanded')) !== 'true') {
      await box.click();
      if (type) await box.fill(text);
    }
    await option.click({ timeout: 5_000 });
    await expect(option).toHaveClass(selected, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** A small PDF standing in for a scanned document (the server types files by their first bytes). */
export const documentFile = (name: string) => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from(
    '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n' +
      'trailer <</Root 1 0 R>>\n%%EOF\n',
  ),
});

/**
 * Uploads a document into the materials panel's section of its type (影像资料), as a user picks a file there, and
 * waits until the panel shows it.
 */
export async function uploadDocument(page: Page, docType: string): Promise<void> {
  const section = content(page).getByRole('region', { name: docType, exact: true });
  await section.locator('input[type=file]').setInputFiles(documentFile(`${docType}.pdf`));
  // Stored, not only listed: the upload list names the file while it is still being sent; its tile (with the
  // download button) comes with the server's answer.
  await expect(section.getByRole('button', { name: `下载 ${docType}.pdf` }).first()).toBeVisible();
}

/**
 * An application of the demo enterprise, approved and waiting for payment, made through the API: this journey's
 * own, so journeys running beside it (or a retry) never pay or find each other's. Answers its number.
 */
export async function approvedApplication(request: APIRequestContext): Promise<string> {
  const ok = async (call: Promise<APIResponse>) => {
    const res = await call;
    expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(200);
    return res.json();
  };
  const ent = { headers: bearer(savedToken('enterprise')) };
  const products = (await ok(request.get('/api/products/available', ent))) as { id: number; code: string }[];
  const product = products.find((p) => p.code === 'AZX_GM_2025');
  expect(product, 'the demo work-safety product').toBeTruthy();
  const customer = (await ok(request.get('/api/customers/mine', ent))) as { id: number };
  const draft = (await ok(
    request.post('/api/applications', {
      ...ent,
      data: { productId: product!.id, customerId: customer.id, policyholderType: 1 },
    }),
  )) as { id: number; number: string; version: number };
  // The demo enterprise's 营业执照 is on file; the product needs the 被保险人清单 before approval.
  await ok(
    request.post('/api/materials', {
      ...ent,
      multipart: {
        businessType: 'application',
        businessId: String(draft.id),
        docType: 'INSURED_LIST',
        file: documentFile('被保险人清单.pdf'),
      },
    }),
  );
  await ok(
    request.post(`/api/applications/${draft.id}/submit`, { ...ent, data: { version: draft.version } }),
  );

  const uw = { headers: bearer(savedToken('underwriter')) };
  const tasks = (await ok(
    request.get(`/api/tasks?kind=application&blurry=${encodeURIComponent(draft.number)}`, uw),
  )) as { content: { id: number; subjectId: number; version: number }[] };
  const task = tasks.content.find((t) => t.subjectId === draft.id);
  expect(task, `the review task of ${draft.number}`).toBeTruthy();
  await ok(
    request.post(`/api/tasks/${task!.id}/decide`, {
      ...uw,
      data: { decision: 'approve', opinion: '资料齐全，同意承保', version: task!.version },
    }),
  );
  return draft.number;
}

/** A page of its own (own storage) for a demo user in the role's saved session, at `path`. */
export async function pageOf(browser: Browser, user: DemoUser, path: string): Promise<Page> {
  const page = await (await browser.newContext({ storageState: authFile(user) })).newPage();
  await page.goto(path);
  await expect(shell(page)).toBeVisible();
  return page;
}

/**
 * For a spec whose tests open contexts of their own: closes them after each passing test, so the pages of
 * earlier journeys do not stay open (and busy) for the rest of the run. A failed test keeps them: its
 * screenshots are taken of every open page.
 */
export function closeOwnContextsAfterEach(): void {
  test.afterEach(async ({ browser }, info) => {
    if (info.status !== info.expectedStatus) return;
    await Promise.all(browser.contexts().map((context) => context.close()));
  });
}

/** A button's name as antd renders it: two CJK characters get a space between them (通 过). */
export const spaced = (text: string) => new RegExp(text.split('').join('\\s*'));

/**
 * Waits until an antd dialog has finished opening: a click on its buttons while it still zooms in can be lost,
 * leaving the dialog open (seen in a CI run of the risk-control journey).
 */
export async function opened(dialog: Locator): Promise<Locator> {
  await expect(dialog).toBeVisible();
  await expect(dialog).not.toHaveClass(/ant-zoom/);
  return dialog;
}

/**
 * Clicks the review decision (通过 / 退回 / 拒绝), which is in view without scrolling; 通过 and 拒绝 cannot be
 * undone and ask first, so their confirmation is answered with its own button.
 */
export async function clickDecision(page: Page, decision: '通过' | '退回' | '拒绝'): Promise<void> {
  const button = content(page)
    .getByTestId('decision-panel')
    .getByRole('button', { name: spaced(decision) });
  await expect(button).toBeInViewport();
  await button.click();
  if (decision === '退回') return;
  const dialog = await opened(page.getByRole('dialog', { name: `确定${decision}？` }));
  await expect(dialog).toContainText('此操作不能撤回');
  await dialog.getByRole('button', { name: spaced(decision) }).click();
}
