// `npm run dev`: the API (embedded PostgreSQL unless DATABASE_URL) on 8013 and Vite with hot reload on 5173.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { bin, ensureInstalled, onPinnedNode, root } from './ensure.mjs';

ensureInstalled();
onPinnedNode();
const children = [
  spawn(process.execPath, ['apps/server/src/main.ts'], { cwd: root, stdio: 'inherit' }),
  spawn(bin('vite'), [], {
    cwd: path.join(root, 'apps/web'),
    stdio: 'inherit',
  }),
];
process.stdout.write('[piibs] dev: open http://127.0.0.1:5173/piibs/ (API proxied to :8013)\n');
const stop = () => {
  for (const c of children) c.kill('SIGINT');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', stop);
