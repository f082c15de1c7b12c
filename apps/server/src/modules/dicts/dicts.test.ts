import { SEEDED_DICTS } from '@piibs/shared/admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, expectDownloadName, giveRole, readXlsx, roleWith } from '../../../test/admin.ts';
import { ADMIN, createUser, initSystem, tokenFor } from '../../../test/auth.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { onStart } from '../../startup.ts';
import { seedDictionaries, seedDictList } from './seed.ts';

let t: TestContext;
let admin: ReturnType<typeof client>;
let plain: ReturnType<typeof client>;
const lines: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await onStart({ config: t.config, database: t.database, log: (l) => lines.push(l) });
  await initSystem(t);
  admin = client(t, await tokenFor(t, ADMIN.username, ADMIN.password));
  await createUser(t, { username: 'ent', roles: ['17'], channel: 'enterprise' });
  plain = client(t, await tokenFor(t, 'ent'));
});
afterAll(() => t.close());

type Detail = { id: number; dictId: number; label: string; value: string; sort: number; dictName: string };
const details = async (who: ReturnType<typeof client>, dictName: string) => {
  const res = await who.get(`/api/dictDetail?dictName=${dictName}&page=0&size=9999`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { content: Detail[]; totalElements: number };
};

describe('seeded dictionaries (first start, demo or not)', () => {
  it('a start outside demo mode without PIIBS_PUBLIC_URL warns that the documents print an address the public may not reach', () => {
    expect(t.config.demo).toBe(false);
    expect(lines.some((l) => l.startsWith('WARNING: PIIBS_PUBLIC_URL is not set'))).toBe(true);
  });

  it('seeds on the first start only', async () => {
    expect(lines.some((l) => l.includes('dictionaries seeded'))).toBe(true);
    expect(await seedDictionaries(t.database.db)).toBe(false);
    expect(
      seedDictList()
        .map((d) => d.name)
        .sort(),
    ).toEqual([...SEEDED_DICTS].sort());
  });

  it('industry_section has the 20 sections A–T and industry_division the 97 divisions 01–97', async () => {
    const sections = await details(plain, 'industry_section');
    expect(sections.totalElements).toBe(20);
    expect(sections.content[0]).toMatchObject({
      value: 'A',
      label: '农、林、牧、渔业',
      dictName: 'industry_section',
    });
    expect(sections.content.at(-1)!.value).toBe('T');
    const divisions = await details(plain, 'industry_division');
    expect(divisions.totalElements).toBe(97);
    expect(divisions.content).toHaveLength(97);
    expect(divisions.content[0]).toMatchObject({ value: '01', label: '农业' });
    expect(divisions.content.at(-1)!.value).toBe('97');
  });

  it("region_zhenjiang holds Zhenjiang's six counties and region_jiangsu Jiangsu's 13 prefectures", async () => {
    const zj = await details(plain, 'region_zhenjiang');
    expect(zj.content.map((d) => d.label)).toEqual([
      '京口区',
      '润州区',
      '丹徒区',
      '丹阳市',
      '扬中市',
      '句容市',
    ]);
    expect(zj.content.map((d) => d.value)).toEqual([
      '321102',
      '321111',
      '321112',
      '321181',
      '321182',
      '321183',
    ]);
    const js = await details(plain, 'region_jiangsu');
    expect(js.totalElements).toBe(13);
    expect(js.content.find((d) => d.value === '321100')!.label).toBe('镇江市');
  });

  it('holds the application states of DOMAIN.md, id types, coinsurers, document and policyholder types', async () => {
    const states = await details(plain, 'application_status');
    expect(states.content.map((d) => `${d.value}:${d.label}`)).toEqual([
      'DRAFT:草稿',
      'PENDING_REVIEW:待审核',
      'RETURNED:已退回',
      'DECLINED:已拒保',
      'PENDING_PAYMENT:待支付',
      'PAID:已支付',
      'PAYMENT_EXPIRED:支付已过期',
      'CANCELLED:已撤销',
      'ISSUED:已出单',
      'IN_FORCE:保障中',
      'EXPIRED:已到期',
    ]);
    const ids = (await details(plain, 'id_type')).content.map((d) => d.label);
    expect(ids).toEqual(
      expect.arrayContaining([
        '居民身份证',
        '护照',
        '港澳居民来往内地通行证',
        '台湾居民来往大陆通行证',
        '统一社会信用代码',
      ]),
    );
    expect((await details(plain, 'policyholder_type')).content.map((d) => `${d.value}:${d.label}`)).toEqual([
      '1:企业',
      '2:个人',
    ]);
    expect((await details(plain, 'coinsurer')).content.map((d) => d.label)).toContain(
      '中国人民财产保险股份有限公司',
    );
    expect((await details(plain, 'document_type')).content.map((d) => d.label)).toEqual(
      expect.arrayContaining(['营业执照', '投保单', '被保险人清单', '安全生产许可证', '签章投保单']),
    );
  });
});

describe('GET /api/dictDetail (spec §7, paths exact)', () => {
  it('answers { content: [{ id, label, value, sort, dictName }], totalElements } and pages', async () => {
    const page = await plain.get('/api/dictDetail?dictName=industry_division&page=1&size=10');
    expect(page.json().totalElements).toBe(97);
    expect(page.json().content.map((d: Detail) => d.value)).toEqual([
      '11',
      '12',
      '13',
      '14',
      '15',
      '16',
      '17',
      '18',
      '19',
      '20',
    ]);
    expect(Object.keys(page.json().content[0]).sort()).toEqual([
      'dictId',
      'dictName',
      'id',
      'label',
      'sort',
      'value',
    ]);
    expect((await details(plain, 'no_such_dict')).content).toEqual([]);
    expect((await plain.get('/api/dictDetail?dictName=id_type&size=10000')).json().message).toBe(
      '每页条数：最大为 9999',
    );
  });

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/dictDetail?dictName=id_type' })).statusCode).toBe(
      401,
    );
  });

  it('GET /api/dict/all?names=a,b answers { name: [{ label, value }] }', async () => {
    const res = await plain.get('/api/dict/all?names=policyholder_type,region_zhenjiang,nothing');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.policyholder_type).toEqual([
      { label: '企业', value: '1' },
      { label: '个人', value: '2' },
    ]);
    expect(body.region_zhenjiang).toHaveLength(6);
    expect(body.nothing).toEqual([]);
    expect((await plain.get('/api/dict/all?names=')).json()).toEqual({
      status: 400,
      message: '字典名称：不能为空',
      errors: [{ field: 'names', message: '不能为空' }],
    });
  });
});

