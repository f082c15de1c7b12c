// Customers (投保人): request bodies and answers shared by the web's customer pages and the server's routes.
// Import it as `@piibs/shared/customer`. Field titles name the field in the server's 400 messages.
import { z } from 'zod';
import { sectionOfDivision } from './industry.ts';
import { REGION_CODE } from './product.ts';
import { REVIEW_STATUSES } from './review.ts';
import { isPhone, isTaxNumber, MESSAGES, zfield } from './validators.ts';

export const CUSTOMER_SORT_FIELDS = [
  'id',
  'name',
  'uscc',
  'region',
  'headcount',
  'reviewStatus',
  'createdAt',
  'updatedAt',
] as const;

const trimmedOrNull = (v: unknown) => {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  return t === '' ? null : t;
};
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
      trimmedOrNull,
      z
        .string()
        .max(max, { error: `不能超过 ${max} 个字符` })
        .nullish(),
    )
    .meta({ title });

/**
 * The customer's code: a GB 32100 unified social credit code (check character verified) or, as the spec's
 * tax-number rule allows, a legacy 15-character (3 letters + 12 digits) or 18-digit tax number. Trimmed and
 * upper-cased, so the uniqueness check is case-blind.
 */
export const usccField = z
  .preprocess(
    (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
    z.string({ error: '不能为空' }).refine(isTaxNumber, { error: MESSAGES.uscc }),
  )
  .meta({ title: '统一社会信用代码' });

/** SHA-256 fingerprint of the bound CA certificate: 64 hex digits (colons and spaces ignored). */
const caFingerprint = z
  .preprocess(
    (v) => (typeof v === 'string' ? trimmedOrNull(v.replace(/[:\s]/g, '').toLowerCase()) : v),
    z
      .string()
      .regex(/^[0-9a-f]{64}$/, { error: '请输入证书的 SHA-256 指纹（64 位十六进制）' })
      .nullish(),
  )
  .meta({ title: 'CA证书指纹' });

const customerFields = z.object({
  uscc: usccField,
  name: text('投保人名称', 100, 2),
  industrySection: z
    .string()
    .trim()
    .regex(/^[A-T]$/, { error: '请选择行业门类' })
    .meta({ title: '行业门类' }),
  industryDivision: z
    .string()
    .trim()
    .regex(/^\d{2}$/, { error: '请选择行业大类' })
    .meta({ title: '行业大类' }),
  region: z.string().trim().regex(REGION_CODE, { error: '请选择地区' }).meta({ title: '所在地区' }),
  address: text('详细地址', 200),
  legalRepresentative: text('法定代表人', 30),
  contactName: text('联系人', 30),
  phone: z
    .string()
    .trim()
    .min(1, { error: '不能为空' })
    .refine(isPhone, { error: MESSAGES.phone })
    .meta({ title: '联系电话' }),
  headcount: zfield.headcount.meta({ title: '单位总人数' }),
  licenceNo: optionalText('营业执照号', 50),
  caFingerprint,
});
type CustomerFields = z.output<typeof customerFields>;

function customerRules(
  c: Pick<CustomerFields, 'industrySection' | 'industryDivision'>,
  ctx: z.RefinementCtx,
) {
  if (sectionOfDivision(c.industryDivision) !== c.industrySection)
    ctx.addIssue({ code: 'custom', path: ['industryDivision'], message: '不属于所选行业门类' });
}

/** POST /api/customers. */
export const customerCreateForm = customerFields.superRefine(customerRules);
export type CustomerCreateForm = z.input<typeof customerCreateForm>;

/**
 * POST /api/customers/update. `version` is the one the form was loaded with (409 when stale). The masked phone
 * as listed (138****5678) keeps the stored number.
 */
export const customerUpdateForm = customerFields
  .extend({
    id: z.number().int().positive().meta({ title: '投保人ID' }),
    version: z.number().int().min(0).meta({ title: '版本号' }),
    phone: z
      .string()
      .trim()
      .min(1, { error: '不能为空' })
      .refine((v) => isPhone(v) || v.includes('*'), { error: MESSAGES.phone })
      .meta({ title: '联系电话' }),
  })
  .superRefine((c, ctx) => customerRules(c, ctx));
export type CustomerUpdateForm = z.input<typeof customerUpdateForm>;

/** POST /api/customers/:id/resubmit. */
export const customerResubmitForm = z.object({
  version: z.number().int().min(0).meta({ title: '版本号' }),
  note: optionalText('说明', 500),
});
export type CustomerResubmitForm = z.input<typeof customerResubmitForm>;

export const customerRow = z.object({
  id: z.number(),
  uscc: z.string(),
  name: z.string(),
  industrySection: z.string(),
  industrySectionName: z.string().nullable(),
  industryDivision: z.string(),
  industryDivisionName: z.string().nullable(),
  region: z.string(),
  regionName: z.string().nullable(),
  address: z.string(),
  legalRepresentative: z.string(),
  contactName: z.string(),
  /** Masked (138****5678); POST /api/customers/:id/unmask reads the full number. */
  phone: z.string(),
  headcount: z.number(),
  licenceNo: z.string().nullable(),
  caFingerprint: z.string().nullable(),
  /** The agent who owns the client (agent-created records). */
  ownerId: z.number().nullable(),
  ownerName: z.string().nullable(),
  reviewStatus: z.enum(REVIEW_STATUSES),
  /** The opinion of the last return or rejection. */
  reviewOpinion: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  /** The open review task, if any. */
  openTaskId: z.number().nullable(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CustomerRow = z.infer<typeof customerRow>;

/** POST /api/customers/:id/unmask (permission customer:unmask; audited). */
export const unmaskResult = z.object({ phone: z.string() });
export type UnmaskResult = z.infer<typeof unmaskResult>;
