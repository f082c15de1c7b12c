// Backups and restores of a PIIBS installation: one file (a gzipped tar) holding the database's tables as taken in
// ONE snapshot, every file those rows reference (image materials, avatars), the configuration files (generated
// secrets, trusted CA roots) and a manifest with row counts and hashes.
//
// Consistency: a material's bytes are stored before the row that names them commits (materials/service.ts), so
// every file a snapshot references exists once the snapshot is taken: the database is read first, in one
// REPEATABLE READ transaction, then the files it names are copied (files written later are not needed).
//
// The tables are written with COPY (text format), not pg_dump: the embedded server is PostgreSQL 18 and no pg_dump
// that can read it is at hand (Debian 12 ships 15, the npm package only the server), and COPY works the same on
// every version. The schema is not dumped: a restore migrates the empty target to the backup's migration (the
// manifest names them by hash), then loads the rows; the next start applies any newer migration. The job queue
// (schema pgboss) is not kept: the sweeps at start redo what was pending (payment expiry, issuance).
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import {
  copyFile,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { TarHeader } from 'modern-tar';
import { packTar, unpackTar } from 'modern-tar/fs';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { loadSecrets } from '../config.ts';
import { migrationsFolder } from '../db/client.ts';
import { lockDataDir, startEmbeddedPostgres } from '../db/embedded.ts';
import { type FileKind, fileStoreFor } from './files.ts';

export const BACKUP_FORMAT = 'piibs-backup/1';

/** Refusals and failures a person acts on (a non-empty target, a damaged file): the CLI prints the message. */
export class BackupError extends Error {}

export interface TableEntry {
  table: string;
  columns: string[];
  rows: number;
  sha256: string;
}

export interface FileEntry {
  kind: FileKind;
  name: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  serverVersion: string;
  /** The applied migrations' hashes, in order (drizzle's sha256 of each SQL file). */
  migrations: string[];
  tables: TableEntry[];
  sequences: { name: string; value: number | null }[];
  files: FileEntry[];
  /** Files the snapshot references that were not found (an avatar replaced meanwhile, a lost material). */
  missing: { kind: FileKind; name: string }[];
}

const q = (ident: string) => `"${ident.replaceAll('"', '""')}"`;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The tables of the application schema, each with its stored (not generated) columns and primary key. */
async function tablesOf(client: pg.Client): Promise<{ table: string; columns: string[]; pk: string[] }[]> {
  const r = await client.query<{ table: string; columns: string[]; pk: string[] | null }>(`
    SELECT c.relname::text AS table,
      (SELECT array_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a
        WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '') AS columns,
      (SELECT array_agg(a.attname::text ORDER BY array_position(i.indkey::int2[], a.attnum))
        FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey::int2[])
        WHERE i.indrelid = c.oid AND i.indisprimary) AS pk
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r' AND NOT c.relispartition
    ORDER BY c.relname`);
  return r.rows.map((t) => ({ table: t.table, columns: t.columns, pk: t.pk ?? [] }));
}

/** The table's rows as COPY text, in primary-key order (so the same rows always give the same bytes). */
function copyOut(t: { table: string; columns: string[]; pk: string[] }): string {
  const cols = t.columns.map(q).join(', ');
  const order = (t.pk.length ? t.pk : t.columns).map((c, i) => (t.pk.length ? q(c) : String(i + 1)));
  return `COPY (SELECT ${cols} FROM public.${q(t.table)} ORDER BY ${order.join(', ')}) TO STDOUT`;
}

/** Streams a table out, hashing and counting rows (one line a row: COPY text escapes newlines inside values). */
async function dumpTable(
  client: pg.Client,
  t: { table: string; columns: string[]; pk: string[] },
  file: string | null,
): Promise<{ rows: number; sha256: string }> {
  const hash = createHash('sha256');
  let rows = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      for (const b of chunk) if (b === 10) rows++;
      done(null, chunk);
    },
  });
  const source = client.query(copyTo(copyOut(t)));
  if (file) await pipeline(source, count, createWriteStream(file, { mode: 0o600 }));
  else {
    await pipeline(source, count, async (chunks: AsyncIterable<Buffer>) => {
      for await (const _ of chunks);
    });
  }
  return { rows, sha256: hash.digest('hex') };
}

