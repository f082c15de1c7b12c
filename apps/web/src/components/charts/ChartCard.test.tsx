import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChartCard, type ChartColumn } from './ChartCard.tsx';
import { type ChartTheme, cartesianOption } from './options.ts';
import { chartLabelled, fakeCharts, fakeInit, seriesData } from './test-echarts.ts';

vi.mock('./echarts-setup.ts', async () => ({ init: (await import('./test-echarts.ts')).fakeInit }));
vi.mock('@/lib/download.ts', () => ({ saveBlob: vi.fn() }));

type Row = { day: string; approve: number; reject: number };
const rows: Row[] = [
  { day: '2026-03-01', approve: 3, reject: 1 },
  { day: '2026-03-02', approve: 0, reject: 2 },
];
const columns: ChartColumn<Row>[] = [
  { key: 'day', title: '日期', value: (r) => r.day },
  { key: 'approve', title: '通过', value: (r) => r.approve, align: 'right' },
  { key: 'reject', title: '拒绝', value: (r) => r.reject, align: 'right' },
];
const option = (theme: ChartTheme, data: readonly Row[]) =>
  cartesianOption(theme, {
    categories: data.map((r) => r.day),
    series: [
      { name: '通过', type: 'bar', data: data.map((r) => r.approve) },
      { name: '拒绝', type: 'bar', data: data.map((r) => r.reject) },
    ],
  });

let observers: { callback: ResizeObserverCallback; targets: Element[] }[] = [];
beforeEach(() => {
  fakeCharts.length = 0;
  fakeInit.mockClear();
  observers = [];
  vi.stubGlobal(
    'ResizeObserver',
    class {
      entry: { callback: ResizeObserverCallback; targets: Element[] };
      constructor(callback: ResizeObserverCallback) {
        this.entry = { callback, targets: [] };
        observers.push(this.entry);
      }
      observe(target: Element) {
        this.entry.targets.push(target);
      }
      unobserve() {}
      disconnect() {
        this.entry.targets = [];
      }
    },
  );
});
afterEach(() => vi.unstubAllGlobals());

const renderCard = (props: Partial<Parameters<typeof ChartCard<Row>>[0]> = {}) =>
  render(
    <ChartCard<Row>
      title="审核结论"
      rows={rows}
      rowKey={(r) => r.day}
      columns={columns}
      option={option}
      exportName="审核结论"
      empty="暂无审核结论"
      {...props}
    />,
  );

describe('ChartCard', () => {
  it('draws the rows once echarts has loaded; the table shows the same figures', async () => {
    renderCard();
    await waitFor(() => expect(chartLabelled('审核结论')).toBeDefined());
    const chart = chartLabelled('审核结论')!;
    expect(seriesData(chart)).toEqual([
      [3, 0],
      [1, 2],
    ]);

    await userEvent.click(screen.getByText('表格'));
    const table = screen.getByRole('table', { name: '审核结论' });
    const cells = within(table)
      .getAllByRole('row')
      .map((row) =>
        within(row)
          .queryAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(cells.slice(1)).toEqual([
      ['2026-03-01', '3', '1'],
      ['2026-03-02', '0', '2'],
    ]);
    // Leaving the chart view disposes the instance.
    expect(chart.dispose).toHaveBeenCalled();
  });

  it('re-measures when its box changes size (a kept tab shown again), not while hidden', async () => {
    renderCard();
    await waitFor(() => expect(chartLabelled('审核结论')).toBeDefined());
    const chart = chartLabelled('审核结论')!;
    const box = chart.element;
    const observer = observers.find((o) => o.targets.includes(box))!;
    expect(observer).toBeDefined();
    const size = (w: number, h: number) => {
      Object.defineProperty(box, 'clientWidth', { configurable: true, value: w });
      Object.defineProperty(box, 'clientHeight', { configurable: true, value: h });
    };
    size(0, 0);
    act(() => observer.callback([], {} as ResizeObserver));
    expect(chart.resize).not.toHaveBeenCalled();
    size(640, 280);
    act(() => observer.callback([], {} as ResizeObserver));
    expect(chart.resize).toHaveBeenCalledTimes(1);
  });

  it('exports the figures as CSV', async () => {
    const { saveBlob } = await import('@/lib/download.ts');
    renderCard();
    await userEvent.click(screen.getByRole('button', { name: '导出审核结论' }));
    const [blob, name] = vi.mocked(saveBlob).mock.calls.at(-1)!;
    expect(name).toMatch(/^\d{13}-审核结论\.csv$/);
    expect(await (blob as Blob).text()).toBe('日期,通过,拒绝\r\n2026-03-01,3,1\r\n2026-03-02,0,2\r\n');
  });

  it('shows the empty state instead of a chart, without switch or export', () => {
    renderCard({ isEmpty: true, empty: '暂无审核结论，去审核任务' });
    expect(screen.getByText('暂无审核结论，去审核任务')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: '审核结论' })).toBeNull();
    expect(screen.queryByRole('button', { name: '导出审核结论' })).toBeNull();
    expect(fakeInit).not.toHaveBeenCalled();
  });
});
