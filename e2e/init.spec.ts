import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { fillSignIn, TOKEN_KEY } from './support.ts';

// First-run setup needs a server that has never been initialised, so this spec starts its own (no demo data)
// on another port and data directory, the way `npm start` runs the server.
const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.E2E_INIT_PORT ?? 8216);
const base = `http://127.0.0.1:${port}`;
let server: ChildProcess;
let dataDir: string;

test.beforeAll(async () => {
  // A new PostgreSQL cluster made and migrated: over 30 s on a 2-core machine busy with the other journeys.
  test.setTimeout(120_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'piibs-e2e-init-'));
  chmodSync(dataDir, 0o755); // as root, the postgres user can reach it, so the cluster stays inside and goes with it
  server = spawn(path.join(root, 'node_modules/.bin/node'), ['apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PIIBS_CAPTCHA: 'off',
      PIIBS_DEMO: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    server.stdout?.on('data', (d: Buffer) => String(d).includes('PIIBS is running') && resolve());
    server.on('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
});

test.afterAll(async () => {
  if (server.exitCode === null) {
    server.kill('SIGINT');
    await new Promise((r) => server.on('exit', r));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

test('first-run setup: every page leads to /piibs/init; the operator names the organisation and creates the first administrator, who then signs in', async ({
  page,
}) => {
  await page.goto(`${base}/piibs/dashboard`);
  await expect(page).toHaveURL(`${base}/piibs/init`);

  await page.getByLabel('机构名称').fill('镇江测试财产保险股份有限公司');
  await page.getByLabel('管理员账号').fill('root');
  // Password strength is enforced: a weak one is refused at the field.
  await page.getByLabel('密码', { exact: true }).fill('12345678');
  await page.getByLabel('确认密码').fill('12345678');
  await page.getByRole('button', { name: /初始化/ }).click();
  await expect(page).toHaveURL(`${base}/piibs/init`);

  await page.getByLabel('密码', { exact: true }).fill('Root#Pass2026');
  await page.getByLabel('确认密码').fill('Root#Pass2026');
  await page.getByRole('button', { name: /初始化/ }).click();
  await expect(page).toHaveURL(/\/piibs\/login/);

  // A second setup is refused by the server.
  const again = await page.request.post(`${base}/api/init`, {
    data: { organisationName: '另一家财产保险公司', username: 'other', password: 'Other#Pass2026' },
  });
  expect(again.status()).toBe(409);

  await fillSignIn(page, 'root', 'Root#Pass2026');
  await expect(page).toHaveURL(`${base}/piibs/dashboard`);
  expect(await page.evaluate((k) => localStorage.getItem(k), TOKEN_KEY)).toBeTruthy();
});
