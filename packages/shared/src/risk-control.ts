// Risk control: accident-prevention services (事故预防服务, AQ 9010-2019). Service organisations and their
// persons, the prevention fund of a policy with its ledger, the service plan, service orders with their on-site
// record, hazards, confirmation, rectification, satisfaction and complaints. Shared by the riskControl pages and
// the server's /api/service-orgs, /api/service-persons and /api/prevention routes. Import it as
// `@piibs/shared/risk-control`. Money is integer fen; dates are 'yyyy-mm-dd' (Asia/Shanghai).
//
// The fund of a policy (its prevention fee) is split three ways, always adding up to the total:
//   planned  reserved by plan items and not yet spent: Σ max(0, reserved_i − spent_i)
//   spent    confirmed services: Σ spent_i
//   left     total − planned − spent (never negative: the server refuses, and the database checks it)
// A plan item reserves unitCost × times. Confirming an order spends its cost: first from its item's outstanding
// reservation, the rest from `left`; when that is not enough the confirmation is refused.
//
// Service orders:
//   DISPATCHED ─accept→ ACCEPTED ─start→ IN_SERVICE ─submit→ SUBMITTED ─confirm→ CONFIRMED ─(all hazards
//   rectified)→ CLOSED; DISPATCHED ─reject (reason)→ REJECTED; SUBMITTED ─return (opinion)→ IN_SERVICE;
//   DISPATCHED | ACCEPTED ─cancel→ CANCELLED. accept/reject/start/submit: the organisation; confirm/return: the
//   enterprise; cancel: the insurer. Confirming an order with no open hazard closes it at once.
import { z } from 'zod';
import { MASKED_MOBILE } from './auth.ts';
import { formatYuan } from './money.ts';
import { REGION_CODE } from './product.ts';
import { isUscc } from './uscc.ts';
import { isPhone, MESSAGES } from './validators.ts';

// ---- vocabularies ----

export const SERVICE_ITEM_TYPES = [
  'HAZARD_INSPECTION',
  'SAFETY_TRAINING',
  'EMERGENCY_DRILL',
  'EXPERT_CONSULTATION',
  'SAFETY_ASSESSMENT',
  'STANDARDIZATION',
  'OTHER',
] as const;
export type ServiceItemType = (typeof SERVICE_ITEM_TYPES)[number];
export const SERVICE_ITEM_LABELS: Readonly<Record<ServiceItemType, string>> = Object.freeze({
  HAZARD_INSPECTION: '隐患排查',
  SAFETY_TRAINING: '安全培训',
  EMERGENCY_DRILL: '应急演练',
  EXPERT_CONSULTATION: '专家咨询',
  SAFETY_ASSESSMENT: '安全评估',
  STANDARDIZATION: '安全生产标准化辅导',
  OTHER: '其他',
});

