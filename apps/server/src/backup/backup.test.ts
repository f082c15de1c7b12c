import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseUrl, dropDatabase, onServer } from '../../test/databases.ts';
import { fingerprint } from '../../test/fingerprint.ts';
import { createPayWorld, type PayWorld, pendingPayment } from '../modules/payments/test-fixtures.ts';
import { BackupError, createBackup, restoreBackup } from './archive.ts';
import { scheduledBackup } from './schedule.ts';
import { backupSettingsFrom } from './settings.ts';

let w: PayWorld;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'piibs-backup-test-'));
const made: string[] = [];

async function emptyDatabase(): Promise<string> {
  const name = `piibs_r_${Math.random().toString(16).slice(2, 10)}`;
  await onServer(inject('databaseUrl'), `CREATE DATABASE ${name}`);
  made.push(name);
  return databaseUrl(inject('databaseUrl'), name);
}

const sourceUrl = () => String(w.t.database.pool.options.connectionString);

beforeAll(async () => {
  w = await createPayWorld();
  // An application through submission and approval: customers, tasks, audit entries, uploaded materials.
  await pendingPayment(w, w.ent, w.entCustomerId);
});

afterAll(async () => {
  await w.t.close();
  for (const name of made) await dropDatabase(inject('databaseUrl'), name);
  rmSync(w.t.config.dataDir, { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('restores one snapshot into an empty database and DATA_DIR: every row, every referenced file', async () => {
    // The snapshot is exported by a transaction of the test, which fingerprints the data as that snapshot sees it.
    const holder = new pg.Client({ connectionString: sourceUrl() });
    await holder.connect();
    await holder.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    const snapshot = (await holder.query<{ s: string }>('SELECT pg_export_snapshot() AS s')).rows[0]!.s;
    const before = await fingerprint(sourceUrl(), w.t.config.dataDir, snapshot);
    // Written after the snapshot: a second application with its materials; not in the backup.
    const later = await pendingPayment(w, w.ent2, w.ent2CustomerId);
    const file = path.join(tmp, 'one.tar.gz');
    const lines: string[] = [];
    const manifest = await createBackup({
      databaseUrl: sourceUrl(),
      dataDir: w.t.config.dataDir,
      out: file,
      snapshot,
      log: (l) => lines.push(l),
    });
    await holder.query('COMMIT');
    await holder.end();
    expect(manifest.missing).toEqual([]);
    expect(manifest.files.filter((f) => f.kind === 'material').length).toBeGreaterThan(0);

    const target = await emptyDatabase();
    const dataDir = path.join(tmp, 'restored');
    const summary = await restoreBackup({ file, dataDir, databaseUrl: target });
    expect(summary.files).toBe(manifest.files.length);

    const after = await fingerprint(target, dataDir);
    expect(after.tables).toEqual(before.tables);
    expect(Object.keys(after.files).length).toBe(manifest.files.filter((f) => f.kind === 'material').length);
    expect(after.files).toEqual(before.files);
    expect(after.files).toEqual(after.recorded);
    const now = await fingerprint(sourceUrl(), w.t.config.dataDir);
    expect(now.tables.application).not.toEqual(before.tables.application);
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    const gone = await client.query('SELECT 1 FROM application WHERE id = $1', [later.id]);
    // The sequences go on past every restored id.
    const next = await client.query<{ n: string }>(`SELECT nextval('application_id_seq')::text AS n`);
    await client.end();
    expect(gone.rowCount).toBe(0);
    expect(Number(next.rows[0]!.n)).toBeGreaterThan(later.id - 1);
  });

  it('refuses a target that is not empty and a damaged backup, changing nothing', async () => {
    const file = path.join(tmp, 'two.tar.gz');
    await createBackup({ databaseUrl: sourceUrl(), dataDir: w.t.config.dataDir, out: file });
    // The source itself: a database with tables.
    await expect(
      restoreBackup({ file, dataDir: path.join(tmp, 'other'), databaseUrl: sourceUrl() }),
    ).rejects.toThrow(/not empty/);
    // A DATA_DIR with anything in it (embedded restore): refused before any database is started.
    await expect(restoreBackup({ file, dataDir: tmp })).rejects.toThrow(BackupError);
    await expect(restoreBackup({ file, dataDir: tmp })).rejects.toThrow(/is not empty/);

    const damaged = path.join(tmp, 'damaged.tar.gz');
    const bytes = readFileSync(file);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    writeFileSync(damaged, bytes);
    const target = await emptyDatabase();
    await expect(
      restoreBackup({ file: damaged, dataDir: path.join(tmp, 'd2'), databaseUrl: target }),
    ).rejects.toThrow(/damaged|not a PIIBS backup/);
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    const tables = await client.query(`SELECT 1 FROM pg_tables WHERE schemaname = 'public'`);
    await client.end();
    expect(tables.rowCount).toBe(0);
  });

  it('refuses a backup damaged anywhere (gzip header, compressed data, checksum, a tar entry) at once, changing nothing', async () => {
    const file = path.join(tmp, 'three.tar.gz');
    await createBackup({ databaseUrl: sourceUrl(), dataDir: w.t.config.dataDir, out: file });
    const whole = readFileSync(file);
    const flipped = (at: number) => {
      const bytes = Buffer.from(whole);
      bytes[at]! ^= 0xff;
      return bytes;
    };
    // What a damaged deflate stream decompressed to on the restores that hung: a tar entry with an empty name
    // (the unpacking waited forever on it, and the gzip checksum that would have failed comes last). Made here
    // directly, the same every run: the manifest's header with its name wiped.
    const tar = gunzipSync(whole);
    let header = 0;
    while (tar.subarray(header, header + 14).toString('latin1') !== 'manifest.json\0') header += 512;
    tar.fill(0, header, header + 100);
    const wipedEntry = gzipSync(tar);
    // The same with the tar header's checksum made right again: only the entry's name gives it away.
    tar.fill(0x20, header + 148, header + 156);
    const sum = tar.subarray(header, header + 512).reduce((n, b) => n + b, 0);
    tar.write(`${sum.toString(8).padStart(6, '0')}\0 `, header + 148, 'latin1');
    const wipedEntrySummed = gzipSync(tar);
    const wipedEntryBadChecksum = Buffer.from(wipedEntry);
    wipedEntryBadChecksum[wipedEntry.length - 8]! ^= 0xff;
    const damaged: [string, Buffer][] = [
      ['gzip flags', flipped(3)],
      ['first compressed bytes', flipped(12)],
      ['a quarter in', flipped(Math.floor(whole.length / 4))],
      ['the middle', flipped(Math.floor(whole.length / 2))],
      ['three quarters in', flipped(Math.floor((whole.length * 3) / 4))],
      ['gzip CRC', flipped(whole.length - 8)],
      ['gzip length', flipped(whole.length - 1)],
      ['an entry without a name, gzip CRC wrong', wipedEntryBadChecksum],
      ['an entry without a name, gzip whole', wipedEntry],
      ['an entry without a name, gzip and tar checksums whole', wipedEntrySummed],
    ];
    const target = await emptyDatabase();
    for (const [where, bytes] of damaged) {
      const copy = path.join(tmp, 'damaged-here.tar.gz');
      writeFileSync(copy, bytes);
      const dataDir = path.join(tmp, 'd3');
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        restoreBackup({ file: copy, dataDir, databaseUrl: target }).then(
          () => 'restored',
          (err: unknown) => err,
        ),
        new Promise((resolve) => {
          timer = setTimeout(() => resolve('still running after 5 s'), 5_000);
        }),
      ]);
      clearTimeout(timer);
      expect(outcome, where).toBeInstanceOf(BackupError);
      expect((outcome as Error).message, where).toMatch(/damaged|not a PIIBS backup/);
      expect(
        readdirSync(tmp).filter((f) => f.startsWith('.piibs-restore-') || f === 'd3'),
        where,
      ).toEqual([]);
    }
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    const tables = await client.query(`SELECT 1 FROM pg_tables WHERE schemaname IN ('public', 'drizzle')`);
    await client.end();
    expect(tables.rowCount).toBe(0);
  });
});

