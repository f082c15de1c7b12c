// Project insurance (工程项目): annual orders (年度订单) and the secondary orders (二次下单) declared against
// them, shared by the projectManage pages, the tender review page and /api/project-orders. Import it as
// `@piibs/shared/project-order`.
//
// An annual order is a contractor's framework for a period: one approved customer, one construction product,
// and a quota in PREMIUM (保费额度, fen). Each project is declared against it as a secondary order, priced by
// the product's active rate table at the time of declaration (cost × ‰ by cost band, high-risk loaded). The
// premium of a declaration is reserved against the quota when it is submitted (under a row lock on the annual
// order), kept while it is reviewed, returned or approved, and released when it is rejected or cancelled.
// The approved project's policy is issued at once; its premium is settled against the annual order (no payment
// per project), so `consumedFen` is what the contractor owes under the framework.
//
// An annual order is opened by staff directly, or made from an issued epinsure application of a construction
// product (生成年度订单: one order per application). Staff may edit its quota (never below what is consumed) and
// contact, and close it (no declarations after that; open ones must be finished first).
//
// A change (批改, kind 2) of an approved project whose policy is issued copies the project; the contractor may
// change its address, cost, end date, high-risk flag and headcount (not its name, start or order). It is priced
// on the active rate table and its premium DIFFERENCE against the project's current premium is what it moves:
// a positive difference is reserved at submit like a new declaration's premium (409 when it does not fit); a
// negative one (a refund) is released only on approval, so a rejected or cancelled change never has to take
// back quota that others may have used meanwhile. On approval the project takes the new values and premium, and
// an endorsement (批单) is issued against its policy. One open change per project at a time.
//
// Secondary-order states:
//   — → DRAFT                               the contractor (or their agent) declares; priced, nothing reserved
//   DRAFT | RETURNED → PENDING_REVIEW       submit: re-priced on the active table, the premium reserved
//                                           (409 「年度订单剩余额度不足…」 when it does not fit)
//   PENDING_REVIEW → APPROVED               underwriter (task kind 'tender'); the policy is issued
//   PENDING_REVIEW → RETURNED (opinion)     underwriter; the reservation is kept while the contractor edits
//   PENDING_REVIEW → REJECTED (opinion)     underwriter; final, the reservation released
//   DRAFT | RETURNED → CANCELLED            the contractor; final, any reservation released
import { z } from 'zod';
import { addDays, isDate } from './application-status.ts';
import { formatYuan } from './money.ts';
import { quoteResult } from './product.ts';
import { MAX_HEADCOUNT } from './rating.ts';
import { isPhone, MESSAGES as VALIDATION_MESSAGES } from './validators.ts';

export const DECLARATION_STATUSES = [
  'DRAFT',
  'PENDING_REVIEW',
  'RETURNED',
  'APPROVED',
  'REJECTED',
  'CANCELLED',
] as const;
export type DeclarationStatus = (typeof DECLARATION_STATUSES)[number];
export const DECLARATION_STATUS_LABELS: Readonly<Record<DeclarationStatus, string>> = Object.freeze({
  DRAFT: '草稿',
  PENDING_REVIEW: '待审核',
  RETURNED: '已退回',
  APPROVED: '审核通过',
  REJECTED: '已拒绝',
  CANCELLED: '已撤销',
});

export type DeclarationAction = 'submit' | 'cancel' | 'approve' | 'return' | 'reject';

/** The states in which a declaration is still open (an annual order with any cannot be closed). */
export const DECLARATION_OPEN: readonly DeclarationStatus[] = Object.freeze([
  'DRAFT',
  'PENDING_REVIEW',
  'RETURNED',
]);

/** The states the declaring side may edit, submit and cancel. */
export const DECLARATION_EDITABLE: readonly DeclarationStatus[] = Object.freeze(['DRAFT', 'RETURNED']);

