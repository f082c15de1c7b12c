import { installPlainZodMessages } from '@piibs/shared/zod-messages';
import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import { type FieldError, HttpError } from './errors.ts';

z.config(z.locales.zhCN());
installPlainZodMessages();

type AnyZod = z.core.$ZodType;

function titleOf(schema: AnyZod): string | undefined {
  const meta = z.globalRegistry.get(schema);
  return typeof meta?.title === 'string' ? meta.title : undefined;
}

/** The first title met while unwrapping optional/default/pipe layers (a transform's title sits on the pipe). */
function titleWithin(schema: AnyZod): string | undefined {
  let s: AnyZod | undefined = schema;
  for (let i = 0; s && i < 10; i++) {
    const title = titleOf(s);
    if (title) return title;
    const def = s._zod.def as { innerType?: AnyZod; in?: AnyZod };
    s = def.innerType ?? def.in;
  }
  return undefined;
}

function unwrap(schema: AnyZod): AnyZod {
  let s = schema;
  for (let i = 0; i < 10; i++) {
    const def = s._zod.def as { innerType?: AnyZod; in?: AnyZod };
    const next = def.innerType ?? def.in;
    if (!next) break;
    s = next;
  }
  return s;
}

/** Finds the Chinese label (`.meta({ title })`) of the field an issue points at, walking the schema by path. */
export function fieldLabel(root: AnyZod, pathParts: PropertyKey[]): string | undefined {
  let node: AnyZod | undefined = root;
  let label: string | undefined;
  for (const key of pathParts) {
    if (!node) break;
    const def = unwrap(node)._zod.def as { type: string; shape?: Record<string, AnyZod>; element?: AnyZod };
    node =
      def.type === 'object' && def.shape
        ? def.shape[String(key)]
        : def.type === 'array'
          ? def.element
          : undefined;
    if (node) label = titleWithin(node) ?? label;
  }
  return label ?? (pathParts.length ? String(pathParts[pathParts.length - 1]) : undefined);
}

const where: Record<string, string> = {
  body: '请求内容',
  querystring: '查询参数',
  params: '路径参数',
  headers: '请求头',
};

/** What to show beside the field an issue points at: "不能为空" for a missing value, else zod's Chinese message. */
function issueText(issue: z.core.$ZodIssue): string {
  return issue.code === 'invalid_type' && issue.input === undefined ? '不能为空' : issue.message;
}

/** One Chinese sentence for an issue, naming the field: "手机号：请输入正确的11位手机号码". */
function issueMessage(schema: AnyZod, issue: z.core.$ZodIssue, httpPart: string | undefined): string {
  const label = fieldLabel(schema, issue.path) ?? where[httpPart ?? ''] ?? '请求';
  return `${label}：${issueText(issue)}`;
}

/** The request paths an issue refuses: its own path, or one per unknown key; none for the whole value. */
function issueFields(issue: z.core.$ZodIssue): string[] {
  const base = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => [...base, key].join('.'));
  return base.length ? [base.join('.')] : [];
}

/**
 * A request refused by its schema: a 400 whose message names the field of the first issue (the notice) and
 * whose `errors` hold every refused field once, with its message.
 */
export class RequestValidationError extends HttpError {
  constructor(message: string, errors: readonly FieldError[] = []) {
    super(400, message, errors);
  }
}

/** The 400 for a failed zod parse of one part of the request (body, querystring, params, headers). */
export function validationFailure(
  schema: AnyZod,
  issues: readonly z.core.$ZodIssue[],
  httpPart: string | undefined,
): RequestValidationError {
  const errors = new Map<string, FieldError>();
  for (const issue of issues) {
    for (const field of issueFields(issue)) {
      if (!errors.has(field)) errors.set(field, { field, message: issueText(issue) });
    }
  }
  return new RequestValidationError(issueMessage(schema, issues[0]!, httpPart), [...errors.values()]);
}

/** True when a string (or an object key) anywhere in the value holds U+0000, which PostgreSQL text refuses. */
export function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 32) return false;
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v, depth + 1));
}

/** Validates with zod; a failure names the first issue's field in Chinese and lists every refused field. */
export const validatorCompiler: FastifySchemaCompiler<AnyZod> =
  ({ schema, httpPart }) =>
  (data) => {
    // A NUL would otherwise reach the database and fail there as a 500 (found by src/reliability/fuzz.test.ts).
    if (hasNul(data))
      return { error: new RequestValidationError(`${where[httpPart ?? ''] ?? '请求'}：不能包含空字符`) };
    let result: ReturnType<typeof z.safeParse>;
    try {
      result = z.safeParse(schema, data, { reportInput: true });
    } catch {
      // A refinement that throws on malformed input (e.g. date arithmetic on a non-date) is bad input, not a 500.
      return { error: new RequestValidationError(`${where[httpPart ?? ''] ?? '请求'}：格式不正确`) };
    }
    if (result.success) return { value: result.data };
    return { error: validationFailure(schema, result.error.issues, httpPart) };
  };
