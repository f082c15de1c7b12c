// Service organisations (风控服务机构), their member accounts and their persons / experts: forms and rows.

import { z } from 'zod';
import { REGION_CODE } from '../product.ts';
import { isUscc } from '../uscc.ts';
import { MESSAGES } from '../validators.ts';
import { dateField, id, optionalText, phoneOrMasked, text, version } from './fields.ts';

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
