import { describe, expect, it } from 'vitest';
import { yuan } from './money.ts';
import { problemText } from './problem.ts';
import { productCreateForm, rateRowsProblem, rateTableCreateForm } from './product.ts';

const workSafety = {
  code: 'AZX_TEST',
  name: '安责险测试',
  productClass: 'work_safety',
  clauseVersion: '2025版',
  region: '321100',
  validFrom: '2026-01-01',
  validTo: '2026-12-31',
  preventionRatioMin: 15_000_000,
  preventionRatioMax: 21_000_000,
  commissionCap: 5_000_000,
  coverages: [{ type: 'EMPLOYEE_DEATH_DISABILITY', perPersonLimitFen: yuan(400_000), mandatory: true }],
};

const issueOf = (input: Record<string, unknown>) => {
  const r = productCreateForm.safeParse({ ...workSafety, ...input });
  return r.success ? null : { path: r.error.issues[0]!.path.join('.'), message: r.error.issues[0]!.message };
};

describe('product rules [应急〔2025〕27号]', () => {
  it('accepts a work-safety product at the limits (21%, 5%, 400,000 yuan)', () => {
    expect(issueOf({})).toBeNull();
  });

  it.each([
    [{ preventionRatioMax: 21_000_001 }, 'preventionRatioMax', '不能超过 21%'],
    [{ preventionRatioMin: 21_000_001 }, 'preventionRatioMin', '不能超过 21%'],
    [
      { preventionRatioMin: 20_000_000, preventionRatioMax: 15_000_000 },
      'preventionRatioMin',
      '不能大于事故预防费用比例上限',
    ],
    [{ commissionCap: 5_000_001 }, 'commissionCap', '不能超过 5%'],
    [{ validTo: '2025-12-31' }, 'validTo', '不能早于生效日期'],
    [{ minPremiumFen: -1 }, 'minPremiumFen', '不能小于 0'],
    [{ minProjectCostFen: yuan(100_000) }, 'minProjectCostFen', '仅建筑施工安责险可设最低工程造价'],
    [
      {
        requiredMaterials: [
          { docType: 'BUSINESS_LICENSE', stage: 'SUBMIT' },
          { docType: 'BUSINESS_LICENSE', stage: 'SUBMIT' },
        ],
      },
      'requiredMaterials.1.docType',
      '同一环节的资料类型重复',
    ],
    [
      { requiredMaterials: [{ docType: 'BUSINESS_LICENSE', stage: 'LATER' }] },
      'requiredMaterials.0.stage',
      '请选择提交投保时或核保通过前',
    ],
    [
      {
        coverages: [
          { type: 'EMPLOYEE_DEATH_DISABILITY', perPersonLimitFen: yuan(400_000) - 1, mandatory: true },
        ],
      },
      'coverages.0.perPersonLimitFen',
      '安责险从业人员每人死亡/伤残限额不得低于 40万元（400000 元，应急〔2025〕27号）',
    ],
    [
      { coverages: [{ type: 'EMPLOYEE_DEATH_DISABILITY', perPersonLimitFen: yuan(400_000) }] },
      'coverages.0.mandatory',
      '安责险的从业人员伤亡责任必须为必选',
    ],
    [{ coverages: [] }, 'coverages', '安责险须包含「从业人员伤亡（死亡/伤残）」责任'],
    [
      {
        coverages: [
          { type: 'EMPLOYEE_DEATH_DISABILITY', perPersonLimitFen: yuan(400_000), mandatory: true },
          { type: 'RESCUE', perAccidentLimitFen: yuan(500_000), aggregateLimitFen: yuan(100_000) },
        ],
      },
      'coverages.1.aggregateLimitFen',
      '不能小于每次事故（每人）限额',
    ],
  ])('%j → %s: %s', (input, path, message) => {
    expect(issueOf(input)).toEqual({ path, message });
  });

  it("states the product's minimums and required documents (the issuer leads unless told otherwise)", () => {
    const r = productCreateForm.parse({
      ...workSafety,
      productClass: 'construction',
      minPremiumFen: yuan(200),
      minProjectCostFen: yuan(100_000),
      requiredMaterials: [
        { docType: 'BUSINESS_LICENSE', stage: 'SUBMIT' },
        { docType: 'BUSINESS_LICENSE', stage: 'APPROVE' },
      ],
    });
    expect(r).toMatchObject({
      issuerLeads: true,
      minPremiumFen: yuan(200),
      minProjectCostFen: yuan(100_000),
    });
    expect(issueOf({ minProjectCostFen: 0, productClass: 'construction' })).toEqual({
      path: 'minProjectCostFen',
      message: '须大于 0',
    });
  });

  it('applies the 400,000-yuan floor to construction work-safety too, not to guarantee insurance', () => {
    const low = [{ type: 'EMPLOYEE_DEATH_DISABILITY', perPersonLimitFen: yuan(300_000), mandatory: true }];
    expect(issueOf({ productClass: 'construction', coverages: low })?.path).toBe(
      'coverages.0.perPersonLimitFen',
    );
    expect(issueOf({ productClass: 'guarantee', coverages: low })).toBeNull();
  });
});

