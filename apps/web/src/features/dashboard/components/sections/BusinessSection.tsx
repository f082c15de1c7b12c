// 我的业务 (agents, enterprises, contractors): their applications by state with what to do next, how the range's
// new applications have progressed, and the policies coming up for renewal.
import type { BusinessSection as Business, NextAction } from '@piibs/shared/dashboard';
import { fenToYuanText, formatFen } from '@piibs/shared/money';
import { theme } from 'antd';
import { ChartCard, type ChartColumn } from '@/components/charts/ChartCard.tsx';
import { type ChartTheme, cartesianChart, funnelChart } from '@/components/charts/spec.ts';
import { INSURE_LIST_PATH } from '@/features/application/flows.ts';
import { policyViewPath } from '@/features/policy/api.ts';
import { usePhone } from '@/lib/use-phone.ts';
import { fenAxisLabel } from '../../format.ts';
import { DASHBOARD_TEXTS as T } from '../../texts.ts';
import { PageLink, useWizardPath } from '../links.tsx';
import { ChartGrid, SectionHeading } from './common.tsx';

type StateRow = Business['applications'][number];
type StageRow = Business['funnel'][number];
type WindowRow = Business['expiring'][number];
type SoonRow = Business['expiringSoon'][number];

/** The states the holder has to act on, in the order they are shown as to-dos. */
const TODO: readonly NextAction[] = ['pay', 'revise', 'continue', 'requote'];

const listOf = (status: string) => `${INSURE_LIST_PATH}?status=${status}`;

const stateColumns: ChartColumn<StateRow>[] = [
  { key: 'status', title: T.status, value: (r) => r.label },
  { key: 'count', title: T.count, value: (r) => r.count, align: 'right' },
  {
    key: 'action',
    title: T.nextAction,
    value: (r) => r.action?.label ?? '',
    render: (r) => r.action && <PageLink to={listOf(r.status)}>{r.action.label}</PageLink>,
  },
];
const stateChart = (theme: ChartTheme, rows: readonly StateRow[]) =>
  cartesianChart(theme, {
    horizontal: true,
    categories: rows.map((r) => r.label),
    series: [{ name: T.count, type: 'bar', data: rows.map((r) => r.count) }],
  });

const stageColumns: ChartColumn<StageRow>[] = [
  { key: 'stage', title: T.stage, value: (r) => r.label },
  { key: 'count', title: T.count, value: (r) => r.count, align: 'right' },
];
const stageChart = (theme: ChartTheme, rows: readonly StageRow[]) =>
  funnelChart(
    theme,
    rows.map((r) => ({ name: r.label, value: r.count })),
  );

const windowColumns: ChartColumn<WindowRow>[] = [
  { key: 'window', title: T.window, value: (r) => T.withinDays(r.withinDays) },
  { key: 'count', title: T.policies, value: (r) => r.count, align: 'right' },
  {
    key: 'premium',
    title: T.premium,
    value: (r) => fenToYuanText(r.premiumFen),
    render: (r) => formatFen(r.premiumFen),
    align: 'right',
  },
];
const windowChart = (theme: ChartTheme, rows: readonly WindowRow[]) =>
  cartesianChart(theme, {
    categories: rows.map((r) => T.withinDays(r.withinDays)),
    series: [
      { name: T.policies, type: 'bar', data: rows.map((r) => r.count), color: theme.palette[2] },
      {
        name: T.premium,
        type: 'line',
        data: rows.map((r) => r.premiumFen),
        yAxisIndex: 1,
        color: theme.palette[0],
      },
    ],
    axes: [{ name: T.policies }, { name: '元', format: fenAxisLabel, tooltip: formatFen }],
  });

