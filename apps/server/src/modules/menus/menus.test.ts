import type { MenuRoute } from '@piibs/shared/menu';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createUser, initSystem, tokenFor } from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { dicts, menus, roleMenus, roles, systemSettings, userRoles } from '../../db/schema.ts';
import { forgetSessions } from '../auth/sessions.ts';
import { seedDictionaries } from '../dicts/seed.ts';
import { SEED_MENUS, syncSeedMenus } from './seed.ts';

let t: TestContext;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  await initSystem(t);
  await createUser(t, { username: 'uw', roles: ['underwriter'] });
  await createUser(t, { username: 'ent', roles: ['17'], channel: 'enterprise' });
  await createUser(t, { username: 'nobody', roles: [] });
  tokens.admin = await tokenFor(t, ADMIN.username, ADMIN.password);
  tokens.uw = await tokenFor(t, 'uw');
  tokens.ent = await tokenFor(t, 'ent');
  tokens.nobody = await tokenFor(t, 'nobody');
});
afterAll(() => t.close());

const call = (who: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({ method, url, payload: payload as object, headers: bearer(tokens[who]!) });

function flatten(tree: MenuRoute[], prefix = ''): string[] {
  return tree.flatMap((r) => {
    const full = r.path.startsWith('/') ? r.path : `${prefix}/${r.path}`;
    return [full, ...flatten(r.children ?? [], full)];
  });
}

describe('GET /api/menus/build: the caller route tree', () => {
  it('requires a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/menus/build' });
    expect(res.statusCode).toBe(401);
  });

  it('gives the admin every route of spec §2 under the layout, top-level entries with component Layout', async () => {
    const res = await call('admin', 'GET', '/api/menus/build');
    expect(res.statusCode).toBe(200);
    const tree = res.json() as MenuRoute[];
    for (const top of tree) expect(top.component).toBe('Layout');
    const paths = flatten(tree);
    for (const p of [
      '/piibs/epinsure/stepOne/:id/:policyholderType',
      '/piibs/epinsure/coinsureAndJoint/:id/:policyholderType',
      '/piibs/epinsure/insureList',
      '/piibs/insured/stepForth/:id/:policyholderType',
      '/piibs/insured/viewInsuranceCA/:id',
      '/piibs/insured/ImageData/:id/:businessCode',
      '/piibs/insured/paymentWebResult/:payId/:payResult',
      '/piibs/riskControl/prevention/index/:seqNo',
      '/piibs/riskControl/servicePerson/newUpdate/:id/:detail',
      '/piibs/riskControl/prevention/expert',
      '/piibs/policy/marge/:id/:detail',
      '/piibs/policy/marge/NBNMG',
      '/piibs/policy/marge/updateSale',
      '/piibs/applicant/newUpdate/:id/:detail',
      '/piibs/product/risk',
      '/piibs/task/tenderAudit/:id/:audit',
      '/piibs/projectManage/apply/:id/:detail/:type/:status',
      '/piibs/projectManage/policyInsuranceView/:id',
      '/piibs/agent/applicant/newUpdate/:id/:detail',
      '/piibs/agent/viewInsurance/:id/:policyholderType',
    ]) {
      expect(paths).toContain(p);
    }
  });

  it('marks step pages with parameters hidden and carries meta.title and noCache', async () => {
    const tree = (await call('admin', 'GET', '/api/menus/build')).json() as MenuRoute[];
    const insured = tree.find((r) => r.path === '/piibs/insured')!;
    const step = insured.children!.find((c) => c.path === 'stepOne/:id/:policyholderType')!;
    expect(step).toMatchObject({
      hidden: true,
      component: 'insured/StepOne',
      meta: { title: '填写投保信息', noCache: true },
    });
  });

  it('gives each role only its granted routes', async () => {
    const uw = flatten((await call('uw', 'GET', '/api/menus/build')).json());
    expect(uw).toContain('/piibs/task/audit/:id/:audit');
    expect(uw).not.toContain('/piibs/agent/stepOne/:id/:policyholderType');
    const ent = flatten((await call('ent', 'GET', '/api/menus/build')).json());
    expect(ent).toContain('/piibs/insured/stepOne/:id/:policyholderType');
    expect(ent).not.toContain('/piibs/task/audit/:id/:audit');
    expect((await call('nobody', 'GET', '/api/menus/build')).json()).toEqual([]);
  });

  it('shows 企业信息 only to accounts that act for an enterprise (admin and a code-less account: routable, not in the sidebar)', async () => {
    await createUser(t, {
      username: 'ent-coded',
      roles: ['17'],
      channel: 'enterprise',
      uscc: '91321100MA1XXXXX0Y',
    });
    tokens['ent-coded'] = await tokenFor(t, 'ent-coded');
    const mine = async (who: string) => {
      const tree = (await call(who, 'GET', '/api/menus/build')).json() as MenuRoute[];
      const applicant = tree.find((r) => r.path === '/piibs/applicant')!;
      return applicant.children!.find((c) => c.path === 'newUpdate/mine/false')!;
    };
    expect((await mine('ent-coded')).hidden).toBe(false);
    expect((await mine('ent')).hidden).toBe(true);
    expect((await mine('admin')).hidden).toBe(true);
  });

  it("a user's new roles take effect at their next menu load (trees are cached per role set)", async () => {
    const id = await createUser(t, { username: 'switcher', roles: ['underwriter'] });
    tokens.switcher = await tokenFor(t, 'switcher');
    const asUnderwriter = (await call('switcher', 'GET', '/api/menus/build')).json();
    expect(asUnderwriter).toEqual((await call('uw', 'GET', '/api/menus/build')).json());
    const [ent] = await t.database.db.select({ id: roles.id }).from(roles).where(eq(roles.code, '17'));
    await t.database.db.delete(userRoles).where(eq(userRoles.userId, id));
    await t.database.db.insert(userRoles).values({ userId: id, roleId: ent!.id });
    forgetSessions(); // as the write request changing the roles does (plugins/auth.ts)
    const asEnterprise = (await call('switcher', 'GET', '/api/menus/build')).json();
    expect(asEnterprise).toEqual((await call('ent', 'GET', '/api/menus/build')).json());
    expect(asEnterprise).not.toEqual(asUnderwriter);
  });

  it('a change to the menus takes effect at the next menu load (cache invalidated)', async () => {
    const before = flatten((await call('uw', 'GET', '/api/menus/build')).json());
    const tree = (await call('admin', 'GET', '/api/menus/tree')).json() as { id: number; label: string }[];
    const product = tree.find((n) => n.label === '产品管理')!;
    const created = await call('admin', 'POST', '/api/menus', {
      type: 1,
      title: '费率表',
      parentId: product.id,
      path: 'rates',
      component: 'product/Rates',
    });
    expect(created.statusCode).toBe(200);
    // Not granted to underwriters: they do not see it, the admin does.
    expect(flatten((await call('uw', 'GET', '/api/menus/build')).json())).toEqual(before);
    expect(flatten((await call('admin', 'GET', '/api/menus/build')).json())).toContain(
      '/piibs/product/rates',
    );
    const renamed = await call('admin', 'POST', '/api/menus/update', {
      id: created.json().id,
      type: 1,
      title: '费率表管理',
      parentId: product.id,
      path: 'rateTables',
      component: 'product/Rates',
    });
    expect(renamed.statusCode).toBe(200);
    expect(flatten((await call('admin', 'GET', '/api/menus/build')).json())).toContain(
      '/piibs/product/rateTables',
    );
    const del = await call('admin', 'POST', '/api/menus/delete', [created.json().id]);
    expect(del.json()).toEqual({ deleted: 1 });
    expect(flatten((await call('admin', 'GET', '/api/menus/build')).json())).not.toContain(
      '/piibs/product/rateTables',
    );
  });
});

