import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installPlainZodMessages } from './zod-messages.ts';

installPlainZodMessages();

const messageOf = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues[0]?.message;

describe('plain zod messages: no types, no regexes, no English', () => {
  it.each([
    [
      'a string over its maximum (the hand-off token)',
      z.string().max(200),
      'x'.repeat(201),
      '不能超过 200 个字符',
    ],
    ['an empty required string', z.string().min(1), '', '不能为空'],
    ['a string under its minimum', z.string().min(6), 'abc', '至少 6 个字符'],
    ['a missing value', z.string(), undefined, '不能为空'],
    ['a number where text belongs', z.string(), 5, '请输入文字'],
    ['text where a number belongs', z.number(), 'five', '请输入数字'],
    ['a fraction where an integer belongs', z.number().int(), 7.5, '须为整数'],
    ['a number over its maximum', z.number().max(5), 7, '不能大于 5'],
    ['a number under its minimum', z.number().min(1), 0, '不能小于 1'],
    ['a list too long', z.array(z.string()).max(1), ['a', 'b'], '最多 1 项'],
    ['a value not offered', z.enum(['a', 'b']), 'c', '请选择列表中的选项'],
    ['a malformed date', z.iso.date(), '2026-13-01', '请输入正确的日期，如 2026-01-01'],
    ['a pattern not met', z.string().regex(/^a$/), 'b', '格式不正确'],
    ['an unknown field', z.strictObject({ a: z.string() }), { a: 'x', b: 1 }, '含有不支持的字段'],
  ])('%s', (_, schema, value, message) => {
    expect(messageOf(schema, value)).toBe(message);
  });

  it("keeps a schema's own words", () => {
    expect(messageOf(z.string().max(3, { error: '不能超过 3 位' }), 'abcd')).toBe('不能超过 3 位');
  });
});
