// 经营概况 (administrators, underwriters, managers — in their data scope): premium written and policies issued
// over the range, by product, and the co-insurers' shares.
import type { ManagementSection as Management } from '@piibs/shared/dashboard';
import { fenToYuanText, formatFen } from '@piibs/shared/money';
import { ChartCard, type ChartColumn } from '@/components/charts/ChartCard.tsx';
import { PlainButton } from '@/components/charts/PlainButton.tsx';
import { type ChartTheme, cartesianChart, pieChart } from '@/components/charts/spec.ts';
import { fenAxisLabel, percentText, periodLabel } from '../../format.ts';
import { DASHBOARD_TEXTS as T } from '../../texts.ts';
import { PageLink } from '../links.tsx';
import { ChartGrid, Figures, orderStatusChart, orderStatusColumns, SectionHeading } from './common.tsx';

type TrendRow = Management['premiumTrend'][number];
type ProductRow = Management['byProduct'][number];
type InsurerRow = Management['coinsurance'][number];
type FundRow = { key: 'spent' | 'planned' | 'left'; label: string; fen: number; share: string };

const SERVICE_LIST_PATH = '/piibs/riskControl/prevention/serviceList';

const money = <Row,>(key: string, title: string, fen: (row: Row) => number): ChartColumn<Row> => ({
  key,
  title,
  value: (r) => fenToYuanText(fen(r)),
  render: (r) => formatFen(fen(r)),
  align: 'right',
});

const trendColumns: ChartColumn<TrendRow>[] = [
  { key: 'period', title: T.period, value: (r) => r.period },
  money('premium', T.premiumWritten, (r) => r.premiumFen),
  { key: 'policies', title: T.policiesIssued, value: (r) => r.policies, align: 'right' },
];
const trendChart = (theme: ChartTheme, rows: readonly TrendRow[]) =>
  cartesianChart(theme, {
    categories: rows.map((r) => periodLabel(r.period)),
    series: [
      { name: T.premiumWritten, type: 'line', data: rows.map((r) => r.premiumFen) },
      {
        name: T.policiesIssued,
        type: 'bar',
        data: rows.map((r) => r.policies),
        yAxisIndex: 1,
        color: theme.palette[1],
      },
    ],
    axes: [{ name: '元', format: fenAxisLabel, tooltip: formatFen }, { name: '件' }],
  });

const productColumns: ChartColumn<ProductRow>[] = [
  { key: 'name', title: T.product, value: (r) => r.productName },
  { key: 'code', title: T.productCode, value: (r) => r.productCode },
  money('premium', T.premium, (r) => r.premiumFen),
  { key: 'policies', title: T.policies, value: (r) => r.policies, align: 'right' },
];
const productChart = (theme: ChartTheme, rows: readonly ProductRow[]) =>
  pieChart(
    theme,
    rows.map((r) => ({ name: r.productName, value: r.premiumFen })),
    formatFen,
  );

const insurerChart = (theme: ChartTheme, rows: readonly InsurerRow[]) =>
  pieChart(
    theme,
    rows.map((r) => ({ name: r.insurerName, value: r.premiumFen })),
    formatFen,
  );

const fundColumns: ChartColumn<FundRow>[] = [
  { key: 'part', title: T.fundPart, value: (r) => r.label },
  money('amount', T.amount, (r) => r.fen),
  { key: 'share', title: T.share, value: (r) => r.share, align: 'right' },
];
const fundChart = (theme: ChartTheme, rows: readonly FundRow[]) =>
  pieChart(
    theme,
    rows.map((r) => ({ name: r.label, value: r.fen })),
    formatFen,
  );

export function ManagementSection({
  data,
  granularity,
  onWiden,
}: {
  data: Management;
  granularity: 'day' | 'month';
  /** Switches to the last year (offered when the range has nothing). */
  onWiden: () => void;
}) {
  const noPolicies = data.totals.policies === 0;
  const widen = (
    <>
      {T.noPolicies}
      <PlainButton variant="link" onClick={onWiden}>
        {T.widen}
      </PlainButton>
    </>
  );
  const coinsuredTotal = data.coinsurance.reduce((sum, r) => sum + r.premiumFen, 0);
  const insurerColumns: ChartColumn<InsurerRow>[] = [
    { key: 'name', title: T.insurer, value: (r) => r.insurerName },
    { key: 'code', title: T.insurerCode, value: (r) => r.insurerCode },
    money('premium', T.sharePremium, (r) => r.premiumFen),
    { key: 'share', title: T.share, value: (r) => percentText(r.premiumFen, coinsuredTotal), align: 'right' },
    { key: 'policies', title: T.policies, value: (r) => r.policies, align: 'right' },
  ];
  const p = data.prevention;
  const fundRows: FundRow[] = [
    { key: 'spent', label: T.fundSpent, fen: p.spentFen },
    { key: 'planned', label: T.fundPlanned, fen: p.plannedFen },
    { key: 'left', label: T.fundLeft, fen: p.leftFen },
  ].map((r) => ({ ...r, key: r.key as FundRow['key'], share: percentText(r.fen, p.totalFen) }));
  return (
    <section aria-label={T.management}>
      <SectionHeading title={T.management} />
      <Figures
        label={T.management}
        items={[
          { label: T.premiumWritten, value: formatFen(data.totals.premiumFen) },
          { label: T.premiumPaid, value: formatFen(data.totals.paidFen) },
          { label: T.policiesIssued, value: data.totals.policies },
        ]}
      />
      <ChartGrid>
        <ChartCard
          title={T.premiumTrend}
          description={`${T.premiumTrendNote}（${T.byPeriod(granularity)}）`}
          rows={data.premiumTrend}
          rowKey={(r) => r.period}
          columns={trendColumns}
          chart={trendChart}
          exportName={T.premiumTrend}
          isEmpty={noPolicies}
          empty={widen}
        />
        <ChartCard
          title={T.byProduct}
          rows={data.byProduct}
          rowKey={(r) => String(r.productId)}
          columns={productColumns}
          chart={productChart}
          exportName={T.byProduct}
          empty={widen}
        />
        <ChartCard
          title={T.coinsurance}
          description={T.coinsuranceNote}
          rows={data.coinsurance}
          rowKey={(r) => r.insurerCode}
          columns={insurerColumns}
          chart={insurerChart}
          exportName={T.coinsurance}
          empty={T.noCoinsurance}
        />
        <ChartCard
          title={T.prevention}
          description={T.preventionNote(p.policies)}
          rows={fundRows}
          rowKey={(r) => r.key}
          columns={fundColumns}
          chart={fundChart}
          exportName={T.prevention}
          isEmpty={p.totalFen === 0}
          empty={T.noPrevention}
        />
        <ChartCard
          title={T.serviceOrders}
          description={T.notInRange}
          rows={data.serviceOrders}
          rowKey={(r) => r.status}
          columns={orderStatusColumns}
          chart={orderStatusChart}
          exportName={T.serviceOrders}
          empty={
            <>
              {T.noServiceOrders}
              <PageLink to={SERVICE_LIST_PATH}>{T.toServiceList}</PageLink>
            </>
          }
        />
      </ChartGrid>
    </section>
  );
}
