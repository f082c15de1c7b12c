// Sales supplements (补录, policy/marge*) and renewals (续保): the rules, request bodies and answers shared by
// the supplement pages, the renewal button and the server. Import it as `@piibs/shared/sales`.
//
//   GET  /api/sales                              issued policies the caller may see, with their supplement status
//   GET  /api/policies/:id/sales                 the policy summary, its supplement (or null) and salesperson history
//   PUT  /api/policies/:id/sales                 creates (version null) or updates (version as loaded) the supplement
//   POST /api/policies/:id/sales/salesperson     updateSale: a new salesperson with a reason (kept in the history)
//   GET  /api/policies/:id/renewal               the renewal window and the live renewal draft, if any
//   POST /api/policies/:id/renew                 a DRAFT application pre-filled from the policy's, re-rated
//
// Ratios are integer micro-percent (percent × 10⁶): a commission of 3.5% travels as 3500000.
import { z } from 'zod';
import { addDays, defaultEnd } from './application-status.ts';
import { POLICY_STATUSES } from './policy.ts';
import type { FieldProblem } from './problem.ts';
import { MAX_COMMISSION_RATE, MAX_HEADCOUNT } from './rating.ts';

// ---- supplements ----

/** STANDARD: the ordinary supplement (marge/xxt); NBNMG: the migrant-worker wage-guarantee scheme (农民工工资保证). */
export const SUPPLEMENT_VARIANTS = ['STANDARD', 'NBNMG'] as const;
export type SupplementVariant = (typeof SUPPLEMENT_VARIANTS)[number];
export const SUPPLEMENT_VARIANT_LABELS: Readonly<Record<SupplementVariant, string>> = Object.freeze({
  STANDARD: '普通补录',
  NBNMG: '农民工工资保证',
});

/** Whether a policy has its sales information yet. */
export const SUPPLEMENT_STATUSES = ['NONE', 'DONE'] as const;
export type SupplementStatus = (typeof SUPPLEMENT_STATUSES)[number];
export const SUPPLEMENT_STATUS_LABELS: Readonly<Record<SupplementStatus, string>> = Object.freeze({
  NONE: '未补录',
  DONE: '已补录',
});

/** The `business_source` dictionary as seeded (value, label); an installation may edit its own. */
export const BUSINESS_SOURCES: readonly (readonly [string, string])[] = Object.freeze([
  ['DIRECT', '直接业务'],
  ['INDIVIDUAL_AGENT', '个人代理业务'],
  ['PROFESSIONAL_AGENCY', '专业代理业务'],
  ['ANCILLARY_AGENCY', '兼业代理业务'],
  ['BROKER', '经纪业务'],
  ['ONLINE', '互联网业务'],
  ['GOVERNMENT', '政府统保业务'],
  ['OTHER', '其他'],
]);
export const BUSINESS_SOURCE_DICT = 'business_source';

export const SUPPLEMENT_NOT_FOUND = '该保单尚未补录，不能修改销售人员';
export const SUPPLEMENT_EXISTS = '该保单已补录，请刷新后再修改';
export const SAME_SALESPERSON = '新销售人员：与原销售人员相同';

/** A bank account number for lists: the first and last four digits, the rest hidden (6222********7890). */
export function maskAccountNo(accountNo: string | null | undefined): string | null {
  if (!accountNo) return null;
  const digits = accountNo.replace(/\s+/g, '');
  if (digits.length <= 8)
    return `${digits.slice(0, 2)}${'*'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-2)}`;
  return `${digits.slice(0, 4)}${'*'.repeat(digits.length - 8)}${digits.slice(-4)}`;
}

/** The refusal of a commission above the product's cap (the form and the server word it alike). */
export const commissionCapProblem = (capText: string): FieldProblem => ({
  field: 'commissionRate',
  label: '手续费比例',
  message: `不能超过该险种的上限 ${capText}%`,
});

const trimmedOrNull = (v: unknown) => (typeof v === 'string' ? v.trim() || null : v);
const requiredText = (title: string, max: number) =>
  z
    .string({ error: '不能为空' })
    .trim()
    .min(1, { error: '不能为空' })
    .max(max, { error: `不能超过 ${max} 个字符` })
    .meta({ title });
