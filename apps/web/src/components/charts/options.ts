// echarts options for the dashboard's kinds of chart, coloured from the antd theme (so dark mode and the chosen
// theme colour carry over). Plain objects: building them needs no echarts code.
import type { EChartsCoreOption } from 'echarts/core';

export interface ChartTheme {
  text: string;
  secondary: string;
  split: string;
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

const textStyle = (theme: ChartTheme) => ({ color: theme.text, fontFamily: 'inherit' });

function valueAxis(theme: ChartTheme, axis: ValueAxis | undefined) {
  return {
    type: 'value',
    name: axis?.name,
    nameTextStyle: { color: theme.secondary },
    minInterval: axis?.format ? undefined : 1,
    axisLabel: { color: theme.secondary, formatter: axis?.format },
    splitLine: { lineStyle: { color: theme.split } },
  };
}

/** Lines and bars over categories (periods, states, windows). */
export function cartesianOption(theme: ChartTheme, chart: CartesianChart): EChartsCoreOption {
  const category = {
    type: 'category',
    data: [...chart.categories],
    axisLabel: { color: theme.secondary },
    axisLine: { lineStyle: { color: theme.split } },
  };
  const usesRight = chart.series.some((s) => s.yAxisIndex === 1);
  const values = usesRight
    ? [valueAxis(theme, chart.axes?.[0]), valueAxis(theme, chart.axes?.[1])]
    : valueAxis(theme, chart.axes?.[0]);
  const formatOf = (index: number) => chart.axes?.[index]?.tooltip ?? chart.axes?.[index]?.format;
  return {
    color: [...theme.palette],
    textStyle: textStyle(theme),
    animationDuration: 300,
    tooltip: { trigger: 'axis', confine: true },
    legend: chart.series.length > 1 ? { top: 0, textStyle: { color: theme.text } } : undefined,
    grid: { left: 8, right: 16, top: chart.series.length > 1 ? 36 : 16, bottom: 8, containLabel: true },
    xAxis: chart.horizontal ? values : category,
    yAxis: chart.horizontal ? { ...category, inverse: true } : values,
    series: chart.series.map((s) => ({
      name: s.name,
      type: s.type,
      data: [...s.data],
      stack: s.stack,
      yAxisIndex: chart.horizontal ? undefined : s.yAxisIndex,
      smooth: s.type === 'line' ? true : undefined,
      showSymbol: s.type === 'line' ? chart.categories.length <= 31 : undefined,
      barMaxWidth: 36,
      itemStyle: s.color ? { color: s.color } : undefined,
      tooltip: formatOf(s.yAxisIndex ?? 0) ? { valueFormatter: formatOf(s.yAxisIndex ?? 0) } : undefined,
    })),
  };
}

export interface Slice {
  name: string;
  value: number;
}

/** Shares of a whole (premium by product, by insurer). */
export function pieOption(
  theme: ChartTheme,
  slices: readonly Slice[],
  format?: ValueFormatter,
): EChartsCoreOption {
  return {
    color: [...theme.palette],
    textStyle: textStyle(theme),
    tooltip: { trigger: 'item', confine: true, valueFormatter: format },
    legend: { type: 'scroll', bottom: 0, textStyle: { color: theme.text } },
    series: [
      {
        type: 'pie',
        radius: ['40%', '68%'],
        center: ['50%', '45%'],
        label: { color: theme.text, formatter: '{b}\n{d}%' },
        data: slices.map((s) => ({ ...s })),
      },
    ],
  };
}

/** Stages that narrow (applications created → issued). */
export function funnelOption(theme: ChartTheme, stages: readonly Slice[]): EChartsCoreOption {
  const max = Math.max(1, ...stages.map((s) => s.value));
  return {
    color: [...theme.palette],
    textStyle: textStyle(theme),
    tooltip: { trigger: 'item', confine: true },
    series: [
      {
        type: 'funnel',
        sort: 'none',
        min: 0,
        max,
        minSize: '4%',
        left: '8%',
        right: '8%',
        top: 8,
        bottom: 8,
        gap: 2,
        label: { position: 'inside', formatter: '{b}：{c}', color: '#fff' },
        data: stages.map((s) => ({ ...s })),
      },
    ],
  };
}
