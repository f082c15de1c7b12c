// The service plan of a policy's prevention record, its fund summary and ledger: forms and rows.

import { z } from 'zod';
import { fen, id, optionalText, version } from './fields.ts';
import { isDateText } from './fund.ts';
import { PARTIES, SERVICE_FREQUENCIES, SERVICE_ITEM_TYPES } from './states.ts';

// ---- the plan ----

export const PLAN_SORT_FIELDS = ['policyId', 'policyNumber', 'startDate', 'endDate'] as const;

export const SCHEDULED_DATES_TITLE = '计划日期';
const scheduledDatesField = z
  .array(z.string().trim().refine(isDateText, { error: '请输入正确的日期（yyyy-mm-dd）' }))
  .max(366, { error: '最多 366 个日期' })
  .meta({ title: SCHEDULED_DATES_TITLE });

/**
 * What is wrong with a plan item's scheduled dates, or null: no more distinct dates than the item's times, each
 * within the policy period. The item form shows it under the field; the server refuses with '计划日期：' + it.
 */
export function scheduledDatesProblem(
  dates: readonly string[],
  times: number,
  period: { startDate: string; endDate: string },
): string | null {
  const distinct = [...new Set(dates)].sort();
  if (distinct.length > times) return `不能多于计划次数（${times} 次），已选 ${distinct.length} 个日期`;
  const outside = distinct.find((d) => d < period.startDate || d > period.endDate);
  return outside ? `${outside} 不在保险期间（${period.startDate} 至 ${period.endDate}）内` : null;
}

/** A policy's period: a prevention service happens within it, never before the policy starts or after it ends. */
export interface ServicePeriod {
  startDate: string;
  endDate: string;
}

/** Why a service day cannot be recorded (a performed service: within the period, not in the future), or null. */
export function serviceDateProblem(day: string, period: ServicePeriod, today: string): string | null {
  if (day > today) return '不能晚于今天';
  if (day < period.startDate || day > period.endDate)
    return `须在保险期间（${period.startDate} 至 ${period.endDate}）内`;
  return null;
}

/**
 * The next planned date to dispatch an item on, or null: the dates not yet covered by its live orders (the
 * earliest ones count as done), the first on or after `fromDay`.
 */
export function nextScheduledDate(
  item: { scheduledDates: readonly string[]; liveOrders: number },
  fromDay: string,
): string | null {
  const dates = [...new Set(item.scheduledDates)].sort();
  return dates.slice(item.liveOrders).find((d) => d >= fromDay) ?? null;
}

const planItemFields = z.object({
  itemType: z.enum(SERVICE_ITEM_TYPES, { error: '请选择服务项目' }).meta({ title: '服务项目' }),
  content: optionalText('服务内容', 500),
  frequency: z.enum(SERVICE_FREQUENCIES, { error: '请选择服务频次' }).meta({ title: '服务频次' }),
  /** Times over the period; defaults to what the frequency means (FREQUENCY_TIMES). */
  times: z
    .number({ error: '请输入次数' })
    .int({ error: '须为整数' })
    .min(1, { error: '最少 1 次' })
    .max(366, { error: '最多 366 次' })
    .optional()
    .meta({ title: '计划次数' }),
  unitCostFen: fen('单次费用'),
  orgId: id('服务机构'),
  personIds: z
    .array(z.number().int().positive())
    .max(20, { error: '最多 20 人' })
    .default([])
    .meta({ title: '服务人员' }),
  /** The planned service dates (see scheduledDatesProblem); none by default. */
  scheduledDates: scheduledDatesField.default([]),
});

/** POST /api/prevention/plans/:seqNo/items (insurer staff): reserves unitCost × times from the fund. */
export const planItemCreateForm = planItemFields;
export type PlanItemCreateForm = z.input<typeof planItemCreateForm>;
/**
 * POST /api/prevention/plans/:seqNo/items/:itemId/update (`version` of the item; 409 when stale). Without
 * `scheduledDates` the stored dates are kept; an empty list clears them.
 */
export const planItemUpdateForm = planItemFields.extend({
  version,
  scheduledDates: scheduledDatesField.optional(),
});
export type PlanItemUpdateForm = z.input<typeof planItemUpdateForm>;
/** POST /api/prevention/plans/:seqNo/items/:itemId/delete. */
export const versionForm = z.object({ version });

export const planItemRow = z.object({
  id: z.number(),
  itemType: z.enum(SERVICE_ITEM_TYPES),
  itemLabel: z.string(),
  content: z.string().nullable(),
  frequency: z.enum(SERVICE_FREQUENCIES),
  frequencyLabel: z.string(),
  times: z.number(),
  unitCostFen: z.number(),
  /** unitCost × times. */
  reservedFen: z.number(),
  spentFen: z.number(),
  /** Orders dispatched and not rejected or cancelled. */
  liveOrders: z.number(),
  confirmedOrders: z.number(),
  orgId: z.number(),
  orgName: z.string(),
  persons: z.array(z.object({ id: z.number(), name: z.string() })),
  scheduledDates: z.array(z.string()),
  version: z.number(),
  createdAt: z.string(),
});
export type PlanItemRow = z.infer<typeof planItemRow>;

export const fundSummary = z.object({
  totalFen: z.number(),
  plannedFen: z.number(),
  spentFen: z.number(),
  leftFen: z.number(),
});
export type FundSummary = z.infer<typeof fundSummary>;

export const planRow = z.object({
  seqNo: z.string(),
  policyId: z.number(),
  policyNumber: z.string(),
  productName: z.string(),
  holderName: z.string(),
  holderUscc: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  /** The policy's prevention ratio (micro-percent). */
  preventionRatio: z.number().nullable(),
  fund: fundSummary,
  itemCount: z.number(),
  orderCount: z.number(),
});
export type PlanRow = z.infer<typeof planRow>;

/** GET /api/prevention/plans/:seqNo: the policy's prevention record. */
export const planDetail = planRow.extend({
  /** The fund row's version (null before the first plan item). */
  fundVersion: z.number().nullable(),
  items: z.array(planItemRow),
  /** The caller's side: what the page offers. */
  party: z.enum(PARTIES),
  canPlan: z.boolean(),
});
export type PlanDetail = z.infer<typeof planDetail>;

export const LEDGER_KINDS = ['RESERVE', 'RELEASE', 'SPEND'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
export const LEDGER_KIND_LABELS: Readonly<Record<LedgerKind, string>> = Object.freeze({
  RESERVE: '计划预留',
  RELEASE: '释放预留',
  SPEND: '服务支出',
});

export const ledgerEntryRow = z.object({
  id: z.number(),
  kind: z.enum(LEDGER_KINDS),
  kindLabel: z.string(),
  amountFen: z.number(),
  plannedDeltaFen: z.number(),
  spentDeltaFen: z.number(),
  plannedAfterFen: z.number(),
  spentAfterFen: z.number(),
  leftAfterFen: z.number(),
  planItemId: z.number().nullable(),
  orderId: z.number().nullable(),
  orderNumber: z.string().nullable(),
  note: z.string().nullable(),
  actorName: z.string().nullable(),
  at: z.string(),
});
export type LedgerEntryRow = z.infer<typeof ledgerEntryRow>;

/** GET /api/prevention/plans/:seqNo/ledger. */
export const ledgerResult = z.object({ fund: fundSummary, entries: z.array(ledgerEntryRow) });
export type LedgerResult = z.infer<typeof ledgerResult>;
