// Plain Chinese for every zod issue a schema does not word itself. zod's own Chinese locale speaks in types
// ("数值过大：期望 string <=200 字符", "无效输入：期望 int"); a user reads "不能超过 200 个字符", "须为整数".
// The server's validation and the web's form rules both install it, so a field reads the same on either side.
// Import it as `@piibs/shared/zod-messages`.
import { z } from 'zod';

type Issue = z.core.$ZodRawIssue;

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: '请输入文字',
  number: '请输入数字',
  int: '须为整数',
  bigint: '须为整数',
  boolean: '请选择是或否',
  array: '须为列表',
  object: '格式不正确',
  date: '请输入正确的日期',
};

const FORMAT_WORDS: Readonly<Record<string, string>> = {
  email: '请输入正确的邮箱地址',
  url: '请输入正确的网址',
  date: '请输入正确的日期，如 2026-01-01',
  datetime: '请输入正确的日期时间',
  time: '请输入正确的时间',
  uuid: '格式不正确',
  ipv4: '请输入正确的IP地址',
  ipv6: '请输入正确的IP地址',
};

const bound = (value: unknown) => (typeof value === 'bigint' ? value.toString() : String(value));

/** The plain message of an issue, or undefined to keep what the schema or locale says. */
export function plainIssueMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null ? '不能为空' : TYPE_WORDS[issue.expected];
    case 'too_big': {
      const max = bound(issue.maximum);
      if (issue.origin === 'string') return `不能超过 ${max} 个字符`;
      if (issue.origin === 'array' || issue.origin === 'set') return `最多 ${max} 项`;
      return issue.inclusive === false ? `须小于 ${max}` : `不能大于 ${max}`;
    }
    case 'too_small': {
      const min = bound(issue.minimum);
      if (issue.origin === 'string') return min === '1' ? '不能为空' : `至少 ${min} 个字符`;
      if (issue.origin === 'array' || issue.origin === 'set') return `至少 ${min} 项`;
      return issue.inclusive === false ? `须大于 ${min}` : `不能小于 ${min}`;
    }
    case 'invalid_format':
      return FORMAT_WORDS[issue.format] ?? '格式不正确';
    case 'invalid_value':
      return '请选择列表中的选项';
    case 'not_multiple_of':
      return '数值不符合要求的精度';
    case 'unrecognized_keys':
      return '含有不支持的字段';
    case 'invalid_union':
      return '格式不正确';
    default:
      return undefined;
  }
}

/**
 * Installs the plain messages (a schema's own `error` still wins; issues not covered keep the locale's words —
 * the server sets zod's Chinese locale, the web bundle does not carry the locales). Idempotent.
 */
export function installPlainZodMessages(): void {
  z.config({ customError: (issue) => plainIssueMessage(issue) });
}
