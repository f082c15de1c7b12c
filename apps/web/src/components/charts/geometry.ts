// Where a chart's marks go for a box of a given size: axes with round ticks, bars, line points, donut arcs and
// funnel stages, and which item (category, slice, stage) a point of the box falls on. Pure functions of the spec
// and the size, so ./Chart.tsx only draws and the arithmetic is tested on its own.
import type { ChartSpec, ValueFormatter } from './spec.ts';

type Cartesian = Extract<ChartSpec, { kind: 'cartesian' }>;
type Pie = Extract<ChartSpec, { kind: 'pie' }>;
type Funnel = Extract<ChartSpec, { kind: 'funnel' }>;

export const FONT_SIZE = 12;

/** The width of a label: CJK characters are square, the rest about 0.6 em (no layout needed). */
export function textWidth(text: string, size = FONT_SIZE): number {
  let w = 0;
  for (const ch of text) w += (ch.codePointAt(0) ?? 0) > 0x2e80 ? size : size * 0.6;
  return w;
}

export interface Scale {
  min: number;
  max: number;
  ticks: number[];
}

/** About `count` round ticks covering [min, max] (0 always included); whole numbers only when `integer`. */
export function niceScale(min: number, max: number, integer: boolean, count = 5): Scale {
  const lo = Math.min(0, min);
  let hi = Math.max(0, max);
  if (hi === lo) hi = lo + (integer ? count : 1);
  const raw = (hi - lo) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  if (integer) step = Math.max(1, Math.ceil(step));
  const start = Math.floor(lo / step) * step;
  const end = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let v = start; v <= end + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  return { min: start, max: end, ticks };
}

// One formatter for every value: toLocaleString builds a new one per call (a third of a chart card's render).
const grouped = new Intl.NumberFormat('zh-CN');
const plain: ValueFormatter = (v) => grouped.format(v);

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  color: string;
  index: number;
}
export interface Line {
  name: string;
  color: string;
  points: readonly (readonly [number, number])[];
}
export interface AxisLabel {
  x: number;
  y: number;
  text: string;
  anchor: 'start' | 'middle' | 'end';
}

export interface CartesianLayout {
  plot: { left: number; top: number; right: number; bottom: number };
  horizontal: boolean;
  /** Gridlines: the value of each tick at its position along the value axis. */
  grid: number[];
  labels: AxisLabel[];
  bars: Bar[];
  lines: Line[];
  /** The band of category i: its start and length along the category axis. */
  band: (i: number) => { start: number; size: number };
  hit: (x: number, y: number) => number | null;
  anchor: (i: number) => { x: number; y: number };
}

/** Extent of the values on one axis (stacked series summed per category). */
function extentOf(spec: Cartesian, axis: number): [number, number] {
  const on = spec.series.filter((s) => (spec.horizontal ? 0 : (s.yAxisIndex ?? 0)) === axis);
  let lo = 0;
  let hi = 0;
  const stacks = new Map<string, { pos: number[]; neg: number[] }>();
  for (const s of on) {
    if (!s.stack) {
      for (const v of s.data) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      continue;
    }
    const sums = stacks.get(s.stack) ?? { pos: [], neg: [] };
    stacks.set(s.stack, sums);
    s.data.forEach((v, i) => {
      if (v >= 0) sums.pos[i] = (sums.pos[i] ?? 0) + v;
      else sums.neg[i] = (sums.neg[i] ?? 0) + v;
    });
  }
  for (const { pos, neg } of stacks.values()) {
    hi = Math.max(hi, ...pos.filter((v) => v !== undefined));
    lo = Math.min(lo, ...neg.filter((v) => v !== undefined));
  }
  return [lo, hi];
}

