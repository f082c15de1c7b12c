import { addDays, defaultEnd, shanghaiToday } from '@piibs/shared/application-status';
import { yuan } from '@piibs/shared/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createWorld, customerForm, type World } from '../../../test/business.ts';

const URL = '/api/inputPlaInsurance/ZhenJiang/applicantInit';

let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(() => w.t.close());

type Customer = { id: number; uscc: string; openTaskId: number };

async function approved(who: Client, over: Parameters<typeof customerForm>[0] = {}): Promise<Customer> {
  const c = (await who.post('/api/customers', customerForm(over))).json() as Customer;
  const task = (await w.underwriter.get(`/api/tasks/${c.openTaskId}`)).json();
  const res = await w.underwriter.post(`/api/tasks/${task.id}/decide`, {
    decision: 'approve',
    version: task.version,
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return c;
}

describe('POST /api/inputPlaInsurance/ZhenJiang/applicantInit', () => {
  it('pre-fills a work-safety application draft from an approved customer (by id)', async () => {
    const c = await approved(w.agent, { region: '321181', headcount: 45, phone: '13800001111' });
    const res = await w.agent.post(URL, { customerId: c.id });
    expect(res.statusCode, res.body).toBe(200);
    const draft = res.json();
    expect(draft).toMatchObject({
      channel: 'ZHENJIANG',
      region: '321181',
      regionName: '丹阳市',
      policyholderType: '1',
      product: { code: 'AZX_GM_2025', productClass: 'work_safety' },
      applicant: { customerId: c.id, uscc: c.uscc, headcount: 45, phone: '138****1111' },
      headcount: 45,
      perPersonLimitFen: yuan(500_000),
      preventionRatio: 15_000_000,
    });
    expect(draft.insured).toEqual(draft.applicant);
    expect(draft.product.rateTableId).toBeGreaterThan(0);
    const start = addDays(shanghaiToday(), 1);
    expect(draft.period).toEqual({ startDate: start, endDate: defaultEnd(start) });
    expect(JSON.stringify(draft)).not.toContain('13800001111');
  });

  it('finds the customer by code; a customer outside Zhenjiang gets the city default 321100', async () => {
    const c = await approved(w.agent, { region: '320100' });
    const res = await w.agent.post(URL, { uscc: c.uscc.toLowerCase() });
    expect(res.json()).toMatchObject({
      region: '321100',
      regionName: '镇江市',
      applicant: { region: '320100' },
    });
  });

  it('the enterprise pre-fills its own record', async () => {
    await approved(w.ent, { uscc: w.entUscc });
    const res = await w.ent.post(URL, { uscc: w.entUscc });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('400 when the customer is not approved (投保人尚未审核通过)', async () => {
    const c = (await w.agent.post('/api/customers', customerForm())).json();
    expect((await w.agent.post(URL, { customerId: c.id })).json()).toEqual({
      status: 400,
      message: '投保人尚未审核通过',
    });
  });

  it('404 for customers the caller may not see; 400 naming the field without id or code', async () => {
    const c = await approved(w.agent);
    expect((await w.agent2.post(URL, { customerId: c.id })).statusCode).toBe(404);
    expect((await w.ent.post(URL, { uscc: c.uscc })).statusCode).toBe(404);
    expect((await w.agent.post(URL, { customerId: 999_999 })).statusCode).toBe(404);
    expect((await w.agent.post(URL, {})).json()).toEqual({
      status: 400,
      message: '投保人ID：请提供投保人ID或统一社会信用代码',
      errors: [{ field: 'customerId', message: '请提供投保人ID或统一社会信用代码' }],
    });
    expect((await w.nobody.post(URL, { customerId: c.id })).statusCode).toBe(403);
  });
});

describe('policy period arithmetic', () => {
  it.each([
    ['2026-11-24', '2027-11-23'],
    ['2026-01-01', '2026-12-31'],
    ['2028-02-29', '2029-02-28'],
    ['2027-03-01', '2028-02-29'],
  ])('from 00:00 of %s to 24:00 of %s', (start, end) => {
    expect(defaultEnd(start)).toBe(end);
  });
  it('adds days across month ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('OpenAPI', () => {
  it('documents every business route with its request and response schemas', async () => {
    const doc = (await w.admin.get('/api/docs/json')).json() as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    };
    for (const [path, method] of [
      ['/api/products', 'post'],
      ['/api/products/{id}/quote', 'post'],
      ['/api/products/{id}/rateTables', 'post'],
      ['/api/rateTables/{id}/activate', 'post'],
      ['/api/customers', 'post'],
      ['/api/customers/update', 'post'],
      ['/api/tasks/{id}/decide', 'post'],
      ['/api/inputPlaInsurance/ZhenJiang/applicantInit', 'post'],
    ] as const) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op!.requestBody, `${method} ${path}`).toBeDefined();
      expect(op!.responses['200'], `${method} ${path}`).toBeDefined();
    }
    for (const path of [
      '/api/products',
      '/api/customers',
      '/api/tasks',
      '/api/tasks/{id}',
      '/api/products/available',
    ])
      expect(doc.paths[path]?.get?.responses['200'], path).toBeDefined();
  });
});
