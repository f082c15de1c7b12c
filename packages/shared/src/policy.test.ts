import { describe, expect, it } from 'vitest';
import { yuan } from './money.ts';
import { canonicalString } from './payment.ts';
import {
  type CoverQuote,
  coverTableOf,
  maskHolderName,
  POLICY_NUMBER,
  type ProductCover,
  policyCoversOf,
  policyStatusOn,
  VERIFICATION_CODE,
} from './policy.ts';
import type { CoverageType } from './rating.ts';

describe('policy helpers', () => {
  it('masks holder names for the public verification', () => {
    expect(maskHolderName('镇江润扬科技有限公司')).toBe('镇江**科技有限公司');
    expect(maskHolderName('张三')).toBe('张*');
    expect(maskHolderName('李小明')).toBe('李*明');
    expect(maskHolderName('欧阳娜娜')).toBe('欧**娜');
    expect(maskHolderName('')).toBe('');
  });

  it('derives the state from the period (Asia/Shanghai dates)', () => {
    const p = { status: 'ISSUED', startDate: '2026-05-01', endDate: '2027-04-30' };
    expect(policyStatusOn(p, '2026-04-30')).toBe('ISSUED');
    expect(policyStatusOn(p, '2026-05-01')).toBe('IN_FORCE');
    expect(policyStatusOn(p, '2027-04-30')).toBe('IN_FORCE');
    expect(policyStatusOn(p, '2027-05-01')).toBe('EXPIRED');
    expect(policyStatusOn({ ...p, status: 'CANCELLED' }, '2026-06-01')).toBe('CANCELLED');
    // 已退保 from the cancellation's effective date, covered until then.
    const cancelled = { ...p, status: 'CANCELLED', cancelledOn: '2026-09-01' };
    expect(policyStatusOn(cancelled, '2026-08-31')).toBe('IN_FORCE');
    expect(policyStatusOn(cancelled, '2026-09-01')).toBe('CANCELLED');
  });

  it('knows the number and code formats', () => {
    expect(POLICY_NUMBER.test('PAZX202600000001')).toBe(true);
    expect(POLICY_NUMBER.test('AZX2026000001')).toBe(false);
    expect(VERIFICATION_CODE.test('K7QX2M9PZ4HB8NTA')).toBe(true);
    expect(VERIFICATION_CODE.test('K7QX2M9PZ4HB8NTI')).toBe(false);
  });
});

const product = (
  type: CoverageType,
  name: string,
  limits: { perPerson?: number; perAccident?: number; aggregate?: number; deductible?: number },
): ProductCover => ({
  type,
  name,
  perPersonLimitFen: limits.perPerson === undefined ? null : yuan(limits.perPerson),
  perAccidentLimitFen: limits.perAccident === undefined ? null : yuan(limits.perAccident),
  aggregateLimitFen: limits.aggregate === undefined ? null : yuan(limits.aggregate),
  deductibleFen: yuan(limits.deductible ?? 0),
});

/** The seeded work-safety product's coverages, in its order. */
const WORK_SAFETY = [
  product('EMPLOYEE_DEATH_DISABILITY', '从业人员伤亡（死亡/伤残）', { perPerson: 500_000 }),
  product('EMPLOYEE_MEDICAL', '从业人员医疗费用', { perPerson: 50_000 }),
  product('THIRD_PARTY_PROPERTY', '第三者财产损失', {
    perAccident: 500_000,
    aggregate: 1_000_000,
    deductible: 1_000,
  }),
  product('RESCUE', '事故应急救援费用', { perAccident: 500_000, aggregate: 1_000_000 }),
];

/** A work-safety quote at 60万 per person for 118 people with third-party property chosen (no rescue). */
const WORK_SAFETY_QUOTE: CoverQuote = {
  input: {
    coverages: ['EMPLOYEE_DEATH_DISABILITY', 'EMPLOYEE_MEDICAL', 'THIRD_PARTY_PROPERTY'],
    perPersonLimitFen: yuan(600_000),
  },
  lines: [
    { coverageType: 'EMPLOYEE_DEATH_DISABILITY', premiumFen: yuan(26_904) },
    { coverageType: 'EMPLOYEE_MEDICAL', premiumFen: yuan(3_540) },
    { coverageType: 'THIRD_PARTY_PROPERTY', premiumFen: yuan(200) },
  ],
};