export function cartesianLayout(spec: Cartesian, width: number, height: number): CartesianLayout {
  const horizontal = !!spec.horizontal;
  const n = Math.max(1, spec.categories.length);
  const axisOf = (s: Cartesian['series'][number]) => (horizontal ? 0 : (s.yAxisIndex ?? 0));
  const usesRight = !horizontal && spec.series.some((s) => s.yAxisIndex === 1);
  const axes = (usesRight ? [0, 1] : [0]).map((a) => {
    const format = spec.axes?.[a]?.format;
    const [lo, hi] = extentOf(spec, a);
    const scale = niceScale(lo, hi, !format);
    return { scale, texts: scale.ticks.map(format ?? plain), name: spec.axes?.[a]?.name };
  });
  const widest = (texts: readonly string[]) => Math.max(0, ...texts.map((t) => textWidth(t)));
  const named = axes.some((a) => a.name);
  const labels: AxisLabel[] = [];

  let plot: CartesianLayout['plot'];
  if (horizontal) {
    const categoryWidth = Math.min(widest(spec.categories), width * 0.4);
    const lastTick = textWidth(axes[0]!.texts.at(-1) ?? '');
    plot = {
      left: 8 + categoryWidth + 8,
      top: 8,
      right: width - Math.max(16, lastTick / 2 + 4),
      bottom: height - 24,
    };
  } else {
    plot = {
      left: 8 + widest(axes[0]!.texts) + 6,
      top: named ? 28 : 10,
      right: width - (usesRight ? 8 + widest(axes[1]!.texts) + 6 : 16),
      bottom: height - 24,
    };
  }
  plot.right = Math.max(plot.left + 10, plot.right);
  plot.bottom = Math.max(plot.top + 10, plot.bottom);
  const categoryLength = horizontal ? plot.bottom - plot.top : plot.right - plot.left;
  const valueLength = horizontal ? plot.right - plot.left : plot.bottom - plot.top;
  const bandSize = categoryLength / n;
  const bandStart = (i: number) => (horizontal ? plot.top : plot.left) + i * bandSize;
  /** Position along the value axis of `v` on axis `a` (y grows downwards, x rightwards). */
  const at = (a: number, v: number) => {
    const { min, max } = axes[a]!.scale;
    const t = (v - min) / (max - min || 1);
    return horizontal ? plot.left + t * valueLength : plot.bottom - t * valueLength;
  };

  // Value axis labels, gridlines (axis 0's ticks) and axis names.
  const grid = axes[0]!.scale.ticks.map((v) => at(0, v));
  axes.forEach((axis, a) => {
    axis.scale.ticks.forEach((v, i) => {
      const p = at(a, v);
      const text = axis.texts[i] ?? '';
      if (horizontal) labels.push({ x: p, y: plot.bottom + 16, text, anchor: 'middle' });
      else if (a === 0) labels.push({ x: plot.left - 6, y: p + 4, text, anchor: 'end' });
      else labels.push({ x: plot.right + 6, y: p + 4, text, anchor: 'start' });
    });
    if (axis.name && !horizontal)
      labels.push({
        x: a === 0 ? 8 : width - 8,
        y: 14,
        text: axis.name,
        anchor: a === 0 ? 'start' : 'end',
      });
  });
  // Category labels: every k-th so that they do not overlap.
  const every = horizontal
    ? Math.max(1, Math.ceil((FONT_SIZE + 2) / bandSize))
    : Math.max(1, Math.ceil((widest(spec.categories) + 8) / bandSize));
  spec.categories.forEach((c, i) => {
    if (i % every !== 0) return;
    const mid = bandStart(i) + bandSize / 2;
    if (horizontal) {
      const max = plot.left - 16;
      let text = c;
      while (text.length > 1 && textWidth(text) > max) text = text.slice(0, -1);
      labels.push({
        x: plot.left - 8,
        y: mid + 4,
        text: text === c ? c : `${text.slice(0, -1)}…`,
        anchor: 'end',
      });
    } else labels.push({ x: mid, y: plot.bottom + 16, text: c, anchor: 'middle' });
  });

  // Bars: one slot per stack (or per unstacked bar series), side by side in the middle of the band.
  const barSeries = spec.series.filter((s) => s.type === 'bar');
  const slots = [...new Set(barSeries.map((s, i) => s.stack ?? `#${i}`))];
  const slotSize = Math.min(36, (bandSize * 0.7) / Math.max(1, slots.length));
  const bars: Bar[] = [];
  const stackTops = new Map<string, { pos: number[]; neg: number[] }>();
  barSeries.forEach((s, k) => {
    const slot = slots.indexOf(s.stack ?? `#${k}`);
    const a = axisOf(s);
    const key = `${a}:${s.stack ?? `#${k}`}`;
    const tops = stackTops.get(key) ?? { pos: [], neg: [] };
    stackTops.set(key, tops);
    s.data.forEach((v, i) => {
      const base = v >= 0 ? (tops.pos[i] ?? 0) : (tops.neg[i] ?? 0);
      if (s.stack) (v >= 0 ? tops.pos : tops.neg)[i] = base + v;
      const p0 = at(a, base);
      const p1 = at(a, base + v);
      const offset = bandStart(i) + (bandSize - slotSize * slots.length) / 2 + slot * slotSize;
      const along = { start: Math.min(p0, p1), size: Math.abs(p1 - p0) };
      bars.push(
        horizontal
          ? { x: along.start, y: offset, width: along.size, height: slotSize, color: s.color, index: i }
          : { x: offset, y: along.start, width: slotSize, height: along.size, color: s.color, index: i },
      );
    });
  });
  const lines: Line[] = spec.series
    .filter((s) => s.type === 'line')
    .map((s) => ({
      name: s.name,
      color: s.color,
      points: s.data.map((v, i) => {
        const mid = bandStart(i) + bandSize / 2;
        return horizontal ? ([at(0, v), mid] as const) : ([mid, at(axisOf(s), v)] as const);
      }),
    }));

  return {
    plot,
    horizontal,
    grid,
    labels,
    bars,
    lines,
    band: (i) => ({ start: bandStart(i), size: bandSize }),
    hit: (x, y) => {
      const along = horizontal ? y - plot.top : x - plot.left;
      const across = horizontal ? x : y;
      if (along < 0 || along >= categoryLength || across < 0 || across > (horizontal ? width : height))
        return null;
      return Math.min(spec.categories.length - 1, Math.floor(along / bandSize));
    },
    anchor: (i) => {
      const mid = bandStart(i) + bandSize / 2;
      return horizontal ? { x: (plot.left + plot.right) / 2, y: mid } : { x: mid, y: plot.top };
    },
  };
}

