// 审核工作 (reviewers): the open tasks by how long they have waited, and the decisions of the range.
import type { ReviewSection as Review } from '@piibs/shared/dashboard';
import { useCallback } from 'react';
import { ChartCard, type ChartColumn } from '@/components/charts/ChartCard.tsx';
import { type ChartTheme, cartesianChart } from '@/components/charts/spec.ts';
import { ageText, periodLabel } from '../../format.ts';
import { DASHBOARD_TEXTS as T } from '../../texts.ts';
import { PageLink } from '../links.tsx';
import { ChartGrid, Figures, SectionHeading } from './common.tsx';

const TASKS_PATH = '/piibs/task/list';

type AgeRow = Review['byAge'][number];
type DecisionRow = Review['decisions'][number];
type Kind = Review['kinds'][number];

const decisionColumns: ChartColumn<DecisionRow>[] = [
  { key: 'period', title: T.period, value: (r) => r.period },
  { key: 'approve', title: T.approved, value: (r) => r.approve, align: 'right' },
  { key: 'return', title: T.returned, value: (r) => r.return, align: 'right' },
  { key: 'reject', title: T.rejected, value: (r) => r.reject, align: 'right' },
];

const decisionChart = (theme: ChartTheme, rows: readonly DecisionRow[]) =>
  cartesianChart(theme, {
    categories: rows.map((r) => periodLabel(r.period)),
    series: [
      {
        name: T.approved,
        type: 'bar',
        stack: 'd',
        data: rows.map((r) => r.approve),
        color: theme.palette[1],
      },
      { name: T.returned, type: 'bar', stack: 'd', data: rows.map((r) => r.return), color: theme.palette[2] },
      { name: T.rejected, type: 'bar', stack: 'd', data: rows.map((r) => r.reject), color: theme.palette[3] },
    ],
  });

export function ReviewSection({ data, granularity }: { data: Review; granularity: 'day' | 'month' }) {
  const kinds = data.kinds;
  const ageColumns: ChartColumn<AgeRow>[] = [
    { key: 'bucket', title: T.ageBucket, value: (r) => r.label },
    ...kinds.map((k: Kind) => ({
      key: k.kind,
      title: k.label,
      value: (r: AgeRow) => r[k.kind],
      align: 'right' as const,
    })),
    { key: 'total', title: T.total, value: (r) => r.total, align: 'right' },
  ];
  const ageChart = useCallback(
    (theme: ChartTheme, rows: readonly AgeRow[]) =>
      cartesianChart(theme, {
        categories: rows.map((r) => r.label),
        series: kinds.map((k) => ({
          name: k.label,
          type: 'bar' as const,
          stack: 'age',
          data: rows.map((r) => r[k.kind]),
        })),
      }),
    [kinds],
  );
  const totals = data.decisionTotals;
  return (
    <section aria-label={T.review}>
      <SectionHeading title={T.review} />
      <Figures
        label={T.review}
        items={[
          {
            label: T.openTasks,
            value: data.openTotal,
            tone: data.openTotal > 0 ? 'warning' : 'normal',
            extra: <PageLink to={TASKS_PATH}>{T.toTasks}</PageLink>,
          },
          {
            label: T.oldestWait,
            value: data.oldestAgeSeconds === null ? '—' : ageText(data.oldestAgeSeconds),
            tone: (data.oldestAgeSeconds ?? 0) > 3 * 86_400 ? 'error' : 'normal',
          },
          { label: `${T.range}${T.approved}`, value: totals.approve, tone: 'success' },
          { label: `${T.range}${T.returned}`, value: totals.return },
          { label: `${T.range}${T.rejected}`, value: totals.reject },
        ]}
      />
      <ChartGrid>
        <ChartCard
          title={T.waitingByAge}
          description={T.waitingByAgeNote}
          rows={data.byAge}
          rowKey={(r) => r.bucket}
          columns={ageColumns}
          chart={ageChart}
          exportName={T.waitingByAge}
          isEmpty={data.openTotal === 0}
          empty={
            <>
              {T.noOpenTasks}，<PageLink to={TASKS_PATH}>{T.toTasks}</PageLink>
            </>
          }
        />
        <ChartCard
          title={T.decisions}
          description={T.byPeriod(granularity)}
          rows={data.decisions}
          rowKey={(r) => r.period}
          columns={decisionColumns}
          chart={decisionChart}
          exportName={T.decisions}
          isEmpty={totals.approve + totals.return + totals.reject === 0}
          empty={
            <>
              {T.noDecisions}，<PageLink to={TASKS_PATH}>{T.toTasks}</PageLink>
            </>
          }
        />
      </ChartGrid>
    </section>
  );
}
