// Crash (issue 12): while writers create and submit applications, `kill -9` the server — or its embedded
// PostgreSQL's postmaster, then the server — after a random 0.3–2 s; restart on the same DATA_DIR, 20 times
// (RELIABILITY_CRASH_ITERATIONS). After every restart: healthy within the timeout, every acknowledged write is
// there, every write that got no answer is retried with its Idempotency-Key and lands exactly once, nothing else
// was written, and the database's invariants and amcheck hold. Also: a second process on the same DATA_DIR is
// refused with a clear message while the first one runs.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  childrenOf,
  customerDocuments,
  DEMO_PASSWORD,
  embeddedUrl,
  envNumber,
  ok,
  postmasterOf,
  type Reply,
  random,
  SEED,
  Server,
  say,
  scalar,
  scratch,
  signIn,
  sleep,
  sqlClient,
  startRefused,
  stopAll,
  Tally,
  waitGone,
} from './harness.ts';
import { INVARIANTS, integrityProblems } from './integrity.ts';

const ITERATIONS = envNumber('RELIABILITY_CRASH_ITERATIONS', 20);
const WRITERS = 4;

interface Write {
  key: string;
  url: string;
  body: Record<string, unknown>;
  /** The application a submit is for. */
  appId?: number;
}

const s = scratch('crash');
const dataDir = path.join(s.dir, 'data');
const logFile = path.join(s.dir, 'server.log');
let server: Server | undefined;
let failed = false;
let token = '';
let agentId = 0;
let productId = 0;
let customerId = 0;
let baselineId = 0;

async function withSql<T>(fn: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = await sqlClient(embeddedUrl(dataDir));
  db.on('error', () => {});
  try {
    return await fn(db);
  } finally {
    await db.end().catch(() => {});
  }
}

beforeAll(async () => {
  server = await Server.start({ name: 'crash', dataDir, logFile });
  token = await signIn(server.base, 'agent', DEMO_PASSWORD);
  await withSql(async (db) => {
    agentId = await scalar(db, `select id from app_user where username = 'agent'`);
    productId = await scalar(db, `select id from product where code = 'AZX_GM_2025'`);
    customerId = await scalar(
      db,
      `select id from customer where owner_id = $1 and review_status = 'approved' order by id limit 1`,
      [agentId],
    );
    baselineId = await scalar(db, 'select coalesce(max(id), 0) from application');
  });
  await customerDocuments(server.base, token, customerId);
  say(
    `crash: server up in ${server.startMs} ms (seed ${SEED}, ${ITERATIONS} iterations, ${WRITERS} writers)`,
  );
}, 180_000);

afterAll(async () => {
  await stopAll([server], [dataDir]);
  s.cleanup(failed);
});

