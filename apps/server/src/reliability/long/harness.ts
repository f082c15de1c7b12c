// The harness of the long reliability battery (`npm run test:reliability`, not part of `npm test`): real server
// processes (apps/server/src/main.ts on this Node) on free loopback ports, each with its own DATA_DIR; an HTTP
// client that never throws and times every call; where the embedded PostgreSQL listens and which processes are
// its own; and the figures the tests print.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const repoRoot = path.resolve(import.meta.dirname, '../../../../..');

/** A whole number from the environment (a quick local run sets a smaller one). */
export function envNumber(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/** A seeded generator (mulberry32), so a failing run can be repeated with the same choices. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export const SEED = envNumber('RELIABILITY_SEED', 20260412);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** A scratch directory for one test file (removed by `cleanup` unless the file failed). */
export function scratch(name: string): { dir: string; cleanup: (failed: boolean) => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `piibs-rel-${name}-`));
  // Reachable by the `postgres` user when run as root, so each cluster stays inside its DATA_DIR.
  chmodSync(dir, 0o755);
  return {
    dir,
    cleanup(failed) {
      if (failed) {
        process.stdout.write(`[reliability] kept ${dir} for inspection\n`);
        return;
      }
      for (const entry of readdirSync(dir)) {
        const moved = path.join(dir, entry, 'CLUSTER_LOCATION.txt');
        if (existsSync(moved)) rmSync(readFileSync(moved, 'utf8').trim(), { recursive: true, force: true });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---- processes ----

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The direct children of a process (from /proc). */
export function childrenOf(pid: number): number[] {
  const kids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) kids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return kids;
}

export async function waitGone(pids: number[], ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (pids.some(alive)) {
    if (Date.now() > end) return false;
    await sleep(50);
  }
  return true;
}

/** Where the cluster of a DATA_DIR lives (DATA_DIR/pg, or elsewhere when CLUSTER_LOCATION.txt says so). */
export function clusterDirOf(dataDir: string): string {
  const moved = path.join(dataDir, 'CLUSTER_LOCATION.txt');
  return existsSync(moved) ? readFileSync(moved, 'utf8').trim() : path.join(dataDir, 'pg');
}

/** The embedded postmaster of a DATA_DIR, from postmaster.pid (pid and port), or null when none runs. */
export function postmasterOf(dataDir: string): { pid: number; port: number } | null {
  const file = path.join(clusterDirOf(dataDir), 'postmaster.pid');
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  return pid && alive(pid) ? { pid, port: Number(lines[3]) } : null;
}

/** The connection string of a running server's embedded database (password from DATA_DIR/secrets.json). */
export function embeddedUrl(dataDir: string): string {
  const pm = postmasterOf(dataDir);
  if (!pm) throw new Error(`no embedded PostgreSQL runs for ${dataDir}`);
  const { dbPassword } = JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as {
    dbPassword: string;
  };
  return `postgres://piibs:${encodeURIComponent(dbPassword)}@127.0.0.1:${pm.port}/piibs`;
}

export interface ServerOptions {
  name: string;
  dataDir: string;
  /** Where the process's output goes (one file per start, appended). */
  logFile: string;
  env?: Record<string, string>;
  /** Health within this many ms (default 120 s). */
  timeoutMs?: number;
}

/** The environment every server of the battery runs with. */
export const BASE_ENV = {
  HOST: '127.0.0.1',
  // Not from the caller's shell: each test says which database, secrets and keys its servers share.
  DATABASE_URL: '',
  JWT_SECRET: '',
  PIIBS_SANDBOX_PAY_KEY: '',
  PIIBS_DEMO: '1',
  PIIBS_CAPTCHA: 'off',
  PIIBS_SIGNIN_RATE: '100000',
  // The two-instance test posts 1,000 notifications from one address (its proxy) within a minute.
  PIIBS_NOTIFY_RATE: '100000',
  LOG_LEVEL: 'warn',
};

/** One server process (apps/server/src/main.ts). */
export class Server {
  readonly name: string;
  readonly port: number;
  readonly proc: ChildProcess;
  readonly dataDir: string;
  readonly logFile: string;
  readonly exited: Promise<number | null>;
  /** ms from spawn to a healthy /api/health. */
  startMs = 0;

  private constructor(o: ServerOptions, port: number, proc: ChildProcess) {
    this.name = o.name;
    this.port = port;
    this.proc = proc;
    this.dataDir = o.dataDir;
    this.logFile = o.logFile;
    this.exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.proc.pid!;
  }

  /** Spawns the server and waits until /api/health answers 200; throws with the log's tail otherwise. */
  static async start(o: ServerOptions): Promise<Server> {
    const port = await freePort();
    const started = Date.now();
    const server = new Server(o, port, spawnServer(o, port));
    let gone = false;
    void server.exited.then(() => (gone = true));
    const deadline = started + (o.timeoutMs ?? 120_000);
    for (;;) {
      if (gone) throw new Error(`${o.name} exited during start:\n${server.tail()}`);
      const res = await fetch(`${server.base}/api/health`, { signal: AbortSignal.timeout(5_000) }).catch(
        () => null,
      );
      if (res?.status === 200) break;
      if (Date.now() > deadline) {
        server.proc.kill('SIGKILL');
        throw new Error(`${o.name} not healthy within ${o.timeoutMs ?? 120_000} ms:\n${server.tail()}`);
      }
      await sleep(100);
    }
    server.startMs = Date.now() - started;
    return server;
  }

  /** The last lines of the log. */
  tail(lines = 30): string {
    if (!existsSync(this.logFile)) return '(no log)';
    return readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n');
  }

  kill9(): void {
    this.proc.kill('SIGKILL');
  }

  /** SIGTERM (the server stops its PostgreSQL), SIGKILL after 30 s. */
  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 30_000);
    await this.exited;
    clearTimeout(timer);
  }
}

