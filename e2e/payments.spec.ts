// Payment journey against the demo-seeded server (PIIBS_DEMO=1): the enterprise pays an approved application in
// the sandbox gateway's cashier, lands on the result page (which shows what the server says), downloads the
// e-policy PDF and anyone can check the policy on the public verification page.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { approvedApplication, closeOwnContextsAfterEach, content, signInQuickly, spaced } from './support.ts';

closeOwnContextsAfterEach();

test('enterprise pays in the sandbox cashier → result page → downloads the e-policy → verification page', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const number = await approvedApplication(page.request);
  await signInQuickly(page, 'enterprise', `/piibs/epinsure/insureList?blurry=${encodeURIComponent(number)}`);
  const main = content(page);
  const row = main.getByRole('row').filter({ hasText: number });
  await expect(row.getByText('待支付')).toBeVisible();
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
  await expect(stranger.getByText('保险费合计')).toBeVisible();
  await expect(stranger.getByText('保险责任及限额')).toBeVisible();
  // The downloaded file dropped on the page is hashed in the browser and recognised; a copy with one byte
  // changed is not.
  const drop = stranger.locator('input[type=file]');
  await drop.setInputFiles({ name: 'e-policy.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(stranger.getByText('与签发文件一致', { exact: true })).toBeVisible();
  const altered = Buffer.from(pdf);
  const middle = Math.floor(altered.length / 2);
  altered[middle] = altered.readUInt8(middle) ^ 0x01;
  await drop.setInputFiles({ name: 'altered.pdf', mimeType: 'application/pdf', buffer: altered });
  await expect(stranger.getByText('与签发文件不一致', { exact: true })).toBeVisible();
  // Page 1 as a reader sees it, with the insurer's red seal (poppler renders it; kept with the test's report).
  const dir = mkdtempSync(path.join(os.tmpdir(), 'e-policy-'));
  const file = path.join(dir, 'e-policy.pdf');
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '72', '-f', '1', '-l', '1', file, path.join(dir, 'page')]);
  const png = readdirSync(dir).find((f) => f.endsWith('.png'))!;
  await testInfo.attach('e-policy page 1', { path: path.join(dir, png), contentType: 'image/png' });
  await stranger.goto('/piibs/verify/0000000000000000');
  await expect(stranger.getByText('保单验真失败：验证码不存在')).toBeVisible();
});