export const SERVICE_FREQUENCIES = ['ONCE', 'MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'ANNUAL'] as const;
export type ServiceFrequency = (typeof SERVICE_FREQUENCIES)[number];
export const SERVICE_FREQUENCY_LABELS: Readonly<Record<ServiceFrequency, string>> = Object.freeze({
  ONCE: '一次',
  MONTHLY: '每月一次',
  QUARTERLY: '每季度一次',
  SEMIANNUAL: '每半年一次',
  ANNUAL: '每年一次',
});
/** The number of times a frequency means over a one-year policy period (the plan may set another). */
export const FREQUENCY_TIMES: Readonly<Record<ServiceFrequency, number>> = Object.freeze({
  ONCE: 1,
  MONTHLY: 12,
  QUARTERLY: 4,
  SEMIANNUAL: 2,
  ANNUAL: 1,
});

export const HAZARD_LEVELS = ['GENERAL', 'SERIOUS', 'MAJOR'] as const;
export type HazardLevel = (typeof HAZARD_LEVELS)[number];
export const HAZARD_LEVEL_LABELS: Readonly<Record<HazardLevel, string>> = Object.freeze({
  GENERAL: '一般',
  SERIOUS: '较大',
  MAJOR: '重大',
});

export const HAZARD_STATUSES = ['OPEN', 'RECTIFIED'] as const;
export type HazardStatus = (typeof HAZARD_STATUSES)[number];
export const HAZARD_STATUS_LABELS: Readonly<Record<HazardStatus, string>> = Object.freeze({
  OPEN: '待整改',
  RECTIFIED: '已整改',
});

export const PARTICIPANT_SIDES = ['ORG', 'ENTERPRISE'] as const;
export type ParticipantSide = (typeof PARTICIPANT_SIDES)[number];
export const PARTICIPANT_SIDE_LABELS: Readonly<Record<ParticipantSide, string>> = Object.freeze({
  ORG: '服务机构',
  ENTERPRISE: '企业',
});

// ---- service orders: states and transitions ----

export const SERVICE_ORDER_STATUSES = [
  'DISPATCHED',
  'ACCEPTED',
  'REJECTED',
  'IN_SERVICE',
  'SUBMITTED',
  'CONFIRMED',
  'CLOSED',
  'CANCELLED',
] as const;
export type ServiceOrderStatus = (typeof SERVICE_ORDER_STATUSES)[number];
export const SERVICE_ORDER_STATUS_LABELS: Readonly<Record<ServiceOrderStatus, string>> = Object.freeze({
  DISPATCHED: '已派单',
  ACCEPTED: '已接单',
  REJECTED: '已拒单',
  IN_SERVICE: '服务中',
  SUBMITTED: '待企业确认',
  CONFIRMED: '整改跟踪中',
  CLOSED: '已完成',
  CANCELLED: '已取消',
});

/** The parties of a service: the insurer's staff, the service organisation, the insured enterprise. */
export const PARTIES = ['insurer', 'org', 'enterprise'] as const;
export type Party = (typeof PARTIES)[number];

export const SERVICE_ORDER_ACTIONS = [
  'accept',
  'reject',
  'start',
  'submit',
  'return',
  'confirm',
  'cancel',
] as const;
export type ServiceOrderAction = (typeof SERVICE_ORDER_ACTIONS)[number];
export const SERVICE_ORDER_ACTION_LABELS: Readonly<Record<ServiceOrderAction, string>> = Object.freeze({
  accept: '接单',
  reject: '拒单',
  start: '开始服务',
  submit: '提交服务记录',
  return: '退回服务记录',
  confirm: '确认服务',
  cancel: '取消服务单',
});

interface Transition {
  from: readonly ServiceOrderStatus[];
  to: ServiceOrderStatus;
  by: Party;
}
/** Every allowed transition: the states it leaves, the state it reaches, and who performs it. */
export const SERVICE_ORDER_TRANSITIONS: Readonly<Record<ServiceOrderAction, Transition>> = Object.freeze({
  accept: { from: ['DISPATCHED'], to: 'ACCEPTED', by: 'org' },
  reject: { from: ['DISPATCHED'], to: 'REJECTED', by: 'org' },
  start: { from: ['ACCEPTED'], to: 'IN_SERVICE', by: 'org' },
  submit: { from: ['IN_SERVICE'], to: 'SUBMITTED', by: 'org' },
  return: { from: ['SUBMITTED'], to: 'IN_SERVICE', by: 'enterprise' },
  confirm: { from: ['SUBMITTED'], to: 'CONFIRMED', by: 'enterprise' },
  cancel: { from: ['DISPATCHED', 'ACCEPTED'], to: 'CANCELLED', by: 'insurer' },
});

/** The state an action leads to from a state, or null when the action is not allowed there. */
export function serviceOrderNext(
  from: ServiceOrderStatus,
  action: ServiceOrderAction,
): ServiceOrderStatus | null {
  const t = SERVICE_ORDER_TRANSITIONS[action];
  return t.from.includes(from) ? t.to : null;
}

/** Orders that still count against their plan item's times (everything but rejected and cancelled). */
export const LIVE_ORDER_STATUSES: readonly ServiceOrderStatus[] = Object.freeze(
  SERVICE_ORDER_STATUSES.filter((s) => s !== 'REJECTED' && s !== 'CANCELLED'),
);
/** The on-site record can be saved while the service is under way. */
export const RECORD_EDITABLE: readonly ServiceOrderStatus[] = Object.freeze(['IN_SERVICE']);
/** Hazards are followed up (rectified) after the enterprise confirmed. */
export const RECTIFIABLE: readonly ServiceOrderStatus[] = Object.freeze(['CONFIRMED']);
/** The enterprise rates a confirmed service. */
export const RATEABLE: readonly ServiceOrderStatus[] = Object.freeze(['CONFIRMED', 'CLOSED']);
/** A complaint can be made once the organisation has taken the order. */
export const COMPLAINABLE: readonly ServiceOrderStatus[] = Object.freeze([
  'ACCEPTED',
  'REJECTED',
  'IN_SERVICE',
  'SUBMITTED',
  'CONFIRMED',
  'CLOSED',
]);

/** What a party may do with an order in a state (the buttons of the order pages). */
export function serviceOrderActionsFor(status: ServiceOrderStatus, party: Party): ServiceOrderAction[] {
  return SERVICE_ORDER_ACTIONS.filter(
    (a) => SERVICE_ORDER_TRANSITIONS[a].by === party && SERVICE_ORDER_TRANSITIONS[a].from.includes(status),
  );
}

// ---- working days (complaint replies) ----

/** Complaints are answered within 10 working days. */
export const COMPLAINT_REPLY_WORKING_DAYS = 10;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date 'yyyy-mm-dd'. */
export function isDateText(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/** 0 Sunday … 6 Saturday of a 'yyyy-mm-dd' date. */
export function weekdayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/**
 * The date `n` working days after `date` (Saturdays and Sundays skipped; public holidays are not modelled).
 * The starting day itself never counts: a complaint made on Friday 2026-05-08 is due Friday 2026-05-22.
 */
export function addWorkingDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(y, m - 1, d));
  let left = n;
  while (left > 0) {
    at.setUTCDate(at.getUTCDate() + 1);
    const wd = at.getUTCDay();
    if (wd !== 0 && wd !== 6) left--;
  }
  return at.toISOString().slice(0, 10);
}

