// Form helpers of the risk-control pages: dates as the API takes them, yuan typed → fen.
import { yuanTextToFen } from '@piibs/shared/money';
import dayjs, { type Dayjs } from 'dayjs';

const DAY = 'YYYY-MM-DD';

/** A picker's value as 'yyyy-mm-dd' (undefined when empty). */
export const dayText = (d: Dayjs | null | undefined): string | undefined => (d ? d.format(DAY) : undefined);
/** 'yyyy-mm-dd' → a picker's value. */
export const dayOf = (text: string | null | undefined): Dayjs | undefined => (text ? dayjs(text) : undefined);

/** Typed yuan ('1200.5') → fen, or null when not an amount with at most two decimals. */
export const fenOfYuan = (value: string | number | null | undefined): number | null =>
  value === null || value === undefined || String(value).trim() === ''
    ? null
    : yuanTextToFen(String(value).trim());
