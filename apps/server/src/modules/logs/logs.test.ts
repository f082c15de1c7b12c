import { paymentActor, SYSTEM_ACTOR } from '@piibs/shared/audit-text';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, expectDownloadName, giveRole, readXlsx, roleWith } from '../../../test/admin.ts';
import { ADMIN, createUser, initSystem, login, tokenFor } from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { auditLog, roles } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';

let t: TestContext;
let admin: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  await initSystem(t);
  admin = client(t, await tokenFor(t, ADMIN.username, ADMIN.password));
  for (let i = 0; i < 3; i++) await admin.post('/api/jobs', { name: `岗位${i}` });
  await createUser(t, { username: 'clerk', roles: ['underwriter'] });
  await login(t, 'clerk', 'Wrong#Pass2026');
  await login(t, 'clerk', 'Wrong#Pass2026');
});
afterAll(() => t.close());

describe('GET /api/logs (operation log)', () => {
  it('pages the audit trail newest first, with before/after details', async () => {
    const res = await admin.get('/api/logs?entity=job&size=2');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totalElements).toBe(3);
    expect(body.content).toHaveLength(2);
    // The actor by name (姓名), not by login name.
    expect(body.content[0]).toMatchObject({
      actorName: '系统管理员',
      action: 'create',
      entity: 'job',
      detail: { before: null, after: { name: '岗位2' } },
    });
    expect(typeof body.content[0].createdAt).toBe('string');
  });

  it('filters by actor, action, entity, blurry text and time range; sorts by whitelisted fields', async () => {
    expect((await admin.get('/api/logs?actor=admin&action=create&entity=job')).json().totalElements).toBe(3);
    expect((await admin.get('/api/logs?actor=nobody')).json().totalElements).toBe(0);
    const byName = encodeURIComponent('系统管理员');
    expect((await admin.get(`/api/logs?actor=${byName}&entity=job`)).json().totalElements).toBe(3);
    expect(
      (await admin.get(`/api/logs?blurry=${encodeURIComponent('管理员')}&entity=job`)).json().totalElements,
    ).toBe(3);
    expect((await admin.get('/api/logs?blurry=jo')).json().totalElements).toBe(3);
    expect((await admin.get('/api/logs?entity=job&endTime=2000-01-01')).json().totalElements).toBe(0);
    const asc = (await admin.get('/api/logs?entity=job&sort=id,asc')).json().content;
    expect(asc.map((r: { detail: { after: { name: string } } }) => r.detail.after.name)).toEqual([
      '岗位0',
      '岗位1',
      '岗位2',
    ]);
    expect((await admin.get('/api/logs?sort=detail,asc')).json().message).toMatch(/^排序字段：/);
  });

  it('has no update or delete endpoint', async () => {
    for (const url of ['/api/logs/update', '/api/logs/delete', '/api/logs/1']) {
      expect((await admin.post(url, {})).statusCode, url).toBe(404);
    }
    const doc = (await admin.get('/api/docs/json')).json();
    const logPaths = Object.entries(doc.paths as Record<string, Record<string, unknown>>).filter(([p]) =>
      p.startsWith('/api/logs'),
    );
    expect(logPaths.map(([p]) => p).sort()).toEqual([
      '/api/logs',
      '/api/logs/download',
      '/api/logs/login',
      '/api/logs/login/download',
    ]);
    for (const [, methods] of logPaths) expect(Object.keys(methods)).toEqual(['get']);
  });

  it('needs log:list (403 otherwise)', async () => {
    const clerk = client(t, await tokenFor(t, 'clerk'));
    expect((await clerk.get('/api/logs')).statusCode).toBe(403);
    expect((await clerk.get('/api/logs/login')).statusCode).toBe(403);
    const r = await roleWith(t, 'auditor', ['log:list']);
    const id = await createUser(t, { username: 'auditor' });
    await giveRole(t, id, r);
    const auditor = client(t, await tokenFor(t, 'auditor'));
    expect((await auditor.get('/api/logs')).statusCode).toBe(200);
    expect((await auditor.get('/api/logs/login/download')).statusCode).toBe(200);
  });
});

