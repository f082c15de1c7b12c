// The soak (issue 12, concurrency): 50 simulated users (RELIABILITY_SOAK_USERS) — agents and enterprises that
// create and submit applications (and resubmit the returned ones), underwriters that approve or return them —
// for a fixed time (RELIABILITY_SOAK_SECONDS, default 60) against one real server. The accounts are made through
// the admin API (one-time password, then the forced password change). Every write carries an Idempotency-Key;
// 5 % are sent again with the same key after the answer and 2 % twice at the same moment. Afterwards: the
// database holds exactly the acknowledged applications (0 lost, 0 duplicated), each submit exactly once, each
// task decided at most once and as acknowledged, 0 × 5xx, and the invariants and amcheck hold.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { usccCheckChar } from '@piibs/shared';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  customerDocuments,
  DEMO_PASSWORD,
  embeddedUrl,
  envNumber,
  ok,
  pool,
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
  stopAll,
  Tally,
} from './harness.ts';
import { integrityProblems } from './integrity.ts';

const USERS = envNumber('RELIABILITY_SOAK_USERS', 50);
const SECONDS = envNumber('RELIABILITY_SOAK_SECONDS', 60);
const UNDERWRITERS = Math.max(1, Math.round(USERS / 5));
const ENTERPRISES = Math.max(1, Math.round(USERS / 5));
const AGENTS = Math.max(1, USERS - UNDERWRITERS - ENTERPRISES);
const PASSWORD = 'Soak#Pass2026';

type Role = 'agent' | 'enterprise' | 'underwriter';
interface SoakUser {
  role: Role;
  username: string;
  id: number;
  token: string;
  /** Each user calls from an address of its own (X-Forwarded-For; the server trusts it), as real users do. */
  ip: string;
  customerId: number;
}

const s = scratch('soak');
const dataDir = path.join(s.dir, 'data');
let server: Server | undefined;
let db: pg.Client;
let failed = false;
let productId = 0;
const users: SoakUser[] = [];

/** A valid unified social credit code, distinct per n (Zhenjiang prefix, the check character computed). */
function uscc(n: number): string {
  const body = `91321100MA${String(SEED % 1000).padStart(3, '0')}${String(n).padStart(4, '0')}`;
  return `${body}${usccCheckChar(body)}`;
}

beforeAll(async () => {
  server = await Server.start({
    name: 'soak',
    dataDir,
    logFile: path.join(s.dir, 'server.log'),
    env: { TRUST_PROXY: '1' },
  });
  db = await sqlClient(embeddedUrl(dataDir));
  db.on('error', () => {});
  const base = server.base;
  const started = Date.now();
  const admin = await signIn(base, 'admin', DEMO_PASSWORD);
  const underwriter = await signIn(base, 'underwriter', DEMO_PASSWORD);
  const roles = ok(await call(base, 'GET', '/api/roles/all', undefined, { token: admin }), 'roles') as {
    id: number;
    code: string;
  }[];
  const roleId = (code: string) => roles.find((r) => r.code === code)!.id;
  productId = await scalar(db, `select id from product where code = 'AZX_GM_2025'`);
  const plan: { role: Role; n: number }[] = [
    ...Array.from({ length: UNDERWRITERS }, (_, n) => ({ role: 'underwriter' as const, n })),
    ...Array.from({ length: ENTERPRISES }, (_, n) => ({ role: 'enterprise' as const, n })),
    ...Array.from({ length: AGENTS }, (_, n) => ({ role: 'agent' as const, n })),
  ];
  users.push(
    ...(await pool(plan, 4, async ({ role, n }, i) => {
      const username = `soak-${role}-${n + 1}`;
      const ip = `10.12.${Math.floor(i / 250)}.${(i % 250) + 1}`;
      const made = ok(
        await call(
          base,
          'POST',
          '/api/users',
          {
            username,
            nickName: `压测${role === 'underwriter' ? '核保员' : role === 'agent' ? '代理人' : '企业'}${n + 1}`,
            roleIds: [roleId(role === 'enterprise' ? '17' : role)],
            channel: role === 'underwriter' ? 'staff' : role,
            uscc: role === 'enterprise' ? uscc(i) : null,
          },
          { token: admin },
        ),
        `create user ${username}`,
      );
      // First sign-in with the one-time password may only change it; the same token is then a full session.
      const token = await signIn(base, username, made.password, ip);
      ok(
        await call(
          base,
          'POST',
          '/api/users/updatePass',
          { oldPass: made.password, newPass: PASSWORD },
          { token, ip },
        ),
        `password of ${username}`,
      );
      let customerId = 0;
      if (role !== 'underwriter') {
        const c = ok(
          await call(
            base,
            'POST',
            '/api/customers',
            {
              uscc: uscc(i),
              name: `镇江压测${role === 'agent' ? '客户' : '企业'}${i}有限公司`,
              industrySection: 'C',
              industryDivision: '34',
              region: '321102',
              address: '江苏省镇江市京口区压测路 1 号',
              legalRepresentative: '张三',
              contactName: '李四',
              phone: '13812345678',
              headcount: 20 + i,
            },
            { token, ip },
          ),
          `customer of ${username}`,
        );
        const task = ok(
          await call(base, 'GET', `/api/tasks/${c.openTaskId}`, undefined, { token: underwriter }),
          'customer task',
        );
        ok(
          await call(
            base,
            'POST',
            `/api/tasks/${task.id}/decide`,
            { decision: 'approve', version: task.version },
            { token: underwriter },
          ),
          'approve customer',
        );
        customerId = c.id;
        await customerDocuments(base, token, customerId, undefined, ip);
      }
      return { role, username, id: made.id as number, token, ip, customerId };
    })),
  );
  say(
    `soak: server up in ${server.startMs} ms; ${USERS} accounts through the admin API (${AGENTS} agents, ${ENTERPRISES} enterprises, ${UNDERWRITERS} underwriters) with approved customers in ${Date.now() - started} ms`,
  );
}, 600_000);

