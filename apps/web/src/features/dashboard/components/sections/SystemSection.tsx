// 系统状态 (administrators): the database, who is signed in, and the sign-ins of the range.
import type { SystemSection as System } from '@piibs/shared/dashboard';
import { ChartCard, type ChartColumn } from '@/components/charts/ChartCard.tsx';
import { type ChartTheme, cartesianChart } from '@/components/charts/spec.ts';
import { periodLabel } from '../../format.ts';
import { DASHBOARD_TEXTS as T } from '../../texts.ts';
import { PageLink } from '../links.tsx';
import { ChartGrid, Figures, SectionHeading } from './common.tsx';

const ONLINE_PATH = '/piibs/system/online';
const LOGIN_LOG_PATH = '/piibs/system/loginLog';

type SignInRow = System['signIns'][number];

const signInColumns: ChartColumn<SignInRow>[] = [
  { key: 'period', title: T.period, value: (r) => r.period },
  { key: 'success', title: T.signInSuccess, value: (r) => r.success, align: 'right' },
  { key: 'failure', title: T.signInFailure, value: (r) => r.failure, align: 'right' },
];
const signInChart = (theme: ChartTheme, rows: readonly SignInRow[]) =>
  cartesianChart(theme, {
    categories: rows.map((r) => periodLabel(r.period)),
    series: [
      { name: T.signInSuccess, type: 'line', data: rows.map((r) => r.success), color: theme.palette[1] },
      { name: T.signInFailure, type: 'line', data: rows.map((r) => r.failure), color: theme.palette[3] },
    ],
  });

export function SystemSection({ data, granularity }: { data: System; granularity: 'day' | 'month' }) {
  const totals = data.signInTotals;
  return (
    <section aria-label={T.system}>
      <SectionHeading title={T.system} />
      <Figures
        label={T.system}
        items={[
          {
            label: T.database,
            value: data.database.up ? T.databaseUp(data.database.latencyMs) : T.databaseDown,
            tone: data.database.up ? 'success' : 'error',
          },
          {
            label: T.sessionsOnline,
            value: data.sessionsOnline,
            extra: <PageLink to={ONLINE_PATH}>{T.toOnline}</PageLink>,
          },
          { label: T.usersOnline, value: data.usersOnline },
          {
            label: `${T.range}${T.signInFailure}`,
            value: totals.failure,
            tone: totals.failure > 0 ? 'warning' : 'normal',
            extra: <PageLink to={LOGIN_LOG_PATH}>{T.toLoginLog}</PageLink>,
          },
        ]}
      />
      <ChartGrid>
        <ChartCard
          title={T.signIns}
          description={T.byPeriod(granularity)}
          rows={data.signIns}
          rowKey={(r) => r.period}
          columns={signInColumns}
          chart={signInChart}
          exportName={T.signIns}
          isEmpty={totals.success + totals.failure === 0}
          empty={T.noSignIns}
        />
      </ChartGrid>
    </section>
  );
}
