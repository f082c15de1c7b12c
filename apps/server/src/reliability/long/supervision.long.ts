// Supervision of the embedded PostgreSQL (issue 21), on a real server process: its postmaster killed (-9), the
// server starts it again by itself and goes on serving; killed when it cannot be started again (its control file
// gone), the server exits non-zero — so a supervisor (systemd, Kubernetes) restarts it — and liveness never
// claimed all was well meanwhile. The fast half (the restart, the states, the stale postmaster.pid) is
// apps/server/src/reliability/embedded.test.ts.
import { renameSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  call,
  clusterDirOf,
  DEMO_PASSWORD,
  postmasterOf,
  Server,
  say,
  scratch,
  signIn,
  sleep,
  stopAll,
} from './harness.ts';

const s = scratch('supervision');
const dataDir = path.join(s.dir, 'data');
const logFile = path.join(s.dir, 'server.log');
let server: Server | undefined;
let failed = false;

afterAll(async () => {
  await stopAll([server], [dataDir]);
  s.cleanup(failed);
});

/** What /api/health/live and /api/health answer, every 200 ms, until `done` says stop. */
async function watch(base: string, done: () => boolean): Promise<Set<string>> {
  const seen = new Set<string>();
  while (!done()) {
    const live = await call(base, 'GET', '/api/health/live', undefined, { timeoutMs: 2_000 });
    seen.add(`live ${live.status} ${live.body?.status ?? ''}`.trim());
    await sleep(200);
  }
  return seen;
}

describe('the embedded PostgreSQL dies under a running server', () => {
  it('killed: the server restarts it and serves again; then unrecoverable: the server exits with 1', async () => {
    try {
      server = await Server.start({ name: 'supervision', dataDir, logFile });
      const first = postmasterOf(dataDir)!;
      process.kill(first.pid, 'SIGKILL');
      const started = Date.now();
      let back = false;
      const seen = watch(server.base, () => back);
      for (;;) {
        const health = await call(server.base, 'GET', '/api/health', undefined, { timeoutMs: 2_000 });
        const pm = postmasterOf(dataDir);
        if (health.status === 200 && pm && pm.pid !== first.pid) break;
        if (Date.now() - started > 60_000)
          throw new Error(`not healthy again within 60 s:\n${server.tail()}`);
        await sleep(200);
      }
      back = true;
      const recoveredMs = Date.now() - started;
      // Liveness: ok or recovering (200), never 503 while it mends itself.
      const answers = await seen;
      expect([...answers].filter((a) => !/^live 200 (ok|recovering)$/.test(a))).toEqual([]);
      // A write through the restarted database (the sign-in records a session).
      expect(await signIn(server.base, 'agent', DEMO_PASSWORD)).toMatch(/\S/);

      // Again, now with its control file gone: no PostgreSQL starts on the cluster.
      const control = path.join(clusterDirOf(dataDir), 'global', 'pg_control');
      const second = postmasterOf(dataDir)!;
      process.kill(second.pid, 'SIGKILL');
      renameSync(control, `${control}.away`);
      const killedAt = Date.now();
      await sleep(500); // the server learns of the death from the child's exit event
      let exited = false;
      const liveAfter = watch(server.base, () => exited);
      const code = await Promise.race([server.exited, sleep(120_000).then(() => 'timeout' as const)]);
      exited = true;
      renameSync(`${control}.away`, control);
      const exitMs = Date.now() - killedAt;
      expect(code, server.tail()).toBe(1);
      expect(server.tail(60)).toMatch(
        /cannot continue: The embedded PostgreSQL server could not be restarted/,
      );
      // Never 200 ok while its database was gone for good: recovering, then 503, then no answer.
      const after = [...(await liveAfter)];
      expect(after.filter((a) => a === 'live 200 ok')).toEqual([]);
      say(
        `supervision: postmaster killed → healthy again in ${recoveredMs} ms (${[...answers].join(', ')}); ` +
          `unrecoverable → exit ${code} after ${exitMs} ms (${after.join(', ')})`,
      );
    } catch (err) {
      failed = true;
      throw err;
    }
  }, 300_000);
});
