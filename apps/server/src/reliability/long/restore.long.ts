// The restore drill (issue 25): a running embedded PIIBS with 20 users writing (each: a customer, approved, and
// its two documents uploaded, again and again); meanwhile `npm run backup`'s program takes a backup of it without
// stopping it — in a snapshot this test exported, so it can say independently what the backup must hold: every
// table's row count and row digest, every material file's hash, as that snapshot sees them. Then
// `npm run restore` into a fresh DATA_DIR; its database must match the snapshot table for table and file for
// file, and a server started on it must be healthy and show a writer exactly the customers it had at the snapshot.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { usccCheckChar } from '@piibs/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fingerprint, fingerprint } from '../../../test/fingerprint.ts';
import { loadSecrets } from '../../config.ts';
import { startEmbeddedPostgres } from '../../db/embedded.ts';
import {
  call,
  customerDocuments,
  DEMO_PASSWORD,
  embeddedUrl,
  envNumber,
  ok,
  pool,
  repoRoot,
  SEED,
  Server,
  say,
  scratch,
  signIn,
  sleep,
  sqlClient,
  stopAll,
} from './harness.ts';

const WRITERS = envNumber('RELIABILITY_BACKUP_WRITERS', 20);
const PASSWORD = 'Drill#Pass2026';
const s = scratch('restore');
const source = path.join(s.dir, 'source');
const target = path.join(s.dir, 'restored');
const backupFile = path.join(s.dir, 'drill.tar.gz');
let a: Server | undefined;
let b: Server | undefined;
let failed = false;

interface Writer {
  username: string;
  token: string;
  ip: string;
}
const writers: Writer[] = [];

function uscc(n: number): string {
  const body = `91321100MB${String(SEED % 1000).padStart(3, '0')}${String(n).padStart(4, '0')}`;
  return `${body}${usccCheckChar(body)}`;
}

