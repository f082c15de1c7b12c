import { readFileSync } from 'node:fs';
import path from 'node:path';
import { usccCheckChar } from '@piibs/shared';
import { sectionOfDivision } from '@piibs/shared/industry';
import type { MenuRoute } from '@piibs/shared/menu';
import { and, desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, expectDownloadName, giveRole, readXlsx, roleWith } from '../../../test/admin.ts';
import { createUser, tokenFor } from '../../../test/auth.ts';
import { type Client, createWorld, customerForm, newUscc, type World } from '../../../test/business.ts';
import {
  auditLog,
  customers,
  dictDetails,
  dicts,
  menus,
  roleMenus,
  roles,
  systemSettings,
} from '../../db/schema.ts';
import { demoUser } from '../../demo/user.ts';
import { CountCache } from '../../lib/keyset.ts';
import { paginate } from '../../lib/paging.ts';
import { shapeStats } from '../../lib/statement-shapes.ts';
import { forgetSessions } from '../auth/sessions.ts';
import { dictLabels, dictLabelsChanged } from '../dicts/labels.ts';
import { syncSeedMenus } from '../menus/seed.ts';
import { bumpMenuVersion } from '../menus/service.ts';
import { customerViewerOf } from './access.ts';
import { type CustomerFilter, customerListSpec } from './service.ts';

let w: World;
/** Staff with customer:list/edit/unmask but data scope 'self': sees only what they created. */
let clerk: Client;
beforeAll(async () => {
  w = await createWorld();
  const roleId = await roleWith(w.t, 'clerk', ['customer:list', 'customer:edit', 'customer:unmask'], {
    dataScope: 'self',
  });
  const id = await createUser(w.t, { username: 'clerk' });
  await giveRole(w.t, id, roleId);
  clerk = client(w.t, await tokenFor(w.t, 'clerk'));
});
afterAll(() => w.t.close());

type Customer = {
  id: number;
  uscc: string;
  phone: string;
  version: number;
  reviewStatus: string;
  openTaskId: number | null;
  ownerId: number | null;
  regionName: string | null;
};

const create = async (who: Client, over: Parameters<typeof customerForm>[0] = {}): Promise<Customer> => {
  const res = await who.post('/api/customers', customerForm(over));
  if (res.statusCode !== 200) throw new Error(`create: ${res.statusCode} ${res.body}`);
  return res.json();
};
const FORM_FIELDS = [
  'uscc',
  'name',
  'industrySection',
  'industryDivision',
  'region',
  'address',
  'legalRepresentative',
  'contactName',
  'phone',
  'headcount',
] as const;
/** The update body of a record as loaded (phone masked), with changes. */
const updateBody = (c: Customer, over: Parameters<typeof customerForm>[0] = {}) => ({
  ...Object.fromEntries(FORM_FIELDS.map((k) => [k, (c as unknown as Record<string, unknown>)[k]])),
  ...over,
  id: c.id,
  version: c.version,
});

describe('customer code: GB 32100 with its check character, or the spec’s tax-number forms', () => {
  const body = '91321100MA1TEQT00';
  const check = usccCheckChar(body)!;
  const wrong = check === '0' ? '1' : '0';
  it.each([
    ['a valid GB 32100 code', `${body}${check}`, 200],
    ['the 15-character tax form (3 letters + 12 digits)', 'ZJA321100000001', 200],
    ['a bad check character', `${body}${wrong}`, 400],
    ['17 characters', body, 400],
    ['19 characters', `${body}${check}0`, 400],
    ['a 15-character form with digits only', '321100000000001', 400],
  ])('%s (%s) → %i', async (_what, uscc, status) => {
    const res = await w.agent.post('/api/customers', customerForm({ uscc }));
    expect(res.statusCode, res.body).toBe(status);
    if (status === 400)
      expect(res.json()).toEqual({
        status: 400,
        message: '统一社会信用代码：请输入正确的统一社会信用代码',
        errors: [{ field: 'uscc', message: '请输入正确的统一社会信用代码' }],
      });
    else expect(res.json().uscc).toBe(uscc);
  });

  it('refuses codes not in the dictionaries and a division outside its section, naming the field', async () => {
    expect((await w.agent.post('/api/customers', customerForm({ region: '110101' }))).json()).toEqual({
      status: 400,
      message: '所在地区：字典中没有代码 110101',
      errors: [{ field: 'region', message: '字典中没有代码 110101' }],
    });
    expect(
      (
        await w.agent.post('/api/customers', customerForm({ industrySection: 'F', industryDivision: '34' }))
      ).json().message,
    ).toBe('行业大类：不属于所选行业门类');
  });
});