/** The state after an action; null when the action is not allowed in `from`. */
export function declarationNext(
  from: DeclarationStatus,
  action: DeclarationAction,
): DeclarationStatus | null {
  switch (action) {
    case 'submit':
      return DECLARATION_EDITABLE.includes(from) ? 'PENDING_REVIEW' : null;
    case 'cancel':
      return DECLARATION_EDITABLE.includes(from) ? 'CANCELLED' : null;
    case 'approve':
      return from === 'PENDING_REVIEW' ? 'APPROVED' : null;
    case 'return':
      return from === 'PENDING_REVIEW' ? 'RETURNED' : null;
    case 'reject':
      return from === 'PENDING_REVIEW' ? 'REJECTED' : null;
  }
}

/**
 * The quota movement of a transition (fen; positive reserves, negative releases): submitting reserves the new
 * premium less what the declaration holds already (a resubmission after a return may cost more or less);
 * rejecting or cancelling releases what it holds.
 */
export function quotaDelta(to: DeclarationStatus, heldFen: number, premiumFen: number): number {
  if (to === 'PENDING_REVIEW') return premiumFen - heldFen;
  if (to === 'REJECTED' || to === 'CANCELLED') return 0 - heldFen;
  return 0;
}

/**
 * What a submitted declaration holds of the quota: a new project its premium; a change the positive part of its
 * difference against the project's current premium (a refund is released only on approval).
 */
export function holdOf(premiumFen: number, diffFen: number | null): number {
  return diffFen == null ? premiumFen : Math.max(0, diffFen);
}

/** 「年度订单剩余额度不足…」 when `deltaFen` more does not fit the quota, else null. */
export function quotaProblem(
  order: { quotaFen: number; consumedFen: number },
  deltaFen: number,
): string | null {
  const remaining = order.quotaFen - order.consumedFen;
  if (deltaFen <= remaining) return null;
  return `年度订单剩余额度不足：剩余 ${formatYuan(Math.max(0, remaining))} 元，本次申报需占用 ${formatYuan(deltaFen)} 元`;
}

// ---- route parameters of /piibs/projectManage/apply/:id/:detail/:type/:status ----

/** `:type`, the kind of declaration: 1 a new project (新增项目申报), 2 a change of a declared one (批改). */
export const DECLARATION_KINDS = [1, 2] as const;
export type DeclarationKind = (typeof DECLARATION_KINDS)[number];
export const DECLARATION_KIND_LABELS: Readonly<Record<DeclarationKind, string>> = Object.freeze({
  1: '新增项目申报',
  2: '项目批改申报',
});
/** POST /api/project-orders/:id/declarations declares new projects; changes start from the project. */
export const CHANGE_FROM_PROJECT = '项目批改申报须在已出单的项目上发起（项目详情中的「申请批改」）';

/**
 * `:status`, which view of the declaration's state the page opens: 0 the declaration (form, or facts when
 * read-only), 1 its review progress (state, opinion, history), 2 its policy (once approved and issued).
 */
export const APPLY_VIEWS = ['0', '1', '2'] as const;
export type ApplyView = (typeof APPLY_VIEWS)[number];
export const APPLY_VIEW_LABELS: Readonly<Record<ApplyView, string>> = Object.freeze({
  '0': '申报信息',
  '1': '审核进度',
  '2': '项目保单',
});

/**
 * `/piibs/projectManage/apply/:id/:detail/:type/:status` (`id` 0 with `?orderId=` for a new declaration, or
 * type 2 with `?baseId=` for a change of that project).
 */
export function applyPath(
  id: number,
  opts: {
    detail?: boolean;
    type?: DeclarationKind;
    view?: ApplyView;
    orderId?: number;
    baseId?: number;
  } = {},
): string {
  const path = `/piibs/projectManage/apply/${id}/${opts.detail ?? false}/${opts.type ?? 1}/${opts.view ?? '0'}`;
  if (opts.orderId) return `${path}?orderId=${opts.orderId}`;
  return opts.baseId ? `${path}?baseId=${opts.baseId}` : path;
}
export const orderDetailPath = (id: number) => `/piibs/projectManage/orderDetail/${id}`;
export const tenderAuditPath = (taskId: number, audit: boolean) =>
  `/piibs/task/tenderAudit/${taskId}/${audit}`;

// ---- annual order periods and project periods (Asia/Shanghai dates) ----

