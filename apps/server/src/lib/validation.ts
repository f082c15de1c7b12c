import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';

z.config(z.locales.zhCN());

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

/** One Chinese sentence for the first issue, naming the field: "手机号：请输入正确的11位手机号码". */
export function issueMessage(schema: AnyZod, issue: z.core.$ZodIssue, httpPart: string | undefined): string {
  const label = fieldLabel(schema, issue.path) ?? where[httpPart ?? ''] ?? '请求';
  const missing = issue.code === 'invalid_type' && issue.input === undefined;
  return `${label}：${missing ? '不能为空' : issue.message}`;
}

export class RequestValidationError extends Error {
  readonly status = 400;
}

/** True when a string (or an object key) anywhere in the value holds U+0000, which PostgreSQL text refuses. */
export function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 32) return false;
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v, depth + 1));
}

/** Validates with zod and reports the first issue with the field's Chinese label. */
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
    const first = result.error.issues[0]!;
    return { error: new RequestValidationError(issueMessage(schema, first, httpPart)) };
  };
