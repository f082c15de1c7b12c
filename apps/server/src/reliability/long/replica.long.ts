// A read replica (issue 25): PIIBS on a primary with DATABASE_REPLICA_URL naming a real streaming hot standby of
// it (Debian's PostgreSQL: initdb, pg_basebackup -R, the standby started by this test, replica-cluster.ts).
// - While the standby keeps up, the dashboard's figures are read there (its own table-scan counters grow; the
//   health answer says replica ok).
// - Replay paused on the standby while the primary writes: past the 10 s staleness limit the replica is left
//   alone (health: behind) and the dashboard's figures come from the primary, the newest data in them; replay
//   resumed, it is used again.
// - The standby stopped: the dashboard answers as before, from the primary, and health says replica down while
//   the service itself stays ready (200).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  DEMO_PASSWORD,
  ok,
  Server,
  say,
  scalar,
  scratch,
  signIn,
  sleep,
  sqlClient,
} from './harness.ts';
import { debianPostgres, type ReplicatedPair, startReplicatedPair } from './replica-cluster.ts';

const bin = debianPostgres();
const space = scratch('replica');
let pair: ReplicatedPair | undefined;
let server: Server | undefined;
let token = '';
let replica: pg.Client | undefined;
let primary: pg.Client | undefined;
let failed = false;
let day = 1;

/** Table scans the standby has served on the application's tables (reads of the probe touch none). */
async function replicaScans(): Promise<number> {
  await replica!.query('SELECT pg_stat_clear_snapshot()');
  return scalar(
    replica!,
    'SELECT coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0) FROM pg_stat_user_tables',
  );
}

async function until(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(250);
  }
}

const replicaState = async () => (await call(server!.base, 'GET', '/api/health')).body?.replica as string;

/** The dashboard for a range not asked before (its answers are cached 30 s per range). */
async function dashboard() {
  const d = String(day++).padStart(2, '0');
  return call(server!.base, 'GET', `/api/dashboard?from=2026-01-${d}&to=2026-03-${d}`, undefined, { token });
}

describe.skipIf(!bin)(
  `a streaming read replica (${bin ?? 'no Debian PostgreSQL with pg_basebackup: skipped'})`,
  () => {
    beforeAll(async () => {
      pair = await startReplicatedPair(space.dir, bin!);
      primary = await sqlClient(pair.primaryUrl());
      await primary.query('CREATE DATABASE piibs');
      await primary.end();
      primary = await sqlClient(pair.primaryUrl('piibs'));
      server = await Server.start({
        name: 'replica',
        dataDir: path.join(space.dir, 'data'),
        logFile: path.join(space.dir, 'server.log'),
        env: {
          DATABASE_URL: pair.primaryUrl('piibs'),
          DATABASE_REPLICA_URL: pair.replicaUrl('piibs'),
          JWT_SECRET: randomBytes(32).toString('base64url'),
          PIIBS_SANDBOX_PAY_KEY: randomBytes(32).toString('base64url'),
        },
      });
      token = await signIn(server.base, 'admin', DEMO_PASSWORD);
      replica = await sqlClient(pair.replicaUrl('piibs'));
    });

    afterAll(async () => {
      await server?.stop();
      await replica?.end().catch(() => {});
      await primary?.end().catch(() => {});
      await pair?.stop();
      space.cleanup(failed);
    });

    it('reads the dashboard figures on the replica while it keeps up', async () => {
      try {
        await until('health says replica ok', async () => (await replicaState()) === 'ok', 20_000);
        const before = await replicaScans();
        const res = await dashboard();
        const body = ok(res, 'dashboard');
        expect(body.management ?? body.review).toBeTruthy();
        await until('the standby served the figures', async () => (await replicaScans()) > before, 5_000);
        say(`replica: dashboard read on the standby (${(await replicaScans()) - before} table scans there)`);
      } catch (err) {
        failed = true;
        throw err;
      }
    });

    it('leaves a replica that falls behind alone, and uses it again once it has caught up', async () => {
      try {
        await replica!.query('SELECT pg_wal_replay_pause()');
        // A write on the primary: its WAL reaches the standby but is not replayed.
        await primary!.query(
          `INSERT INTO system_setting (key, value) VALUES ('replica-test', '"behind"'::jsonb)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        );
        const pausedAt = Date.now();
        await until('health says replica behind', async () => (await replicaState()) === 'behind', 25_000);
        say(`replica: marked behind ${Date.now() - pausedAt} ms after replay stopped (limit 10 s)`);
        await sleep(1_500); // the stats of the probe's own last reads are flushed
        const before = await replicaScans();
        ok(await dashboard(), 'dashboard while behind');
        await sleep(1_500);
        expect(await replicaScans()).toBe(before);
        const row = await replica!.query(`SELECT 1 FROM system_setting WHERE key = 'replica-test'`);
        expect(row.rowCount).toBe(0); // the standby is really stale
        await replica!.query('SELECT pg_wal_replay_resume()');
        await until('health says replica ok again', async () => (await replicaState()) === 'ok', 20_000);
        const again = await replicaScans();
        ok(await dashboard(), 'dashboard after catching up');
        await until('the standby serves again', async () => (await replicaScans()) > again, 5_000);
      } catch (err) {
        failed = true;
        throw err;
      }
    });

    it('answers from the primary when the replica goes away', async () => {
      try {
        await replica!.end();
        replica = undefined;
        await pair!.stopReplica();
        // At once: the replica read fails and is redone on the primary.
        ok(await dashboard(), 'dashboard with the replica gone');
        await until('health says replica down', async () => (await replicaState()) === 'down', 10_000);
        const health = await call(server!.base, 'GET', '/api/health');
        expect(health.status).toBe(200);
        expect(health.body.status).toBe('ok');
        for (let i = 0; i < 3; i++) ok(await dashboard(), 'dashboard with the replica down');
      } catch (err) {
        failed = true;
        throw err;
      }
    });
  },
);
