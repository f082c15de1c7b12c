// The dashboard (首页): GET /api/dashboard answers, for a date range, only the sections the caller's roles and
// permissions allow, each computed from live data in the caller's data scope. Import it as
// `@piibs/shared/dashboard`; the web imports its types only (its zod schemas stay out of the page's chunk).
//
//   review       reviewers (customer:review / application:review): open tasks by age and kind, decisions
//   business     agents, enterprises (role 17), contractors: their applications by state with the next
//                action, the conversion funnel of the range, policies expiring in 30 / 60 / 90 days
//   management   administrators and staff with application:list (underwriters, department managers …): premium
//                written and policies issued per period and by product, co-insured shares by insurer, the
//                prevention funds (planned / spent) and the service orders by state
//   service      staff of a risk-control service organisation (a service_org_member): their organisation's
//                service orders by state and dispatched per period, hazards awaiting rectification, complaints
//                awaiting a reply
//   system       administrators (monitor:list): database, sessions online, sign-ins per period
import { z } from 'zod';
import { APPLICATION_STATUSES, addDays, isDate } from './application-status.ts';
import { TASK_KINDS } from './review.ts';
import { SERVICE_ORDER_STATUSES } from './risk-control.ts';

/** The longest range one call may ask for (a year, with a leap day). */
export const DASHBOARD_MAX_DAYS = 366;
/** Ranges longer than this are summed by month, shorter ones by day. */
export const DASHBOARD_DAILY_MAX_DAYS = 62;
/** The range when the query names none: the last 30 days, today included. */
export const DASHBOARD_DEFAULT_DAYS = 30;
/** Windows of the expiring-policies count (days from today, cumulative). */
export const EXPIRY_WINDOWS = [30, 60, 90] as const;
/** How many of the soonest-expiring policies the business section lists. */
export const EXPIRING_LIST_SIZE = 10;

/** Days from `from` to `to`, both included. */
export function rangeDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

export type Granularity = 'day' | 'month';
export const granularityOf = (days: number): Granularity =>
  days > DASHBOARD_DAILY_MAX_DAYS ? 'month' : 'day';

/** Every period of a range, oldest first: 'yyyy-mm-dd' by day, 'yyyy-mm' by month. */
export function periodsOf(from: string, to: string, granularity: Granularity): string[] {
  const out: string[] = [];
  if (granularity === 'day') {
    for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
    return out;
  }
  let [y, m] = from.split('-').map(Number) as [number, number];
  const last = to.slice(0, 7);
  for (;;) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    out.push(month);
    if (month >= last) return out;
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
  }
}

const dateParam = (title: string) =>
  z
    .string()
    .trim()
    .refine(isDate, { error: '请输入正确的日期，如 2026-01-31' })
    .meta({ title, description: 'yyyy-mm-dd（北京时间）' });

/** GET /api/dashboard. Without `from`/`to`: the last 30 days up to today. */
export const dashboardQuery = z
  .object({
    from: dateParam('开始日期').optional(),
    to: dateParam('结束日期').optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to)
      ctx.addIssue({ code: 'custom', path: ['to'], message: '不能早于开始日期' });
    else if (q.from && q.to && rangeDays(q.from, q.to) > DASHBOARD_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: `日期范围不能超过 ${DASHBOARD_MAX_DAYS} 天` });
  });
export type DashboardQuery = z.infer<typeof dashboardQuery>;

// ---- review ----

export const AGE_BUCKETS = ['lt1h', 'h1to24', 'd1to3', 'gt3d'] as const;
export type AgeBucket = (typeof AGE_BUCKETS)[number];
export const AGE_BUCKET_LABELS: Readonly<Record<AgeBucket, string>> = Object.freeze({
  lt1h: '1 小时内',
  h1to24: '1–24 小时',
  d1to3: '1–3 天',
  gt3d: '超过 3 天',
});

const kindCounts = z.object({ customer: z.number(), application: z.number(), tender: z.number() });

