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

type ChunkingContext = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };
type ChunkName = (id: string, ctx: ChunkingContext) => string | null;
/** antd's and the icons' indexes: importing one names every component, so the shell imports them by path. */
const BARREL = /node_modules[\\/](antd[\\/]es|@ant-design[\\/]icons[\\/]es)[\\/]index\.js$/;
/** The dashboard's own modules (its page and charts), which stay in its chunk. */
const DASHBOARD_OWN = /[\\/]src[\\/](features[\\/]dashboard|components[\\/]charts)[\\/]/;

/**
 * The chunks of a signed-in first load. Left to the default splitting, the modules every signed-in page needs
 * made about 60 small shared chunks (a button's styles, an icon, a hook), requested in three waves before the
 * dashboard could draw: on a phone's link, six at a time over HTTP/1.1, the requests' round trips were most of
 * the wait. They now make a few chunks, each the static closure of its roots less what an earlier one holds:
 * - `index`: the entry (`main.tsx`, with the login page), which the later ones must not take modules from;
 * - `antd-root`: `app/AntdRoot.tsx`, every page drawn with antd (the login page is not: the entry holds it);
 * - `shell`: the signed-in shell (`layout/Layout.tsx`) and its first-page loader (`app/shell-routes.ts`);
 * - `pages-common`: what the dashboard shares with other pages (its own modules stay in its chunk).
 * A closure is only as exact as its imports: a module in the first three that imports antd's or the icons' index
 * stops the build (import `antd/es/button`, `@ant-design/icons/es/icons/UserOutlined`).
 */
function firstLoadChunks(): { entry: ChunkName; signedIn: ChunkName } {
  let chunkOf: Map<string, string> | null = null;
  /** At an index: 'stop' the build, or 'skip' it (the modules only it leads to keep the default splitting). */
  const closure = (
    ctx: ChunkingContext,
    roots: string[],
    held: ReadonlyMap<string, string>,
    atIndex: 'stop' | 'skip',
  ) => {
    const seen = new Set<string>();
    const todo = roots.map((r) => path.join(src, r));
    while (todo.length) {
      const id = todo.pop()!;
      if (seen.has(id) || held.has(id)) continue;
      seen.add(id);
      for (const next of ctx.getModuleInfo(id)?.importedIds ?? []) {
        if (BARREL.test(next)) {
          if (atIndex === 'skip') continue;
          throw new Error(
            `${path.relative(repo, id)} imports ${path.relative(repo, next)}: import the component by path`,
          );
        }
        todo.push(next);
      }
    }
    return seen;
  };
  const chunks = (ctx: ChunkingContext) => {
    if (chunkOf) return chunkOf;
    const named = new Map<string, string>();
    /** Names the closure of `roots` that no earlier chunk holds, but the modules `keep` leaves out. */
    const claim = (name: string, roots: string[], atIndex: 'stop' | 'skip', keep = (_m: string) => true) => {
      for (const m of closure(ctx, roots, named, atIndex)) if (keep(m)) named.set(m, name);
    };
    claim('index', ['main.tsx'], 'stop');
    claim('antd-root', ['app/AntdRoot.tsx'], 'stop');
    claim('shell', ['layout/Layout.tsx', 'app/shell-routes.ts'], 'stop');
    claim(
      'pages-common',
      ['features/dashboard/pages/DashboardPage.tsx'],
      'skip',
      (m) => !DASHBOARD_OWN.test(m),
    );
    chunkOf = named;
    return chunkOf;
  };
  // A group takes its modules' imports along (rolldown's includeDependenciesRecursively): the entry's modules
  // are named by a group of higher priority, so that the shell's chunks do not take them from the login page.
  return {
    entry: (id, ctx) => (chunks(ctx).get(id) === 'index' ? 'index' : null),
    signedIn: (id, ctx) => {
      const name = chunks(ctx).get(id);
      return name && name !== 'index' ? name : null;
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

const firstLoad = firstLoadChunks();

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
          // survives deploys of app code. What every signed-in page needs makes a few chunks
          // (firstLoadChunks); the rest of antd stays split per route.
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
              priority: 3,
            },
            { name: firstLoad.entry, debugName: 'first-load: entry', priority: 2 },
            { name: firstLoad.signedIn, debugName: 'first-load: signed in', priority: 1 },
          ],
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
    // Node loads antd's and the icons' indexes as CommonJS (lib/); the shell's imports by path (antd/es/…, see
    // firstLoadChunks) go there too, or a test would hold two antd copies whose contexts do not meet.
    alias: [
      { find: /^antd\/es\/(.*)$/, replacement: 'antd/lib/$1' },
      {
        find: /^@ant-design\/icons\/es\/icons\/(\w+)$/,
        replacement: path.join(repo, 'node_modules/@ant-design/icons/lib/icons/$1.js'),
      },
    ],
    // Whole journeys through a page (typing a form, lazy chunks) can pass 5 s on a busy 2-core machine.
    testTimeout: 20_000,
  },
});