/** The state of an annual order on a day: before, within or after its period; or closed by staff. */
export const ANNUAL_ORDER_STATES = ['PENDING', 'ACTIVE', 'EXPIRED', 'CLOSED'] as const;
export type AnnualOrderState = (typeof ANNUAL_ORDER_STATES)[number];
export const ANNUAL_ORDER_STATE_LABELS: Readonly<Record<AnnualOrderState, string>> = Object.freeze({
  PENDING: '未生效',
  ACTIVE: '生效中',
  EXPIRED: '已到期',
  CLOSED: '已关闭',
});
export function annualOrderState(
  order: { startDate: string; endDate: string; closedAt?: unknown },
  today: string,
): AnnualOrderState {
  if (order.closedAt) return 'CLOSED';
  if (today < order.startDate) return 'PENDING';
  return today > order.endDate ? 'EXPIRED' : 'ACTIVE';
}

/** A project's cover may run up to five years (construction periods exceed a year). */
export const MAX_PROJECT_YEARS = 5;

const pad = (n: number) => String(n).padStart(2, '0');

/** The last day a project starting on `start` may be covered to. */
function latestEnd(start: string): string {
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  return addDays(`${String(y + MAX_PROJECT_YEARS).padStart(4, '0')}-${pad(m)}-${pad(d)}`, -1);
}

/**
 * The first problem of a project period against its annual order (Chinese, naming the field), or null: no
 * back-dating (the earliest start is tomorrow), the start within the annual order's period, the end after the
 * start and at most five years later.
 */
export function projectPeriodProblem(
  start: string,
  end: string,
  order: { startDate: string; endDate: string },
  earliest: string,
): string | null {
  if (!isDate(start)) return '开工日期：请输入正确的日期';
  if (!isDate(end)) return '竣工日期：请输入正确的日期';
  if (start < earliest) return `开工日期：保险起期不能早于 ${earliest}（不得倒签）`;
  if (start < order.startDate || start > order.endDate)
    return `开工日期：须在年度订单期间内（${order.startDate} 至 ${order.endDate}）`;
  if (end <= start) return '竣工日期：须晚于开工日期';
  if (end > latestEnd(start)) return `竣工日期：保险期间不能超过 ${MAX_PROJECT_YEARS} 年`;
  return null;
}
/**
 * The first problem of a change's end date (the start stays), or null: after the start, at most five years
 * from it, and, when it moves, not before `earliest` (tomorrow): a change never ends the cover in the past.
 */
export function changePeriodProblem(
  start: string,
  end: string,
  earliest: string,
  currentEnd: string,
): string | null {
  if (!isDate(end)) return '竣工日期：请输入正确的日期';
  if (end <= start) return '竣工日期：须晚于开工日期';
  if (end !== currentEnd && end < earliest)
    return `竣工日期：批改后的竣工日期不能早于 ${earliest}（不得倒签）`;
  if (end > latestEnd(start)) return `竣工日期：保险期间不能超过 ${MAX_PROJECT_YEARS} 年`;
  return null;
}

// ---- changes (批改): what may change, before → after ----

/** A project as it stands: what a change starts from (kept on the change) and what it makes. */
export const projectValues = z.object({
  projectAddress: z.string(),
  projectCostFen: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  highRisk: z.boolean(),
  headcount: z.number().nullable(),
  premiumFen: z.number(),
});
export type ProjectValues = z.infer<typeof projectValues>;

/** The fields a change may change, with their labels. */
export const CHANGE_FIELDS = [
  ['projectAddress', '工程地址'],
  ['projectCostFen', '工程造价'],
  ['endDate', '竣工日期'],
  ['highRisk', '危大工程'],
  ['headcount', '施工人数'],
] as const;
export type ChangeField = (typeof CHANGE_FIELDS)[number][0];

/** One changed field of an endorsement, as printed: before → after. */
export const endorsementChange = z.object({
  field: z.string(),
  label: z.string(),
  before: z.string(),
  after: z.string(),
});
export type EndorsementChange = z.infer<typeof endorsementChange>;

