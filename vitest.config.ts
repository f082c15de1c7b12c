import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner, three projects: pure shared code, the API against a real PostgreSQL, and the web app in jsdom.
export default defineConfig({
  test: {
    // React's scheduler may still run a motion's last update a moment after a web test file's jsdom is gone
    // ("window is not defined" from react-dom or the scheduler): teardown noise on a busy machine, not a
    // failure of any test. Every other unhandled error still fails the run.
    onUnhandledError(error) {
      const teardown =
        error.name === 'ReferenceError' &&
        /window is not defined/.test(error.message) &&
        /react-dom|scheduler/.test(error.stack ?? '');
      return teardown ? false : undefined;
    },
    // Vitest leaves one core free by default, which on a 2-core CI machine means one worker: the suite ran
    // serially (798 s). The test files wait on PostgreSQL and jsdom as much as they compute, so use every core.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      './apps/web/vite.config.ts',
    ],
  },
});