export interface Arc {
  start: number;
  end: number;
  color: string;
  index: number;
}
export interface PieLayout {
  cx: number;
  cy: number;
  inner: number;
  outer: number;
  arcs: Arc[];
  total: number;
  hit: (x: number, y: number) => number | null;
  anchor: (i: number) => { x: number; y: number };
}

/** A donut: angles clockwise from twelve o'clock, in radians. */
export function pieLayout(spec: Pie, width: number, height: number): PieLayout {
  const total = spec.slices.reduce((n, s) => n + Math.max(0, s.value), 0);
  const cx = width / 2;
  const cy = height / 2;
  const outer = Math.max(10, Math.min(width, height) / 2 - 8);
  const inner = outer * 0.6;
  const arcs: Arc[] = [];
  let angle = 0;
  spec.slices.forEach((s, index) => {
    if (total <= 0 || s.value <= 0) return;
    const sweep = (s.value / total) * 2 * Math.PI;
    arcs.push({ start: angle, end: angle + sweep, color: s.color, index });
    angle += sweep;
  });
  const point = (r: number, a: number) => ({ x: cx + r * Math.sin(a), y: cy - r * Math.cos(a) });
  return {
    cx,
    cy,
    inner,
    outer,
    arcs,
    total,
    hit: (x, y) => {
      const r = Math.hypot(x - cx, y - cy);
      if (r < inner - 4 || r > outer + 8) return null;
      let a = Math.atan2(x - cx, cy - y);
      if (a < 0) a += 2 * Math.PI;
      return arcs.find((arc) => a >= arc.start && a < arc.end)?.index ?? null;
    },
    anchor: (i) => {
      const arc = arcs.find((a) => a.index === i);
      return arc ? point((inner + outer) / 2, (arc.start + arc.end) / 2) : { x: cx, y: cy };
    },
  };
}