/** A field's value as printed on the endorsement and shown beside the change form. */
export function changeValueText(field: ChangeField, v: Omit<ProjectValues, 'premiumFen'>): string {
  switch (field) {
    case 'projectCostFen':
      return `${formatYuan(v.projectCostFen)} 元`;
    case 'highRisk':
      return v.highRisk ? '是' : '否';
    case 'headcount':
      return v.headcount == null ? '—' : `${v.headcount} 人`;
    default:
      return v[field];
  }
}

/** The fields that differ between a project and its change (none: the change changes nothing). */
export function changesBetween(
  before: Omit<ProjectValues, 'premiumFen'>,
  after: Omit<ProjectValues, 'premiumFen'>,
): EndorsementChange[] {
  return CHANGE_FIELDS.filter(([field]) => (before[field] ?? null) !== (after[field] ?? null)).map(
    ([field, label]) => ({
      field,
      label,
      before: changeValueText(field, before),
      after: changeValueText(field, after),
    }),
  );
}
/** A change's premium difference in words: 加收 / 退还 / 保费不变. */
export function premiumDiffText(diffFen: number): string {
  if (diffFen > 0) return `加收 ${formatYuan(diffFen)} 元`;
  if (diffFen < 0) return `退还 ${formatYuan(-diffFen)} 元`;
  return '保费不变';
}

export const NOTHING_CHANGED =
  '批改内容：请至少变更一项项目信息（工程地址、工程造价、竣工日期、危大工程或施工人数）';

// ---- request bodies ----

const id = (title: string) => z.number({ error: '不能为空' }).int().positive().meta({ title });
const version = z.number({ error: '请提供版本号' }).int().min(0).meta({ title: '版本号' });
/** A positive amount in fen, at most 10¹⁴ (a trillion yuan). */
const fen = (title: string) =>
  z
    .number({ error: '请输入金额（分）' })
    .int({ error: '金额须为整数（分）' })
    .min(1, { error: '须大于 0' })
    .max(100_000_000_000_000, { error: '金额过大' })
    .meta({ title, description: '金额，单位：分' });
const dateText = (title: string) =>
  z
    .string({ error: '不能为空' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: '请输入正确的日期（yyyy-mm-dd）' })
    .refine(isDate, { error: '请输入正确的日期' })
    .meta({ title, description: 'yyyy-mm-dd（Asia/Shanghai）' });
const requiredText = (title: string, max = 200) =>
  z
    .string({ error: '不能为空' })
    .trim()
    .min(1, { error: '不能为空' })
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

/** POST /api/project-orders: staff open an annual order for an approved customer on a construction product. */
export const annualOrderCreateForm = z
  .object({
    customerId: id('施工企业（投保人）'),
    productId: id('险种'),
    startDate: dateText('起始日期'),
    endDate: dateText('终止日期'),
    quotaFen: fen('保费额度'),
    note: optionalText('备注', 500),
  })
  .superRefine((f, ctx) => {
    if (f.endDate <= f.startDate)
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: '须晚于起始日期' });
    else if (f.endDate > addDays(f.startDate, 366))
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: '年度订单期间不能超过一年' });
  });
export type AnnualOrderCreateForm = z.input<typeof annualOrderCreateForm>;

/**
 * POST /api/project-orders/from-application/:applicationId (生成年度订单): the quota; without it, the
 * application's premium.
 */
export const annualOrderFromApplicationForm = z.object({ quotaFen: fen('保费额度').optional() });
export type AnnualOrderFromApplicationForm = z.input<typeof annualOrderFromApplicationForm>;

/** POST /api/project-orders/:id/update: staff change the quota (not below what is consumed) and the contact. */
export const annualOrderUpdateForm = z.object({
  quotaFen: fen('保费额度'),
  contactName: optionalText('联系人', 50),
  /** The masked number as shown (138****5678) keeps the stored one. */
  contactPhone: z
    .preprocess(
      (v) => (typeof v === 'string' ? v.trim() || null : v),
      z
        .string()
        .refine((v) => isPhone(v) || v.includes('*'), { error: VALIDATION_MESSAGES.phone })
        .nullish(),
    )
    .meta({ title: '联系电话' }),
  note: optionalText('备注', 500),
  version,
});
export type AnnualOrderUpdateForm = z.input<typeof annualOrderUpdateForm>;

