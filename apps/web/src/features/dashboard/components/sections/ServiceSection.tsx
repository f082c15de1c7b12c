// 风控服务 (staff of a risk-control service organisation): their organisation's service orders by state and
// dispatched over the range, the hazards awaiting rectification and the complaints awaiting a reply.
import type { ServiceSection as Service } from '@piibs/shared/dashboard';
import { ChartCard, type ChartColumn } from '@/components/charts/ChartCard.tsx';
import { PlainButton } from '@/components/charts/PlainButton.tsx';
import { type ChartTheme, cartesianChart } from '@/components/charts/spec.ts';
import { periodLabel } from '../../format.ts';
import { DASHBOARD_TEXTS as T } from '../../texts.ts';
import { PageLink } from '../links.tsx';
import { ChartGrid, Figures, orderStatusChart, orderStatusColumns, SectionHeading } from './common.tsx';

type DispatchRow = Service['dispatched'][number];

const SERVICE_LIST_PATH = '/piibs/riskControl/prevention/serviceList';
const SERVICE_ORG_PATH = '/piibs/riskControl/prevention/expert';

const dispatchColumns: ChartColumn<DispatchRow>[] = [
  { key: 'period', title: T.period, value: (r) => r.period },
  { key: 'orders', title: T.count, value: (r) => r.orders, align: 'right' },
];
const dispatchChart = (theme: ChartTheme, rows: readonly DispatchRow[]) =>
  cartesianChart(theme, {
    categories: rows.map((r) => periodLabel(r.period)),
    series: [{ name: T.count, type: 'line', data: rows.map((r) => r.orders) }],
  });

export function ServiceSection({
  data,
  granularity,
  onWiden,
}: {
  data: Service;
  granularity: 'day' | 'month';
  /** Switches to the last year (offered when the range has nothing). */
  onWiden: () => void;
}) {
  const dispatchedTotal = data.dispatched.reduce((sum, r) => sum + r.orders, 0);
  const { hazards, complaints } = data;
  const noOrders = (
    <>
      {T.noOrgOrders}
      <PageLink to={SERVICE_ORG_PATH}>{T.toServiceOrg}</PageLink>
    </>
  );
  return (
    <section aria-label={T.service}>
      <SectionHeading title={T.service} note={T.serviceOrg(data.org.name)} />
      <Figures
        label={T.service}
        items={[
          {
            label: T.ordersTotal,
            value: data.ordersTotal,
            extra: <PageLink to={SERVICE_LIST_PATH}>{T.toServiceList}</PageLink>,
          },
          { label: T.dispatchedInRange, value: dispatchedTotal },
          {
            label: T.hazardsOverdue,
            value: hazards.overdue,
            tone: hazards.overdue > 0 ? 'error' : 'normal',
            extra:
              hazards.overdue + hazards.upcoming > 0 ? (
                <PageLink to={`${SERVICE_LIST_PATH}?status=CONFIRMED`}>{T.toRectify}</PageLink>
              ) : undefined,
          },
          {
            label: T.hazardsUpcoming,
            value: hazards.upcoming,
            tone: hazards.upcoming > 0 ? 'warning' : 'normal',
          },
          {
            label: T.complaintsOpen,
            value: complaints.open,
            tone: complaints.overdue > 0 ? 'error' : complaints.open > 0 ? 'warning' : 'normal',
            extra:
              complaints.open > 0 ? (
                <>
                  {complaints.overdue > 0 && <div>{T.complaintsOverdue(complaints.overdue)}</div>}
                  <PageLink to={SERVICE_LIST_PATH}>{T.toReply}</PageLink>
                </>
              ) : undefined,
          },
        ]}
      />
      <ChartGrid>
        <ChartCard
          title={T.orgOrders}
          description={T.notInRange}
          rows={data.orders}
          rowKey={(r) => r.status}
          columns={orderStatusColumns}
          chart={orderStatusChart}
          exportName={T.orgOrders}
          empty={noOrders}
        />
        <ChartCard
          title={T.dispatchTrend}
          description={`${T.dispatchTrendNote}（${T.byPeriod(granularity)}）`}
          rows={data.dispatched}
          rowKey={(r) => r.period}
          columns={dispatchColumns}
          chart={dispatchChart}
          exportName={T.dispatchTrend}
          isEmpty={dispatchedTotal === 0}
          empty={
            data.ordersTotal === 0 ? (
              noOrders
            ) : (
              <>
                {T.noDispatched}
                <PlainButton variant="link" onClick={onWiden}>
                  {T.widen}
                </PlainButton>
              </>
            )
          }
        />
      </ChartGrid>
    </section>
  );
}
