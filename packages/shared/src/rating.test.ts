import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RATE_SCALE, yuan } from './money.ts';
import {
  type AppliedFactor,
  applyFactors,
  type CostBand,
  chooseFactors,
  costBandsOf,
  type FactorDef,
  factorDefProblem,
  limitTiersOf,
  MIN_DEATH_DISABILITY_LIMIT_FEN,
  pickRate,
  preventionFee,
  quoteConstruction,
  quoteGuarantee,
  quoteWorkSafety,
  type RateRow,
  RatingError,
} from './rating.ts';

const f = (code: string, multiplier: number): AppliedFactor => ({
  code,
  label: code,
  option: null,
  optionLabel: null,
  multiplier,
});

/** The seed's construction bands: 0.65‰ up to 10 million yuan … 0.40‰ above 1 billion. */
const BANDS: CostBand[] = [
  { upToFen: yuan(10_000_000), rate: 6_500 },
  { upToFen: yuan(50_000_000), rate: 6_000 },
  { upToFen: yuan(100_000_000), rate: 5_500 },
  { upToFen: yuan(500_000_000), rate: 5_000 },
  { upToFen: yuan(1_000_000_000), rate: 4_500 },
  { upToFen: null, rate: 4_000 },
];

describe('premium = Σ base × rate × Π factors, rounded once to the fen, half-up (hand-computed)', () => {
  it.each([
    // headcount, limit (yuan), rate (per-mille × 10⁴), factors, premium (fen), how
    [50, 500_000, 3_800, [], 950_000, '50 × 500,000 × 0.38‰ = 9,500 yuan'],
    [
      50,
      500_000,
      3_800,
      [f('ACCIDENT_HISTORY', 11_000), f('SAFETY_AWARD', 9_500)],
      992_750,
      '9,500 × 1.1 × 0.95',
    ],
    [1, 400_000, 4_000, [], 16_000, '1 × 400,000 × 0.40‰ = 160 yuan'],
    [1, 400_000, 4_000, [f('X', 10_003)], 16_005, '16,000 × 1.0003 = 16,004.8 → 16,005'],
    [120, 1_000_000, 3_200, [f('CREDIT_BLACKLIST', 13_000)], 4_992_000, '120 × 1,000,000 × 0.32‰ × 1.3'],
  ] as const)(
    'work safety: %i heads × %i yuan × rate %i → %i fen (%s)',
    (headcount, limit, rate, factors, premium, _how) => {
      const q = quoteWorkSafety({ headcount, perPersonLimitFen: yuan(limit), rate, factors: [...factors] });
      expect(q.premiumFen).toBe(premium);
      expect(q.lines).toHaveLength(1);
      expect(q.lines[0]!.premiumFen).toBe(premium);
    },
  );

  it('work safety with further coverages: medical per head, third party and rescue on their limits', () => {
    const q = quoteWorkSafety({
      headcount: 50,
      perPersonLimitFen: yuan(500_000),
      rate: 3_800,
      coverages: [
        { type: 'EMPLOYEE_MEDICAL', perPersonLimitFen: yuan(50_000), rate: 6_000 },
        { type: 'THIRD_PARTY_INJURY', limitFen: yuan(5_000_000), rate: 1_000 },
        { type: 'RESCUE', limitFen: yuan(1_000_000), rate: 1_000 },
      ],
    });
    // 9,500 + 50 × 50,000 × 0.6‰ (1,500) + 5,000,000 × 0.1‰ (500) + 1,000,000 × 0.1‰ (100) = 11,600 yuan
    expect(q.lines.map((l) => l.premiumFen)).toEqual([950_000, 150_000, 50_000, 10_000]);
    expect(q.premiumFen).toBe(1_160_000);
    expect(q.basePremiumFen).toBe(1_160_000);
  });

  it.each([
    [yuan(50_000_000), false, 3_050_000, '10m × 0.65‰ + 40m × 0.60‰ = 30,500 yuan'],
    [yuan(50_000_000), true, 3_965_000, '30,500 × 1.3 = 39,650 yuan'],
    [yuan(10_000_000), false, 650_000, 'exactly the first band: 6,500 yuan'],
    [yuan(2_000_000_000), false, 88_300_000, '6,500 + 24,000 + 27,500 + 200,000 + 225,000 + 400,000 yuan'],
    [10_000, false, 7, '100 yuan × 0.65‰ = 6.5 fen → 7 (half-up)'],
    [9_999, false, 6, '99.99 yuan × 0.65‰ = 6.49935 fen → 6'],
  ] as const)('construction: cost %i fen, high risk %s → %i fen (%s)', (cost, highRisk, premium, _how) => {
    const q = quoteConstruction({ projectCostFen: cost, bands: BANDS, highRisk });
    expect(q.premiumFen).toBe(premium);
    expect(q.lines.reduce((s, l) => s + l.baseFen, 0)).toBe(cost);
  });

  it('construction: the high-risk loading is the first factor step, and the table may set its own', () => {
    const q = quoteConstruction({ projectCostFen: yuan(50_000_000), bands: BANDS, highRisk: true });
    expect(q.factors[0]).toMatchObject({ code: 'HIGH_RISK', beforeFen: 3_050_000, afterFen: 3_965_000 });
    const own = quoteConstruction({
      projectCostFen: yuan(50_000_000),
      bands: BANDS,
      highRisk: true,
      highRiskLoading: 15_000,
    });
    expect(own.premiumFen).toBe(4_575_000);
  });

  it('guarantee: 2,000,000 yuan × 1.5% = 30,000 yuan; × 1.3 blacklisted', () => {
    expect(quoteGuarantee({ amountFen: yuan(2_000_000), rate: 150_000 }).premiumFen).toBe(3_000_000);
    expect(
      quoteGuarantee({ amountFen: yuan(2_000_000), rate: 150_000, factors: [f('CREDIT_BLACKLIST', 13_000)] })
        .premiumFen,
    ).toBe(3_900_000);
  });

  it('rounds once at the end, not per line: two lines of 0.4 fen make 1 fen, not 0', () => {
    const q = applyFactors([
      { key: 'a', label: 'a', coverageType: null, baseFen: 1_000, rate: 4_000 },
      { key: 'b', label: 'b', coverageType: null, baseFen: 1_000, rate: 4_000 },
    ]);
    expect(q.premiumFen).toBe(1);
    // Largest remainder, ties to the first line: the shares still add up.
    expect(q.lines.map((l) => l.premiumFen)).toEqual([1, 0]);
    expect(q.lines.map((l) => l.basePremiumFen)).toEqual([0, 0]);
  });

  it('shows each factor step and the exact combined multiplier', () => {
    const q = quoteWorkSafety({
      headcount: 50,
      perPersonLimitFen: yuan(500_000),
      rate: 3_800,
      factors: [f('ACCIDENT_HISTORY', 11_000), f('SAFETY_AWARD', 9_500)],
    });
    expect(q.combinedMultiplier).toBe('1.045');
    expect(q.factors.map((s) => [s.beforeFen, s.afterFen, s.deltaFen])).toEqual([
      [950_000, 1_045_000, 95_000],
      [1_045_000, 992_750, -52_250],
    ]);
    expect(applyFactors([]).combinedMultiplier).toBe('1');
  });

  it('prevention fee: premium × ratio, half-up (992,750 fen × 15% = 148,912.5 → 148,913)', () => {
    expect(preventionFee(992_750, 15_000_000)).toBe(148_913);
    expect(preventionFee(992_750, 0)).toBe(0);
    expect(() => preventionFee(992_750, 21_000_001)).toThrow(RatingError);
  });
});

