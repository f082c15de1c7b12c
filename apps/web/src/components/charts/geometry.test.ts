import { describe, expect, it } from 'vitest';
import { cartesianLayout, niceScale, pieLayout } from './geometry.ts';
import { type ChartTheme, cartesianChart, pieChart } from './spec.ts';

const theme: ChartTheme = {
  text: '#000',
  secondary: '#555',
  split: '#eee',
  surface: '#fff',
  palette: ['#1', '#2', '#3'],
};

describe('chart geometry', () => {
  it('round ticks from 0: whole numbers for counts, any step for money', () => {
    expect(niceScale(0, 3, true).ticks).toEqual([0, 1, 2, 3]);
    expect(niceScale(0, 0, true).ticks).toEqual([0, 1, 2, 3, 4, 5]);
    expect(niceScale(0, 3_480_000, false).ticks).toEqual([0, 1_000_000, 2_000_000, 3_000_000, 4_000_000]);
    expect(niceScale(-2, 7, true)).toMatchObject({ min: -2, max: 8 });
  });

  it('stacked bars sit on each other; the scale covers the sums', () => {
    const spec = cartesianChart(theme, {
      categories: ['a', 'b'],
      series: [
        { name: 'x', type: 'bar', stack: 's', data: [2, 0] },
        { name: 'y', type: 'bar', stack: 's', data: [3, 1] },
      ],
    });
    const l = cartesianLayout(spec, 400, 200);
    const [x0, , y0] = l.bars;
    // y's bar of category a starts where x's ends.
    expect(y0!.y + y0!.height).toBeCloseTo(x0!.y);
    expect(y0!.x).toBe(x0!.x);
    expect(l.grid).toHaveLength(niceScale(0, 5, true).ticks.length);
    expect(l.hit(l.plot.right - 1, 50)).toBe(1);
    expect(l.hit(l.plot.left - 5, 50)).toBeNull();
  });

  it('a donut: arcs in proportion, clockwise from twelve; a point falls on its slice', () => {
    const l = pieLayout(
      pieChart(theme, [
        { name: 'a', value: 3 },
        { name: 'zero', value: 0 },
        { name: 'b', value: 1 },
      ]),
      200,
      200,
    );
    expect(l.arcs.map((a) => a.index)).toEqual([0, 2]);
    expect(l.arcs[0]!.end).toBeCloseTo(1.5 * Math.PI);
    const r = (l.inner + l.outer) / 2;
    expect(l.hit(l.cx + r, l.cy)).toBe(0); // three o'clock: in the first three quarters
    expect(l.hit(l.cx - r, l.cy - 1)).toBe(2); // just before twelve, in the last quarter
    expect(l.hit(l.cx, l.cy)).toBeNull(); // the hole
  });
});
