// System administration: settings, departments, roles, job titles, users and their roles, menus and their grants,
// dictionaries, the audit trail and the idempotency keys of retried writes.

import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';

/** Key/value system settings: organisation name, footer filing numbers, initialisation marker. */
export const systemSettings = pgTable('system_setting', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

/**
 * The data scopes' version: statement triggers (migration 0030) advance it on every change of department, role or
 * role_dept, so a caller's data scope computed at one version is reused until then (lib/data-scope.ts).
 */
export const dataScopeVersionSeq = pgSequence('data_scope_version_seq', { startWith: 1 });

export const departments = pgTable(
  'department',
  {
    id: id(),
    parentId: bigint('parent_id', { mode: 'number' }),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('department_parent').on(t.parentId)],
);

export const roles = pgTable('role', {
  id: id(),
  /** The role name the front end checks (e.g. 'admin', '17'). */
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  level: integer('level').notNull().default(3),
  /** all | department (own department and below) | custom (role_dept, with their sub-departments) | self */
  dataScope: text('data_scope').notNull().default('all'),
  description: text('description'),
  version: integer('version').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** The departments a role with data scope `custom` may see (each with its sub-departments). */
export const roleDepts = pgTable(
  'role_dept',
  {
    roleId: bigint('role_id', { mode: 'number' })
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    deptId: bigint('dept_id', { mode: 'number' })
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.deptId] })],
);

/** Job titles (岗位) a user may hold. */
export const jobs = pgTable(
  'job',
  {
    id: id(),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(999),
    enabled: boolean('enabled').notNull().default(true),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('job_name').on(t.name)],
);

export const users = pgTable(
  'app_user',
  {
    id: id(),
    username: text('username').notNull(),
    nickName: text('nick_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    email: text('email'),
    phone: text('phone'),
    gender: text('gender'),
    avatar: text('avatar'),
    deptId: bigint('dept_id', { mode: 'number' }),
    /** enterprise | staff | agent | service: which side of the business the account belongs to. */
    channel: text('channel').notNull().default('staff'),
    /** Unified social credit code of the enterprise a policyholder account acts for (CA sign-in maps to it). */
    uscc: text('uscc'),
    enabled: boolean('enabled').notNull().default(true),
    /** The spec's `iSeeSwitch` flag returned by getUserRole; false unless set. */
    iSeeSwitch: boolean('i_see_switch').notNull().default(false),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** The password is a one-time password an administrator was shown: it signs in once, then must change. */
    passwordOneTime: boolean('password_one_time').notNull().default(false),
    /** When the one-time password was used to sign in (a second sign-in with it is refused). */
    oneTimeUsedAt: timestamp('one_time_used_at', { withTimezone: true }),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('app_user_username_lower').on(sql`lower(${t.username})`),
    index('app_user_uscc').on(t.uscc),
    index('app_user_dept').on(t.deptId),
    index('app_user_created').on(t.createdAt),
  ],
);

/** A user who did something (created, submitted, confirmed …): set to null when the account is deleted. */
export const userRef = (name: string) =>
  bigint(name, { mode: 'number' }).references(() => users.id, { onDelete: 'set null' });

export const userRoles = pgTable(
  'user_role',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: bigint('role_id', { mode: 'number' })
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('user_role_role').on(t.roleId)],
);

export const userJobs = pgTable(
  'user_job',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    jobId: bigint('job_id', { mode: 'number' })
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.jobId] }), index('user_job_job').on(t.jobId)],
);

/**
 * Append-only audit trail of business and administrative changes (the operation log). A trigger refuses
 * UPDATE, DELETE and TRUNCATE (migration 0002).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    actorId: bigint('actor_id', { mode: 'number' }),
    actorName: text('actor_name'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    detail: jsonb('detail'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_entity').on(t.entity, t.entityId), index('audit_time').on(t.createdAt)],
);

/** Menu records: directories, menus (routes) and buttons (permission codes), granted to roles. */
export const menus = pgTable('menu', {
  id: id(),
  parentId: bigint('parent_id', { mode: 'number' }),
  /** 0 directory, 1 menu, 2 button */
  type: integer('type').notNull(),
  title: text('title').notNull(),
  /** Route name, unique among menus that are routes. */
  name: text('name'),
  icon: text('icon'),
  path: text('path'),
  component: text('component'),
  permission: text('permission'),
  hidden: boolean('hidden').notNull().default(false),
  cache: boolean('cache').notNull().default(false),
  affix: boolean('affix').notNull().default(false),
  sort: integer('sort').notNull().default(999),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const roleMenus = pgTable(
  'role_menu',
  {
    roleId: bigint('role_id', { mode: 'number' })
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    menuId: bigint('menu_id', { mode: 'number' })
      .notNull()
      .references(() => menus.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.menuId] })],
);

/** Dictionaries: named lists of value/label pairs for selects (industries, regions, statuses …). */
export const dicts = pgTable('dict', {
  id: id(),
  name: text('name').notNull().unique(),
  description: text('description'),
  version: integer('version').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const dictDetails = pgTable(
  'dict_detail',
  {
    id: id(),
    dictId: bigint('dict_id', { mode: 'number' })
      .notNull()
      .references(() => dicts.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    value: text('value').notNull(),
    sort: integer('sort').notNull().default(999),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('dict_detail_value').on(t.dictId, t.value),
    index('dict_detail_sort').on(t.dictId, t.sort),
  ],
);

/**
 * Idempotency keys of retried writes (lib/idempotency.ts): the first answer to (user, key), stored in the same
 * transaction as the change it answers, is replayed for the same request; another request under the same key
 * is refused. Kept 24 hours (dropped lazily by the user's next keyed request).
 */
export const idempotencyKeys = pgTable(
  'idempotency_key',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    /** sha256 of method, path and body. */
    fingerprint: text('fingerprint').notNull(),
    /** The stored answer (null until the change commits with it). */
    status: integer('status'),
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index('idempotency_key_user_created').on(t.userId, t.createdAt),
  ],
);
