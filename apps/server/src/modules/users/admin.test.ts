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
  setDept,
} from '../../../test/admin.ts';
import {
  ADMIN,
  bearer,
  createUser,
  initSystem,
  login,
  STRONG,
  tokenFor,
  userId,
} from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { auditLog, roles, users } from '../../db/schema.ts';
import { scopeReads } from '../../lib/data-scope.ts';
import { forgetSessions } from '../auth/sessions.ts';

let t: TestContext;
let admin: ReturnType<typeof client>;
const dept: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  await initSystem(t);
  admin = client(t, await tokenFor(t, ADMIN.username, ADMIN.password));
  dept.root = await rootDept(t);
  dept.a = await addDept(t, '华东分公司', dept.root);
  dept.a1 = await addDept(t, '镇江中心支公司', dept.a);
  dept.b = await addDept(t, '华南分公司', dept.root);
  for (const [name, d, phone] of [
    ['ua1', 'a', '13800000001'],
    ['ua2', 'a', '13800000002'],
    ['ua11', 'a1', '13800000011'],
    ['ub1', 'b', '13900000001'],
    ['ub2', 'b', null],
  ] as const) {
    const id = await createUser(t, { username: name, roles: ['underwriter'], phone: phone ?? undefined });
    await setDept(t, id, dept[d]!);
  }
});
afterAll(() => t.close());