/** The project of a secondary order: what it declares and what prices it. */
export const declarationFields = z.object({
  projectName: requiredText('工程名称'),
  projectAddress: requiredText('工程地址'),
  projectCostFen: fen('工程造价'),
  startDate: dateText('开工日期'),
  endDate: dateText('竣工日期'),
  highRisk: z.boolean({ error: '请选择是或否' }).default(false).meta({ title: '危大工程' }),
  headcount: z
    .number({ error: '请输入整数' })
    .int({ error: '请输入整数' })
    .min(1, { error: '须大于 0' })
    .max(MAX_HEADCOUNT, { error: `不能超过 ${MAX_HEADCOUNT}` })
    .nullish()
    .meta({ title: '施工人数' }),
});
export type DeclarationFields = z.input<typeof declarationFields>;

/** POST /api/project-orders/:id/declarations: a new secondary order (DRAFT, priced). */
export const declarationCreateForm = declarationFields.extend({
  kind: z
    .union([z.literal(1), z.literal(2)], { error: '请选择 1（新增项目）或 2（批改）' })
    .default(1)
    .meta({ title: '申报类型' }),
});
export type DeclarationCreateForm = z.input<typeof declarationCreateForm>;

/** POST /api/project-declarations/:id/changes: a change (批改) of an approved project: what may change. */
export const declarationChangeForm = declarationFields.pick({
  projectAddress: true,
  projectCostFen: true,
  endDate: true,
  highRisk: true,
  headcount: true,
});
export type DeclarationChangeForm = z.input<typeof declarationChangeForm>;

/**
 * POST /api/project-declarations/:id/draft: the whole project again, on the version loaded (a change sends its
 * project's name and start unchanged).
 */
export const declarationSaveForm = declarationFields.extend({ version });
export type DeclarationSaveForm = z.input<typeof declarationSaveForm>;

/** submit / cancel / close: the version loaded (409 when stale). */
export const declarationVersionForm = z.object({ version });

// ---- answers ----

const annualOrderBase = z.object({
  id: z.number(),
  number: z.string(),
  customerId: z.number(),
  customerName: z.string(),
  customerUscc: z.string(),
  productId: z.number(),
  productCode: z.string(),
  productName: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  state: z.enum(ANNUAL_ORDER_STATES),
  stateLabel: z.string(),
  /** The premium the framework allows in all (fen). */
  quotaFen: z.number(),
  /** Premium reserved by declarations under review, returned or approved (fen). */
  consumedFen: z.number(),
  remainingFen: z.number(),
  /** Declarations other than drafts and cancelled ones. */
  declaredCount: z.number(),
  approvedCount: z.number(),
  /** Total project cost of the approved projects (fen). */
  approvedCostFen: z.number(),
  note: z.string().nullable(),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  /** The epinsure application it was made from (生成年度订单), if any. */
  applicationId: z.number().nullable(),
  applicationNumber: z.string().nullable(),
  closedAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  version: z.number(),
});
export const annualOrderRow = annualOrderBase;
export type AnnualOrderRow = z.infer<typeof annualOrderRow>;

/** A policy issued under an annual order (one per approved project). */
export const projectPolicyRow = z.object({
  policyId: z.number(),
  number: z.string(),
  declarationId: z.number(),
  projectName: z.string(),
  premiumFen: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  issuedAt: z.string(),
});
export type ProjectPolicyRow = z.infer<typeof projectPolicyRow>;

/** GET /api/project-orders/:id: the order, what the caller may do, and its policies. */
export const annualOrderDetail = annualOrderBase.extend({
  /** The caller may declare projects against it (project_order:apply, the contractor's side, active). */
  canDeclare: z.boolean(),
  /** The policy of the application it was made from, once issued. */
  sourcePolicyId: z.number().nullable(),
  sourcePolicyNumber: z.string().nullable(),
  /** Declarations still open (draft, under review, returned): the order cannot be closed while any are. */
  openCount: z.number(),
  policies: z.array(projectPolicyRow),
});
export type AnnualOrderDetail = z.infer<typeof annualOrderDetail>;

