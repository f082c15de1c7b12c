// System administration (users, roles, departments, jobs, dictionaries, logs, online sessions, monitor):
// request bodies and answers shared by the web's admin pages and the server's routes. Import it as
// `@piibs/shared/admin`. Field titles name the field in the server's 400 messages.
import { z } from 'zod';
import { CHANNELS, MASKED_MOBILE, sessionInfo, USERNAME_MESSAGE, USERNAME_PATTERN } from './auth.ts';
import { NOTIFY_REFUSALS } from './payment.ts';
import { isMobile, MESSAGES, requiredText, zfield } from './validators.ts';

// ---- paging ----

/** Default and largest page size of a paged list (the dictionary fetch may ask for up to DICT_PAGE_SIZE). */
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 500;

/** Query of every paged list: `page` (0-based), `size`, `sort=field,asc|desc` (repeatable). */
export interface PageParams {
  page?: number;
  size?: number;
  sort?: string | string[];
}

/** `{ content, totalElements }` of a paged list. */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({ content: z.array(row), totalElements: z.number().int() });
/** The cursors of a keyset page: send `after` for the next page, `before` for the previous one. */
export const pageCursors = z.object({ before: z.string(), after: z.string() });
export type PageCursors = z.infer<typeof pageCursors>;
/** A page of a list that also pages by cursor (`?after=` / `?before=`); `cursors` is null when its order cannot. */
export const keysetPageOf = <T extends z.ZodType>(row: T) =>
  pageOf(row).extend({ cursors: pageCursors.nullable() });
export interface Page<T> {
  content: T[];
  totalElements: number;
  /** Lists that page by cursor: the cursors of this page (null when the order does not allow it). */
  cursors?: PageCursors | null;
}

/** The fields each list can be sorted by (anything else answers 400 naming 排序字段). */
export const SORT_FIELDS = Object.freeze({
  users: ['id', 'username', 'nickName', 'email', 'enabled', 'createdAt', 'updatedAt'],
  roles: ['id', 'code', 'name', 'level', 'dataScope', 'createdAt', 'updatedAt'],
  jobs: ['id', 'name', 'sort', 'enabled', 'createdAt'],
  dicts: ['id', 'name', 'createdAt'],
  dictDetails: ['id', 'label', 'value', 'sort'],
  logs: ['id', 'createdAt', 'actorName', 'action', 'entity'],
  loginLogs: ['id', 'createdAt', 'username', 'ip', 'success', 'method'],
  online: ['createdAt', 'lastSeenAt', 'username'],
} as const);

// ---- helpers for fields ----

const trimmedOrNull = (v: unknown) => {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  return t === '' ? null : t;
};

const id = (title: string) => z.number().int().positive().meta({ title });
const ids = (title: string, max = 500) => z.array(z.number().int().positive()).max(max).meta({ title });
const version = z.number().int().min(0).meta({ title: '版本号' });

/**
 * A date-time query parameter: `2026-01-02`, `2026-01-02 08:30:00` (Asia/Shanghai wall-clock time) or an ISO
 * 8601 instant with a zone (`2026-01-02T00:30:00Z`). China has had no daylight saving since 1991, so the
 * wall-clock forms are read at +08:00.
 */
export const dateTimeParam = (title: string) =>
  z
    .string()
    .trim()
    .transform((v, ctx) => {
      const local = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?))?$/.exec(v);
      const d = local ? new Date(`${local[1]}T${local[2] ?? '00:00:00'}+08:00`) : new Date(v);
      if (Number.isNaN(d.getTime()) || (!local && !/(?:Z|[+-]\d{2}:?\d{2})$/i.test(v))) {
        ctx.addIssue({ code: 'custom', message: '请输入正确的时间，如 2026-01-02 08:30:00' });
        return z.NEVER;
      }
      return d;
    })
    .meta({ title });

/** A true/false query parameter. */
export const boolParam = (title: string) =>
  z
    .stringbool({ truthy: ['true', '1'], falsy: ['false', '0'], error: '请选择 true 或 false' })
    .meta({ title });

/** Free-text search of a list ("blurry", as eladmin calls it). */
export const blurryParam = z.string().trim().max(100).optional().meta({ title: '关键词' });

// ---- data scopes ----

/** all: every record; department: own department and below; custom: chosen departments and below; self. */
export const DATA_SCOPES = ['all', 'department', 'custom', 'self'] as const;
export type DataScopeName = (typeof DATA_SCOPES)[number];
export const DATA_SCOPE_LABELS: Readonly<Record<DataScopeName, string>> = Object.freeze({
  all: '全部',
  department: '本部门及下级部门',
  custom: '自定义部门',
  self: '仅本人',
});