const optionalText = (title: string, max: number) =>
  z
    .preprocess(
      trimmedOrNull,
      z
        .string()
        .max(max, { error: `不能超过 ${max} 个字符` })
        .nullable(),
    )
    .optional()
    .meta({ title });
/** An employee / licence / filing number: letters, digits and - _ / only. */
const code = (title: string, max: number) =>
  z
    .string({ error: '不能为空' })
    .trim()
    .min(1, { error: '不能为空' })
    .max(max, { error: `不能超过 ${max} 个字符` })
    .regex(/^[A-Za-z0-9\-_/]+$/, { error: '只能包含字母、数字和 - _ /' })
    .meta({ title });
const optionalCode = (title: string, max: number) =>
  z
    .preprocess(
      trimmedOrNull,
      z
        .string()
        .max(max, { error: `不能超过 ${max} 个字符` })
        .regex(/^[A-Za-z0-9\-_/]+$/, { error: '只能包含字母、数字和 - _ /' })
        .nullable(),
    )
    .optional()
    .meta({ title });

/** The fields of each variant the server requires, with their titles (for messages and the form). */
export const SUPPLEMENT_FIELD_TITLES = Object.freeze({
  salespersonName: '销售人员姓名',
  salespersonNo: '销售人员工号',
  agentUserId: '代理人',
  agentName: '代理人/代理机构名称',
  agentLicenceNo: '代理人执业证号',
  commissionRate: '手续费比例',
  businessSource: '业务来源',
  nbProjectName: '项目名称',
  migrantWorkerCount: '农民工人数',
  wageBank: '工资专户开户行',
  wageAccountNo: '工资专户账号',
  labourContractFilingNo: '劳动合同备案号',
  supervisingAuthority: '主管部门',
  remark: '备注',
  reason: '变更原因',
  version: '版本号',
} as const);
const F = SUPPLEMENT_FIELD_TITLES;

export const NBNMG_FIELDS = [
  'nbProjectName',
  'migrantWorkerCount',
  'wageBank',
  'wageAccountNo',
  'labourContractFilingNo',
  'supervisingAuthority',
] as const;

/** PUT /api/policies/:id/sales. `version` null creates the supplement; otherwise it is the version as loaded. */
export const supplementForm = z
  .object({
    version: z
      .number({ error: '请提供版本号' })
      .int()
      .min(0)
      .nullable()
      .meta({ title: F.version, description: '首次补录传 null；修改时传读取到的版本号（过期答 409）' }),
    variant: z
      .enum(SUPPLEMENT_VARIANTS, { error: '请选择 STANDARD 或 NBNMG' })
      .default('STANDARD')
      .meta({ title: '补录类型' }),
    salespersonName: requiredText(F.salespersonName, 50),
    salespersonNo: code(F.salespersonNo, 32),
    agentUserId: z
      .number({ error: '请选择代理人' })
      .int()
      .positive()
      .nullable()
      .optional()
      .meta({ title: F.agentUserId, description: '系统内代理人用户的 ID（可选）' }),
    agentName: optionalText(F.agentName, 100),
    agentLicenceNo: optionalCode(F.agentLicenceNo, 50),
    commissionRate: z
      .number({ error: '请输入数字' })
      .int({ error: '须为整数（百分比 × 10⁶）' })
      .min(0, { error: '不能小于 0' })
      .max(MAX_COMMISSION_RATE, { error: '不能超过 5%' })
      .meta({
        title: F.commissionRate,
        description: '百分比 × 10⁶（如 3.5% → 3500000），不超过该险种的上限',
      }),
    businessSource: z
      .string({ error: '不能为空' })
      .trim()
      .min(1, { error: '不能为空' })
      .max(32)
      .meta({ title: F.businessSource, description: '字典 business_source 的值' }),
    nbProjectName: optionalText(F.nbProjectName, 200),
    migrantWorkerCount: z
      .number({ error: '请输入数字' })
      .int({ error: '须为整数' })
      .min(1, { error: '至少为 1 人' })
      .max(MAX_HEADCOUNT, { error: '人数过大' })
      .nullable()
      .optional()
      .meta({ title: F.migrantWorkerCount }),
    wageBank: optionalText(F.wageBank, 100),
    wageAccountNo: z
      .preprocess(
        (v) => (typeof v === 'string' ? v.replace(/\s+/g, '') || null : v),
        z
          .string()
          .regex(/^\d{8,32}$/, { error: '请输入 8–32 位数字的银行账号' })
          .nullable(),
      )
      .optional()
      .meta({ title: F.wageAccountNo }),
    labourContractFilingNo: optionalCode(F.labourContractFilingNo, 50),
    supervisingAuthority: optionalText(F.supervisingAuthority, 100),
    remark: optionalText(F.remark, 500),
  })
  .superRefine((v, ctx) => {
    const missing = (path: string) => ctx.addIssue({ code: 'custom', path: [path], message: '不能为空' });
    if (v.agentName && !v.agentLicenceNo) missing('agentLicenceNo');
    if (v.agentLicenceNo && !v.agentName && !v.agentUserId) missing('agentName');
    if (v.variant === 'NBNMG')
      for (const key of NBNMG_FIELDS) if (v[key] === null || v[key] === undefined) missing(key);
  });