describe('policy covers and their table', () => {
  it('insures the coverages the quote priced, death/disability at the limit chosen, each with its premium', () => {
    const covers = policyCoversOf(WORK_SAFETY, WORK_SAFETY_QUOTE);
    expect(covers.map((c) => [c.type, c.perPersonLimitFen, c.premiumFen])).toEqual([
      ['EMPLOYEE_DEATH_DISABILITY', yuan(600_000), yuan(26_904)],
      ['EMPLOYEE_MEDICAL', yuan(50_000), yuan(3_540)],
      ['THIRD_PARTY_PROPERTY', null, yuan(200)],
    ]);
    expect(covers[2]).toMatchObject({ perAccidentLimitFen: yuan(500_000), deductibleFen: yuan(1_000) });

    const t = coverTableOf(covers, yuan(30_644));
    expect(t.columns).toEqual(['保险责任', '每人限额', '每次事故限额', '累计限额', '免赔额', '保费']);
    expect(t.rows.map((r) => r.cells)).toEqual([
      ['从业人员伤亡（死亡/伤残）', '¥600,000.00', '—', '—', '无', '¥26,904.00'],
      ['从业人员医疗费用', '¥50,000.00', '—', '—', '无', '¥3,540.00'],
      ['第三者财产损失', '—', '¥500,000.00', '¥1,000,000.00', '¥1,000.00', '¥200.00'],
    ]);
    expect(t.premiumNote).toBeNull();
  });

  it('a premium rated on the whole contract (cost bands) is stated once, under the table, not per cover', () => {
    const bands: CoverQuote = {
      input: { coverages: ['EMPLOYEE_DEATH_DISABILITY', 'RESCUE'], perPersonLimitFen: null },
      lines: [
        { coverageType: null, premiumFen: yuan(6_500) },
        { coverageType: null, premiumFen: yuan(24_000) },
      ],
    };
    const covers = policyCoversOf(WORK_SAFETY, bands);
    expect(covers.map((c) => [c.type, c.perPersonLimitFen, c.premiumFen])).toEqual([
      ['EMPLOYEE_DEATH_DISABILITY', yuan(500_000), null],
      ['RESCUE', null, null],
    ]);
    const t = coverTableOf(covers, yuan(30_500));
    expect(t.columns).toEqual(['保险责任', '每人限额', '每次事故限额', '累计限额', '免赔额']);
    expect(t.rows.map((r) => r.cells)).toEqual([
      ['从业人员伤亡（死亡/伤残）', '¥500,000.00', '—', '—', '无'],
      ['事故应急救援费用', '—', '¥500,000.00', '¥1,000,000.00', '无'],
    ]);
    expect(t.premiumNote).toBe('保费按整单计收，不按保险责任分列：合计 ¥30,500.00');
  });

  it("prints no rating formula, though the quote's lines carry one", () => {
    const lines = [
      { label: '从业人员伤亡（死亡/伤残） 60万元/人 × 118人 × 0.38‰', baseFen: yuan(70_800_000) },
      { label: '从业人员医疗费用 5万元/人 × 118人 × 0.6‰', baseFen: yuan(5_900_000) },
      { label: '第三者财产损失 累计限额 100万元 × 0.2‰', baseFen: yuan(1_000_000) },
    ].map((l, i) => ({ ...WORK_SAFETY_QUOTE.lines[i]!, ...l }));
    const t = coverTableOf(policyCoversOf(WORK_SAFETY, { ...WORK_SAFETY_QUOTE, lines }), yuan(30_644));
    expect(t.rows.map((r) => r.cells[0])).toEqual([
      '从业人员伤亡（死亡/伤残）',
      '从业人员医疗费用',
      '第三者财产损失',
    ]);
    for (const cell of t.rows.flatMap((r) => r.cells)) expect(cell).not.toMatch(/[×‰]|\/人/);
  });

  it('a cover missing its line (the product changed after the quote) states the total once', () => {
    const covers = policyCoversOf(WORK_SAFETY, {
      ...WORK_SAFETY_QUOTE,
      lines: WORK_SAFETY_QUOTE.lines.slice(0, 2),
    });
    expect(covers.every((c) => c.premiumFen === null)).toBe(true);
    expect(coverTableOf(covers, yuan(30_444)).premiumNote).toContain('¥30,444.00');
  });
});

describe('payment signing', () => {
  it('signs the fields other than sign, sorted by name, empty ones left out', () => {
    expect(canonicalString({ b: 2, a: 'x', sign: 'zz', c: '', d: null })).toBe('a=x&b=2');
  });
});
