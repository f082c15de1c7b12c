// `npm start`: install if needed, build the web app if stale, then run the server (SPA + API on one port).
import module from 'node:module';
import path from 'node:path';
import { ensureInstalled, ensureWebBuilt, onPinnedNode, root, threadPoolEnv } from './ensure.mjs';

Object.assign(process.env, threadPoolEnv());
ensureInstalled();
onPinnedNode();
ensureWebBuilt();
// The server's modules compiled once (TypeScript stripped, V8 code cached) and reused by later starts: about
// half the start time. node_modules/.cache goes with the installation it belongs to.
module.enableCompileCache?.(path.join(root, 'node_modules/.cache/node-compile-cache'));
await import('../apps/server/src/main.ts');
