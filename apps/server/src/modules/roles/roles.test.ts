import type { MenuRoute } from '@piibs/shared/menu';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDept,
  client,
  expectDownloadName,
  giveRole,
  readXlsx,
  roleWith,
  rootDept,
} from '../../../test/admin.ts';
import { ADMIN, createUser, initSystem, tokenFor } from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { auditLog, menus } from '../../db/schema.ts';

let t: TestContext;
let admin: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  await initSystem(t);
  admin = client(t, await tokenFor(t, ADMIN.username, ADMIN.password));
});
afterAll(() => t.close());

const flatten = (tree: MenuRoute[], prefix = ''): string[] =>
  tree.flatMap((r) => {
    const full = r.path.startsWith('/') ? r.path : `${prefix}/${r.path}`;
    return [full, ...flatten(r.children ?? [], full)];
  });

const newRole = (code: string, extra: object = {}) =>
  admin.post('/api/roles', { code, name: `名称${code}`, level: 3, dataScope: 'self', ...extra });

describe('GET /api/roles', () => {
  it('pages and sorts the roles, built-in ones flagged', async () => {
    const res = await admin.get('/api/roles?page=0&size=3&sort=level,asc&sort=id,asc');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totalElements).toBe(6);
    expect(body.content).toHaveLength(3);
    expect(body.content[0]).toMatchObject({ code: 'admin', level: 1, builtin: true, version: 0 });
    expect((await admin.get('/api/roles?sort=secret,asc')).json().message).toMatch(/^排序字段：/);
    expect(
      (await admin.get('/api/roles?blurry=核保')).json().content.map((r: { code: string }) => r.code),
    ).toEqual(['underwriter']);
  });

  it('GET /api/roles/all lists every role for selects; GET /api/roles/level answers the caller level', async () => {
    const all = (await admin.get('/api/roles/all')).json() as { code: string }[];
    expect(all.map((r) => r.code)).toContain('17');
    expect((await admin.get('/api/roles/level')).json()).toEqual({ level: 1 });
  });

  it('refuses callers without role:list (403)', async () => {
    await createUser(t, { username: 'uw', roles: ['underwriter'] });
    const uw = client(t, await tokenFor(t, 'uw'));
    expect((await uw.get('/api/roles')).statusCode).toBe(403);
    expect((await uw.get('/api/roles/1')).statusCode).toBe(403);
    expect((await uw.post('/api/roles', { code: 'x', name: 'x' })).statusCode).toBe(403);
    expect((await uw.post('/api/roles/menu', { id: 1, menuIds: [] })).statusCode).toBe(403);
    expect((await uw.get('/api/roles/level')).json()).toEqual({ level: 2 });
  });
});

