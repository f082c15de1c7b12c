import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, defaultEnd } from './application-status.ts';
import {
  basisPointsText,
  cancellationQuote,
  endorsementDeltaFen,
  monthsEnd,
  periodDays,
  periodFactor,
  periodMonths,
  periodPremium,
  STANDARD_SHORT_RATE_TABLE,
  scaleFen,
  shortRateTableProblem,
  yearDays,
} from './short-period.ts';

const dateArb = fc
  .date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2032-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
/** A start and an end within a year of it. */
const periodArb = dateArb.chain((start) =>
  fc.integer({ min: 0, max: yearDays(start) - 1 }).map((n) => [start, addDays(start, n)] as const),
);

describe('short periods: a started month counts as a whole month', () => {
  it.each([
    ['2026-12-01', '2026-12-31', 1],
    ['2026-12-01', '2027-01-01', 2],
    ['2026-12-01', '2026-12-01', 1],
    ['2026-01-31', '2026-02-28', 1],
    ['2026-01-31', '2026-03-01', 2],
    ['2026-03-01', '2027-02-28', 12],
    ['2028-02-29', '2029-02-28', 12],
    ['2026-05-15', '2026-11-14', 6],
    ['2026-05-15', '2026-11-15', 7],
  ])('%s … %s is %i month(s)', (start, end, months) => {
    expect(periodMonths(start, end)).toBe(months);
  });

  it('twelve months end where a year from the start ends', () => {
    fc.assert(fc.property(dateArb, (start) => monthsEnd(start, 12) === defaultEnd(start)));
  });

  it('counts the fewest months whose end reaches the period end', () => {
    fc.assert(
      fc.property(periodArb, ([start, end]) => {
        const m = periodMonths(start, end);
        return monthsEnd(start, m) >= end && (m === 1 || monthsEnd(start, m - 1) < end);
      }),
    );
  });

  it('counts days with both ends, 365 or 366 to the year', () => {
    expect(periodDays('2026-12-01', '2026-12-31')).toBe(31);
    expect(yearDays('2026-03-01')).toBe(365);
    expect(yearDays('2027-03-01')).toBe(366);
  });
});

describe('the period factor', () => {
  it('prices one month of the standard table at 10% of the annual premium, to the fen', () => {
    const f = periodFactor('SHORT_RATE_TABLE', '2026-12-01', '2026-12-31');
    expect(f.text).toBe('短期费率 1 个月 10%');
    expect(periodPremium(1_234_567, f)).toBe(123_457);
  });

  it.each([
    [1, '10%'],
    [8, '80%'],
    [9, '85%'],
    [11, '95%'],
  ])('month %i of the standard table is %s', (months, text) => {
    expect(basisPointsText(STANDARD_SHORT_RATE_TABLE[months - 1] as number)).toBe(text);
  });

  it('prices a whole year at the annual premium under either rule', () => {
    for (const rule of ['SHORT_RATE_TABLE', 'PRO_RATA_DAILY'] as const) {
      const f = periodFactor(rule, '2026-12-01', '2027-11-30');
      expect(f).toMatchObject({ fullYear: true, text: '一年期' });
      expect(periodPremium(999_999, f)).toBe(999_999);
    }
  });

  it('prices pro rata by day over the days of the year', () => {
    const f = periodFactor('PRO_RATA_DAILY', '2026-12-01', '2026-12-31');
    expect(f.text).toBe('按日比例 31/365 天');
    expect(periodPremium(365_00, f)).toBe(31_00);
  });

  it('refuses a period longer than a year or ending before it starts', () => {
    expect(() => periodFactor('SHORT_RATE_TABLE', '2026-12-01', '2027-12-01')).toThrow(
      '保险期间不能超过一年',
    );
    expect(() => periodFactor('PRO_RATA_DAILY', '2026-12-01', '2026-11-30')).toThrow('不能早于');
  });

  it('never charges more for a shorter period, nor more than the annual premium', () => {
    fc.assert(
      fc.property(periodArb, fc.integer({ min: 0, max: 10 ** 12 }), ([start, end], annual) => {
        for (const rule of ['SHORT_RATE_TABLE', 'PRO_RATA_DAILY'] as const) {
          const p = periodPremium(annual, periodFactor(rule, start, end));
          const shorter =
            end > start ? periodPremium(annual, periodFactor(rule, start, addDays(end, -1))) : 0;
          if (p > annual || p < 0 || shorter > p) return false;
        }
        return true;
      }),
    );
  });

  it('checks a product short-rate table', () => {
    expect(shortRateTableProblem(STANDARD_SHORT_RATE_TABLE)).toBeNull();
    expect(shortRateTableProblem([1000])).toBe('短期费率表：须列明 1 至 12 个月共 12 档');
    const falling = [...STANDARD_SHORT_RATE_TABLE];
    falling[3] = 500;
    expect(shortRateTableProblem(falling)).toBe('短期费率表：第 4 个月不能低于第 3 个月');
    expect(shortRateTableProblem([...STANDARD_SHORT_RATE_TABLE.slice(0, 11), 9999])).toBe(
      '短期费率表：12 个月须为 100%',
    );
  });
});

