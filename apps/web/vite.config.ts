import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src', import.meta.url));
const repo = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The test files that mock a module (vi.mock): in a module graph shared with other files the mock would come too
 * late for modules already loaded, and stay for the files after. They run isolated (vitest.mocks.config.ts).
 */
export const MOCKING_TESTS = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.test\.tsx?$/.test(f))
  .filter((f) => /\bvi\.(mock|doMock)\(/.test(readFileSync(path.join(src, f), 'utf8')))
  .map((f) => `src/${f.split(path.sep).join('/')}`);

/**
 * Brotli and gzip copies of every text asset over 1 KB: the server sends them to browsers that accept them
 * (@fastify/static `preCompressed`), so nothing is compressed per request.
 */
function precompress(): Plugin {
  return {
    name: 'piibs-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const file of Object.keys(bundle)) {
        if (!/\.(js|css|svg|json)$/.test(file)) continue;
        const full = path.join(options.dir ?? 'dist', file);
        const data = readFileSync(full);
        if (data.length < 1024) continue;
        // Quality 9: 7% larger than the maximum (11) at a quarter of the build time.
        writeFileSync(
          `${full}.br`,
          brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
        );
        writeFileSync(`${full}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/** Writes .vite/modules.json: each chunk's modules and their rendered sizes, for `npm run bench`'s report. */
function moduleSizes(): Plugin {
  return {
    name: 'piibs-module-sizes',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: Record<string, Record<string, number>> = {};
      for (const out of Object.values(bundle)) {
        if (out.type !== 'chunk') continue;
        chunks[out.fileName] = Object.fromEntries(
          Object.entries(out.modules).map(([id, m]) => [
            id.replace(repo, '').replace(/\0/g, ''),
            m.renderedLength,
          ]),
        );
      }
      this.emitFile({ type: 'asset', fileName: '.vite/modules.json', source: JSON.stringify(chunks) });
    },
  };
}

// One file serves `vite` (dev server, build) and the root vitest run, which lists it as the 'web' project.
export default defineConfig({
  plugins: [react(), moduleSizes(), precompress()],
  resolve: { alias: { '@': src } },
  build: {
    outDir: 'dist',
    // The bundle-size report reads first-load JS per route from the manifest.
    manifest: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Every page needs React and the router, so they get a long-lived chunk of their own that
          // survives deploys of app code. antd stays split per route: one antd group would make the
          // login page download components only the admin shell uses.
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ }],
        },
      },
    },
  },
  server: {
    port: 5173,
    // The API (with the notification feed's WebSocket), and the sandbox gateway's cashier page the server serves.
    proxy: Object.fromEntries(
      ['/api', '/sandbox-pay'].map((prefix) => [
        prefix,
        { target: process.env.PIIBS_API ?? 'http://127.0.0.1:8013', ws: prefix === '/api' },
      ]),
    ),
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    exclude: [...configDefaults.exclude, ...MOCKING_TESTS],
    // One module graph (antd, React, the app) and one jsdom per worker, not per file: loading them took about
    // 2 s of CPU a file, half the project's time. src/test/setup.ts puts away what each test leaves behind.
    isolate: false,
    setupFiles: ['./src/test/setup.ts'],
    // Whole journeys through a page (typing a form, lazy chunks) can pass 5 s on a busy 2-core machine.
    testTimeout: 20_000,
  },
});
