// Applications (投保单): the request bodies and answers of /api/applications, shared by the wizards and the
// server. Import it as `@piibs/shared/application`. The pure parts (states, actions, periods) are in
// `@piibs/shared/application-status`, co-insurance in `@piibs/shared/coinsurance`; rating in `@piibs/shared/rating`.
import { z } from 'zod';
import {
  APPLICATION_ACTIONS,
  APPLICATION_STATUSES,
  CHANNELS,
  POLICYHOLDER_TYPES,
} from './application-status.ts';
import { customerRow } from './customer.ts';
import { fenField } from './money-field.ts';
import { MATERIAL_STAGES, quoteResult } from './product.ts';
import { COVERAGE_TYPES, MAX_COMMISSION_RATE, MAX_HEADCOUNT, MAX_PREVENTION_RATIO } from './rating.ts';
import { zfield } from './validators.ts';

export const APPLICATION_SORT_FIELDS = [
  'id',
  'number',
  'createdAt',
  'updatedAt',
  'submittedAt',
  'premiumFen',
] as const;

const id = (title: string) => z.number().int().positive().meta({ title });
const version = z.number({ error: '请提供版本号' }).int().min(0).meta({ title: '版本号' });
const microPercent = (title: string, max: number, maxText: string) =>
  z
    .number({ error: '请输入数字' })
    .int({ error: '须为整数（百分比 × 10⁶）' })
    .min(0, { error: '不能小于 0' })
    .max(max, { error: `不能超过 ${maxText}` })
    .meta({ title, description: '比例：百分比 × 10⁶（如 15% → 15000000）' });
const text = (title: string, max = 200) =>
  z
    .preprocess(
      (v) => (typeof v === 'string' ? v.trim() || null : v),
      z
        .string()
        .max(max, { error: `不能超过 ${max} 个字符` })
        .nullable(),
    )
    .meta({ title });
// ---- the individual policyholder's identity card (居民身份证, GB 11643) ----

const ID_CARD = /^[1-9]\d{5}(\d{4})(\d{2})(\d{2})\d{3}[\dX]$/;
const ID_CARD_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
const ID_CARD_CHECK = '10X98765432';
export const ID_CARD_MESSAGE = '请输入正确的18位居民身份证号码';

/**
 * An 18-character resident identity card number (GB 11643-1999): six region digits, a real birth date from
 * 1900 on, a sequence and the ISO 7064 MOD 11-2 check character (X for 10). Upper-case X only: callers
 * upper-case the typed text first.
 */
export function isIdCardNumber(value: string): boolean {
  const m = ID_CARD.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const birth = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1900 || birth.getUTCMonth() !== mo - 1 || birth.getUTCDate() !== d) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(value[i]) * ID_CARD_WEIGHTS[i]!;
  return ID_CARD_CHECK[sum % 11] === value[17];
}

const dateText = (title: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: '请输入正确的日期（yyyy-mm-dd）' })
    .nullable()
    .meta({ title, description: 'yyyy-mm-dd（Asia/Shanghai）' });

/** POST /api/applications: a new draft for a product and an approved applicant the caller may see. */
export const applicationCreateForm = z.object({
  productId: id('险种'),
  customerId: id('投保人'),
  policyholderType: z
    .union([z.literal(1), z.literal(2)], { error: '请选择 1（企业）或 2（个人）' })
    .default(1)
    .meta({ title: '投保人类型' }),
  channel: z.enum(CHANNELS, { error: '请选择正确的渠道' }).optional().meta({ title: '渠道' }),
});
export type ApplicationCreateForm = z.input<typeof applicationCreateForm>;

