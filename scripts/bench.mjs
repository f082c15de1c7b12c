// `npm run bench`: figures as ratios against references measured in the same run. No pass/fail here:
// budgets are reported, and the numbers are for people to compare across commits.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { ensureWebBuilt, onPinnedNode, root } from './ensure.mjs';

onPinnedNode();
ensureWebBuilt();

const KB = (n) => `${(n / 1024).toFixed(1)} KB`;
const ORIGINAL_LOGIN_KB = 411.6; // eladmin-web (the Vue original) login page, gzip JS

// ── Web bundle ────────────────────────────────────────────────────────────────
const dist = path.join(root, 'apps/web/dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const gz = new Map();
const gzSize = (file) => {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(dist, file))).length);
  return gz.get(file);
};
/** JS a page loads before it can render: a chunk and everything it imports statically. */
function closure(keys) {
  const seen = new Set();
  const walk = (key) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(chunk.file)) return;
    seen.add(chunk.file);
    for (const dep of chunk.imports ?? []) walk(dep);
  };
  for (const k of keys) walk(k);
  return [...seen].filter((f) => f.endsWith('.js'));
}
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const findKey = (re) => Object.keys(manifest).find((k) => re.test(k));
const sum = (files) => files.reduce((n, f) => n + gzSize(f), 0);
const loginKey = findKey(/features\/auth\/(pages\/)?LoginPage\.tsx$/);
const shellKey = findKey(/layout\/(Layout|index)\.tsx$/);
const dashKey = findKey(/features\/dashboard\/.*\.tsx$/);
const login = sum(closure([entryKey, loginKey].filter(Boolean)));
const shell = sum(closure([entryKey, shellKey, dashKey].filter(Boolean)));
const lazy = Object.entries(manifest)
  .filter(([, c]) => c.isDynamicEntry)
  .map(([k, c]) => ({ k, size: sum(closure([k])) - 0, own: gzSize(c.file) }))
  .sort((a, b) => b.own - a.own)[0];

console.log('Web bundle (gzip JS, first load)');
console.log(
  `  login route  ${KB(login).padStart(10)}  budget 150 KB   ${(login / 1024 / ORIGINAL_LOGIN_KB).toFixed(2)}× the Vue original (411.6 KB)${loginKey ? '' : '  [no login page yet: entry only]'}`,
);
console.log(
  `  shell+home   ${KB(shell).padStart(10)}  budget 350 KB${shellKey ? '' : '  [no shell yet: entry + dashboard]'}`,
);
if (lazy) console.log(`  largest lazy ${KB(lazy.own).padStart(10)}  ${lazy.k}`);

// ── API ───────────────────────────────────────────────────────────────────────
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'piibs-bench-'));
const port = 8300 + Math.floor(Math.random() * 500);
const server = spawn(process.execPath, ['apps/server/src/main.ts'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', PIIBS_DEMO: '1' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise((resolve, reject) => {
  server.stdout.on('data', (d) => String(d).includes('PIIBS is running') && resolve());
  server.on('exit', (code) => reject(new Error(`server exited (${code})`)));
});
const base = `http://127.0.0.1:${port}`;
const measure = (url) =>
  new Promise((resolve, reject) =>
    autocannon({ url: base + url, connections: 20, duration: 5 }, (err, r) =>
      err ? reject(err) : resolve(r),
    ),
  );
await measure('/api/health/live'); // warm-up
const live = await measure('/api/health/live');
const health = await measure('/api/health');
console.log('\nAPI (autocannon, 20 connections, 5 s each, same server)');
console.log(
  `  GET /api/health/live (baseline)  ${Math.round(live.requests.average)} req/s  p99 ${live.latency.p99} ms`,
);
console.log(
  `  GET /api/health                  ${Math.round(health.requests.average)} req/s  p99 ${health.latency.p99} ms  ratio ${(health.requests.average / live.requests.average).toFixed(2)}`,
);

server.kill('SIGINT');
await new Promise((r) => server.on('exit', r));
if (existsSync(dataDir)) rmSync(dataDir, { recursive: true, force: true });
