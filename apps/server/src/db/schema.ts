import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Key/value system settings: organisation name, footer filing numbers, initialisation marker. */
export const systemSettings = pgTable('system_setting', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

export const departments = pgTable(
  'department',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
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
  id: bigserial('id', { mode: 'number' }).primaryKey(),
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
    id: bigserial('id', { mode: 'number' }).primaryKey(),
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
    id: bigserial('id', { mode: 'number' }).primaryKey(),
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

/** Server-side sessions: a token is only valid while its row is unrevoked and unexpired. */
export const sessions = pgTable(
  'session',
  {
    id: uuid('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** full | password_change (a weak-password sign-in may only change the password) | handoff */
    scope: text('scope').notNull().default('full'),
    /** password | ca | handoff */
    method: text('method').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('session_user').on(t.userId)],
);

/** Captcha answers, stored hashed, single use, short-lived. */
export const captchas = pgTable(
  'captcha',
  {
    id: uuid('id').primaryKey(),
    answerHash: text('answer_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('captcha_expires').on(t.expiresAt)],
);

/**
 * Single-use secrets handed to a client: CA sign-in challenges and hand-off tokens. Only the SHA-256 of the
 * secret is stored; using one deletes the row.
 */
export const oneTimeTokens = pgTable(
  'one_time_token',
  {
    hash: text('hash').primaryKey(),
    /** ca_challenge | handoff */
    kind: text('kind').notNull(),
    /** The account a hand-off token signs in as. */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    createdBy: bigint('created_by', { mode: 'number' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('one_time_token_expires').on(t.expiresAt)],
);

/** Sign-in attempts, for the per-IP limit and the user's own sign-in history. */
export const loginAttempts = pgTable(
  'login_attempt',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    username: text('username').notNull(),
    userId: bigint('user_id', { mode: 'number' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    method: text('method').notNull(),
    success: boolean('success').notNull(),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_attempt_ip_time').on(t.ip, t.createdAt),
    index('login_attempt_user_time').on(t.userId, t.createdAt),
    index('login_attempt_time').on(t.createdAt),
  ],
);

/**
 * Append-only audit trail of business and administrative changes (the operation log). A trigger refuses
 * UPDATE, DELETE and TRUNCATE (migration 0002).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
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
  id: bigserial('id', { mode: 'number' }).primaryKey(),
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
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description'),
  version: integer('version').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const dictDetails = pgTable(
  'dict_detail',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
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

// ---- products, rate tables ----
// Money in fen (BIGINT); ratios in micro-percent (percent × 10⁶); rates in 10⁻⁷ (per-mille × 10⁴);
// multipliers × 10⁴. See packages/shared/src/money.ts.

/** Insurance products (险种). The 2025 work-safety rules are CHECK constraints as well as form rules. */
export const products = pgTable(
  'product',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** work_safety | construction | guarantee */
    productClass: text('product_class').notNull(),
    clauseVersion: text('clause_version').notNull(),
    /** GB/T 2260 region code (region_* dictionaries). */
    region: text('region').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }).notNull(),
    allowsCoinsurance: boolean('allows_coinsurance').notNull().default(false),
    /** Micro-percent, 0 ≤ min ≤ max ≤ 21% [rule]. */
    preventionRatioMin: integer('prevention_ratio_min').notNull(),
    preventionRatioMax: integer('prevention_ratio_max').notNull(),
    /** Micro-percent, ≤ 5% [rule]. */
    commissionCap: integer('commission_cap').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    description: text('description'),
    createdBy: bigint('created_by', { mode: 'number' }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('product_code').on(t.code),
    index('product_class_region').on(t.productClass, t.region),
    check(
      'product_prevention_ratio',
      sql`0 <= ${t.preventionRatioMin} and ${t.preventionRatioMin} <= ${t.preventionRatioMax} and ${t.preventionRatioMax} <= 21000000`,
    ),
    check('product_commission_cap', sql`${t.commissionCap} between 0 and 5000000`),
    check('product_validity', sql`${t.validFrom} <= ${t.validTo}`),
  ],
);

/** Coverages (责任) of a product, one per type. */
export const coverages = pgTable(
  'coverage',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    name: text('name').notNull(),
    perPersonLimitFen: bigint('per_person_limit_fen', { mode: 'number' }),
    perAccidentLimitFen: bigint('per_accident_limit_fen', { mode: 'number' }),
    aggregateLimitFen: bigint('aggregate_limit_fen', { mode: 'number' }),
    deductibleFen: bigint('deductible_fen', { mode: 'number' }).notNull().default(0),
    mandatory: boolean('mandatory').notNull().default(false),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('coverage_product_type').on(t.productId, t.type)],
);

/**
 * Versioned rate tables of a product. Drafts are editable; activating one makes it the single active version
 * (the previous one retires) and freezes it, so a quote that stored its rate_table id stays reproducible.
 */
export const rateTables = pgTable(
  'rate_table',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    versionNo: integer('version_no').notNull(),
    effectiveDate: date('effective_date', { mode: 'string' }).notNull(),
    /** draft | active | retired */
    status: text('status').notNull().default('draft'),
    /** Construction: the high-risk loading (× 10⁴); null: ×1.3. */
    highRiskLoading: integer('high_risk_loading'),
    /** Floating factors: FactorDef[] (see packages/shared/src/rating.ts). */
    factors: jsonb('factors').notNull().default([]),
    note: text('note'),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    activatedBy: bigint('activated_by', { mode: 'number' }),
    createdBy: bigint('created_by', { mode: 'number' }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('rate_table_product_version').on(t.productId, t.versionNo),
    uniqueIndex('rate_table_one_active').on(t.productId).where(sql`${t.status} = 'active'`),
    check('rate_table_status', sql`${t.status} in ('draft', 'active', 'retired')`),
  ],
);

/** Rows of a rate table: a rate by coverage, industry and limit tier, or a construction cost band. */
export const rateTableRows = pgTable(
  'rate_table_row',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    rateTableId: bigint('rate_table_id', { mode: 'number' })
      .notNull()
      .references(() => rateTables.id, { onDelete: 'cascade' }),
    coverageType: text('coverage_type'),
    /** GB/T 4754 section letter or two-digit division; null: any. */
    industry: text('industry'),
    limitTierFen: bigint('limit_tier_fen', { mode: 'number' }),
    costBandUpToFen: bigint('cost_band_up_to_fen', { mode: 'number' }),
    /** 10⁻⁷ of the base (per-mille × 10⁴). */
    rate: integer('rate').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    index('rate_table_row_table').on(t.rateTableId),
    check('rate_table_row_rate', sql`${t.rate} between 0 and 10000000`),
  ],
);

// ---- customers and review ----

/** Customers (投保人). An application needs an approved one. */
export const customers = pgTable(
  'customer',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Unified social credit code (or legacy tax number), upper case. */
    uscc: text('uscc').notNull(),
    name: text('name').notNull(),
    industrySection: text('industry_section').notNull(),
    industryDivision: text('industry_division').notNull(),
    region: text('region').notNull(),
    address: text('address').notNull(),
    legalRepresentative: text('legal_representative').notNull(),
    contactName: text('contact_name').notNull(),
    phone: text('phone').notNull(),
    headcount: integer('headcount').notNull(),
    licenceNo: text('licence_no'),
    /** SHA-256 (hex) of the bound CA certificate. */
    caFingerprint: text('ca_fingerprint'),
    /** The agent who owns the client (agent-created records); enterprise users are linked by uscc instead. */
    ownerId: bigint('owner_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    /** pending | approved | returned | rejected */
    reviewStatus: text('review_status').notNull().default('pending'),
    reviewOpinion: text('review_opinion'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('customer_uscc').on(t.uscc),
    uniqueIndex('customer_ca_fingerprint').on(t.caFingerprint).where(sql`${t.caFingerprint} is not null`),
    index('customer_owner').on(t.ownerId),
    index('customer_created_by').on(t.createdBy),
    index('customer_review_status').on(t.reviewStatus),
    index('customer_created').on(t.createdAt),
    check(
      'customer_review_status_value',
      sql`${t.reviewStatus} in ('pending', 'approved', 'returned', 'rejected')`,
    ),
    check('customer_headcount', sql`${t.headcount} between 0 and 999999`),
  ],
);

/**
 * Review tasks: one per submission of a record for review (kind 'customer' now; 'application' and 'tender'
 * later). At most one open task per record; deciding closes it.
 */
export const reviewTasks = pgTable(
  'review_task',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** customer | application | tender */
    kind: text('kind').notNull(),
    subjectId: bigint('subject_id', { mode: 'number' }).notNull(),
    /** What is reviewed, for lists (e.g. the customer's name and code). */
    title: text('title').notNull(),
    /** open | done */
    status: text('status').notNull().default('open'),
    submittedBy: bigint('submitted_by', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    assigneeId: bigint('assignee_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    /** approve | return | reject */
    decision: text('decision'),
    opinion: text('opinion'),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('review_task_one_open').on(t.kind, t.subjectId).where(sql`${t.status} = 'open'`),
    index('review_task_queue').on(t.status, t.kind, t.createdAt),
    index('review_task_subject').on(t.kind, t.subjectId),
    check('review_task_status', sql`${t.status} in ('open', 'done')`),
    check(
      'review_task_decision',
      sql`(${t.status} = 'open' and ${t.decision} is null) or (${t.status} = 'done' and ${t.decision} in ('approve', 'return', 'reject'))`,
    ),
  ],
);

// ---- applications (投保单), co-insurers, history, payment orders ----

/** Serials of the application and payment-order numbers (prefix and year are added by the server). */
export const applicationNumberSeq = pgSequence('application_number_seq', { startWith: 1 });
export const paymentOrderNumberSeq = pgSequence('payment_order_number_seq', { startWith: 1 });

/**
 * Applications: each wizard step saves the draft; submit re-rates on the active rate table and stores the quote
 * snapshot (rate-table id and version, every input, the factor breakdown) with the premium. States and their
 * transitions: packages/shared/src/application-status.ts.
 */
export const applications = pgTable(
  'application',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Made on the server: product prefix + year + serial, e.g. AZX2026000123. */
    number: text('number').notNull(),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id),
    /** enterprise | agent | project | zhenjiang */
    channel: text('channel').notNull(),
    /** 1 enterprise, 2 individual. */
    policyholderType: integer('policyholder_type').notNull().default(1),
    /** The applicant (投保人), an approved customer. */
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id),
    insuredName: text('insured_name'),
    insuredUscc: text('insured_uscc'),
    insuredAddress: text('insured_address'),
    contactName: text('contact_name'),
    contactPhone: text('contact_phone'),
    contactEmail: text('contact_email'),
    specialTerms: text('special_terms'),
    /** Asia/Shanghai dates: cover from 00:00 of the start day to 24:00 of the end day. */
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    // rating inputs
    industrySection: text('industry_section'),
    industryDivision: text('industry_division'),
    headcount: integer('headcount'),
    payrollFen: bigint('payroll_fen', { mode: 'number' }),
    perPersonLimitFen: bigint('per_person_limit_fen', { mode: 'number' }),
    /** Optional coverages chosen (CoverageType[]). */
    coverages: jsonb('coverages').notNull().default([]),
    /** Floating factors chosen: { code: option }. */
    factors: jsonb('factors').notNull().default({}),
    guaranteeAmountFen: bigint('guarantee_amount_fen', { mode: 'number' }),
    // construction project
    projectName: text('project_name'),
    projectAddress: text('project_address'),
    projectCostFen: bigint('project_cost_fen', { mode: 'number' }),
    contractor: text('contractor'),
    highRisk: boolean('high_risk').notNull().default(false),
    // the quote
    /** QuoteResult of @piibs/shared/product: rate-table id and version, inputs, lines, factors. */
    quote: jsonb('quote'),
    rateTableId: bigint('rate_table_id', { mode: 'number' }),
    premiumFen: bigint('premium_fen', { mode: 'number' }),
    /** Micro-percent, within the product's range (≤ 21%). */
    preventionRatio: integer('prevention_ratio'),
    preventionFeeFen: bigint('prevention_fee_fen', { mode: 'number' }),
    /** Micro-percent, ≤ the product's cap (≤ 5%). */
    commissionRate: integer('commission_rate'),
    agentId: bigint('agent_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    ownerId: bigint('owner_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    /** See APPLICATION_STATUSES. */
    status: text('status').notNull().default('DRAFT'),
    /** The underwriter's last opinion (return / decline). */
    reviewOpinion: text('review_opinion'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('application_number').on(t.number),
    index('application_customer').on(t.customerId),
    index('application_owner').on(t.ownerId),
    index('application_agent').on(t.agentId),
    index('application_status_created').on(t.status, t.createdAt),
    check(
      'application_status_value',
      sql`${t.status} in ('DRAFT', 'PENDING_REVIEW', 'RETURNED', 'DECLINED', 'PENDING_PAYMENT', 'PAID', 'PAYMENT_EXPIRED', 'CANCELLED', 'ISSUED', 'IN_FORCE', 'EXPIRED')`,
    ),
    check('application_channel', sql`${t.channel} in ('enterprise', 'agent', 'project', 'zhenjiang')`),
    check('application_policyholder_type', sql`${t.policyholderType} in (1, 2)`),
    check('application_prevention_ratio', sql`${t.preventionRatio} between 0 and 21000000`),
    check('application_commission', sql`${t.commissionRate} between 0 and 5000000`),
    check('application_money', sql`${t.premiumFen} >= 0 and ${t.preventionFeeFen} >= 0`),
    check('application_period', sql`${t.endDate} > ${t.startDate}`),
  ],
);

/** The co-insurance / joint-insurance table of an application: shares total 100% with one lead. */
export const applicationCoinsurers = pgTable(
  'application_coinsurer',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** Code from the `coinsurer` dictionary. */
    insurerCode: text('insurer_code').notNull(),
    lead: boolean('lead').notNull().default(false),
    /** Micro-percent. */
    share: integer('share').notNull(),
    premiumFen: bigint('premium_fen', { mode: 'number' }).notNull().default(0),
    preventionFeeFen: bigint('prevention_fee_fen', { mode: 'number' }).notNull().default(0),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    uniqueIndex('application_coinsurer_insurer').on(t.applicationId, t.insurerCode),
    uniqueIndex('application_coinsurer_one_lead').on(t.applicationId).where(sql`${t.lead}`),
    check('application_coinsurer_share', sql`${t.share} between 1 and 100000000`),
  ],
);

/** The history timeline of an application: every transition with its actor and opinion. Append-only. */
export const applicationEvents = pgTable(
  'application_event',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** create | submit | approve | return | decline | cancel */
    action: text('action').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actorId: bigint('actor_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name'),
    opinion: text('opinion'),
    createdAt: createdAt(),
  },
  (t) => [index('application_event_application').on(t.applicationId, t.id)],
);

/** Payment orders, made when an underwriter approves (the payment issue adds channels and callbacks). */
export const paymentOrders = pgTable(
  'payment_order',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    number: text('number').notNull(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    /** PENDING (the payment issue adds the others). */
    status: text('status').notNull().default('PENDING'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payment_order_number').on(t.number),
    index('payment_order_application').on(t.applicationId),
    check('payment_order_amount', sql`${t.amountFen} >= 0`),
  ],
);
