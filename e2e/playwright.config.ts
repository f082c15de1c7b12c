import path from 'node:path';
import { defineConfig } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.E2E_PORT ?? 8215);
export const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: '.',
  // Each journey makes and finds its own records (unique names, searched by them), so any two may run at once:
  // two browsers beside the server under test is what the 2-core CI machine gains from (E2E_WORKERS to change).
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // One retry, reported: `npm test` counts a test that passed only on its retry as flaky in its summary.
  retries: 1,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json']],
  outputDir: path.join(root, 'test-results/e2e-artifacts'),
  use: {
    baseURL,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    screenshot: 'only-on-failure',
    // Recording a trace slows every test down: only the retry of a failed test records one.
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    // Each demo role signs in once; the specs reuse the saved sessions (auth.setup.ts).
    { name: 'sign-in', testMatch: 'auth.setup.ts' },
    {
      name: 'journeys',
      testMatch: '**/*.spec.ts',
      testIgnore: ['notifications.spec.ts', 'plain-words.spec.ts', 'accessibility.spec.ts'],
      dependencies: ['sign-in'],
    },
    // notifications counts the underwriter's unread messages, which every journey submitting something for
    // review adds to; plain-words reads every menu page with what all the journeys wrote: they run after them.
    {
      name: 'alone',
      testMatch: ['notifications.spec.ts', 'plain-words.spec.ts', 'accessibility.spec.ts'],
      dependencies: ['journeys'],
    },
  ],
  // The production build, started the way `npm start` starts it, on a fresh data directory.
  webServer: {
    command: 'rm -rf test-results/e2e-data && node scripts/start.mjs',
    cwd: root,
    url: `${baseURL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(root, 'test-results/e2e-data'),
      PIIBS_CAPTCHA: 'off',
      // The journeys sign in more often than one person would from one address.
      PIIBS_SIGNIN_RATE: '1000',
      PIIBS_DEMO: '1',
      LOG_LEVEL: 'warn',
    },
  },
});
