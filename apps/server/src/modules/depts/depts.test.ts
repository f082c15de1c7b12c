import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, expectDownloadName, giveRole, readXlsx, roleWith, setDept } from '../../../test/admin.ts';
import { ADMIN, createUser, initSystem, tokenFor } from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';

let t: TestContext;
let admin: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  await initSystem(t);
  admin = client(t, await tokenFor(t, ADMIN.username, ADMIN.password));
});
afterAll(() => t.close());

interface Node {
  id: number;
  name: string;
  version: number;
  userCount: number;
  children?: Node[];
}

const add = async (name: string, parentId: number | null, sort = 999) => {
  const res = await admin.post('/api/depts', { name, parentId, sort });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Node & { parentId: number | null };
};

describe('departments', () => {
  let root: Node;
  let east: Node;
  let zj: Node;

  it('lists the tree with user counts', async () => {
    const res = await admin.get('/api/depts');
    expect(res.statusCode).toBe(200);
    root = res.json().content[0];
    expect(root).toMatchObject({ name: '测试财产保险股份有限公司', userCount: 1 });
    east = await add('华东分公司', root.id, 1);
    zj = await add('镇江中心支公司', east.id);
    await add('华南分公司', root.id, 2);
    const tree = (await admin.get('/api/depts')).json();
    expect(tree.totalElements).toBe(4);
    const top = tree.content[0] as Node;
    expect(top.children!.map((c) => c.name)).toEqual(['华东分公司', '华南分公司']);
    expect(top.children![0]!.children!.map((c) => c.name)).toEqual(['镇江中心支公司']);
  });

  it('filters by name: matches form the tree, a match whose parent does not match becomes a root', async () => {
    const res = (await admin.get(`/api/depts?name=${encodeURIComponent('镇江')}`)).json();
    expect(res).toMatchObject({ totalElements: 1, content: [{ name: '镇江中心支公司' }] });
    expect((await admin.get('/api/depts?enabled=false')).json().totalElements).toBe(0);
  });

  it('validates with messages naming the field and refuses a duplicate sibling name', async () => {
    expect((await admin.post('/api/depts', { name: '' })).json()).toEqual({
      status: 400,
      message: '部门名称：不能为空',
      errors: [{ field: 'name', message: '不能为空' }],
    });
    expect((await admin.post('/api/depts', { name: 'x', parentId: 999999 })).json()).toEqual({
      status: 400,
      message: '上级部门：所选部门不存在',
      errors: [{ field: 'parentId', message: '所选部门不存在' }],
    });
    expect((await admin.post('/api/depts', { name: '华东分公司', parentId: root.id })).json()).toEqual({
      status: 409,
      message: '同级部门中已存在「华东分公司」',
    });
  });

  it('updates with an optional version (stale answers 409) and refuses a cycle', async () => {
    const ok = await admin.post('/api/depts/update', {
      id: zj.id,
      version: 0,
      name: '镇江中支',
      parentId: east.id,
      enabled: false,
    });
    expect(ok.json()).toMatchObject({ name: '镇江中支', enabled: false, version: 1 });
    const stale = await admin.post('/api/depts/update', {
      id: zj.id,
      version: 0,
      name: 'x',
      parentId: east.id,
    });
    expect(stale.statusCode).toBe(409);
    const cycle = await admin.post('/api/depts/update', { id: east.id, name: '华东分公司', parentId: zj.id });
    expect(cycle.json()).toEqual({
      status: 400,
      message: '上级部门：不能选择自己的下级部门',
      errors: [{ field: 'parentId', message: '不能选择自己的下级部门' }],
    });
  });

  it('refuses to delete a department that has users, or sub-departments, with a clear message', async () => {
    const uid = await createUser(t, { username: 'zjstaff' });
    await setDept(t, uid, zj.id);
    expect((await admin.post('/api/depts/delete', [zj.id])).json()).toEqual({
      status: 400,
      message: '部门「镇江中支」下还有 1 个用户，请先将用户调离该部门再删除',
    });
    await setDept(t, uid, null);
    expect((await admin.post('/api/depts/delete', [east.id])).json()).toEqual({
      status: 400,
      message: '部门「华东分公司」下还有下级部门，请先删除下级部门',
    });
    // A department deleted together with its children is fine.
    expect((await admin.post('/api/depts/delete', [east.id, zj.id])).json()).toEqual({ deleted: 2 });
    expect((await admin.post('/api/depts/delete', [east.id])).statusCode).toBe(404);
  });

  it('needs dept:* permissions (the tree also opens to user:list holders)', async () => {
    await createUser(t, { username: 'nobody', roles: ['underwriter'] });
    const nobody = client(t, await tokenFor(t, 'nobody'));
    expect((await nobody.get('/api/depts')).statusCode).toBe(403);
    expect((await nobody.post('/api/depts', { name: 'x' })).statusCode).toBe(403);
    const r = await roleWith(t, 'lister', ['user:list']);
    const id = await createUser(t, { username: 'lister' });
    await giveRole(t, id, r);
    const lister = client(t, await tokenFor(t, 'lister'));
    expect((await lister.get('/api/depts')).statusCode).toBe(200);
    expect((await lister.get('/api/depts/download')).statusCode).toBe(403);
  });

  it('exports the departments as xlsx', async () => {
    const res = await admin.get('/api/depts/download');
    expectDownloadName(res.headers['content-disposition'], '部门数据');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(['部门名称', '上级部门', '排序', '状态', '用户数', '创建时间']);
    expect(rows.find((r) => r[0] === '华南分公司')![1]).toBe('测试财产保险股份有限公司');
  });
});

