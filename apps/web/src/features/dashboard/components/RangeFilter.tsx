// The range filter: the usual shortcuts and any range of days up to a year (Asia/Shanghai days). The date
// picker arrives a moment after the page (its own chunk); the shortcuts work at once.
import { Segmented } from 'antd';
import { lazy, Suspense } from 'react';
import { type DateRange, MAX_RANGE_DAYS, SHORTCUTS, type ShortcutKey } from '../range.ts';
import { DASHBOARD_TEXTS as T } from '../texts.ts';

const DateRangePicker = lazy(() => import('@/components/charts/DateRangePicker.tsx'));

interface RangeFilterProps {
  value: DateRange;
  /** The shortcut the value is, if any. */
  shortcut: ShortcutKey | null;
  today: string;
  onShortcut(key: ShortcutKey): void;
  onChange(range: DateRange): void;
}

export function RangeFilter({ value, shortcut, today, onShortcut, onChange }: RangeFilterProps) {
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', margin: '16px 0 4px' }}>
      <span>{T.range}</span>
      <Segmented
        aria-label={T.rangeShortcuts}
        value={shortcut ?? ''}
        onChange={(key) => onShortcut(key as ShortcutKey)}
        options={SHORTCUTS.map((s) => ({ label: s.label, value: s.key }))}
      />
      <Suspense fallback={<span style={{ minWidth: 240 }}>{`${value.from} ~ ${value.to}`}</span>}>
        <DateRangePicker
          from={value.from}
          to={value.to}
          max={today}
          maxDays={MAX_RANGE_DAYS}
          label={T.rangeLabel}
          onChange={(from, to) => onChange({ from, to })}
        />
      </Suspense>
    </div>
  );
}
