// The embedded PostgreSQL server under the faults it meets in the field, on a cluster of its own (not the suite's):
// - start-up finds a postmaster.pid whose pid is alive but is not our server (the pid reused after a crash, or
//   another PIIBS's PostgreSQL): that process is left alone, and the server starts;
// - the postmaster is killed (-9) while the app runs: it is started again on the same port (PostgreSQL's crash
//   recovery), the pool's next queries reach it, and liveness says `recovering` meanwhile;
// - it cannot be started again: the state is `failed`, onFailure is called (main.ts exits non-zero on it), and
//   liveness answers 503.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testConfig } from '../../test/databases.ts';
import { type App, buildApp } from '../app.ts';
import { connect, type Database } from '../db/client.ts';
import { type EmbeddedOptions, type EmbeddedPostgres, startEmbeddedPostgres } from '../db/embedded.ts';

let dir: string;
let clusterDir: string;
const started: EmbeddedPostgres[] = [];
const opened: { app?: App; database?: Database }[] = [];
let decoy: ChildProcess | undefined;
const lines: string[] = [];
/** When the first start (initdb) called `meanwhile`: whether the cluster was still being made then. */
const firstStartMeanwhile: boolean[] = [];

async function start(extra: Partial<EmbeddedOptions> = {}): Promise<EmbeddedPostgres> {
  const pg = await startEmbeddedPostgres({
    clusterDir,
    password: 'embedded-test-password',
    log: (line) => lines.push(line),
    ...extra,
  });
  started.push(pg);
  return pg;
}

/** An app on the embedded server, as main.ts builds it (its database is empty: only the health routes are asked). */
async function appOn(pg: EmbeddedPostgres): Promise<{ app: App; database: Database }> {
  const database = connect(pg.url, 2);
  const config = testConfig(path.basename(dir), { dataDir: dir });
  const app = await buildApp({ config, database, embedded: true, embeddedServer: pg }, { logger: false });
  opened.push({ app, database });
  return { app, database };
}

const live = async (app: App) => {
  const res = await app.inject({ method: 'GET', url: '/api/health/live' });
  return `${res.statusCode} ${res.json().status}`;
};

async function until(what: string, check: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'piibs-embedded-'));
  chmodSync(dir, 0o755); // as root, the postgres user can reach it, so the cluster stays inside
  clusterDir = path.join(dir, 'pg');
  // The cluster, made once and stopped cleanly.
  const pgVersion = path.join(clusterDir, 'PG_VERSION');
  await (await start({ meanwhile: () => firstStartMeanwhile.push(!existsSync(pgVersion)) })).stop();
}, 120_000);

afterAll(async () => {
  for (const { app, database } of opened) {
    await app?.close().catch(() => {});
    await database?.close().catch(() => {});
  }
  for (const pg of started) await pg.stop().catch(() => {});
  decoy?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('the embedded PostgreSQL server', () => {
  it('meanwhile (main.ts loads the rest of the server in it) is called once, while initdb or postgres starts', async () => {
    expect(firstStartMeanwhile).toEqual([true]); // during initdb: its cluster not made yet
    let ready = false;
    const calls: boolean[] = [];
    const pg = await start({ meanwhile: () => calls.push(ready) });
    ready = true;
    expect(calls).toEqual([false]);
    await pg.stop();
  }, 60_000);

  it('a stale postmaster.pid naming a live process that is not our server: the process is left alone, the server starts', async () => {
    // A process that looks like a postmaster to a glance at its command line (`postgres -D <our cluster>`) but
    // runs elsewhere: what a reused pid or another PIIBS's PostgreSQL looks like.
    decoy = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', '-D', clusterDir], {
      argv0: 'postgres',
      stdio: 'ignore',
    });
    const pid = decoy.pid!;
    const cmdline = () => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        return '';
      }
    };
    await until('the decoy runs', () => cmdline().startsWith('postgres\0'), 5000);
    writeFileSync(
      path.join(clusterDir, 'postmaster.pid'),
      `${pid}\n${clusterDir}\n${Math.floor(Date.now() / 1000)}\n5432\n\n127.0.0.1\n  5432001         0\nready   \n`,
    );
    const pg = await start();
    // Before: it was sent SIGINT, whatever it was.
    await new Promise((r) => setTimeout(r, 300));
    expect(alive(pid)).toBe(true);
    expect(decoy.exitCode).toBeNull();
    expect(pg.state).toBe('running');
    expect(pg.pid).not.toBe(pid);
    expect(lines.some((l) => l.includes(`pid ${pid}, which is not a PostgreSQL server`))).toBe(true);
    await pg.stop();
  }, 60_000);

  it('killed (-9) under a running app: started again on the same port, queries reach it, liveness says recovering meanwhile', async () => {
    const pg = await start();
    const { app, database } = await appOn(pg);
    expect(await live(app)).toBe('200 ok');
    await database.pool.query('SELECT 1');
    const before = pg.pid!;

    process.kill(before, 'SIGKILL');
    const seen = new Set<string>();
    await until(
      'restarted',
      async () => {
        seen.add(await live(app));
        return pg.state === 'running' && pg.pid !== before;
      },
      60_000,
    );
    // Before: liveness answered 200 ok all along while the database stayed dead.
    expect(seen.has('200 recovering')).toBe(true);
    expect([...seen].every((s) => s === '200 ok' || s === '200 recovering')).toBe(true);
    expect(await live(app)).toBe('200 ok');
    // The same pool (the same URL: the same port) reaches the restarted server.
    await until(
      'the pool reconnects',
      () =>
        database.pool.query('SELECT 1').then(
          () => true,
          () => false,
        ),
      10_000,
    );
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(lines.some((l) => l.includes('running again'))).toBe(true);
    await pg.stop();
  }, 90_000);

  it('when it cannot be started again: state failed, onFailure called once, liveness 503', async () => {
    const onFailure = vi.fn();
    const pg = await start({ recoveryMs: 3000, onFailure });
    const { app } = await appOn(pg);
    const control = path.join(clusterDir, 'global', 'pg_control');
    process.kill(pg.pid!, 'SIGKILL');
    // Without its control file no PostgreSQL server starts on the cluster.
    renameSync(control, `${control}.away`);
    try {
      await until('given up', () => pg.state === 'failed', 30_000);
      expect(onFailure).toHaveBeenCalledTimes(1);
      expect(String(onFailure.mock.calls[0]![0])).toMatch(/could not be restarted/);
      const res = await app.inject({ method: 'GET', url: '/api/health/live' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable' });
    } finally {
      renameSync(`${control}.away`, control);
    }
  }, 60_000);
});
