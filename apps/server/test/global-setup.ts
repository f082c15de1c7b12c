import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../src/db/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/**
 * One PostgreSQL server for the whole server suite: the embedded one by default, or the external server
 * named by PIIBS_TEST_DATABASE_URL. Each test file then works in a database of its own.
 */
export default async function setup(project: TestProject) {
  const external = process.env.PIIBS_TEST_DATABASE_URL;
  if (external) {
    project.provide('databaseUrl', external);
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'piibs-test-'));
  chmodSync(dir, 0o755); // as root, the postgres user can reach it, so the cluster stays inside and goes with it
  const pg: EmbeddedPostgres = await startEmbeddedPostgres({
    clusterDir: path.join(dir, 'pg'),
    password: 'test-only-password',
  });
  project.provide('databaseUrl', pg.url);
  return async () => {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
