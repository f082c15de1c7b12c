import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { prepareTemplates, type Templates } from './databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    templates: Templates;
  }
}

/**
 * One PostgreSQL server for the whole server suite: the embedded one by default, or the external server named by
 * PIIBS_TEST_DATABASE_URL. The templates are prepared on it once; each test file then works in a copy of its own.
 */
export default async function setup(project: TestProject) {
  const external = process.env.PIIBS_TEST_DATABASE_URL;
  let pg: EmbeddedPostgres | undefined;
  let dir: string | undefined;
  let url = external;
  if (!url) {
    dir = mkdtempSync(path.join(os.tmpdir(), 'piibs-test-'));
    chmodSync(dir, 0o755); // as root, the postgres user can reach it, so the cluster stays inside and goes with it
    pg = await startEmbeddedPostgres({ clusterDir: path.join(dir, 'pg'), password: 'test-only-password' });
    url = pg.url;
  }
  const prepared = await prepareTemplates(url, !external).catch(async (err: unknown) => {
    await pg?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  project.provide('databaseUrl', url);
  project.provide('templates', prepared.templates);
  return async () => {
    if (external) await prepared.drop(); // (the embedded cluster goes as a whole)
    await pg?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}