describe('crash', () => {
  it('a second process on the same DATA_DIR is refused with a clear message', async ({ onTestFailed }) => {
    onTestFailed(() => {
      failed = true;
    });
    const second = await startRefused({ name: 'second', dataDir });
    expect(second.code).toBe(1);
    expect(second.output).toContain(
      `[piibs] cannot start: Another PIIBS process (pid ${server!.pid}) is already using DATA_DIR ${dataDir}. Stop it first, or start this one with a different DATA_DIR.`,
    );
    // The first one is untouched.
    expect((await call(server!.base, 'GET', '/api/health')).status).toBe(200);
    say(`crash: second process on the same DATA_DIR refused in ${second.ms} ms (exit ${second.code})`);
  }, 120_000);

  it(
    `${ITERATIONS} × kill -9 of the server or its PostgreSQL during writes: healthy restarts, no acknowledged write lost, invariants hold`,
    async ({ onTestFailed }) => {
      onTestFailed(() => {
        failed = true;
      });
      const rand = random(SEED);
      const tally = new Tally();
      /** create key → application id (acknowledged). */
      const created = new Map<string, number>();
      /** application id → its acknowledged submit key. */
      const submitted = new Map<number, string>();
      const restarts: number[] = [];
      let retried = 0;
      let unexpected: string[] = [];

      const send = (w: Write): Promise<Reply> =>
        call(server!.base, 'POST', w.url, w.body, { token, key: w.key, timeoutMs: 30_000 });

      for (let i = 1; i <= ITERATIONS; i++) {
        const mode = i % 2 === 1 ? 'server' : 'postgres';
        const pending: Write[] = [];
        let writing = true;
        let acked = 0;
        const writer = async () => {
          while (writing) {
            const w: Write = { key: randomUUID(), url: '/api/applications', body: { productId, customerId } };
            pending.push(w);
            const res = tally.add('create', await send(w));
            if (res.status !== 200) {
              if (res.status !== 0 && res.status < 500) unexpected.push(`create ${res.status} ${res.body}`);
              return; // unanswered (or a 5xx while PostgreSQL is gone): retried after the restart
            }
            pending.splice(pending.indexOf(w), 1);
            created.set(w.key, res.body.id);
            acked++;
            if (rand() < 0.5) {
              const sw: Write = {
                key: randomUUID(),
                url: `/api/applications/${res.body.id}/submit`,
                body: { version: res.body.version },
                appId: res.body.id,
              };
              pending.push(sw);
              const sr = tally.add('submit', await send(sw));
              if (sr.status !== 200) {
                if (sr.status !== 0 && sr.status < 500) unexpected.push(`submit ${sr.status} ${sr.body}`);
                return;
              }
              pending.splice(pending.indexOf(sw), 1);
              submitted.set(sw.appId!, sw.key);
              acked++;
            }
          }
        };
        const writers = Array.from({ length: WRITERS }, writer);
        await sleep(300 + Math.floor(rand() * 1700));

        const pm = postmasterOf(dataDir);
        if (!pm) throw new Error('no postmaster before the kill');
        const backends = childrenOf(pm.pid);
        if (mode === 'postgres') {
          process.kill(pm.pid, 'SIGKILL');
          await sleep(100 + Math.floor(rand() * 200)); // the server runs on without its database for a moment
        }
        server!.kill9();
        await server!.exited;
        writing = false;
        await Promise.all(writers);
        if (mode === 'postgres') {
          // An operator restarts once the old server's processes are gone.
          expect(await waitGone([pm.pid, ...backends], 20_000)).toBe(true);
        }

        const started = Date.now();
        server = await Server.start({ name: `crash restart ${i}`, dataDir, logFile, timeoutMs: 90_000 });
        restarts.push(Date.now() - started);

        // Writes that got no answer: the same request with the same key lands exactly once.
        for (const w of [...pending].sort((a, b) => Number(Boolean(a.appId)) - Number(Boolean(b.appId)))) {
          const res = tally.add('retry', await send(w));
          ok(res, `retry of ${w.url} after restart ${i}`);
          if (w.appId) submitted.set(w.appId, w.key);
          else created.set(w.key, res.body.id);
          retried++;
        }

        const found = await withSql(async (db) => {
          const rows = await db.query<{ id: string; status: string; submits: string }>(
            `select a.id, a.status,
               (select count(*) from application_event e where e.application_id = a.id and e.action = 'submit') as submits
             from application a where a.owner_id = $1 and a.id > $2`,
            [agentId, baselineId],
          );
          const problems = await integrityProblems(db);
          return { rows: rows.rows, problems };
        });
        const ids = new Set(found.rows.map((r) => Number(r.id)));
        const acknowledged = new Set(created.values());
        const lost = [...acknowledged].filter((id) => !ids.has(id));
        const extra = [...ids].filter((id) => !acknowledged.has(id));
        expect(lost, `iteration ${i}: acknowledged applications missing`).toEqual([]);
        expect(extra, `iteration ${i}: applications nobody acknowledged (duplicates)`).toEqual([]);
        expect(created.size, `iteration ${i}: one application per key`).toBe(acknowledged.size);
        for (const r of found.rows) {
          const id = Number(r.id);
          const want = submitted.has(id) ? ['PENDING_REVIEW', 1] : ['DRAFT', 0];
          expect([r.status, Number(r.submits)], `application ${id} after restart ${i}`).toEqual(want);
        }
        expect(found.problems, `iteration ${i}: invariants`).toEqual([]);
        expect(unexpected, `iteration ${i}: unexpected refusals`).toEqual([]);
        unexpected = [];

        // A few acknowledged keys again: the stored answer, not a second application.
        const keys = [...created.keys()];
        for (let k = 0; k < 3 && keys.length; k++) {
          const key = keys[Math.floor(rand() * keys.length)]!;
          const res = tally.add(
            'replay',
            await send({ key, url: '/api/applications', body: { productId, customerId } }),
          );
          expect(res.status).toBe(200);
          expect(res.headers?.get('idempotent-replayed')).toBe('true');
          expect(res.body.id).toBe(created.get(key));
        }
        say(
          `crash ${String(i).padStart(2)}/${ITERATIONS} kill -9 ${mode.padEnd(8)} ${String(acked).padStart(3)} writes acknowledged, ${pending.length} unanswered retried, restart healthy in ${restarts.at(-1)} ms, ${INVARIANTS} invariants + amcheck ok`,
        );
      }
      const sorted = [...restarts].sort((a, b) => a - b);
      say(
        `crash: ${ITERATIONS} kills (${Math.ceil(ITERATIONS / 2)} server, ${Math.floor(ITERATIONS / 2)} postgres+server), ` +
          `${created.size} applications and ${submitted.size} submits acknowledged, ${retried} unanswered writes retried exactly once, ` +
          `0 lost, 0 duplicated; restart p50 ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms; ${tally.summary()}`,
      );
    },
    ITERATIONS * 90_000,
  );
});
