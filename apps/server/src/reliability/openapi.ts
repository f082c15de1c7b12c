// Helpers of the reliability suite (not a test file): the operations of the OpenAPI document the server
// publishes at /api/docs/json, valid-looking sample values from their JSON schemas, and the checks every
// response must pass (no 5xx; errors are `{ status, message }` with a Chinese message).
import type { App } from '../app.ts';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
}

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** OpenAPI form: /api/applications/{id}. */
  path: string;
  pathParams: Param[];
  query: Param[];
  /** The JSON (or form) body schema, when the operation declares one. */
  body: JsonSchema | null;
  /** Request content types it declares (multipart routes declare no body schema). */
  consumes: string[];
  public: boolean;
  /** The response codes it declares. */
  declared: string[];
  /** A file download (xlsx, pdf, images): its 200 is not JSON. */
  binary: boolean;
  summary: string;
}

interface RawOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  security?: unknown[];
  consumes?: string[];
  summary?: string;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, RawOperation>>;
}

export async function loadOpenApi(app: App): Promise<OpenApiDocument> {
  const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
  if (res.statusCode !== 200) throw new Error(`/api/docs/json answered ${res.statusCode}`);
  return res.json() as OpenApiDocument;
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const params = (raw.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in as Param['in'],
        required: Boolean(p.required),
        schema: p.schema ?? {},
      }));
      const content = raw.requestBody?.content ?? {};
      const bodyType = Object.keys(content).find((k) => k.includes('json')) ?? Object.keys(content)[0];
      const ok = raw.responses?.['200']?.content ?? {};
      const okTypes = Object.keys(ok);
      const okSchema = ok['application/json']?.schema;
      const binary =
        /download|\/pdf$|\/file$|\/thumbnail$|^\/api\/avatar\//.test(path) ||
        okTypes.some((t) => !t.includes('json')) ||
        okSchema?.format === 'binary';
      out.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        pathParams: params.filter((p) => p.in === 'path'),
        query: params.filter((p) => p.in === 'query'),
        body: bodyType ? (content[bodyType]?.schema ?? null) : null,
        consumes: Object.keys(content).length ? Object.keys(content) : (raw.consumes ?? []),
        public: Array.isArray(raw.security) && raw.security.length === 0,
        declared: Object.keys(raw.responses ?? {}),
        binary,
        summary: raw.summary ?? '',
      });
    }
  }
  return out;
}

/** `/api/x/{id}/y` with the values substituted (URL-encoded). */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? '1'));
}

/** Picks the first alternative of anyOf/oneOf and merges allOf (enough for the documents zod emits). */
export function resolve(schema: JsonSchema): JsonSchema {
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map(resolve), { allOf: undefined });
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt?.length) return resolve(alt.find((s) => s.type !== 'null') ?? alt[0]!);
  return schema;
}

export function typeOf(schema: JsonSchema): string {
  const s = resolve(schema);
  if (s.enum?.length) return typeof s.enum[0] === 'number' ? 'number' : 'string';
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null') ?? 'string';
  if (s.type) return s.type;
  if (s.properties) return 'object';
  if (s.items) return 'array';
  return 'string';
}

/** Names that look like record references get an id no record has, so a fuzzed body never hits the world. */
const ID_NAME = /(^id$|Id$|^ids$|Ids$)/;

/** A value that passes simple schemas (enum, bounds, common formats); not a promise for every pattern. */
export function sample(schema: JsonSchema, name = '', depth = 0): unknown {
  const s = resolve(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const type = typeOf(s);
  switch (type) {
    case 'integer':
    case 'number': {
      if (ID_NAME.test(name)) return 99_999_999;
      const min = typeof s.minimum === 'number' ? s.minimum + (s.exclusiveMinimum === true ? 1 : 0) : 1;
      const value = Math.max(min, 1);
      return typeof s.maximum === 'number' ? Math.min(value, s.maximum) : value;
    }
    case 'boolean':
      return false;
    case 'array': {
      if (depth > 4 || !s.items) return [];
      const n = Math.max(s.minItems ?? 0, 0);
      return Array.from({ length: n }, () => sample(s.items!, name, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth > 4) return out;
      for (const [key, prop] of Object.entries(s.properties ?? {})) {
        if (!(s.required ?? []).includes(key) && depth > 0) continue;
        out[key] = sample(prop, key, depth + 1);
      }
      return out;
    }
    default:
      return sampleString(s, name);
  }
}

function sampleString(s: JsonSchema, name: string): string {
  if (s.format === 'date' || /\\d\{4\}-\\d\{2\}-\\d\{2\}/.test(s.pattern ?? '')) return '2026-01-01';
  if (s.format === 'date-time') return '2026-01-01T00:00:00.000Z';
  if (s.format === 'email' || /email/i.test(name)) return 'qa@example.cn';
  if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (/phone|mobile/i.test(name)) return '13812345678';
  const base = '测试';
  const min = s.minLength ?? 1;
  const text = base.length >= min ? base : base.padEnd(min, '试');
  return s.maxLength ? text.slice(0, Math.max(s.maxLength, 1)) : text;
}

/** Any CJK ideograph (every user-facing message of the API is Chinese). */
export const hasChinese = (s: string) => /[\u3400-\u9fff]/.test(s);

export interface Response {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * What is wrong with a response, or null: 5xx is always wrong; a 4xx must be JSON `{ status, message }` with
 * `status` equal to the HTTP status and a Chinese message (downloads included: their errors are JSON too);
 * a 2xx of a non-download route must be JSON.
 */
export function envelopeProblem(res: Response, op: Pick<Operation, 'binary'>): string | null {
  if (res.statusCode >= 500) return `HTTP ${res.statusCode}`;
  const type = String(res.headers['content-type'] ?? '');
  if (res.statusCode >= 400) {
    if (!type.includes('application/json')) return `${res.statusCode} is not JSON (${type})`;
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      return `${res.statusCode} body is not valid JSON`;
    }
    const b = body as { status?: unknown; message?: unknown; errors?: unknown };
    if (b === null || typeof b !== 'object' || Array.isArray(b))
      return `${res.statusCode} body is not an object`;
    // A validation failure (400) may add `errors`: each refused field with its Chinese message (CONTRACT.md).
    const keys = Object.keys(b).sort().join(',');
    const allowed = res.statusCode === 400 ? ['errors,message,status', 'message,status'] : ['message,status'];
    if (!allowed.includes(keys)) return `${res.statusCode} body has keys ${keys}`;
    if (b.status !== res.statusCode) return `${res.statusCode} body says status ${String(b.status)}`;
    if (typeof b.message !== 'string' || !hasChinese(b.message))
      return `${res.statusCode} message is not Chinese: ${String(b.message)}`;
    if ('errors' in b) {
      const errors = b.errors as { field?: unknown; message?: unknown }[];
      if (!Array.isArray(errors)) return '400 errors is not an array';
      const bad = errors.find(
        (e) => typeof e?.field !== 'string' || typeof e.message !== 'string' || !hasChinese(e.message),
      );
      if (bad) return `400 errors has an entry without a field or a Chinese message: ${JSON.stringify(bad)}`;
    }
    return null;
  }
  if (res.statusCode >= 200 && res.statusCode < 300 && !op.binary && res.statusCode !== 204) {
    if (!type.includes('application/json')) return `${res.statusCode} is not JSON (${type})`;
  }
  return null;
}

/** Shortens a payload or body for a failure report. */
export function preview(value: unknown, max = 300): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