describe('rating inputs: the rules are enforced by the arithmetic too', () => {
  it('refuses a death/disability limit under 400,000 yuan [rule]', () => {
    expect(() =>
      quoteWorkSafety({ headcount: 1, perPersonLimitFen: MIN_DEATH_DISABILITY_LIMIT_FEN - 1, rate: 4_000 }),
    ).toThrow(/40万元/);
    expect(
      quoteWorkSafety({ headcount: 1, perPersonLimitFen: MIN_DEATH_DISABILITY_LIMIT_FEN, rate: 4_000 })
        .premiumFen,
    ).toBe(16_000);
  });

  it.each([0, -1, 1.5, 1_000_000])('refuses headcount %s', (headcount) => {
    expect(() => quoteWorkSafety({ headcount, perPersonLimitFen: yuan(400_000), rate: 4_000 })).toThrow(
      /参保人数/,
    );
  });

  it('refuses costs above a closed top band, unordered bands, rates above 100% and unbounded multipliers', () => {
    const closed = BANDS.slice(0, 2);
    expect(() =>
      quoteConstruction({ projectCostFen: yuan(60_000_000), bands: closed, highRisk: false }),
    ).toThrow(/最高档次/);
    expect(() =>
      quoteConstruction({ projectCostFen: 100, bands: [BANDS[1]!, BANDS[0]!], highRisk: false }),
    ).toThrow(/递增/);
    expect(() =>
      applyFactors([{ key: 'a', label: 'a', coverageType: null, baseFen: 1, rate: RATE_SCALE + 1 }]),
    ).toThrow(/100%/);
    expect(() => applyFactors([], [f('X', 40_000)])).toThrow(/0.1–3/);
  });
});