describe('create, update, delete', () => {
  it('creates a role with a custom data scope; GET /api/roles/:id answers its menuIds and deptIds', async () => {
    const d = await addDept(t, '理赔部', await rootDept(t));
    const res = await newRole('claims', { dataScope: 'custom', deptIds: [d], description: '理赔' });
    expect(res.statusCode, res.body).toBe(200);
    const role = res.json();
    expect(role).toMatchObject({ code: 'claims', dataScope: 'custom', deptIds: [d], builtin: false });
    const detail = (await admin.get(`/api/roles/${role.id}`)).json();
    expect(detail).toMatchObject({ id: role.id, menuIds: [], deptIds: [d] });
    expect((await admin.get('/api/roles/999999')).statusCode).toBe(404);
  });

  it('validates with messages naming the field, and refuses duplicates with 409', async () => {
    expect((await newRole('bad code')).json().message).toMatch(/^角色编码：/);
    expect((await newRole('lvl', { level: 0 })).json()).toEqual({
      status: 400,
      message: '角色级别：最小为 1',
      errors: [{ field: 'level', message: '最小为 1' }],
    });
    expect((await newRole('scope', { dataScope: 'everything' })).json().message).toMatch(/^数据权限：/);
    expect((await newRole('nodept', { dataScope: 'custom', deptIds: [] })).json()).toEqual({
      status: 400,
      message: '数据权限：自定义数据权限须至少选择一个部门',
      errors: [{ field: 'deptIds', message: '自定义数据权限须至少选择一个部门' }],
    });
    expect((await newRole('claims')).json()).toEqual({ status: 409, message: '角色编码已存在' });
  });

  it('two concurrent edits of the same version: exactly one 200, the other 409', async () => {
    const role = (await newRole('race')).json();
    const edit = (name: string) =>
      admin.post('/api/roles/update', { ...role, name, version: role.version, deptIds: [] });
    const [a, b] = await Promise.all([edit('甲'), edit('乙')]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect((a.statusCode === 409 ? a : b).json()).toEqual({
      status: 409,
      message: '数据已被他人修改，请刷新后重试',
    });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'role'),
          eq(auditLog.action, 'update'),
          eq(auditLog.entityId, String(role.id)),
        ),
      );
    expect(audit!.detail).toEqual({
      before: { name: '名称race' },
      after: { name: expect.stringMatching(/^[甲乙]$/) },
    });
  });

  it('keeps the code of a built-in role', async () => {
    const uw = (await admin.get('/api/roles?blurry=underwriter')).json().content[0];
    const res = await admin.post('/api/roles/update', { ...uw, code: 'uw2' });
    expect(res.json()).toEqual({
      status: 400,
      message: '角色编码：内置角色的编码不能修改',
      errors: [{ field: 'code', message: '内置角色的编码不能修改' }],
    });
  });

  it('refuses to delete a role still assigned to users, or a built-in one, with a clear message', async () => {
    const role = (await newRole('inuse')).json();
    const id = await createUser(t, { username: 'holder' });
    await giveRole(t, id, role.id);
    expect((await admin.post('/api/roles/delete', [role.id])).json()).toEqual({
      status: 400,
      message: '角色「名称inuse」已分配给 1 个用户，请先解除分配再删除',
    });
    const uw = (await admin.get('/api/roles?blurry=underwriter')).json().content[0];
    expect((await admin.post('/api/roles/delete', [uw.id])).json()).toEqual({
      status: 400,
      message: '内置角色「核保员」不能删除',
    });
    const free = (await newRole('free')).json();
    expect((await admin.post('/api/roles/delete', [free.id])).json()).toEqual({ deleted: 1 });
    expect((await admin.get(`/api/roles/${free.id}`)).statusCode).toBe(404);
  });

  it('a user may not create or change a role more powerful than their own level', async () => {
    const mgrRole = await roleWith(t, 'rolemgr', ['role:list', 'role:add', 'role:edit', 'role:del'], {
      level: 2,
    });
    const id = await createUser(t, { username: 'rmgr' });
    await giveRole(t, id, mgrRole);
    const mgr = client(t, await tokenFor(t, 'rmgr'));
    const high = await mgr.post('/api/roles', { code: 'boss', name: '老板', level: 1 });
    expect(high.statusCode).toBe(403);
    expect(high.json().message).toBe('角色权限不足：你的角色级别为 2，不能创建级别为 1 的角色');
    const adminRole = (await admin.get('/api/roles?blurry=admin')).json().content[0];
    expect((await mgr.post('/api/roles/menu', { id: adminRole.id, menuIds: [] })).statusCode).toBe(403);
    const ok = await mgr.post('/api/roles', { code: 'junior', name: '初级', level: 2 });
    expect(ok.statusCode).toBe(200);
    const promote = await mgr.post('/api/roles/update', { ...(ok.json() as object), level: 1 });
    expect(promote.statusCode).toBe(403);
  });
});

describe('POST /api/roles/menu', () => {
  it("granting menus to a role changes that role's /api/menus/build at the next call", async () => {
    const role = (await newRole('riskviewer')).json();
    const id = await createUser(t, { username: 'rv' });
    await giveRole(t, id, role.id);
    const rv = client(t, await tokenFor(t, 'rv'));
    expect((await rv.get('/api/menus/build')).json()).toEqual([]);

    const [dir] = await t.database.db.select().from(menus).where(eq(menus.path, '/piibs/product'));
    const [page] = await t.database.db.select().from(menus).where(eq(menus.parentId, dir!.id));
    const grant = await admin.post('/api/roles/menu', { id: role.id, menuIds: [dir!.id, page!.id] });
    expect(grant.json()).toEqual({ id: role.id, menuIds: [dir!.id, page!.id].sort((a, b) => a - b) });
    expect(flatten((await rv.get('/api/menus/build')).json())).toEqual([
      '/piibs/product',
      '/piibs/product/risk',
    ]);
    expect((await admin.get(`/api/roles/${role.id}`)).json().menuIds).toEqual(grant.json().menuIds);

    // Buttons grant permissions: with user:list the user list opens.
    expect((await rv.get('/api/users')).statusCode).toBe(403);
    const [btn] = await t.database.db.select().from(menus).where(eq(menus.permission, 'user:list'));
    await admin.post('/api/roles/menu', { id: role.id, menuIds: [dir!.id, page!.id, btn!.id] });
    expect((await rv.get('/api/users')).statusCode).toBe(200);

    await admin.post('/api/roles/menu', { id: role.id, menuIds: [] });
    expect((await rv.get('/api/menus/build')).json()).toEqual([]);
    // Permission checks are answered from memory per menu version: a withdrawn button closes at once too.
    expect((await rv.get('/api/users')).statusCode).toBe(403);
    expect((await admin.post('/api/roles/menu', { id: role.id, menuIds: [999999] })).json()).toEqual({
      status: 400,
      message: '菜单：所选菜单不存在',
      errors: [{ field: 'menuIds', message: '所选菜单不存在' }],
    });
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'grant_menus'), eq(auditLog.entityId, String(role.id))));
    expect(audits.length).toBe(3);
  });
});