export const reviewSection = z.object({
  /** The kinds of task the caller reviews (the counts of other kinds are 0). */
  kinds: z.array(z.object({ kind: z.enum(TASK_KINDS), label: z.string() })),
  /** Open tasks now (not limited by the range). */
  openTotal: z.number(),
  /** The age of the oldest open task, in seconds; null when none is open. */
  oldestAgeSeconds: z.number().nullable(),
  /** Open tasks by how long they have waited, each with the counts per kind. */
  byAge: z.array(kindCounts.extend({ bucket: z.enum(AGE_BUCKETS), label: z.string(), total: z.number() })),
  /** Decisions made in the range, per period. */
  decisions: z.array(
    z.object({ period: z.string(), approve: z.number(), return: z.number(), reject: z.number() }),
  ),
  decisionTotals: z.object({ approve: z.number(), return: z.number(), reject: z.number() }),
});
export type ReviewSection = z.infer<typeof reviewSection>;

// ---- business ----

/** What the holder of an application does next in each state (null: nothing, it is the others' turn). */
export const NEXT_ACTIONS = [
  'continue',
  'await_review',
  'revise',
  'pay',
  'requote',
  'await_policy',
  'view_policy',
] as const;
export type NextAction = (typeof NEXT_ACTIONS)[number];
export const NEXT_ACTION_LABELS: Readonly<Record<NextAction, string>> = Object.freeze({
  continue: '继续填写',
  await_review: '等待审核',
  revise: '修改后重新提交',
  pay: '去支付',
  requote: '重新报价',
  await_policy: '等待出单',
  view_policy: '查看保单',
});
export const NEXT_ACTION_OF: Readonly<Partial<Record<(typeof APPLICATION_STATUSES)[number], NextAction>>> =
  Object.freeze({
    DRAFT: 'continue',
    PENDING_REVIEW: 'await_review',
    RETURNED: 'revise',
    PENDING_PAYMENT: 'pay',
    PAYMENT_EXPIRED: 'requote',
    PAID: 'await_policy',
    ISSUED: 'view_policy',
    IN_FORCE: 'view_policy',
  });

export const FUNNEL_STAGES = ['created', 'submitted', 'approved', 'paid', 'issued'] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];
export const FUNNEL_STAGE_LABELS: Readonly<Record<FunnelStage, string>> = Object.freeze({
  created: '创建投保单',
  submitted: '提交审核',
  approved: '审核通过',
  paid: '完成支付',
  issued: '已出单',
});

export const businessSection = z.object({
  /** The caller's applications by their state now (not limited by the range), lifecycle order, non-zero only. */
  applications: z.array(
    z.object({
      status: z.enum(APPLICATION_STATUSES),
      label: z.string(),
      count: z.number(),
      action: z.object({ key: z.enum(NEXT_ACTIONS), label: z.string() }).nullable(),
    }),
  ),
  applicationsTotal: z.number(),
  /** Applications created in the range and how many of them reached each stage since. */
  funnel: z.array(z.object({ stage: z.enum(FUNNEL_STAGES), label: z.string(), count: z.number() })),
  /** Policies ending within 30 / 60 / 90 days from today (cumulative), with their premium in fen. */
  expiring: z.array(z.object({ withinDays: z.number(), count: z.number(), premiumFen: z.number() })),
  /** The soonest-ending of them (at most EXPIRING_LIST_SIZE), for the renewal. */
  expiringSoon: z.array(
    z.object({
      id: z.number(),
      number: z.string(),
      holderName: z.string(),
      productName: z.string(),
      endDate: z.string(),
      daysLeft: z.number(),
      premiumFen: z.number(),
    }),
  ),
});
export type BusinessSection = z.infer<typeof businessSection>;

// ---- management ----

