import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { client } from '../../test/admin.ts';
import { ADMIN, initSystem, tokenFor } from '../../test/auth.ts';
import { newUscc } from '../../test/business.ts';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { fieldError } from './errors.ts';
import { errorBody } from './schemas.ts';

// A 400 names every refused field by its request path, so the web can put each message on its form field.

let t: TestContext;
let admin: ReturnType<typeof client>;

const phone = z
  .string()
  .regex(/^1\d{10}$/, '请输入正确的11位手机号码')
  .meta({ title: '联系电话' });

beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    app.post(
      '/api/__test/nested',
      {
        config: { auth: 'public' },
        schema: {
          querystring: z.object({
            page: z.coerce.number().int().min(0, { error: '最小为 0' }).meta({ title: '页码' }),
          }),
          body: z.object({
            insured: z.object({
              name: z.string().min(1).meta({ title: '被保险人名称' }),
              contactPhone: phone,
            }),
            items: z.array(
              z.object({ amount: z.number().int().positive({ error: '须大于 0' }).meta({ title: '金额' }) }),
            ),
          }),
          // The declared error answer must keep `errors` through the response serializer.
          response: { 400: errorBody },
        },
      },
      async () => ({ ok: true }),
    );
    app.post('/api/__test/rule', { config: { auth: 'public' } }, async () => {
      throw fieldError('parentId', '不能选择自己', '上级部门');
    });
  });
  await initSystem(t);
  admin = client(t, await tokenFor(t, ADMIN.username, ADMIN.password));
});
afterAll(() => t.close());

describe('a zod-validated route refuses with errors[].field', () => {
  it('lists every refused body field once, by its dotted path; the message names the first', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/__test/nested?page=0',
      payload: { insured: { contactPhone: '123' }, items: [{ amount: 5 }, { amount: -1 }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 400,
      message: '被保险人名称：不能为空',
      errors: [
        { field: 'insured.name', message: '不能为空' },
        { field: 'insured.contactPhone', message: '请输入正确的11位手机号码' },
        { field: 'items.1.amount', message: '须大于 0' },
      ],
    });
  });

  it('names a query parameter by its name', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/__test/nested?page=-1',
      payload: { insured: { name: '甲', contactPhone: '13800138000' }, items: [] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 400,
      message: '页码：最小为 0',
      errors: [{ field: 'page', message: '最小为 0' }],
    });
  });

  it('on real routes: a nested field of a service organisation and a list query parameter', async () => {
    const org = await admin.post('/api/service-orgs', {
      code: newUscc(),
      name: '镇江安泰安全技术服务有限公司',
      qualifications: [
        {
          name: '安全评价机构资质',
          certNo: 'APJ-(苏)-001',
          level: '乙级',
          validFrom: '2024-01-01',
          validTo: '2099-12-31',
        },
      ],
      regions: ['321100'],
      industries: ['C'],
      contacts: [{ name: '周工', phone: '123' }],
    });
    expect(org.statusCode).toBe(400);
    expect(org.json()).toEqual({
      status: 400,
      message: '联系电话：请输入正确的电话号码或者固话号码',
      errors: [{ field: 'contacts.0.phone', message: '请输入正确的电话号码或者固话号码' }],
    });

    const users = await admin.get('/api/users?size=0');
    expect(users.statusCode).toBe(400);
    expect(users.json()).toEqual({
      status: 400,
      message: '每页条数：最小为 1',
      errors: [{ field: 'size', message: '最小为 1' }],
    });
  });
});

describe('a business rule refuses a field with errors[].field', () => {
  it('on a real route: a department cannot be its own parent', async () => {
    const dept = (await admin.post('/api/depts', { name: '镇江中心支公司', parentId: null, sort: 1 })).json();
    const res = await admin.post('/api/depts/update', {
      id: dept.id,
      version: dept.version,
      name: dept.name,
      parentId: dept.id,
      sort: 1,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 400,
      message: '上级部门：不能选择自己',
      errors: [{ field: 'parentId', message: '不能选择自己' }],
    });
  });

  it('fieldError answers the notice text and the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/__test/rule' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 400,
      message: '上级部门：不能选择自己',
      errors: [{ field: 'parentId', message: '不能选择自己' }],
    });
  });
});