describe('the operation log in words', () => {
  it('names a step no person took: 系统自动, the payment provider by its name; searchable and exported so', async () => {
    const db = t.database.db;
    await writeAudit(db, { actorName: SYSTEM_ACTOR, action: 'issue', entity: 'site_settings' });
    await writeAudit(db, { actorName: paymentActor('sandbox'), action: 'pay', entity: 'site_settings' });
    const rows = (await admin.get('/api/logs?entity=site_settings&sort=id,asc')).json().content;
    expect(rows.map((r: { actorName: string }) => r.actorName)).toEqual(['系统自动', '沙箱支付（测试环境）']);
    const bySystem = (
      await admin.get(`/api/logs?entity=site_settings&actor=${encodeURIComponent('系统自动')}`)
    ).json();
    expect(bySystem.content.map((r: { action: string }) => r.action)).toEqual(['issue']);
    const sheet = await readXlsx(
      (await admin.get('/api/logs/download?entity=site_settings&sort=id,asc')).rawPayload,
    );
    expect(sheet.slice(1).map((r) => r[1])).toEqual(['系统自动', '沙箱支付（测试环境）']);
  });

  it('a user’s entry names the user, the custom role, the department and the channel in words', async () => {
    const roleId = await roleWith(t, 'safety_officer', []);
    await t.database.db.update(roles).set({ name: '安全专员' }).where(eq(roles.id, roleId));
    const dept = (
      await admin.post('/api/depts', { name: '风控部', parentId: null, sort: 1, enabled: true })
    ).json();
    const made = await admin.post('/api/users', {
      username: 'wangwu',
      nickName: '王五',
      roleIds: [roleId],
      jobIds: [],
      deptId: dept.id,
      channel: 'agent',
      enabled: true,
    });
    expect(made.statusCode, made.body).toBe(200);
    const [entry] = (await admin.get('/api/logs?entity=user&action=create')).json().content;
    expect(entry.record).toBe('王五');
    expect(entry.lines).toEqual(
      expect.arrayContaining(['角色：安全专员', '部门：风控部', '渠道：代理人', '姓名：王五']),
    );
    const text = entry.lines.join('\n');
    expect(text).not.toMatch(/safety_officer|roleIds|deptId|agent/);
    expect(text).not.toContain(`：${roleId}`);
  });
});

describe('audit_log is append-only in the database', () => {
  it('refuses UPDATE, DELETE and TRUNCATE; INSERT still works', async () => {
    const db = t.database.db;
    await writeAudit(db, { action: 'probe', entity: 'test' });
    const [row] = await db.select().from(auditLog).where(eq(auditLog.action, 'probe'));
    await expect(
      db.update(auditLog).set({ action: 'tampered' }).where(eq(auditLog.id, row!.id)),
    ).rejects.toThrow();
    await expect(db.delete(auditLog).where(eq(auditLog.id, row!.id))).rejects.toThrow();
    await expect(t.database.pool.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    await expect(t.database.pool.query('DELETE FROM audit_log')).rejects.toThrow(/append-only: DELETE/);
    const [still] = await db.select().from(auditLog).where(eq(auditLog.id, row!.id));
    expect(still!.action).toBe('probe');
    const [n] = await db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
    expect(n!.n).toBeGreaterThan(3);
  });
});

describe('GET /api/logs/login (sign-in log)', () => {
  it('lists sign-in attempts with the browser, filtered by user and result', async () => {
    const res = await admin.get('/api/logs/login?username=clerk&success=false');
    expect(res.statusCode).toBe(200);
    expect(res.json().totalElements).toBe(2);
    expect(res.json().content[0]).toMatchObject({
      username: 'clerk',
      success: false,
      reason: 'bad_password',
      method: 'password',
    });
    const ok = (await admin.get('/api/logs/login?success=true&sort=createdAt,asc')).json();
    expect(ok.content[0].username).toBe('admin');
    expect((await admin.get('/api/logs/login?success=maybe')).json().message).toBe(
      '是否成功：请选择 true 或 false',
    );
  });
});

describe('log exports', () => {
  it('GET /api/logs/download exports the filtered operation log', async () => {
    const res = await admin.get('/api/logs/download?entity=job&sort=id,asc');
    expect(res.statusCode).toBe(200);
    expectDownloadName(res.headers['content-disposition'], '操作日志');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(['时间', '操作人', '操作', '操作对象', '业务编号/名称', 'IP', '详情']);
    // In words, as on screen: the action and object named, the detail as 字段：值 lines (no JSON).
    expect(rows.slice(1).map((r) => `${r[2]}:${r[3]}`)).toEqual(['新增:岗位', '新增:岗位', '新增:岗位']);
    expect(rows[1]![4]).toBe('岗位0');
    expect(rows[1]![6]).toContain('岗位0');
    expect(String(rows[1]![6])).not.toMatch(/[{}"]/);
  });

  it('GET /api/logs/login/download exports the filtered sign-in log', async () => {
    const res = await admin.get('/api/logs/login/download?username=clerk&success=false');
    expectDownloadName(res.headers['content-disposition'], '登录日志');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(['时间', '用户名', '登录方式', '结果', '原因', 'IP', '浏览器']);
    expect(rows.slice(1).map((r) => `${r[1]}:${r[3]}:${r[4]}`)).toEqual([
      'clerk:失败:密码错误',
      'clerk:失败:密码错误',
    ]);
  });
});
