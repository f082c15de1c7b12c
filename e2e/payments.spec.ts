// Payment journey against the demo-seeded server (PIIBS_DEMO=1): the enterprise pays an approved application in
// the sandbox gateway's cashier, lands on the result page (which shows what the server says), downloads the
// e-policy PDF and anyone can check the policy on the public verification page.

import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { closeOwnContextsAfterEach, content, signInQuickly } from './support.ts';

closeOwnContextsAfterEach();

const spaced = (text: string) => new RegExp(text.split('').join('\\s*'));

test('enterprise pays in the sandbox cashier → result page → downloads the e-policy → verification page', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signInQuickly(page, 'enterprise', '/piibs/epinsure/insureList');
  const main = content(page);
  const row = main.getByRole('row').filter({ hasText: '待支付' }).first();
  const number = (await row.getByRole('cell').first().textContent())!.trim();
  await row.getByRole('button', { name: '去支付' }).click();
  await expect(page).toHaveURL(/\/piibs\/insured\/viewInsuranceCA\/\d+$/);
  await expect(main.getByText('剩余支付时间')).toBeVisible();

  // The sandbox cashier, clearly marked.
  await main.getByRole('button', { name: spaced('去支付') }).click();
  await expect(page).toHaveURL(/\/sandbox-pay\/cashier\?/);
  await expect(page.getByText(/沙箱支付/).first()).toBeVisible();
  await page.getByRole('button', { name: '确认支付' }).click();

  // Back at the merchant: the server's truth, then the policy.
  await expect(page).toHaveURL(/\/piibs\/insured\/paymentWebResult\/[^/]+\/success$/);
  await expect(main.getByText('支付成功', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(main.getByText(/保单号：P/)).toBeVisible();

  const downloading = page.waitForEvent('download');
  await main.getByRole('button', { name: '下载电子保单' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^\d+-电子保单-P\w+\.pdf$/);
  const pdf = readFileSync((await download.path())!);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

  await main.getByRole('button', { name: '查看保单' }).click();
  await expect(page).toHaveURL(/\/piibs\/projectManage\/policyInsuranceView\/\d+$/);
  await expect(main.getByText(number).first()).toBeVisible();
  const verifyLink = main.getByRole('link', { name: /\/piibs\/verify\// });
  const href = (await verifyLink.getAttribute('href'))!;

  // Anyone, signed in or not, can check the policy.
  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto(href);
  await expect(stranger.getByText('保单真实有效')).toBeVisible();
  await stranger.goto('/piibs/verify/0000000000000000');
  await expect(stranger.getByText('保单验真失败：验证码不存在')).toBeVisible();
});