describe('the daily backup', () => {
  it('writes one file a run into DATA_DIR/backups and keeps the newest PIIBS_BACKUP_KEEP', async () => {
    const settings = backupSettingsFrom({ PIIBS_BACKUP_KEEP: '2' }, w.t.config.dataDir);
    expect(settings.dir).toBe(path.join(w.t.config.dataDir, 'backups'));
    const days = ['2026-11-01T18:30:00Z', '2026-11-02T18:30:00Z', '2026-11-03T18:30:00Z'];
    for (const day of days)
      await scheduledBackup(
        { databaseUrl: sourceUrl(), dataDir: w.t.config.dataDir, settings },
        new Date(day),
      );
    expect(readdirSync(settings.dir).sort()).toEqual([
      'piibs-backup-20261102-183000.tar.gz',
      'piibs-backup-20261103-183000.tar.gz',
    ]);
    // The kept file is a whole backup.
    const target = await emptyDatabase();
    const summary = await restoreBackup({
      file: path.join(settings.dir, 'piibs-backup-20261103-183000.tar.gz'),
      dataDir: path.join(tmp, 'from-daily'),
      databaseUrl: target,
    });
    expect(summary.files).toBeGreaterThan(0);
  });

  it('reads its place and count from the environment, refusing a count that is not a whole number', () => {
    expect(backupSettingsFrom({}, '/srv/piibs')).toEqual({ dir: '/srv/piibs/backups', keep: 7 });
    expect(backupSettingsFrom({ PIIBS_BACKUP_DIR: '/mnt/b', PIIBS_BACKUP_KEEP: '0' }, '/srv/piibs')).toEqual({
      dir: '/mnt/b',
      keep: 0,
    });
    expect(() => backupSettingsFrom({ PIIBS_BACKUP_KEEP: 'seven' }, '/srv/piibs')).toThrow(
      /PIIBS_BACKUP_KEEP/,
    );
  });
});
