import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type App, buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { connect, type Database, runMigrations } from '../src/db/client.ts';

export interface TestContext {
  app: App;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh, migrated database and an app instance on it, for one test file. */
export async function createTestApp(
  overrides: Partial<Config> = {},
  extend?: (app: App) => void,
): Promise<TestContext> {
  const serverUrl = inject('databaseUrl');
  const name = `piibs_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();

  const database = connect(withDatabase(serverUrl, name), 5);
  await runMigrations(database);
  const config: Config = {
    ...loadConfig({
      JWT_SECRET: 'test-secret-that-is-long-enough-0123456789',
      DATA_DIR: path.join(os.tmpdir(), name),
    }),
    ...overrides,
  };
  const app = await buildApp(
    { config, database, embedded: !process.env.PIIBS_TEST_DATABASE_URL },
    { logger: false },
  );
  extend?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