afterAll(async () => {
  await db?.end().catch(() => {});
  await stopAll([server], [dataDir]);
  s.cleanup(failed);
});

describe('soak', () => {
  it(
    `${USERS} users for ${SECONDS} s with retried requests: 0 lost, 0 duplicated, 0 × 5xx, every task decided at most once`,
    async ({ onTestFailed }) => {
      onTestFailed(() => {
        failed = true;
      });
      const base = server!.base;
      const rand = random(SEED);
      const tally = new Tally();
      /** create key → application id. */
      const created = new Map<string, number>();
      /** application id → the acknowledged submit keys. */
      const submits = new Map<number, Set<string>>();
      /** task id → the acknowledged decision. */
      const decisions = new Map<number, { by: number; decision: string; key: string }>();
      const problems: string[] = [];
      let resent = 0;
      let doubled = 0;
      let lostRaces = 0;

      /** A keyed write; 5 % re-sent after the answer, 2 % sent twice at once: every copy must answer the same. */
      async function write(
        label: string,
        u: SoakUser,
        url: string,
        body: unknown,
      ): Promise<Reply & { key: string }> {
        const key = randomUUID();
        const send = () =>
          call(base, 'POST', url, body, { token: u.token, key, ip: u.ip }).then((r) => tally.add(label, r));
        const dice = rand();
        let res: Reply;
        if (dice < 0.02) {
          const [one, two] = await Promise.all([send(), send()]);
          doubled++;
          res = one.status === 200 ? one : two;
          if (one.status !== two.status || (one.status === 200 && !isDeepStrictEqual(two.body, one.body)))
            problems.push(`${label} sent twice at once answered ${one.status} and ${two.status} differently`);
        } else {
          res = await send();
          if (dice < 0.07 && res.status === 200) {
            const again = await send();
            resent++;
            if (again.status !== 200 || again.headers?.get('idempotent-replayed') !== 'true')
              problems.push(
                `${label} re-sent answered ${again.status} ${JSON.stringify(again.body).slice(0, 200)}`,
              );
            else if (again.body.id !== res.body.id || again.body.version !== res.body.version)
              problems.push(`${label} re-sent answered another record`);
          }
        }
        return { ...res, key };
      }

      const think = () => sleep(Math.floor(rand() * 100));
      const deadline = Date.now() + SECONDS * 1000;

      async function applicant(u: SoakUser) {
        while (Date.now() < deadline) {
          const dice = rand();
          if (dice < 0.1) {
            tally.add(
              'list',
              await call(base, 'GET', '/api/applications?size=10', undefined, { token: u.token, ip: u.ip }),
            );
          } else if (dice < 0.25) {
            const returned = tally.add(
              'list',
              await call(base, 'GET', '/api/applications?status=RETURNED&size=10', undefined, {
                token: u.token,
                ip: u.ip,
              }),
            );
            const row = returned.body?.content?.[0];
            if (row) {
              const res = await write('resubmit', u, `/api/applications/${row.id}/submit`, {
                version: row.version,
              });
              if (res.status === 200) submits.get(row.id)?.add(res.key);
              else if (res.status < 500 && res.status > 0)
                problems.push(`resubmit ${res.status} ${JSON.stringify(res.body)}`);
            }
          } else {
            const made = await write('create', u, '/api/applications', {
              productId,
              customerId: u.customerId,
            });
            if (made.status !== 200) {
              if (made.status > 0 && made.status < 500)
                problems.push(`create ${made.status} ${JSON.stringify(made.body)}`);
            } else {
              created.set(made.key, made.body.id);
              submits.set(made.body.id, new Set());
              if (rand() < 0.8) {
                const sent = await write('submit', u, `/api/applications/${made.body.id}/submit`, {
                  version: made.body.version,
                });
                if (sent.status === 200) submits.get(made.body.id)!.add(sent.key);
                else if (sent.status > 0 && sent.status < 500)
                  problems.push(`submit ${sent.status} ${JSON.stringify(sent.body)}`);
              }
            }
          }
          await think();
        }
      }

      async function reviewer(u: SoakUser) {
        while (Date.now() < deadline) {
          const open = tally.add(
            'tasks',
            await call(base, 'GET', '/api/tasks?kind=application&status=open&size=20', undefined, {
              token: u.token,
              ip: u.ip,
            }),
          );
          const rows = (open.body?.content ?? []) as { id: number; version: number }[];
          if (rows.length === 0) {
            await sleep(200);
            continue;
          }
          const task = rows[Math.floor(rand() * rows.length)]!;
          const decision = rand() < 0.7 ? 'approve' : 'return';
          const res = await write('decide', u, `/api/tasks/${task.id}/decide`, {
            decision,
            version: task.version,
            ...(decision === 'return' ? { opinion: '请补充安全生产许可证复印件' } : { opinion: '同意承保' }),
          });
          if (res.status === 200) {
            if (decisions.has(task.id)) problems.push(`task ${task.id} acknowledged twice`);
            decisions.set(task.id, { by: u.id, decision, key: res.key });
          } else if (res.status === 409)
            lostRaces++; // another underwriter decided it first
          else if (res.status > 0 && res.status < 500)
            problems.push(`decide ${res.status} ${JSON.stringify(res.body)}`);
          await think();
        }
      }

      const started = Date.now();
      await Promise.all(users.map((u) => (u.role === 'underwriter' ? reviewer(u) : applicant(u))));
      const ran = (Date.now() - started) / 1000;

      // Another request under a used key: 422, nothing made.
      const some = [...created.keys()].slice(0, 5);
      const applicants = users.filter((u) => u.role !== 'underwriter');
      for (const key of some) {
        const id = created.get(key)!;
        const maker = await scalar(db, 'select owner_id from application where id = $1', [id]);
        const u = applicants.find((x) => x.id === maker)!;
        const res = await call(
          base,
          'POST',
          '/api/applications',
          { productId, customerId: u.customerId, policyholderType: 2 },
          { token: u.token, key, ip: u.ip },
        );
        expect(res.status).toBe(422);
      }

      // The database against what was acknowledged.
      const soakIds = users.map((u) => u.id);
      const rows = (
        await db.query<{ id: string; submits: string; tasks: string }>(
          `select a.id,
           (select count(*) from application_event e where e.application_id = a.id and e.action = 'submit') as submits,
           (select count(*) from review_task t where t.kind = 'application' and t.subject_id = a.id) as tasks
         from application a where a.owner_id = any($1)`,
          [soakIds],
        )
      ).rows;
      const ids = new Set(rows.map((r) => Number(r.id)));
      const acknowledged = new Set(created.values());
      expect(acknowledged.size, 'one application per acknowledged key').toBe(created.size);
      expect(
        [...acknowledged].filter((id) => !ids.has(id)),
        'lost',
      ).toEqual([]);
      expect(
        [...ids].filter((id) => !acknowledged.has(id)),
        'duplicated',
      ).toEqual([]);
      for (const r of rows) {
        const want = submits.get(Number(r.id))?.size ?? 0;
        expect([Number(r.submits), Number(r.tasks)], `submits and tasks of application ${r.id}`).toEqual([
          want,
          want,
        ]);
      }
      const tasks = (
        await db.query<{
          id: string;
          status: string;
          decision: string | null;
          decided_by: string | null;
          audits: string;
        }>(
          `select t.id, t.status, t.decision, t.decided_by,
           (select count(*) from audit_log l where l.action like 'review_%' and l.detail->>'taskId' = t.id::text) as audits
         from review_task t join application a on a.id = t.subject_id
         where t.kind = 'application' and a.owner_id = any($1)`,
          [soakIds],
        )
      ).rows;
      for (const t of tasks) {
        const acked = decisions.get(Number(t.id));
        const seen = [
          t.status,
          t.decision,
          t.decided_by === null ? null : Number(t.decided_by),
          Number(t.audits),
        ];
        expect(seen, `task ${t.id}`).toEqual(
          acked ? ['done', acked.decision, acked.by, 1] : ['open', null, null, 0],
        );
      }
      expect(problems.slice(0, 10)).toEqual([]);
      expect(tally.count5xx()).toBe(0);
      expect(tally.dropped()).toBe(0);
      expect(await integrityProblems(db)).toEqual([]);

      const count = (label: string) => tally.byLabel.get(label) ?? 0;
      const approved = [...decisions.values()].filter((d) => d.decision === 'approve').length;
      const totalSubmits = [...submits.values()].reduce((n, set) => n + set.size, 0);
      say(
        `soak: ${USERS} users for ${ran.toFixed(0)} s: ${tally.summary()}, ${(tally.count / ran).toFixed(0)} req/s\n` +
          `soak: ${created.size} applications created, ${totalSubmits} submits (${count('resubmit')} resubmit calls), ` +
          `${decisions.size} decisions (${approved} approved, ${decisions.size - approved} returned), ${lostRaces} lost races (409); ` +
          `${resent} writes re-sent after the answer and ${doubled} sent twice at once, all answered the same; ` +
          `${some.length} reused keys → 422; in the database: 0 lost, 0 duplicated, every task decided at most once, 0 × 5xx (seed ${SEED})`,
      );
    },
    (SECONDS + 300) * 1000,
  );
});
