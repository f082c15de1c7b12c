// `npm test`: every check, one closing line `N passed, N failed[, N skipped]`, non-zero exit on any failure.
// `npm run test:long` (--long) runs the generated-input sweeps in full (PIIBS_TEST_DEPTH=long) instead of their
// fast slice.
//
// Side by side where two cores allow: the unit and integration tests (vitest) in one lane; lint, the type check
// and the web build one after another in the other; meanwhile Chromium and the CJK fonts are installed when
// missing. Then the end-to-end journeys against the production build. The summary gives each stage's wall time.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import {
  bin,
  ensureBrowser,
  ensureInstalled,
  onPinnedNode,
  pinnedNode,
  root,
  webBuildCommand,
  webBuildState,
} from './ensure.mjs';

ensureInstalled();
onPinnedNode();

const long = process.argv.includes('--long');
const outDir = path.join(root, 'test-results');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

/** The tools run on the pinned Node too (their `#!/usr/bin/env node` finds it first on the PATH). */
const baseEnv = {
  ...process.env,
  PATH: `${path.dirname(pinnedNode)}${path.delimiter}${process.env.PATH ?? ''}`,
  ...(long ? { PIIBS_TEST_DEPTH: 'long' } : {}),
};
const runStarted = Date.now();
const results = [];
/** Why tests failed (each failed test, each failed e2e attempt), repeated after the summary. */
const failureDigest = [];

const seconds = (since) => Math.round((Date.now() - since) / 1000);
const record = (suite, since, passed, failed, skipped = 0, note = '') =>
  results.push({ suite, passed, failed, skipped, note, seconds: seconds(since) });

/**
 * A stage's output. The live one (the vitest lane) streams line by line; the others are kept and printed whole
 * when they end, between two lines of the live one, so parallel stages never interleave mid-line.
 */
function output(title, live) {
  let buffered = '';
  let partial = '';
  const header = `\n── ${title} ──\n`;
  if (live) process.stdout.write(header);
  return {
    write(text) {
      if (!live) {
        buffered += text;
        return;
      }
      const lines = (partial + text).split('\n');
      partial = lines.pop();
      if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
    },
    end(footer) {
      if (live) process.stdout.write(`${partial}${partial ? '\n' : ''}${footer}\n`);
      else
        process.stdout.write(
          `${header}${buffered}${buffered.endsWith('\n') || !buffered ? '' : '\n'}${footer}\n`,
        );
    },
  };
}

/** Runs a command, its output to `out`; answers whether it exited 0. */
function run(out, cmd, args, { env = {}, cwd = root } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...baseEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => out.write(String(d)));
    child.stderr.on('data', (d) => out.write(String(d)));
    child.on('error', (err) => {
      out.write(`${cmd}: ${err.message}\n`);
      resolve(false);
    });
    child.on('close', (code) => resolve(code === 0));
  });
}

/** A check that passes or fails as a whole (counted as one test). */
async function check(suite, cmd, args, opts) {
  const since = Date.now();
  const out = output(suite, false);
  const ok = await run(out, cmd, args, opts);
  out.end(`(${suite}: ${ok ? 'ok' : 'FAILED'} in ${seconds(since)} s)`);
  record(suite, since, ok ? 1 : 0, ok ? 0 : 1);
  return ok;
}

async function webBuild() {
  const suite = 'web build (vite)';
  const state = webBuildState();
  if (state.current) {
    record(suite, Date.now(), 1, 0, 0, 'dist/ already built from these sources');
    return true;
  }
  const [cmd, args, cwd] = webBuildCommand();
  const ok = await check(suite, cmd, args, { cwd });
  if (ok) state.record();
  return ok;
}

/** Lint (Biome, knip), the type check of every workspace (one `tsc -b`: packages/shared is checked once), the web build. */
async function staticLane() {
  await check('lint (biome)', bin('biome'), ['check', '.']);
  await check('lint (knip: unused files, exports, dependencies)', bin('knip'), ['--no-progress']);
  await check('typecheck (tsc -b)', bin('tsc'), ['-b']);
  return webBuild();
}

/**
 * The unit and integration tests, one vitest run: shared, web (jsdom) and the server suite — against the external
 * PostgreSQL of TEST_DATABASE_URL when given (CI), plus the embedded server's smoke test; on the embedded server
 * otherwise.
 */