export interface BackupOptions {
  /** The running installation's database. */
  databaseUrl: string;
  /** Its DATA_DIR (the files: materials, avatars, secrets, CA roots). */
  dataDir: string;
  /** The backup file to write (written under a temporary name, renamed when complete). */
  out: string;
  /** Take the snapshot another transaction exported (pg_export_snapshot()) instead of a new one. */
  snapshot?: string | undefined;
  log?: (line: string) => void;
}

/** Writes one backup file of a running (or stopped) installation; never blocks its writers. */
export async function createBackup(opts: BackupOptions): Promise<Manifest> {
  const log = opts.log ?? (() => {});
  const out = path.resolve(opts.out);
  await mkdir(path.dirname(out), { recursive: true });
  const staging = await mkdtemp(path.join(path.dirname(out), '.piibs-backup-'));
  const store = fileStoreFor(opts.dataDir);
  try {
    await mkdir(path.join(staging, 'db'));
    const client = new pg.Client({ connectionString: opts.databaseUrl, application_name: 'piibs-backup' });
    await client.connect();
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      serverVersion: '',
      migrations: [],
      tables: [],
      sequences: [],
      files: [],
      missing: [],
    };
    const referenced: { kind: FileKind; name: string; sha256?: string }[] = [];
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      if (opts.snapshot)
        await client.query(`SET TRANSACTION SNAPSHOT '${opts.snapshot.replaceAll("'", "''")}'`);
      manifest.serverVersion = (await client.query<{ v: string }>('SHOW server_version')).rows[0]!.v;
      const migrated = await client
        .query<{ hash: string }>('SELECT hash FROM drizzle.__drizzle_migrations ORDER BY created_at, id')
        .catch(() => {
          throw new BackupError(
            'The database has no PIIBS schema (no migrations applied): nothing to back up.',
          );
        });
      manifest.migrations = migrated.rows.map((r) => r.hash);
      for (const t of await tablesOf(client)) {
        const { rows, sha256: hash } = await dumpTable(
          client,
          t,
          path.join(staging, 'db', `${t.table}.copy`),
        );
        manifest.tables.push({ table: t.table, columns: t.columns, rows, sha256: hash });
      }
      const seqs = await client.query<{ name: string; value: string | null }>(
        `SELECT sequencename::text AS name, last_value::text AS value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1`,
      );
      manifest.sequences = seqs.rows.map((s) => ({
        name: s.name,
        value: s.value === null ? null : Number(s.value),
      }));
      const materials = await client.query<{ key: string; sha256: string }>(
        'SELECT storage_key AS key, sha256 FROM public.material ORDER BY id',
      );
      for (const m of materials.rows) referenced.push({ kind: 'material', name: m.key, sha256: m.sha256 });
      const avatars = await client.query<{ avatar: string }>(
        'SELECT DISTINCT avatar FROM public.app_user WHERE avatar IS NOT NULL ORDER BY 1',
      );
      for (const a of avatars.rows) referenced.push({ kind: 'avatar', name: a.avatar });
      await client.query('COMMIT');
    } finally {
      await client.end().catch(() => {});
    }
    log(
      `database: ${manifest.tables.length} tables, ${manifest.tables.reduce((n, t) => n + t.rows, 0)} rows (one snapshot)`,
    );
    for (const name of await store.configFiles()) referenced.push({ kind: 'config', name });
    for (const f of referenced) {
      const bytes = await store.read(f.kind, f.name).catch(() => null);
      if (!bytes) {
        manifest.missing.push({ kind: f.kind, name: f.name });
        continue;
      }
      const hash = sha256(bytes);
      if (f.sha256 && f.sha256 !== hash) {
        manifest.missing.push({ kind: f.kind, name: f.name });
        log(`WARNING: ${f.kind} ${f.name} does not match the hash its row records; left out`);
        continue;
      }
      const target = path.join(staging, 'files', f.kind, ...f.name.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, bytes, { mode: 0o600 });
      manifest.files.push({ kind: f.kind, name: f.name, size: bytes.length, sha256: hash });
    }
    if (manifest.missing.length)
      log(
        `WARNING: ${manifest.missing.length} referenced files were not found: ${manifest.missing.map((m) => m.name).join(', ')}`,
      );
    log(`files: ${manifest.files.length} (${manifest.files.reduce((n, f) => n + f.size, 0)} bytes)`);
    await writeFile(path.join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2), { mode: 0o600 });

    const partial = `${out}.partial`;
    await pipeline(packTar(staging), createGzip(), createWriteStream(partial, { mode: 0o600 }));
    const fd = await open(partial, 'r');
    await fd.sync();
    await fd.close();
    await rename(partial, out);
    log(`backup written: ${out} (${(await stat(out)).size} bytes)`);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * The entries a backup holds: files and directories under relative names. Anything else (a link, a name that is
 * empty, absolute or has a `.`/`..` part) is refused: modern-tar, given a file entry whose name is the extraction
 * directory itself, prepares that directory's parents up to `/`, whose preparation awaits itself: the unpacking waits
 * forever instead of failing (the garbage a damaged deflate stream decompresses to held such names).
 */
