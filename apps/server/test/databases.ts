// The databases of the server suite (not a test file; no vitest imports, the global setup uses it too): each test
// file works in a copy of a template prepared once per run (`CREATE DATABASE … TEMPLATE …` copies a migrated and
// seeded database in a fraction of a second, where migrating and seeding took seconds per file).
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { usccCheckChar } from '@piibs/shared';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { connect, runMigrations } from '../src/db/client.ts';
import { onStart } from '../src/startup.ts';
import { createUser, initSystem, type TestUser } from './auth.ts';

/** The prepared databases a test file can start from. */
export interface Templates {
  /** Migrated, nothing else: what the server finds on its very first start. */
  migrated: string;
  /** Migrated, initialised, the start-up seeds (dictionaries, menus, products) and the accounts of `WORLD_ACCOUNTS`. */
  world: string;
}

/** A USCC of the world's enterprises: `MB` in the body, so `newUscc()` (always `MA`) never makes the same one. */
function worldUscc(n: number): string {
  const body = `91321100MB${String(n).padStart(3, '0')}A000`;
  return body + usccCheckChar(body);
}

/** The world's two enterprises' codes. */
export const WORLD_USCC = { ent: worldUscc(1), ent2: worldUscc(2) };

/** One account per role, made in the world template in this order (so their ids are 2 to 7 after the admin's 1). */
export const WORLD_ACCOUNTS = {
  underwriter: { username: 'uw', roles: ['underwriter'] },
  agent: { username: 'ag', roles: ['agent'], channel: 'agent' },
  agent2: { username: 'ag2', roles: ['agent'], channel: 'agent' },
  ent: { username: 'ent', roles: ['17'], channel: 'enterprise', uscc: WORLD_USCC.ent },
  ent2: { username: 'ent2', roles: ['17'], channel: 'enterprise', uscc: WORLD_USCC.ent2 },
  /** Signed in, no role. */
  nobody: { username: 'nobody', roles: [] },
} satisfies Record<string, TestUser>;

export function databaseUrl(serverUrl: string, name: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs statements on the server's maintenance connection (the database the server URL names). */
export async function onServer(serverUrl: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A new database copied from `template`. Commits do not wait for the WAL flush in it (a test database is thrown
 * away, and a crash of the test server is not what these tests are about); the copy takes no other setting.
 */
export async function copyDatabase(serverUrl: string, template: string): Promise<string> {
  const name = `piibs_t_${randomBytes(6).toString('hex')}`;
  await onServer(
    serverUrl,
    `CREATE DATABASE ${name} TEMPLATE ${template}`,
    `ALTER DATABASE ${name} SET synchronous_commit = off`,
  );
  return name;
}

export function dropDatabase(serverUrl: string, name: string): Promise<void> {
  return onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/** The configuration of a test app on database `name` (its DATA_DIR a fresh directory under the system's tmp). */
export function testConfig(name: string, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      JWT_SECRET: 'test-secret-that-is-long-enough-0123456789',
      DATA_DIR: path.join(os.tmpdir(), name),
    }),
    ...overrides,
  };
}

/**
 * Makes the templates of one run on the server (names unique to the run, so runs sharing an external server do
 * not meet) and answers them with a function that drops them. A template takes no connections once made: a copy
 * needs its source to have none.
 */
export async function prepareTemplates(
  serverUrl: string,
  embedded: boolean,
): Promise<{ templates: Templates; drop(): Promise<void> }> {
  const run = randomBytes(4).toString('hex');
  const templates: Templates = { migrated: `piibs_tpl_${run}_migrated`, world: `piibs_tpl_${run}_world` };
  const drop = async () => {
    for (const name of Object.values(templates))
      await onServer(
        serverUrl,
        `ALTER DATABASE ${name} WITH IS_TEMPLATE false`,
        `DROP DATABASE ${name} WITH (FORCE)`,
      ).catch(() => {}); // not made (a failed preparation)
  };
  const seal = (name: string) =>
    onServer(serverUrl, `ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
  try {
    await onServer(serverUrl, `CREATE DATABASE ${templates.migrated}`);
    const migrated = connect(databaseUrl(serverUrl, templates.migrated), 2);
    await runMigrations(migrated).finally(() => migrated.close());
    await seal(templates.migrated);

    // The world: first-run setup through the API, the start-up seeds, then the accounts.
    await onServer(serverUrl, `CREATE DATABASE ${templates.world} TEMPLATE ${templates.migrated}`);
    const database = connect(databaseUrl(serverUrl, templates.world), 2);
    const config = testConfig(templates.world);
    try {
      const app = await buildApp({ config, database, embedded }, { logger: false });
      await app.ready();
      const t = { app, database, config, close: () => app.close() };
      try {
        await initSystem(t);
        await onStart({ config, database, log: () => {} });
        for (const account of Object.values(WORLD_ACCOUNTS)) await createUser(t, account);
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    }
    await seal(templates.world);
  } catch (err) {
    await drop();
    throw err;
  }
  return { templates, drop };
}