/** The path of a donut segment. */
export function arcPath(l: Pick<PieLayout, 'cx' | 'cy'>, inner: number, outer: number, arc: Arc): string {
  const sweep = Math.min(arc.end - arc.start, 2 * Math.PI - 1e-4);
  const end = arc.start + sweep;
  const p = (r: number, a: number) =>
    `${(l.cx + r * Math.sin(a)).toFixed(2)} ${(l.cy - r * Math.cos(a)).toFixed(2)}`;
  const large = sweep > Math.PI ? 1 : 0;
  return [
    `M ${p(outer, arc.start)}`,
    `A ${outer} ${outer} 0 ${large} 1 ${p(outer, end)}`,
    `L ${p(inner, end)}`,
    `A ${inner} ${inner} 0 ${large} 0 ${p(inner, arc.start)}`,
    'Z',
  ].join(' ');
}

export interface Stage {
  /** The trapezoid's corners. */
  points: string;
  color: string;
  y: number;
  height: number;
  label: AxisLabel;
  value: AxisLabel;
}
export interface FunnelLayout {
  stages: Stage[];
  hit: (x: number, y: number) => number | null;
  anchor: (i: number) => { x: number; y: number };
}

/** Share of the first stage, as text ('' when the first stage is 0). */
export const shareOfFirst = (value: number, first: number) =>
  first > 0 ? `${((value * 100) / first).toFixed(1)}%` : '';

/** Stages top to bottom: the name on the left, a centred trapezoid as wide as the count, the count on the right. */
export function funnelLayout(spec: Funnel, width: number, height: number): FunnelLayout {
  const n = Math.max(1, spec.stages.length);
  const first = spec.stages[0]?.value ?? 0;
  const max = Math.max(1, ...spec.stages.map((s) => s.value));
  const valueText = (v: number) => `${plain(v)}${first > 0 ? `（${shareOfFirst(v, first)}）` : ''}`;
  const nameWidth = Math.min(width * 0.35, Math.max(0, ...spec.stages.map((s) => textWidth(s.name))));
  const valueWidth = Math.max(0, ...spec.stages.map((s) => textWidth(valueText(s.value))));
  const left = 8 + nameWidth + 12;
  const right = Math.max(left + 20, width - valueWidth - 20);
  const mid = (left + right) / 2;
  const gap = 4;
  const rowHeight = Math.max(8, (height - 16 - gap * (n - 1)) / n);
  const span = (v: number) => Math.max(0.04, v / max) * (right - left);
  const stages = spec.stages.map((s, i) => {
    const y = 8 + i * (rowHeight + gap);
    const top = span(s.value) / 2;
    const bottom = span(spec.stages[i + 1]?.value ?? s.value * 0.8) / 2;
    const points = [
      [mid - top, y],
      [mid + top, y],
      [mid + bottom, y + rowHeight],
      [mid - bottom, y + rowHeight],
    ]
      .map(([x, yy]) => `${x!.toFixed(2)},${yy!.toFixed(2)}`)
      .join(' ');
    const textY = y + rowHeight / 2 + 4;
    return {
      points,
      color: s.color,
      y,
      height: rowHeight,
      label: { x: left - 12, y: textY, text: s.name, anchor: 'end' as const },
      value: { x: right + 12, y: textY, text: valueText(s.value), anchor: 'start' as const },
    };
  });
  return {
    stages,
    hit: (_x, y) => {
      const i = Math.floor((y - 8) / (rowHeight + gap));
      return i >= 0 && i < spec.stages.length ? i : null;
    },
    anchor: (i) => ({ x: mid, y: 8 + i * (rowHeight + gap) + rowHeight / 2 }),
  };
}

