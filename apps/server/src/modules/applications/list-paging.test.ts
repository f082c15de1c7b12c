// insureList at depth: keyset (cursor) pages against offset pages, ties, the cached count and data scope, on a
// small volume data set (apps/server/src/demo/volume.ts).
import { eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../../test/admin.ts';
import { tokenFor } from '../../../test/auth.ts';
import { type Client, createWorld, type World } from '../../../test/business.ts';
import { applications, customers, products, users } from '../../db/schema.ts';
import { DEMO_PASSWORD } from '../../demo/base.ts';
import { demoUser } from '../../demo/user.ts';
import { seedVolume } from '../../demo/volume.ts';
import { keyedContains } from '../../lib/filters.ts';
import { CountCache, CURSOR_INVALID } from '../../lib/keyset.ts';
import { customerViewerOf } from '../customers/access.ts';
import { applicationScopeBranches } from './access.ts';
import { listApplications } from './queries.ts';

type Row = { id: number; number: string; updatedAt: string; createdAt: string; ownerId: number };
type PageAnswer = {
  content: Row[];
  totalElements: number;
  cursors: { before: string; after: string } | null;
};

let w: World;
let agent: Client;
let ent: Client;
beforeAll(async () => {
  w = await createWorld();
  await seedVolume(w.t.database.db, { applications: 300, customers: 40, agents: 4, enterprises: 4 });
  agent = client(w.t, await tokenFor(w.t, 'vol_agent_001', DEMO_PASSWORD));
  ent = client(w.t, await tokenFor(w.t, 'vol_ent_0001', DEMO_PASSWORD));
}, 60_000);
afterAll(() => w.t.close());

async function page(who: Client, query: string): Promise<PageAnswer> {
  const res = await who.get(`/api/applications?${query}`);
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json();
}

/** Every page by cursor (after), first to last; answers the pages. */
async function walkForward(who: Client, query: string, size: number): Promise<PageAnswer[]> {
  const pages = [await page(who, `${query}&size=${size}&page=0`)];
  for (let n = 1; pages.at(-1)!.content.length === size; n++) {
    const after = pages.at(-1)!.cursors!.after;
    pages.push(await page(who, `${query}&size=${size}&page=${n}&after=${after}`));
  }
  return pages;
}

const ids = (pages: PageAnswer[]) => pages.flatMap((p) => p.content.map((r) => r.id));

describe('cursor pages equal offset pages', () => {
  for (const sort of ['', 'sort=updatedAt,desc', 'sort=createdAt,asc', 'sort=number,desc', 'sort=id,asc']) {
    it(`forward and backward, ${sort || 'no sort (id desc)'}`, async () => {
      const size = 23;
      const forward = await walkForward(w.admin, sort, size);
      const all = (await page(w.admin, `${sort}&size=500`)).content.map((r) => r.id);
      expect(all.length).toBeGreaterThanOrEqual(300);
      expect(ids(forward)).toEqual(all);
      for (const [n, p] of forward.entries()) {
        const byOffset = await page(w.admin, `${sort}&size=${size}&page=${n}`);
        expect(p.content.map((r) => r.id)).toEqual(byOffset.content.map((r) => r.id));
        expect(p.totalElements).toBe(all.length);
      }
      // The cursor, not the page number, positions the page (the number only feeds the total).
      const third = await page(w.admin, `${sort}&size=${size}&page=0&after=${forward[1]!.cursors!.after}`);
      expect(third.content.map((r) => r.id)).toEqual(forward[2]!.content.map((r) => r.id));
      // Back from the last page by `before`.
      for (let n = forward.length - 2; n >= 0; n--) {
        const before = forward[n + 1]!.cursors!.before;
        const back = await page(w.admin, `${sort}&size=${size}&page=${n}&before=${before}`);
        expect(back.content.map((r) => r.id)).toEqual(forward[n]!.content.map((r) => r.id));
        expect(back.cursors).toEqual(forward[n]!.cursors);
      }
    });
  }

  it('keeps filters with the cursor, and orders without a keyset answer no cursors', async () => {
    const pages = await walkForward(w.admin, 'status=DRAFT&sort=updatedAt,desc', 17);
    const rows = await w.t.database.db
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.status, 'DRAFT'));
    expect(new Set(ids(pages))).toEqual(new Set(rows.map((r) => r.id)));
    expect(pages[0]!.totalElements).toBe(rows.length);
    const byPremium = await page(w.admin, 'sort=premiumFen,desc&size=10');
    expect(byPremium.cursors).toBeNull();
    expect(byPremium.content).toHaveLength(10);
  });
});

