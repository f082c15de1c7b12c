// The policy lists on the demo server: every role reaches each of its policies from the menu in two clicks (the
// list, then the policy's number); the enterprise's policy inside its renewal window offers 续保, the other says
// when renewal opens; the underwriter's 保单查询 filters by status and exports xlsx.
import { expect, test } from '@playwright/test';
import { bearer, content, openFromSidebar, savedToken, signInQuickly } from './support.ts';

type Listed = { content: { id: number; number: string; endDate: string }[]; totalElements: number };

for (const [user, page_] of [
  ['enterprise', '我的保单'],
  ['contractor', '我的保单'],
  ['underwriter', '保单查询'],
] as const) {
  test(`${user}: ${page_} lists its policies; the number opens the policy page`, async ({
    page,
    request,
  }) => {
    const token = await signInQuickly(page, user, '/piibs/dashboard');
    const listed = (await (
      await request.get('/api/policies?size=5', { headers: bearer(token) })
    ).json()) as Listed;
    await openFromSidebar(page, '保单管理', page_);
    const main = content(page);
    if (listed.totalElements === 0) {
      await expect(main.getByText('暂无保单')).toBeVisible();
      return;
    }
    const first = listed.content[0]!;
    await main.getByRole('button', { name: first.number, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/policyInsuranceView/${first.id}$`));
    await expect(main.getByText(`保单 ${first.number}`)).toBeVisible();
  });
}

test('enterprise: the policy inside its renewal window offers 续保; the other says when renewal opens', async ({
  page,
  request,
}) => {
  await signInQuickly(page, 'enterprise', '/piibs/dashboard');
  const listed = (await (
    await request.get('/api/policies?sort=endDate,asc&size=50', { headers: bearer(savedToken('enterprise')) })
  ).json()) as Listed;
  const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const soon = listed.content.find((p) => p.endDate >= today)!;
  await openFromSidebar(page, '保单管理', '我的保单');
  const main = content(page);
  await main.getByRole('button', { name: soon.number, exact: true }).click();
  await expect(main.getByText(/^续保已开放：可于 \d{4}-\d{2}-\d{2}（保单到期日）前续保$/)).toBeVisible();
  await expect(main.getByRole('button', { name: /续\s*保/ })).toBeVisible();
  await expect(main.getByRole('link', { name: '查看本保单的预防服务' })).toBeVisible();
});

test('underwriter: 保单查询 filters by status and exports the list as xlsx', async ({ page }) => {
  await signInQuickly(page, 'underwriter', '/piibs/policy/policyList?status=IN_FORCE');
  const main = content(page);
  await expect(main.getByRole('row').nth(1)).toContainText('有效');
  await expect(main.getByRole('table').getByText('未生效')).toHaveCount(0);
  const downloading = page.waitForEvent('download');
  await main.getByRole('button', { name: /导\s*出/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/保单.*\.xlsx$/);
});
