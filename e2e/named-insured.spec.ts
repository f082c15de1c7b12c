// 从业人员名单 on the demo server at 375 px: the enterprise's draft of the demo product that asks for the list shows
// it on 保单基本信息, reached and filled by keyboard, a wrong number named in Chinese beside its row, nothing
// serious for axe; the policy page of the demo's listed policy shows the list masked (axe on its card: the page's
// other cards are checked by accessibility.spec.ts).
import { expect, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { bearer, closeOwnContextsAfterEach, content, savedToken, signInQuickly } from './support.ts';

closeOwnContextsAfterEach();
test.use({ viewport: { width: 375, height: 812 } });

const ent = () => ({ headers: bearer(savedToken('enterprise')) });

test('enterprise: the wizard’s named list at 375 px, by keyboard, axe-clean', async ({ page, request }) => {
  const products = (await (await request.get('/api/products/available', ent())).json()) as {
    id: number;
    code: string;
  }[];
  const product = products.find((p) => p.code === 'AZX_SM_2025');
  expect(product, 'the demo product that asks for the list').toBeTruthy();
  const customer = (await (await request.get('/api/customers/mine', ent())).json()) as { id: number };
  const res = await request.post('/api/applications', {
    ...ent(),
    data: { productId: product!.id, customerId: customer.id, policyholderType: 1 },
  });
  expect(res.status(), await res.text()).toBe(200);
  const draft = (await res.json()) as { id: number };

  await signInQuickly(page, 'enterprise', `/piibs/insured/stepSecond/${draft.id}/1`);
  const section = content(page).getByTestId('named-insured');
  await expect(section.getByRole('heading', { name: /从业人员名单（共 0 人/ })).toBeVisible();
  const add = section.getByRole('button', { name: '添加人员' });
  await add.focus();
  await page.keyboard.press('Enter');
  const name = section.getByRole('textbox', { name: '第 1 行姓名' });
  await name.focus();
  await page.keyboard.type('示例员工己');
  await page.keyboard.press('Tab');
  await expect(section.getByRole('textbox', { name: '第 1 行身份证号码' })).toBeFocused();
  await page.keyboard.type('320102199001011230');
  await page.keyboard.press('Tab');
  await expect(section.getByText('身份证号码：请输入正确的18位居民身份证号码')).toBeVisible();
  const box = await section.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  expect(await seriousViolations(page, 'wizard 从业人员名单')).toEqual([]);
});

test('enterprise: the listed demo policy shows its people masked, axe-clean', async ({ page, request }) => {
  const list = (await (await request.get('/api/policies?size=50', ent())).json()) as {
    content: { id: number; productName: string }[];
  };
  const named = list.content.find((p) => p.productName === '安全生产责任保险（实名制）');
  expect(named, 'the demo policy with a named list').toBeTruthy();
  await signInQuickly(page, 'enterprise', `/piibs/projectManage/policyInsuranceView/${named!.id}`);
  const card = content(page).getByTestId('policy-insured-persons');
  await expect(card.getByText('从业人员名单（现有 5 人）')).toBeVisible();
  await expect(card.getByText('3211**********1016')).toBeVisible();
  await expect(card.getByText('321102198503121016')).toHaveCount(0);
  expect(
    await seriousViolations(page, 'policy 从业人员名单', {
      include: '[data-testid="policy-insured-persons"]',
    }),
  ).toEqual([]);
});
