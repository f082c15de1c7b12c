// The zod field helpers of the risk-control forms (not part of the module's API).

import { z } from 'zod';
import { MASKED_MOBILE } from '../auth.ts';
import { fenField } from '../money-field.ts';
import { isPhone, MESSAGES } from '../validators.ts';
import { isDateText } from './fund.ts';

// ---- field helpers ----

export const id = (title: string) => z.number({ error: '请选择' }).int().positive().meta({ title });
export const version = z.number({ error: '请提供版本号' }).int().min(0).meta({ title: '版本号' });
export const text = (title: string, max: number, min = 1) =>
  z
    .string({ error: '请输入文字' })
    .trim()
    .min(min, { error: min > 1 ? `至少 ${min} 个字符` : '不能为空' })
    .max(max, { error: `不能超过 ${max} 个字符` })
    .meta({ title });
export const optionalText = (title: string, max: number) =>
  z
    .preprocess(
      (v) => (typeof v === 'string' ? v.trim() || null : v),
      z
        .string()
        .max(max, { error: `不能超过 ${max} 个字符` })
        .nullish(),
    )
    .meta({ title });
export const dateField = (title: string) =>
  z
    .string({ error: '请输入日期' })
    .trim()
    .refine(isDateText, { error: '请输入正确的日期（yyyy-mm-dd）' })
    .meta({ title, description: 'yyyy-mm-dd（Asia/Shanghai）' });
export const fen = (title: string) => fenField(title, { min: 0, max: 100_000_000_000 });
/** A phone as the forms send it: a valid number, or the masked one as listed (keeps the stored number). */
export const phoneOrMasked = (title: string) =>
  z
    .string({ error: '不能为空' })
    .trim()
    .min(1, { error: '不能为空' })
    .refine((v) => isPhone(v) || MASKED_MOBILE.test(v) || /^[\d-]*\*{3,}[\d-]*$/.test(v), {
      error: MESSAGES.phone,
    })
    .meta({ title });
