import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChartCard, type ChartColumn } from './ChartCard.tsx';
import { type ChartTheme, cartesianChart, funnelChart, pieChart } from './spec.ts';

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
const chart = (theme: ChartTheme, data: readonly Row[]) =>
  cartesianChart(theme, {
    categories: data.map((r) => r.day),
    series: [
      { name: '通过', type: 'bar', data: data.map((r) => r.approve) },
      { name: '拒绝', type: 'bar', data: data.map((r) => r.reject) },
    ],
  });

type Watched<C> = { callback: C; targets: Element[] };

/** An observer class that records each instance's callback and the elements it watches into `into`. */
function recordingObserver<C>(into: Watched<C>[]) {
  return class {
    entry: Watched<C>;
    constructor(callback: C) {
      this.entry = { callback, targets: [] };
      into.push(this.entry);
    }
    observe(target: Element) {
      this.entry.targets.push(target);
    }
    unobserve() {}
    disconnect() {
      this.entry.targets = [];
    }
  };
}

let observers: Watched<ResizeObserverCallback>[] = [];
beforeEach(() => {
  observers = [];
  vi.stubGlobal('ResizeObserver', recordingObserver(observers));
});
afterEach(() => vi.unstubAllGlobals());

const renderCard = (props: Partial<Parameters<typeof ChartCard<Row>>[0]> = {}) =>
  render(
    <ChartCard<Row>
      title="审核结论"
      rows={rows}
      rowKey={(r) => r.day}
      columns={columns}
      chart={chart}
      exportName="审核结论"
      empty="暂无审核结论"
      {...props}
    />,
  );

/** The bars drawn, as [fill colour, height] in drawing order (series by series). */
const barsOf = (svg: Element) =>
  [...svg.querySelectorAll('rect[fill]')]
    .filter((r) => Number(r.getAttribute('width')) <= 36 && r.getAttribute('opacity') !== '0.6')
    .map((r) => Number(r.getAttribute('height')));

