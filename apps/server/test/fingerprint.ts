// What a restore must reproduce, computed independently of the backup code: every application table's row count
// and a digest of its rows (as text, sorted, hashed by the server), and the hash of every material's file.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

export interface Fingerprint {
  /** table → `rows:md5` */
  tables: Record<string, string>;
  /** storage key → sha256 of the file on disk (or `missing`), for every material row */
  files: Record<string, string>;
  /** storage key → sha256 the row records */
  recorded: Record<string, string>;
}

/** Reads the database (in `snapshot` when given: an exported one) and hashes the files under `dataDir`. */
export async function fingerprint(url: string, dataDir: string, snapshot?: string): Promise<Fingerprint> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const out: Fingerprint = { tables: {}, files: {}, recorded: {} };
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    if (snapshot) await client.query(`SET TRANSACTION SNAPSHOT '${snapshot}'`);
    const tables = await client.query<{ t: string }>(
      `SELECT tablename::text AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
    );
    for (const { t } of tables.rows) {
      const r = await client.query<{ n: string; d: string | null }>(
        `SELECT count(*)::text AS n, md5(string_agg(x::text, E'\\n' ORDER BY x::text)) AS d FROM public."${t}" x`,
      );
      out.tables[t] = `${r.rows[0]!.n}:${r.rows[0]!.d ?? '-'}`;
    }
    const materials = await client.query<{ key: string; sha256: string }>(
      'SELECT storage_key AS key, sha256 FROM material ORDER BY id',
    );
    await client.query('COMMIT');
    for (const m of materials.rows) {
      out.recorded[m.key] = m.sha256;
      const bytes = await readFile(path.join(dataDir, 'materials', ...m.key.split('/'))).catch(() => null);
      out.files[m.key] = bytes ? createHash('sha256').update(bytes).digest('hex') : 'missing';
    }
    return out;
  } finally {
    await client.end();
  }
}
