// The dashboard's date range: kept in the URL as ?from=yyyy-mm-dd&to=yyyy-mm-dd (Asia/Shanghai days). No
// parameters means the server's default, the last 30 days, so /piibs/dashboard stays a plain link.
import { addDays, isDate, shanghaiToday } from '@piibs/shared/application-status';

export interface DateRange {
  from: string;
  to: string;
}

/** As DASHBOARD_MAX_DAYS of @piibs/shared/dashboard (its zod schemas stay out of this page's chunk). */
export const MAX_RANGE_DAYS = 366;
/** The range without parameters (the server's default). */
export const DEFAULT_SHORTCUT = 'last30';

export const SHORTCUTS = [
  { key: 'today', label: '今天' },
  { key: 'last7', label: '近7天' },
  { key: 'last30', label: '近30天' },
  { key: 'month', label: '本月' },
  { key: 'year', label: '近一年' },
] as const;
export type ShortcutKey = (typeof SHORTCUTS)[number]['key'];

export function daysOf(range: DateRange): number {
  return (
    Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / 86_400_000) + 1
  );
}

export function shortcutRange(key: ShortcutKey, today: string = shanghaiToday()): DateRange {
  switch (key) {
    case 'today':
      return { from: today, to: today };
    case 'last7':
      return { from: addDays(today, -6), to: today };
    case 'last30':
      return { from: addDays(today, -29), to: today };
    case 'month':
      return { from: `${today.slice(0, 8)}01`, to: today };
    case 'year':
      return { from: addDays(today, -364), to: today };
  }
}

/** The range the URL names, or null (none, or not a valid range: the default applies). */
export function readRange(search: URLSearchParams): DateRange | null {
  const from = search.get('from');
  const to = search.get('to');
  if (!from || !to || !isDate(from) || !isDate(to) || from > to) return null;
  const range = { from, to };
  return daysOf(range) <= MAX_RANGE_DAYS ? range : null;
}

/** The shortcut a range is, if any (no range: the default's). */
export function shortcutOf(range: DateRange | null, today: string = shanghaiToday()): ShortcutKey | null {
  if (!range) return DEFAULT_SHORTCUT;
  const match = SHORTCUTS.find((s) => {
    const r = shortcutRange(s.key, today);
    return r.from === range.from && r.to === range.to;
  });
  return match?.key ?? null;
}

/** The search params for a range: the default range is no parameters at all. */
export function withRange(
  search: URLSearchParams,
  range: DateRange | null,
  today: string = shanghaiToday(),
): URLSearchParams {
  const next = new URLSearchParams(search);
  const standard = shortcutRange(DEFAULT_SHORTCUT, today);
  if (!range || (range.from === standard.from && range.to === standard.to)) {
    next.delete('from');
    next.delete('to');
  } else {
    next.set('from', range.from);
    next.set('to', range.to);
  }
  return next;
}

/** What is wrong with a range typed in (which field, and a message naming it), or null when it may be asked for. */
export function rangeProblem(
  range: DateRange,
  today: string = shanghaiToday(),
): { field: 'from' | 'to'; message: string } | null {
  if (!isDate(range.from)) return { field: 'from', message: '开始日期：请输入正确的日期' };
  if (!isDate(range.to)) return { field: 'to', message: '结束日期：请输入正确的日期' };
  if (range.to > today) return { field: 'to', message: '结束日期不能晚于今天' };
  if (range.from > range.to) return { field: 'from', message: '开始日期不能晚于结束日期' };
  if (daysOf(range) > MAX_RANGE_DAYS)
    return { field: 'from', message: `开始日期：统计期间最长 ${MAX_RANGE_DAYS} 天，请选择更近的开始日期` };
  return null;
}
