// Form helpers of the risk-control pages: dates as the API takes them, yuan typed → fen, and a server refusal
// placed at the field it names ("服务日期：不能晚于今天").
import { yuanTextToFen } from '@piibs/shared/money';
import dayjs, { type Dayjs } from 'dayjs';

const DAY = 'YYYY-MM-DD';

/** A picker's value as 'yyyy-mm-dd' (undefined when empty). */
export const dayText = (d: Dayjs | null | undefined): string | undefined => (d ? d.format(DAY) : undefined);
/** 'yyyy-mm-dd' → a picker's value. */
export const dayOf = (text: string | null | undefined): Dayjs | undefined => (text ? dayjs(text) : undefined);

/** 'yyyy-mm-dd' of today in Asia/Shanghai (the API's calendar), whatever the browser's zone. */
export function shanghaiDay(now = new Date()): string {
  return new Date(now.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
}

/** Typed yuan ('1200.5') → fen, or null when not an amount with at most two decimals. */
export const fenOfYuan = (value: string | number | null | undefined): number | null =>
  value === null || value === undefined || String(value).trim() === ''
    ? null
    : yuanTextToFen(String(value).trim());

/** fen → yuan as typed in an input ('1200.50'). */
export const yuanInput = (fen: number): string => (fen / 100).toFixed(2);

const FIELD_MESSAGE = /^([^：]{1,20})：(.+)$/s;

/** The form field a refusal names (by the server's field title) and the message for under it, or null. */
export function fieldRefusal(
  message: string,
  titles: Readonly<Record<string, string | (string | number)[]>>,
): { name: string | (string | number)[]; error: string } | null {
  const m = FIELD_MESSAGE.exec(message);
  if (!m) return null;
  const name = titles[m[1]!];
  return name === undefined ? null : { name, error: m[2]! };
}

/** The part of a zod schema a form rule needs (structural). */
type Schema = {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: { message: string }[] } };
};

/** An antd rule from a shared zod schema: one definition for the form and the server. Empty is `required`'s job. */
export function zodRule(schema: Schema) {
  return {
    validator: async (_rule: unknown, value: unknown): Promise<void> => {
      if (value === undefined || value === null || value === '') return;
      const result = schema.safeParse(value);
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? '格式不正确');
    },
  };
}
