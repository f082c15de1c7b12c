import path from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema>;

/** An open transaction: what `db.transaction(async (tx) => …)` hands its callback. Helpers that work in and out of
 * one take `Db | Tx`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

// BIGINT (int8) and NUMERIC come back as strings by default; money is integer fen well inside 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** The main pool → the pool its lists' named statements run on (see listPoolOf). */
const listPools = new WeakMap<object, pg.Pool>();

/**
 * The pool a list page's named statement runs on (lib/paging.ts, lib/keyset.ts), for a query on `client` (the
 * main pool; none for a transaction's client, which keeps its own connection). Its sessions plan each prepared
 * statement once, generically (`plan_cache_mode = force_generic_plan`): a list's statements are index walks
 * whose plan does not depend on the values, and a keyword search was planned again at every request (0.9 ms of
 * PostgreSQL time against 0.5 ms to run it), because the generic plan's guess for `like $1` looked dearer to
 * PostgreSQL than the custom plans it had made. Every other statement keeps the server's default.
 */
export const listPoolOf = (client: unknown): pg.Pool | undefined =>
  typeof client === 'object' && client !== null ? listPools.get(client) : undefined;

export function connect(url: string, max = 20): Database {
  const pool = new pg.Pool({ connectionString: url, max, application_name: 'piibs' });
  pool.on('error', () => {});
  const listPool = new pg.Pool({
    connectionString: url,
    // Half the main pool's size: a list request takes a connection of each (its session, then its page), and
    // on two cores 4 list connections answered as many pages as 8, at a lower p99.
    max: Math.max(2, Math.ceil(max / 2)),
    application_name: 'piibs-lists',
    options: '-c plan_cache_mode=force_generic_plan',
  });
  listPool.on('error', () => {});
  listPools.set(pool, listPool);
  const db = drizzle(pool, { schema });
  return { db, pool, close: async () => void (await Promise.all([pool.end(), listPool.end()])) };
}

export const migrationsFolder = path.join(import.meta.dirname, 'migrations');

/** Applies pending migrations; an advisory lock keeps several instances from migrating at once. */
export async function runMigrations(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(72177001)');
    await migrate(drizzle(client, { schema }), { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock(72177001)').catch(() => {});
    client.release();
  }
}
