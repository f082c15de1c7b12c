// Endorsement and cancellation journeys (issue #24) against the demo-seeded server: on a policy of its own, the
// enterprise adds employees mid-term and pays the difference at the sandbox cashier; then, its business
// deregistered, it is refused an ordinary wish to cancel the work-safety policy (with the rule), cancels with its
// proving document and is refunded; the underwriter approves both on the policy page.

import { type APIRequestContext, type APIResponse, expect, type Page, test } from '@playwright/test';
import {
  bearer,
  closeOwnContextsAfterEach,
  content,
  documentFile,
  savedToken,
  signInQuickly,
} from './support.ts';

closeOwnContextsAfterEach();

/**
 * An application of the demo enterprise, approved and waiting for payment, made through the API: this journey's
 * own, so journeys running beside it (or a retry) never pay or find each other's. Answers its number.
 */
async function approvedApplication(request: APIRequestContext): Promise<string> {
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

/** Pays the application at the sandbox cashier, as the enterprise would; answers the policy id. */
async function issuedPolicy(page: Page): Promise<number> {
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
  return result.policyId as number;
}

const policyPath = (id: number) => `/piibs/projectManage/policyInsuranceView/${id}`;
const section = (page: Page) => content(page).locator('.ant-card').filter({ hasText: '批改与退保' });
/** A fresh policy starts tomorrow (Asia/Shanghai): changes take effect from then. */
const tomorrow = () => new Date(Date.now() + 32 * 3_600_000).toISOString().slice(0, 10);

async function approveOnPolicyPage(page: Page, policyId: number) {
  await signInQuickly(page, 'underwriter', policyPath(policyId));
  const row = section(page).getByRole('row').filter({ hasText: '待核保' });
  await row.getByRole('button', { name: /通\s*过/ }).click();
  await expect(section(page).getByText('待核保')).toHaveCount(0);
}

test('an enterprise adds employees mid-term and pays the difference; then, deregistered, cancels and is refunded', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signInQuickly(page, 'enterprise');
  const policyId = await issuedPolicy(page);

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

  await approveOnPolicyPage(page, policyId);

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
  await cancel.getByRole('combobox', { name: '退保原因' }).click();
  await page.getByTitle('投保人申请退保').click();
  await cancel.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(cancel.getByRole('alert')).toContainText(
    '安全生产责任保险仅在企业关闭、破产、注销或停止生产经营时可以退保',
  );
  // Deregistered, with the document on file.
  await cancel.getByRole('combobox', { name: '退保原因' }).click();
  await page.getByTitle('企业注销').click();
  await cancel.getByRole('combobox', { name: '证明材料' }).click();
  await page.locator('.ant-select-item-option[title*="被保险人清单"]').click();
  await cancel.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(
    section(page).getByRole('row').filter({ hasText: '企业注销' }).getByText('待核保'),
  ).toBeVisible();

  await approveOnPolicyPage(page, policyId);
  await signInQuickly(page, 'enterprise', policyPath(policyId));
  const refunded = section(page).getByRole('row').filter({ hasText: '企业注销' });
  await expect(refunded.getByText('已生效')).toBeVisible();
  await expect(refunded.getByText(/^已退还 ¥[\d,]+\.\d\d$/)).toBeVisible();
  await expect(content(page).getByText('已退保').first()).toBeVisible();
});