describe('GET /api/roles/download', () => {
  it('exports the filtered roles as xlsx', async () => {
    const res = await admin.get('/api/roles/download?blurry=名称&sort=code,asc');
    expect(res.statusCode).toBe(200);
    expectDownloadName(res.headers['content-disposition'], '角色数据');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(['角色名称', '角色编码', '角色级别', '数据权限', '描述', '创建时间']);
    const codes = rows.slice(1).map((r) => r[1]);
    expect(codes).toEqual([...codes].sort());
    expect(codes).toContain('claims');
    expect(codes).not.toContain('admin');
    expect(rows.find((r) => r[1] === 'claims')![3]).toBe('自定义部门');
  });
});

describe('seeded system menus', () => {
  it('the 系统管理 directory carries the system pages, visible and cached, with their permission buttons', async () => {
    const tree = (await admin.get('/api/menus/build')).json() as MenuRoute[];
    const system = tree.find((r) => r.path === '/piibs/system')!;
    expect(system).toMatchObject({ component: 'Layout', hidden: false });
    expect(system.children!.map((c) => [c.path, c.component, c.hidden, c.meta.noCache])).toEqual([
      ['user', 'system/Users', false, false],
      ['role', 'system/Roles', false, false],
      ['menu', 'system/Menus', false, false],
      ['dept', 'system/Depts', false, false],
      ['job', 'system/Jobs', false, false],
      ['dict', 'system/Dicts', false, false],
      ['log', 'system/Logs', false, false],
      ['loginLog', 'system/LoginLogs', false, false],
      ['online', 'system/Online', false, false],
      ['monitor', 'system/Monitor', false, false],
    ]);
    const codes = (await t.database.db.select({ p: menus.permission }).from(menus))
      .map((m) => m.p)
      .filter(Boolean);
    for (const area of ['user', 'role', 'menu', 'dept', 'job', 'dict'])
      for (const k of ['list', 'add', 'edit', 'del']) expect(codes).toContain(`${area}:${k}`);
    for (const c of ['log:list', 'online:list', 'online:kick', 'monitor:list']) expect(codes).toContain(c);
  });
});

describe('OpenAPI', () => {
  it('documents every administration route with tags, a summary and a 200 schema', async () => {
    const doc = (await admin.get('/api/docs/json')).json() as {
      paths: Record<
        string,
        Record<string, { tags?: string[]; summary?: string; responses: Record<string, unknown> }>
      >;
    };
    const wanted: [string, string][] = [
      ['/api/users', 'get'],
      ['/api/users', 'post'],
      ['/api/users/update', 'post'],
      ['/api/users/enable', 'post'],
      ['/api/users/resetPass', 'post'],
      ['/api/users/delete', 'post'],
      ['/api/users/download', 'get'],
      ['/api/roles', 'get'],
      ['/api/roles/all', 'get'],
      ['/api/roles/level', 'get'],
      ['/api/roles/{id}', 'get'],
      ['/api/roles', 'post'],
      ['/api/roles/update', 'post'],
      ['/api/roles/menu', 'post'],
      ['/api/roles/delete', 'post'],
      ['/api/roles/download', 'get'],
      ['/api/depts', 'get'],
      ['/api/depts', 'post'],
      ['/api/depts/update', 'post'],
      ['/api/depts/delete', 'post'],
      ['/api/depts/download', 'get'],
      ['/api/jobs', 'get'],
      ['/api/jobs', 'post'],
      ['/api/jobs/update', 'post'],
      ['/api/jobs/delete', 'post'],
      ['/api/jobs/download', 'get'],
      ['/api/dict', 'get'],
      ['/api/dict/all', 'get'],
      ['/api/dict', 'post'],
      ['/api/dict/update', 'post'],
      ['/api/dict/delete', 'post'],
      ['/api/dict/download', 'get'],
      ['/api/dictDetail', 'get'],
      ['/api/dictDetail', 'post'],
      ['/api/dictDetail/update', 'post'],
      ['/api/dictDetail/delete/{id}', 'post'],
      ['/api/logs', 'get'],
      ['/api/logs/login', 'get'],
      ['/api/logs/download', 'get'],
      ['/api/logs/login/download', 'get'],
      ['/api/auth/online', 'get'],
      ['/api/auth/online/revoke', 'post'],
      ['/api/monitor', 'get'],
    ];
    for (const [p, m] of wanted) {
      const op = doc.paths[p]?.[m];
      expect(op, `${m} ${p}`).toBeDefined();
      expect(op!.tags?.length, `${m} ${p}`).toBeGreaterThan(0);
      expect(op!.summary, `${m} ${p}`).toBeTruthy();
      expect(op!.responses['200'], `${m} ${p}`).toBeDefined();
    }
  });
});