describe('uniqueness under concurrent creation', () => {
  it('two creates of the same code at once: one 200, the other 409', async () => {
    const form = customerForm();
    const results = await Promise.all([
      w.agent.post('/api/customers', form),
      w.agent2.post('/api/customers', form),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.statusCode === 409)!;
    expect(loser.json().message).toMatch(/统一社会信用代码已存在/);
    // Sequentially too, whatever the case of the letters.
    expect(
      (await w.agent.post('/api/customers', { ...form, uscc: form.uscc.toLowerCase() })).statusCode,
    ).toBe(409);
  });

  it('a CA certificate binds one customer', async () => {
    const fingerprint = 'ab'.repeat(32);
    await create(w.agent, { caFingerprint: fingerprint });
    const res = await w.agent.post('/api/customers', customerForm({ caFingerprint: fingerprint }));
    expect(res.json()).toEqual({ status: 409, message: 'CA证书指纹已绑定其他投保人' });
  });
});

describe('review on create and edit', () => {
  it('an agent’s new client is pending with an open task; a reviewer’s own is approved at once', async () => {
    const mine = await create(w.agent);
    expect(mine).toMatchObject({ reviewStatus: 'pending', ownerId: w.ids.agent, regionName: '京口区' });
    expect(mine.openTaskId).toBeGreaterThan(0);
    const staff = await create(w.underwriter);
    expect(staff).toMatchObject({ reviewStatus: 'approved', openTaskId: null, ownerId: null });
  });

  it('editing an approved record puts it back to pending with a new task; the masked phone keeps the number', async () => {
    const c = await create(w.underwriter);
    const res = await w.underwriter.post(
      '/api/customers/update',
      updateBody(c, { name: '审核员改名有限公司' }),
    );
    expect(res.json()).toMatchObject({ reviewStatus: 'approved', openTaskId: null });
    // An agent's client, approved by the underwriter, then edited by the agent.
    const owned = await create(w.agent);
    const task = (await w.underwriter.get(`/api/tasks/${owned.openTaskId}`)).json();
    const ok = await w.underwriter.post(`/api/tasks/${owned.openTaskId}/decide`, {
      decision: 'approve',
      version: task.version,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const fresh = (await w.agent.get(`/api/customers/${owned.id}`)).json() as Customer;
    expect(fresh.phone).toBe('138****5678');
    const edited = await w.agent.post('/api/customers/update', updateBody(fresh, { headcount: 60 }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ reviewStatus: 'pending', version: fresh.version + 1 });
    expect(edited.json().openTaskId).not.toBe(owned.openTaskId);
    const full = await w.underwriter.post(`/api/customers/${owned.id}/unmask`);
    expect(full.json()).toEqual({ phone: '13812345678' });
    const [change] = await w.t.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'customer'),
          eq(auditLog.entityId, String(owned.id)),
          eq(auditLog.action, 'update'),
        ),
      );
    expect(change!.detail).toEqual({
      before: { headcount: 50, reviewStatus: 'approved' },
      after: { headcount: 60, reviewStatus: 'pending' },
    });
  });

  it('a stale version answers 409; a masked phone that is not the stored one answers 400', async () => {
    const c = await create(w.agent);
    expect((await w.agent.post('/api/customers/update', updateBody(c))).statusCode).toBe(200);
    expect((await w.agent.post('/api/customers/update', updateBody(c))).statusCode).toBe(409);
    const now = (await w.agent.get(`/api/customers/${c.id}`)).json() as Customer;
    const bad = await w.agent.post('/api/customers/update', { ...updateBody(now), phone: '139****0000' });
    expect(bad.json()).toEqual({
      status: 400,
      message: '联系电话：请输入正确的电话号码或者固话号码',
      errors: [{ field: 'phone', message: '请输入正确的电话号码或者固话号码' }],
    });
  });
});

