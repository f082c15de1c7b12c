import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { type RateTableValues, refusalFields, tableProblems, toBody } from './rate-table-values.ts';

const construction = (rows: RateTableValues['rows'], highRiskLoading?: string): RateTableValues => ({
  effectiveDate: dayjs('2026-12-01'),
  highRiskLoading,
  rows,
  factors: [],
});

describe('rate-table form values', () => {
  it('construction: cost bands in yuan → fen, the empty top band → null, the loading × 10⁴', () => {
    const body = toBody(
      construction(
        [
          { costBandUpTo: '10000000', rate: '0.65' },
          { costBandUpTo: '', rate: '0.6' },
        ],
        '1.25',
      ),
      'construction',
    );
    expect(body).toMatchObject({ effectiveDate: '2026-12-01', highRiskLoading: 12_500, note: null });
    expect(body.rows).toEqual([
      { coverageType: null, industry: null, limitTierFen: null, costBandUpToFen: 1_000_000_000, rate: 6_500 },
      { coverageType: null, industry: null, limitTierFen: null, costBandUpToFen: null, rate: 6_000 },
    ]);
    expect(tableProblems(construction([{ costBandUpTo: '', rate: '0.6' }]), 'construction')).toEqual([]);
  });

  it('places the shared rules: a table without an open top band above the table, a duplicate at its row', () => {
    expect(
      tableProblems(
        construction([
          { costBandUpTo: '50000000', rate: '0.6' },
          { costBandUpTo: '10000000', rate: '0.65' },
        ]),
        'construction',
      ),
    ).toEqual([{ name: null, message: '造价分档：最高一档须不设上限' }]);
    const guarantee: RateTableValues = {
      effectiveDate: dayjs('2026-12-01'),
      rows: [
        { industry: 'E', rate: '12' },
        { industry: 'E', rate: '15' },
      ],
    };
    expect(tableProblems(guarantee, 'guarantee')).toEqual([
      { name: ['rows', 1, 'industry'], message: '第 2 行与第 1 行重复' },
    ]);
  });

  it('places server refusals by their errors: the body’s keys at the form’s fields, a factor at its part', () => {
    const values: RateTableValues = {
      rows: [{ rate: '1' }],
      factors: [
        { label: '事故记录', options: [{ value: 'A', label: '无', multiplier: '0.9' }] },
        { label: '履约记录', options: [{ value: 'A', label: '良好', multiplier: '5' }] },
      ],
    };
    const at = refusalFields(values) as (path: (string | number)[], message: string) => unknown;
    expect(at(['effectiveDate'], '2099-01-01 未到')).toBe('effectiveDate');
    expect(at(['rows', 3, 'limitTierFen'], '第 4 行限额档次不得低于 40万元')).toEqual([
      'rows',
      3,
      'limitTier',
    ]);
    expect(at(['factors', 1], '浮动因子「履约记录」的选项「良好」系数超出范围')).toEqual([
      'factors',
      1,
      'options',
      0,
      'multiplier',
    ]);
    expect(at(['rows'], '须包含从业人员伤亡责任的费率')).toBeNull();
  });
});
