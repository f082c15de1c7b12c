// What a dashboard chart draws, as plain data: lines and bars over categories, shares of a whole (a donut), stages
// that narrow (a funnel). Series colours come from the antd theme (so dark mode and the chosen theme colour carry
// over); ./Chart.tsx draws a spec as SVG.

export interface ChartTheme {
  text: string;
  secondary: string;
  split: string;
  /** The tooltip's background (antd's elevated background). */
  surface: string;
  palette: readonly string[];
}

export type ValueFormatter = (value: number) => string;

export interface CartesianSeries {
  name: string;
  type: 'line' | 'bar';
  data: readonly number[];
  /** 1: the right-hand axis (e.g. counts beside money). */
  yAxisIndex?: 0 | 1;
  /** Series with the same stack name are stacked. */
  stack?: string;
  color?: string;
}

export interface ValueAxis {
  name?: string;
  format?: ValueFormatter;
  /** The tooltip's format of the values on this axis (default: the label format). */
  tooltip?: ValueFormatter;
}

export interface CartesianChart {
  categories: readonly string[];
  series: readonly CartesianSeries[];
  /** The value axes (the second only when a series uses it): name, label format, tooltip format. */
  axes?: readonly ValueAxis[];
  /** Bars run left to right, categories down the side. */
  horizontal?: boolean;
}

export interface Slice {
  name: string;
  value: number;
}

export type ChartSpec =
  | (Omit<CartesianChart, 'series'> & {
      kind: 'cartesian';
      series: readonly (CartesianSeries & { color: string })[];
    })
  | { kind: 'pie'; slices: readonly (Slice & { color: string })[]; format?: ValueFormatter | undefined }
  | { kind: 'funnel'; stages: readonly (Slice & { color: string })[] };

const colourOf = (theme: ChartTheme, index: number) =>
  theme.palette[index % theme.palette.length] ?? '#1677ff';

/** Lines and bars over categories (periods, states, windows). */
export function cartesianChart(
  theme: ChartTheme,
  chart: CartesianChart,
): Extract<ChartSpec, { kind: 'cartesian' }> {
  return {
    kind: 'cartesian',
    ...chart,
    series: chart.series.map((s, i) => ({ ...s, color: s.color ?? colourOf(theme, i) })),
  };
}

/** Shares of a whole (premium by product, by insurer). */
export function pieChart(
  theme: ChartTheme,
  slices: readonly Slice[],
  format?: ValueFormatter,
): Extract<ChartSpec, { kind: 'pie' }> {
  return { kind: 'pie', format, slices: slices.map((s, i) => ({ ...s, color: colourOf(theme, i) })) };
}

/** Stages that narrow (applications created → issued). */
export function funnelChart(
  theme: ChartTheme,
  stages: readonly Slice[],
): Extract<ChartSpec, { kind: 'funnel' }> {
  return { kind: 'funnel', stages: stages.map((s, i) => ({ ...s, color: colourOf(theme, i) })) };
}