async function vitestLane() {
  const external = process.env.TEST_DATABASE_URL;
  const suite = external
    ? 'unit + integration (server on TEST_DATABASE_URL; embedded smoke)'
    : 'unit + integration (embedded PostgreSQL)';
  const since = Date.now();
  const json = path.join(outDir, 'vitest.json');
  const out = output(suite, true);
  const ok = await run(
    out,
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${json}`],
    { env: external ? { PIIBS_TEST_DATABASE_URL: external } : {} },
  );
  out.end(`(${suite}: ${seconds(since)} s)`);
  if (!existsSync(json)) return record(suite, since, 0, 1, 0, 'runner crashed');
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
  record(suite, since, r.numPassedTests, failed, r.numPendingTests + r.numTodoTests, byPart(r));
}

/** Passed tests per part of the tree, for the summary. */
function byPart(report) {
  const parts = [
    ['shared', 'packages/shared/'],
    ['server', 'apps/server/src/'],
    ['embedded smoke', 'apps/server/test/'],
    ['web', 'apps/web/'],
  ];
  const counts = parts.map(([name, prefix]) => {
    const n = report.testResults
      .filter((f) => path.relative(root, f.name).startsWith(prefix))
      .reduce((sum, f) => sum + f.assertionResults.filter((t) => t.status === 'passed').length, 0);
    return n ? `${name} ${n}` : '';
  });
  return counts.filter(Boolean).join(', ');
}

/** End-to-end in Chromium against the production build, started the way `npm start` starts it. */
async function e2e(browserReady, built) {
  const suite = 'e2e (Chromium)';
  const since = Date.now();
  if (!(await browserReady)) return record(suite, since, 0, 1, 0, 'no browser: see the message above');
  if (!built) return record(suite, since, 0, 1, 0, 'the web build failed');
  const json = path.join(outDir, 'e2e.json');
  const out = output(suite, true);
  const ok = await run(out, bin('playwright'), ['test', '--config', 'e2e/playwright.config.ts'], {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: json },
  });
  out.end(`(${suite}: ${seconds(since)} s)`);
  if (!existsSync(json)) return record(suite, since, 0, 1, 0, 'runner crashed');
  const report = JSON.parse(readFileSync(json, 'utf8'));
  const { stats } = report;
  failureDigest.push(...e2eFailures(report));
  record(
    suite,
    since,
    stats.expected + stats.flaky,
    stats.unexpected + (ok || stats.unexpected ? 0 : 1),
    stats.skipped,
    stats.flaky ? `${stats.flaky} passed only on retry: see the list above` : '',
  );
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

// The browser check may install packages: what it says comes out whole when it is done (nothing when all is there).
const browserOut = output('Chromium and CJK fonts', false);
let browserSaid = false;
const browserReady = ensureBrowser((text) => {
  browserSaid = true;
  browserOut.write(text);
}).then((ready) => {
  if (browserSaid) browserOut.end(ready ? '(ready)' : '(missing)');
  return ready;
});
const [, built] = await Promise.all([vitestLane(), staticLane()]);
await e2e(browserReady, built);

const sum = (k) => results.reduce((n, r) => n + r[k], 0);
// In the order of the pipeline, whichever lane finished first.
const ORDER = ['lint', 'typecheck', 'web build', 'unit', 'e2e'];
const rank = (r) => ORDER.findIndex((prefix) => r.suite.startsWith(prefix));
process.stdout.write('\n── summary ──\n');
for (const r of results.sort((a, b) => rank(a) - rank(b))) {
  process.stdout.write(
    `${r.failed ? 'FAIL' : 'ok  '}  ${r.suite}: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}${r.note ? ` (${r.note})` : ''} [${r.seconds}s]\n`,
  );
}
const total = seconds(runStarted);
process.stdout.write(
  `wall time: ${Math.floor(total / 60)} min ${total % 60} s${long ? ' (test:long)' : ''}\n`,
);
if (failureDigest.length) process.stdout.write(`\nwhat failed:\n${failureDigest.join('\n')}\n`);
const skipped = sum('skipped');
process.stdout.write(
  `\n${sum('passed')} passed, ${sum('failed')} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
);
process.exit(sum('failed') ? 1 : 0);
