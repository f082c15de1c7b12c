// The types every layer of the server shares: what an app is built from, the logger the services write to and the
// context the payment, policy and project services (and their background jobs) work with.
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { EmbeddedPostgres } from './db/embedded.ts';
import type { ReadRouter } from './db/replica.ts';
import type { PaymentProvider } from './modules/payments/provider.ts';

/** What buildApp() is given. */
export interface AppDeps {
  config: Config;
  database: Database;
  embedded: boolean;
  /** The embedded PostgreSQL server this process runs and restarts (none with DATABASE_URL): liveness asks it. */
  embeddedServer?: Pick<EmbeddedPostgres, 'state'> | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** Where slightly-stale-tolerant reads go: the replica when one keeps up, else the primary (db/replica.ts). */
    reads: ReadRouter;
  }
}

/** The few log calls the services make (Fastify's pino logger fits). */
export interface Log {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Hands work to the background queue (see jobs/boss.ts). */
export interface IssueQueue {
  /** Queues issuance of a paid application's policy, retried with back-off until it succeeds. */
  sendIssue(applicationId: number): Promise<void>;
}

/** One per app instance; made by businessContext() in modules/payments/context.ts. */
export interface BusinessContext {
  db: Db;
  config: Config;
  log: Log;
  /** The configured provider (new charges). */
  provider: PaymentProvider;
  /** Every provider by name (orders made under an earlier setting keep theirs). */
  providers: Record<string, PaymentProvider>;
  /** Set while the pg-boss queue runs; null: failed issuance waits for the next sweep. */
  queue: IssueQueue | null;
}
