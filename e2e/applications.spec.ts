// Application journeys against the demo-seeded server (PIIBS_DEMO=1): an enterprise completes the `insured`
// wizard with co-insurance, uploads the documents its product needs and submits; the underwriter returns it
// asking for a document; the enterprise fixes, uploads it in the same screen and resubmits; the underwriter
// approves (待支付). The same for the agent's project insurance (`epinsure`, with `coinsureAndJoint`; a document
// asked for while it stays under review, uploaded from the view page) and the agent's two-step wizard (`agent`).

import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  clickDecision,
  closeOwnContextsAfterEach,
  content,
  pageOf,
  pickOption,
  spaced,
  uploadDocument,
} from './support.ts';

closeOwnContextsAfterEach();

const WORK_SAFETY = '安全生产责任保险（工贸行业）';
const CONSTRUCTION = '建筑施工安全生产责任保险';

async function next(page: Page, pattern: RegExp): Promise<void> {
  await content(page)
    .getByRole('button', { name: spaced('下一步') })
    .click();
  await expect(page).toHaveURL(pattern);
}

/** Submits on the confirm step and answers the application number the success page shows. */
async function submit(page: Page, successUrl: RegExp): Promise<string> {
  await content(page)
    .getByRole('button', { name: spaced('提交审核') })
    .click();
  await expect(page).toHaveURL(successUrl);
  await expect(content(page).getByText('投保单已提交审核')).toBeVisible();
  const text = await content(page)
    .getByText(/投保单号 \S+/)
    .textContent();
  return /投保单号 (\S+?)，/.exec(text ?? '')![1]!;
}

/**
 * The underwriter opens the application's task from the queue, searched by its number (journeys running beside
 * this one fill the queue too), reads the customer's history (and, for a resubmission, what changed), writes
 * the opinion and picks the documents to ask for.
 */
async function openTask(
  page: Page,
  number: string,
  opts: { opinion?: string; changed?: string; documents?: string[] } = {},
) {
  await page.goto(`/piibs/task/list?blurry=${number}&status=open`);
  const main = content(page);
  const row = main.getByRole('row').filter({ hasText: number });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: spaced('处理') }).click();
  await expect(page).toHaveURL(/\/piibs\/task\/audit\/\d+\/true/);
  await expect(main.getByText(number).filter({ visible: true }).first()).toBeVisible();
  await expect(main.getByText('保费明细（按责任）')).toBeVisible();
  const history = main.getByRole('region', { name: '客户历史' });
  await expect(history.getByText(/^历史投保单（共 \d+ 份/)).toBeVisible();
  await expect(history.getByRole('cell', { name: number })).toHaveCount(0);
  if (opts.changed)
    await expect(main.getByRole('region', { name: '重新提交的修改' }).getByText(opts.changed)).toBeVisible();
  if (opts.opinion) await main.getByLabel('审核意见').fill(opts.opinion);
  for (const document of opts.documents ?? []) await pickOption(page, main, '要求补充的资料', document);
  if (opts.documents?.length) {
    // A multiple select stays open after a pick, its list over the decision buttons: close it as a user would.
    await page.keyboard.press('Escape');
    await expect(page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')).toHaveCount(0);
  }
}

/** The underwriter decides the application (a return may ask for documents). */
async function decide(
  page: Page,
  number: string,
  decision: '通过' | '退回',
  opts: { opinion?: string; changed?: string; documents?: string[] } = {},
) {
  await openTask(page, number, opts);
  await clickDecision(page, decision);
  await expect(page.getByText(`审核完成：${decision}`)).toBeVisible();
}

/** The underwriter asks for documents while the application stays under review (要求补充资料). */
async function requestDocuments(page: Page, number: string, documents: string[], opinion: string) {
  await openTask(page, number, { opinion, documents });
  await content(page).getByRole('button', { name: '要求补充资料' }).click();
  await expect(page.getByText('已要求补充资料，投保单保持待审核')).toBeVisible();
  await expect(content(page).getByText(`核保通过前还缺：${documents.join('、')}`)).toBeVisible();
}

/** The applicant finds the application in 投保单列表, searched by its number, and answers its row. */
async function listRow(page: Page, number: string): Promise<Locator> {
  await page.goto(`/piibs/epinsure/insureList?blurry=${number}`);
  const row = content(page).getByRole('row').filter({ hasText: number });
  await expect(row).toHaveCount(1);
  return row;
}