describe('isolation: another tenant’s record answers 404', () => {
  let agentsClient: Customer;
  let entRecord: Customer;
  beforeAll(async () => {
    agentsClient = await create(w.agent);
    entRecord = await create(w.ent, { uscc: w.entUscc });
  });

  it('agents see and edit only their own clients', async () => {
    expect((await w.agent.get(`/api/customers/${agentsClient.id}`)).statusCode).toBe(200);
    expect((await w.agent2.get(`/api/customers/${agentsClient.id}`)).statusCode).toBe(404);
    expect((await w.agent2.post('/api/customers/update', updateBody(agentsClient))).statusCode).toBe(404);
    expect(
      (await w.agent2.post(`/api/customers/${agentsClient.id}/resubmit`, { version: agentsClient.version }))
        .statusCode,
    ).toBe(404);
    const list = (await w.agent2.get('/api/customers?size=500')).json();
    expect(list.content.every((c: Customer) => c.ownerId === w.ids.agent2)).toBe(true);
    expect((await w.agent2.get(`/api/customers?uscc=${agentsClient.uscc}`)).json().totalElements).toBe(0);
  });

  it('an enterprise sees and edits only its own record (by its uscc), and may only register itself', async () => {
    expect((await w.ent.get(`/api/customers/${entRecord.id}`)).statusCode).toBe(200);
    expect((await w.ent.get(`/api/customers/${agentsClient.id}`)).statusCode).toBe(404);
    expect((await w.ent2.get(`/api/customers/${entRecord.id}`)).statusCode).toBe(404);
    expect((await w.ent2.post('/api/customers/update', updateBody(entRecord))).statusCode).toBe(404);
    expect(
      (await w.ent2.post(`/api/customers/${entRecord.id}/resubmit`, { version: entRecord.version }))
        .statusCode,
    ).toBe(404);
    const list = (await w.ent.get('/api/customers')).json();
    expect(list.content.map((c: Customer) => c.uscc)).toEqual([w.entUscc]);
    const other = await w.ent2.post('/api/customers', customerForm({ uscc: newUscc() }));
    expect(other.statusCode).toBe(403);
    const rename = await w.ent.post('/api/customers/update', updateBody(entRecord, { uscc: newUscc() }));
    expect(rename.statusCode).toBe(403);
  });

  it("each caller's list, filled from the statement of the caller before it (one shape), shows only their own", async () => {
    const filled = shapeStats.filled;
    const list = async (who: Client, query = '') =>
      (await who.get(`/api/customers?size=500${query}`)).json().content as Customer[];
    for (const [who, owner] of [
      [w.agent, w.ids.agent],
      [w.agent2, w.ids.agent2],
      [w.agent, w.ids.agent],
    ] as const) {
      const mine = await list(who);
      expect(mine.every((c) => c.ownerId === owner)).toBe(true);
      expect(mine.some((c) => c.id === agentsClient.id)).toBe(owner === w.ids.agent);
      // A filter's value is bound too: the client's own code finds it for its agent only.
      expect((await list(who, `&uscc=${agentsClient.uscc}`)).map((c) => c.id)).toEqual(
        owner === w.ids.agent ? [agentsClient.id] : [],
      );
    }
    expect((await list(w.ent)).map((c) => c.uscc)).toEqual([w.entUscc]);
    expect((await list(w.ent2)).some((c) => c.uscc === w.entUscc)).toBe(false);
    expect(shapeStats.filled - filled).toBeGreaterThanOrEqual(4);
  });

  it('staff see by data scope: unmask, get and update of a record outside it answer 404', async () => {
    expect((await clerk.post(`/api/customers/${agentsClient.id}/unmask`)).statusCode).toBe(404);
    expect((await clerk.get(`/api/customers/${agentsClient.id}`)).statusCode).toBe(404);
    expect((await clerk.post('/api/customers/update', updateBody(agentsClient))).statusCode).toBe(404);
    expect((await clerk.get('/api/customers')).json().totalElements).toBe(0);
    expect((await w.underwriter.get(`/api/customers/${agentsClient.id}`)).statusCode).toBe(200);
  });
});

