// `npm run test:reliability`: the long reliability battery of issue 12 (crash, two instances, payments at scale,
// the 50-user soak) against real server processes on free ports — several minutes, so not part of `npm test`.
// Extra arguments go to vitest (e.g. `npm run test:reliability -- crash`). Sizes come from the environment:
// RELIABILITY_CRASH_ITERATIONS, RELIABILITY_SOAK_SECONDS, RELIABILITY_SOAK_USERS, RELIABILITY_ORDERS,
// RELIABILITY_REPLAYS, RELIABILITY_SEED (see docs/reliability.md). Ends with one line `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureInstalled, ensureNginx, onPinnedNode, root } from './ensure.mjs';

ensureInstalled();
onPinnedNode();
// The two-instance test runs them behind Debian's nginx (installed here when missing and possible).
await ensureNginx();

const dir = mkdtempSync(path.join(os.tmpdir(), 'piibs-reliability-'));
const json = path.join(dir, 'results.json');
const started = Date.now();
const res = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--config',
    'vitest.reliability.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${json}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);

let passed = 0;
let failed = 1;
if (existsSync(json)) {
  const r = JSON.parse(readFileSync(json, 'utf8'));
  // A file that failed without a failed test (it did not load, or its setup failed and its tests were skipped)
  // counts as one failure.
  const broken = r.testResults.filter(
    (f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed'),
  ).length;
  passed = r.numPassedTests;
  failed = r.numFailedTests + broken + (res.status === 0 || r.numFailedTests + broken ? 0 : 1);
}
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`\nreliability battery: ${Math.round((Date.now() - started) / 1000)} s\n`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed ? 1 : 0);
