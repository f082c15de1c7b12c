// The figures of the dashboard: the range filter (kept in the URL) and the sections GET /api/dashboard answers.
import { shanghaiToday } from '@piibs/shared/application-status';
import { formatTime } from '@piibs/shared/constants';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Skeleton, theme } from 'antd';
import { Component, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '@/components/crud/resource.ts';
import { dashboardQuery } from '../api.ts';
import {
  type DateRange,
  readRange,
  type ShortcutKey,
  shortcutOf,
  shortcutRange,
  withRange,
} from '../range.ts';
import { DASHBOARD_TEXTS as T } from '../texts.ts';
import { RangeFilter } from './RangeFilter.tsx';
import { BusinessSection } from './sections/BusinessSection.tsx';
import { ManagementSection } from './sections/ManagementSection.tsx';
import { ReviewSection } from './sections/ReviewSection.tsx';
import { ServiceSection } from './sections/ServiceSection.tsx';
import { SystemSection } from './sections/SystemSection.tsx';

export function DashboardStats() {
  const { token } = theme.useToken();
  const [search, setSearch] = useSearchParams();
  const today = shanghaiToday();
  const range = readRange(search);
  const query = useQuery(dashboardQuery(range));
  const setRange = (next: DateRange | null) => setSearch(withRange(search, next, today));
  const pickShortcut = (key: ShortcutKey) => setRange(shortcutRange(key, today));

  const data = query.data;
  const shown: DateRange =
    range ?? (data ? { from: data.range.from, to: data.range.to } : shortcutRange('last30', today));
  const granularity = data?.range.granularity ?? 'day';
  const anySection = !!(
    data &&
    (data.review || data.business || data.management || data.service || data.system)
  );

  return (
    <>
      {(anySection || query.isPending || query.isError) && (
        <RangeFilter
          value={shown}
          shortcut={shortcutOf(range, today)}
          today={today}
          onShortcut={pickShortcut}
          onChange={setRange}
        />
      )}
      {data && anySection && (
        <div style={{ color: token.colorTextTertiary, fontSize: token.fontSizeSM }} aria-live="polite">
          {query.isFetching ? '…' : T.updatedAt(formatTime(data.generatedAt))}
        </div>
      )}
      {query.isError && (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 16 }}
          title={T.loadFailed}
          description={errorMessage(query.error)}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              {T.retry}
            </Button>
          }
        />
      )}
      {query.isPending && <Skeleton active style={{ marginTop: 16 }} />}
      {data && (
        <div style={{ opacity: query.isPlaceholderData ? 0.6 : 1, transition: 'opacity .2s' }}>
          {data.business && <BusinessSection data={data.business} />}
          {data.review && <ReviewSection data={data.review} granularity={granularity} />}
          {data.management && (
            <ManagementSection
              data={data.management}
              granularity={granularity}
              onWiden={() => pickShortcut('year')}
            />
          )}
          {data.service && (
            <ServiceSection
              data={data.service}
              granularity={granularity}
              onWiden={() => pickShortcut('year')}
            />
          )}
          {data.system && <SystemSection data={data.system} granularity={granularity} />}
        </div>
      )}
    </>
  );
}

/** A failure while drawing the figures leaves the welcome and the shortcuts standing, with a retry. */
export class StatsBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Alert
        type="error"
        showIcon
        style={{ marginTop: 16 }}
        title={T.loadFailed}
        action={
          <Button size="small" onClick={() => this.setState({ failed: false })}>
            {T.retry}
          </Button>
        }
      />
    );
  }
}
