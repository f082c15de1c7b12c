// The request bodies of /api/project-orders and /api/project-declarations.

import { z } from 'zod';
import { addDays, isDate } from '../application-status.ts';
import { fenField } from '../money-field.ts';
import { MAX_HEADCOUNT } from '../rating.ts';
import { isPhone, MESSAGES as VALIDATION_MESSAGES } from '../validators.ts';

// ---- request bodies ----

const id = (title: string) => z.number({ error: '不能为空' }).int().positive().meta({ title });
const version = z.number({ error: '请提供版本号' }).int().min(0).meta({ title: '版本号' });
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
    quotaFen: fenField('保费额度'),
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
export const annualOrderFromApplicationForm = z.object({ quotaFen: fenField('保费额度').optional() });
export type AnnualOrderFromApplicationForm = z.input<typeof annualOrderFromApplicationForm>;

/** POST /api/project-orders/:id/update: staff change the quota (not below what is consumed) and the contact. */
export const annualOrderUpdateForm = z.object({
  quotaFen: fenField('保费额度'),
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
  projectCostFen: fenField('工程造价'),
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
