import { inject } from 'vitest';
import { type App, buildApp } from '../src/app.ts';
import type { Config } from '../src/config.ts';
import { connect, type Database, runMigrations } from '../src/db/client.ts';
import { copyDatabase, databaseUrl, dropDatabase, type Templates, testConfig } from './databases.ts';

export interface TestContext {
  app: App;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** The prepared database to copy (see databases.ts): a freshly migrated one unless told. */
  from?: keyof Templates;
  /** Where the app's log goes (level info); none when not given. */
  logStream?: NodeJS.WritableStream;
}

/** A database of its own (a copy of a prepared template) and an app instance on it, for one test file. */
export async function createTestApp(
  overrides: Partial<Config> = {},
  extend?: (app: App) => void,
  { from = 'migrated', logStream }: TestAppOptions = {},
): Promise<TestContext> {
  const serverUrl = inject('databaseUrl');
  const name = await copyDatabase(serverUrl, inject('templates')[from]);
  const database = connect(databaseUrl(serverUrl, name), 5);
  // What every start does: nothing to apply here (the template is migrated), one cheap look.
  await runMigrations(database);
  const config = testConfig(name, overrides);
  const app = await buildApp(
    { config, database, embedded: !process.env.PIIBS_TEST_DATABASE_URL },
    { logger: logStream ? { level: 'info', stream: logStream } : false },
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
      await dropDatabase(serverUrl, name);
    },
  };
}
