// Identity journeys against the demo-seeded server (PIIBS_DEMO=1, PIIBS_CAPTCHA=off, fresh DATA_DIR).
// First-run setup (/piibs/init) needs a server that is not initialised; a demo-seeded one always is, so it is
// covered by a component test with a mocked API (apps/web/src/app/identity-pages.test.tsx).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { CA_MARKER_KEY, DATA_DIR, fillSignIn, opened, PASSWORD, storage, TOKEN_KEY } from './support.ts';

const caDir = path.join(DATA_DIR, 'ca');

test.describe('identity', () => {
  test('password sign-in as admin lands on the dashboard with the token under EL-ADMIN-TOEKN', async ({
    page,
  }) => {
    await page.goto('/piibs/login');
    await expect(page.getByRole('heading', { name: '财产保险互联网出单系统' })).toBeVisible();
    await expect(page.getByRole('img', { name: '验证码' })).toBeVisible();
    await expect(page).toHaveTitle('登录 - 财产保险互联网出单系统');
    await fillSignIn(page, 'admin');
    await expect(page).toHaveURL(/\/piibs\/dashboard$/);
    expect(await storage(page, TOKEN_KEY)).toMatch(/^eyJ/);
    expect(await storage(page, CA_MARKER_KEY)).toBeNull();

    // The login routes redirect to the dashboard while a token exists.
    await page.goto('/piibs/login');
    await expect(page).toHaveURL(/\/piibs\/dashboard$/);
  });

  for (const width of [1280, 375]) {
    test(`the sign-in form at ${width} px: the captcha stays inside the fields' width, the certificate link is styled`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/piibs/login');
      const field = await page.getByLabel('用户名').locator('..').boundingBox();
      const captcha = await page.getByRole('button', { name: '看不清？点击刷新验证码' }).boundingBox();
      expect(captcha!.x + captcha!.width).toBeLessThanOrEqual(field!.x + field!.width + 0.5);
      const link = page.getByRole('link', { name: '证书登录' });
      await expect(link).not.toHaveCSS('color', 'rgb(0, 0, 238)');
      await expect(link).toHaveCSS('text-decoration-line', 'none');
    });
  }

  test('a wrong password is refused on the form', async ({ page }) => {
    await page.goto('/piibs/login');
    await page.getByRole('textbox', { name: '用户名' }).fill('underwriter');
    await page.getByLabel('密码', { exact: true }).fill('Wrong#Pass2026');
    await page.getByRole('textbox', { name: '验证码' }).fill('0000');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await expect(page.getByRole('alert')).toContainText('用户名或密码错误');
    await expect(page).toHaveURL(/\/piibs\/login$/);
    expect(await storage(page, TOKEN_KEY)).toBeNull();
  });

  test('an unauthenticated visit goes to login with the redirect, and back there after sign-in', async ({
    page,
  }) => {
    await page.goto('/piibs/user/center');
    await expect(page).toHaveURL(/\/piibs\/login\?redirect=%2Fpiibs%2Fuser%2Fcenter$/);
    await fillSignIn(page, 'agent');
    await expect(page).toHaveURL(/\/piibs\/user\/center$/);
    await expect(page.getByText('agent', { exact: true })).toBeVisible();
  });

  test('an open redirect is refused: sign-in lands on the dashboard of this site', async ({
    page,
    baseURL,
  }) => {
    for (const target of [
      '//evil.example/piibs/',
      'https://evil.example/piibs/dashboard',
      '/piibs/../api/health',
    ]) {
      // Signed out for each round (a token would send the login page straight on to the dashboard).
      await page.goto('/piibs/404');
      await page.evaluate(() => localStorage.clear());
      await page.goto(`/piibs/login?redirect=${encodeURIComponent(target)}`);
      await fillSignIn(page, 'service');
      await expect(page).toHaveURL(`${baseURL}/piibs/dashboard`);
    }
  });

  test('logout asks for confirmation, then returns to login with the token gone', async ({ page }) => {
    await page.goto('/piibs/login?redirect=%2Fpiibs%2Fuser%2Fcenter');
    await fillSignIn(page, 'underwriter');
    await expect(page).toHaveURL(/\/piibs\/user\/center$/);
    const token = await storage(page, TOKEN_KEY);
    expect(token).toBeTruthy();

    await page.getByRole('button', { name: '退出登录' }).click();
    const dialog = await opened(page.getByRole('dialog'));
    await expect(dialog).toContainText('提示');
    await expect(dialog).toContainText('确定注销并退出系统吗？');
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await expect(dialog).toBeHidden();
    expect(await storage(page, TOKEN_KEY)).toBe(token);

    await page.getByRole('button', { name: '退出登录' }).click();
    await (await opened(page.getByRole('dialog'))).getByRole('button', { name: /确\s*定/ }).click();
    await expect(page).toHaveURL(/\/piibs\/login$/);
    expect(await storage(page, TOKEN_KEY)).toBeNull();

    // The token is revoked on the server too.
    const info = await page.request.get('/api/auth/info', { headers: { Authorization: `Bearer ${token}` } });
    expect(info.status()).toBe(401);
  });

  test('CA sign-in with the demo certificate lands signed in, with the CA marker set', async ({ page }) => {
    const p12 = readdirSync(caDir).find((name) => /^enterprise-.*\.p12$/.test(name));
    expect(p12, `a demo enterprise certificate in ${caDir}`).toBeTruthy();

    await page.goto('/piibs/login');
    await page.getByRole('link', { name: '证书登录' }).click();
    await expect(page).toHaveURL(/\/piibs\/CAlogin$/);
    await page.locator('input[type=file]').setInputFiles(path.join(caDir, p12!));

    // A wrong file password is told in Chinese, before anything is sent.
    await page.getByLabel('证书密码').fill('wrong');
    await page.getByRole('button', { name: '证书登录' }).last().click();
    await expect(page.getByRole('alert')).toContainText('证书密码错误');

    await page.getByLabel('证书密码').fill(PASSWORD);
    await page.getByRole('button', { name: '证书登录' }).last().click();
    await expect(page).toHaveURL(/\/piibs\/dashboard$/);
    expect(await storage(page, TOKEN_KEY)).toMatch(/^eyJ/);
    expect(await storage(page, CA_MARKER_KEY)).not.toBeNull();

    // The session is the enterprise user's, opened with the certificate.
    await page.goto('/piibs/user/center');
    await expect(page.getByText('enterprise', { exact: true })).toBeVisible();
    await expect(page.getByText('数字证书').first()).toBeVisible();
  });
});