/** Runs the backup/restore program as `npm run backup|restore` runs it; answers its output or throws with it. */
function cli(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['apps/server/src/backup/cli.ts', ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args[0]} (${code}):\n${out}`)),
    );
  });
}

beforeAll(async () => {
  a = await Server.start({
    name: 'drill-source',
    dataDir: source,
    logFile: path.join(s.dir, 'source.log'),
    // Each writer its own address (X-Forwarded-For), so the per-IP limits see 20 users, not one.
    env: { TRUST_PROXY: '1' },
  });
  const admin = await signIn(a.base, 'admin', DEMO_PASSWORD);
  const roles = ok(await call(a.base, 'GET', '/api/roles/all', undefined, { token: admin }), 'roles') as {
    id: number;
    code: string;
  }[];
  const agentRole = roles.find((r) => r.code === 'agent')!.id;
  writers.push(
    ...(await pool(
      Array.from({ length: WRITERS }, (_, i) => i),
      4,
      async (i) => {
        const username = `drill-agent-${i + 1}`;
        const ip = `10.25.0.${i + 1}`;
        const made = ok(
          await call(
            a!.base,
            'POST',
            '/api/users',
            { username, nickName: `演练代理人${i + 1}`, roleIds: [agentRole], channel: 'agent' },
            { token: admin },
          ),
          `create ${username}`,
        );
        const token = await signIn(a!.base, username, made.password, ip);
        ok(
          await call(
            a!.base,
            'POST',
            '/api/users/updatePass',
            { oldPass: made.password, newPass: PASSWORD },
            { token, ip },
          ),
          `password of ${username}`,
        );
        return { username, token, ip };
      },
    )),
  );
}, 600_000);

afterAll(async () => {
  await stopAll([a, b], [source, target]);
  s.cleanup(failed);
});

describe('restore drill', () => {
  it(`a backup taken while ${WRITERS} users write restores exactly its snapshot into a fresh DATA_DIR`, async () => {
    try {
      const underwriter = await signIn(a!.base, 'underwriter', DEMO_PASSWORD);
      let stop = false;
      let written = 0;
      let n = 0;
      const errors: string[] = [];
      const load = Promise.all(
        writers.map(async (w) => {
          while (!stop) {
            const i = n++;
            const c = await call(
              a!.base,
              'POST',
              '/api/customers',
              {
                uscc: uscc(i),
                name: `镇江演练客户${i}有限公司`,
                industrySection: 'C',
                industryDivision: '34',
                region: '321102',
                address: '江苏省镇江市京口区演练路 1 号',
                legalRepresentative: '张三',
                contactName: '李四',
                phone: '13812345678',
                headcount: 20 + i,
              },
              { token: w.token, ip: w.ip },
            );
            if (c.status !== 200) {
              errors.push(`customer: ${c.status} ${JSON.stringify(c.body)}`);
              continue;
            }
            const task = await call(a!.base, 'GET', `/api/tasks/${c.body.openTaskId}`, undefined, {
              token: underwriter,
            });
            if (task.status === 200)
              await call(
                a!.base,
                'POST',
                `/api/tasks/${task.body.id}/decide`,
                { decision: 'approve', version: task.body.version },
                { token: underwriter },
              );
            await customerDocuments(a!.base, w.token, c.body.id, undefined, w.ip).catch((err: Error) =>
              errors.push(err.message),
            );
            written++;
          }
        }),
      );
      await sleep(5_000);
      const atBackup = written;

      // The snapshot the backup takes, exported by this test: what the restore must reproduce.
      const holder = await sqlClient(embeddedUrl(source));
      await holder.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const snapshot = (await holder.query<{ s: string }>('SELECT pg_export_snapshot() AS s')).rows[0]!.s;
      const started = Date.now();
      const out = await cli(['backup', '--out', backupFile, '--snapshot', snapshot], { DATA_DIR: source });
      const backupMs = Date.now() - started;
      const want: Fingerprint = await fingerprint(embeddedUrl(source), source, snapshot);
      // The first writer's customers as the snapshot sees them (the exporting transaction sees the same).
      const firstWriters = (
        await holder.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM customer c JOIN app_user u ON u.id = c.created_by WHERE u.username = $1',
          [writers[0]!.username],
        )
      ).rows[0]!.n;
      await holder.query('COMMIT');
      await holder.end();
      await sleep(2_000);
      stop = true;
      await load;
      const duringBackup = written - atBackup;
      say(
        `drill: ${written} customers with documents written by ${WRITERS} users, ${duringBackup} while the backup ran (${backupMs} ms)`,
      );
      say(out.trim().split('\n').slice(-3).join('\n'));
      expect(errors).toEqual([]);
      expect(duringBackup).toBeGreaterThan(0);
      const after: Fingerprint = await fingerprint(embeddedUrl(source), source);
      expect(after.tables.customer).not.toEqual(want.tables.customer); // writes went on past the snapshot
      expect(Object.values(want.files)).not.toContain('missing');
      await a!.stop();

      const restored = await cli(['restore', backupFile], { DATA_DIR: target });
      say(restored.trim().split('\n').slice(-1).join('\n'));
      // The restored database as it is before any server touches it.
      const pgServer = await startEmbeddedPostgres({
        clusterDir: path.join(target, 'pg'),
        password: loadSecrets(target).dbPassword!,
      });
      let got: Fingerprint;
      try {
        got = await fingerprint(pgServer.url, target);
      } finally {
        await pgServer.stop();
      }
      expect(got.tables).toEqual(want.tables);
      expect(got.files).toEqual(want.files);
      expect(got.files).toEqual(got.recorded);
      const tables = Object.keys(want.tables).length;
      const files = Object.keys(want.files).length;
      say(`drill: restored ${tables} tables and ${files} material files, all equal to the snapshot`);
      // Nothing but what was asked for: the files of the snapshot, not those written after it.
      const onDisk = readdirSync(path.join(target, 'materials'), {
        recursive: true,
        withFileTypes: true,
      }).filter((e) => e.isFile()).length;
      expect(onDisk).toBe(files);

      b = await Server.start({
        name: 'drill-restored',
        dataDir: target,
        logFile: path.join(s.dir, 'restored.log'),
        env: { PIIBS_DEMO: '0' },
      });
      const health = await call(b.base, 'GET', '/api/health');
      expect(health.status).toBe(200);
      const w = writers[0]!;
      const token = await signIn(b.base, w.username, PASSWORD);
      const mine = ok(
        await call(b.base, 'GET', '/api/customers?page=1&size=100', undefined, { token }),
        'customers',
      );
      expect(firstWriters).toBeGreaterThan(0);
      expect(mine.totalElements).toBe(firstWriters);
    } catch (err) {
      failed = true;
      throw err;
    }
  });
});
