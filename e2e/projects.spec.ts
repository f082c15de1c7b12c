// Project insurance against the demo-seeded server (PIIBS_DEMO=1): the contractor declares a construction project
// against its annual order (secondary order), the underwriter approves it in the tender review, and the project's
// policy is issued and downloadable from the declaration.

import { type Browser, expect, type Page, test } from '@playwright/test';
import { bearer, content, type DemoUser, signInQuickly } from './support.ts';

const spaced = (text: string) => new RegExp(text.split('').join('\\s*'));
const project = `润州区学府路综合楼${Date.now().toString(36)}`;

async function pageOf(
  browser: Browser,
  user: DemoUser,
  path: string,
): Promise<{ page: Page; token: string }> {
  const page = await (await browser.newContext()).newPage();
  const token = await signInQuickly(page, user, path);
  return { page, token };
}

test('contractor declares a project → underwriter approves the tender → the project policy downloads', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { page: ctr, token } = await pageOf(browser, 'contractor', '/piibs/projectManage/orderDetail/0');
  const orders = await (
    await ctr.request.get('/api/project-orders?page=0&size=10', { headers: bearer(token) })
  ).json();
  const orderId = orders.content[0].id as number;

  await ctr.goto(`/piibs/projectManage/orderDetail/${orderId}`);
  const main = content(ctr);
  await main.getByRole('button', { name: '申报项目' }).click();
  await expect(ctr).toHaveURL(/\/piibs\/projectManage\/apply\/0\//);
  await main.getByLabel('工程名称').fill(project);
  await main.getByLabel('工程地址').fill('镇江市润州区学府路 16 号');
  await main.getByLabel('工程造价').fill('12000000');
  await main.getByRole('button', { name: spaced('提交审核') }).click();
  await expect(ctr.getByText('已提交审核')).toBeVisible();
  await expect(ctr).toHaveURL(/\/piibs\/projectManage\/apply\/\d+\/true\//);
  const applyUrl = ctr.url();

  // The underwriter approves the tender: the project's policy is issued.
  const { page: uw } = await pageOf(browser, 'underwriter', '/piibs/task/list');
  const row = content(uw).getByRole('row').filter({ hasText: project });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: spaced('处理') }).click();
  await expect(uw).toHaveURL(/\/piibs\/task\/tenderAudit\/\d+\/true/);
  await content(uw)
    .getByRole('button', { name: spaced('通过') })
    .click();
  await expect(uw.getByText(/审核完成/)).toBeVisible();

  // The contractor downloads the project's e-policy.
  await ctr.goto(applyUrl.replace(/\/\d+$/, '/2'));
  const downloading = ctr.waitForEvent('download');
  await expect(async () => {
    await ctr.reload();
    await main.getByRole('button', { name: /下载电子保单/ }).click({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  expect((await downloading).suggestedFilename()).toMatch(/^\d+-电子保单-P\w+\.pdf$/);
});