describe('rate lookup', () => {
  const row = (r: Partial<RateRow> & { rate: number }): RateRow => ({
    coverageType: 'EMPLOYEE_DEATH_DISABILITY',
    industry: null,
    limitTierFen: null,
    costBandUpToFen: null,
    ...r,
  });
  const rows = [
    row({ rate: 4_500 }),
    row({ industry: 'C', rate: 4_000 }),
    row({ industry: 'C', limitTierFen: yuan(500_000), rate: 3_800 }),
    row({ industry: '34', rate: 3_500 }),
    row({ industry: 'B', limitTierFen: yuan(400_000), rate: 10_000 }),
    row({ coverageType: 'RESCUE', rate: 1_000 }),
  ];

  it.each([
    ['C', '34', yuan(500_000), 3_500, 'the division beats its section'],
    ['C', '33', yuan(500_000), 3_800, 'section + exact tier'],
    ['C', '33', yuan(600_000), 4_000, 'section, any tier'],
    ['F', '51', yuan(500_000), 4_500, 'any industry'],
    ['B', '06', yuan(400_000), 10_000, 'section + tier'],
    ['B', '06', yuan(500_000), 4_500, 'B has no row for 500,000: any industry'],
  ] as const)('%s/%s at %i → %i (%s)', (section, division, tier, rate, _why) => {
    expect(
      pickRate(rows, {
        coverageType: 'EMPLOYEE_DEATH_DISABILITY',
        industrySection: section,
        industryDivision: division,
        limitTierFen: tier,
      })?.rate,
    ).toBe(rate);
  });

  it('matches the coverage type exactly and lists the limit tiers', () => {
    expect(pickRate(rows, { coverageType: 'RESCUE', industrySection: 'C' })?.rate).toBe(1_000);
    expect(pickRate(rows, { coverageType: 'LEGAL_COSTS' })).toBeUndefined();
    expect(limitTiersOf(rows)).toEqual([yuan(400_000), yuan(500_000)]);
  });

  it('sorts cost bands with the open top band last', () => {
    const shuffled = [...BANDS]
      .reverse()
      .map((b) => row({ coverageType: null, costBandUpToFen: b.upToFen, rate: b.rate }));
    expect(costBandsOf(shuffled)).toEqual(BANDS);
  });
});

describe('floating factors: bounded multipliers chosen by option', () => {
  const accident: FactorDef = {
    code: 'ACCIDENT_HISTORY',
    label: '事故记录',
    min: 9_000,
    max: 13_000,
    defaultOption: 'NONE',
    options: [
      { value: 'NONE', label: '近三年无事故', multiplier: 9_000 },
      { value: 'ONE', label: '近三年一起一般事故', multiplier: 11_000 },
    ],
  };

  it('takes the default option and refuses unknown codes or options', () => {
    expect(chooseFactors([accident]).map((x) => x.multiplier)).toEqual([9_000]);
    expect(chooseFactors([accident], { ACCIDENT_HISTORY: 'ONE' })[0]).toMatchObject({
      option: 'ONE',
      optionLabel: '近三年一起一般事故',
      multiplier: 11_000,
    });
    expect(() => chooseFactors([accident], { ACCIDENT_HISTORY: 'TEN' })).toThrow(RatingError);
    expect(() => chooseFactors([accident], { NOPE: 'X' })).toThrow(RatingError);
  });

  it.each([
    [{ ...accident, min: 14_000 }, /下限不大于上限/],
    [{ ...accident, options: [{ value: 'NONE', label: 'x', multiplier: 20_000 }] }, /超出范围/],
    [{ ...accident, defaultOption: 'X' }, /默认选项/],
    [{ ...accident, code: 'SAFETY_AWARD' }, /只能下浮/],
    [{ ...accident, code: 'CREDIT_BLACKLIST' }, /只能上浮/],
  ])('refuses a bad definition %#', (def, message) => {
    expect(factorDefProblem(def)).toMatch(message);
  });
  it('accepts a good one', () => expect(factorDefProblem(accident)).toBeNull());
});

