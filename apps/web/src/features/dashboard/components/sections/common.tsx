// Pieces every dashboard section uses: its heading, a row of key figures, the chart grid, and the service orders
// by status.
import { theme } from 'antd';
import type { ReactNode } from 'react';
import type { ChartColumn } from '@/components/charts/ChartCard.tsx';
import { type ChartTheme, cartesianChart } from '@/components/charts/spec.ts';
import { DASHBOARD_TEXTS as T } from '../../texts.ts';

export function SectionHeading({ title, note }: { title: string; note?: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <h3 style={{ margin: '24px 0 12px', display: 'flex', alignItems: 'baseline', gap: 12, flexWrap: 'wrap' }}>
      {title}
      {note && (
        <span style={{ fontSize: token.fontSizeSM, fontWeight: 'normal', color: token.colorTextSecondary }}>
          {note}
        </span>
      )}
    </h3>
  );
}

export interface Figure {
  label: string;
  value: ReactNode;
  /** A link or a hint under the value. */
  extra?: ReactNode;
  tone?: 'normal' | 'warning' | 'error' | 'success';
}

/** Key figures in a row of tiles (a description list, so each value is read with its label). */
export function Figures({ items, label }: { items: readonly Figure[]; label: string }) {
  const { token } = theme.useToken();
  const colour = (tone: Figure['tone']) =>
    tone === 'warning'
      ? token.colorWarningText
      : tone === 'error'
        ? token.colorErrorText
        : tone === 'success'
          ? token.colorSuccessText
          : token.colorText;
  return (
    <dl
      aria-label={label}
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))',
        gap: 12,
        margin: '0 0 16px',
      }}
    >
      {items.map((item) => (
        <div
          key={item.label}
          style={{
            padding: '12px 16px',
            borderRadius: token.borderRadiusLG,
            background: token.colorBgContainer,
            border: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <dt style={{ color: token.colorTextSecondary, fontSize: token.fontSizeSM }}>{item.label}</dt>
          <dd
            style={{
              margin: '4px 0 0',
              fontSize: 22,
              fontWeight: 500,
              color: colour(item.tone),
              fontVariantNumeric: 'tabular-nums',
            }}
          >
            {item.value}
          </dd>
          {item.extra && <dd style={{ margin: '4px 0 0', fontSize: token.fontSizeSM }}>{item.extra}</dd>}
        </div>
      ))}
    </dl>
  );
}

/** Two charts side by side on wide screens, stacked on narrow ones. */
export function ChartGrid({ children }: { children: ReactNode }) {
  return (
    <div
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 420px), 1fr))',
        gap: 16,
      }}
    >
      {children}
    </div>
  );
}

/** Service orders by status (management and service sections): the table's columns and the bar chart. */
interface OrderStatusRow {
  label: string;
  count: number;
}
export const orderStatusColumns: ChartColumn<OrderStatusRow>[] = [
  { key: 'status', title: T.status, value: (r) => r.label },
  { key: 'count', title: T.count, value: (r) => r.count, align: 'right' },
];
export const orderStatusChart = (theme: ChartTheme, rows: readonly OrderStatusRow[]) =>
  cartesianChart(theme, {
    horizontal: true,
    categories: rows.map((r) => r.label),
    series: [{ name: T.count, type: 'bar', data: rows.map((r) => r.count), color: theme.palette[5] }],
  });