/** 'change': start a change (批改) of this approved project. */
export const DECLARATION_ROW_ACTIONS = ['edit', 'submit', 'cancel', 'change'] as const;
export type DeclarationRowAction = (typeof DECLARATION_ROW_ACTIONS)[number];

export const declarationRow = z.object({
  id: z.number(),
  number: z.string(),
  annualOrderId: z.number(),
  annualOrderNumber: z.string(),
  customerName: z.string(),
  kind: z.number(),
  /** A change's project (the kind-1 declaration it changes). */
  baseId: z.number().nullable(),
  baseNumber: z.string().nullable(),
  /** A change's premium difference (fen; negative: a refund); null for a new project. */
  premiumDiffFen: z.number().nullable(),
  projectName: z.string(),
  projectAddress: z.string(),
  projectCostFen: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  highRisk: z.boolean(),
  headcount: z.number().nullable(),
  /** The premium as last priced (fen). */
  premiumFen: z.number(),
  /** What the declaration holds of the quota now (fen). */
  reservedFen: z.number(),
  status: z.enum(DECLARATION_STATUSES),
  statusLabel: z.string(),
  reviewOpinion: z.string().nullable(),
  ownerName: z.string().nullable(),
  submittedAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  createdAt: z.string(),
  version: z.number(),
  /** The project's policy once issued. */
  policyId: z.number().nullable(),
  policyNumber: z.string().nullable(),
  openTaskId: z.number().nullable(),
  /** What the caller may do now. */
  actions: z.array(z.enum(DECLARATION_ROW_ACTIONS)),
});
export type DeclarationRow = z.infer<typeof declarationRow>;

export const declarationEvent = z.object({
  at: z.string(),
  actor: z.string().nullable(),
  action: z.string(),
  /** 提交 / 审核通过 … */
  actionLabel: z.string(),
  opinion: z.string().nullable(),
  premiumFen: z.number().nullable(),
});
export type DeclarationEvent = z.infer<typeof declarationEvent>;

/** An endorsement (批单) issued against a project's policy for an approved change. */
export const endorsementRow = z.object({
  id: z.number(),
  number: z.string(),
  policyId: z.number(),
  policyNumber: z.string(),
  /** The change (kind-2 declaration). */
  declarationId: z.number(),
  declarationNumber: z.string(),
  changes: z.array(endorsementChange),
  premiumBeforeFen: z.number(),
  premiumAfterFen: z.number(),
  /** Negative: a refund. */
  premiumDiffFen: z.number(),
  effectiveDate: z.string(),
  issuedAt: z.string(),
  pdfSha256: z.string(),
  pdfSize: z.number(),
});
export type EndorsementRow = z.infer<typeof endorsementRow>;

/** GET /api/project-declarations/:id: the declaration, its quote, its annual order and its history. */
export const declarationDetail = declarationRow.extend({
  quote: quoteResult.nullable(),
  order: annualOrderRow,
  events: z.array(declarationEvent),
  /** A change: the project as it stood when the change was made (shown beside the new values). */
  base: projectValues.nullable(),
  /** A change: its endorsement once issued. */
  endorsement: endorsementRow.nullable(),
  /** A project: its changes' endorsements, oldest first. */
  endorsements: z.array(endorsementRow),
  /** A project: its open change (draft, under review or returned), if any. */
  openChangeId: z.number().nullable(),
});
export type DeclarationDetail = z.infer<typeof declarationDetail>;

export const DECLARATION_EVENT_LABELS: Readonly<Record<string, string>> = Object.freeze({
  create: '创建申报',
  update: '修改申报',
  submit: '提交审核',
  cancel: '撤销申报',
  review_approve: '审核通过',
  review_return: '审核退回',
  review_reject: '审核拒绝',
  issue: '出具保单',
  endorse: '批改生效',
  endorsement: '出具批单',
});

export const ANNUAL_ORDER_SORT_FIELDS = ['id', 'number', 'startDate', 'createdAt', 'quotaFen'] as const;
export const DECLARATION_SORT_FIELDS = ['id', 'number', 'createdAt', 'submittedAt', 'premiumFen'] as const;
