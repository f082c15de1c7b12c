import { expect, test } from '@playwright/test';

test.describe('foundation', () => {
  test('GET /api/health answers ok from the embedded PostgreSQL', async ({ request }) => {
    const res = await request.get('/api/health');
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', database: 'postgres', embedded: true });
  });

  test('an unknown path under /piibs/ renders the 404 page (catch-all), titled after the route and the site', async ({
    page,
  }) => {
    await page.goto('/piibs/no/such/page');
    await expect(page.getByText('抱歉，您访问的页面不存在')).toBeVisible();
    await expect(page).toHaveTitle(/财产保险互联网出单系统$/);
  });

  test('/piibs/401 renders the no-permission page', async ({ page }) => {
    await page.goto('/piibs/401');
    await expect(page.getByText('抱歉，您没有权限访问该页面')).toBeVisible();
  });

  test('Swagger UI at /api/docs works offline under the CSP', async ({ page }) => {
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('http://127.0.0.1')) external.push(r.url());
    });
    await page.goto('/api/docs');
    await expect(page.getByText('PIIBS API')).toBeVisible();
    expect(external).toEqual([]);
  });
});
