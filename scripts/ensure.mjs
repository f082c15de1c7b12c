// Install-if-needed and the pinned runtime. Node built-ins only: this runs before node_modules exists,
// possibly on an older system Node.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
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

/**
 * Whether apps/web/dist was built from the current sources (the web app, the shared package, the lockfile):
 * `current`, and `record()` to call after a successful build.
 */
export function webBuildState() {
  const hash = createHash('sha256');
  for (const p of ['apps/web/src', 'apps/web/public', 'packages/shared/src'])
    if (existsSync(path.join(root, p))) hashTree(hash, path.join(root, p));
  for (const f of ['apps/web/index.html', 'apps/web/vite.config.ts', 'package-lock.json'])
    hash.update(readFileSync(path.join(root, f)));
  const digest = hash.digest('hex');
  const stamp = path.join(root, 'apps/web/dist/.build-hash');
  return {
    current: existsSync(stamp) && readFileSync(stamp, 'utf8') === digest,
    record: () => writeFileSync(stamp, digest),
  };
}

/** The web build's command: [executable, arguments, working directory]. */
export const webBuildCommand = () => [
  bin('vite'),
  ['build', '--logLevel', 'warn'],
  path.join(root, 'apps/web'),
];

/** Builds the web app when its sources (or the shared package, or the lockfile) changed since the last build. */
export function ensureWebBuilt() {
  const state = webBuildState();
  if (state.current) return;
  log('building the web app');
  const [cmd, args, cwd] = webBuildCommand();
  execFileSync(cmd, args, { cwd, stdio: 'inherit' });
  state.record();
}

export const chromiumPath = () => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether the CJK fonts the journeys' screenshots need are installed (fc-list names Noto Sans CJK). */
function hasCjkFonts() {
  const res = spawnSync('fc-list', { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return res.status === 0 && /noto sans cjk/i.test(res.stdout);
}

/** Runs a command to its end with its output going to `write`; answers whether it succeeded. */
function runTo(write, cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => write(String(d)));
    child.stderr.on('data', (d) => write(String(d)));
    child.on('error', (err) => {
      write(`${cmd}: ${err.message}\n`);
      resolve(false);
    });
    child.on('close', (code) => resolve(code === 0));
  });
}

/**
 * Chromium and the CJK fonts for the end-to-end journeys. When either is missing, installs Debian's `chromium`
 * and `fonts-noto-cjk` with apt-get where it can (as root, with apt-get); otherwise says exactly what to run.
 * Its messages go to `write`; answers whether the browser and the fonts are there.
 */
export async function ensureBrowser(write = (text) => process.stdout.write(text)) {
  const browser = chromiumPath();
  const missing = [
    ...(existsSync(browser) ? [] : ['chromium']),
    ...(hasCjkFonts() ? [] : ['fonts-noto-cjk']),
    // pdfsig: the server suite's independent check of the documents' signatures.
    ...(spawnSync('pdfsig', ['-v'], { stdio: 'ignore' }).error ? ['poppler-utils'] : []),
  ];
  if (missing.length === 0) return true;
  const canApt =
    process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (canApt) {
    write(`[piibs] installing ${missing.join(' and ')} (apt-get), for the end-to-end journeys\n`);
    const installed =
      (await runTo(write, 'apt-get', ['update', '-qq'])) &&
      (await runTo(write, 'apt-get', ['install', '-y', '-qq', ...missing], {
        DEBIAN_FRONTEND: 'noninteractive',
      }));
    if (installed && existsSync(browser) && hasCjkFonts()) return true;
    write('[piibs] the installation did not complete: see the messages above\n');
  }
  write(
    `[piibs] The end-to-end journeys need Chromium at ${browser} and the Noto Sans CJK fonts. Install them with:\n` +
      `  sudo apt-get update && sudo apt-get install -y chromium fonts-noto-cjk\n` +
      '(or set CHROMIUM_PATH to a Chromium/Chrome binary)\n',
  );
  return false;
}

/**
 * Debian's nginx for the two-instance test of the reliability battery (the load balancer in front of both
 * instances). When missing, installs `nginx-light` with apt-get where it can (as root); otherwise says what to
 * run. Answers whether nginx is there (the test says why it cannot run without it).
 */
export async function ensureNginx(write = (text) => process.stdout.write(text)) {
  const nginx = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
  if (existsSync(nginx)) return true;
  const canApt =
    process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (canApt) {
    write('[piibs] installing nginx-light (apt-get), the load balancer of the two-instance test\n');
    const installed =
      (await runTo(write, 'apt-get', ['update', '-qq'])) &&
      (await runTo(write, 'apt-get', ['install', '-y', '-qq', 'nginx-light'], {
        DEBIAN_FRONTEND: 'noninteractive',
      }));
    if (installed && existsSync(nginx)) return true;
    write('[piibs] the installation did not complete: see the messages above\n');
  }
  write(
    `[piibs] The two-instance test needs nginx at ${nginx}. Install it with:\n` +
      '  sudo apt-get update && sudo apt-get install -y nginx-light\n(or set NGINX_PATH)\n',
  );
  return false;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureInstalled();
