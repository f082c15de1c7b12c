// A chart with what every dashboard chart needs around it: a title, a 图表 / 表格 switch (the table shows the very
// figures the chart draws), an export of those figures as CSV, and an empty state that says what to do next
// instead of drawing a flat or made-up series.
import { DownloadOutlined } from '@ant-design/icons';
import { type GlobalToken, theme } from 'antd';
import { type CSSProperties, type ReactNode, useMemo, useState } from 'react';
import { Chart } from './Chart.tsx';
import { ChoiceGroup } from './ChoiceGroup.tsx';
import { saveCsv } from './csv.ts';
import { PlainButton } from './PlainButton.tsx';
import type { ChartSpec, ChartTheme } from './spec.ts';
import { CHART_TEXTS as T } from './texts.ts';

export interface ChartColumn<Row> {
  key: string;
  title: string;
  /** The figure as exported (numbers stay numbers; money as yuan text). */
  value: (row: Row) => string | number;
  /** How the table shows it; the exported value by default. */
  render?: (row: Row) => ReactNode;
  align?: 'left' | 'right';
}

export interface ChartCardProps<Row> {
  title: string;
  /** One line under the title: what is counted, over which period. */
  description?: ReactNode;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  columns: readonly ChartColumn<Row>[];
  /**
   * Builds the chart from the theme and the rows; called again when either (or the builder) changes, so pass a
   * stable function (module level, or useCallback).
   */
  chart: (theme: ChartTheme, rows: readonly Row[]) => ChartSpec;
  /** The export's file name (a timestamp is put in front). */
  exportName: string;
  /** True when there is nothing to draw (default: no rows); `empty` is shown instead. */
  isEmpty?: boolean;
  empty: ReactNode;
  height?: number;
}

/** The chart colours of the current antd theme. */
export function useChartTheme(): ChartTheme {
  const { token } = theme.useToken();
  return useMemo(
    () => ({
      text: token.colorText,
      secondary: token.colorTextSecondary,
      split: token.colorBorderSecondary,
      surface: token.colorBgElevated,
      palette: [
        token.colorPrimary,
        token.colorSuccess,
        token.colorWarning,
        token.colorError,
        token['purple-6'] ?? '#722ed1',
        token['cyan-6'] ?? '#13c2c2',
        token['magenta-6'] ?? '#eb2f96',
        token['gold-6'] ?? '#faad14',
      ],
    }),
    [token],
  );
}

export function ChartCard<Row>(props: ChartCardProps<Row>) {
  const { title, description, rows, rowKey, columns, exportName, empty, height = 280 } = props;
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const chartTheme = useChartTheme();
  const { token } = theme.useToken();
  const build = props.chart;
  const spec = useMemo(() => build(chartTheme, rows), [build, chartTheme, rows]);
  const isEmpty = props.isEmpty ?? rows.length === 0;

  const exportCsv = () =>
    saveCsv(
      exportName,
      columns.map((c) => c.title),
      rows.map((row) => columns.map((c) => c.value(row))),
    );

  return (
    <section
      aria-label={title}
      style={{ ...cardFrame(token), display: 'flex', flexDirection: 'column', minWidth: 0 }}
    >
      <header
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 8,
          alignItems: 'center',
          justifyContent: 'space-between',
          padding: '8px 12px',
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <h4 style={{ margin: 0, fontSize: token.fontSize, fontWeight: 600 }}>{title}</h4>
        {!isEmpty && (
          <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
            <ChoiceGroup<'chart' | 'table'>
              size="small"
              label={`${title}${T.viewLabel}`}
              value={view}
              onChange={setView}
              options={[
                { label: T.chart, value: 'chart' },
                { label: T.table, value: 'table' },
              ]}
            />
            <PlainButton
              icon={<DownloadOutlined />}
              title={T.exportTitle}
              aria-label={`${T.exportCsv}${title}`}
              onClick={exportCsv}
            >
              {T.exportCsv}
            </PlainButton>
          </div>
        )}
      </header>
      <div style={{ padding: 12, flex: 1 }}>
        {description && (
          <div style={{ color: token.colorTextSecondary, fontSize: token.fontSizeSM, marginBottom: 8 }}>
            {description}
          </div>
        )}
        {isEmpty ? (
          <div style={{ padding: '32px 8px', textAlign: 'center', color: token.colorTextSecondary }}>
            {empty}
          </div>
        ) : view === 'chart' ? (
          <Chart spec={spec} label={title} height={height} theme={chartTheme} />
        ) : (
          <div style={{ maxHeight: height, overflow: 'auto' }}>
            <table aria-label={title} style={{ width: '100%', borderCollapse: 'collapse' }}>
              <thead>
                <tr>
                  {columns.map((c) => (
                    <th
                      key={c.key}
                      scope="col"
                      style={{
                        textAlign: c.align ?? 'left',
                        padding: '6px 8px',
                        position: 'sticky',
                        top: 0,
                        background: token.colorFillAlter,
                        borderBottom: `1px solid ${token.colorBorderSecondary}`,
                        fontWeight: 500,
                      }}
                    >
                      {c.title}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={rowKey(row)}>
                    {columns.map((c) => (
                      <td
                        key={c.key}
                        style={{
                          textAlign: c.align ?? 'left',
                          padding: '6px 8px',
                          borderBottom: `1px solid ${token.colorBorderSecondary}`,
                          fontVariantNumeric: 'tabular-nums',
                        }}
                      >
                        {c.render ? c.render(row) : c.value(row)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}

/** A card's frame, the same loaded or loading. */
const cardFrame = (token: GlobalToken): CSSProperties => ({
  borderRadius: token.borderRadiusLG,
  background: token.colorBgContainer,
  border: `1px solid ${token.colorBorderSecondary}`,
});

/**
 * The frame of a chart card with nothing in it yet, as high as the card will be (title bar, one line of
 * description, the chart): shown while the figures load, so the page does not move when they arrive.
 */
export function ChartCardSkeleton({ height = 280 }: { height?: number }) {
  const { token } = theme.useToken();
  const bar = (width: number | string, h: number) => (
    <div
      style={{ width, height: h, borderRadius: token.borderRadiusSM, background: token.colorFillSecondary }}
    />
  );
  return (
    <div style={cardFrame(token)}>
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          height: 16 + token.controlHeightSM,
          padding: '0 12px',
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        {bar('40%', token.fontSize)}
      </div>
      <div style={{ padding: 12 }}>
        <div style={{ height: Math.round(token.fontSizeSM * token.lineHeightSM) + 8 }}>
          {bar('60%', token.fontSizeSM)}
        </div>
        <div style={{ height, borderRadius: token.borderRadiusSM, background: token.colorFillQuaternary }} />
      </div>
    </div>
  );
}