describe('menu administration', () => {
  it('is refused (403) to a user without the menu permissions', async () => {
    expect((await call('uw', 'GET', '/api/menus/tree')).statusCode).toBe(403);
    expect((await call('uw', 'POST', '/api/menus', { type: 0, title: 'x', path: '/x' })).statusCode).toBe(
      403,
    );
  });

  it('validates input with messages naming the field, and changes nothing', async () => {
    const noComponent = await call('admin', 'POST', '/api/menus', { type: 1, title: '无组件', path: 'x' });
    expect(noComponent.statusCode).toBe(400);
    expect(noComponent.json().message).toBe('组件路径：菜单必须填写组件路径');
    const badIcon = await call('admin', 'POST', '/api/menus', {
      type: 0,
      title: '目录',
      path: '/piibs/x',
      icon: 'evil-icon',
    });
    expect(badIcon.statusCode).toBe(400);
    expect(badIcon.json().message).toMatch(/^图标：/);
    const noTitle = await call('admin', 'POST', '/api/menus', { type: 0, path: '/piibs/x' });
    expect(noTitle.json().message).toBe('菜单标题：不能为空');
    const list = (await call('admin', 'GET', '/api/menus?title=无组件')).json();
    expect(list.totalElements).toBe(0);
  });

  it('refuses to make a menu its own ancestor', async () => {
    const tree = (await call('admin', 'GET', '/api/menus/tree')).json() as {
      id: number;
      label: string;
      children?: { id: number }[];
    }[];
    const dir = tree.find((n) => n.label === '风险管控')!;
    const child = dir.children![0]!;
    const res = await call('admin', 'POST', '/api/menus/update', {
      id: dir.id,
      type: 0,
      title: '风险管控',
      path: '/piibs/riskControl',
      parentId: child.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('上级菜单：不能选择自己的下级菜单');
  });

  it('deletes a directory with its children, and answers 404 for unknown ids', async () => {
    expect((await call('admin', 'POST', '/api/menus/delete', [999999])).statusCode).toBe(404);
    const dir = await call('admin', 'POST', '/api/menus', { type: 0, title: '临时目录', path: '/piibs/tmp' });
    await call('admin', 'POST', '/api/menus', {
      type: 1,
      title: '临时页',
      parentId: dir.json().id,
      path: 'a',
      component: 'tmp/A',
    });
    expect((await call('admin', 'POST', '/api/menus/delete', [dir.json().id])).json()).toEqual({
      deleted: 2,
    });
  });

  it('seeds every top-level area of the spec', () => {
    expect(SEED_MENUS.map((m) => m.path)).toEqual(
      expect.arrayContaining([
        '/piibs/insured',
        '/piibs/epinsure',
        '/piibs/agent',
        '/piibs/applicant',
        '/piibs/task',
        '/piibs/projectManage',
        '/piibs/policy',
        '/piibs/riskControl',
        '/piibs/product',
      ]),
    );
  });
});

describe('GET /api/menus: hasChildren', () => {
  it('flags menus that have children (the subquery names the outer table)', async () => {
    const top = (await call('admin', 'GET', '/api/menus')).json() as {
      content: { path: string; hasChildren: boolean }[];
    };
    expect(top.content.find((m) => m.path === '/piibs/product')!.hasChildren).toBe(true);
  });
});

describe('business pages and permission buttons', () => {
  it('gives underwriters the visible review queue and customer list, cached', async () => {
    const tree = (await call('uw', 'GET', '/api/menus/build')).json() as MenuRoute[];
    const task = tree.find((r) => r.path === '/piibs/task')!;
    expect(task.children!.find((c) => c.path === 'list')).toMatchObject({
      component: 'task/TaskList',
      hidden: false,
      meta: { title: '审核任务', noCache: false },
    });
    // The queue of endorsements and cancellations (批改审核), and the page deciding one.
    expect(task.children!.find((c) => c.path === 'policyChanges')).toMatchObject({
      component: 'task/PolicyChangeReviews',
      hidden: false,
      meta: { title: '批改审核', noCache: false },
    });
    expect(task.children!.find((c) => c.path === 'policyChange/:id')).toMatchObject({
      component: 'task/PolicyChangeAudit',
      hidden: true,
    });
    const applicant = tree.find((r) => r.path === '/piibs/applicant')!;
    expect(applicant.children!.find((c) => c.path === 'list')).toMatchObject({
      component: 'applicant/CustomerList',
      hidden: false,
      meta: { noCache: false },
    });
  });

  it('grants the product, customer and review buttons to the right roles', async () => {
    const rows = await t.database.db
      .select({ role: roles.code, permission: menus.permission })
      .from(roleMenus)
      .innerJoin(roles, eq(roles.id, roleMenus.roleId))
      .innerJoin(menus, eq(menus.id, roleMenus.menuId));
    const granted = (code: string) =>
      rows
        .filter((r) => r.permission === code)
        .map((r) => r.role)
        .sort();
    expect(granted('product:list')).toEqual(['underwriter']);
    expect(granted('product:edit')).toEqual([]);
    expect(granted('customer:list')).toEqual(['17', 'agent', 'underwriter']);
    expect(granted('customer:edit')).toEqual(['17', 'agent', 'underwriter']);
    expect(granted('customer:unmask')).toEqual(['underwriter']);
    expect(granted('customer:review')).toEqual(['underwriter']);
  });
});

describe('a newer release on an older database (seed sync at start)', () => {
  const db = () => t.database.db;
  const buttonRow = async (code: string) =>
    (await db().select().from(menus).where(eq(menus.permission, code)))[0];

  it('adds the menus, buttons and grants the database has not had, and only those', async () => {
    // An installation from before seed keys were recorded, which never had the supplement buttons.
    const before = await buttonRow('sales:list');
    expect(before).toBeDefined();
    await db().delete(menus).where(eq(menus.id, before!.id));
    await db().delete(systemSettings).where(eq(systemSettings.key, 'seed.menus'));
    expect(await syncSeedMenus(db())).toBeGreaterThan(0);
    const back = await buttonRow('sales:list');
    expect(back?.parentId).toBe(before!.parentId);
    const [agent] = await db().select().from(roles).where(eq(roles.code, 'agent'));
    const grants = await db().select().from(roleMenus).where(eq(roleMenus.menuId, back!.id));
    expect(grants.map((g) => g.roleId)).toContain(agent!.id);
    // Nothing is duplicated by a second start.
    expect(await syncSeedMenus(db())).toBe(0);
    expect(await db().select().from(menus).where(eq(menus.permission, 'sales:list'))).toHaveLength(1);
  });

  it('leaves a seeded menu an administrator deleted deleted', async () => {
    const row = await buttonRow('sales:edit');
    await db().delete(menus).where(eq(menus.id, row!.id));
    expect(await syncSeedMenus(db())).toBe(0);
    expect(await buttonRow('sales:edit')).toBeUndefined();
  });

  it('adds a dictionary this release introduces, but not one an administrator deleted', async () => {
    const named = async (name: string) => (await db().select().from(dicts).where(eq(dicts.name, name)))[0];
    await seedDictionaries(db());
    const source = await named('business_source');
    await db().delete(dicts).where(eq(dicts.id, source!.id));
    expect(await seedDictionaries(db())).toBe(false);
    expect(await named('business_source')).toBeUndefined();
    await db().delete(systemSettings).where(eq(systemSettings.key, 'seed.dicts'));
    expect(await seedDictionaries(db())).toBe(true);
    expect(await named('business_source')).toBeDefined();
  });
});