export const managementSection = z.object({
  /** Totals of the range: premium of the policies issued, payments received (fen), policies issued. */
  totals: z.object({ premiumFen: z.number(), paidFen: z.number(), policies: z.number() }),
  /** Premium written (policies issued) and policies issued, per period of the range. */
  premiumTrend: z.array(z.object({ period: z.string(), premiumFen: z.number(), policies: z.number() })),
  /** Premium written in the range by product, largest first. */
  byProduct: z.array(
    z.object({
      productId: z.number(),
      productCode: z.string(),
      productName: z.string(),
      premiumFen: z.number(),
      policies: z.number(),
    }),
  ),
  /** Co-insured policies issued in the range: each insurer's share of the premium, largest first. */
  coinsurance: z.array(
    z.object({
      insurerCode: z.string(),
      insurerName: z.string(),
      premiumFen: z.number(),
      policies: z.number(),
    }),
  ),
  /**
   * The accident-prevention funds of the policies in scope, now (not limited by the range): their total, the part
   * planned (reserved by plan items, not yet spent), spent (confirmed services) and not yet planned; fen.
   */
  prevention: z.object({
    policies: z.number(),
    totalFen: z.number(),
    plannedFen: z.number(),
    spentFen: z.number(),
    leftFen: z.number(),
  }),
  /** The service orders of those policies by their state now, in the order of the workflow, non-zero only. */
  serviceOrders: z.array(
    z.object({ status: z.enum(SERVICE_ORDER_STATUSES), label: z.string(), count: z.number() }),
  ),
});
export type ManagementSection = z.infer<typeof managementSection>;

// ---- service ----

export const serviceSection = z.object({
  /** The service organisation the caller is a member of (its figures only). */
  org: z.object({ id: z.number(), name: z.string() }),
  /** Its service orders by their state now (not limited by the range), in the order of the workflow, non-zero only. */
  orders: z.array(z.object({ status: z.enum(SERVICE_ORDER_STATUSES), label: z.string(), count: z.number() })),
  ordersTotal: z.number(),
  /** Its orders dispatched (created) in the range, per period. */
  dispatched: z.array(z.object({ period: z.string(), orders: z.number() })),
  /** Open hazards of its orders under rectification follow-up (CONFIRMED): deadline passed / today or later. */
  hazards: z.object({ overdue: z.number(), upcoming: z.number() }),
  /** Complaints about its orders awaiting a reply, and those of them past the reply deadline. */
  complaints: z.object({ open: z.number(), overdue: z.number() }),
});
export type ServiceSection = z.infer<typeof serviceSection>;

// ---- system ----

export const systemSection = z.object({
  database: z.object({ up: z.boolean(), latencyMs: z.number().nullable() }),
  /** Live sessions (not revoked, not expired) and the distinct users holding them. */
  sessionsOnline: z.number(),
  usersOnline: z.number(),
  /** Sign-in attempts per period of the range. */
  signIns: z.array(z.object({ period: z.string(), success: z.number(), failure: z.number() })),
  signInTotals: z.object({ success: z.number(), failure: z.number() }),
});
export type SystemSection = z.infer<typeof systemSection>;

/** GET /api/dashboard: a section is present only when the caller may see it. */
export const dashboardAnswer = z.object({
  range: z.object({
    from: z.string(),
    to: z.string(),
    days: z.number(),
    granularity: z.enum(['day', 'month']),
  }),
  /** When the figures were computed (answers are cached for a few seconds). */
  generatedAt: z.string(),
  review: reviewSection.optional(),
  business: businessSection.optional(),
  management: managementSection.optional(),
  service: serviceSection.optional(),
  system: systemSection.optional(),
});
export type DashboardAnswer = z.infer<typeof dashboardAnswer>;

/** The range of a query: its own dates, or the last 30 days up to `today`; `from` alone runs to today. */
export function resolveRange(
  q: DashboardQuery,
  today: string,
): { from: string; to: string; days: number; granularity: Granularity } {
  const to = q.to ?? (q.from && q.from > today ? q.from : today);
  const from = q.from ?? addDays(to, 1 - DASHBOARD_DEFAULT_DAYS);
  const days = rangeDays(from, to);
  return { from, to, days, granularity: granularityOf(days) };
}