/** The reply deadline of a complaint made on `date`. */
export const complaintDeadline = (date: string): string => addWorkingDays(date, COMPLAINT_REPLY_WORKING_DAYS);

// ---- the fund and its arithmetic (all integers, fen) ----

export interface FundAmounts {
  totalFen: number;
  plannedFen: number;
  spentFen: number;
}

/** What is neither reserved nor spent. */
export const fundLeft = (f: FundAmounts): number => f.totalFen - f.plannedFen - f.spentFen;

/** The part of an item's reservation not yet spent. */
export const itemOutstanding = (reservedFen: number, spentFen: number): number =>
  Math.max(0, reservedFen - spentFen);

/** '事故预防费用余额不足：剩余 ¥1,200.00，本次需要 ¥3,000.00'. */
export const insufficientFundMessage = (leftFen: number, needFen: number): string =>
  `事故预防费用余额不足：剩余 ¥${formatYuan(Math.max(0, leftFen))}，本次需要 ¥${formatYuan(needFen)}`;

export type FundChange =
  | { ok: true; plannedDeltaFen: number; spentDeltaFen: number }
  | { ok: false; message: string; availableFen: number; needFen: number };

/**
 * Changing an item's reservation from `fromFen` to `toFen` (the item has spent `itemSpentFen`): the planned
 * amount moves by the change of the item's outstanding part, which must fit in what is left.
 */
export function reserveChange(
  fund: FundAmounts,
  item: { reservedFen: number; spentFen: number },
  toFen: number,
): FundChange {
  const delta = itemOutstanding(toFen, item.spentFen) - itemOutstanding(item.reservedFen, item.spentFen);
  const left = fundLeft(fund);
  if (delta > left)
    return { ok: false, message: insufficientFundMessage(left, delta), availableFen: left, needFen: delta };
  return { ok: true, plannedDeltaFen: delta, spentDeltaFen: 0 };
}

/**
 * Spending `costFen` on an item (a confirmed order): the item's outstanding reservation pays first, what is
 * left of the fund pays the rest. Refused when the two together do not cover the cost.
 */
export function spendChange(
  fund: FundAmounts,
  item: { reservedFen: number; spentFen: number },
  costFen: number,
): FundChange {
  const outstanding = itemOutstanding(item.reservedFen, item.spentFen);
  const available = fundLeft(fund) + outstanding;
  if (costFen > available)
    return {
      ok: false,
      message: insufficientFundMessage(available, costFen),
      availableFen: available,
      needFen: costFen,
    };
  return { ok: true, plannedDeltaFen: -Math.min(costFen, outstanding), spentDeltaFen: costFen };
}

