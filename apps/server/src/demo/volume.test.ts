import { createHash } from 'node:crypto';
import { shanghaiToday } from '@piibs/shared/application-status';
import { type PolicyCoverage, policyCoversOf, policyStatusOn } from '@piibs/shared/policy';
import type { QuoteResult } from '@piibs/shared/product';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, initSystem, tokenFor } from '../../test/auth.ts';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { shapeStats } from '../lib/statement-shapes.ts';
import { getProduct } from '../modules/products/service.ts';
import { onStart } from '../startup.ts';
import { DEMO_PASSWORD } from './base.ts';
import { seedVolume, VOLUME_ACCOUNTS, VOLUME_KEY } from './volume.ts';

const SMALL = { applications: 600, customers: 50, agents: 5, enterprises: 6 };

async function freshSystem(): Promise<TestContext> {
  const t = await createTestApp();
  await initSystem(t);
  await onStart({ config: t.config, database: t.database, log: () => {} });
  return t;
}

const one = async <T>(t: TestContext, query: ReturnType<typeof sql>): Promise<T> =>
  (await t.database.db.execute(query)).rows[0] as T;

/** What two seeded databases must agree on, whatever ids they gave: the applications and their policies. */
const fingerprint = (t: TestContext) =>
  one<{ f: string; n: number; p: string; policies: number }>(
    t,
    sql`select md5(string_agg(concat_ws('|', a.number, a.status, a.channel, c.uscc, o.username, a.created_at,
      a.updated_at, a.premium_fen, a.start_date), ',' order by a.number)) as f, count(*)::int as n,
      (select md5(string_agg(concat_ws('|', p.number, a.number, p.premium_fen, p.prevention_fee_fen,
        p.coverages::text, p.verification_code, p.issued_at, m.trade_no, m.paid_at), ',' order by p.number))
        from policy p join application a on a.id = p.application_id join payment m on m.id = p.payment_id) as p,
      (select count(*)::int from policy) as policies
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
      'ISSUED',
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

  it('issues a quarter as policies, each paid and issued as payment and issuance leave it', async () => {
    const checks = await one<Record<string, number>>(
      t,
      sql`select
        count(*) filter (where a.status = 'ISSUED')::int as issued,
        count(*) filter (where (a.status = 'ISSUED') <> exists (select 1 from policy p
          where p.application_id = a.id))::int as policy_mismatch,
        -- order, gateway charge, payment and policy all of the quoted premium (fen), paid in time, then issued
        count(*) filter (where a.status = 'ISSUED' and not exists (select 1 from payment_order o
          join payment m on m.order_id = o.id and m.application_id = a.id
          join sandbox_charge c on c.order_no = o.number and c.status = 'PAID' and c.trade_no = m.trade_no
          join policy p on p.payment_id = m.id and p.application_id = a.id
          where o.application_id = a.id and o.status = 'PAID' and m.source = 'query'
            and o.amount_fen = a.premium_fen and c.amount_fen = a.premium_fen and m.amount_fen = a.premium_fen
            and p.premium_fen = a.premium_fen and p.prevention_fee_fen = a.prevention_fee_fen
            and p.customer_id = a.customer_id and p.start_date = a.start_date and p.end_date = a.end_date
            and o.charged_at < m.paid_at and m.paid_at < o.expires_at and m.paid_at < p.issued_at
            and p.issued_at = a.updated_at))::int as unpaid,
        count(*) filter (where a.status = 'ISSUED' and not exists (select 1 from review_task r
          where r.kind = 'application' and r.subject_id = a.id and r.status = 'done'
            and r.decision = 'approve'))::int as no_approval,
        count(*) filter (where a.status = 'ISSUED' and (select string_agg(e.action, ',' order by e.created_at, e.id)
          from application_event e where e.application_id = a.id) <> 'create,submit,approve,pay,issue')::int
          as bad_timeline,
        count(*) filter (where a.status = 'ISSUED' and not exists (select 1 from application_event e
          join policy p on p.application_id = a.id
          where e.application_id = a.id and e.action = 'issue' and e.opinion = '保单号 ' || p.number))::int
          as unnamed_issue
        from application a`,
    );
    expect(checks.issued).toBeGreaterThan(120);
    expect(checks.issued).toBeLessThan(180);
    expect(checks).toEqual({
      issued: checks.issued,
      policy_mismatch: 0,
      unpaid: 0,
      no_approval: 0,
      bad_timeline: 0,
      unnamed_issue: 0,
    });
    // Numbers as issuing makes them, in the order issued; covers as issuing stores them; the status of today.
    const rows = (
      await t.database.db.execute<{
        number: string;
        productId: number;
        coverages: PolicyCoverage[];
        quote: QuoteResult;
        status: string;
        startDate: string;
        endDate: string;
        verificationCode: string;
      }>(
        sql`select p.number, p.product_id::int as "productId", p.coverages, a.quote, p.status,
          p.start_date::text as "startDate", p.end_date::text as "endDate", p.verification_code as "verificationCode"
          from policy p join application a on a.id = p.application_id order by p.issued_at, p.id`,
      )
    ).rows;
    const serials = rows.map((r) => r.number.slice(-8));
    expect(serials).toEqual([...serials].sort());
    const today = shanghaiToday();
    for (const r of rows) {
      expect(r.number).toMatch(/^P(AZX|JZSG|LYBZ)2026\d{8}$/);
      expect(r.verificationCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
      expect(r.coverages).toEqual(
        policyCoversOf((await getProduct(t.database.db, r.productId)).coverages, r.quote),
      );
      expect(r.coverages.length).toBeGreaterThan(0);
      expect(r.status).toBe(policyStatusOn(r, today));
    }
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
      expect(a.policies).toBeGreaterThan(0);
      expect(b).toEqual(a);
    } finally {
      await other.close();
    }
  }, 60_000);
});

describe('the policy lists and pages on the volume set (HTTP, as the bench reads them)', () => {
  interface Row {
    id: number;
    holderUscc: string;
    premiumFen: number;
    applicationId: number;
  }
  const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
  const page = async (token: string) => {
    const res = await get(token, '/api/policies?size=20&page=0');
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { content: Row[]; totalElements: number };
  };
  /** The policies whose application `where` selects (u: the user named), newest first: the count, page 1's ids. */
  const expected = (username: string, where: ReturnType<typeof sql>) =>
    one<{ n: number; ids: number[] }>(
      t,
      sql`select count(*)::int as n, coalesce((array_agg(p.id::int order by p.id desc))[1:20], '{}') as ids
        from policy p join application a on a.id = p.application_id join customer c on c.id = a.customer_id
        join app_user u on u.username = ${username}
        where ${where}`,
    );
  let agent: string;
  let enterprise: string;
  beforeAll(async () => {
    agent = await tokenFor(t, VOLUME_ACCOUNTS.agent, DEMO_PASSWORD);
    enterprise = await tokenFor(t, VOLUME_ACCOUNTS.enterprise, DEMO_PASSWORD);
  });

  it("an agent's page 1 is full: the policies of their own and their clients' applications, newest first", async () => {
    const want = await expected(VOLUME_ACCOUNTS.agent, sql`u.id in (a.owner_id, a.agent_id, c.owner_id)`);
    expect(want.n).toBeGreaterThan(20);
    const got = await page(agent);
    expect(got.totalElements).toBe(want.n);
    expect(got.content.map((r) => r.id)).toEqual(want.ids);
    // Page 2 continues it, read branch by branch as page 1 (owner, agent, clients).
    const { ids } = await one<{ ids: number[] }>(
      t,
      sql`select (array_agg(p.id::int order by p.id desc))[21:40] as ids
        from policy p join application a on a.id = p.application_id join customer c on c.id = a.customer_id
        join app_user u on u.username = ${VOLUME_ACCOUNTS.agent} where u.id in (a.owner_id, a.agent_id, c.owner_id)`,
    );
    const second = await get(agent, '/api/policies?size=20&page=1');
    expect((second.json() as { content: Row[] }).content.map((r) => r.id)).toEqual(ids);
  });

  it("an enterprise's page 1: the policies of its own enterprise only", async () => {
    const want = await expected(VOLUME_ACCOUNTS.enterprise, sql`c.uscc = u.uscc or a.owner_id = u.id`);
    expect(want.n).toBeGreaterThan(0);
    const got = await page(enterprise);
    expect(got.totalElements).toBe(want.n);
    expect(got.content.map((r) => r.id)).toEqual(want.ids);
    const { uscc } = await one<{ uscc: string }>(
      t,
      sql`select uscc from app_user where username = ${VOLUME_ACCOUNTS.enterprise}`,
    );
    expect(new Set(got.content.map((r) => r.holderUscc))).toEqual(new Set([uscc]));
    // The administrator sees every policy, more than either.
    const all = await page(await tokenFor(t, ADMIN.username, ADMIN.password));
    const { n } = await one<{ n: number }>(t, sql`select count(*)::int as n from policy`);
    expect(all.totalElements).toBe(n);
    expect(n).toBeGreaterThan(want.n);
  });

  it("each agent's and enterprise's page 1 in turn, filled from one statement's shape, holds only their own", async () => {
    const filled = shapeStats.filled;
    for (const [names, where] of [
      [
        ['vol_agent_002', 'vol_agent_003', 'vol_agent_004'],
        sql`u.id in (a.owner_id, a.agent_id, c.owner_id)`,
      ],
      [['vol_ent_0002', 'vol_ent_0003', 'vol_ent_0004'], sql`c.uscc = u.uscc or a.owner_id = u.id`],
    ] as const) {
      for (const name of names) {
        const want = await expected(name, where);
        const got = await page(await tokenFor(t, name, DEMO_PASSWORD));
        expect(got.content.map((r) => r.id)).toEqual(want.ids);
        expect(got.totalElements).toBe(want.n);
      }
    }
    expect(shapeStats.filled - filled).toBeGreaterThanOrEqual(4);
  });

  it("a policy's page: amounts in integer fen as quoted, paid and issued; its e-policy drawn on first download", async () => {
    const { uscc } = await one<{ uscc: string }>(
      t,
      sql`select uscc from app_user where username = ${VOLUME_ACCOUNTS.enterprise}`,
    );
    const row = (await page(agent)).content.find((r) => r.holderUscc !== uscc)!;
    const res = await get(agent, `/api/policies/${row.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json();
    const a = await one<{ premium: number; fee: number; number: string }>(
      t,
      sql`select premium_fen::int as premium, prevention_fee_fen::int as fee, number from application
        where id = ${row.applicationId}`,
    );
    expect(Number.isInteger(p.premiumFen)).toBe(true);
    expect(p.premiumFen).toBeGreaterThan(0);
    expect(p).toMatchObject({
      premiumFen: a.premium,
      preventionFeeFen: a.fee,
      application: { id: row.applicationId, number: a.number, status: 'ISSUED' },
      document: { sha256: '', sizeBytes: 0 },
    });
    expect(row.premiumFen).toBe(a.premium);
    expect(p.payments).toEqual([
      expect.objectContaining({ amountFen: a.premium, provider: 'sandbox', source: 'query' }),
    ]);
    expect(p.events.map((e: { action: string }) => e.action)).toEqual([
      'create',
      'submit',
      'approve',
      'pay',
      'issue',
    ]);
    const split = p.coverages.filter((c: { premiumFen: number | null }) => c.premiumFen !== null);
    if (split.length === p.coverages.length)
      expect(split.reduce((s: number, c: { premiumFen: number }) => s + c.premiumFen, 0)).toBe(a.premium);
    // Not the enterprise's: it answers 404, as does another agent's policy to this agent.
    expect((await get(enterprise, `/api/policies/${row.id}`)).statusCode).toBe(404);
    const { other } = await one<{ other: number }>(
      t,
      sql`select p.id::int as other from policy p join application a on a.id = p.application_id
        join customer c on c.id = a.customer_id join app_user u on u.username = ${VOLUME_ACCOUNTS.agent}
        where u.id not in (a.owner_id, coalesce(a.agent_id, 0), c.owner_id) limit 1`,
    );
    expect((await get(agent, `/api/policies/${other}`)).statusCode).toBe(404);

    const pdf = await get(agent, `/api/policies/${row.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const sha = createHash('sha256').update(pdf.rawPayload).digest('hex');
    expect(pdf.headers['x-content-sha256']).toBe(sha);
    expect((await get(agent, `/api/policies/${row.id}`)).json().document).toMatchObject({
      sha256: sha,
      sizeBytes: pdf.rawPayload.length,
    });
    expect((await get(agent, `/api/policies/${row.id}/pdf`)).rawPayload.equals(pdf.rawPayload)).toBe(true);
    const verified = await t.app.inject({ method: 'GET', url: `/api/policies/verify/${p.verificationCode}` });
    expect(verified.json()).toMatchObject({ valid: true, policyNumber: p.number, premiumFen: a.premium });
  });

  it("a client handed to another agent takes its policies along: the new agent's list has them, the old one's not", async () => {
    const other = 'vol_agent_002';
    // A client of the first agent with a policy entered by someone else (the enterprise itself), so the client's
    // owner is the only way the agents see it.
    const moved = await one<{ customer: number; policy: number } | undefined>(
      t,
      sql`select c.id::int as customer, p.id::int as policy from policy p join application a on a.id = p.application_id
        join customer c on c.id = a.customer_id join app_user u on u.username = ${VOLUME_ACCOUNTS.agent}
        where c.owner_id = u.id and a.owner_id <> u.id and a.agent_id is distinct from u.id limit 1`,
    );
    expect(moved).toBeDefined();
    const ids = async (token: string) => {
      const res = await get(token, `/api/policies?customerId=${moved!.customer}&size=50&page=0`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { content: Row[] }).content.map((r) => r.id);
    };
    const second = await tokenFor(t, other, DEMO_PASSWORD);
    expect(await ids(agent)).toContain(moved!.policy);
    expect(await ids(second)).not.toContain(moved!.policy);

    await t.database.db.execute(
      sql`update customer set owner_id = (select id from app_user where username = ${other}) where id = ${moved!.customer}`,
    );
    expect(await ids(agent)).not.toContain(moved!.policy);
    expect(await ids(second)).toContain(moved!.policy);
    for (const [username, token] of [
      [VOLUME_ACCOUNTS.agent, agent],
      [other, second],
    ] as const) {
      const want = await expected(username, sql`u.id in (a.owner_id, a.agent_id, c.owner_id)`);
      expect((await page(token)).totalElements, username).toBe(want.n);
    }
  });
});
