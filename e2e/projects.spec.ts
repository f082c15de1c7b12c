// Project insurance against the demo-seeded server (PIIBS_DEMO=1): the contractor declares a construction project
// against its annual order (secondary order), the underwriter approves it in the tender review, and the project's
// policy is issued and downloadable from the declaration. Then the contractor changes the project (批改, type 2:
// a higher cost), the underwriter approves the change, and its endorsement (批单) downloads.

import { expect, test } from '@playwright/test';
import {
  bearer,
  clickDecision,
  closeOwnContextsAfterEach,
  content,
  pageOf,
  savedToken,
  spaced,
} from './support.ts';

closeOwnContextsAfterEach();

const project = `润州区学府路综合楼${Date.now().toString(36)}`;

test('contractor declares a project → underwriter approves the tender → the policy downloads → a change → its endorsement downloads', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const ctr = await pageOf(browser, 'contractor', '/piibs/projectManage/orderDetail/0');
  const orders = await (
    await ctr.request.get('/api/project-orders?page=0&size=10', { headers: bearer(savedToken('contractor')) })
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
  // The review queue searched for the project (journeys running beside this one fill the queue too).
  const taskList = `/piibs/task/list?blurry=${encodeURIComponent(project)}&status=open`;
  const uw = await pageOf(browser, 'underwriter', taskList);
  const row = content(uw).getByRole('row').filter({ hasText: project });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: spaced('处理') }).click();
  await expect(uw).toHaveURL(/\/piibs\/task\/tenderAudit\/\d+\/true/);
  await clickDecision(uw, '通过');
  await expect(uw.getByText(/审核完成/)).toBeVisible();

  // The contractor downloads the project's e-policy: the page is loaded again until it offers it. Each load gets
  // time to settle; on a busy machine a short wait would load it again before it ever did.
  const downloading = ctr.waitForEvent('download');
  await expect(async () => {
    await ctr.goto(applyUrl.replace(/\/\d+$/, '/2'));
    await main.getByRole('button', { name: /下载电子保单/ }).click({ timeout: 10_000 });
  }).toPass({ timeout: 60_000 });
  expect((await downloading).suggestedFilename()).toMatch(/^\d+-电子保单-P\w+\.pdf$/);
  // The project policy's covers with their limits; the premium (by cost band: 6,500 + 2,000,000 × 0.60‰) once.
  const covers = main.getByTestId('policy-covers');
  await expect(covers.getByRole('row').filter({ hasText: '从业人员伤亡（死亡/伤残）' })).toContainText(
    '¥500,000.00',
  );
  await expect(covers).toContainText('保费按整单计收，不按保险责任分列：合计 ¥7,700.00');

  // 批改: from the issued project, 12 → 15 million yuan; the form shows the value before the change.
  await main.getByRole('button', { name: spaced('申请批改') }).click();
  await expect(ctr).toHaveURL(/\/piibs\/projectManage\/apply\/0\/false\/2\/0\?baseId=\d+$/);
  await expect(main.getByTestId('before-projectCostFen')).toHaveText('批改前：¥12,000,000.00');
  await expect(main.getByLabel('工程名称')).toBeDisabled();
  await main.getByLabel('工程造价').fill('15000000');
  // 6,500 + 5,000,000 × 0.60‰ = 9,500 yuan against 7,700: 1,800 more.
  await expect(main.getByTestId('change-diff')).toHaveText('加收 ¥1,800.00');
  await main.getByRole('button', { name: spaced('提交审核') }).click();
  await expect(ctr.getByText('已提交审核')).toBeVisible();
  await expect(ctr).toHaveURL(/\/piibs\/projectManage\/apply\/\d+\/true\/2\/1$/);
  const changeUrl = ctr.url();

  // The underwriter sees what changes and approves: the endorsement is issued.
  await uw.goto(taskList);
  const changeRow = content(uw)
    .getByRole('row')
    .filter({ hasText: `【批改】${project}` });
  await expect(changeRow).toHaveCount(1);
  await changeRow.getByRole('button', { name: spaced('处理') }).click();
  await expect(uw).toHaveURL(/\/piibs\/task\/tenderAudit\/\d+\/true/);
  await expect(content(uw).getByTestId('change-comparison')).toContainText('¥15,000,000.00');
  await clickDecision(uw, '通过');
  await expect(uw.getByText(/审核完成/)).toBeVisible();

  // The contractor downloads the endorsement from the change's 批单 view, loaded again until it offers it.
  const endorsement = ctr.waitForEvent('download');
  await expect(async () => {
    await ctr.goto(changeUrl.replace(/\/1$/, '/2'));
    await main.getByRole('button', { name: spaced('下载批单') }).click({ timeout: 10_000 });
  }).toPass({ timeout: 60_000 });
  expect((await endorsement).suggestedFilename()).toMatch(/^\d+-批单-E\w+\.pdf$/);
  await expect(main.getByTestId('endorsement-number')).toHaveText(/^E[A-Z]+\d{12}$/);
});
