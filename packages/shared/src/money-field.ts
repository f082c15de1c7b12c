// The one zod field of an amount in fen, for every form the server checks and the web checks with it.
import { z } from 'zod';

/** Shown for an amount typed in yuan that cannot be read. */
export const YUAN_MALFORMED = '请输入金额（元），最多两位小数';

/**
 * An integer amount in fen. More than 0 by default (a cost, a limit, a quota: nothing is coerced, a negative or
 * zero amount is refused with the field's name); `min: 0` where nothing is a valid amount.
 */
export function fenField(
  title: string,
  { min = 1, max = 100_000_000_000_000 }: { min?: 0 | 1; max?: number } = {},
) {
  return z
    .number({ error: '请输入金额（分）' })
    .int({ error: '金额须为整数（分）' })
    .min(min, { error: min === 1 ? '须大于 0' : '不能小于 0' })
    .max(max, { error: '金额过大' })
    .meta({ title, description: '金额，单位：分' });
}