/** The fields a wizard step saves; every one optional (a step sends its own), null clears. */
export const applicationFields = z.object({
  policyholderType: z
    .union([z.literal(1), z.literal(2)])
    .optional()
    .meta({ title: '投保人类型' }),
  insuredName: text('被保险人名称').optional(),
  insuredUscc: z
    .preprocess(
      (v) => (typeof v === 'string' ? v.trim().toUpperCase() || null : v),
      zfield.taxNumber.nullable(),
    )
    .optional()
    .meta({ title: '被保险人统一社会信用代码', description: '企业投保（投保人类型 1）' }),
  /** The individual policyholder's (type 2) identity card number; an enterprise (type 1) has a credit code. */
  insuredIdNumber: z
    .preprocess(
      (v) => (typeof v === 'string' ? v.trim().toUpperCase() || null : v),
      z.string().refine(isIdCardNumber, { error: ID_CARD_MESSAGE }).nullable(),
    )
    .optional()
    .meta({ title: '被保险人身份证号', description: '个人投保（投保人类型 2）' }),
  insuredAddress: text('被保险人地址').optional(),
  contactName: text('联系人', 50).optional(),
  contactPhone: z
    .preprocess((v) => (typeof v === 'string' ? v.trim() || null : v), zfield.phone.nullable())
    .optional()
    .meta({ title: '联系电话' }),
  contactEmail: z
    .preprocess((v) => (typeof v === 'string' ? v.trim() || null : v), zfield.email.nullable())
    .optional()
    .meta({ title: '电子邮箱' }),
  specialTerms: text('特别约定', 2000).optional(),
  startDate: dateText('保险起期').optional(),
  endDate: dateText('保险止期').optional(),
  industrySection: z
    .string()
    .regex(/^[A-T]$/, { error: '请选择行业门类' })
    .nullable()
    .optional()
    .meta({ title: '行业门类' }),
  industryDivision: z
    .string()
    .regex(/^\d{2}$/, { error: '请选择行业大类' })
    .nullable()
    .optional()
    .meta({ title: '行业大类' }),
  headcount: z
    .number({ error: '请输入数字' })
    .int({ error: '须为整数' })
    .min(1, { error: '至少为 1 人' })
    .max(MAX_HEADCOUNT, { error: '请输入正确的单位总人数' })
    .nullable()
    .optional()
    .meta({ title: '参保人数' }),
  payrollFen: fenField('工资总额').nullable().optional(),
  perPersonLimitFen: fenField('每人伤亡限额').nullable().optional(),
  coverages: z
    .array(z.enum(COVERAGE_TYPES, { error: '请选择正确的责任类型' }))
    .max(20)
    .optional()
    .meta({ title: '附加责任' }),
  factors: z.record(z.string().max(32), z.string().max(32)).optional().meta({ title: '浮动因子' }),
  guaranteeAmountFen: fenField('保证金额').nullable().optional(),
  projectName: text('工程名称').optional(),
  projectAddress: text('工程地址').optional(),
  projectCostFen: fenField('工程造价').nullable().optional(),
  contractor: text('施工单位').optional(),
  highRisk: z.boolean().optional().meta({ title: '高风险工程' }),
  preventionRatio: microPercent('事故预防费用比例', MAX_PREVENTION_RATIO, '21%').nullable().optional(),
  commissionRate: microPercent('手续费比例', MAX_COMMISSION_RATE, '5%').nullable().optional(),
});
export type ApplicationFields = z.input<typeof applicationFields>;

/** POST /api/applications/:id/draft: a step's fields and the version as loaded (409 when stale). */
export const applicationDraftForm = applicationFields.extend({ version });
export type ApplicationDraftForm = z.input<typeof applicationDraftForm>;

/**
 * POST /api/applications/:id/coinsurers: replaces the table; share is the typed percentage ('33.333333'). The
 * issuing insurer is a row of its own (insurerCode ISSUER_CODE of `@piibs/shared/coinsurance`).
 */
export const coinsurersForm = z.object({
  version,
  shares: z
    .array(
      z.object({
        insurerCode: z
          .string()
          .trim()
          .min(1, { error: '请选择共保公司' })
          .max(32)
          .meta({ title: '共保公司', description: 'coinsurer 字典的代码；本公司（出单机构）为 ISSUER' }),
        lead: z.boolean().default(false).meta({ title: '主承保' }),
        share: zfield.percent1To100.meta({ title: '共保份额', description: '百分比，1-100，最多六位小数' }),
      }),
    )
    .max(20, { error: '最多 20 家' })
    .meta({ title: '共保信息' }),
});
export type CoinsurersForm = z.input<typeof coinsurersForm>;

/** POST /api/applications/:id/submit and /cancel. */
export const versionForm = z.object({ version });
export type VersionForm = z.input<typeof versionForm>;

export const coinsurerRow = z.object({
  insurerCode: z.string(),
  insurerName: z.string().nullable(),
  lead: z.boolean(),
  /** Micro-percent. */
  share: z.number(),
  /** '33.333333'. */
  shareText: z.string(),
  premiumFen: z.number(),
  preventionFeeFen: z.number(),
});
export type CoinsurerRow = z.infer<typeof coinsurerRow>;

