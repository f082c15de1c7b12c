import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, login } from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { auditLog, roles, systemSettings, users } from '../../db/schema.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const setup = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/init', payload });
const check = async () => (await t.app.inject({ method: 'GET', url: '/api/init/check' })).json();

describe('first-run setup', () => {
  it('GET /api/init/check answers initialized false before the first administrator exists', async () => {
    expect(await check()).toEqual({ initialized: false });
  });

  it('refuses a weak administrator password with 400 naming the field', async () => {
    const res = await setup({ organisationName: '测试保险', username: 'admin', password: 'admin123' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('密码：是常见密码或常见词加数字、符号，容易被猜中，请换一个');
    expect(await check()).toEqual({ initialized: false });
  });

  it('refuses a missing organisation name with 400 机构名称：不能为空', async () => {
    const res = await setup({ username: 'admin', password: ADMIN.password });
    expect(res.json()).toEqual({
      status: 400,
      message: '机构名称：不能为空',
      errors: [{ field: 'organisationName', message: '不能为空' }],
    });
  });

  it('two concurrent setups: exactly one succeeds, the other answers 409', async () => {
    const [a, b] = await Promise.all([
      setup({ organisationName: '甲保险', username: ADMIN.username, password: ADMIN.password }),
      setup({ organisationName: '乙保险', username: 'admin2', password: ADMIN.password }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const ok = a.statusCode === 200 ? a : b;
    expect(ok.json()).toEqual({ initialized: true });
    const conflictRes = a.statusCode === 409 ? a : b;
    expect(conflictRes.json()).toEqual({ status: 409, message: '系统已完成初始化' });
    const admins = await t.database.db.select().from(users);
    expect(admins).toHaveLength(1);
  });

  it('check answers initialized true afterwards, and a further setup answers 409', async () => {
    expect(await check()).toEqual({ initialized: true });
    const res = await setup({ organisationName: '丙保险', username: 'other', password: ADMIN.password });
    expect(res.statusCode).toBe(409);
  });

  it('creates the organisation setting, the six built-in roles and an admin who can sign in', async () => {
    const db = t.database.db;
    const [org] = await db.select().from(systemSettings).where(eq(systemSettings.key, 'organisation'));
    expect(['甲保险', '乙保险']).toContain((org!.value as { name: string }).name);
    const codes = (await db.select({ code: roles.code, name: roles.name }).from(roles)).map(
      (r) => `${r.code}:${r.name}`,
    );
    expect(codes.sort()).toEqual(
      [
        'admin:系统管理员',
        'underwriter:核保员',
        'agent:代理人',
        '17:投保企业',
        'service:风控服务机构',
        'contractor:施工企业',
      ].sort(),
    );
    const [admin] = await db.select().from(users);
    const res = await login(t, admin!.username, ADMIN.password);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.roles).toEqual(['admin']);
    expect(res.json().user.channel).toBe('staff');
    expect(res.json().user.dept?.name).toBe((org!.value as { name: string }).name);
  });

  it('writes an init audit row without the password', async () => {
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'init'));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).not.toContain(ADMIN.password);
  });
});
