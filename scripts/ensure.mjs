// Install-if-needed and the pinned runtime. Node built-ins only: this runs before node_modules exists,
// possibly on an older system Node.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const marker = path.join(root, 'node_modules', '.package-lock.json');
const lockfile = path.join(root, 'package-lock.json');
export const pinnedNode = path.join(root, 'node_modules', '.bin', 'node');

/** A tool's executable, from the web workspace (where npm may install it) or the root. */
export function bin(name) {
  const local = path.join(root, 'apps/web/node_modules/.bin', name);
  return existsSync(local) ? local : path.join(root, 'node_modules/.bin', name);
}

const log = (line) => process.stdout.write(`[piibs] ${line}\n`);

/** Runs `npm ci` when node_modules is missing or older than the lockfile. */
export function ensureInstalled() {
  const stale = !existsSync(marker) || statSync(lockfile).mtimeMs > statSync(marker).mtimeMs;
  if (!stale) return;
  log(
    existsSync(marker)
      ? 'dependencies changed: reinstalling (npm ci)'
      : 'installing dependencies (npm ci) — first run only',
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const res = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  if (res.status !== 0) {
    log('npm ci failed: see the messages above (the npm registry must be reachable for the first install).');
    process.exit(res.status ?? 1);
  }
}

/**
 * libuv's thread pool for the server: one thread per core. Sign-in hashes (argon2id, 19 MiB each) run there;
 * with the default four threads on a two-core machine they thrash each other (about 25% fewer sign-ins a
 * second, and a longer tail). Set before the server's first file or crypto call, so the caller passes it on.
 */
export function threadPoolEnv() {
  return {
    UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE || String(Math.max(2, os.availableParallelism())),
  };
}

/** Re-runs the current script on the pinned Node 24 when started by an older system Node. */
export function onPinnedNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 24) return;
  const res = spawnSync(pinnedNode, process.argv.slice(1), { stdio: 'inherit' });
  process.exit(res.status ?? 1);
}

function hashTree(hash, dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) hashTree(hash, full);
    else if (!/\.test\.tsx?$/.test(entry.name))
      hash.update(full.slice(root.length)).update(readFileSync(full));
  }
}

/** Builds the web app when its sources (or the shared package, or the lockfile) changed since the last build. */
export function ensureWebBuilt() {
  const hash = createHash('sha256');
  for (const p of ['apps/web/src', 'apps/web/public', 'packages/shared/src'])
    if (existsSync(path.join(root, p))) hashTree(hash, path.join(root, p));
  for (const f of ['apps/web/index.html', 'apps/web/vite.config.ts', 'package-lock.json'])
    hash.update(readFileSync(path.join(root, f)));
  const digest = hash.digest('hex');
  const stamp = path.join(root, 'apps/web/dist/.build-hash');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  log('building the web app');
  execFileSync(bin('vite'), ['build', '--logLevel', 'warn'], {
    cwd: path.join(root, 'apps/web'),
    stdio: 'inherit',
  });
  writeFileSync(stamp, digest);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureInstalled();
