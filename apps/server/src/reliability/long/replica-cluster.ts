// A primary and a streaming hot standby made from Debian's PostgreSQL binaries (/usr/lib/postgresql/N/bin:
// initdb, postgres, pg_basebackup) in a scratch directory, on free loopback ports: what the replica test of the
// battery reads from. As root the servers run as the `postgres` user (PostgreSQL refuses root).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, createWriteStream, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freePort, sleep } from './harness.ts';

/** The newest Debian PostgreSQL bin directory with what a replica needs, or null (the reason for a skip). */
export function debianPostgres(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of majors) {
    const bin = path.join(root, v, 'bin');
    if (['initdb', 'postgres', 'pg_basebackup'].every((b) => existsSync(path.join(bin, b)))) return bin;
  }
  return null;
}

function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) =>
    Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

function run(cmd: string, args: string[], user: { uid: number; gid: number } | undefined): void {
  const r = spawnSync(cmd, args, { ...user, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} failed (${r.status}): ${r.stdout}${r.stderr}`);
}

async function ready(url: string, child: ChildProcess, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL exited during start (${child.exitCode})`);
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      await c.end();
      return;
    } catch (err) {
      await c.end().catch(() => {});
      if (Date.now() > deadline) throw err;
      await sleep(100);
    }
  }
}

export interface ReplicatedPair {
  primaryUrl: (db?: string) => string;
  replicaUrl: (db?: string) => string;
  /** Stops the standby (fast shutdown), as a lost replica. */
  stopReplica(): Promise<void>;
  stop(): Promise<void>;
}

/** initdb a primary, pg_basebackup it into a standby (-R: streaming from the primary), start both. */
export async function startReplicatedPair(dir: string, bin: string): Promise<ReplicatedPair> {
  const user = runAs();
  const base = path.join(dir, 'replication');
  mkdirSync(base, { recursive: true, mode: 0o755 });
  if (user) chownSync(base, user.uid, user.gid);
  const primaryDir = path.join(base, 'primary');
  const standbyDir = path.join(base, 'standby');
  const log = createWriteStream(path.join(dir, 'replication.log'), { flags: 'a' });
  run(
    path.join(bin, 'initdb'),
    ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C'],
    user,
  );
  const [pPort, sPort] = [await freePort(), await freePort()];
  const common = [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${base}`,
    '-c',
    'fsync=off',
  ];
  const start = (dataDir: string, port: number, extra: string[]) => {
    const child = spawn(
      path.join(bin, 'postgres'),
      ['-D', dataDir, '-p', String(port), ...common, ...extra],
      {
        ...user,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LC_ALL: 'C' },
      },
    );
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    return child;
  };
  const url =
    (port: number) =>
    (db = 'postgres') =>
      `postgres://postgres@127.0.0.1:${port}/${db}`;
  const primary = start(primaryDir, pPort, [
    '-c',
    'wal_level=replica',
    '-c',
    'max_wal_senders=5',
    '-c',
    'wal_keep_size=256MB',
    '-c',
    'max_connections=150',
    '-c',
    'timezone=Asia/Shanghai',
  ]);
  let standby: ChildProcess | undefined;
  const stopChild = async (child: ChildProcess | undefined) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.on('exit', r));
    child.kill('SIGINT');
    await gone;
  };
  try {
    await ready(url(pPort)(), primary);
    run(
      path.join(bin, 'pg_basebackup'),
      [
        '-h',
        '127.0.0.1',
        '-p',
        String(pPort),
        '-U',
        'postgres',
        '-D',
        standbyDir,
        '-R',
        '-X',
        'stream',
        '-c',
        'fast',
      ],
      user,
    );
    standby = start(standbyDir, sPort, ['-c', 'hot_standby=on', '-c', 'max_connections=150']);
    await ready(url(sPort)(), standby);
  } catch (err) {
    await stopChild(standby);
    await stopChild(primary);
    throw err;
  }
  return {
    primaryUrl: url(pPort),
    replicaUrl: url(sPort),
    stopReplica: () => stopChild(standby),
    async stop() {
      await stopChild(standby);
      await stopChild(primary);
      log.end();
    },
  };
}