test.describe('applications', () => {
  test('insured: enterprise applies with co-insurance and its documents → returned for a document → uploads it and resubmits → approved', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const ent = await pageOf(browser, 'enterprise', '/piibs/insured/stepOne/0/1');
    const main = content(ent);

    // stepOne: product, the enterprise itself as applicant, headcount; the premium follows the inputs.
    await pickOption(ent, main, '险种', WORK_SAFETY);
    await main.getByLabel('参保人数').fill('120');
    const premium = main.getByTestId('live-quote').getByTestId('premium');
    await expect(premium).toHaveText(/¥[\d,]+\.\d{2}/);
    const at120 = await premium.textContent();
    await main.getByLabel('参保人数').fill('150');
    await expect(premium).not.toHaveText(at120!);
    await next(ent, /\/piibs\/insured\/stepSecond\/\d+\/1$/);
    const id = /stepSecond\/(\d+)\//.exec(ent.url())![1]!;

    // A reload resumes the draft from the server.
    await ent.reload();
    await expect(main.getByLabel('被保险人名称')).toHaveValue(/镇江示例安全科技有限公司/);
    await main.getByLabel('联系电话').fill('12345');
    await main.getByRole('button', { name: spaced('下一步') }).click();
    await expect(main.getByText('请输入正确的电话号码或者固话号码')).toBeVisible();
    await main.getByLabel('联系电话').fill('0511-85551234');
    await main.getByLabel('特别约定').fill('每次事故绝对免赔额 500 元');
    await next(ent, new RegExp(`/piibs/insured/stepThird/${id}/1$`));

    // stepThird: the issuer's row is there (the lead, fixed), one co-insurer added; the total must be exactly 100.
    await main.getByRole('switch').click();
    await expect(main.getByLabel('共保公司1', { exact: true })).toHaveValue(
      '示例财产保险股份有限公司（本公司）',
    );
    await expect(main.getByRole('checkbox', { name: '主承保1' })).toBeChecked();
    await expect(main.getByRole('checkbox', { name: '主承保1' })).toBeDisabled();
    await main.getByLabel('共保份额1').fill('60');
    await pickOption(ent, main, '共保公司2', '中国人民财产保险');
    await main.getByLabel('共保份额2').fill('30');
    await expect(main.getByText('共保份额合计须为100%，当前合计为 90%')).toBeVisible();
    await main.getByLabel('共保份额2').fill('40');
    await expect(main.getByTestId('share-total')).toHaveText('份额合计：100%');
    await expect(main.getByTestId('collection-notice')).toContainText(
      '由主承保人 示例财产保险股份有限公司 代收全部保费',
    );

    // Back keeps the input; forward again.
    await main.getByRole('button', { name: spaced('上一步') }).click();
    await expect(ent).toHaveURL(new RegExp(`/stepSecond/${id}/1$`));
    await expect(main.getByLabel('特别约定')).toHaveValue('每次事故绝对免赔额 500 元');
    await next(ent, new RegExp(`/stepThird/${id}/1$`));
    await expect(main.getByLabel('共保份额2')).toHaveValue('40');
    await next(ent, new RegExp(`/piibs/insured/stepForth/${id}/1$`));

    // stepForth: the server's premium by coverage, the prevention fee, the co-insurers' parts; the documents:
    // the enterprise's 营业执照 is on file, the 被保险人清单 is needed before approval and uploaded here.
    await expect(main.getByText('保费明细（按责任）')).toBeVisible();
    await expect(main.getByRole('cell', { name: '主承保' })).toBeVisible();
    await expect(main.getByRole('cell', { name: '示例财产保险股份有限公司' })).toBeVisible();
    await expect(main.getByText('核保通过前还需：被保险人清单，可现在一并上传')).toBeVisible();
    await uploadDocument(ent, '被保险人清单');
    await expect(main.getByText('必备资料已齐全')).toBeVisible();
    const number = await submit(ent, new RegExp(`/piibs/insured/stepSuccess/${id}/1$`));

    // The underwriter returns it with an opinion, asking for the signed application form.
    const uw = await pageOf(browser, 'underwriter', '/piibs/task/list');
    await decide(uw, number, '退回', { opinion: '请核实参保人数与工资名册一致', documents: ['签章投保单'] });

    // The enterprise sees the opinion and what to upload, fixes the headcount, uploads on the last step and
    // resubmits.
    let row = await listRow(ent, number);
    await expect(row.getByText('已退回')).toBeVisible();
    await row.getByRole('button', { name: '继续填写' }).click();
    await expect(ent).toHaveURL(new RegExp(`/piibs/insured/stepOne/${id}/1$`));
    await expect(main.getByText('审核意见：请核实参保人数与工资名册一致')).toBeVisible();
    await expect(main.getByText('需补充影像资料：签章投保单（在「确认保费信息」一步上传）')).toBeVisible();
    await main.getByLabel('参保人数').fill('148');
    await next(ent, /stepSecond/);
    await next(ent, /stepThird/);
    await next(ent, /stepForth/);
    await expect(
      main.getByRole('region', { name: '签章投保单', exact: true }).getByRole('heading'),
    ).toContainText('签章投保单（核保要求补充）');
    await main.getByRole('button', { name: spaced('提交审核') }).click();
    await expect(main.getByText('影像资料：请上传 签章投保单')).toBeVisible();
    await uploadDocument(ent, '签章投保单');
    await submit(ent, /stepSuccess/);

    await decide(uw, number, '通过', { changed: '参保人数：150 → 148' });
    row = await listRow(ent, number);
    await expect(row.getByText('待支付')).toBeVisible();
    await expect(row.getByRole('button', { name: '去支付' })).toBeVisible();

    // The read-only view shows the history.
    await row.getByRole('button', { name: '查看' }).click();
    await expect(ent).toHaveURL(new RegExp(`/piibs/insured/viewInsurance/${id}/1$`));
    await expect(main.getByText('请核实参保人数与工资名册一致')).toBeVisible();
    await expect(main.getByText(/审核通过 → 待支付/)).toBeVisible();
  });

  test('epinsure: agent applies for a construction project with its documents → returned → resubmits → a document asked for, uploaded from the view → approved', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const agent = await pageOf(browser, 'agent', '/piibs/epinsure/stepOne/0/1');
    const main = content(agent);
    await pickOption(agent, main, '险种', CONSTRUCTION);
    await expect(main.getByLabel('投保人（企业）', { exact: true })).toBeVisible();
    await next(agent, /\/piibs\/epinsure\/stepSecond\/\d+\/1$/);
    const id = /stepSecond\/(\d+)\//.exec(agent.url())![1]!;

    await main.getByLabel('工程名称').fill('润扬机械新厂房一期工程');
    await main.getByLabel('工程地址').fill('镇江市丹徒区新城路 8 号');
    await main.getByLabel('工程造价').fill('30000000');
    const premium = main.getByTestId('live-quote').getByTestId('premium');
    await expect(premium).toHaveText(/¥[\d,]+\.\d{2}/);
    const plain = await premium.textContent();
    await main.getByRole('switch').click();
    await expect(premium).not.toHaveText(plain!);
    await next(agent, new RegExp(`/piibs/epinsure/coinsureAndJoint/${id}/1$`));
    await next(agent, new RegExp(`/piibs/epinsure/stepThird/${id}/1$`));
    await expect(main.getByText(/工程造价/).first()).toBeVisible();
    // The product needs the licence and the construction contract to be submitted.
    await expect(main.getByText('提交审核前请上传：营业执照、施工合同')).toBeVisible();
    await uploadDocument(agent, '营业执照');
    await uploadDocument(agent, '施工合同');
    const number = await submit(agent, new RegExp(`/piibs/epinsure/stepSuccess/${id}/1$`));

    const uw = await pageOf(browser, 'underwriter', '/piibs/task/list');
    await decide(uw, number, '退回', { opinion: '请补充施工合同中的工程造价' });
    const row = await listRow(agent, number);
    await row.getByRole('button', { name: '继续填写' }).click();
    await expect(agent).toHaveURL(new RegExp(`/piibs/epinsure/stepOne/${id}/1$`));
    await next(agent, /stepSecond/);
    await main.getByLabel('工程造价').fill('32000000');
    await next(agent, /coinsureAndJoint/);
    await next(agent, /stepThird/);
    await submit(agent, /stepSuccess/);

    // Under review, the underwriter asks for a document; the agent uploads it from the view page.
    await requestDocuments(uw, number, ['授权委托书'], '请补充经办人授权委托书');
    const pending = await listRow(agent, number);
    await expect(pending.getByText('待审核')).toBeVisible();
    await pending.getByRole('button', { name: '查看' }).click();
    await expect(agent).toHaveURL(new RegExp(`/piibs/agent/viewInsurance/${id}/1$`));
    await expect(main.getByText('核保要求补充资料：授权委托书，上传后由核保人员继续审核')).toBeVisible();
    await uploadDocument(agent, '授权委托书');
    await expect(main.getByText('要求补充的资料已上传，等待核保人员审核')).toBeVisible();

    await decide(uw, number, '通过');
    await expect((await listRow(agent, number)).getByText('待支付')).toBeVisible();
  });

  test('agent: two-step wizard for a client with its documents → returned → resubmits → approved', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const agent = await pageOf(browser, 'agent', '/piibs/agent/stepOne/0/1');
    const main = content(agent);
    await pickOption(agent, main, '险种', WORK_SAFETY);
    await main.getByLabel('参保人数').fill('80');
    await expect(main.getByTestId('live-quote').getByTestId('premium')).toHaveText(/¥/);
    await next(agent, /\/piibs\/agent\/stepSecond\/\d+\/1$/);
    const id = /stepSecond\/(\d+)\//.exec(agent.url())![1]!;
    await main.getByLabel('联系电话').fill('13905110000');
    await uploadDocument(agent, '营业执照');
    await uploadDocument(agent, '被保险人清单');
    const number = await submit(agent, new RegExp(`/piibs/agent/stepSuccess/${id}/1$`));

    const uw = await pageOf(browser, 'underwriter', '/piibs/task/list');
    await decide(uw, number, '退回', { opinion: '请补充联系人邮箱' });
    const row = await listRow(agent, number);
    await row.getByRole('button', { name: '继续填写' }).click();
    await expect(agent).toHaveURL(new RegExp(`/piibs/agent/stepOne/${id}/1$`));
    await next(agent, /stepSecond/);
    await main.getByLabel('电子邮箱').fill('runyang@example.com');
    await submit(agent, /stepSuccess/);
    await decide(uw, number, '通过');
    const approved = await listRow(agent, number);
    await expect(approved.getByText('待支付')).toBeVisible();
    await approved.getByRole('button', { name: '查看' }).click();
    await expect(agent).toHaveURL(new RegExp(`/piibs/agent/viewInsurance/${id}/1$`));
  });
});
