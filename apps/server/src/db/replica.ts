// Reads that tolerate slightly stale data (dashboard figures, exports) go to a streaming replica when one is
// configured (DATABASE_REPLICA_URL) and keeping up; everything else — every write, and whatever a signed-in user
// reads back (sessions, permissions, records, lists) — stays on the primary.
//
// Keeping up is measured, not assumed: every second the primary's WAL position is sampled and the replica's
// replayed position read. The replica is used while it has replayed everything the primary had written
// `maxLagMs` ago; a replica that falls further behind (replay paused, its connection to the primary broken, too
// slow) or cannot be reached is left alone until it has caught up again, and a replica read that fails is
// answered from the primary.
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database, Db } from './client.ts';
import * as schema from './schema.ts';

export type ReplicaState = 'none' | 'ok' | 'behind' | 'down';

export interface ReplicaStatus {
  state: ReplicaState;
  /** How far behind the primary the replica's replay is, in ms (as sampled; 0 when caught up). */
  lagMs: number | null;
}

export interface ReadRouterOptions {
  /** The most staleness a replica read may have (default 10 s). */
  maxLagMs?: number;
  /** How often the replica is checked (default 1 s). */
  probeMs?: number;
}

/** A WAL position ("16/B374D848") as a number of bytes. */
function lsn(text: string): bigint {
  const [hi = '0', lo = '0'] = text.split('/');
  return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`);
}

export class ReadRouter {
  readonly #primary: Database;
  readonly #replica: { pool: pg.Pool; db: Db } | null;
  readonly #maxLagMs: number;
  readonly #probeMs: number;
  /** The primary's WAL position over the last moments, oldest first. */
  #samples: { at: number; lsn: bigint }[] = [];
  #state: ReplicaState;
  #lagMs: number | null = null;
  #checkedAt = 0;
  #timer: NodeJS.Timeout | null = null;
  #probing: Promise<void> | null = null;

  constructor(primary: Database, replicaUrl: string | undefined, opts: ReadRouterOptions = {}) {
    this.#primary = primary;
    this.#maxLagMs = opts.maxLagMs ?? 10_000;
    this.#probeMs = opts.probeMs ?? 1_000;
    if (replicaUrl) {
      const pool = new pg.Pool({
        connectionString: replicaUrl,
        max: 10,
        application_name: 'piibs-replica',
        connectionTimeoutMillis: 2_000,
      });
      pool.on('error', () => {});
      this.#replica = { pool, db: drizzle(pool, { schema }) };
      this.#state = 'down'; // until the first check has seen it keep up
    } else {
      this.#replica = null;
      this.#state = 'none';
    }
  }

  get status(): ReplicaStatus {
    return { state: this.#state, lagMs: this.#lagMs };
  }

  /** Starts the checks (none without a replica); the first one is awaited. */
  async start(): Promise<void> {
    if (!this.#replica || this.#timer) return;
    await this.probe();
    this.#timer = setInterval(() => void this.probe(), this.#probeMs);
    this.#timer.unref();
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#probing;
    await this.#replica?.pool.end().catch(() => {});
  }

  /** One check of the replica against the primary (run every `probeMs` once started). */
  probe(): Promise<void> {
    this.#probing ??= this.#probe().finally(() => {
      this.#probing = null;
    });
    return this.#probing;
  }

  async #probe(): Promise<void> {
    const replica = this.#replica;
    if (!replica) return;
    const now = Date.now();
    try {
      const p = await this.#primary.pool.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      this.#samples.push({ at: now, lsn: lsn(p.rows[0]!.lsn) });
    } catch {
      return; // the primary's own trouble is not the replica's: keep the last verdict
    }
    while (this.#samples.length > 1 && this.#samples[1]!.at <= now - this.#maxLagMs) this.#samples.shift();
    let replayed: bigint;
    try {
      const r = await replica.pool.query<{ lsn: string | null }>(
        'SELECT pg_last_wal_replay_lsn()::text AS lsn',
      );
      // null: not in recovery (a promoted standby, or the primary itself): as fresh as the primary.
      replayed = r.rows[0]!.lsn === null ? this.#samples.at(-1)!.lsn : lsn(r.rows[0]!.lsn);
    } catch {
      this.#state = 'down';
      this.#lagMs = null;
      this.#checkedAt = now;
      return;
    }
    // The oldest sample the replica has not replayed yet: it is that far behind.
    const unreplayed = this.#samples.find((s) => s.lsn > replayed);
    this.#lagMs = unreplayed ? now - unreplayed.at : 0;
    // Fresh: it has replayed what the primary had written maxLagMs ago.
    this.#state = this.#lagMs <= this.#maxLagMs ? 'ok' : 'behind';
    this.#checkedAt = now;
  }

  /** Whether the replica may answer now (checked recently, keeping up). */
  get #usable(): boolean {
    return this.#state === 'ok' && Date.now() - this.#checkedAt < this.#probeMs * 3 + 2_000;
  }

  /** The database for a read that tolerates `maxLagMs` of staleness and cannot be retried (a streamed export). */
  pick(): Db {
    return this.#usable && this.#replica ? this.#replica.db : this.#primary.db;
  }

  /** Runs a read on the replica when it keeps up, else on the primary; a failed replica read is redone there. */
  async read<T>(query: (db: Db) => Promise<T>): Promise<T> {
    if (!this.#usable || !this.#replica) return query(this.#primary.db);
    try {
      return await query(this.#replica.db);
    } catch (err) {
      if (typeof (err as { statusCode?: unknown }).statusCode === 'number') throw err;
      this.#state = 'down';
      this.#lagMs = null;
      void this.probe();
      return query(this.#primary.db);
    }
  }
}