describe('jobs', () => {
  it('create, page and sort, filter by name', async () => {
    for (const [name, sort] of [
      ['核保岗', 1],
      ['理赔岗', 2],
      ['风控岗', 3],
    ] as const) {
      const res = await admin.post('/api/jobs', { name, sort });
      expect(res.statusCode, res.body).toBe(200);
    }
    const page = (await admin.get('/api/jobs?page=0&size=2&sort=sort,desc')).json();
    expect(page.totalElements).toBe(3);
    expect(page.content.map((j: { name: string }) => j.name)).toEqual(['风控岗', '理赔岗']);
    expect((await admin.get(`/api/jobs?name=${encodeURIComponent('核保')}`)).json().totalElements).toBe(1);
    expect((await admin.get('/api/jobs?sort=salary,desc')).json().message).toMatch(/^排序字段：/);
    expect((await admin.post('/api/jobs', { name: '核保岗' })).json()).toEqual({
      status: 409,
      message: '岗位名称已存在',
    });
    expect((await admin.post('/api/jobs', { name: '' })).json()).toEqual({
      status: 400,
      message: '岗位名称：不能为空',
      errors: [{ field: 'name', message: '不能为空' }],
    });
  });

  it('updates with a version, and refuses to delete a job assigned to a user', async () => {
    const job = (await admin.get(`/api/jobs?name=${encodeURIComponent('理赔')}`)).json().content[0];
    const upd = await admin.post('/api/jobs/update', { ...job, name: '理赔专员岗', enabled: false });
    expect(upd.json()).toMatchObject({ name: '理赔专员岗', enabled: false, version: 1 });
    expect((await admin.post('/api/jobs/update', { ...job, name: 'x' })).statusCode).toBe(409);
    const created = await admin.post('/api/users', {
      username: 'adjuster',
      nickName: '理赔员',
      jobIds: [job.id],
    });
    expect(created.statusCode, created.body).toBe(200);
    expect((await admin.post('/api/jobs/delete', [job.id])).json()).toEqual({
      status: 400,
      message: '岗位「理赔专员岗」已分配给 1 个用户，请先解除关联再删除',
    });
    const users = (await admin.get('/api/users?blurry=adjuster')).json().content;
    expect(users[0].jobs).toEqual([{ id: job.id, name: '理赔专员岗' }]);
  });

  it('exports the jobs as xlsx and needs job:list', async () => {
    const res = await admin.get('/api/jobs/download?enabled=true');
    expectDownloadName(res.headers['content-disposition'], '岗位数据');
    const rows = await readXlsx(res.rawPayload);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['核保岗', '风控岗']);
    const nobody = client(t, await tokenFor(t, 'nobody'));
    expect((await nobody.get('/api/jobs')).statusCode).toBe(403);
  });
});