describe('ChartCard', () => {
  it('draws the rows as SVG with a summary; the table shows the same figures', async () => {
    renderCard();
    const img = screen.getByRole('img', { name: /^审核结论，柱状图/ });
    expect(img.tagName.toLowerCase()).toBe('svg');
    // Every figure is in the summary a screen reader reads.
    expect(img).toHaveAccessibleName(
      '审核结论，柱状图：通过：2026-03-01 3，2026-03-02 0；拒绝：2026-03-01 1，2026-03-02 2',
    );
    // Bars as high as their values: 3 is three times 1, 0 draws nothing, 2 is twice 1.
    const [a3, a0, r1, r2] = barsOf(img);
    expect(a0).toBe(0);
    expect(a3! / r1!).toBeCloseTo(3);
    expect(r2! / r1!).toBeCloseTo(2);
    // The legend names both series; the axis shows both days.
    expect(img.textContent).toContain('2026-03-01');

    await userEvent.click(screen.getByRole('button', { name: '表格' }));
    expect(screen.getByRole('button', { name: '表格' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('img', { name: /审核结论/ })).toBeNull();
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
  });

  it('the arrow keys step through the categories: a tooltip shows and a live region reads the figures', async () => {
    renderCard();
    const chartBox = screen.getByRole('group', { name: '审核结论（可用方向键逐项查看数值）' });
    // Keyboard only: tab past the switch and the export to the chart.
    await userEvent.tab();
    await userEvent.tab();
    await userEvent.tab();
    await userEvent.tab();
    expect(chartBox).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}');
    const live = chartBox.querySelector('[aria-live="polite"]')!;
    expect(live).toHaveTextContent('2026-03-01：通过 3，拒绝 1');
    await userEvent.keyboard('{ArrowRight}');
    expect(live).toHaveTextContent('2026-03-02：通过 0，拒绝 2');
    // The tooltip (for sighted users) says the same.
    expect(chartBox).toHaveTextContent('2026-03-02通过0拒绝2');
    await userEvent.keyboard('{End}{ArrowRight}');
    expect(live).toHaveTextContent('2026-03-02：');
    await userEvent.keyboard('{Escape}');
    expect(chartBox).not.toHaveTextContent('2026-03-02通过');
  });

  it('redraws at the width of its box when the box changes size, not while hidden', () => {
    renderCard();
    const img = screen.getByRole('img', { name: /审核结论/ });
    const box = img.parentElement!;
    const observer = observers.find((o) => o.targets.includes(box))!;
    expect(observer).toBeDefined();
    const size = (w: number, h: number) => {
      Object.defineProperty(box, 'clientWidth', { configurable: true, value: w });
      Object.defineProperty(box, 'clientHeight', { configurable: true, value: h });
    };
    size(640, 250);
    act(() => observer.callback([], {} as ResizeObserver));
    expect(img).toHaveAttribute('viewBox', '0 0 640 250');
    size(0, 0);
    act(() => observer.callback([], {} as ResizeObserver));
    expect(img).toHaveAttribute('viewBox', '0 0 640 250');
    size(375, 250);
    act(() => observer.callback([], {} as ResizeObserver));
    expect(img).toHaveAttribute('width', '375');
  });

  it('below the fold: the summary is there at once, the shapes when the box nears the viewport, at its width', () => {
    const near: Watched<IntersectionObserverCallback>[] = [];
    vi.stubGlobal('IntersectionObserver', recordingObserver(near));
    renderCard();
    const img = screen.getByRole('img', { name: /^审核结论，柱状图：/ });
    const box = img.parentElement!;
    expect(barsOf(img)).toEqual([]);
    expect(observers.some((o) => o.targets.includes(box))).toBe(false);
    const watcher = near.find((o) => o.targets.includes(box))!;
    const seen = (isIntersecting: boolean) =>
      act(() =>
        watcher.callback([{ isIntersecting, target: box } as unknown as IntersectionObserverEntry], {
          root: null,
        } as IntersectionObserver),
      );
    seen(false);
    expect(observers.some((o) => o.targets.includes(box))).toBe(false);
    seen(true);
    Object.defineProperty(box, 'clientWidth', { configurable: true, value: 360 });
    Object.defineProperty(box, 'clientHeight', { configurable: true, value: 250 });
    const resize = observers.find((o) => o.targets.includes(box))!;
    act(() => resize.callback([], {} as ResizeObserver));
    expect(img).toHaveAttribute('viewBox', '0 0 360 250');
    expect(barsOf(img)).toHaveLength(4);
  });

  it('printing draws a chart that was never scrolled near', () => {
    // Never told the box is near.
    vi.stubGlobal('IntersectionObserver', recordingObserver([]));
    renderCard();
    const img = screen.getByRole('img', { name: /^审核结论，柱状图：/ });
    expect(barsOf(img)).toEqual([]);
    act(() => {
      window.dispatchEvent(new Event('beforeprint'));
    });
    expect(barsOf(img)).toHaveLength(4);
  });

  it('a pointer over a band shows that category', () => {
    renderCard();
    const img = screen.getByRole('img', { name: /审核结论/ });
    const box = img.parentElement!;
    box.getBoundingClientRect = () => ({ left: 0, top: 0 }) as DOMRect;
    // Default width 480: the second band is on the right half.
    fireEvent.pointerMove(box, { clientX: 400, clientY: 100 });
    expect(box).toHaveTextContent('2026-03-02通过0拒绝2');
    fireEvent.pointerLeave(box);
    expect(box).not.toHaveTextContent('2026-03-02通过');
  });

  it('draws a donut and a funnel with their shares', () => {
    const { unmount } = render(
      <ChartCard<{ name: string; value: number }>
        title="按险种保费"
        rows={[
          { name: '安责险', value: 300 },
          { name: '建工险', value: 100 },
        ]}
        rowKey={(r) => r.name}
        columns={[{ key: 'name', title: '险种', value: (r) => r.name }]}
        chart={(theme, data) => pieChart(theme, data, (v) => `¥${v}`)}
        exportName="x"
        empty="无"
      />,
    );
    const pie = screen.getByRole('img', { name: /按险种保费/ });
    expect(pie).toHaveAccessibleName('按险种保费，环形图：安责险 ¥300（75.0%），建工险 ¥100（25.0%）');
    expect(pie.querySelectorAll('path')).toHaveLength(2);
    expect(screen.getByText('安责险 75.0%')).toBeInTheDocument();
    unmount();

    render(
      <ChartCard<{ name: string; value: number }>
        title="投保转化"
        rows={[
          { name: '创建投保单', value: 4 },
          { name: '已出单', value: 1 },
        ]}
        rowKey={(r) => r.name}
        columns={[{ key: 'name', title: '环节', value: (r) => r.name }]}
        chart={funnelChart}
        exportName="x"
        empty="无"
      />,
    );
    const funnel = screen.getByRole('img', { name: /投保转化/ });
    expect(funnel).toHaveAccessibleName('投保转化，漏斗图：创建投保单 4，已出单 1');
    expect(funnel.querySelectorAll('polygon')).toHaveLength(2);
    expect(funnel).toHaveTextContent('1（25.0%）');
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
    expect(screen.queryByRole('img', { name: /审核结论/ })).toBeNull();
    expect(screen.queryByRole('button', { name: '导出审核结论' })).toBeNull();
    expect(screen.queryByRole('button', { name: '表格' })).toBeNull();
  });
});
