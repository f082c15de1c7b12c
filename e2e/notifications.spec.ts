// In-app notifications on the demo server: an agent submits a new customer over the API → the underwriter's
// open page gets the message live (toast + badge, no reload) → opening it marks it read and leads to the review.
// After a reload the message is still there, read, exactly once.
import { expect, test } from '@playwright/test';
import { bearer, savedToken, signInQuickly } from './support.ts';

/** A GB 32100 code: the check character over the first 17 characters (weights 3^i mod 31). */
function uscc(body17: string): string {
  const chars = '0123456789ABCDEFGHJKLMNPQRTUWXY';
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += chars.indexOf(body17[i]!) * (3 ** i % 31);
  return body17 + chars[(31 - (sum % 31)) % 31];
}

test('a new customer to review reaches the underwriter live, once, and opens the review', async ({
  page,
  request,
}) => {
  await signInQuickly(page, 'underwriter', '/piibs/dashboard');
  const bell = page.getByRole('button', { name: '消息通知' });
  await expect(bell).toBeVisible();
  const count = bell.locator('.ant-badge-count');
  /** The badge's number (antd renders no count element at zero). */
  const unread = async () => ((await count.count()) ? Number(await count.getAttribute('title')) : 0);
  // The bell has loaded the count when it shows the server's.
  const listed = await request.get('/api/notifications?size=1', {
    headers: bearer(savedToken('underwriter')),
  });
  const before = ((await listed.json()) as { unread: number }).unread;
  await expect.poll(unread).toBe(before);

  const name = `镇江通知测试${Date.now() % 100000}有限公司`;
  const res = await request.post('/api/customers', {
    headers: bearer(savedToken('agent')),
    data: {
      uscc: uscc(`91321100MA${String(Date.now() % 10_000_000).padStart(7, '0')}`),
      name,
      industrySection: 'C',
      industryDivision: '34',
      region: '321102',
      address: '江苏省镇江市京口区测试路 9 号',
      legalRepresentative: '张三',
      contactName: '李四',
      phone: '13812345678',
      headcount: 50,
    },
  });
  expect(res.status(), await res.text()).toBe(200);

  // Live: a toast names the customer and the badge counts one more, without a reload.
  const toast = page.locator('.ant-notification-notice').filter({ hasText: name });
  await expect(toast).toHaveCount(1);
  await expect.poll(unread).toBe(before + 1);

  // The list holds it once; opening it marks it read and leads to the review page.
  await bell.click();
  const item = page.locator('.shell-bell-popup').getByText(name).first();
  await expect(item).toBeVisible();
  await item.click();
  await expect(page).toHaveURL(/\/piibs\/task\/audit\/\d+\/true$/);
  await expect(page.getByRole('main').getByText(name).first()).toBeVisible();
  await expect.poll(unread).toBe(before);

  // Persisted: after a reload (a new socket) the message is still listed once, read.
  await page.reload();
  const list = await page.request.get('/api/notifications?size=50', {
    headers: bearer(savedToken('underwriter')),
  });
  const mine = ((await list.json()).content as { body: string; title: string; read: boolean }[]).filter((n) =>
    `${n.title}${n.body}`.includes(name),
  );
  expect(mine).toHaveLength(1);
  expect(mine[0]!.read).toBe(true);
  await expect(page.locator('.ant-notification-notice').filter({ hasText: name })).toHaveCount(0);
});
