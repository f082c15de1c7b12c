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
/** The server accepts kind 1 only; a change (2) is shown read-only with this message. */
export const UNSUPPORTED_KIND = '项目批改申报暂未开放：如需变更已审核通过的项目，请联系核保人员线下办理批改';

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

/** `/piibs/projectManage/apply/:id/:detail/:type/:status` (`id` 0 with `?orderId=` for a new declaration). */
export function applyPath(
  id: number,
  opts: { detail?: boolean; type?: DeclarationKind; view?: ApplyView; orderId?: number } = {},
): string {
  const path = `/piibs/projectManage/apply/${id}/${opts.detail ?? false}/${opts.type ?? 1}/${opts.view ?? '0'}`;
  return opts.orderId ? `${path}?orderId=${opts.orderId}` : path;
}
export const orderDetailPath = (id: number) => `/piibs/projectManage/orderDetail/${id}`;
export const tenderAuditPath = (taskId: number, audit: boolean) =>
  `/piibs/task/tenderAudit/${taskId}/${audit}`;

// ---- annual order periods and project periods (Asia/Shanghai dates) ----

/** The state of an annual order on a day: before, within or after its period. */
export const ANNUAL_ORDER_STATES = ['PENDING', 'ACTIVE', 'EXPIRED'] as const;
export type AnnualOrderState = (typeof ANNUAL_ORDER_STATES)[number];
export const ANNUAL_ORDER_STATE_LABELS: Readonly<Record<AnnualOrderState, string>> = Object.freeze({
  PENDING: '未生效',
  ACTIVE: '生效中',
  EXPIRED: '已到期',
});
export function annualOrderState(
  order: { startDate: string; endDate: string },
  today: string,
): AnnualOrderState {
  if (today < order.startDate) return 'PENDING';
  return today > order.endDate ? 'EXPIRED' : 'ACTIVE';
}

/** A project's cover may run up to five years (construction periods exceed a year). */
export const MAX_PROJECT_YEARS = 5;

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
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  const latest = addDays(`${String(y + MAX_PROJECT_YEARS).padStart(4, '0')}-${pad(m)}-${pad(d)}`, -1);
  if (end > latest) return `竣工日期：保险期间不能超过 ${MAX_PROJECT_YEARS} 年`;
  return null;
}
const pad = (n: number) => String(n).padStart(2, '0');

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

/** POST /api/project-orders: staff open an annual order for an approved customer on a construction product. */
export const annualOrderCreateForm = z
  .object({
    customerId: id('施工企业（投保人）'),
    productId: id('险种'),
    startDate: dateText('起始日期'),
    endDate: dateText('终止日期'),
    quotaFen: fen('保费额度'),
    note: z
      .preprocess(
        (v) => (typeof v === 'string' ? v.trim() || null : v),
        z.string().max(500, { error: '不能超过 500 个字符' }).nullish(),
      )
      .meta({ title: '备注' }),
  })
  .superRefine((f, ctx) => {
    if (f.endDate <= f.startDate)
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: '须晚于起始日期' });
    else if (f.endDate > addDays(f.startDate, 366))
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: '年度订单期间不能超过一年' });
  });
export type AnnualOrderCreateForm = z.input<typeof annualOrderCreateForm>;

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

/** POST /api/project-declarations/:id/draft: the whole project again, on the version loaded. */
export const declarationSaveForm = declarationFields.extend({ version });
export type DeclarationSaveForm = z.input<typeof declarationSaveForm>;

/** submit / cancel: the version loaded (409 when stale). */
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
  policies: z.array(projectPolicyRow),
});
export type AnnualOrderDetail = z.infer<typeof annualOrderDetail>;

export const DECLARATION_ROW_ACTIONS = ['edit', 'submit', 'cancel'] as const;
export type DeclarationRowAction = (typeof DECLARATION_ROW_ACTIONS)[number];

export const declarationRow = z.object({
  id: z.number(),
  number: z.string(),
  annualOrderId: z.number(),
  annualOrderNumber: z.string(),
  customerName: z.string(),
  kind: z.number(),
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

/** GET /api/project-declarations/:id: the declaration, its quote, its annual order and its history. */
export const declarationDetail = declarationRow.extend({
  quote: quoteResult.nullable(),
  order: annualOrderRow,
  events: z.array(declarationEvent),
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
});

export const ANNUAL_ORDER_SORT_FIELDS = ['id', 'number', 'startDate', 'createdAt', 'quotaFen'] as const;
export const DECLARATION_SORT_FIELDS = ['id', 'number', 'createdAt', 'submittedAt', 'premiumFen'] as const;