export interface ItemDetail {
  title: string;
  rows: { color: string; name: string; value: string }[];
}

/** What the tooltip says about item i (a category, a slice, a stage). */
export function detailOf(spec: ChartSpec, i: number): ItemDetail | null {
  if (spec.kind === 'cartesian') {
    const title = spec.categories[i];
    if (title === undefined) return null;
    const formatOf = (a: number) => spec.axes?.[a]?.tooltip ?? spec.axes?.[a]?.format ?? plain;
    return {
      title,
      rows: spec.series.map((s) => ({
        color: s.color,
        name: s.name,
        value: formatOf(spec.horizontal ? 0 : (s.yAxisIndex ?? 0))(s.data[i] ?? 0),
      })),
    };
  }
  if (spec.kind === 'pie') {
    const s = spec.slices[i];
    if (!s) return null;
    const total = spec.slices.reduce((n, x) => n + Math.max(0, x.value), 0);
    return {
      title: s.name,
      rows: [{ color: s.color, name: shareOfFirst(s.value, total), value: (spec.format ?? plain)(s.value) }],
    };
  }
  const s = spec.stages[i];
  if (!s) return null;
  const first = spec.stages[0]?.value ?? 0;
  return {
    title: s.name,
    rows: [{ color: s.color, name: shareOfFirst(s.value, first), value: plain(s.value) }],
  };
}

/** How many items the keyboard steps through. */
export function itemCount(spec: ChartSpec): number {
  return spec.kind === 'cartesian'
    ? spec.categories.length
    : spec.kind === 'pie'
      ? spec.slices.length
      : spec.stages.length;
}

/** The chart in one sentence for screen readers (the table view has every figure). */
export function describeChart(title: string, spec: ChartSpec): string {
  const list = (parts: readonly string[]) =>
    parts.length > 8 ? `${parts.slice(0, 8).join('，')}，等 ${parts.length} 项` : parts.join('，');
  if (spec.kind === 'pie') {
    const total = spec.slices.reduce((n, s) => n + Math.max(0, s.value), 0);
    const format = spec.format ?? plain;
    return `${title}，环形图：${list(spec.slices.map((s) => `${s.name} ${format(s.value)}（${shareOfFirst(s.value, total)}）`))}`;
  }
  if (spec.kind === 'funnel')
    return `${title}，漏斗图：${list(spec.stages.map((s) => `${s.name} ${plain(s.value)}`))}`;
  const kind = spec.series.every((s) => s.type === 'line')
    ? '折线图'
    : spec.series.every((s) => s.type === 'bar')
      ? '柱状图'
      : '柱状图与折线图';
  const n = spec.categories.length;
  const formatOf = (s: Cartesian['series'][number]) => {
    const a = spec.horizontal ? 0 : (s.yAxisIndex ?? 0);
    return spec.axes?.[a]?.tooltip ?? spec.axes?.[a]?.format ?? plain;
  };
  if (n <= 8)
    return `${title}，${kind}：${spec.series
      .map(
        (s) =>
          `${s.name}：${spec.categories.map((c, i) => `${c} ${formatOf(s)(s.data[i] ?? 0)}`).join('，')}`,
      )
      .join('；')}`;
  return `${title}，${kind}，${spec.categories[0]} 至 ${spec.categories.at(-1)} 共 ${n} 项：${spec.series
    .map((s) => {
      const top = s.data.reduce((best, v, i) => (v > (s.data[best] ?? 0) ? i : best), 0);
      const sum = s.data.reduce((a, v) => a + v, 0);
      return `${s.name}合计 ${formatOf(s)(sum)}，最高 ${formatOf(s)(s.data[top] ?? 0)}（${spec.categories[top]}）`;
    })
    .join('；')}`;
}
