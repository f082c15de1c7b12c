// Customer review journey against the demo-seeded server (PIIBS_DEMO=1, PIIBS_CAPTCHA=off): an agent adds a
// customer, an underwriter returns it with an opinion, the agent fixes it (which resubmits it), the
// underwriter approves it.

import { expect, type Page, test } from '@playwright/test';
import { clickDecision, closeOwnContextsAfterEach, content, pageOf, pickOption } from './support.ts';

closeOwnContextsAfterEach();

const stamp = Date.now().toString(36);
const customerName = `镇江测试机械${stamp}有限公司`;
/** A legacy 18-digit tax number (accepted beside GB 32100 codes), unique per run. */
const taxNumber = `${Date.now()}${Math.floor(Math.random() * 100_000)}`.padEnd(18, '7').slice(0, 18);

/** The review queue searched for the customer (journeys running beside this one fill the queue too). */
const taskList = `/piibs/task/list?blurry=${encodeURIComponent(customerName)}&status=open`;

/** The underwriter decides the open task of the customer from the task list. */
async function decide(page: Page, decision: '通过' | '退回', opinion?: string): Promise<void> {
  await page.goto(taskList);
  const main = content(page);
  const row = main.getByRole('row').filter({ hasText: customerName });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /处\s*理/ }).click();
  await expect(page).toHaveURL(/\/piibs\/task\/audit\/\d+\/true/);
  await expect(main.getByText(taxNumber, { exact: true }).filter({ visible: true })).toBeVisible();
  if (opinion) await main.getByLabel('审核意见').fill(opinion);
  await clickDecision(page, decision);
  await expect(page.getByText(`审核完成：${decision}`)).toBeVisible();
  await expect(page).toHaveURL(/\/piibs\/task\/list/);
}

test.describe('customer review', () => {
  test('agent adds a customer → underwriter returns it → agent fixes it → underwriter approves', async ({
    browser,
  }) => {
    test.setTimeout(180_000);

    // ---- the agent adds the customer ----
    const agent = await pageOf(browser, 'agent', '/piibs/agent/applicant/newUpdate/0/add');
    const form = content(agent);
    await form.getByLabel('统一社会信用代码').fill(taxNumber);
    await form.getByLabel('投保人名称').fill(customerName);
    await pickOption(agent, form, '行业门类', '制造业', { type: true });
    await pickOption(agent, form, '行业大类', '通用设备', { type: true });
    await pickOption(agent, form, '所在地区', '京口区', { type: true });
    await form.getByLabel('详细地址').fill('镇江市京口区学府路 1 号');
    await form.getByLabel('法定代表人').fill('王五');
    await form.getByLabel('联系人').fill('赵六');
    await form.getByLabel('联系电话').fill('12345');
    await form.getByLabel('单位总人数').fill('120');
    await form.getByRole('button', { name: /保\s*存/ }).click();
    // The shared rule speaks before anything is sent.
    await expect(form.getByText('请输入正确的电话号码或者固话号码')).toBeVisible();
    await form.getByLabel('联系电话').fill('13812345678');
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await expect(agent.getByText('新增成功，已提交审核')).toBeVisible();
    await expect(agent).toHaveURL(/\/piibs\/applicant\/list/);

    const list = content(agent);
    await list.getByLabel('关键词').fill(customerName);
    await list.getByRole('button', { name: /搜\s*索/ }).click();
    const agentRow = list.getByRole('row').filter({ hasText: customerName });
    await expect(agentRow.getByText('待审核')).toBeVisible();
    await expect(agentRow.getByText('138****5678')).toBeVisible();

    // ---- the underwriter returns it ----
    const underwriter = await pageOf(browser, 'underwriter', taskList);
    const queue = content(underwriter);
    const taskRow = queue.getByRole('row').filter({ hasText: customerName });
    await taskRow.getByRole('button', { name: /处\s*理/ }).click();
    await queue.getByRole('button', { name: /退\s*回/ }).click();
    await expect(queue.getByText('退回或拒绝时必须填写审核意见')).toBeVisible();
    await queue.getByLabel('审核意见').fill('请补充营业执照号');
    await queue.getByRole('button', { name: /退\s*回/ }).click();
    await expect(underwriter.getByText('审核完成：退回')).toBeVisible();

    // ---- the agent sees the opinion, fixes the record and saves it (back to review) ----
    await agent.goto(`/piibs/applicant/list?blurry=${encodeURIComponent(customerName)}`);
    const returned = content(agent).getByRole('row').filter({ hasText: customerName });
    await expect(returned.getByText('已退回')).toBeVisible();
    await returned.getByRole('button', { name: /编\s*辑/ }).click();
    await expect(agent).toHaveURL(/\/piibs\/agent\/applicant\/newUpdate\/\d+\/false/);
    const edit = content(agent);
    await expect(edit.getByText('请补充营业执照号')).toBeVisible();
    await expect(edit.getByRole('button', { name: '重新提交审核' })).toBeVisible();
    await edit.getByLabel('营业执照号').fill(`YYZZ${stamp}`.toUpperCase());
    await edit.getByRole('button', { name: /保\s*存/ }).click();
    await expect(agent.getByText('保存成功')).toBeVisible();
    await expect(
      content(agent).getByRole('row').filter({ hasText: customerName }).getByText('待审核'),
    ).toBeVisible();

    // ---- the underwriter approves it ----
    await decide(underwriter, '通过');
    await agent.goto(`/piibs/applicant/list?blurry=${encodeURIComponent(customerName)}`);
    await expect(
      content(agent).getByRole('row').filter({ hasText: customerName }).getByText('审核通过'),
    ).toBeVisible();

    await agent.context().close();
    await underwriter.context().close();
  });
});
