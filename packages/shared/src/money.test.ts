import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountShortText,
  fenToYuanText,
  formatFen,
  microPercentText,
  multiplierText,
  percentTextToMicro,
  perMilleTextToRate,
  rateText,
  yuanTextToFen,
} from './money.ts';

describe('money and ratios as integers, converted through decimal text (never floats)', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [123_450, '1234.50'],
    [40_000_000, '400000.00'],
    [-150, '-1.50'],
  ])('%i fen → %s', (fen, plain) => {
    expect(fenToYuanText(fen)).toBe(plain);
  });

  it.each([
    [0, '¥0.00'],
    [5, '¥0.05'],
    [2_676_000, '¥26,760.00'],
    [123_456_789, '¥1,234,567.89'],
    [-150, '-¥1.50'],
    [-100_000_000, '-¥1,000,000.00'],
    [null, '—'],
    [undefined, '—'],
  ])('shows %s fen as %s', (fen, shown) => {
    expect(formatFen(fen)).toBe(shown);
  });

  it('shows any amount as ¥, thousands grouped, exactly two decimals, reading back to the same fen', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (fen) => {
        const shown = formatFen(fen);
        expect(shown).toMatch(/^-?¥\d{1,3}(,\d{3})*\.\d{2}$/);
        expect(yuanTextToFen(shown.replace(/^-?¥/, '').replaceAll(',', ''))).toBe(Math.abs(fen));
      }),
    );
  });

  it.each([
    ['1234.5', 123_450],
    ['0.1', 10],
    ['400000', 40_000_000],
    ['1.234', null],
    ['-1', null],
    ['1e3', null],
    ['', null],
  ])('yuan text %j → %s fen', (text, fen) => {
    expect(yuanTextToFen(text)).toBe(fen);
  });

  it.each([
    ['21', 21_000_000],
    ['15.5', 15_500_000],
    ['0.000001', 1],
    ['0.0000001', null],
  ])('percent %j → %s micro-percent', (text, micro) => {
    expect(percentTextToMicro(text)).toBe(micro);
  });

  it('formats rates, multipliers and short amounts', () => {
    expect(rateText(6_500)).toBe('0.65‰');
    expect(rateText(150_000)).toBe('15‰');
    expect(perMilleTextToRate('0.65')).toBe(6_500);
    expect(multiplierText(13_000)).toBe('1.3');
    expect(microPercentText(21_000_000)).toBe('21');
    expect(amountShortText(40_000_000)).toBe('40万元');
    expect(amountShortText(100_000_000_000)).toBe('10亿元');
    expect(amountShortText(123_456)).toBe('1234.56元');
  });

  it('round-trips every amount and percentage', () => {
    fc.assert(
      fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), (n) => yuanTextToFen(fenToYuanText(n)) === n),
    );
    fc.assert(
      fc.property(fc.nat({ max: 100_000_000 }), (n) => percentTextToMicro(microPercentText(n)) === n),
    );
  });
});
