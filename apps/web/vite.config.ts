import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src', import.meta.url));

// One file serves `vite` (dev server, build) and the root vitest run, which lists it as the 'web' project.
export default defineConfig({
  plugins: [react()],
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
    // The API, and the sandbox gateway's cashier page the server serves.
    proxy: Object.fromEntries(
      ['/api', '/sandbox-pay'].map((prefix) => [prefix, process.env.PIIBS_API ?? 'http://127.0.0.1:8013']),
    ),
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Whole journeys through a page (typing a form, lazy chunks) can pass 5 s on a busy 2-core machine.
    testTimeout: 20_000,
  },
});
