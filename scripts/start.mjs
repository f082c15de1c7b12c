// `npm start`: install if needed, build the web app if stale, then run the server (SPA + API on one port).
import { ensureInstalled, ensureWebBuilt, onPinnedNode } from './ensure.mjs';

ensureInstalled();
onPinnedNode();
ensureWebBuilt();
await import('../apps/server/src/main.ts');