export type SupplementForm = z.input<typeof supplementForm>;

/** POST /api/policies/:id/sales/salesperson (updateSale). */
export const salespersonChangeForm = z.object({
  version: z.number({ error: '请提供版本号' }).int().min(0).meta({ title: F.version }),
  salespersonName: requiredText('新销售人员姓名', 50),
  salespersonNo: code('新销售人员工号', 32),
  reason: requiredText(F.reason, 200),
});
export type SalespersonChangeForm = z.input<typeof salespersonChangeForm>;

export const SALES_SORT_FIELDS = [
  'id',
  'number',
  'issuedAt',
  'endDate',
  'premiumFen',
  'supplementedAt',
] as const;

/** A row of GET /api/sales: a policy and its supplement status (the wage account masked). */
export const salesRow = z.object({
  policyId: z.number(),
  number: z.string(),
  productId: z.number(),
  productName: z.string(),
  holderName: z.string(),
  holderUscc: z.string(),
  insuredName: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  premiumFen: z.number(),
  policyStatus: z.enum(POLICY_STATUSES),
  policyStatusLabel: z.string(),
  issuedAt: z.string(),
  supplementStatus: z.enum(SUPPLEMENT_STATUSES),
  supplementStatusLabel: z.string(),
  supplementId: z.number().nullable(),
  variant: z.enum(SUPPLEMENT_VARIANTS).nullable(),
  salespersonName: z.string().nullable(),
  salespersonNo: z.string().nullable(),
  agentName: z.string().nullable(),
  /** Micro-percent. */
  commissionRate: z.number().nullable(),
  commissionRateText: z.string().nullable(),
  businessSource: z.string().nullable(),
  businessSourceLabel: z.string().nullable(),
  /** Masked (6222********7890). */
  wageAccountNo: z.string().nullable(),
  supplementedAt: z.string().nullable(),
  version: z.number().nullable(),
});
export type SalesRow = z.infer<typeof salesRow>;

export const salespersonChangeRow = z.object({
  id: z.number(),
  oldName: z.string(),
  oldNo: z.string(),
  newName: z.string(),
  newNo: z.string(),
  reason: z.string(),
  actor: z.string().nullable(),
  at: z.string(),
});
export type SalespersonChangeRow = z.infer<typeof salespersonChangeRow>;

/** A supplement as stored (the wage account in full: only callers who may see the policy read it). */
export const supplementDetail = z.object({
  id: z.number(),
  policyId: z.number(),
  variant: z.enum(SUPPLEMENT_VARIANTS),
  salespersonName: z.string(),
  salespersonNo: z.string(),
  agentUserId: z.number().nullable(),
  agentName: z.string().nullable(),
  agentLicenceNo: z.string().nullable(),
  commissionRate: z.number(),
  commissionRateText: z.string(),
  businessSource: z.string(),
  businessSourceLabel: z.string().nullable(),
  nbProjectName: z.string().nullable(),
  migrantWorkerCount: z.number().nullable(),
  wageBank: z.string().nullable(),
  wageAccountNo: z.string().nullable(),
  labourContractFilingNo: z.string().nullable(),
  supervisingAuthority: z.string().nullable(),
  remark: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
  version: z.number(),
});
export type SupplementDetail = z.infer<typeof supplementDetail>;