export const applicationRow = z.object({
  id: z.number(),
  number: z.string(),
  productId: z.number(),
  productCode: z.string(),
  productName: z.string(),
  productClass: z.string(),
  channel: z.enum(CHANNELS),
  policyholderType: z.union([z.literal(POLICYHOLDER_TYPES[0]), z.literal(POLICYHOLDER_TYPES[1])]),
  customerId: z.number(),
  applicantName: z.string(),
  applicantUscc: z.string(),
  status: z.enum(APPLICATION_STATUSES),
  statusLabel: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  premiumFen: z.number().nullable(),
  preventionFeeFen: z.number().nullable(),
  reviewOpinion: z.string().nullable(),
  ownerId: z.number().nullable(),
  ownerName: z.string().nullable(),
  agentId: z.number().nullable(),
  submittedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.number(),
  /** What the caller may do now: continue / view / cancel / pay. */
  actions: z.array(z.enum(APPLICATION_ACTIONS)),
});
export type ApplicationRow = z.infer<typeof applicationRow>;

export const paymentOrderRow = z.object({
  id: z.number(),
  number: z.string(),
  amountFen: z.number(),
  status: z.string(),
  expiresAt: z.string(),
  createdAt: z.string(),
});
export type PaymentOrderRow = z.infer<typeof paymentOrderRow>;

export const applicationEventRow = z.object({
  id: z.number(),
  action: z.string(),
  fromStatus: z.enum(APPLICATION_STATUSES).nullable(),
  toStatus: z.enum(APPLICATION_STATUSES),
  actor: z.string().nullable(),
  opinion: z.string().nullable(),
  at: z.string(),
});
export type ApplicationEventRow = z.infer<typeof applicationEventRow>;

/** GET /api/applications/:id: everything a wizard step or the read-only view needs. */
export const applicationDetail = applicationRow.extend({
  insuredName: z.string().nullable(),
  /** Enterprise policyholders (type 1); null for an individual. */
  insuredUscc: z.string().nullable(),
  /** Individual policyholders (type 2); null for an enterprise. */
  insuredIdNumber: z.string().nullable(),
  insuredAddress: z.string().nullable(),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  contactEmail: z.string().nullable(),
  specialTerms: z.string().nullable(),
  industrySection: z.string().nullable(),
  industryDivision: z.string().nullable(),
  headcount: z.number().nullable(),
  payrollFen: z.number().nullable(),
  perPersonLimitFen: z.number().nullable(),
  coverages: z.array(z.string()),
  factors: z.record(z.string(), z.string()),
  guaranteeAmountFen: z.number().nullable(),
  projectName: z.string().nullable(),
  projectAddress: z.string().nullable(),
  projectCostFen: z.number().nullable(),
  contractor: z.string().nullable(),
  highRisk: z.boolean(),
  preventionRatio: z.number().nullable(),
  commissionRate: z.number().nullable(),
  allowsCoinsurance: z.boolean(),
  /** The product's rule: the issuing insurer (ISSUER_CODE in the table) must lead a co-insurance. */
  issuerLeads: z.boolean(),
  /** The issuing insurer's name (the organisation running the system), for its row of the co-insurance table. */
  issuerName: z.string(),
  /** The last quote: on every change of a rating input while a draft, re-rated on the active table at submit. */
  quote: quoteResult.nullable(),
  rateTableId: z.number().nullable(),
  coinsurers: z.array(coinsurerRow),
  customer: customerRow,
  paymentOrder: paymentOrderRow.nullable(),
  openTaskId: z.number().nullable(),
  /** The documents its product requires, by stage. */
  requiredMaterials: z.array(z.object({ docType: z.string(), stage: z.enum(MATERIAL_STAGES) })),
  /** The document types the underwriter asked for (on return, or while reviewing); cleared on the decision. */
  requestedDocTypes: z.array(z.string()),
  /** The document types on file for its applicant (customer materials, e.g. the licence): they count too. */
  customerDocTypes: z.array(z.string()),
  /** The policy issued on it (the application view links to it); null before issuance. */
  policy: z.object({ id: z.number(), number: z.string() }).nullable().optional(),
});
export type ApplicationDetail = z.infer<typeof applicationDetail>;