function spawnServer(o: ServerOptions, port: number): ChildProcess {
  const out = createWriteStream(o.logFile, { flags: 'a' });
  out.write(`\n---- ${o.name} start ${new Date().toISOString()} port ${port}\n`);
  const proc = spawn(process.execPath, ['apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...BASE_ENV, PORT: String(port), DATA_DIR: o.dataDir, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout?.pipe(out, { end: false });
  proc.stderr?.pipe(out, { end: false });
  return proc;
}

/** Runs a server process expected to refuse to start; answers its exit code and what it printed. */
export async function startRefused(
  o: Omit<ServerOptions, 'logFile'>,
): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  const proc = spawn(process.execPath, ['apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...BASE_ENV, PORT: String(await freePort()), DATA_DIR: o.dataDir, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout.on('data', (d) => (output += d));
  proc.stderr.on('data', (d) => (output += d));
  const timer = setTimeout(() => proc.kill('SIGKILL'), o.timeoutMs ?? 60_000);
  const code = await new Promise<number | null>((resolve) => proc.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output, ms: Date.now() - started };
}

/**
 * Stops whatever a test left running on a DATA_DIR: the server (SIGTERM, then SIGKILL) and a postmaster left
 * behind by a killed server (SIGINT: PostgreSQL's fast shutdown).
 */
export async function stopAll(servers: (Server | undefined)[], dataDirs: string[]): Promise<void> {
  await Promise.all(servers.map((s) => s?.stop()));
  for (const dir of dataDirs) {
    const pm = postmasterOf(dir);
    if (!pm) continue;
    process.kill(pm.pid, 'SIGINT');
    if (!(await waitGone([pm.pid], 30_000))) process.kill(pm.pid, 'SIGKILL');
  }
}

// ---- HTTP ----

export interface Reply {
  /** 0: no answer (connection refused or reset, timeout). */
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field by the tests
  body: any;
  headers: Headers | null;
  ms: number;
  error?: string;
}

export interface CallOptions {
  token?: string | undefined;
  /** The Idempotency-Key header. */
  key?: string | undefined;
  /** The caller's address, as X-Forwarded-For (for a server started with TRUST_PROXY=1). */
  ip?: string | undefined;
  /** Send the body form-encoded (sign-in, the sandbox cashier). */
  form?: boolean;
  /** Do not follow redirects (the cashier answers 303). */
  manual?: boolean;
  timeoutMs?: number;
}

/** One HTTP call; never throws (a failed connection is status 0 with the error). */
export async function call(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  o: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.key) headers['idempotency-key'] = o.key;
  if (o.ip) headers['x-forwarded-for'] = o.ip;
  let payload: string | undefined;
  if (body !== undefined) {
    if (typeof body === 'string') {
      payload = body;
      headers['content-type'] = 'application/json';
    } else if (o.form) {
      payload = new URLSearchParams(body as Record<string, string>).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
  }
  const started = performance.now();
  try {
    const res = await fetch(base + url, {
      method,
      headers,
      body: payload,
      redirect: o.manual ? 'manual' : 'follow',
      signal: AbortSignal.timeout(o.timeoutMs ?? 60_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        // keep the text
      }
    }
    return { status: res.status, body: parsed, headers: res.headers, ms: performance.now() - started };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return {
      status: 0,
      body: null,
      headers: null,
      ms: performance.now() - started,
      error: cause ?? (err as Error).message,
    };
  }
}

/** A small PDF (the server types files by their first bytes). */
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n');

/**
 * Puts documents on file for a customer (a small PDF per type): they count for each of its applications, so the
 * battery's applications carry what the product requires (营业执照, 被保险人清单) without an upload each.
 */
export async function customerDocuments(
  base: string,
  token: string,
  customerId: number,
  docTypes: readonly string[] = ['BUSINESS_LICENSE', 'INSURED_LIST'],
  ip?: string,
): Promise<void> {
  for (const docType of docTypes) {
    const form = new FormData();
    form.append('businessType', 'customer');
    form.append('businessId', String(customerId));
    form.append('docType', docType);
    form.append('file', new Blob([PDF], { type: 'application/pdf' }), `${docType}.pdf`);
    const res = await fetch(`${base}/api/materials`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(ip ? { 'x-forwarded-for': ip } : {}) },
      body: form,
    });
    if (res.status !== 200)
      throw new Error(`document ${docType} of customer ${customerId}: ${res.status} ${await res.text()}`);
  }
}

/** Signs in (the captcha is off in the battery); answers the token or throws with the answer. */
export async function signIn(base: string, username: string, password: string, ip?: string): Promise<string> {
  const res = await call(base, 'POST', '/api/auth/login', { username, password }, { form: true, ip });
  if (res.status !== 200)
    throw new Error(`sign-in of ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

/** Throws unless the call answered `status` (default 200); answers the body. */
// biome-ignore lint/suspicious/noExplicitAny: see Reply.body
export function ok(res: Reply, what: string, status = 200): any {
  if (res.status !== status)
    throw new Error(`${what}: ${res.status} ${res.error ?? JSON.stringify(res.body).slice(0, 500)}`);
  return res.body;
}

export const DEMO_PASSWORD = 'Demo@2026';

// ---- figures ----

/** Latencies and statuses of many calls, by label. */
export class Tally {
  readonly ms: number[] = [];
  readonly statuses = new Map<number, number>();
  readonly byLabel = new Map<string, number>();

  add(label: string, res: Reply): Reply {
    this.ms.push(res.ms);
    this.statuses.set(res.status, (this.statuses.get(res.status) ?? 0) + 1);
    this.byLabel.set(label, (this.byLabel.get(label) ?? 0) + 1);
    return res;
  }

  get count(): number {
    return this.ms.length;
  }

  count5xx(): number {
    return [...this.statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  }

  /** Calls that got no answer at all. */
  dropped(): number {
    return this.statuses.get(0) ?? 0;
  }

  percentile(p: number): number {
    if (this.ms.length === 0) return 0;
    const sorted = [...this.ms].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  }

  /** `N requests, p50 X ms, p99 Y ms, statuses {200: …}` */
  summary(): string {
    const statuses = [...this.statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    return `${this.count} requests, p50 ${this.percentile(50).toFixed(0)} ms, p99 ${this.percentile(99).toFixed(0)} ms (${statuses})`;
  }
}

/** Runs `fn` over `items` with at most `limit` at a time; answers the results in order. */
export async function pool<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

/** A pg client for the checks; closed by the caller. */
export async function sqlClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'piibs-reliability' });
  await client.connect();
  return client;
}

/** The first column of the first row of a query, as a number. */
export async function scalar(db: pg.Client, text: string, values: unknown[] = []): Promise<number> {
  const res = await db.query(text, values);
  const row = res.rows[0] as Record<string, unknown> | undefined;
  return Number(row ? Object.values(row)[0] : 0);
}

export const say = (line: string) => process.stdout.write(`${line}\n`);

// ---- nginx ----

/** Debian's nginx (`apt-get install nginx-light`; scripts/test-reliability.mjs installs it when missing). */
export const NGINX = process.env.NGINX_PATH || '/usr/sbin/nginx';

export interface Nginx {
  base: string;
  port: number;
  /** Requests each upstream port answered, from nginx's access log (a request is logged when it ends). */
  served(): Map<number, number>;
  /** The access log's lines: `<upstream port> <status> <request line>`. */
  log(): string[];
  close(): Promise<void>;
}

/**
 * nginx as a load balancer in front of the instances, as docs/scaling.md sets it up: round-robin over
 * `upstreams`, no sticky sessions, `X-Forwarded-For` appended, WebSocket upgrades passed, uploads up to 12 MB.
 * Runs in the foreground as a child process with its config, logs and temporary files in `dir`.
 */
export async function startNginx(upstreams: number[], dir: string): Promise<Nginx> {
  if (!existsSync(NGINX)) {
    throw new Error(
      `nginx not found at ${NGINX}: npm run test:reliability installs it as root, or run ` +
        '`sudo apt-get install -y nginx-light` (or set NGINX_PATH)',
    );
  }
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  const accessLog = path.join(dir, 'access.log');
  const errorLog = path.join(dir, 'error.log');
  writeFileSync(
    conf,
    `# Written by apps/server/src/reliability/long/harness.ts (startNginx)
${process.getuid?.() === 0 ? 'user root;\n' : ''}daemon off;
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${errorLog} warn;
# Each proxied request holds two connections (client and upstream): room for the battery's 500 at once.
worker_rlimit_nofile 16384;
events { worker_connections 4096; }
http {
  log_format upstream '$upstream_addr $status "$request"';
  access_log ${accessLog} upstream;
  client_body_temp_path ${path.join(dir, 'body')};
  proxy_temp_path ${path.join(dir, 'proxy')};
  fastcgi_temp_path ${path.join(dir, 'fastcgi')};
  uwsgi_temp_path ${path.join(dir, 'uwsgi')};
  scgi_temp_path ${path.join(dir, 'scgi')};
  map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
  upstream piibs {
${upstreams.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 12m;
    location / {
      proxy_pass http://piibs;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_read_timeout 1h;
    }
  }
}
`,
  );
  const out = createWriteStream(path.join(dir, 'nginx.out'), { flags: 'a' });
  const proc = spawn(NGINX, ['-p', dir, '-c', conf, '-e', errorLog], { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout?.pipe(out);
  proc.stderr?.pipe(out);
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) {
      throw new Error(`nginx exited at start: ${existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''}`);
    }
    const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
    if (res?.status === 200) break;
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error('nginx did not answer within 15 s');
    }
    await sleep(100);
  }
  const log = () =>
    existsSync(accessLog)
      ? readFileSync(accessLog, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => l.replace(/^127\.0\.0\.1:(\d+)/, '$1'))
      : [];
  return {
    base,
    port,
    log,
    served() {
      const counts = new Map<number, number>(upstreams.map((p) => [p, 0]));
      for (const line of log()) {
        const p = Number(line.split(' ')[0]);
        if (counts.has(p)) counts.set(p, counts.get(p)! + 1);
      }
      return counts;
    },
    async close() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      // SIGTERM: fast shutdown (a graceful one would wait for the open WebSockets); SIGKILL after 10 s.
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