describe('an enterprise keeps its own record (企业信息), and its edits go back to review', () => {
  let own: Client;
  let uscc: string;
  beforeAll(async () => {
    uscc = newUscc();
    await createUser(w.t, { username: 'ent3', roles: ['17'], channel: 'enterprise', uscc });
    own = client(w.t, await tokenFor(w.t, 'ent3'));
  });

  it('GET /customers/mine: 404 until the enterprise registers itself, then its record (phone masked)', async () => {
    expect((await own.get('/api/customers/mine')).json()).toEqual({
      status: 404,
      message: '本企业尚未登记投保人信息',
    });
    const created = await create(own, { uscc, phone: '13912340000' });
    const mine = await own.get('/api/customers/mine');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({
      id: created.id,
      uscc,
      phone: '139****0000',
      reviewStatus: 'pending',
    });
    expect(mine.body).not.toContain('13912340000');
    // Nobody else has an own record: staff and agents are no enterprise, another enterprise has its own code.
    expect((await w.underwriter.get('/api/customers/mine')).json()).toEqual({
      status: 404,
      message: '当前账号未关联企业（统一社会信用代码），没有本企业的投保人信息',
    });
    expect((await w.agent.get('/api/customers/mine')).statusCode).toBe(404);
    expect((await w.ent2.get('/api/customers/mine')).json().message).toBe('本企业尚未登记投保人信息');
    expect((await w.nobody.get('/api/customers/mine')).statusCode).toBe(403);
  });

  it('the underwriter approves it → the enterprise edits it → 200, pending again with a new open task', async () => {
    const before = (await own.get('/api/customers/mine')).json() as Customer;
    const first = before.openTaskId!;
    const task = (await w.underwriter.get(`/api/tasks/${first}`)).json();
    const ok = await w.underwriter.post(`/api/tasks/${first}/decide`, {
      decision: 'approve',
      version: task.version,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const approved = (await own.get('/api/customers/mine')).json() as Customer;
    expect(approved).toMatchObject({ reviewStatus: 'approved', openTaskId: null });

    const edited = await own.post('/api/customers/update', updateBody(approved, { headcount: 80 }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      reviewStatus: 'pending',
      headcount: 80,
      version: approved.version + 1,
    });
    const next = edited.json().openTaskId as number;
    expect(next).toBeGreaterThan(0);
    expect(next).not.toBe(first);
    const queued = (await w.underwriter.get(`/api/tasks/${next}`)).json();
    expect(queued).toMatchObject({ kind: 'customer', subjectId: approved.id, status: 'open' });
    expect((await own.get('/api/customers/mine')).json()).toMatchObject({
      reviewStatus: 'pending',
      openTaskId: next,
    });
  });

  it('its menu has a visible 企业信息 entry that opens the record; an older database gets it at start', async () => {
    const entry = async (who: Client) => {
      const tree = (await who.get('/api/menus/build')).json() as MenuRoute[];
      const applicant = tree.find((r) => r.path === '/piibs/applicant');
      return applicant?.children?.find((c) => c.path === 'newUpdate/mine/false');
    };
    const expected = { component: 'applicant/ApplicantEdit', hidden: false, meta: { title: '企业信息' } };
    expect(await entry(own)).toMatchObject(expected);
    expect(await entry(w.underwriter)).toBeUndefined();
    expect(await entry(w.agent)).toBeUndefined();

    // A database set up before the entry existed (no record of the seed's keys either).
    const db = w.t.database.db;
    await db.delete(menus).where(eq(menus.path, 'newUpdate/mine/false'));
    await db.delete(systemSettings).where(eq(systemSettings.key, 'seed.menus'));
    await bumpMenuVersion(db);
    forgetSessions(); // as the write request or the restart making such changes does (the version is read with them)
    expect(await entry(own)).toBeUndefined();
    expect(await syncSeedMenus(db)).toBeGreaterThan(0);
    forgetSessions();
    expect(await entry(own)).toMatchObject(expected);
    const [row] = await db.select().from(menus).where(eq(menus.path, 'newUpdate/mine/false'));
    const granted = await db
      .select({ code: roles.code })
      .from(roleMenus)
      .innerJoin(roles, eq(roles.id, roleMenus.roleId))
      .where(eq(roleMenus.menuId, row!.id));
    expect(granted.map((g) => g.code)).toEqual(['17']);
  });
});

describe('data protection: phones masked in lists and exports, unmasking audited', () => {
  it('masks in the list and the detail', async () => {
    const c = await create(w.agent, { phone: '13987654321' });
    const list = await w.underwriter.get(`/api/customers?uscc=${c.uscc}`);
    expect(list.json().content[0].phone).toBe('139****4321');
    expect(list.body).not.toContain('13987654321');
    expect((await w.underwriter.get(`/api/customers/${c.id}`)).body).not.toContain('13987654321');
    const landline = await create(w.agent, { phone: '0511-85551234' });
    expect(landline.phone).toBe('051******1234');
  });

  it('masks in the export, which follows the list filters', async () => {
    const c = await create(w.agent, { phone: '13711112222', name: '导出测试企业有限公司' });
    const file = await w.underwriter.get(`/api/customers/download?blurry=${encodeURIComponent('导出测试')}`);
    expect(file.statusCode).toBe(200);
    expectDownloadName(file.headers['content-disposition'], '投保人数据');
    const rows = await readXlsx(file.rawPayload);
    expect(rows[0]).toEqual(expect.arrayContaining(['统一社会信用代码', '联系电话', '审核状态']));
    const phoneAt = rows[0]!.indexOf('联系电话');
    expect(rows.slice(1).map((r) => [r[0], r[phoneAt]])).toEqual([[c.uscc, '137****2222']]);
    expect(rows[1]).toContain('待审核');
    expect(rows[1]).toContain('京口区');
    expect(rows.flat().join()).not.toContain('13711112222');
  });

  it('unmask answers the full number and writes who read it to the audit trail', async () => {
    const c = await create(w.agent, { phone: '13655556666' });
    const res = await w.underwriter.post(`/api/customers/${c.id}/unmask`);
    expect(res.json()).toEqual({ phone: '13655556666' });
    expect(res.headers['cache-control']).toBe('no-store');
    const [entry] = await w.t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'unmask'), eq(auditLog.entityId, String(c.id))))
      .orderBy(desc(auditLog.id));
    expect(entry).toMatchObject({ actorName: 'uw', entity: 'customer', detail: { field: 'phone' } });
  });
});