type Row = {
  id: number;
  username: string;
  phone: string | null;
  version: number;
  dept: { name: string } | null;
};
const list = async (query: string) => {
  const res = await admin.get(`/api/users?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { content: Row[]; totalElements: number };
};

describe('GET /api/users: paging convention', () => {
  it('pages with page (0-based), size and sort=field,asc|desc into { content, totalElements }', async () => {
    const all = await list('size=500');
    const total = all.totalElements;
    expect(total).toBe(all.content.length);
    expect(total).toBeGreaterThanOrEqual(6);
    const first = await list('page=0&size=2&sort=username,asc');
    expect(first.totalElements).toBe(total);
    expect(first.content.map((u) => u.username)).toEqual(
      all.content
        .map((u) => u.username)
        .sort()
        .slice(0, 2),
    );
    const desc = await list('page=0&size=3&sort=username,desc');
    expect(desc.content.map((u) => u.username)).toEqual(
      all.content
        .map((u) => u.username)
        .sort()
        .reverse()
        .slice(0, 3),
    );
    const last = await list(`page=${Math.floor((total - 1) / 2)}&size=2&sort=username,asc`);
    expect(last.totalElements).toBe(total);
    expect(last.content.length).toBe(total % 2 || 2);
    const beyond = await list('page=99&size=2');
    expect(beyond).toEqual({ content: [], totalElements: total });
  });

  it('defaults to page 0 and size 10', async () => {
    for (let i = 0; i < 6; i++) await createUser(t, { username: `filler${i}` });
    const page = await list('');
    expect(page.content).toHaveLength(10);
    expect(page.totalElements).toBeGreaterThan(10);
  });

  it('an unknown sort field answers 400 naming 排序字段; a bad size or page names its field', async () => {
    const bad = await admin.get('/api/users?sort=passwordHash,asc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^排序字段：不支持按 passwordHash 排序/);
    expect((await admin.get('/api/users?sort=username,sideways')).json().message).toMatch(/^排序字段：/);
    expect((await admin.get('/api/users?size=501')).json()).toEqual({
      status: 400,
      message: '每页条数：最大为 500',
      errors: [{ field: 'size', message: '最大为 500' }],
    });
    expect((await admin.get('/api/users?page=-1')).json().message).toBe('页码：最小为 0');
  });
});

describe('GET /api/users: filters, masking', () => {
  it('masks phones in the list', async () => {
    const { content } = await list('blurry=ua1&size=50');
    const ua1 = content.find((u) => u.username === 'ua1')!;
    expect(ua1.phone).toBe('138****0001');
    expect(JSON.stringify(content)).not.toContain('13800000001');
    expect(JSON.stringify(content)).not.toMatch(/passwordHash|"password"/);
  });

  it('filters by blurry text over username, nick name, phone and email', async () => {
    expect((await list('blurry=UB')).content.map((u) => u.username).sort()).toEqual(['ub1', 'ub2']);
    expect((await list('blurry=13900000001')).content.map((u) => u.username)).toEqual(['ub1']);
    expect((await list('blurry=%25')).totalElements).toBe(0);
  });

  it('filters by department including its sub-departments', async () => {
    expect((await list(`deptId=${dept.a}`)).content.map((u) => u.username).sort()).toEqual([
      'ua1',
      'ua11',
      'ua2',
    ]);
    expect((await list(`deptId=${dept.a1}`)).content.map((u) => u.username)).toEqual(['ua11']);
  });

  it('filters by status and creation time', async () => {
    await t.database.db.update(users).set({ enabled: false }).where(eq(users.username, 'ub2'));
    expect((await list('enabled=false')).content.map((u) => u.username)).toEqual(['ub2']);
    await t.database.db.update(users).set({ enabled: true }).where(eq(users.username, 'ub2'));
    expect((await list('startTime=2000-01-01&endTime=2000-12-31 23:59:59')).totalElements).toBe(0);
    expect((await list('startTime=2000-01-01T00:00:00Z')).totalElements).toBeGreaterThan(5);
    expect((await admin.get('/api/users?startTime=yesterday')).json().message).toMatch(/^开始时间：/);
  });
});

describe('user administration: permissions', () => {
  it('answers 403 to a user without the permission code, and each code opens only its own call', async () => {
    await createUser(t, { username: 'plain', roles: ['underwriter'] });
    const plain = client(t, await tokenFor(t, 'plain'));
    expect((await plain.get('/api/users')).statusCode).toBe(403);
    expect((await plain.get('/api/users/download')).statusCode).toBe(403);
    expect((await plain.post('/api/users', { username: 'x1', nickName: 'x' })).statusCode).toBe(403);

    const viewerRole = await roleWith(t, 'viewer', ['user:list']);
    const viewerId = await createUser(t, { username: 'viewer' });
    await giveRole(t, viewerId, viewerRole);
    const viewer = client(t, await tokenFor(t, 'viewer'));
    expect((await viewer.get('/api/users')).statusCode).toBe(200);
    const denied = await viewer.post('/api/users', { username: 'x2', nickName: 'x' });
    expect(denied.json()).toEqual({ status: 403, message: '没有权限执行此操作' });
    expect((await viewer.post('/api/users/delete', [viewerId])).statusCode).toBe(403);
    expect((await viewer.post('/api/users/resetPass', { id: viewerId })).statusCode).toBe(403);
  });
});

describe('POST /api/users: create with a one-time password', () => {
  it('validates with messages naming the field', async () => {
    const bad = (payload: object) => admin.post('/api/users', payload);
    expect((await bad({ username: 'newbie', nickName: '新人', phone: '123' })).json()).toEqual({
      status: 400,
      message: '手机号：请输入正确的11位手机号码',
      errors: [{ field: 'phone', message: '请输入正确的11位手机号码' }],
    });
    expect((await bad({ username: 'newbie', nickName: '新人', email: 'x@' })).json()).toEqual({
      status: 400,
      message: '邮箱：请输入正确的邮箱地址',
      errors: [{ field: 'email', message: '请输入正确的邮箱地址' }],
    });
    expect((await bad({ nickName: '新人' })).json()).toEqual({
      status: 400,
      message: '用户名：不能为空',
      errors: [{ field: 'username', message: '不能为空' }],
    });
    expect((await bad({ username: 'newbie', nickName: '新人', deptId: 999999 })).json()).toEqual({
      status: 400,
      message: '部门：所选部门不存在',
      errors: [{ field: 'deptId', message: '所选部门不存在' }],
    });
    expect((await bad({ username: 'newbie', nickName: '新人', roleIds: [999999] })).json()).toEqual({
      status: 400,
      message: '角色：所选角色不存在',
      errors: [{ field: 'roleIds', message: '所选角色不存在' }],
    });
  });

  it('answers the one-time password once; it signs in once into a password-change-only session', async () => {
    const [uw] = await t.database.db.select().from(roles).where(eq(roles.code, 'underwriter'));
    const res = await admin.post('/api/users', {
      username: 'Newbie',
      nickName: '新人',
      phone: '13700000000',
      email: '',
      deptId: dept.b,
      roleIds: [uw!.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id, username, password } = res.json();
    expect(username).toBe('Newbie');
    expect(password).toMatch(/^.{12}$/);
    expect(res.headers['cache-control']).toBe('no-store');

    const row = (await list('blurry=newbie')).content[0] as Row & {
      mustChangePassword: boolean;
      roles: object[];
    };
    expect(row).toMatchObject({
      id,
      phone: '137****0000',
      mustChangePassword: true,
      dept: { name: '华南分公司' },
    });
    expect(JSON.stringify(row)).not.toContain(password);

    const first = await login(t, 'newbie', password);
    expect(first.statusCode).toBe(200);
    const token = first.json().token as string;
    // Only the password change (and info/logout) is open to that session.
    const blocked = await t.app.inject({ method: 'GET', url: '/api/menus/build', headers: bearer(token) });
    expect(blocked.json()).toEqual({ status: 403, message: '请先修改密码' });
    // A one-time password signs in once.
    const again = await login(t, 'newbie', password);
    expect(again.json()).toEqual({ status: 401, message: '一次性密码已使用，请联系管理员重置密码' });

    const change = await t.app.inject({
      method: 'POST',
      url: '/api/users/updatePass',
      headers: bearer(token),
      payload: { oldPass: password, newPass: STRONG },
    });
    expect(change.statusCode).toBe(200);
    const full = await t.app.inject({ method: 'GET', url: '/api/menus/build', headers: bearer(token) });
    expect(full.statusCode).toBe(200);
    expect((await login(t, 'newbie', STRONG)).statusCode).toBe(200);
    // The chosen password is not one-time: it signs in again.
    expect((await login(t, 'newbie', STRONG)).statusCode).toBe(200);

    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.entity, 'user'), eq(auditLog.action, 'create'), eq(auditLog.entityId, String(id))),
      );
    expect(audit!.detail).toMatchObject({
      before: null,
      after: { username: 'Newbie', phone: '137****0000' },
    });
    expect(JSON.stringify(audit)).not.toContain(password);
    expect(JSON.stringify(audit)).not.toContain('13700000000');
  });

  it('refuses a username that exists in any letter case with 409', async () => {
    const res = await admin.post('/api/users', { username: 'NEWBIE', nickName: '重复' });
    expect(res.json()).toEqual({ status: 409, message: '用户名已存在' });
  });
});

describe('POST /api/users/update: version', () => {
  it('two concurrent edits of the same version: exactly one 200, the other 409', async () => {
    const row = (await list('blurry=ua2')).content[0]!;
    const edit = (nickName: string) =>
      admin.post('/api/users/update', {
        id: row.id,
        version: row.version,
        username: 'ua2',
        nickName,
        phone: row.phone,
        deptId: dept.a,
      });
    const [a, b] = await Promise.all([edit('甲'), edit('乙')]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const lost = a.statusCode === 409 ? a : b;
    expect(lost.json()).toEqual({ status: 409, message: '数据已被他人修改，请刷新后重试' });
    const won = a.statusCode === 200 ? a : b;
    expect(won.json()).toMatchObject({ version: row.version + 1, phone: '138****0002' });
    // The masked phone sent back kept the stored number.
    const [stored] = await t.database.db.select().from(users).where(eq(users.id, row.id));
    expect(stored!.phone).toBe('13800000002');
  });

  it('records before/after of the changed fields only, phone masked', async () => {
    const row = (await list('blurry=ua2')).content[0]!;
    const res = await admin.post('/api/users/update', {
      id: row.id,
      version: row.version,
      username: 'ua2',
      nickName: '新昵称',
      phone: '13600000002',
      deptId: dept.a,
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'user'),
          eq(auditLog.action, 'update'),
          eq(auditLog.entityId, String(row.id)),
        ),
      );
    const last = rows.at(-1)!;
    expect(last.detail).toEqual({
      before: { nickName: expect.any(String), phone: '138****0002' },
      after: { nickName: '新昵称', phone: '136****0002' },
    });
  });
});

describe('enable, reset password, delete', () => {
  it('disabling a user revokes their token at once (401 on the next call)', async () => {
    const id = await createUser(t, { username: 'leaver' });
    const token = await tokenFor(t, 'leaver');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: bearer(token) })).statusCode,
    ).toBe(200);
    const res = await admin.post('/api/users/enable', { id, enabled: false });
    expect(res.statusCode).toBe(200);
    expect(res.json().enabled).toBe(false);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: bearer(token) })).statusCode,
    ).toBe(401);
    expect((await login(t, 'leaver', STRONG)).json().message).toBe('账号已停用');
    await admin.post('/api/users/enable', { id, enabled: true });
    expect((await login(t, 'leaver', STRONG)).statusCode).toBe(200);
  });

  it('refuses to disable or delete yourself', async () => {
    const me = await userId(t, ADMIN.username);
    expect((await admin.post('/api/users/enable', { id: me, enabled: false })).json()).toEqual({
      status: 400,
      message: '不能停用当前登录的用户',
    });
    expect((await admin.post('/api/users/delete', [me])).json()).toEqual({
      status: 400,
      message: '不能删除当前登录的用户',
    });
  });

  it('refuses to remove the last enabled administrator', async () => {
    const helperRole = await roleWith(t, 'usermgr', ['user:list', 'user:edit', 'user:del'], { level: 1 });
    const mgrId = await createUser(t, { username: 'mgr1' });
    await giveRole(t, mgrId, helperRole);
    const [adminRole] = await t.database.db.select().from(roles).where(eq(roles.code, 'admin'));
    // A second administrator may delete the first, but not once only one is left.
    const second = await createUser(t, { username: 'admin2', roles: ['admin'] });
    const admin2 = client(t, await tokenFor(t, 'admin2'));
    const first = await userId(t, ADMIN.username);
    await t.database.db.update(users).set({ enabled: false }).where(eq(users.id, first));
    const res = await admin2.post('/api/users/update', {
      id: second,
      version: 0,
      username: 'admin2',
      nickName: 'admin2',
      roleIds: [],
    });
    expect(res.json()).toEqual({ status: 400, message: '不能移除最后一个启用的系统管理员' });
    await t.database.db.update(users).set({ enabled: true }).where(eq(users.id, first));
    // Only administrators manage administrators, whatever their level.
    const mgr = client(t, await tokenFor(t, 'mgr1'));
    expect((await mgr.post('/api/users/delete', [second])).json()).toEqual({
      status: 403,
      message: '只有系统管理员可以操作系统管理员账号',
    });
    expect((await admin.post('/api/users/delete', [second])).json()).toEqual({ deleted: 1 });
    expect(adminRole).toBeDefined();
  });

  it('reset password: a one-time password that works once, forces a change, and revokes sessions', async () => {
    const id = await createUser(t, { username: 'forgetful' });
    const old = await tokenFor(t, 'forgetful');
    const res = await admin.post('/api/users/resetPass', { id });
    expect(res.statusCode).toBe(200);
    const { password } = res.json();
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: bearer(old) })).statusCode,
    ).toBe(401);
    expect((await login(t, 'forgetful', STRONG)).statusCode).toBe(401);
    const first = await login(t, 'forgetful', password);
    expect(first.statusCode).toBe(200);
    const token = first.json().token as string;
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/getUserRole', headers: bearer(token) })).json(),
    ).toEqual({ status: 403, message: '请先修改密码' });
    expect((await login(t, 'forgetful', password)).statusCode).toBe(401);
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/users/updatePass',
      headers: bearer(token),
      payload: { oldPass: password, newPass: 'N3w#Password2026' },
    });
    expect(change.statusCode).toBe(200);
    expect((await login(t, 'forgetful', 'N3w#Password2026')).statusCode).toBe(200);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'password_reset'), eq(auditLog.entityId, String(id))));
    expect(JSON.stringify(audit)).not.toContain(password);
  });

  it('deletes users: their tokens stop working; unknown ids answer 404', async () => {
    const id = await createUser(t, { username: 'goner' });
    const token = await tokenFor(t, 'goner');
    expect((await admin.post('/api/users/delete', [id])).json()).toEqual({ deleted: 1 });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: bearer(token) })).statusCode,
    ).toBe(401);
    expect((await admin.post('/api/users/delete', [id])).statusCode).toBe(404);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'delete'), eq(auditLog.entity, 'user'), eq(auditLog.entityId, String(id))),
      );
    expect(audit!.detail).toMatchObject({ before: { username: 'goner' }, after: null });
  });
});

describe('data scope and role level', () => {
  it('a department-scoped user lists only users of their department subtree', async () => {
    const scoped = await roleWith(t, 'deptmgr', ['user:list', 'user:edit', 'user:add'], {
      level: 3,
      dataScope: 'department',
    });
    const id = await createUser(t, { username: 'amanager' });
    await setDept(t, id, dept.a!);
    await giveRole(t, id, scoped);
    const mgr = client(t, await tokenFor(t, 'amanager'));
    const res = await mgr.get('/api/users?size=100');
    expect(res.statusCode).toBe(200);
    const names = (res.json().content as Row[]).map((u) => u.username).sort();
    expect(names).toEqual(['amanager', 'ua1', 'ua11', 'ua2']);
    expect(res.json().totalElements).toBe(4);
    // Users outside the scope are not there for it: 404, as for a missing record.
    const ub1 = await userId(t, 'ub1');
    const edit = await mgr.post('/api/users/update', { id: ub1, version: 0, username: 'ub1', nickName: 'x' });
    expect(edit.json()).toEqual({ status: 404, message: '用户不存在' });
    // Nor can it create users in departments outside its scope.
    const outside = await mgr.post('/api/users', { username: 'sneaky', nickName: 'x', deptId: dept.b });
    expect(outside.statusCode).toBe(403);
    // Its export holds the same rows.
    const file = await mgr.get('/api/users/download');
    const rows = await readXlsx(file.rawPayload);
    expect(
      rows
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual(['amanager', 'ua1', 'ua11', 'ua2']);
  });

  it('a custom-scoped role sees the chosen departments and below; the union over roles applies', async () => {
    const custom = await roleWith(t, 'custommgr', ['user:list'], { dataScope: 'custom' });
    const res = await admin.get(`/api/roles/${custom}`);
    const role = res.json();
    const upd = await admin.post('/api/roles/update', { ...role, deptIds: [dept.a1] });
    expect(upd.statusCode, upd.body).toBe(200);
    const id = await createUser(t, { username: 'cmanager' });
    await setDept(t, id, dept.b!);
    await giveRole(t, id, custom);
    const mgr = client(t, await tokenFor(t, 'cmanager'));
    expect(((await mgr.get('/api/users')).json().content as Row[]).map((u) => u.username).sort()).toEqual([
      'cmanager',
      'ua11',
    ]);
    const selfOnly = await roleWith(t, 'selfonly', ['user:list'], { dataScope: 'self' });
    await giveRole(t, id, selfOnly);
    expect((await mgr.get('/api/users')).json().totalElements).toBe(2);
    const all = await roleWith(t, 'seeall', [], { dataScope: 'all' });
    await giveRole(t, id, all);
    expect((await mgr.get('/api/users')).json().totalElements).toBe((await list('')).totalElements);
  });

  it('a user may not grant a role more powerful (lower level) than their own, nor the admin role', async () => {
    const [uw] = await t.database.db.select().from(roles).where(eq(roles.code, 'underwriter')); // level 2
    const [adminRole] = await t.database.db.select().from(roles).where(eq(roles.code, 'admin'));
    const mgr = client(t, await tokenFor(t, 'amanager')); // level 3
    const high = await mgr.post('/api/users', {
      username: 'promoted',
      nickName: 'x',
      deptId: dept.a,
      roleIds: [uw!.id],
    });
    expect(high.statusCode).toBe(403);
    expect(high.json().message).toMatch(/^角色权限不足：你的角色级别为 3，不能授予级别为 2 的角色/);
    const top = await mgr.post('/api/users', {
      username: 'promoted',
      nickName: 'x',
      deptId: dept.a,
      roleIds: [adminRole!.id],
    });
    expect(top.json()).toEqual({ status: 403, message: '只有系统管理员可以授予系统管理员角色' });
    // Nor manage a user whose roles are above its level (ua1 is an underwriter, level 2).
    const ua1 = (await list('blurry=ua1&sort=id,asc')).content.find((u) => u.username === 'ua1')!;
    const edit = await mgr.post('/api/users/update', {
      id: ua1.id,
      version: ua1.version,
      username: 'ua1',
      nickName: 'x',
      deptId: dept.a,
    });
    expect(edit.statusCode).toBe(403);
    const own = await roleWith(t, 'deptmgr', []);
    const ok = await mgr.post('/api/users', {
      username: 'peer',
      nickName: 'x',
      deptId: dept.a1,
      roleIds: [own],
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('GET /api/users/download', () => {
  it('streams an xlsx of the filtered rows with Chinese headers, masked phones and a timestamp-name file name', async () => {
    const res = await admin.get(`/api/users/download?deptId=${dept.a}&sort=username,asc`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expectDownloadName(res.headers['content-disposition'], '用户数据');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual([
      '用户名',
      '昵称',
      '手机号',
      '邮箱',
      '性别',
      '部门',
      '角色',
      '岗位',
      '渠道',
      '状态',
      '创建时间',
    ]);
    const body = rows.slice(1);
    expect(body.map((r) => r[0])).toEqual(['amanager', 'peer', 'ua1', 'ua11', 'ua2']);
    expect(body.find((r) => r[0] === 'ua1')![2]).toBe('138****0001');
    expect(JSON.stringify(rows)).not.toContain('13800000001');
    expect(body.find((r) => r[0] === 'ua1')![5]).toBe('华东分公司');
    expect(body.find((r) => r[0] === 'ua1')![10]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('refuses a bad sort field like the list', async () => {
    expect((await admin.get('/api/users/download?sort=nope,asc')).statusCode).toBe(400);
  });
});

describe('a data scope remembered at one version of the departments and roles', () => {
  it('is read once, and a department added below, the scope of the role or a move of the user shows at the next request', async () => {
    const role = await roleWith(t, 'scopecached', ['user:list'], { level: 3, dataScope: 'department' });
    const id = await createUser(t, { username: 'scopemgr' });
    await setDept(t, id, dept.a1!);
    await giveRole(t, id, role);
    const mgr = client(t, await tokenFor(t, 'scopemgr'));
    const names = async () =>
      ((await mgr.get('/api/users?size=100')).json().content as Row[]).map((u) => u.username).sort();
    const reads = scopeReads.count;
    const first = await names();
    expect(first).toEqual(expect.arrayContaining(['scopemgr', 'ua11']));
    expect(first).not.toContain('ua1');
    expect(await names()).toEqual(first);
    expect(scopeReads.count - reads).toBe(1);

    // A department added below its own (a statement on department) is in its scope at once.
    const below = await addDept(t, '京口营业部', dept.a1!);
    const newcomer = await createUser(t, { username: 'ua111' });
    await setDept(t, newcomer, below);
    expect(await names()).toEqual([...first, 'ua111'].sort());
    // Moved to another department (read with the session), it sees that one.
    await setDept(t, id, dept.b!);
    const moved = await names();
    expect(moved).toEqual(expect.arrayContaining(['scopemgr', 'ub1', 'ub2']));
    expect(moved).not.toContain('ua11');
    // The role's scope narrowed (a statement on role): only its own.
    await t.database.db.update(roles).set({ dataScope: 'self' }).where(eq(roles.id, role));
    forgetSessions(); // as the write request changing the role does (plugins/auth.ts)
    expect(await names()).toEqual(['scopemgr']);
  });
});