describe('dictionary administration', () => {
  let dictId: number;

  it('POST /api/dict creates a dictionary; names are unique', async () => {
    const res = await admin.post('/api/dict', { name: 'risk_level', description: '风险等级' });
    expect(res.statusCode, res.body).toBe(200);
    dictId = res.json().id;
    expect(res.json()).toMatchObject({ name: 'risk_level', detailCount: 0 });
    expect((await admin.post('/api/dict', { name: 'risk_level' })).json()).toEqual({
      status: 409,
      message: '字典名称已存在',
    });
    expect((await admin.post('/api/dict', { name: '风险' })).json().message).toMatch(/^字典名称：/);
  });

  it('POST /api/dictDetail, /api/dictDetail/update, /api/dictDetail/delete/{id}', async () => {
    const add = await admin.post('/api/dictDetail', { dictId, label: '高', value: 'HIGH', sort: 1 });
    expect(add.statusCode, add.body).toBe(200);
    expect(add.json()).toMatchObject({ label: '高', value: 'HIGH', sort: 1, dictName: 'risk_level' });
    const low = await admin.post('/api/dictDetail', { dictId, label: '低', value: 'LOW', sort: 2 });
    expect((await admin.post('/api/dictDetail', { dictId, label: '重复', value: 'HIGH' })).json()).toEqual({
      status: 409,
      message: '该字典中已存在相同的字典值',
    });
    expect((await admin.post('/api/dictDetail', { dictId, label: '', value: 'X' })).json()).toEqual({
      status: 400,
      message: '字典标签：不能为空',
      errors: [{ field: 'label', message: '不能为空' }],
    });
    const upd = await admin.post('/api/dictDetail/update', {
      id: add.json().id,
      label: '较高',
      value: 'HIGH',
      sort: 3,
    });
    expect(upd.json()).toMatchObject({ label: '较高', sort: 3 });
    expect((await details(plain, 'risk_level')).content.map((d) => d.value)).toEqual(['LOW', 'HIGH']);
    const del = await admin.post(`/api/dictDetail/delete/${low.json().id}`);
    expect(del.json()).toEqual({ deleted: 1 });
    expect((await admin.post(`/api/dictDetail/delete/${low.json().id}`)).statusCode).toBe(404);
    expect((await details(plain, 'risk_level')).totalElements).toBe(1);
  });

  it("the co-insurers' dictionary refuses the issuing insurer's reserved code ISSUER", async () => {
    const all = (await admin.get('/api/dict?page=0&size=100')).json() as {
      content: { id: number; name: string }[];
    };
    const coinsurer = all.content.find((d) => d.name === 'coinsurer')!;
    const res = await admin.post('/api/dictDetail', { dictId: coinsurer.id, label: '冒名', value: 'issuer' });
    expect(res.json()).toEqual({
      status: 400,
      message: '字典值：ISSUER 为本公司（出单公司）的保留代码，不能用作共保公司代码',
      errors: [{ field: 'value', message: 'ISSUER 为本公司（出单公司）的保留代码，不能用作共保公司代码' }],
    });
  });

  it('writes need dict:add / dict:edit / dict:del (403 otherwise); reading does not', async () => {
    expect((await plain.post('/api/dictDetail', { dictId, label: 'x', value: 'x' })).statusCode).toBe(403);
    expect((await plain.post('/api/dictDetail/update', { id: 1, label: 'x', value: 'x' })).statusCode).toBe(
      403,
    );
    expect((await plain.post('/api/dictDetail/delete/1')).statusCode).toBe(403);
    expect((await plain.get('/api/dict')).statusCode).toBe(403);
    const r = await roleWith(t, 'dictadder', ['dict:add']);
    const id = await createUser(t, { username: 'adder' });
    await giveRole(t, id, r);
    const adder = client(t, await tokenFor(t, 'adder'));
    expect((await adder.post('/api/dictDetail', { dictId, label: '中', value: 'MID' })).statusCode).toBe(200);
    expect((await adder.post('/api/dictDetail/delete/1')).statusCode).toBe(403);
  });

  it('GET /api/dict pages the dictionaries; update and delete (with entries)', async () => {
    const page = (await admin.get('/api/dict?blurry=region&sort=name,desc')).json();
    expect(page.content.map((d: { name: string }) => d.name)).toEqual(['region_zhenjiang', 'region_jiangsu']);
    expect(page.content[0].detailCount).toBe(6);
    const upd = await admin.post('/api/dict/update', {
      id: dictId,
      name: 'risk_grade',
      description: '风险分级',
    });
    expect(upd.json()).toMatchObject({ name: 'risk_grade', version: 1 });
    expect((await details(plain, 'risk_grade')).totalElements).toBe(2);
    expect((await admin.post('/api/dict/delete', [dictId])).json()).toEqual({ deleted: 1 });
    expect((await details(plain, 'risk_grade')).totalElements).toBe(0);
  });

  it('GET /api/dict/download exports the dictionaries with their entries', async () => {
    const res = await admin.get('/api/dict/download?blurry=policyholder');
    expect(res.statusCode).toBe(200);
    expectDownloadName(res.headers['content-disposition'], '字典数据');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(['字典名称', '字典描述', '字典标签', '字典值', '排序', '创建时间']);
    expect(rows.slice(1).map((r) => `${r[0]}:${r[3]}:${r[2]}`)).toEqual([
      'policyholder_type:1:企业',
      'policyholder_type:2:个人',
    ]);
  });
});
