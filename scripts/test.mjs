// `npm test`: every check, one closing line `N passed, N failed[, N skipped]`, non-zero exit on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { bin, ensureInstalled, ensureWebBuilt, onPinnedNode, root } from './ensure.mjs';

ensureInstalled();
onPinnedNode();

const outDir = path.join(root, 'test-results');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const results = [];
/** Why tests failed (each failed test, each failed e2e attempt), repeated after the summary. */
const failureDigest = [];
let started = Date.now();
const record = (suite, passed, failed, skipped = 0, note = '') => {
  results.push({ suite, passed, failed, skipped, note, seconds: Math.round((Date.now() - started) / 1000) });
  started = Date.now();
};

function run(title, cmd, args, env = {}) {
  process.stdout.write(`\n── ${title} ──\n`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status === 0;
}

function check(suite, cmd, args, env) {
  const ok = run(suite, cmd, args, env);
  record(suite, ok ? 1 : 0, ok ? 0 : 1);
}

function vitest(suite, args, env = {}) {
  const json = path.join(outDir, `${suite.replace(/\W+/g, '-')}.json`);
  const ok = run(
    suite,
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${json}`, ...args],
    env,
  );
  if (!existsSync(json)) return record(suite, 0, 1, 0, 'runner crashed');
  const r = JSON.parse(readFileSync(json, 'utf8'));
  // A file that fails to load counts as a failure even though it has no tests.
  const broken = r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  const failed = r.numFailedTests + broken + (ok || r.numFailedTests + broken ? 0 : 1);
  for (const file of r.testResults) {
    const where = path.relative(root, file.name);
    if (file.status === 'failed' && file.assertionResults.length === 0)
      failureDigest.push(digest(where, file.message || 'failed to load'));
    for (const t of file.assertionResults)
      if (t.status === 'failed')
        failureDigest.push(digest(`${where} › ${t.fullName}`, t.failureMessages.join('\n')));
  }
  record(suite, r.numPassedTests, failed, r.numPendingTests + r.numTodoTests);
}

// 1. Lint and format, then the type check of every workspace.
check('lint (biome)', bin('biome'), ['check', '.']);
for (const project of ['packages/shared', 'apps/server', 'apps/web', 'e2e'])
  check(`typecheck ${project}`, bin('tsc'), ['-p', project]);

// 2. Unit and integration tests: shared, web (jsdom), server against the embedded PostgreSQL.
vitest('unit + integration (embedded PostgreSQL)', []);
// 3. Against an external PostgreSQL server too, when one is given: the parts where the server version can
// matter — migrations and start-up, the demo seed, idempotency, row locks and concurrent money movements,
// jobs and LISTEN/NOTIFY. (The whole server suite runs on the embedded server above; running all of it twice
// would cost CI about five minutes for route logic that does not depend on the server.)
const externalSuite = [
  'apps/server/src/app.test.ts',
  'apps/server/src/demo',
  'apps/server/src/lib',
  'apps/server/src/jobs',
  ...['applications', 'payments', 'policies', 'project-orders', 'risk-control', 'notifications'].map(
    (m) => `apps/server/src/modules/${m}`,
  ),
];
if (process.env.TEST_DATABASE_URL) {
  vitest('integration (TEST_DATABASE_URL)', ['--project', 'server', ...externalSuite], {
    PIIBS_TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
  });
}

// 4. End-to-end in Chromium against the production build, started the way `npm start` starts it.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  process.stdout.write(
    `\n── e2e ──\nNo Chromium at ${chromium}. Install it with:\n  sudo apt-get install -y chromium fonts-noto-cjk\n(or set CHROMIUM_PATH to a Chromium/Chrome binary)\n`,
  );
  record('e2e (Chromium)', 0, 1, 0, 'no browser');
} else {
  ensureWebBuilt();
  const json = path.join(outDir, 'e2e.json');
  const ok = run('e2e (Chromium)', bin('playwright'), ['test', '--config', 'e2e/playwright.config.ts'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: json,
  });
  if (!existsSync(json)) record('e2e (Chromium)', 0, 1, 0, 'runner crashed');
  else {
    const report = JSON.parse(readFileSync(json, 'utf8'));
    const { stats } = report;
    failureDigest.push(...e2eFailures(report));
    record(
      'e2e (Chromium)',
      stats.expected + stats.flaky,
      stats.unexpected + (ok || stats.unexpected ? 0 : 1),
      stats.skipped,
      stats.flaky ? `${stats.flaky} passed only on retry: see the list above` : '',
    );
  }
}

/** A failure in a few lines: where, then the message's first non-empty lines without terminal colours. */
function digest(where, message) {
  const lines = stripVTControlCharacters(message)
    .split('\n')
    .filter((l) => l.trim())
    .slice(0, 8);
  return `${where}\n    ${lines.join('\n    ')}`;
}

/**
 * Each failed e2e attempt, as `file:line title (try N): the error's first lines`: printed again after the
 * summary, so the end of a long CI log still says why a journey failed, and on which try.
 */
function e2eFailures(report) {
  const out = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        for (const r of t.results ?? []) {
          if (r.status === 'passed' || r.status === 'skipped') continue;
          const message = (r.errors ?? []).map((e) => e.message ?? '').join('\n') || r.status;
          out.push(digest(`${spec.file}:${spec.line} ${spec.title} (try ${r.retry + 1})`, message));
        }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return out;
}

const sum = (k) => results.reduce((n, r) => n + r[k], 0);
process.stdout.write('\n── summary ──\n');
for (const r of results) {
  process.stdout.write(
    `${r.failed ? 'FAIL' : 'ok  '}  ${r.suite}: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}${r.note ? ` (${r.note})` : ''} [${r.seconds}s]\n`,
  );
}
if (failureDigest.length) process.stdout.write(`\nwhat failed:\n${failureDigest.join('\n')}\n`);
const skipped = sum('skipped');
process.stdout.write(
  `\n${sum('passed')} passed, ${sum('failed')} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
);
process.exit(sum('failed') ? 1 : 0);