// ---- users ----

const userFields = {
  username: z.string().trim().regex(USERNAME_PATTERN, { error: USERNAME_MESSAGE }).meta({ title: '用户名' }),
  nickName: requiredText('昵称', 30),
  /** Empty clears it. */
  email: z
    .preprocess(trimmedOrNull, zfield.email.max(100, { error: '不能超过 100 个字符' }).nullish())
    .meta({ title: '邮箱' }),
  gender: z.enum(['男', '女'], { error: '请选择男或女' }).nullish().meta({ title: '性别' }),
  deptId: id('部门').nullish(),
  roleIds: ids('角色', 50).default([]),
  jobIds: ids('岗位', 50).default([]),
  channel: z.enum(CHANNELS, { error: '请选择正确的渠道' }).default('staff').meta({ title: '渠道' }),
  /** Unified social credit code of the enterprise an enterprise account acts for; empty clears it. */
  uscc: z.preprocess(trimmedOrNull, zfield.uscc.nullish()).meta({ title: '统一社会信用代码' }),
};

/** POST /api/users: a new account; the answer carries its one-time password (shown once). */
export const userCreateForm = z.object({
  ...userFields,
  /** Empty or missing: none. */
  phone: z.preprocess(trimmedOrNull, zfield.mobile.nullish()).meta({ title: '手机号' }),
  enabled: z.boolean().default(true).meta({ title: '状态' }),
});
export type UserCreateForm = z.input<typeof userCreateForm>;

/**
 * POST /api/users/update. `version` is the one the form was loaded with (409 when stale). The masked phone as
 * listed (138****5678) keeps the stored number; empty clears it. Enable/disable is POST /api/users/enable.
 */
export const userUpdateForm = z.object({
  id: id('用户ID'),
  version,
  ...userFields,
  phone: z
    .preprocess(
      trimmedOrNull,
      z
        .string()
        .refine((v) => isMobile(v) || MASKED_MOBILE.test(v), { error: MESSAGES.mobile })
        .nullish(),
    )
    .meta({ title: '手机号' }),
});
export type UserUpdateForm = z.input<typeof userUpdateForm>;

export const userEnableForm = z.object({ id: id('用户ID'), enabled: z.boolean().meta({ title: '状态' }) });
export type UserEnableForm = z.infer<typeof userEnableForm>;

/** A body naming one record. */
export const idForm = (title: string) => z.object({ id: id(title) });
/** A body listing records to delete: `[1, 2]`. */
export const idsBody = (title: string) =>
  z.array(z.number().int().positive()).min(1, { error: '请至少选择一条记录' }).max(500).meta({ title });