describe('ties', () => {
  it('rows with the same timestamp are neither repeated nor skipped, by cursor or by offset', async () => {
    const db = w.t.database.db;
    // 40 rows share one updated_at (as one transaction's now() would give them).
    await db.execute(sql`update application set updated_at = timestamptz '2026-03-01 10:00:00.123456+08'
      where id in (select id from application order by id limit 40)`);
    const size = 7;
    const forward = await walkForward(w.admin, 'sort=updatedAt,desc', size);
    const seen = ids(forward);
    expect(new Set(seen).size).toBe(seen.length);
    const [{ n } = { n: 0 }] = (
      await db.execute<{ n: number }>(sql`select count(*)::int as n from application`)
    ).rows;
    expect(seen).toHaveLength(n);
    for (const [k, p] of forward.entries()) {
      const byOffset = await page(w.admin, `sort=updatedAt,desc&size=${size}&page=${k}`);
      expect(p.content.map((r) => r.id)).toEqual(byOffset.content.map((r) => r.id));
    }
    // Within the tie, id decides (descending, as the sort).
    const tied = forward
      .flatMap((p) => p.content)
      .filter((r) => r.updatedAt === '2026-03-01T02:00:00.123Z')
      .map((r) => r.id);
    expect(tied).toHaveLength(40);
    expect(tied).toEqual([...tied].sort((a, b) => b - a));
  });
});

describe('the count', () => {
  it('is cached per filter and data scope, and a new application makes it stale', async () => {
    const db = w.t.database.db;
    const admin = (await demoUser(db, 'admin'))!;
    const viewer = await customerViewerOf(db, admin);
    const counts = new CountCache();
    const q = { page: 0, size: 10 };
    const first = await listApplications(db, viewer, q, counts);
    const second = await listApplications(db, viewer, { ...q, page: 3, after: first.cursors!.after }, counts);
    expect(second.totalElements).toBe(first.totalElements);
    expect([counts.misses, counts.hits]).toEqual([1, 1]);
    // Another filter is another entry.
    await listApplications(db, viewer, { ...q, status: 'DRAFT' }, counts);
    expect(counts.misses).toBe(2);

    // Through the API: a new application (made by the world's enterprise) counts at once.
    const before = (await page(w.admin, 'size=10')).totalElements;
    const [p] = await db.select({ id: products.id }).from(products).where(eq(products.code, 'AZX_GM_2025'));
    const [c] = await db
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.ownerId, (await idOf('vol_agent_001'))!));
    const made = await agent.post('/api/applications', { productId: p!.id, customerId: c!.id });
    expect(made.statusCode, made.body).toBe(200);
    expect((await page(w.admin, 'size=10')).totalElements).toBe(before + 1);
    await listApplications(db, viewer, q, counts);
    expect(counts.misses).toBe(3);
    expect((await listApplications(db, viewer, q, counts)).totalElements).toBe(before + 1);
    expect(counts.hits).toBe(2);
  });
});

async function idOf(username: string): Promise<number | undefined> {
  const [u] = await w.t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  return u?.id;
}

describe('data scope with cursors', () => {
  it("an agent walks exactly their own and their clients' applications; an enterprise its own", async () => {
    const db = w.t.database.db;
    const agentId = (await idOf('vol_agent_001'))!;
    const mine = await db.execute<{ id: number }>(sql`select a.id from application a
      where a.owner_id = ${agentId} or a.agent_id = ${agentId}
         or a.customer_id in (select id from customer where owner_id = ${agentId})`);
    const walked = await walkForward(agent, 'sort=updatedAt,desc', 9);
    expect(new Set(ids(walked))).toEqual(new Set(mine.rows.map((r) => Number(r.id))));
    expect(walked[0]!.totalElements).toBe(mine.rows.length);

    const [me] = await db.select({ uscc: users.uscc }).from(users).where(eq(users.username, 'vol_ent_0001'));
    const theirs = await db.execute<{ id: number }>(sql`select a.id from application a
      join customer c on c.id = a.customer_id where c.uscc = ${me!.uscc}`);
    const entPages = await walkForward(ent, '', 4);
    expect(new Set(ids(entPages))).toEqual(new Set(theirs.rows.map((r) => Number(r.id))));
    expect(theirs.rows.length).toBeGreaterThan(0);
  });

  it("another caller's cursor only positions the list: it shows nothing the caller may not see", async () => {
    const adminPage = await page(w.admin, 'size=50');
    const res = await page(agent, `size=500&page=1&after=${adminPage.cursors!.after}`);
    const visible = new Set(ids(await walkForward(agent, '', 500)));
    expect(res.content.length).toBeGreaterThan(0);
    for (const r of res.content) expect(visible.has(r.id)).toBe(true);
  });
});

