import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

/** The server test files that mock a module (vi.mock): they run isolated, outside the shared module graph. */
const SERVER_MOCKING = readdirSync(path.join(root, 'apps/server/src'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => `apps/server/src/${f.split(path.sep).join('/')}`)
  .filter((f) => /\bvi\.(mock|doMock)\(/.test(readFileSync(path.join(root, f), 'utf8')));

// One runner, three projects: pure shared code, the API against a real PostgreSQL, and the web app in jsdom.
export default defineConfig({
  test: {
    // Vitest leaves one core free by default, which on a 2-core CI machine means one worker: the suite ran
    // serially (798 s). The test files wait on PostgreSQL and jsdom as much as they compute, so use every core.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
          environment: 'node',
          // The property tests' depth: a fast slice in `npm test`, all of it in `npm run test:long`.
          provide: { testDepth: process.env.PIIBS_TEST_DEPTH === 'long' ? 'long' : 'fast' },
          // A property test computes for seconds at full depth, longer on a machine busy with the other lanes.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          exclude: SERVER_MOCKING,
          environment: 'node',
          globalSetup: ['apps/server/test/global-setup.ts'],
          // One module graph per worker, not one per file: importing the server (Fastify, drizzle, pdfkit …) took
          // about 3 s a file. Each file still builds its own app on a database of its own (apps/server/test).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'server-mocks', include: SERVER_MOCKING, environment: 'node' } },
      // With the server suite on an external PostgreSQL (PIIBS_TEST_DATABASE_URL, as CI runs it), the embedded
      // server still gets its smoke test: start, migrate, demo seed, one journey through the API.
      ...(process.env.PIIBS_TEST_DATABASE_URL
        ? [
            {
              test: {
                name: 'embedded-smoke',
                include: ['apps/server/test/embedded-smoke.test.ts'],
                environment: 'node',
                testTimeout: 60_000,
                hookTimeout: 120_000,
              },
            },
          ]
        : []),
      './apps/web/vite.config.ts',
      './apps/web/vitest.mocks.config.ts',
    ],
  },
});