describe('customers: permissions', () => {
  it('403 without the permission code', async () => {
    const c = await create(w.agent);
    expect((await w.nobody.get('/api/customers')).statusCode).toBe(403);
    expect((await w.nobody.get(`/api/customers/${c.id}`)).statusCode).toBe(403);
    expect((await w.nobody.post('/api/customers', customerForm())).statusCode).toBe(403);
    expect((await w.nobody.post('/api/customers/update', updateBody(c))).statusCode).toBe(403);
    expect((await w.agent.post(`/api/customers/${c.id}/unmask`)).statusCode).toBe(403);
    expect((await w.ent.post(`/api/customers/${c.id}/unmask`)).statusCode).toBe(403);
    expect((await w.t.app.inject({ method: 'GET', url: '/api/customers' })).statusCode).toBe(401);
  });

  it('pages and sorts, refusing unknown sort fields', async () => {
    const page = await w.underwriter.get('/api/customers?page=0&size=3&sort=name,asc');
    expect(page.statusCode).toBe(200);
    expect(page.json().content).toHaveLength(3);
    expect(page.json().totalElements).toBeGreaterThan(3);
    expect((await w.underwriter.get('/api/customers?sort=phone,asc')).json().message).toMatch(/^排序字段：/);
    const pending = (await w.underwriter.get('/api/customers?reviewStatus=pending&size=500')).json();
    expect(pending.content.every((c: Customer) => c.reviewStatus === 'pending')).toBe(true);
  });
});

