// System administration journeys against the demo-seeded server (PIIBS_DEMO=1, PIIBS_CAPTCHA=off).

import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { content, fillSignIn, opened, pickOption, sidebar, signIn, signInQuickly } from './support.ts';

const stamp = Date.now().toString(36);

/** The visible dialog whose title is `title` (antd keeps closed ones in the page, hidden). */
const dialog = (page: Page, title: string) => page.getByRole('dialog').filter({ hasText: title });

/** The sidebar's entries, top level first, as their titles. */
const sidebarTitles = (page: Page) =>
  sidebar(page)
    .getByRole('menuitem')
    .evaluateAll((items) => items.map((item) => (item.textContent ?? '').trim()));

test.describe('system administration', () => {
  test('a role granted only 风险管控 › 我的服务单, a new user with it: one-time password, forced change, exactly those menus', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const roleName = `服务单查看${stamp}`;
    const roleCode = `e2e_${stamp}`;
    const username = `e2e${stamp}`;
    const newPassword = 'E2e#Pass2026x';

    // ---- as admin: the role and its menus ----
    await signIn(page, 'admin', '/piibs/system/role');
    const main = content(page);
    await main.getByRole('button', { name: /新\s*增/ }).click();
    const roleForm = dialog(page, '新增角色');
    await roleForm.getByLabel('角色名称').fill(roleName);
    await roleForm.getByLabel('角色编码').fill(roleCode);
    await roleForm.getByRole('button', { name: /确\s*定/ }).click();
    await expect(page.getByText('新增成功')).toBeVisible();

    await main.getByLabel('关键词').fill(roleCode);
    await main.getByRole('button', { name: /搜\s*索/ }).click();
    await expect(page).toHaveURL(new RegExp(`blurry=${roleCode}`));
    await main.getByRole('cell', { name: roleName }).click();
    const panel = page.locator('.ant-card').filter({ hasText: '菜单分配' });
    await expect(panel.getByText(`角色：${roleName}`)).toBeVisible();
    await panel
      .locator('.ant-tree-treenode')
      .filter({ has: page.getByText('我的服务单', { exact: true }) })
      .locator('.ant-tree-checkbox')
      .click();
    await panel.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('菜单权限已保存，用户下次加载菜单时生效')).toBeVisible();

    // ---- as admin: the user, with that role; the one-time password is shown once ----
    await page.goto('/piibs/system/user');
    await main.getByRole('button', { name: /新\s*增/ }).click();
    const userForm = dialog(page, '新增用户');
    await userForm.getByLabel('用户名').fill(username);
    await userForm.getByLabel('昵称').fill('端到端用户');
    await userForm.getByLabel('手机号').fill('13912345678');
    await pickOption(page, userForm, '角色', roleName, { type: true });
    await userForm.getByRole('button', { name: /确\s*定/ }).click();

    // Clicked while the dialog still zooms in, 我已记下 can be lost (seen once in CI): wait until it has opened.
    const oneTime = await opened(dialog(page, '一次性密码'));
    await expect(oneTime).toContainText(`用户「${username}」已创建`);
    const password = (await oneTime.getByTestId('one-time-password').textContent())?.trim() ?? '';
    expect(password).toMatch(/^\S{12}$/);
    await oneTime.getByRole('button', { name: '我已记下，关闭' }).click();
    await expect(page.getByText(password)).toHaveCount(0);
    await expect(main.getByText(username, { exact: true })).toBeVisible();

    // ---- as the new user: the one-time password only opens the change step ----
    await page.evaluate(() => localStorage.clear());
    await page.goto('/piibs/login');
    await fillSignIn(page, username, password);
    await expect(page.getByText('您正在使用管理员设置的一次性密码，请先修改密码')).toBeVisible();
    await page.getByLabel('新密码').fill(newPassword);
    await page.getByLabel('确认密码').fill(newPassword);
    await page.getByRole('button', { name: /修改密码/ }).click();
    await expect(page.getByText('密码修改成功，请使用新密码重新登录')).toBeVisible();

    // The one-time password is spent; the new one signs in, and the sidebar holds exactly the granted menus.
    await fillSignIn(page, username, newPassword);
    await expect(page).toHaveURL(/\/piibs\/dashboard$/);
    await expect.poll(() => sidebarTitles(page)).toEqual(['首页', '风险管控']);
    await sidebar(page)
      .getByRole('menuitem', { name: /风险管控/ })
      .click();
    await expect.poll(() => sidebarTitles(page)).toEqual(['首页', '风险管控', '我的服务单']);
    await sidebar(page)
      .getByRole('menuitem', { name: /我的服务单/ })
      .click();
    await expect(page).toHaveURL(/\/piibs\/riskControl\/prevention\/serviceList$/);
    // The system pages are not among them.
    await page.goto('/piibs/system/user');
    await expect(page).toHaveURL(/\/piibs\/404$/);
  });

  test('导出 on the user list downloads the current query as timestamp-name.xlsx with the Chinese header row', async ({
    page,
  }, testInfo) => {
    await signInQuickly(page, 'admin', '/piibs/system/user?blurry=admin');
    const main = content(page);
    await expect(main.getByRole('cell', { name: 'admin', exact: true })).toBeVisible();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      main.getByRole('button', { name: /导\s*出/ }).click(),
    ]);
    const fileName = download.suggestedFilename();
    expect(fileName).toMatch(/^\d+-.+\.xlsx$/);
    expect(fileName).toMatch(/-用户数据\.xlsx$/);
    await expect(page.getByText(`已导出 ${fileName}`)).toBeVisible();

    const file = testInfo.outputPath(fileName);
    await download.saveAs(file);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.worksheets[0]!;
    const row = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1).map((v) => String(v ?? ''));
    expect(row(1)).toEqual([
      '用户名',
      '昵称',
      '手机号',
      '邮箱',
      '性别',
      '部门',
      '角色',
      '岗位',
      '渠道',
      '状态',
      '创建时间',
    ]);
    // The export follows the list's search: the admin account, and no one else.
    const usernames = Array.from({ length: sheet.rowCount - 1 }, (_, i) => row(i + 2)[0]);
    expect(usernames).toContain('admin');
    expect(usernames.every((name) => name?.includes('admin'))).toBe(true);
  });
});
