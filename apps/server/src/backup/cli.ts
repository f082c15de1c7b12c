// npm run backup -- --out FILE [--snapshot ID]   one backup file of the installation (running or not)
// npm run restore -- FILE                        into an empty DATA_DIR (embedded) or an empty DATABASE_URL
//
// The installation is DATABASE_URL when set (its files under DATA_DIR), else the embedded database in DATA_DIR
// (default ./data). A running embedded PIIBS holds the DATA_DIR lock: the backup then connects to its PostgreSQL
// (the port PostgreSQL writes in postmaster.pid, the password in secrets.json); a stopped one is started for the
// backup's time, under the lock, and stopped again.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadSecrets } from '../config.ts';
import { lockDataDir, StartupError, startEmbeddedPostgres } from '../db/embedded.ts';
import { BackupError, createBackup, restoreBackup } from './archive.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const say = (line: string) => process.stdout.write(`[piibs] ${line}\n`);

function usage(): never {
  process.stderr.write(
    'usage: npm run backup -- --out FILE [--snapshot ID]\n       npm run restore -- FILE\n',
  );
  process.exit(2);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The URL of the PostgreSQL a running embedded PIIBS serves from DATA_DIR, or null when none runs. */
function runningEmbeddedUrl(dataDir: string): string | null {
  const lock = path.join(dataDir, 'piibs.lock');
  if (!existsSync(lock)) return null;
  const owner = Number(readFileSync(lock, 'utf8').trim());
  if (!owner || !pidAlive(owner)) return null;
  const relocated = path.join(dataDir, 'CLUSTER_LOCATION.txt');
  const clusterDir = existsSync(relocated)
    ? readFileSync(relocated, 'utf8').trim()
    : path.join(dataDir, 'pg');
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile))
    throw new BackupError(
      `PIIBS (pid ${owner}) holds ${dataDir} but its PostgreSQL is not running; try again shortly.`,
    );
  const port = Number(readFileSync(pidFile, 'utf8').split('\n')[3]);
  const password = loadSecrets(dataDir).dbPassword!;
  return `postgres://piibs:${encodeURIComponent(password)}@127.0.0.1:${port}/piibs`;
}

async function backup(args: string[]): Promise<void> {
  let out: string | undefined;
  let snapshot: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out') out = args[++i];
    else if (args[i] === '--snapshot') snapshot = args[++i];
    else usage();
  }
  if (!out) usage();
  const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(repoRoot, 'data'));
  const external = process.env.DATABASE_URL || undefined;
  let url = external ?? runningEmbeddedUrl(dataDir);
  let stop: (() => Promise<void>) | undefined;
  if (!url) {
    if (!existsSync(path.join(dataDir, 'secrets.json')))
      throw new BackupError(`${dataDir} holds no PIIBS installation (no secrets.json): nothing to back up.`);
    const unlock = lockDataDir(dataDir);
    say('PIIBS is not running on this DATA_DIR: starting its database for the backup');
    const server = await startEmbeddedPostgres({
      clusterDir: path.join(dataDir, 'pg'),
      password: loadSecrets(dataDir).dbPassword!,
      log: say,
    }).catch((err: unknown) => {
      unlock();
      throw err;
    });
    url = server.url;
    stop = async () => {
      await server.stop();
      unlock();
    };
  }
  try {
    await createBackup({ databaseUrl: url, dataDir, out, snapshot, log: say });
  } finally {
    await stop?.();
  }
}

async function restore(args: string[]): Promise<void> {
  if (args.length !== 1 || args[0]!.startsWith('-')) usage();
  const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(repoRoot, 'data'));
  const summary = await restoreBackup({
    file: args[0]!,
    dataDir,
    databaseUrl: process.env.DATABASE_URL || undefined,
    log: say,
  });
  say(
    `restored ${summary.tables} tables (${summary.rows} rows) and ${summary.files} files into ${process.env.DATABASE_URL ? 'DATABASE_URL' : dataDir}; start PIIBS on it with npm start`,
  );
}

const [command, ...rest] = process.argv.slice(2);
const run = command === 'backup' ? backup : command === 'restore' ? restore : usage;
run(rest).catch((err: unknown) => {
  const known = err instanceof BackupError || err instanceof StartupError;
  process.stderr.write(
    `[piibs] ${command} failed: ${known ? (err as Error).message : ((err as Error).stack ?? String(err))}\n`,
  );
  process.exit(1);
});
