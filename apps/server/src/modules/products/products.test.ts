import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { yuan } from '@piibs/shared/money';
import {
  type AvailableProduct,
  type ProductCreateForm,
  productCreateForm,
  type QuoteForm,
  rateRowsProblem,
  rateTableCreateForm,
} from '@piibs/shared/product';
import { composeQuote } from '@piibs/shared/quote';
import { RatingError } from '@piibs/shared/rating';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDownloadName, readXlsx } from '../../../test/admin.ts';
import { createWorld, customerForm, type World } from '../../../test/business.ts';
import { auditLog } from '../../db/schema.ts';
import { SEED_PRODUCTS } from './seed.ts';

let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(() => w.t.close());

type Product = {
  id: number;
  code: string;
  version: number;
  activeRateTable: { id: number; versionNo: number } | null;
};

const productForm = (over: Partial<ProductCreateForm> = {}): ProductCreateForm => ({
  code: 'AZX_T1',
  name: '安责险测试',
  productClass: 'work_safety',
  clauseVersion: '2025版',
  region: '321100',
  validFrom: '2025-01-01',
  validTo: '2030-12-31',
  preventionRatioMin: 15_000_000,
  preventionRatioMax: 21_000_000,
  commissionCap: 5_000_000,
  coverages: [{ type: 'EMPLOYEE_DEATH_DISABILITY', perPersonLimitFen: yuan(400_000), mandatory: true }],
  ...over,
});

const seeded = async (code: string): Promise<Product> => {
  const res = await w.admin.get(`/api/products?blurry=${code}`);
  return res.json().content[0] as Product;
};

describe('seed products (every installation, first start)', () => {
  it('writes the three products, each with an active rate table version 1', async () => {
    const res = await w.admin.get('/api/products?size=50&sort=code,asc');
    expect(res.statusCode).toBe(200);
    const codes = (res.json().content as Product[]).map((p) => [p.code, p.activeRateTable?.versionNo]);
    expect(codes).toEqual([
      ['AZX_GM_2025', 1],
      ['JZSG_AZX_2025', 1],
      ['LYBZ_2025', 1],
    ]);
  });

  it('passes the shared product and rate-table rules', () => {
    for (const { product, table } of SEED_PRODUCTS) {
      const p = productCreateForm.safeParse(product);
      expect(p.success, JSON.stringify(p.error?.issues)).toBe(true);
      const t = rateTableCreateForm.parse(table);
      expect(rateRowsProblem(product.productClass, t.rows)).toBeNull();
    }
  });
});