/** The prevention record number of a policy: 'YF' + the policy number (route param :seqNo). */
export const preventionSeqNo = (policyNumber: string): string => `YF${policyNumber}`;
/** The policy number inside a prevention record number, or null. */
export const policyNumberOfSeqNo = (seqNo: string): string | null =>
  /^YF[A-Z0-9]{4,40}$/.test(seqNo) ? seqNo.slice(2) : null;
/** Service order numbers: the record number and a serial, e.g. YFPAZX202600000001-003. */
export const serviceOrderNumber = (seqNo: string, serial: number): string =>
  `${seqNo}-${String(serial).padStart(3, '0')}`;
export const SERVICE_ORDER_NUMBER = /^YF[A-Z0-9]{4,40}-\d{3,}$/;

// ---- field helpers ----

const id = (title: string) => z.number({ error: '请选择' }).int().positive().meta({ title });
const version = z.number({ error: '请提供版本号' }).int().min(0).meta({ title: '版本号' });
const text = (title: string, max: number, min = 1) =>
  z
    .string({ error: '请输入文字' })
    .trim()
    .min(min, { error: min > 1 ? `至少 ${min} 个字符` : '不能为空' })
    .max(max, { error: `不能超过 ${max} 个字符` })
    .meta({ title });
const optionalText = (title: string, max: number) =>
  z
    .preprocess(
      (v) => (typeof v === 'string' ? v.trim() || null : v),
      z
        .string()
        .max(max, { error: `不能超过 ${max} 个字符` })
        .nullish(),
    )
    .meta({ title });
const dateField = (title: string) =>
  z
    .string({ error: '请输入日期' })
    .trim()
    .refine(isDateText, { error: '请输入正确的日期（yyyy-mm-dd）' })
    .meta({ title, description: 'yyyy-mm-dd（Asia/Shanghai）' });
const fen = (title: string) =>
  z
    .number({ error: '请输入金额（分）' })
    .int({ error: '金额须为整数（分）' })
    .min(0, { error: '不能小于 0' })
    .max(100_000_000_000, { error: '金额过大' })
    .meta({ title, description: '金额，单位：分' });
/** A phone as the forms send it: a valid number, or the masked one as listed (keeps the stored number). */
const phoneOrMasked = (title: string) =>
  z
    .string({ error: '不能为空' })
    .trim()
    .min(1, { error: '不能为空' })
    .refine((v) => isPhone(v) || MASKED_MOBILE.test(v) || /^[\d-]*\*{3,}[\d-]*$/.test(v), {
      error: MESSAGES.phone,
    })
    .meta({ title });

export const USCC_MESSAGE = MESSAGES.uscc;
/** The organisation's code: a GB 32100 unified social credit code, check character verified. */
export const orgCodeField = z
  .preprocess(
    (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
    z.string({ error: '不能为空' }).refine(isUscc, { error: MESSAGES.uscc }),
  )
  .meta({ title: '统一社会信用代码' });

// ---- service organisations ----

export const SERVICE_ORG_SORT_FIELDS = ['id', 'name', 'code', 'createdAt', 'updatedAt'] as const;

export const qualificationForm = z
  .object({
    name: text('资质名称', 100),
    certNo: text('资质证书编号', 50),
    level: optionalText('资质等级', 30),
    validFrom: dateField('有效期起'),
    validTo: dateField('有效期止'),
  })
  .superRefine((q, ctx) => {
    if (q.validTo < q.validFrom)
      ctx.addIssue({ code: 'custom', path: ['validTo'], message: '不能早于有效期起' });
  });

export const contactForm = z.object({
  name: text('联系人', 30),
  phone: phoneOrMasked('联系电话'),
  position: optionalText('职务', 30),
});

const serviceOrgFields = z.object({
  code: orgCodeField,
  name: text('机构名称', 100, 2),
  address: optionalText('地址', 200),
  qualifications: z
    .array(qualificationForm)
    .min(1, { error: '请至少填写一项资质' })
    .max(20, { error: '最多 20 项' })
    .meta({ title: '资质' }),
  regions: z
    .array(z.string().trim().regex(REGION_CODE, { error: '请选择地区' }))
    .min(1, { error: '请至少选择一个服务地区' })
    .max(100, { error: '最多 100 个' })
    .meta({ title: '服务地区' }),
  industries: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[A-T]$/, { error: '请选择行业门类' }),
    )
    .min(1, { error: '请至少选择一个服务行业' })
    .max(20, { error: '最多 20 个' })
    .meta({ title: '服务行业' }),
  contacts: z
    .array(contactForm)
    .min(1, { error: '请至少填写一位联系人' })
    .max(5, { error: '最多 5 位' })
    .meta({ title: '联系人' }),
  enabled: z.boolean().default(true).meta({ title: '启用' }),
  note: optionalText('备注', 500),
});