/** GET /api/policies/:id/sales (and the answer of PUT and updateSale). */
export const policySales = z.object({
  policy: z.object({
    id: z.number(),
    number: z.string(),
    productId: z.number(),
    productName: z.string(),
    holderName: z.string(),
    holderUscc: z.string(),
    insuredName: z.string(),
    startDate: z.string(),
    endDate: z.string(),
    premiumFen: z.number(),
    status: z.enum(POLICY_STATUSES),
    statusLabel: z.string(),
    issuedAt: z.string(),
    /** The product's commission cap, micro-percent (≤ 5%). */
    commissionCap: z.number(),
    commissionCapText: z.string(),
  }),
  supplement: supplementDetail.nullable(),
  /** What a first supplement starts from: the application's commission rate and agent. */
  defaults: z.object({
    commissionRate: z.number().nullable(),
    agentUserId: z.number().nullable(),
    agentName: z.string().nullable(),
  }),
  changes: z.array(salespersonChangeRow),
});
export type PolicySales = z.infer<typeof policySales>;

// ---- renewals ----

/** A policy may be renewed from this many days before its end day through the end day itself. */
export const RENEWAL_WINDOW_DAYS = 90;
export const RENEWAL_WINDOW_MESSAGE = `保单到期前 ${RENEWAL_WINDOW_DAYS} 天内才能续保`;

/**
 * The renewal window of a policy ending on `endDate` (Asia/Shanghai dates): from `endDate − 90 days` to the end
 * day inclusive. After the end day the cover has lapsed and the renewal period (the day after the end) would
 * be back-dated, so a lapsed policy is insured anew instead.
 */
export function renewalWindow(endDate: string): { opensOn: string; closesOn: string } {
  return { opensOn: addDays(endDate, -RENEWAL_WINDOW_DAYS), closesOn: endDate };
}

/** 'open' inside the window, 'early' before it, 'lapsed' after the end day. */
export function renewalState(endDate: string, today: string): 'open' | 'early' | 'lapsed' {
  const w = renewalWindow(endDate);
  if (today < w.opensOn) return 'early';
  if (today > w.closesOn) return 'lapsed';
  return 'open';
}

/** The period of the renewal: the day after the old end, for a year less a day. */
export function renewalPeriod(oldEndDate: string): { startDate: string; endDate: string } {
  const startDate = addDays(oldEndDate, 1);
  return { startDate, endDate: defaultEnd(startDate) };
}

export const renewalInfo = z.object({
  policyId: z.number(),
  endDate: z.string(),
  opensOn: z.string(),
  closesOn: z.string(),
  state: z.enum(['open', 'early', 'lapsed']),
  /** The caller may renew (owner, its agent or the enterprise insured) and no live renewal exists. */
  canRenew: z.boolean(),
  renewal: z
    .object({
      applicationId: z.number(),
      number: z.string(),
      status: z.string(),
      policyholderType: z.number(),
      channel: z.string(),
    })
    .nullable(),
});
export type RenewalInfo = z.infer<typeof renewalInfo>;

/** POST /api/policies/:id/renew answers the new draft (its wizard path is built from channel and type). */
export const renewalResult = z.object({
  applicationId: z.number(),
  number: z.string(),
  status: z.string(),
  channel: z.string(),
  policyholderType: z.number(),
  productId: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  premiumFen: z.number().nullable(),
  rateTableId: z.number().nullable(),
  renewalOfPolicyId: z.number(),
  /** Why the draft has no quote yet (e.g. no active rate table), or null. */
  quoteProblem: z.string().nullable(),
  version: z.number(),
});
export type RenewalResult = z.infer<typeof renewalResult>;