describe('rate tables', () => {
  const row = (r: Record<string, unknown>) => ({
    coverageType: null,
    industry: null,
    limitTierFen: null,
    costBandUpToFen: null,
    rate: 5_000,
    ...r,
  });

  it.each([
    ['work_safety', [row({ coverageType: 'EMPLOYEE_DEATH_DISABILITY' })], null],
    ['work_safety', [row({ coverageType: 'RESCUE' })], '费率明细：须包含从业人员伤亡责任的费率'],
    ['work_safety', [row({})], '费率明细：第 1 行须选择安责险的责任类型'],
    [
      'work_safety',
      [row({ coverageType: 'EMPLOYEE_DEATH_DISABILITY', limitTierFen: yuan(300_000) })],
      '费率明细：第 1 行限额档次不得低于 40万元',
    ],
    [
      'work_safety',
      [
        row({ coverageType: 'EMPLOYEE_DEATH_DISABILITY' }),
        row({ coverageType: 'EMPLOYEE_DEATH_DISABILITY' }),
      ],
      '费率明细：第 2 行与第 1 行重复',
    ],
    ['construction', [row({ costBandUpToFen: yuan(10_000_000) }), row({})], null],
    ['construction', [row({ costBandUpToFen: yuan(10_000_000) })], '造价分档：最高一档须不设上限'],
    ['construction', [row({ industry: 'C' })], '费率明细：第 1 行造价分档不区分行业'],
    ['guarantee', [row({ industry: 'E' }), row({})], null],
    ['guarantee', [row({ industry: '98' })], '费率明细：第 1 行行业大类 98 不存在'],
  ] as const)('%s %j → %s', (cls, rows, problem) => {
    const found = rateRowsProblem(cls, rateTableCreateForm.parse({ effectiveDate: '2026-01-01', rows }).rows);
    expect(found && problemText(found)).toBe(problem);
  });

  it.each([
    ['work_safety', [row({})], 'rows.0.coverageType'],
    [
      'work_safety',
      [
        row({ coverageType: 'EMPLOYEE_DEATH_DISABILITY' }),
        row({ coverageType: 'EMPLOYEE_DEATH_DISABILITY' }),
      ],
      'rows.1.coverageType',
    ],
    [
      'work_safety',
      [row({ coverageType: 'EMPLOYEE_DEATH_DISABILITY', limitTierFen: yuan(300_000) })],
      'rows.0.limitTierFen',
    ],
    ['work_safety', [row({ coverageType: 'RESCUE' })], 'rows'],
    ['construction', [row({ industry: 'C' })], 'rows.0.industry'],
    ['construction', [row({ costBandUpToFen: yuan(10_000_000) })], 'rows'],
    ['guarantee', [row({ industry: 'E' }), row({ industry: 'E' })], 'rows.1.industry'],
  ] as const)('%s %j → at %s', (cls, rows, field) => {
    const found = rateRowsProblem(cls, rateTableCreateForm.parse({ effectiveDate: '2026-01-01', rows }).rows);
    expect(found?.field).toBe(field);
  });

  it('validates factor definitions and reserves HIGH_RISK', () => {
    const factor = {
      code: 'SAFETY_AWARD',
      label: '安全生产标准化',
      min: 8_500,
      max: 11_000,
      defaultOption: 'NONE',
      options: [{ value: 'NONE', label: '无', multiplier: 10_000 }],
    };
    const r = rateTableCreateForm.safeParse({
      effectiveDate: '2026-01-01',
      rows: [row({})],
      factors: [factor],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/只能下浮/);
    const reserved = rateTableCreateForm.safeParse({
      effectiveDate: '2026-01-01',
      rows: [row({})],
      factors: [{ ...factor, code: 'HIGH_RISK', max: 10_000 }],
    });
    expect(reserved.error?.issues[0]?.message).toMatch(/保留代码/);
  });
});
