// Risk-control journey against the demo-seeded server (PIIBS_DEMO=1): the underwriter plans a service item for
// the demo enterprise's issued policy and dispatches an order → the demo service organisation accepts it,
// starts, records a finding with a hazard, uploads a site photo and submits → the enterprise confirms with a
// rating → the underwriter sees the spending in the fund ledger.
import zlib from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import { closeOwnContextsAfterEach, content, opened, pageOf, pickOption } from './support.ts';

closeOwnContextsAfterEach();

const ENTERPRISE = '镇江示例安全科技有限公司';
const ORG = '镇江安泰安全技术服务有限公司';
const EXPERT = '王振国';

const spaced = (text: string) => new RegExp(`^\\s*${text.split('').join('\\s*')}\\s*$`);

/** A valid 2×2 PNG (RGB), made here: signature, IHDR, IDAT, IEND with their CRCs. */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  // Each row: filter byte 0, then two RGB pixels.
  const raw = Buffer.from([0, 255, 0, 0, 0, 128, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Accepts the confirmation dialog the last click opened. */
async function confirmDialog(page: Page): Promise<void> {
  const dialog = await opened(page.locator('.ant-modal-confirm:visible'));
  await dialog.getByRole('button', { name: spaced('确定') }).click();
  await expect(dialog).toBeHidden();
}

test('risk control: plan and dispatch → organisation serves with a photo → enterprise confirms → ledger', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  // Unique per attempt, so a retry (or --repeat-each) finds its own item and order among earlier ones.
  const run = Date.now().toString(36);
  const fen = 10_000 + (Date.now() % 9_000);
  const cost = `¥${(fen / 100).toFixed(2)}`;
  const itemContent = `重点岗位安全风险评估（e2e ${run}）`;

  // ---- the underwriter plans a service item and dispatches it ----
  const uw = await pageOf(browser, 'underwriter', '/piibs/riskControl/prevention/serviceList?tab=plans');
  let main = content(uw);
  // A service is performed within the policy's period: the demo enterprise's policy in force (the demo's clock
  // issued it two months ago), not one the other journeys issued today, which starts later.
  const rows = main.getByRole('row').filter({ hasText: ENTERPRISE });
  await expect(rows.first()).toBeVisible();
  const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const texts = await rows.allTextContents();
  const inForce = texts.findIndex((text) => {
    const start = /(\d{4}-\d{2}-\d{2}) 至/.exec(text)?.[1];
    return start !== undefined && start <= today;
  });
  expect(inForce, 'a policy of the demo enterprise in force').toBeGreaterThanOrEqual(0);
  const planRow = rows.nth(inForce);
  const seqNo = (await planRow.getByRole('link').first().textContent())!.trim();
  expect(seqNo).toMatch(/^YF/);
  await planRow.getByRole('link', { name: seqNo }).click();
  await expect(uw).toHaveURL(new RegExp(`/prevention/index/${seqNo}$`));
  await expect(main.getByTestId('plan-seqno')).toHaveText(seqNo);
  const spentBefore = (await main.getByTestId('fund-spent').textContent())!;

  await main.getByRole('button', { name: '新增服务项目' }).click();
  const itemDialog = await opened(uw.locator('.ant-modal:visible'));
  await pickOption(uw, itemDialog, '服务项目', '安全评估');
  await itemDialog.getByLabel('服务内容').fill(itemContent);
  await itemDialog.getByLabel('单次费用（元）').fill((fen / 100).toFixed(2));
  await pickOption(uw, itemDialog, '服务机构', ORG);
  await pickOption(uw, itemDialog, '服务人员', EXPERT);
  // A multiple select stays open: close it before reaching the dialog's buttons.
  await itemDialog.locator('.ant-modal-title').click();
  await itemDialog.getByRole('button', { name: spaced('确定') }).click();
  await expect(itemDialog).toBeHidden();

  const itemRow = main.getByTestId('plan-items').getByRole('row').filter({ hasText: itemContent });
  await expect(itemRow).toContainText(cost);
  await itemRow.getByRole('button', { name: spaced('派单') }).click();
  const dispatchDialog = await opened(uw.locator('.ant-modal:visible'));
  await dispatchDialog.getByRole('button', { name: spaced('派单') }).click();
  await expect(dispatchDialog).toBeHidden();
  await expect(itemRow).toContainText('1 / 1');

  const orderRow = main.getByRole('row').filter({ hasText: '已派单' }).filter({ hasText: cost });
  await expect(orderRow).toHaveCount(1);
  const number = (await orderRow.getByRole('link').first().textContent())!.trim();
  expect(number).toMatch(new RegExp(`^${seqNo}-\\d{3}$`));

  // ---- the organisation accepts, starts, records with a hazard and a photo, submits ----
  const svc = await pageOf(browser, 'service', `/piibs/riskControl/prevention/serviceList?blurry=${number}`);
  main = content(svc);
  const svcRow = main.getByRole('row').filter({ hasText: number });
  await svcRow.getByRole('button', { name: spaced('接单') }).click();
  await confirmDialog(svc);
  await expect(svcRow).toContainText('已接单');
  await svcRow.getByRole('button', { name: '开始服务' }).click();
  await confirmDialog(svc);
  await expect(svcRow).toContainText('服务中');
  await svcRow.getByRole('button', { name: '执行服务' }).click();
  await expect(svc).toHaveURL(
    (url) =>
      url.pathname === `/piibs/riskControl/prevention/service/${seqNo}` &&
      url.searchParams.get('order') === number,
  );
  await expect(main.getByTestId('order-number')).toHaveText(number);

  await main.getByLabel('服务情况').fill('对重点岗位开展安全风险评估，发现隐患 1 处，已告知企业安全负责人。');
  await main.getByRole('button', { name: '添加隐患' }).click();
  await main.getByLabel('隐患描述').fill('冲压车间安全光栅失效');
  await main.getByLabel('隐患部位').fill('冲压车间');
  await pickOption(svc, main, '隐患等级 1', '较大');
  await expect(main.getByLabel('姓名')).toHaveValue(EXPERT);

  await main.locator('input[type=file]').setInputFiles({
    name: '现场照片.png',
    mimeType: 'image/png',
    buffer: tinyPng(),
  });
  await expect(main.locator('[data-testid^="material-"]')).toHaveCount(1);
  await expect(main.getByText('现场照片.png').first()).toBeVisible();

  await main.getByRole('button', { name: spaced('提交') }).click();
  await confirmDialog(svc);
  await expect(svc).toHaveURL(/\/prevention\/success\//);
  await expect(main.getByText('服务记录已提交')).toBeVisible();

  // ---- the enterprise confirms with a rating ----
  const ent = await pageOf(
    browser,
    'enterprise',
    `/piibs/riskControl/prevention/view/${seqNo}?order=${encodeURIComponent(number)}`,
  );
  main = content(ent);
  await expect(main.getByTestId('order-findings')).toContainText('重点岗位');
  await expect(main.getByText('冲压车间安全光栅失效')).toBeVisible();
  await expect(main.locator('[data-testid^="material-"]')).toHaveCount(1);
  await main.getByRole('button', { name: '确认服务' }).click();
  const confirm = await opened(ent.locator('.ant-modal:visible'));
  // Five stars (the dialog has finished opening: a click while it zoomed in was lost).
  const fifthStar = confirm.getByRole('radio').nth(4);
  await fifthStar.click();
  await expect(fifthStar).toHaveAttribute('aria-checked', 'true');
  await confirm.getByLabel('评价').fill('评估细致，建议可行');
  await confirm.getByRole('button', { name: spaced('确定') }).click();
  await expect(ent).toHaveURL(/\/prevention\/success\//);
  await expect(main.getByText('服务已确认')).toBeVisible();
  await expect(main.getByText(`本次服务费用 ${cost} 已计入支出`)).toBeVisible();

  // ---- the underwriter sees the spending in the ledger ----
  await uw.reload();
  main = content(uw);
  const ledger = main.getByTestId('ledger');
  const spend = ledger.getByRole('row').filter({ hasText: '服务支出' }).filter({ hasText: number });
  await expect(spend).toHaveCount(1);
  await expect(spend).toContainText(cost);
  await expect(main.getByTestId('fund-spent')).not.toHaveText(spentBefore);
});