export const userRow = z.object({
  id: z.number(),
  username: z.string(),
  nickName: z.string(),
  /** Masked: 138****5678. */
  phone: z.string().nullable(),
  email: z.string().nullable(),
  gender: z.string().nullable(),
  avatar: z.string().nullable(),
  channel: z.string(),
  uscc: z.string().nullable(),
  enabled: z.boolean(),
  mustChangePassword: z.boolean(),
  dept: z.object({ id: z.number(), name: z.string() }).nullable(),
  roles: z.array(z.object({ id: z.number(), code: z.string(), name: z.string(), level: z.number() })),
  jobs: z.array(z.object({ id: z.number(), name: z.string() })),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserRow = z.infer<typeof userRow>;

/** The one-time password of a new or reset account: shown once, never stored in clear, never logged. */
export const oneTimePasswordResult = z.object({ id: z.number(), username: z.string(), password: z.string() });
export type OneTimePasswordResult = z.infer<typeof oneTimePasswordResult>;

// ---- roles ----

export const ROLE_CODE = /^[A-Za-z0-9_-]{1,32}$/;

const roleFields = {
  code: z
    .string()
    .trim()
    .regex(ROLE_CODE, { error: '角色编码为 1–32 位字母、数字、_ 或 -' })
    .meta({ title: '角色编码' }),
  name: requiredText('角色名称', 30),
  /** 1 is the most powerful (the system administrator). */
  level: z
    .number()
    .int()
    .min(1, { error: '最小为 1' })
    .max(999, { error: '最大为 999' })
    .default(3)
    .meta({ title: '角色级别' }),
  dataScope: z
    .enum(DATA_SCOPES, { error: '请选择正确的数据权限' })
    .default('self')
    .meta({ title: '数据权限' }),
  /** The departments of a `custom` data scope (each with its sub-departments). */
  deptIds: ids('数据权限部门').default([]),
  description: z
    .preprocess(trimmedOrNull, z.string().max(200, { error: '不能超过 200 个字符' }).nullish())
    .meta({ title: '描述' }),
};

export const roleCreateForm = z.object(roleFields);
export type RoleCreateForm = z.input<typeof roleCreateForm>;
export const roleUpdateForm = z.object({ id: id('角色ID'), version, ...roleFields });
export type RoleUpdateForm = z.input<typeof roleUpdateForm>;

/** POST /api/roles/menu: the menus and buttons the role is granted (replaces the previous grant). */
export const roleMenuForm = z.object({ id: id('角色ID'), menuIds: ids('菜单', 5000) });
export type RoleMenuForm = z.infer<typeof roleMenuForm>;

export const roleRow = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  level: z.number(),
  dataScope: z.string(),
  description: z.string().nullable(),
  deptIds: z.array(z.number()),
  /** Built-in roles cannot be deleted and keep their code. */
  builtin: z.boolean(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RoleRow = z.infer<typeof roleRow>;
export const roleDetail = roleRow.extend({ menuIds: z.array(z.number()) });
export type RoleDetail = z.infer<typeof roleDetail>;
export const roleBrief = z.object({ id: z.number(), code: z.string(), name: z.string(), level: z.number() });
export type RoleBrief = z.infer<typeof roleBrief>;

// ---- departments and jobs ----

const sort = z.number().int().min(0).max(99999).default(999).meta({ title: '排序' });
const enabled = z.boolean().default(true).meta({ title: '状态' });

const deptFields = {
  name: requiredText('部门名称', 50),
  /** null: a top-level department. */
  parentId: id('上级部门').nullable().default(null),
  sort,
  enabled,
};
export const deptCreateForm = z.object(deptFields);
export type DeptCreateForm = z.input<typeof deptCreateForm>;
/** `version` is optional for departments: when sent, a stale one answers 409. */
export const deptUpdateForm = z.object({ id: id('部门ID'), version: version.optional(), ...deptFields });
export type DeptUpdateForm = z.input<typeof deptUpdateForm>;

export interface DeptNode {
  id: number;
  parentId: number | null;
  name: string;
  sort: number;
  enabled: boolean;
  version: number;
  createdAt: string;
  /** Users directly in this department. */
  userCount: number;
  children?: DeptNode[] | undefined;
}
export const deptNode: z.ZodType<DeptNode> = z.lazy(() =>
  z.object({
    id: z.number(),
    parentId: z.number().nullable(),
    name: z.string(),
    sort: z.number(),
    enabled: z.boolean(),
    version: z.number(),
    createdAt: z.string(),
    userCount: z.number(),
    children: z.array(deptNode).optional(),
  }),
);

const jobFields = {
  name: requiredText('岗位名称', 50),
  sort,
  enabled,
};
export const jobCreateForm = z.object(jobFields);
export type JobCreateForm = z.input<typeof jobCreateForm>;
export const jobUpdateForm = z.object({ id: id('岗位ID'), version: version.optional(), ...jobFields });
export type JobUpdateForm = z.input<typeof jobUpdateForm>;
export const jobRow = z.object({
  id: z.number(),
  name: z.string(),
  sort: z.number(),
  enabled: z.boolean(),
  version: z.number(),
  createdAt: z.string(),
});
export type JobRow = z.infer<typeof jobRow>;

// ---- dictionaries ----

export const DICT_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

const dictFields = {
  name: z
    .string()
    .trim()
    .regex(DICT_NAME, { error: '只能包含字母、数字和下划线，且以字母开头' })
    .meta({ title: '字典名称' }),
  description: z
    .preprocess(trimmedOrNull, z.string().max(100, { error: '不能超过 100 个字符' }).nullish())
    .meta({ title: '描述' }),
};
export const dictCreateForm = z.object(dictFields);
export type DictCreateForm = z.input<typeof dictCreateForm>;
export const dictUpdateForm = z.object({ id: id('字典ID'), version: version.optional(), ...dictFields });
export type DictUpdateForm = z.input<typeof dictUpdateForm>;
export const dictRow = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  detailCount: z.number(),
  version: z.number(),
  createdAt: z.string(),
});
export type DictRow = z.infer<typeof dictRow>;

const detailFields = {
  label: requiredText('字典标签', 100),
  value: requiredText('字典值', 100),
  sort,
};
/** POST /api/dictDetail. */
export const dictDetailCreateForm = z.object({ dictId: id('所属字典'), ...detailFields });
export type DictDetailCreateForm = z.input<typeof dictDetailCreateForm>;
/** POST /api/dictDetail/update. */
export const dictDetailUpdateForm = z.object({ id: id('字典详情ID'), ...detailFields });
export type DictDetailUpdateForm = z.input<typeof dictDetailUpdateForm>;
/** A row of GET /api/dictDetail?dictName=…&page=0&size=9999. */
export const dictDetailRow = z.object({
  id: z.number(),
  dictId: z.number(),
  dictName: z.string(),
  label: z.string(),
  value: z.string(),
  sort: z.number(),
});
export type DictDetailRow = z.infer<typeof dictDetailRow>;
/** GET /api/dict/all?names=a,b → `{ a: [{ label, value }], b: [...] }` (unknown names answer []). */
export const dictOptions = z.record(z.string(), z.array(z.object({ label: z.string(), value: z.string() })));
export type DictOptions = z.infer<typeof dictOptions>;

/** The dictionaries seeded on first start. */
export const SEEDED_DICTS = [
  'industry_section',
  'industry_division',
  'region_jiangsu',
  'region_zhenjiang',
  'id_type',
  'application_status',
  'policy_status',
  'coinsurer',
  'document_type',
  'policyholder_type',
  'user_channel',
  'user_status',
  'dept_status',
  'job_status',
  'data_scope',
  'business_source',
] as const;

// ---- logs, online sessions, monitor ----

export const auditLogRow = z.object({
  id: z.number(),
  actorId: z.number().nullable(),
  /** Who, in words: the account's 姓名 (else the name recorded), 系统自动, or the payment provider's name. */
  actorName: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  /** The object by its business number or name (投保单号, a customer's name, a user's 姓名); null when none. */
  record: z.string().nullable(),
  /** What changed: usually `{ before, after }`; phones masked, never passwords. */
  detail: z.record(z.string(), z.unknown()).nullable(),
  /** The detail in words, a line a field: 字段：旧值 → 新值 (records and codes named). */
  lines: z.array(z.string()),
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditLogRow = z.infer<typeof auditLogRow>;

export const loginLogRow = z.object({
  id: z.number(),
  username: z.string(),
  userId: z.number().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** e.g. 'Chrome 131 / Windows 10'. */
  browser: z.string().nullable(),
  /** password | ca | handoff */
  method: z.string(),
  success: z.boolean(),
  /**
   * Why it failed: bad_password, locking (the wrong password that locked the account), locked, unknown_user,
   * captcha, disabled, one_time_used, ip_limited (refused by the per-IP budget before issue #21) …
   */
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type LoginLogRow = z.infer<typeof loginLogRow>;

/** A live session as administrators see it: the user's own session view plus who it belongs to. */
export const onlineRow = sessionInfo.extend({
  userId: z.number(),
  username: z.string(),
  nickName: z.string(),
  dept: z.string().nullable(),
  browser: z.string().nullable(),
});
export type OnlineRow = z.infer<typeof onlineRow>;

export const slowRequest = z.object({
  method: z.string(),
  route: z.string(),
  ms: z.number(),
  status: z.number(),
  at: z.string(),
});
export type SlowRequest = z.infer<typeof slowRequest>;

export const monitorResult = z.object({
  server: z.object({
    uptimeSeconds: z.number(),
    startedAt: z.string(),
    nodeVersion: z.string(),
    platform: z.string(),
    pid: z.number(),
  }),
  memory: z.object({
    rss: z.number(),
    heapUsed: z.number(),
    heapTotal: z.number(),
    external: z.number(),
  }),
  os: z.object({
    loadavg: z.array(z.number()),
    cpus: z.number(),
    totalMem: z.number(),
    freeMem: z.number(),
  }),
  database: z.object({
    version: z.string(),
    sizeBytes: z.number(),
    connections: z.number(),
    embedded: z.boolean(),
  }),
  /** The slowest requests this instance measured since it started (per route the N slowest, merged). */
  slowest: z.array(slowRequest),
  /** Per route: calls, average and maximum time since start. */
  routes: z.array(
    z.object({
      method: z.string(),
      route: z.string(),
      count: z.number(),
      avgMs: z.number(),
      maxMs: z.number(),
    }),
  ),
  /**
   * Payment notifications this instance refused since it started, per provider (empty: a name the server has no
   * provider by) and reason. Forged and malformed ones keep only a bounded sample in payment_notification.
   */
  refusedNotifications: z.array(
    z.object({ provider: z.string(), reason: z.enum(NOTIFY_REFUSALS), count: z.number() }),
  ),
  docsUrl: z.string(),
});
export type MonitorResult = z.infer<typeof monitorResult>;