describe('product rules [应急〔2025〕27号]: 400 naming the field', () => {
  it.each([
    [{ preventionRatioMax: 21_000_001 }, 'preventionRatioMax', '事故预防费用比例上限', '不能超过 21%'],
    [{ commissionCap: 5_000_001 }, 'commissionCap', '手续费比例上限', '不能超过 5%'],
    [
      {
        coverages: [
          { type: 'EMPLOYEE_DEATH_DISABILITY' as const, perPersonLimitFen: yuan(399_999), mandatory: true },
        ],
      },
      'coverages.0.perPersonLimitFen',
      '每人限额',
      '安责险从业人员每人死亡/伤残限额不得低于 40万元（400000 元，应急〔2025〕27号）',
    ],
    [{ region: '999999' }, 'region', '适用地区', '字典中没有代码 999999'],
  ])('%j → at %s: %s：%s', async (over, field, label, message) => {
    const res = await w.admin.post('/api/products', productForm(over));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 400,
      message: `${label}：${message}`,
      errors: [{ field, message }],
    });
  });

  it('accepts the limits exactly: 21%, 5%, 400,000 yuan', async () => {
    const res = await w.admin.post('/api/products', productForm({ code: 'AZX_LIMITS' }));
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('products: CRUD, paging, export, audit, version', () => {
  let created: Product;

  it('creates with coverages, answers 409 on a duplicate code', async () => {
    const res = await w.admin.post(
      '/api/products',
      productForm({
        code: 'AZX_CRUD',
        coverages: [
          { type: 'EMPLOYEE_DEATH_DISABILITY', perPersonLimitFen: yuan(600_000), mandatory: true },
          { type: 'RESCUE', perAccidentLimitFen: yuan(500_000), aggregateLimitFen: yuan(1_000_000) },
        ],
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    created = res.json();
    expect(res.json().coverages.map((c: { name: string }) => c.name)).toEqual([
      '从业人员伤亡（死亡/伤残）',
      '事故应急救援费用',
    ]);
    expect((await w.admin.post('/api/products', productForm({ code: 'AZX_CRUD' }))).statusCode).toBe(409);
  });

  it('updates with the version, 409 when stale; records the change in the audit trail', async () => {
    const body = {
      ...productForm({ code: 'AZX_CRUD', name: '安责险改名' }),
      id: created.id,
      version: created.version,
    };
    const ok = await w.admin.post('/api/products/update', body);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().version).toBe(created.version + 1);
    expect(ok.json().coverages).toHaveLength(1);
    expect((await w.admin.post('/api/products/update', body)).statusCode).toBe(409);
    const [entry] = await w.t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'product'), eq(auditLog.action, 'update')));
    expect(entry!.detail).toMatchObject({ before: { name: '安责险测试' }, after: { name: '安责险改名' } });
  });

  it('pages, sorts, filters by class and exports', async () => {
    const page = await w.admin.get('/api/products?page=0&size=2&sort=code,desc&productClass=work_safety');
    expect(page.statusCode).toBe(200);
    const codes = page.json().content.map((p: Product) => p.code);
    expect(codes).toEqual([...codes].sort().reverse());
    expect(page.json().totalElements).toBeGreaterThanOrEqual(3);
    expect((await w.admin.get('/api/products?sort=secret,asc')).json().message).toMatch(/^排序字段：/);
    const file = await w.admin.get('/api/products/download?productClass=construction');
    expect(file.statusCode).toBe(200);
    expectDownloadName(file.headers['content-disposition'], '险种数据');
    const rows = await readXlsx(file.rawPayload);
    expect(rows[0]).toContain('险种代码');
    expect(rows.slice(1).map((r) => r[0])).toEqual(['JZSG_AZX_2025']);
  });

  it('deletes a product never priced on; one with an active rate table can only be disabled (409)', async () => {
    expect((await w.admin.post('/api/products/delete', [created.id])).json()).toEqual({ deleted: 1 });
    const seededOne = await seeded('AZX_GM_2025');
    const res = await w.admin.post('/api/products/delete', [seededOne.id]);
    expect(res.statusCode).toBe(409);
  });
});

describe('products: permissions', () => {
  it('403 without the permission; underwriters read but do not change products', async () => {
    expect((await w.nobody.get('/api/products')).statusCode).toBe(403);
    expect((await w.agent.get('/api/products')).statusCode).toBe(403);
    expect((await w.underwriter.get('/api/products')).statusCode).toBe(200);
    expect((await w.underwriter.post('/api/products', productForm({ code: 'AZX_UW' }))).statusCode).toBe(403);
    expect((await w.underwriter.post('/api/products/delete', [1])).statusCode).toBe(403);
    const p = await seeded('AZX_GM_2025');
    const draft = {
      effectiveDate: '2026-07-01',
      rows: [{ coverageType: 'EMPLOYEE_DEATH_DISABILITY', rate: 4_000 }],
    };
    expect((await w.underwriter.post(`/api/products/${p.id}/rateTables`, draft)).statusCode).toBe(403);
  });

  it('any signed-in user sees what is on sale and may ask for a quote', async () => {
    const res = await w.ent.get('/api/products/available?productClass=work_safety&region=321181');
    expect(res.statusCode).toBe(200);
    const [p] = res.json();
    expect(p.code).toBe('AZX_GM_2025');
    expect(p.rating.limitTiersFen).toEqual([400_000, 500_000, 600_000, 800_000, 1_000_000].map(yuan));
    expect(p.rating.factors.map((f: { code: string }) => f.code)).toEqual([
      'ACCIDENT_HISTORY',
      'SAFETY_AWARD',
      'CREDIT_BLACKLIST',
    ]);
    const q = await w.agent.post(`/api/products/${p.id}/quote`, { headcount: 10, industrySection: 'C' });
    expect(q.statusCode, q.body).toBe(200);
    expect(
      (await w.t.app.inject({ method: 'POST', url: `/api/products/${p.id}/quote`, payload: {} })).statusCode,
    ).toBe(401);
  });
});

describe('quotes on the seeded products (hand-computed)', () => {
  it('work safety: 50 heads of a machinery maker (C/34) at 500,000 yuan = 11,600 yuan; factors and prevention fee', async () => {
    const p = await seeded('AZX_GM_2025');
    const res = await w.agent.post(`/api/products/${p.id}/quote`, {
      headcount: 50,
      perPersonLimitFen: yuan(500_000),
      industrySection: 'C',
      industryDivision: '34',
    });
    expect(res.statusCode, res.body).toBe(200);
    const q = res.json();
    expect(q.premiumFen).toBe(1_160_000);
    expect(q.lines.map((l: { key: string; premiumFen: number }) => [l.key, l.premiumFen])).toEqual([
      ['EMPLOYEE_DEATH_DISABILITY', 950_000],
      ['EMPLOYEE_MEDICAL', 150_000],
      ['THIRD_PARTY_INJURY', 50_000],
      ['RESCUE', 10_000],
    ]);
    expect(q.preventionRatio).toBe(15_000_000);
    expect(q.preventionFeeFen).toBe(174_000);
    expect(q.rounding).toBe('HALF_UP_FEN');
    expect(q.rateTableVersion).toBe(1);

    const more = await w.agent.post(`/api/products/${p.id}/quote`, {
      headcount: 50,
      perPersonLimitFen: yuan(500_000),
      industryDivision: '34',
      coverages: ['LEGAL_COSTS'],
      factors: { ACCIDENT_HISTORY: 'ONE', SAFETY_AWARD: 'LEVEL3' },
      preventionRatio: 20_000_000,
    });
    // (11,600 + 200,000 × 0.25‰ = 50) × 1.1 × 0.95 = 11,650 × 1.045 = 12,174.25 yuan; fund 20%
    expect(more.json().premiumFen).toBe(1_217_425);
    expect(more.json().input.industrySection).toBe('C');
    expect(more.json().combinedMultiplier).toBe('1.045');
    expect(more.json().preventionFeeFen).toBe(243_485);
  });

  it('work safety: a hazardous-chemicals division is priced at its own rate; refuses what the table does not price', async () => {
    const p = await seeded('AZX_GM_2025');
    const chem = await w.agent.post(`/api/products/${p.id}/quote`, {
      headcount: 10,
      perPersonLimitFen: yuan(400_000),
      industryDivision: '26',
    });
    // 10 × 400,000 × 0.70‰ = 2,800 + medical 10 × 50,000 × 0.6‰ = 300 + 500 + 100
    expect(chem.json().premiumFen).toBe(370_000);
    const bad = await w.agent.post(`/api/products/${p.id}/quote`, {
      headcount: 10,
      perPersonLimitFen: yuan(450_000),
      industrySection: 'C',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('每人伤亡限额：请选择 40万元、50万元、60万元、80万元、100万元');
    const low = await w.agent.post(`/api/products/${p.id}/quote`, {
      headcount: 10,
      perPersonLimitFen: yuan(300_000),
    });
    expect(low.statusCode).toBe(400);
    const noIndustry = await w.agent.post(`/api/products/${p.id}/quote`, { headcount: 10 });
    expect(noIndustry.json().message).toBe('行业门类：不能为空');
    const ratio = await w.agent.post(`/api/products/${p.id}/quote`, {
      headcount: 10,
      industrySection: 'C',
      preventionRatio: 10_000_000,
    });
    expect(ratio.json().message).toBe('事故预防费用比例：须在 15%–21% 之间');
    const factor = await w.agent.post(`/api/products/${p.id}/quote`, {
      headcount: 10,
      industrySection: 'C',
      factors: { ACCIDENT_HISTORY: 'MANY' },
    });
    expect(factor.json().message).toMatch(/^浮动因子：/);
  });

  it('construction: 50 million yuan = 30,500 yuan; high-risk 39,650', async () => {
    const p = await seeded('JZSG_AZX_2025');
    const plain = await w.agent.post(`/api/products/${p.id}/quote`, { projectCostFen: yuan(50_000_000) });
    expect(plain.json().premiumFen).toBe(3_050_000);
    const risky = await w.agent.post(`/api/products/${p.id}/quote`, {
      projectCostFen: yuan(50_000_000),
      highRisk: true,
    });
    expect(risky.json().premiumFen).toBe(3_965_000);
    expect(risky.json().factors[0].code).toBe('HIGH_RISK');
    const missing = await w.agent.post(`/api/products/${p.id}/quote`, {});
    expect(missing.json()).toEqual({
      status: 400,
      message: '工程造价：不能为空',
      errors: [{ field: 'projectCostFen', message: '不能为空' }],
    });
  });

  it('guarantee: 2 million yuan for a builder (E) at 1.2% = 24,000 yuan; capped at the coverage limit', async () => {
    const p = await seeded('LYBZ_2025');
    const res = await w.agent.post(`/api/products/${p.id}/quote`, {
      guaranteeAmountFen: yuan(2_000_000),
      industrySection: 'E',
    });
    expect(res.json().premiumFen).toBe(2_400_000);
    expect(res.json().preventionFeeFen).toBe(0);
    const over = await w.agent.post(`/api/products/${p.id}/quote`, { guaranteeAmountFen: yuan(60_000_000) });
    expect(over.json().message).toBe('保证金额：不能超过 5000万元');
  });

  it('takes the industry and headcount from a customer the caller may see (404 otherwise)', async () => {
    const p = await seeded('AZX_GM_2025');
    const c = (
      await w.agent.post('/api/customers', customerForm({ headcount: 50, industryDivision: '34' }))
    ).json();
    const q = await w.agent.post(`/api/products/${p.id}/quote`, {
      customerId: c.id,
      perPersonLimitFen: yuan(500_000),
    });
    expect(q.json().premiumFen).toBe(1_160_000);
    expect((await w.agent2.post(`/api/products/${p.id}/quote`, { customerId: c.id })).statusCode).toBe(404);
  });
});

describe('live quotes: composeQuote over GET /products/available = POST /products/:id/quote', () => {
  const inputs: [string, QuoteForm][] = [
    [
      'AZX_GM_2025',
      { headcount: 50, perPersonLimitFen: yuan(500_000), industrySection: 'C', industryDivision: '34' },
    ],
    [
      'AZX_GM_2025',
      {
        headcount: 7,
        perPersonLimitFen: yuan(800_000),
        industryDivision: '26',
        coverages: ['LEGAL_COSTS', 'APPRAISAL', 'THIRD_PARTY_PROPERTY'],
        factors: { ACCIDENT_HISTORY: 'SEVERE', SAFETY_AWARD: 'LEVEL2', CREDIT_BLACKLIST: 'YES' },
        preventionRatio: 18_500_000,
      },
    ],
    ['AZX_GM_2025', { headcount: 3, industrySection: 'Q' }],
    ['JZSG_AZX_2025', { projectCostFen: yuan(50_000_000) }],
    [
      'JZSG_AZX_2025',
      {
        projectCostFen: 12_345_678_901,
        highRisk: true,
        factors: { ACCIDENT_HISTORY: 'NONE' },
        preventionRatio: 21_000_000,
      },
    ],
    ['JZSG_AZX_2025', { projectCostFen: yuan(2_000_000_000), highRisk: true }],
    ['LYBZ_2025', { guaranteeAmountFen: yuan(2_000_000), industryDivision: '48' }],
    [
      'LYBZ_2025',
      { guaranteeAmountFen: 3_333_333_333, factors: { PERFORMANCE_RECORD: 'BAD', CREDIT_BLACKLIST: 'YES' } },
    ],
  ];

  it.each(inputs)('%s %j', async (code, form) => {
    const list = await w.agent.get('/api/products/available?region=321181');
    expect(list.statusCode).toBe(200);
    const p = (list.json() as AvailableProduct[]).find((x) => x.code === code)!;
    expect(p.rating!.rows.length).toBeGreaterThan(0);
    const local = composeQuote(p, p.rating!, form);

    const res = await w.agent.post(`/api/products/${p.id}/quote`, form);
    expect(res.statusCode, res.body).toBe(200);
    const server = res.json();
    expect(server.rateTableId).toBe(p.rating!.rateTableId);
    expect(local.premium.premiumFen).toBe(server.premiumFen);
    expect(local.preventionFeeFen).toBe(server.preventionFeeFen);
    expect({
      ...local.premium,
      input: local.input,
      preventionRatio: local.preventionRatio,
      preventionFeeFen: local.preventionFeeFen,
    }).toEqual({
      premiumFen: server.premiumFen,
      basePremiumFen: server.basePremiumFen,
      combinedMultiplier: server.combinedMultiplier,
      lines: server.lines,
      factors: server.factors,
      input: server.input,
      preventionRatio: server.preventionRatio,
      preventionFeeFen: server.preventionFeeFen,
    });
  });

  it('refuses in the browser with the message the server answers', async () => {
    const list = (await w.agent.get('/api/products/available')).json() as AvailableProduct[];
    const cases: [string, QuoteForm][] = [
      ['AZX_GM_2025', { headcount: 10 }],
      ['AZX_GM_2025', { headcount: 10, industrySection: 'C', perPersonLimitFen: yuan(450_000) }],
      ['JZSG_AZX_2025', { preventionRatio: 10_000_000 }],
      ['LYBZ_2025', { guaranteeAmountFen: yuan(60_000_000) }],
    ];
    for (const [code, form] of cases) {
      const p = list.find((x) => x.code === code)!;
      const res = await w.agent.post(`/api/products/${p.id}/quote`, form);
      expect(res.statusCode).toBe(400);
      expect(() => composeQuote(p, p.rating!, form)).toThrow(RatingError);
      expect(() => composeQuote(p, p.rating!, form)).toThrow(res.json().message);
    }
  });
});

describe('rate-table versioning: activating a new version never changes an existing quote', () => {
  it('v1 quote keeps its premium after v2 is activated; the stored rate-table id reproduces it', async () => {
    const p = await seeded('JZSG_AZX_2025');
    const input = { projectCostFen: yuan(50_000_000) };
    const v1Quote = (await w.agent.post(`/api/products/${p.id}/quote`, input)).json();
    expect(v1Quote.premiumFen).toBe(3_050_000);

    // v2: every band 10% dearer.
    const v1 = (await w.admin.get(`/api/rateTables/${v1Quote.rateTableId}`)).json();
    const draft = await w.admin.post(`/api/products/${p.id}/rateTables`, {
      effectiveDate: '2026-07-01',
      highRiskLoading: 13_000,
      factors: v1.factors,
      rows: v1.rows.map((r: { costBandUpToFen: number | null; rate: number }) => ({
        costBandUpToFen: r.costBandUpToFen,
        rate: (r.rate * 11) / 10,
      })),
    });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toMatchObject({ versionNo: 2, status: 'draft' });

    // A draft prices nothing until activated (administrators may try it by id).
    expect((await w.agent.post(`/api/products/${p.id}/quote`, input)).json().premiumFen).toBe(3_050_000);
    expect(
      (await w.agent.post(`/api/products/${p.id}/quote`, { ...input, rateTableId: draft.json().id }))
        .statusCode,
    ).toBe(404);
    expect(
      (await w.admin.post(`/api/products/${p.id}/quote`, { ...input, rateTableId: draft.json().id })).json()
        .premiumFen,
    ).toBe(3_355_000);

    const stale = await w.admin.post(`/api/rateTables/${draft.json().id}/activate`, { version: 99 });
    expect(stale.statusCode).toBe(409);
    const active = await w.admin.post(`/api/rateTables/${draft.json().id}/activate`, {
      version: draft.json().version,
    });
    expect(active.statusCode, active.body).toBe(200);
    expect(active.json().status).toBe('active');

    const v2Quote = (await w.agent.post(`/api/products/${p.id}/quote`, input)).json();
    expect(v2Quote).toMatchObject({ rateTableVersion: 2, premiumFen: 3_355_000 });
    const again = (
      await w.agent.post(`/api/products/${p.id}/quote`, { ...input, rateTableId: v1Quote.rateTableId })
    ).json();
    expect(again).toMatchObject({
      rateTableId: v1Quote.rateTableId,
      rateTableVersion: 1,
      premiumFen: 3_050_000,
    });
    expect(again.lines).toEqual(v1Quote.lines);

    const tables = (await w.admin.get(`/api/products/${p.id}/rateTables`)).json();
    expect(tables.map((t: { versionNo: number; status: string }) => [t.versionNo, t.status])).toEqual([
      [2, 'active'],
      [1, 'retired'],
    ]);
  });

  it('freezes active and retired versions: update and delete answer 409', async () => {
    const p = await seeded('LYBZ_2025');
    const t = (await w.admin.get(`/api/rateTables/${p.activeRateTable!.id}`)).json();
    const body = {
      effectiveDate: t.effectiveDate,
      factors: t.factors,
      rows: [{ rate: 1 }],
      version: t.version,
    };
    expect((await w.admin.post(`/api/rateTables/${t.id}/update`, body)).statusCode).toBe(409);
    expect((await w.admin.post(`/api/rateTables/${t.id}/delete`)).statusCode).toBe(409);
  });

  it('checks rows against the product class (400) and lets a draft be edited and deleted', async () => {
    const p = await seeded('AZX_GM_2025');
    const bad = await w.admin.post(`/api/products/${p.id}/rateTables`, {
      effectiveDate: '2026-07-01',
      rows: [{ costBandUpToFen: null, rate: 6_500 }],
    });
    expect(bad.json()).toEqual({
      status: 400,
      message: '费率明细：第 1 行须选择安责险的责任类型',
      errors: [{ field: 'rows.0.coverageType', message: '第 1 行须选择安责险的责任类型' }],
    });
    const draft = (
      await w.admin.post(`/api/products/${p.id}/rateTables`, {
        effectiveDate: '2026-07-01',
        rows: [{ coverageType: 'EMPLOYEE_DEATH_DISABILITY', rate: 4_000 }],
      })
    ).json();
    const edited = await w.admin.post(`/api/rateTables/${draft.id}/update`, {
      effectiveDate: '2026-08-01',
      rows: [{ coverageType: 'EMPLOYEE_DEATH_DISABILITY', rate: 4_200 }],
      version: draft.version,
    });
    expect(edited.json()).toMatchObject({
      effectiveDate: '2026-08-01',
      rowCount: 1,
      version: draft.version + 1,
    });
    expect((await w.admin.post(`/api/rateTables/${draft.id}/delete`)).json()).toEqual({ deleted: 1 });
  });

  it('refuses to activate a version before its effective date; quotes keep the active one until then', async () => {
    const p = await seeded('LYBZ_2025');
    const input = { guaranteeAmountFen: yuan(2_000_000), industrySection: 'C' };
    const before = (await w.agent.post(`/api/products/${p.id}/quote`, input)).json();
    expect(before.premiumFen).toBe(3_000_000);
    const v = (await w.admin.get(`/api/rateTables/${before.rateTableId}`)).json();
    const tomorrow = addDays(shanghaiToday(), 1);
    const draft = (
      await w.admin.post(`/api/products/${p.id}/rateTables`, {
        effectiveDate: tomorrow,
        factors: v.factors,
        rows: [{ rate: 160_000 }],
      })
    ).json();

    const early = await w.admin.post(`/api/rateTables/${draft.id}/activate`, { version: draft.version });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe(
      `生效日期：${tomorrow} 未到，当天或之后才能生效（今天是 ${shanghaiToday()}）`,
    );
    expect((await w.admin.get(`/api/rateTables/${draft.id}`)).json()).toMatchObject({
      status: 'draft',
      version: draft.version,
    });
    const still = (await w.agent.post(`/api/products/${p.id}/quote`, input)).json();
    expect(still).toMatchObject({ rateTableId: before.rateTableId, premiumFen: 3_000_000 });

    // Dated today, the same draft goes live and prices new quotes (1.6% of 2 million yuan).
    const dated = await w.admin.post(`/api/rateTables/${draft.id}/update`, {
      effectiveDate: shanghaiToday(),
      factors: v.factors,
      rows: [{ rate: 160_000 }],
      version: draft.version,
    });
    expect(dated.statusCode, dated.body).toBe(200);
    const live = await w.admin.post(`/api/rateTables/${draft.id}/activate`, {
      version: dated.json().version,
    });
    expect(live.statusCode, live.body).toBe(200);
    const after = (await w.agent.post(`/api/products/${p.id}/quote`, input)).json();
    expect(after).toMatchObject({ rateTableId: draft.id, premiumFen: 3_200_000 });
  });
});
