// The figures of the dashboard: the range filter (kept in the URL) and the sections GET /api/dashboard answers.
import { shanghaiToday } from '@piibs/shared/application-status';
import { formatTime } from '@piibs/shared/constants';
import { useQuery } from '@tanstack/react-query';
import { theme } from 'antd';
import { Component, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { ChartCardSkeleton } from '@/components/charts/ChartCard.tsx';
import { PlainButton } from '@/components/charts/PlainButton.tsx';
import { errorMessage } from '@/components/crud/resource.ts';
import { permissionsOf } from '@/lib/permission.tsx';
import { useUserStore } from '@/stores/user.ts';
import { dashboardQuery } from '../api.ts';
import {
  type DateRange,
  readRange,
  type ShortcutKey,
  shortcutOf,
  shortcutRange,
  withRange,
} from '../range.ts';
import { expectedSections, SECTION_SHAPES, type SectionKey } from '../skeleton.ts';
import { DASHBOARD_TEXTS as T } from '../texts.ts';
import { RangeFilter } from './RangeFilter.tsx';
import { BusinessSection } from './sections/BusinessSection.tsx';
import { ChartGrid, SectionHeading } from './sections/common.tsx';
import { ManagementSection } from './sections/ManagementSection.tsx';
import { ReviewSection } from './sections/ReviewSection.tsx';
import { ServiceSection } from './sections/ServiceSection.tsx';
import { SystemSection } from './sections/SystemSection.tsx';

export function DashboardStats() {
  const { token } = theme.useToken();
  const roles = useUserStore((s) => s.roles);
  const user = useUserStore((s) => s.user);
  const expected = expectedSections({ roles, permissions: permissionsOf(user) });
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

  const filtered = anySection || (query.isPending && expected.length > 0) || query.isError;
  return (
    <>
      {filtered && (
        <RangeFilter
          value={shown}
          shortcut={shortcutOf(range, today)}
          today={today}
          onShortcut={pickShortcut}
          onChange={setRange}
        />
      )}
      {filtered && (
        // Its line is there from the start (the sections below do not move when the time arrives).
        <div
          style={{
            color: token.colorTextTertiary,
            fontSize: token.fontSizeSM,
            minHeight: Math.round(token.fontSizeSM * token.lineHeightSM),
          }}
          aria-live="polite"
        >
          {data && anySection && (query.isFetching ? '…' : T.updatedAt(formatTime(data.generatedAt)))}
        </div>
      )}
      {query.isError && (
        <Problem
          title={T.loadFailed}
          description={errorMessage(query.error)}
          onRetry={() => void query.refetch()}
        />
      )}
      {query.isPending && <StatsSkeleton sections={expected} />}
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

/** The sections the user will most likely see, drawn empty at their final size while the figures load. */
function StatsSkeleton({ sections }: { sections: readonly SectionKey[] }) {
  const { token } = theme.useToken();
  const tile = {
    height: 82,
    borderRadius: token.borderRadiusLG,
    background: token.colorBgContainer,
    border: `1px solid ${token.colorBorderSecondary}`,
  };
  return (
    <div aria-busy="true">
      {sections.map((key) => {
        const shape = SECTION_SHAPES[key];
        return (
          <div key={key}>
            <SectionHeading title={T[key]} />
            {shape.figures > 0 && (
              <div
                style={{
                  display: 'grid',
                  gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))',
                  gap: 12,
                  margin: '0 0 16px',
                }}
              >
                {Array.from({ length: shape.figures }, (_, i) => `${key}-${i}`).map((id) => (
                  <div key={id} style={tile} />
                ))}
              </div>
            )}
            <ChartGrid>
              {shape.charts
                .map((height, i) => ({ id: `${key}-${i}`, height }))
                .map((c) => (
                  <ChartCardSkeleton key={c.id} height={c.height} />
                ))}
            </ChartGrid>
          </div>
        );
      })}
    </div>
  );
}

/** A failure with a retry (antd's Alert look, without its chunk). */
function Problem({
  title,
  description,
  onRetry,
}: {
  title: string;
  description?: string;
  onRetry: () => void;
}) {
  const { token } = theme.useToken();
  return (
    <div
      role="alert"
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 8,
        alignItems: 'center',
        marginTop: 16,
        padding: '8px 12px',
        borderRadius: token.borderRadiusLG,
        background: token.colorErrorBg,
        border: `1px solid ${token.colorErrorBorder}`,
      }}
    >
      <div style={{ flex: 1, minWidth: 200 }}>
        <div style={{ color: token.colorText }}>{title}</div>
        {description && <div style={{ color: token.colorTextSecondary }}>{description}</div>}
      </div>
      <PlainButton onClick={onRetry}>{T.retry}</PlainButton>
    </div>
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
    return <Problem title={T.loadFailed} onRetry={() => this.setState({ failed: false })} />;
  }
}