describe('integer scaling', () => {
  it('rounds half up exactly, also beyond 2^53 intermediate products', () => {
    expect(scaleFen(5, 1, 2)).toBe(3);
    expect(scaleFen(-5, 1, 2)).toBe(-3);
    expect(scaleFen(9_007_199_254_740, 9999, 10000)).toBe(9_006_298_534_815);
  });

  it('is antisymmetric: a change and its reversal are the same amount with opposite signs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(10 ** 12), max: 10 ** 12 }),
        fc.nat(400),
        fc.integer({ min: 1, max: 400 }),
        (f, n, d) => scaleFen(-f, n, d) === -scaleFen(f, n, d),
      ),
    );
  });
});

describe('endorsement deltas', () => {
  const policy = { startDate: '2026-01-01', endDate: '2026-12-31' };

  it('prices a change pro rata by day from its effective date to the end', () => {
    // 100 days left of 365: +36,500.00 a year → +10,000.00
    expect(endorsementDeltaFen(policy, 1_000_000, 4_650_000, addDays('2026-12-31', -99))).toBe(1_000_000);
    expect(endorsementDeltaFen(policy, 4_650_000, 1_000_000, addDays('2026-12-31', -99))).toBe(-1_000_000);
    expect(endorsementDeltaFen(policy, 1_000_000, 2_000_000, '2027-01-01')).toBe(0);
    expect(endorsementDeltaFen(policy, 1_000_000, 2_000_000, '2026-01-01')).toBe(1_000_000);
  });
});

describe('cancellation refunds', () => {
  const policy = { startDate: '2026-01-01', endDate: '2026-12-31' };
  const base = { policy, paidFen: 1_200_000, annualFen: 1_200_000, preventionSpentFen: 0 };

  it('keeps the short-rate premium of the elapsed months when the holder asks', () => {
    // 45 days: 2 started months → 20%
    const q = cancellationQuote({ ...base, effective: '2026-02-15', party: 'HOLDER' });
    expect(q).toEqual({
      elapsedDays: 45,
      earnedFen: 240_000,
      refundFen: 960_000,
      basis: '短期费率 2 个月 20%',
    });
  });

  it('keeps the premium pro rata by day when the insurer cancels', () => {
    const q = cancellationQuote({ ...base, effective: '2026-02-15', party: 'INSURER' });
    expect(q).toEqual({
      elapsedDays: 45,
      earnedFen: 147_945,
      refundFen: 1_052_055,
      basis: '按日比例 45/365 天',
    });
  });

  it('never refunds the prevention fees already spent', () => {
    const q = cancellationQuote({
      ...base,
      effective: '2026-01-05',
      party: 'INSURER',
      preventionSpentFen: 300_000,
    });
    expect(q).toMatchObject({ earnedFen: 300_000, refundFen: 900_000, basis: '已用预防服务费' });
  });

  it('refunds everything before the start, nothing after the end', () => {
    expect(cancellationQuote({ ...base, effective: '2025-12-01', party: 'HOLDER' }).refundFen).toBe(
      1_200_000,
    );
    expect(cancellationQuote({ ...base, effective: '2027-03-01', party: 'HOLDER' }).refundFen).toBe(0);
  });

  it('splits what was paid into earned and refund exactly, never negative, whatever the inputs', () => {
    fc.assert(
      fc.property(
        periodArb,
        fc.integer({ min: -10, max: 400 }),
        fc.nat(10 ** 10),
        fc.nat(10 ** 10),
        fc.nat(10 ** 10),
        fc.constantFrom('HOLDER' as const, 'INSURER' as const),
        ([startDate, endDate], offset, paidFen, annualFen, preventionSpentFen, party) => {
          const q = cancellationQuote({
            policy: { startDate, endDate },
            paidFen,
            annualFen,
            preventionSpentFen,
            party,
            effective: addDays(startDate, offset),
          });
          return (
            q.refundFen >= 0 &&
            q.earnedFen + q.refundFen === paidFen &&
            q.refundFen <= Math.max(0, paidFen - Math.min(preventionSpentFen, paidFen))
          );
        },
      ),
    );
  });
});