// ---- properties ----

const factorArb = fc.array(
  fc.integer({ min: 1_000, max: 30_000 }).map((m) => f('F', m)),
  { maxLength: 4 },
);
const limitArb = fc.integer({ min: MIN_DEATH_DISABILITY_LIMIT_FEN, max: yuan(10_000_000) });
const rateArb = fc.integer({ min: 0, max: 200_000 });
const bandsArb = fc
  .uniqueArray(fc.integer({ min: 1, max: yuan(5_000_000_000) }), { minLength: 0, maxLength: 6 })
  .chain((uppers) =>
    fc.array(rateArb, { minLength: uppers.length + 1, maxLength: uppers.length + 1 }).map((rates) => {
      const sorted = [...uppers].sort((a, b) => a - b);
      return [
        ...sorted.map((u, i) => ({ upToFen: u, rate: rates[i]! })),
        { upToFen: null, rate: rates[sorted.length]! },
      ];
    }),
  );

describe('properties (fast-check)', () => {
  it('work safety: never negative, an integer, and non-decreasing in headcount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999_999 }),
        fc.integer({ min: 1, max: 999_999 }),
        limitArb,
        rateArb,
        factorArb,
        (a, b, limit, rate, factors) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const p1 = quoteWorkSafety({ headcount: lo, perPersonLimitFen: limit, rate, factors }).premiumFen;
          const p2 = quoteWorkSafety({ headcount: hi, perPersonLimitFen: limit, rate, factors }).premiumFen;
          return Number.isSafeInteger(p1) && p1 >= 0 && p1 <= p2;
        },
      ),
    );
  });

  it('construction: never negative, an integer, and non-decreasing in the project cost, whatever the bands', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: yuan(100_000_000_000) }),
        fc.integer({ min: 1, max: yuan(100_000_000_000) }),
        bandsArb,
        fc.boolean(),
        (a, b, bands, highRisk) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const p1 = quoteConstruction({ projectCostFen: lo, bands, highRisk }).premiumFen;
          const p2 = quoteConstruction({ projectCostFen: hi, bands, highRisk }).premiumFen;
          return Number.isSafeInteger(p1) && p1 >= 0 && p1 <= p2;
        },
      ),
    );
  });

  it('the premium is the exact value rounded half-up, the line shares add up to it, the last step ends on it', () => {
    const lineArb = fc.record({
      baseFen: fc.integer({ min: 0, max: yuan(100_000_000) }),
      rate: rateArb,
    });
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 6 }), factorArb, (raw, factors) => {
        const lines = raw.map((l, i) => ({ key: String(i), label: String(i), coverageType: null, ...l }));
        const q = applyFactors(lines, factors);
        const num =
          lines.reduce((s, l) => s + BigInt(l.baseFen) * BigInt(l.rate), 0n) *
          factors.reduce((m, x) => m * BigInt(x.multiplier), 1n);
        const den = BigInt(RATE_SCALE) * 10_000n ** BigInt(factors.length);
        const p = BigInt(q.premiumFen);
        // p - ½ ≤ exact < p + ½
        const ok = 2n * p * den - den <= 2n * num && 2n * num < 2n * p * den + den;
        const shares = q.lines.reduce((s, l) => s + l.premiumFen, 0);
        const last = q.factors.length ? q.factors[q.factors.length - 1]!.afterFen : q.basePremiumFen;
        return (
          ok && shares === q.premiumFen && last === q.premiumFen && q.lines.every((l) => l.premiumFen >= 0)
        );
      }),
    );
  });
});