function backupEntry(header: TarHeader): TarHeader {
  const parts = header.name.replace(/\/$/, '').split('/');
  if (
    (header.type !== 'file' && header.type !== 'directory') ||
    parts.some((p) => p === '' || p === '.' || p === '..')
  )
    throw new Error(`unexpected entry ${JSON.stringify(header.name)} (${header.type ?? 'file'})`);
  return header;
}

/** Unpacks a backup into `dir` and checks every table and file against the manifest's hashes. */
async function unpackChecked(file: string, dir: string): Promise<Manifest> {
  if (!(await stat(file).catch(() => null))) throw new BackupError(`No backup file at ${file}.`);
  try {
    // The whole gzip stream first (its CRC and length come last): a damaged archive is refused before any entry is
    // unpacked, so the unpacking never reads the garbage a damaged stream decompresses to (the file is read twice).
    await pipeline(createReadStream(file), createGunzip(), async (chunks: AsyncIterable<Buffer>) => {
      for await (const _ of chunks);
    });
    await pipeline(
      createReadStream(file),
      createGunzip(),
      unpackTar(dir, { strict: true, map: backupEntry }),
    );
  } catch (err) {
    throw new BackupError(`${file} is not a PIIBS backup or is damaged (${(err as Error).message}).`);
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    throw new BackupError(`${file} is not a PIIBS backup (no manifest).`);
  }
  if (manifest.format !== BACKUP_FORMAT)
    throw new BackupError(`${file} is in an unknown backup format (${String(manifest.format)}).`);
  for (const t of manifest.tables) {
    const bytes = await readFile(path.join(dir, 'db', `${t.table}.copy`)).catch(() => null);
    if (!bytes || sha256(bytes) !== t.sha256)
      throw new BackupError(`The backup is damaged: table ${t.table} does not match its hash.`);
  }
  for (const f of manifest.files) {
    const bytes = await readFile(path.join(dir, 'files', f.kind, ...f.name.split('/'))).catch(() => null);
    if (!bytes || sha256(bytes) !== f.sha256)
      throw new BackupError(`The backup is damaged: ${f.kind} file ${f.name} does not match its hash.`);
  }
  return manifest;
}

