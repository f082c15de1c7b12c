// A stand-in for ./echarts-setup.ts in tests (jsdom has no canvas): records the options drawn and the calls.
import type { EChartsCoreOption } from 'echarts/core';
import { vi } from 'vitest';

export interface FakeChart {
  element: HTMLElement;
  options: EChartsCoreOption[];
  setOption: ReturnType<typeof vi.fn>;
  resize: ReturnType<typeof vi.fn>;
  dispose: ReturnType<typeof vi.fn>;
}

export const fakeCharts: FakeChart[] = [];

export const fakeInit = vi.fn((element: HTMLElement): FakeChart => {
  const chart: FakeChart = {
    element,
    options: [],
    setOption: vi.fn((option: EChartsCoreOption) => {
      chart.options.push(option);
    }),
    resize: vi.fn(),
    dispose: vi.fn(),
  };
  fakeCharts.push(chart);
  return chart;
});

/** The chart drawn in the element labelled `label` (its latest instance). */
export function chartLabelled(label: string): FakeChart | undefined {
  return fakeCharts.findLast((c) => c.element.getAttribute('aria-label') === label);
}

/** The data of the series of a chart's latest option. */
export function seriesData(chart: FakeChart): unknown[][] {
  const option = chart.options.at(-1) as { series: { data: unknown[] }[] };
  return option.series.map((s) => s.data);
}