/** POST /api/service-orgs (insurer staff). Phones must be real numbers here. */
export const serviceOrgCreateForm = serviceOrgFields;
export type ServiceOrgCreateForm = z.input<typeof serviceOrgCreateForm>;
/** POST /api/service-orgs/update: `version` as loaded (409 when stale); a masked phone keeps the stored one. */
export const serviceOrgUpdateForm = serviceOrgFields.extend({ id: id('服务机构ID'), version });
export type ServiceOrgUpdateForm = z.input<typeof serviceOrgUpdateForm>;

export const qualificationRow = z.object({
  name: z.string(),
  certNo: z.string(),
  level: z.string().nullable(),
  validFrom: z.string(),
  validTo: z.string(),
  /** Valid today. */
  valid: z.boolean(),
});
export const contactRow = z.object({
  name: z.string(),
  /** Masked (138****5678). */
  phone: z.string(),
  position: z.string().nullable(),
});

export const serviceOrgRow = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  qualifications: z.array(qualificationRow),
  /** At least one qualification is valid today. */
  qualified: z.boolean(),
  regions: z.array(z.string()),
  regionNames: z.array(z.string()),
  industries: z.array(z.string()),
  industryNames: z.array(z.string()),
  contacts: z.array(contactRow),
  enabled: z.boolean(),
  note: z.string().nullable(),
  personCount: z.number(),
  memberCount: z.number(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ServiceOrgRow = z.infer<typeof serviceOrgRow>;

/** POST /api/service-orgs/:id/members: the sign-in accounts (channel/role 'service') acting for the org. */
export const orgMembersForm = z.object({
  userIds: z.array(z.number().int().positive()).max(200).meta({ title: '机构账号' }),
});
export const orgMemberRow = z.object({
  userId: z.number(),
  username: z.string(),
  nickName: z.string(),
  enabled: z.boolean(),
});
export type OrgMemberRow = z.infer<typeof orgMemberRow>;

/** POST /api/service-orgs/:id/unmask (audited): the contacts' full phone numbers. */
export const orgUnmaskResult = z.object({ contacts: z.array(contactRow) });

// ---- service persons / experts ----

export const SERVICE_PERSON_SORT_FIELDS = ['id', 'name', 'certificateValidTo', 'createdAt'] as const;

const servicePersonFields = z.object({
  orgId: id('服务机构'),
  name: text('姓名', 30),
  specialty: text('专业领域', 50),
  title: optionalText('职称', 30),
  expert: z.boolean().default(false).meta({ title: '专家' }),
  certificateName: text('资格证书名称', 50),
  certificateNo: text('资格证书编号', 50),
  certificateValidFrom: dateField('证书有效期起'),
  certificateValidTo: dateField('证书有效期止'),
  phone: phoneOrMasked('手机号'),
  enabled: z.boolean().default(true).meta({ title: '启用' }),
  note: optionalText('备注', 500),
});
const personDates = (
  p: { certificateValidFrom: string; certificateValidTo: string },
  ctx: z.RefinementCtx,
) => {
  if (p.certificateValidTo < p.certificateValidFrom)
    ctx.addIssue({ code: 'custom', path: ['certificateValidTo'], message: '不能早于证书有效期起' });
};

/** POST /api/service-persons. */
export const servicePersonCreateForm = servicePersonFields.superRefine(personDates);
export type ServicePersonCreateForm = z.input<typeof servicePersonCreateForm>;
/** POST /api/service-persons/update (`version` as loaded; the masked phone keeps the stored number). */
export const servicePersonUpdateForm = servicePersonFields
  .extend({ id: id('服务人员ID'), version })
  .superRefine(personDates);
export type ServicePersonUpdateForm = z.input<typeof servicePersonUpdateForm>;

export const servicePersonRow = z.object({
  id: z.number(),
  orgId: z.number(),
  orgName: z.string(),
  name: z.string(),
  specialty: z.string(),
  title: z.string().nullable(),
  expert: z.boolean(),
  certificateName: z.string(),
  certificateNo: z.string(),
  certificateValidFrom: z.string(),
  certificateValidTo: z.string(),
  /** The certificate is valid today. */
  certificateValid: z.boolean(),
  /** Masked (138****5678); POST /api/service-persons/:id/unmask reads the full number. */
  phone: z.string(),
  enabled: z.boolean(),
  note: z.string().nullable(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ServicePersonRow = z.infer<typeof servicePersonRow>;
export const personUnmaskResult = z.object({ phone: z.string() });

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

// ---- service orders ----

export const SERVICE_ORDER_SORT_FIELDS = ['id', 'number', 'scheduledDate', 'status', 'createdAt'] as const;

/** POST /api/prevention/plans/:seqNo/orders (insurer staff): one occurrence of a plan item. */
export const dispatchForm = z.object({
  planItemId: id('服务项目'),
  scheduledDate: dateField('计划服务日期'),
  /** Defaults to the plan item's persons. */
  personIds: z.array(z.number().int().positive()).max(20).optional().meta({ title: '服务人员' }),
  /** Defaults to the plan item's unit cost. */
  costFen: fen('服务费用').optional(),
  note: optionalText('派单说明', 500),
});
export type DispatchForm = z.input<typeof dispatchForm>;

export const reasonForm = (title: string) => z.object({ version, reason: text(title, 500) });
/** reject (拒单原因) / cancel (取消原因). */
export const rejectForm = reasonForm('拒单原因');
export const cancelForm = reasonForm('取消原因');
/** The enterprise sends a submitted record back with an opinion. */
export const returnForm = z.object({ version, opinion: text('退回意见', 500) });

export const hazardForm = z.object({
  description: text('隐患描述', 500),
  location: optionalText('隐患部位', 100),
  level: z.enum(HAZARD_LEVELS, { error: '请选择隐患等级' }).meta({ title: '隐患等级' }),
  measure: optionalText('整改建议', 500),
  deadline: dateField('整改期限'),
});
export const participantForm = z.object({
  name: text('参与人员', 30),
  side: z.enum(PARTICIPANT_SIDES, { error: '请选择所属方' }).meta({ title: '所属方' }),
  position: optionalText('职务', 30),
});

/** POST /api/prevention/orders/:ref/record (the organisation, IN_SERVICE): replaces the on-site record. */
export const serviceRecordForm = z
  .object({
    version,
    serviceDate: dateField('服务日期'),
    address: optionalText('服务地点', 200),
    findings: text('服务情况', 5000),
    hazards: z.array(hazardForm).max(200, { error: '最多 200 项' }).default([]).meta({ title: '隐患' }),
    participants: z
      .array(participantForm)
      .min(1, { error: '请至少填写一位参与人员' })
      .max(50, { error: '最多 50 人' })
      .meta({ title: '参与人员' }),
  })
  .superRefine((r, ctx) => {
    r.hazards.forEach((h, i) => {
      if (h.deadline < r.serviceDate)
        ctx.addIssue({ code: 'custom', path: ['hazards', i, 'deadline'], message: '不能早于服务日期' });
    });
  });
export type ServiceRecordForm = z.input<typeof serviceRecordForm>;

/** POST /api/prevention/orders/:ref/confirm (the enterprise): spends the cost; may rate at once. */
export const confirmForm = z.object({
  version,
  satisfaction: z.number().int().min(1, { error: '1–5 分' }).max(5, { error: '1–5 分' }).optional().meta({
    title: '满意度',
  }),
  comment: optionalText('评价', 500),
});
/** POST /api/prevention/orders/:ref/rate (the enterprise, once). */
export const rateForm = z.object({
  version,
  satisfaction: z
    .number({ error: '请选择满意度' })
    .int()
    .min(1, { error: '1–5 分' })
    .max(5, { error: '1–5 分' })
    .meta({ title: '满意度' }),
  comment: optionalText('评价', 500),
});
/** POST /api/prevention/orders/:ref/hazards/:hazardId/rectify (the organisation, CONFIRMED). */
export const rectifyForm = z.object({
  version,
  rectifiedDate: dateField('整改完成日期'),
  note: optionalText('整改情况', 500),
});
/** POST /api/prevention/orders/:ref/complaints (the enterprise). */
export const complaintForm = z.object({ content: text('投诉内容', 1000) });
/** POST /api/prevention/orders/:ref/complaints/:complaintId/reply (the organisation or the insurer). */
export const complaintReplyForm = z.object({ reply: text('答复内容', 1000) });

export const hazardRow = z.object({
  id: z.number(),
  seq: z.number(),
  description: z.string(),
  location: z.string().nullable(),
  level: z.enum(HAZARD_LEVELS),
  levelLabel: z.string(),
  measure: z.string().nullable(),
  deadline: z.string(),
  status: z.enum(HAZARD_STATUSES),
  statusLabel: z.string(),
  rectifiedDate: z.string().nullable(),
  rectifyNote: z.string().nullable(),
  /** Past its deadline and still open. */
  overdue: z.boolean(),
});
export type HazardRow = z.infer<typeof hazardRow>;

export const participantRow = z.object({
  name: z.string(),
  side: z.enum(PARTICIPANT_SIDES),
  position: z.string().nullable(),
});

export const complaintRow = z.object({
  id: z.number(),
  content: z.string(),
  complainedOn: z.string(),
  /** 10 working days after the complaint. */
  deadline: z.string(),
  status: z.enum(['OPEN', 'REPLIED']),
  reply: z.string().nullable(),
  repliedAt: z.string().nullable(),
  repliedBy: z.string().nullable(),
  /** Still open after its deadline. */
  overdue: z.boolean(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type ComplaintRow = z.infer<typeof complaintRow>;

export const orderEventRow = z.object({
  id: z.number(),
  action: z.string(),
  fromStatus: z.enum(SERVICE_ORDER_STATUSES).nullable(),
  toStatus: z.enum(SERVICE_ORDER_STATUSES),
  actor: z.string().nullable(),
  opinion: z.string().nullable(),
  at: z.string(),
});
export type OrderEventRow = z.infer<typeof orderEventRow>;

export const serviceOrderRow = z.object({
  id: z.number(),
  number: z.string(),
  seqNo: z.string(),
  policyId: z.number(),
  policyNumber: z.string(),
  holderName: z.string(),
  holderUscc: z.string(),
  planItemId: z.number(),
  itemType: z.enum(SERVICE_ITEM_TYPES),
  itemLabel: z.string(),
  orgId: z.number(),
  orgName: z.string(),
  persons: z.array(z.object({ id: z.number(), name: z.string() })),
  scheduledDate: z.string(),
  serviceDate: z.string().nullable(),
  costFen: z.number(),
  status: z.enum(SERVICE_ORDER_STATUSES),
  statusLabel: z.string(),
  hazardCount: z.number(),
  openHazardCount: z.number(),
  satisfaction: z.number().nullable(),
  openComplaint: z.boolean(),
  /** What the caller may do now (state machine × party). */
  actions: z.array(z.enum(SERVICE_ORDER_ACTIONS)),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ServiceOrderRow = z.infer<typeof serviceOrderRow>;

/** GET /api/prevention/orders/:ref. */
export const serviceOrderDetail = serviceOrderRow.extend({
  note: z.string().nullable(),
  address: z.string().nullable(),
  findings: z.string().nullable(),
  participants: z.array(participantRow),
  hazards: z.array(hazardRow),
  rejectReason: z.string().nullable(),
  cancelReason: z.string().nullable(),
  /** The enterprise's last send-back opinion. */
  returnOpinion: z.string().nullable(),
  satisfactionComment: z.string().nullable(),
  ratedAt: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  submittedAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  party: z.enum(PARTIES),
  /** The organisation may save the on-site record / rectify hazards now. */
  canRecord: z.boolean(),
  canRectify: z.boolean(),
  canRate: z.boolean(),
  canComplain: z.boolean(),
  complaints: z.array(complaintRow),
  events: z.array(orderEventRow),
  fund: fundSummary,
});
export type ServiceOrderDetail = z.infer<typeof serviceOrderDetail>;
