// The dashboard on demo data (PIIBS_DEMO=1): every role finds its own figures drawn as charts, not empty frames.

import { expect, test } from '@playwright/test';
import { content, DEMO_USERS, signInQuickly } from './support.ts';

for (const role of DEMO_USERS) {
  test(`${role}: the dashboard draws its charts from live data`, async ({ page }) => {
    await signInQuickly(page, role, '/piibs/dashboard');
    const main = content(page);
    await expect(main.getByRole('heading', { name: '欢迎使用财产保险互联网出单系统' })).toBeVisible();
    // Charts are SVG images with a summary; every role has at least one chart on demo data.
    const drawn = main.locator('section[aria-label] svg[role="img"]');
    await expect(drawn.first()).toBeVisible({ timeout: 20_000 });
    await expect(drawn.first()).toHaveAttribute('aria-label', /：/);
    // The table fallback of the first chart holds rows, not an empty frame.
    const label = await main
      .locator('section[aria-label]:has(> header)')
      .filter({ has: page.locator('svg[role="img"]') })
      .first()
      .getAttribute('aria-label');
    const chart = main.locator(`section[aria-label="${label}"]`);
    await chart.getByText('表格', { exact: true }).click();
    await expect(chart.locator('table tbody tr').first()).toBeVisible();
  });
}
