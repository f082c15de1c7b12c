import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initSystem } from '../../test/auth.ts';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { onStart } from '../startup.ts';
import { seedVolume, VOLUME_KEY } from './volume.ts';

const SMALL = { applications: 600, customers: 50, agents: 5, enterprises: 6 };

async function freshSystem(): Promise<TestContext> {
  const t = await createTestApp();
  await initSystem(t);
  await onStart({ config: t.config, database: t.database, log: () => {} });
  return t;
}

const one = async <T>(t: TestContext, query: ReturnType<typeof sql>): Promise<T> =>
  (await t.database.db.execute(query)).rows[0] as T;

/** What two seeded databases must agree on, whatever ids they gave. */
const fingerprint = (t: TestContext) =>
  one<{ f: string; n: number }>(
    t,
    sql`select md5(string_agg(concat_ws('|', a.number, a.status, a.channel, c.uscc, o.username, a.created_at,
      a.updated_at, a.premium_fen, a.start_date), ',' order by a.number)) as f, count(*)::int as n
      from application a join customer c on c.id = a.customer_id join app_user o on o.id = a.owner_id`,
  );

let t: TestContext;
beforeAll(async () => {
  t = await freshSystem();
  const first = await seedVolume(t.database.db, SMALL);
  expect(first).toMatchObject({ created: true, applications: 600 });
}, 60_000);
afterAll(() => t.close());

describe('seedVolume', () => {
  it('spreads the applications over states, products, channels and agents, each consistent', async () => {
    const byStatus = await t.database.db.execute<{ status: string; n: number }>(
      sql`select status, count(*)::int as n from application group by status order by status`,
    );
    expect(byStatus.rows.map((r) => r.status)).toEqual([
      'CANCELLED',
      'DECLINED',
      'DRAFT',
      'PAYMENT_EXPIRED',
      'PENDING_REVIEW',
      'RETURNED',
    ]);
    const checks = await one<Record<string, number>>(
      t,
      sql`select
        count(distinct product_id)::int as products,
        count(distinct channel)::int as channels,
        count(distinct owner_id) filter (where channel = 'agent')::int as agents,
        count(*) filter (where number !~ '^(AZX|JZSG|LYBZ)2026[0-9]{6}$')::int as bad_numbers,
        count(*) filter (where premium_fen is distinct from (quote->>'premiumFen')::bigint)::int as bad_premiums,
        count(*) filter (where status = 'PENDING_REVIEW' and not exists (select 1 from review_task t
          where t.kind = 'application' and t.subject_id = application.id and t.status = 'open'))::int as no_task,
        count(*) filter (where status = 'PAYMENT_EXPIRED' and not exists (select 1 from payment_order p
          where p.application_id = application.id and p.status = 'EXPIRED'))::int as no_order,
        count(*) filter (where status <> (select e.to_status from application_event e
          where e.application_id = application.id order by e.created_at desc, e.id desc limit 1))::int as bad_timeline,
        count(*) filter (where channel = 'enterprise' and customer_id not in (select c.id from customer c
          join app_user u on u.uscc = c.uscc where u.id = application.owner_id))::int as bad_enterprise
        from application`,
    );
    expect(checks).toEqual({
      products: 3,
      channels: 3,
      agents: 5,
      bad_numbers: 0,
      bad_premiums: 0,
      no_task: 0,
      no_order: 0,
      bad_timeline: 0,
      bad_enterprise: 0,
    });
  });

  it('runs once: a second run finds the marker and writes nothing', async () => {
    const before = await fingerprint(t);
    const again = await seedVolume(t.database.db, SMALL);
    expect(again).toMatchObject({ created: false, applications: 600 });
    expect(await fingerprint(t)).toEqual(before);
    const marker = await one<{ n: number }>(
      t,
      sql`select count(*)::int as n from system_setting where key = ${VOLUME_KEY}`,
    );
    expect(marker.n).toBe(1);
  });

  it('is reproducible: another database seeded the same way holds the same rows', async () => {
    const other = await freshSystem();
    try {
      await seedVolume(other.database.db, SMALL);
      const [a, b] = [await fingerprint(t), await fingerprint(other)];
      expect(a.n).toBe(600);
      expect(b).toEqual(a);
    } finally {
      await other.close();
    }
  }, 60_000);
});