describe('indexes that fit the data scope and the keyword search (migration 0017)', () => {
  /** The plan of `query` with sequential scans priced out (the test data is small enough to scan). */
  async function planOf(query: SQL): Promise<string> {
    return w.t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const res = await tx.execute<{ 'QUERY PLAN': string }>(sql`explain ${query}`);
      return res.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  it("each branch of an agent's scope reads its newest rows from its own index, in list order", async () => {
    const db = w.t.database.db;
    const [me] = await db.select().from(users).where(eq(users.username, 'vol_agent_001'));
    const viewer = await customerViewerOf(db, { ...me!, roles: ['agent'] } as never);
    const branches = applicationScopeBranches(db, viewer)!;
    expect(branches).toHaveLength(3);
    const plans = await Promise.all(
      branches.map((b) =>
        planOf(sql`select id from application where ${b} order by updated_at desc, id desc limit 20`),
      ),
    );
    expect(plans[0]).toMatch(/Index (Only )?Scan Backward using application_owner_updated/);
    expect(plans[1]).toMatch(/Index (Only )?Scan Backward using application_agent_updated/);
    // The client branch (customer_id = any(the agent's clients)): the embedded PostgreSQL 18 reads its own index;
    // PostgreSQL 15 (CI's server) prices walking the date index with a filter cheaper on this small set, so there
    // only the first two branches are held to their indexes.
    const version = await db.execute<{ v: string }>(sql`select current_setting('server_version_num') as v`);
    const modern = Number(version.rows[0]!.v) >= 180000;
    if (modern) expect(plans[2]).toMatch(/application_customer_updated/);
    for (const plan of modern ? plans : plans.slice(0, 2)) expect(plan).not.toMatch(/application_updated_id/);
  });

  it('"contains" on names, numbers and credit codes is a trigram index search', async () => {
    const name = keyedContains('安全', customers.searchKey, customers.name, customers.uscc);
    expect(await planOf(sql`select id from customer where ${name}`)).toMatch(/customer_search_trgm/);
    const number = keyedContains('TB2026', applications.searchKey, applications.number);
    expect(await planOf(sql`select id from application where ${number}`)).toMatch(/application_search_trgm/);
  });

  it('finds Chinese and mixed-case text, and nothing the search key matches only across characters', async () => {
    const db = w.t.database.db;
    const [c] = await db.select().from(customers).orderBy(customers.id).limit(1);
    // 甲 (U+7532, 30002) is "n5e" in the search key: "N5E" finds the key, not the name.
    await db
      .update(customers)
      .set({ name: '测试Ab@甲乙企业', uscc: '91330100MA2B3C0X5E', contactName: '王五' })
      .where(eq(customers.id, c!.id));
    const search = async (text: string) =>
      (await w.admin.get(`/api/customers?size=100&blurry=${encodeURIComponent(text)}`)).json().content as {
        id: number;
      }[];
    for (const text of ['甲乙', '试ab', 'AB@', 'ma2b3c0x'])
      expect((await search(text)).map((r) => r.id)).toContain(c!.id);
    const [key] = (
      await db.execute<{ key: boolean; exact: boolean }>(
        sql`select piibs_text_key('甲') like '%' || piibs_text_key('N5E') || '%' as key, '甲' ilike '%N5E%' as exact`,
      )
    ).rows;
    expect(key).toEqual({ key: true, exact: false });
    expect((await search('N5E')).map((r) => r.id)).not.toContain(c!.id);
  });
});

describe('bad cursors', () => {
  it('answer 400 naming 游标: mangled, made for another order, both directions, an order without keyset', async () => {
    const p = await page(w.admin, 'sort=updatedAt,desc&size=5');
    const after = p.cursors!.after;
    const tries = [
      'after=not-a-cursor',
      `after=${Buffer.from('["updatedAt,desc","yesterday",1]').toString('base64url')}`,
      `sort=updatedAt,desc&after=${Buffer.from('["updatedAt,desc","2026-02-30T00:00:00.000000Z",1]').toString('base64url')}`,
      `sort=number,asc&after=${Buffer.from('["number,asc","AZX\\u0000",1]').toString('base64url')}`,
      `sort=updatedAt,asc&after=${after}`,
      `sort=createdAt,desc&after=${after}`,
      `sort=updatedAt,desc&after=${after}&before=${p.cursors!.before}`,
      `sort=premiumFen,desc&after=${after}`,
    ];
    for (const q of tries) {
      const res = await w.admin.get(`/api/applications?page=1&size=5&${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message, q).toMatch(/^游标：/);
    }
    expect((await w.admin.get('/api/applications?after=x')).json().message).toBe(CURSOR_INVALID);
  });
});
