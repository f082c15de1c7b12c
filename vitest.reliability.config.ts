import { defineConfig } from 'vitest/config';

// The long reliability battery (`npm run test:reliability`, scripts/test-reliability.mjs): real server processes,
// several minutes. Not part of `npm test` (vitest.config.ts only includes *.test.ts files).
export default defineConfig({
  test: {
    name: 'reliability',
    include: ['apps/server/src/reliability/long/**/*.long.ts'],
    environment: 'node',
    // One file at a time: each starts its own servers and a 2-core machine is the target.
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 300_000,
  },
});