describe('GB/T 4754 sections', () => {
  it('the shared section → division ranges agree with the reference data the dictionaries are seeded from', () => {
    const file = path.join(import.meta.dirname, '../../db/data/industries.json');
    const sections = JSON.parse(readFileSync(file, 'utf8')) as {
      code: string;
      children: { code: string }[];
    }[];
    for (const s of sections)
      for (const d of s.children) expect(sectionOfDivision(d.code), d.code).toBe(s.code);
  });
});

describe('the list’s count', () => {
  it('is cached per filter and data scope, and any change of a customer makes it stale', async () => {
    const db = w.t.database.db;
    const viewer = await customerViewerOf(db, (await demoUser(db, 'admin'))!);
    const counts = new CountCache();
    const total = async (f: CustomerFilter = {}) =>
      (await paginate({ page: 0, size: 1 }, customerListSpec(db, viewer, f, counts))).totalElements;
    const before = await total();
    expect(await total()).toBe(before);
    expect([counts.misses, counts.hits]).toEqual([1, 1]);

    const made = await create(w.admin, { name: '计数缓存测试企业甲' });
    expect(await total()).toBe(before + 1);
    await create(w.admin, { name: '计数缓存测试企业乙' });
    expect(await total({ blurry: '计数缓存' })).toBe(2);
    // A rename (another statement on customer) moves one out of the keyword's rows at once.
    await db.update(customers).set({ name: '已更名企业' }).where(eq(customers.id, made.id));
    expect(await total({ blurry: '计数缓存' })).toBe(1);
    expect(counts.misses).toBe(4);
  });
});

describe('the list’s dictionary labels', () => {
  it('come from memory: an entry renamed through the administration shows on the next page, one changed in the database within a minute', async () => {
    const db = w.t.database.db;
    await create(w.agent, { name: '字典标签测试企业' });
    const regionShown = async () =>
      (await w.agent.get(`/api/customers?blurry=${encodeURIComponent('字典标签测试')}`)).json().content[0]
        .regionName;
    expect(await regionShown()).toBe('京口区');
    const [entry] = await db
      .select({ id: dictDetails.id, sort: dictDetails.sort })
      .from(dictDetails)
      .innerJoin(dicts, eq(dicts.id, dictDetails.dictId))
      .where(and(eq(dictDetails.value, '321102'), like(dicts.name, 'region\\_%')));
    try {
      const renamed = await w.admin.post('/api/dictDetail/update', {
        id: entry!.id,
        label: '京口区（新）',
        value: '321102',
        sort: entry!.sort,
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(await regionShown()).toBe('京口区（新）');

      await db.update(dictDetails).set({ label: '京口' }).where(eq(dictDetails.id, entry!.id));
      expect(await regionShown()).toBe('京口区（新）');
      expect((await dictLabels(db, Date.now() + 61_000)).region('321102')).toBe('京口');
      expect(await regionShown()).toBe('京口');
    } finally {
      await db.update(dictDetails).set({ label: '京口区' }).where(eq(dictDetails.id, entry!.id));
      dictLabelsChanged(db);
    }
  });
});