/** Migrates the empty target to exactly the backup's migrations (a prefix of this release's). */
async function migrateTo(client: pg.Client, hashes: string[], scratch: string): Promise<void> {
  const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  if (hashes.length > journal.entries.length)
    throw new BackupError(
      `The backup was made by a newer PIIBS release (${hashes.length} migrations, this one has ${journal.entries.length}): restore it with that release.`,
    );
  const folder = path.join(scratch, 'migrations');
  await mkdir(path.join(folder, 'meta'), { recursive: true });
  for (const [i, entry] of journal.entries.slice(0, hashes.length).entries()) {
    const sql = await readFile(path.join(migrationsFolder, `${entry.tag}.sql`));
    if (sha256(sql) !== hashes[i])
      throw new BackupError(
        `The backup's migration ${i + 1} differs from this release's ${entry.tag}: restore it with the release that made it.`,
      );
    await copyFile(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  }
  await writeFile(
    path.join(folder, 'meta/_journal.json'),
    JSON.stringify({ ...journal, entries: journal.entries.slice(0, hashes.length) }),
  );
  await migrate(drizzle(client), { migrationsFolder: folder });
}

/**
 * Takes the foreign keys off while the rows load (some tables reference each other both ways, so no load order
 * satisfies them all); `restore` puts them back, which checks every row against them.
 */
async function dropForeignKeys(client: pg.Client): Promise<() => Promise<void>> {
  const fks = await client.query<{ tbl: string; name: string; def: string }>(`
    SELECT conrelid::regclass::text AS tbl, conname::text AS name, pg_get_constraintdef(oid) AS def
    FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace ORDER BY 1, 2`);
  for (const fk of fks.rows) await client.query(`ALTER TABLE ${fk.tbl} DROP CONSTRAINT ${q(fk.name)}`);
  return async () => {
    for (const fk of fks.rows)
      await client.query(`ALTER TABLE ${fk.tbl} ADD CONSTRAINT ${q(fk.name)} ${fk.def}`);
  };
}

export interface RestoreOptions {
  file: string;
  /** Where the files go (and, without databaseUrl, the embedded database): must be empty. */
  dataDir: string;
  /** An external, empty database to restore into; without it, a new embedded one in DATA_DIR. */
  databaseUrl?: string | undefined;
  log?: (line: string) => void;
}

export interface RestoreSummary {
  tables: number;
  rows: number;
  files: number;
}

async function isEmptyDir(dir: string): Promise<boolean> {
  const entries = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  return entries.length === 0;
}

/**
 * Restores a backup into an empty DATA_DIR (a new embedded database there) or an empty external database, and
 * checks the result: every table's row count and hash, every file's hash. A non-empty target is refused before
 * anything is written.
 */
export async function restoreBackup(opts: RestoreOptions): Promise<RestoreSummary> {
  const log = opts.log ?? (() => {});
  const dataDir = path.resolve(opts.dataDir);
  const store = fileStoreFor(dataDir);
  if (opts.databaseUrl) {
    if (await store.holdsFiles())
      throw new BackupError(
        `DATA_DIR ${dataDir} already holds uploaded files: restore into an empty DATA_DIR.`,
      );
  } else if (!(await isEmptyDir(dataDir))) {
    throw new BackupError(`DATA_DIR ${dataDir} is not empty: restore into a new, empty directory.`);
  }
  const scratch = await mkdtemp(path.join(path.dirname(dataDir), '.piibs-restore-'));
  let unlock: (() => void) | undefined;
  let stopEmbedded: (() => Promise<void>) | undefined;
  try {
    const manifest = await unpackChecked(path.resolve(opts.file), path.join(scratch, 'backup'));
    log(
      `backup of ${manifest.createdAt}: ${manifest.tables.length} tables, ${manifest.files.length} files, checked`,
    );
    const staged = (kind: FileKind, name: string) =>
      path.join(scratch, 'backup', 'files', kind, ...name.split('/'));
    let url = opts.databaseUrl;
    if (!url) {
      unlock = lockDataDir(dataDir);
      // The embedded database is made with the backup's password (its secrets.json comes first).
      if (manifest.files.some((f) => f.kind === 'config' && f.name === 'secrets.json'))
        await store.write('config', 'secrets.json', await readFile(staged('config', 'secrets.json')));
      const pgServer = await startEmbeddedPostgres({
        clusterDir: path.join(dataDir, 'pg'),
        password: loadSecrets(dataDir).dbPassword!,
        log,
      });
      stopEmbedded = () => pgServer.stop();
      url = pgServer.url;
    }
    const client = new pg.Client({ connectionString: url, application_name: 'piibs-restore' });
    await client.connect();
    try {
      const existing = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname IN ('public', 'drizzle', 'pgboss') AND c.relkind = 'r'`,
      );
      if (existing.rows[0]!.n > 0)
        throw new BackupError(
          `The target database is not empty (${existing.rows[0]!.n} tables): restore into a new, empty database.`,
        );
      await migrateTo(client, manifest.migrations, scratch);
      const byName = new Map(manifest.tables.map((t) => [t.table, t]));
      const present = new Set((await tablesOf(client)).map((t) => t.table));
      for (const t of manifest.tables)
        if (!present.has(t.table))
          throw new BackupError(`Table ${t.table} of the backup is not in the schema.`);
      await client.query('BEGIN');
      const restoreForeignKeys = await dropForeignKeys(client);
      for (const t of manifest.tables) {
        if (!t.rows) continue;
        const table = `public.${q(t.table)}`;
        // The rows load as they were saved: no trigger rewrites them (application.search_key, computed from the
        // applicant, whose row may come later) or counts them as a change.
        await client.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
        await pipeline(
          createReadStream(path.join(scratch, 'backup', 'db', `${t.table}.copy`)),
          client.query(copyFrom(`COPY ${table} (${t.columns.map(q).join(', ')}) FROM STDIN`)),
        );
        await client.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
      }
      await restoreForeignKeys();
      for (const s of manifest.sequences)
        if (s.value !== null)
          await client.query('SELECT setval($1::regclass, $2, true)', [`public.${q(s.name)}`, s.value]);
      await client.query('COMMIT');
      // Read back: the same rows give the same bytes in key order.
      for (const t of await tablesOf(client)) {
        const want = byName.get(t.table);
        if (!want) continue;
        const got = await dumpTable(client, { ...t, columns: want.columns }, null);
        if (got.rows !== want.rows || got.sha256 !== want.sha256)
          throw new BackupError(
            `Restored table ${t.table} differs from the backup (${got.rows} rows, ${want.rows} expected).`,
          );
      }
    } finally {
      await client.end().catch(() => {});
    }
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
    log(`database restored and checked: ${manifest.tables.length} tables, ${rows} rows`);
    for (const f of manifest.files) {
      if (f.kind === 'config' && (await store.read('config', f.name))) {
        if (f.name !== 'secrets.json' || opts.databaseUrl) log(`kept the existing ${f.name}`);
        continue;
      }
      await store.write(f.kind, f.name, await readFile(staged(f.kind, f.name)));
      const back = await store.read(f.kind, f.name);
      if (!back || sha256(back) !== f.sha256)
        throw new BackupError(`Restored ${f.kind} ${f.name} differs from the backup.`);
    }
    log(`files restored and checked: ${manifest.files.length}`);
    if (manifest.missing.length)
      log(`note: ${manifest.missing.length} files were already missing when the backup was made`);
    return { tables: manifest.tables.length, rows, files: manifest.files.length };
  } finally {
    await stopEmbedded?.();
    unlock?.();
    // An unpacking that failed part-way may still be writing a file for a moment ("directory not empty").
    await rm(scratch, { recursive: true, force: true, maxRetries: 5 });
  }
}
