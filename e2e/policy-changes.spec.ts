// Endorsement and cancellation journeys (issue #24) against the demo-seeded server: on a policy of its own, the
// enterprise adds employees mid-term and pays the difference at the sandbox cashier; then, its business
// deregistered, it is refused an ordinary wish to cancel the work-safety policy (with the rule), cancels with its
// proving document and is refunded; the underwriter approves both from the queue 批改审核 (审核任务 menu).

import { expect, type Page, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import {
  approvedApplication,
  bearer,
  clickDecision,
  closeOwnContextsAfterEach,
  content,
  openFromSidebar,
  pickOption,
  savedToken,
  signInQuickly,
} from './support.ts';

closeOwnContextsAfterEach();

/** Pays the application at the sandbox cashier, as the enterprise would; answers the policy's id and number. */
async function issuedPolicy(page: Page): Promise<{ id: number; number: string }> {
  const number = await approvedApplication(page.request);
  const ent = { headers: bearer(savedToken('enterprise')) };
  const list = await (
    await page.request.get(`/api/applications?blurry=${encodeURIComponent(number)}`, ent)
  ).json();
  const id = list.content[0].id as number;
  const start = await (await page.request.post(`/api/payments/orders/${id}/pay`, ent)).json();
  await page.goto(start.cashierUrl);
  await page.getByRole('button', { name: '确认支付' }).click();
  await expect(page).toHaveURL(/paymentWebResult/);
  const result = await (await page.request.get(`/api/payments/${start.payId}`, ent)).json();
  expect(result.policyId, 'the policy issued').toBeTruthy();
  return { id: result.policyId as number, number: result.policyNumber as string };
}

const policyPath = (id: number) => `/piibs/projectManage/policyInsuranceView/${id}`;
const section = (page: Page) => content(page).locator('.ant-card').filter({ hasText: '批改与退保' });
/** A fresh policy starts tomorrow (Asia/Shanghai): changes take effect from then. */
const tomorrow = () => new Date(Date.now() + 32 * 3_600_000).toISOString().slice(0, 10);

/**
 * The underwriter opens 批改审核 from the sidebar, finds the policy's request (by its policy number), opens it,
 * reads before → after and approves it (通过 asks first); the page goes back to the queue, which no longer
 * lists it.
 */
async function approveFromQueue(page: Page, policyNumber: string, expected: RegExp) {
  await signInQuickly(page, 'underwriter');
  await openFromSidebar(page, '审核任务', '批改审核');
  await expect(page).toHaveURL(/\/piibs\/task\/policyChanges$/);
  const row = content(page).getByRole('row').filter({ hasText: policyNumber });
  await expect(row.getByText('待核保')).toBeVisible();
  await expect(row.getByText(expected)).toBeVisible();
  expect(await seriousViolations(page, '批改审核')).toEqual([]);
  await row.getByRole('button', { name: /审\s*核/ }).click();
  await expect(page).toHaveURL(/\/piibs\/task\/policyChange\/\d+$/);
  await expect(content(page).getByTestId('policy-change-comparison')).toBeVisible();
  expect(await seriousViolations(page, '审核批改/退保申请')).toEqual([]);
  await clickDecision(page, '通过');
  await expect(page).toHaveURL(/\/piibs\/task\/policyChanges$/);
  await expect(content(page).getByRole('row').filter({ hasText: policyNumber })).toHaveCount(0);
}

test('an enterprise adds employees mid-term and pays the difference; then, deregistered, cancels and is refunded', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signInQuickly(page, 'enterprise');
  const { id: policyId, number: policyNumber } = await issuedPolicy(page);

  // 批改: five more employees from today.
  await signInQuickly(page, 'enterprise', policyPath(policyId));
  await section(page).getByRole('button', { name: '申请批改' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('生效日期').fill(tomorrow());
  const heads = dialog.getByLabel('参保人数');
  const now = Number((await dialog.getByText(/现为 \d+ 人/).textContent())!.match(/\d+/)![0]);
  await heads.fill(String(now + 5));
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  const pending = section(page).getByRole('row').filter({ hasText: '待核保' });
  await expect(pending.getByText(`参保人数：${now} 人 → ${now + 5} 人`)).toBeVisible();
  await expect(pending.getByText(/^补缴 ¥[\d,]+\.\d\d$/)).toBeVisible();

  await approveFromQueue(page, policyNumber, /^补缴 ¥[\d,]+\.\d\d$/);

  // The enterprise pays the difference at the same cashier.
  await signInQuickly(page, 'enterprise', policyPath(policyId));
  await section(page)
    .getByRole('button', { name: /补缴保费/ })
    .click();
  await expect(page).toHaveURL(/\/sandbox-pay\/cashier\?/);
  await page.getByRole('button', { name: '确认支付' }).click();
  await page.goto(policyPath(policyId));
  const done = section(page).getByRole('row').filter({ hasText: '批改' }).first();
  await expect(done.getByText('已生效')).toBeVisible();
  await expect(done.getByRole('button', { name: '下载批单' })).toBeVisible();

  // 退保: an ordinary wish is refused with the rule.
  await section(page).getByRole('button', { name: '申请退保' }).click();
  const cancel = page.getByRole('dialog');
  await cancel.getByLabel('生效日期').fill(tomorrow());
  await pickOption(page, cancel, '退保原因', '投保人申请退保');
  await cancel.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(cancel.getByRole('alert')).toContainText(
    '安全生产责任保险仅在企业关闭、破产、注销或停止生产经营时可以退保',
  );
  // Deregistered, with the document on file.
  await pickOption(page, cancel, '退保原因', '企业注销');
  await pickOption(page, cancel, '证明材料', '被保险人清单');
  await cancel.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(
    section(page).getByRole('row').filter({ hasText: '企业注销' }).getByText('待核保'),
  ).toBeVisible();

  await approveFromQueue(page, policyNumber, /^退还 ¥[\d,]+\.\d\d$/);
  await signInQuickly(page, 'enterprise', policyPath(policyId));
  const refunded = section(page).getByRole('row').filter({ hasText: '企业注销' });
  await expect(refunded.getByText('已生效')).toBeVisible();
  await expect(refunded.getByText(/^已退还 ¥[\d,]+\.\d\d$/)).toBeVisible();
  await expect(content(page).getByText('已退保').first()).toBeVisible();
});
