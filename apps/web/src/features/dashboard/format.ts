// Number and period formats of the dashboard. Money stays integer fen; only labels divide it, and amounts
// are shown with the one money format (formatFen).
import { formatFen } from '@piibs/shared/money';

/** A value-axis label for fen, short: ¥12.5万, ¥3,000. */
export function fenAxisLabel(fen: number): string {
  if (Math.abs(fen) >= 1_000_000) return `¥${Number((fen / 1_000_000).toFixed(2))}万`;
  return formatFen(fen).replace(/\.00$/, '');
}

/** 'yyyy-mm-dd' → 'mm-dd' on a day axis; months as they are. */
export const periodLabel = (period: string) => (period.length === 10 ? period.slice(5) : period);

/** How long something has waited: 12 分钟, 5 小时, 3 天 4 小时. */
export function ageText(seconds: number): string {
  if (seconds < 3600) return `${Math.max(1, Math.floor(seconds / 60))} 分钟`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} 小时`;
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  return hours ? `${days} 天 ${hours} 小时` : `${days} 天`;
}

/** A share of a whole as a percentage with one decimal ('' when the whole is 0). */
export function percentText(part: number, whole: number): string {
  return whole > 0 ? `${((part * 100) / whole).toFixed(1)}%` : '';
}