export function BusinessSection({ data }: { data: Business }) {
  const { token } = theme.useToken();
  const wizard = useWizardPath();
  const apply = (lead: string) => (
    <>
      {lead}
      <PageLink to={wizard}>{T.apply}</PageLink>
    </>
  );
  const todos = TODO.flatMap((key) => data.applications.filter((r) => r.action?.key === key));
  const expiringTotal = data.expiring.at(-1)?.count ?? 0;
  return (
    <section aria-label={T.business}>
      <SectionHeading title={T.business} />
      {todos.length > 0 && (
        <ul
          aria-label={T.todo}
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: 8,
            listStyle: 'none',
            margin: '0 0 16px',
            padding: 0,
          }}
        >
          {todos.map((r) => (
            <li
              key={r.status}
              style={{
                padding: '6px 12px',
                borderRadius: token.borderRadius,
                background: token.colorWarningBg,
                border: `1px solid ${token.colorWarningBorder}`,
              }}
            >
              {T.todoItem(r.label, r.count)} · <PageLink to={listOf(r.status)}>{r.action!.label}</PageLink>
            </li>
          ))}
        </ul>
      )}
      <ChartGrid>
        <ChartCard
          title={T.applicationsByState}
          description={`${T.notInRange}，共 ${data.applicationsTotal} 件`}
          rows={data.applications}
          rowKey={(r) => r.status}
          columns={stateColumns}
          chart={stateChart}
          exportName={T.applicationsByState}
          empty={apply(T.noApplications)}
        />
        <ChartCard
          title={T.funnel}
          description={T.funnelNote}
          rows={data.funnel}
          rowKey={(r) => r.stage}
          columns={stageColumns}
          chart={stageChart}
          exportName={T.funnel}
          isEmpty={(data.funnel[0]?.count ?? 0) === 0}
          empty={apply(T.noFunnel)}
        />
        <ChartCard
          title={T.expiring}
          description={T.expiringNote}
          rows={data.expiring}
          rowKey={(r) => String(r.withinDays)}
          columns={windowColumns}
          chart={windowChart}
          exportName={T.expiring}
          isEmpty={expiringTotal === 0}
          empty={T.noExpiring}
          height={220}
        />
        {data.expiringSoon.length > 0 && <ExpiringSoon rows={data.expiringSoon} />}
      </ChartGrid>
    </section>
  );
}

/** On a phone, one entry per policy: its number and product, then the holder, end date, days left and premium. */
function ExpiringSoonList({ rows }: { rows: readonly SoonRow[] }) {
  const { token } = theme.useToken();
  const facts = (p: SoonRow): [string, string, string | undefined][] => [
    [T.holder, p.holderName, undefined],
    [T.endDate, p.endDate, undefined],
    [T.daysLeft, T.daysLeftText(p.daysLeft), p.daysLeft <= 30 ? token.colorError : undefined],
    [T.premium, formatFen(p.premiumFen), undefined],
  ];
  return (
    <>
      <h3 style={{ margin: '0 0 8px', fontSize: token.fontSize, fontWeight: 500 }}>{T.expiringSoon}</h3>
      <ul aria-label={T.expiringSoon} style={{ margin: 0, padding: 0, listStyle: 'none' }}>
        {rows.map((p) => (
          <li key={p.id} style={{ padding: '8px 0', borderTop: `1px solid ${token.colorBorderSecondary}` }}>
            <PageLink to={policyViewPath(p.id)}>{p.number}</PageLink>
            <div style={{ color: token.colorTextSecondary, fontSize: token.fontSizeSM }}>{p.productName}</div>
            <dl
              style={{
                display: 'grid',
                gridTemplateColumns: 'auto minmax(0, 1fr)',
                gap: '2px 12px',
                margin: '4px 0 0',
              }}
            >
              {facts(p).map(([term, value, color]) => (
                <div key={term} style={{ display: 'contents' }}>
                  <dt style={{ color: token.colorTextSecondary }}>{term}</dt>
                  <dd style={{ margin: 0, color }}>{value}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

function ExpiringSoon({ rows }: { rows: readonly SoonRow[] }) {
  const { token } = theme.useToken();
  const phone = usePhone();
  const cell = { padding: '6px 8px', borderBottom: `1px solid ${token.colorBorderSecondary}` } as const;
  return (
    <div
      style={{
        padding: 12,
        borderRadius: token.borderRadiusLG,
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        overflow: 'auto',
      }}
    >
      {phone ? (
        <ExpiringSoonList rows={rows} />
      ) : (
        <table aria-label={T.expiringSoon} style={{ width: '100%', borderCollapse: 'collapse' }}>
          <caption style={{ captionSide: 'top', textAlign: 'left', fontWeight: 500, paddingBottom: 8 }}>
            {T.expiringSoon}
          </caption>
          <thead>
            <tr>
              {[T.policyNumber, T.holder, T.endDate, T.daysLeft, T.premium].map((title, i) => (
                <th
                  key={title}
                  scope="col"
                  style={{ ...cell, textAlign: i >= 3 ? 'right' : 'left', background: token.colorFillAlter }}
                >
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.id}>
                <td style={cell}>
                  <PageLink to={policyViewPath(p.id)}>{p.number}</PageLink>
                  <div style={{ color: token.colorTextSecondary, fontSize: token.fontSizeSM }}>
                    {p.productName}
                  </div>
                </td>
                <td style={cell}>{p.holderName}</td>
                <td style={cell}>{p.endDate}</td>
                <td
                  style={{
                    ...cell,
                    textAlign: 'right',
                    color: p.daysLeft <= 30 ? token.colorError : undefined,
                  }}
                >
                  {T.daysLeftText(p.daysLeft)}
                </td>
                <td style={{ ...cell, textAlign: 'right' }} title={formatFen(p.premiumFen)}>
                  {formatFen(p.premiumFen)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
