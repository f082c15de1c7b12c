import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
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
    /** The per-IP failure budget counts only failures: behind a NAT the successes would be read at every sign-in. */
    index('login_attempt_ip_failures')
      .on(t.ip, t.createdAt)
      .where(sql`${t.success} = false and ${t.reason} is distinct from 'ip_limited'`),
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
 * The applications' data version: a statement trigger (migration 0014) advances it on every insert, update or
 * delete of application, so cached list counts know they are stale (lib/paging.ts CountCache).
 */
export const applicationChangeSeq = pgSequence('application_change_seq', { startWith: 1 });

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
    /** The policy this application renews (modules/sales/renewal.ts); null for new business. */
    renewalOfPolicyId: bigint('renewal_of_policy_id', { mode: 'number' }).references(
      (): AnyPgColumn => policies.id,
    ),
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
    /** insureList's orders, paged by cursor: (key, id) row comparisons read only the page. */
    index('application_updated_id').on(t.updatedAt, t.id),
    index('application_created_id').on(t.createdAt, t.id),
    /** At most one live (not cancelled or declined) renewal per policy. */
    uniqueIndex('application_renewal_of_policy')
      .on(t.renewalOfPolicyId)
      .where(sql`${t.renewalOfPolicyId} is not null and ${t.status} not in ('CANCELLED', 'DECLINED')`),
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

/**
 * Payment orders, made when an underwriter approves (PENDING, 24 h). Paying asks the payment provider for a
 * charge (provider, charge_no, the cashier URL); a verified notification or an active query settles it (PAID,
 * one `payment` row); the expiry job closes it (EXPIRED); cancelling the application cancels it (CANCELLED).
 */
export const paymentOrders = pgTable(
  'payment_order',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    number: text('number').notNull(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    /** PENDING | PAID | EXPIRED | CANCELLED */
    status: text('status').notNull().default('PENDING'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The provider asked for a charge (e.g. 'sandbox'); null until the payer first opens the cashier. */
    provider: text('provider'),
    /** The provider's id of the charge. */
    chargeNo: text('charge_no'),
    cashierUrl: text('cashier_url'),
    chargedAt: timestamp('charged_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payment_order_number').on(t.number),
    index('payment_order_application').on(t.applicationId),
    index('payment_order_status_expires').on(t.status, t.expiresAt),
    check('payment_order_amount', sql`${t.amountFen} >= 0`),
    check('payment_order_status', sql`${t.status} in ('PENDING', 'PAID', 'EXPIRED', 'CANCELLED')`),
  ],
);

/**
 * Image materials (影像资料): uploaded scans attached to a business record (application, customer,
 * later policy). The bytes live behind the storage interface under a server-generated key; rows are
 * soft-deleted so the audit trail keeps pointing at something.
 */
export const materials = pgTable(
  'material',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** application | customer | policy */
    businessType: text('business_type').notNull(),
    businessId: bigint('business_id', { mode: 'number' }).notNull(),
    /** Code from the document-type dictionary. */
    docType: text('doc_type').notNull(),
    originalName: text('original_name').notNull(),
    storageKey: text('storage_key').notNull(),
    mime: text('mime').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: bigint('uploaded_by', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('material_business').on(t.businessType, t.businessId, t.docType),
    uniqueIndex('material_storage_key').on(t.storageKey),
    check(
      'material_business_type',
      sql`${t.businessType} in ('application', 'customer', 'policy', 'service_order')`,
    ),
    check('material_mime', sql`${t.mime} in ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')`),
    check('material_size', sql`${t.sizeBytes} > 0`),
  ],
);

// ---- payments: notifications, payments, the sandbox gateway's own ledger ----

/**
 * Every payment notification received, verified or not, kept as it came (raw body, a few safe headers), with
 * whether its signature held and what came of it: PAID | DUPLICATE | BAD_SIGNATURE | AMOUNT_MISMATCH |
 * UNKNOWN_ORDER | ORDER_CLOSED | MALFORMED | ERROR. Never updated.
 */
export const paymentNotifications = pgTable(
  'payment_notification',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    orderNo: text('order_no'),
    tradeNo: text('trade_no'),
    amountFen: bigint('amount_fen', { mode: 'number' }),
    rawBody: text('raw_body').notNull(),
    headers: jsonb('headers').notNull().default({}),
    signatureValid: boolean('signature_valid').notNull(),
    outcome: text('outcome').notNull(),
    message: text('message'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [
    index('payment_notification_order').on(t.orderNo, t.id),
    index('payment_notification_time').on(t.createdAt),
  ],
);

/** A settled payment: exactly one per payment order (and per provider trade). */
export const payments = pgTable(
  'payment',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => paymentOrders.id),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id),
    provider: text('provider').notNull(),
    /** The provider's transaction number. */
    tradeNo: text('trade_no').notNull(),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
    /** notify (a verified notification) | query (an active query of the provider) */
    source: text('source').notNull(),
    notificationId: bigint('notification_id', { mode: 'number' }).references(() => paymentNotifications.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payment_order_once').on(t.orderId),
    uniqueIndex('payment_provider_trade').on(t.provider, t.tradeNo),
    index('payment_application').on(t.applicationId),
    check('payment_source', sql`${t.source} in ('notify', 'query')`),
    check('payment_amount', sql`${t.amountFen} >= 0`),
  ],
);

/**
 * The sandbox gateway's side of a charge (what a real gateway keeps on its own servers): the cashier pays it,
 * the query API reads it, closing refuses later payment. Only the sandbox provider touches it.
 */
export const sandboxCharges = pgTable(
  'sandbox_charge',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chargeNo: text('charge_no').notNull(),
    merchantId: text('merchant_id').notNull(),
    /** The merchant's order number (payment_order.number). */
    orderNo: text('order_no').notNull(),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    subject: text('subject').notNull(),
    /** PENDING | PAID | CLOSED */
    status: text('status').notNull().default('PENDING'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    tradeNo: text('trade_no'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    notifyAttempts: integer('notify_attempts').notNull().default(0),
    lastNotifyStatus: integer('last_notify_status'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('sandbox_charge_no').on(t.chargeNo),
    uniqueIndex('sandbox_charge_order').on(t.merchantId, t.orderNo),
    check('sandbox_charge_status', sql`${t.status} in ('PENDING', 'PAID', 'CLOSED')`),
  ],
);

// ---- policies (保单): issued on payment, with the co-insurance table and the e-policy document ----

/** Serial of the policy numbers (the server adds 'P', the product prefix and the year). */
export const policyNumberSeq = pgSequence('policy_number_seq', { startWith: 1 });

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * Policies: one per paid application, made by the issuance job. Holds a copy of what was insured (period,
 * coverages with their limits and premiums, premium, prevention fee), the verification code printed on the
 * e-policy and the SHA-256 of that document.
 */
export const policies = pgTable(
  'policy',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** 'P' + product prefix + year + 8-digit serial, e.g. PAZX202600000001. */
    number: text('number').notNull(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => payments.id),
    holderName: text('holder_name').notNull(),
    holderUscc: text('holder_uscc').notNull(),
    insuredName: text('insured_name').notNull(),
    insuredUscc: text('insured_uscc'),
    insuredAddress: text('insured_address'),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    premiumFen: bigint('premium_fen', { mode: 'number' }).notNull(),
    preventionRatio: integer('prevention_ratio'),
    preventionFeeFen: bigint('prevention_fee_fen', { mode: 'number' }).notNull().default(0),
    /** PolicyCoverage[] (@piibs/shared/policy): the quote's lines with the limits insured. */
    coverages: jsonb('coverages').notNull().default([]),
    headcount: integer('headcount'),
    projectName: text('project_name'),
    specialTerms: text('special_terms'),
    /** ISSUED (IN_FORCE / EXPIRED follow from the dates; see @piibs/shared/policy). */
    status: text('status').notNull().default('ISSUED'),
    /** Printed on the e-policy and in its QR code; answers the public verification. */
    verificationCode: text('verification_code').notNull(),
    pdfSha256: text('pdf_sha256').notNull(),
    pdfSize: integer('pdf_size').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('policy_number').on(t.number),
    uniqueIndex('policy_application').on(t.applicationId),
    uniqueIndex('policy_verification_code').on(t.verificationCode),
    index('policy_customer').on(t.customerId),
    index('policy_issued').on(t.issuedAt),
    check('policy_status', sql`${t.status} in ('ISSUED', 'IN_FORCE', 'EXPIRED')`),
    check('policy_money', sql`${t.premiumFen} >= 0 and ${t.preventionFeeFen} >= 0`),
    check('policy_period', sql`${t.endDate} > ${t.startDate}`),
  ],
);

/** The co-insurance table of a policy, copied from the application at issue. */
export const policyCoinsurers = pgTable(
  'policy_coinsurer',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    policyId: bigint('policy_id', { mode: 'number' })
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    insurerCode: text('insurer_code').notNull(),
    insurerName: text('insurer_name'),
    lead: boolean('lead').notNull().default(false),
    /** Micro-percent. */
    share: integer('share').notNull(),
    premiumFen: bigint('premium_fen', { mode: 'number' }).notNull(),
    preventionFeeFen: bigint('prevention_fee_fen', { mode: 'number' }).notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    uniqueIndex('policy_coinsurer_insurer').on(t.policyId, t.insurerCode),
    check('policy_coinsurer_share', sql`${t.share} between 1 and 100000000`),
  ],
);

/** The e-policy PDF as issued (its SHA-256 is on the policy row). */
export const policyDocuments = pgTable('policy_document', {
  policyId: bigint('policy_id', { mode: 'number' })
    .primaryKey()
    .references(() => policies.id, { onDelete: 'cascade' }),
  content: bytea('content').notNull(),
  sha256: text('sha256').notNull(),
  createdAt: createdAt(),
});

// ---- sales supplements (补录): sales information of an issued policy, salesperson change history ----

/**
 * The sales information added to an issued policy (one per policy): salesperson, agent, commission rate
 * (micro-percent, ≤ the product's cap ≤ 5%), business source (`business_source` dictionary); the NBNMG variant
 * (农民工工资保证) adds the project, the number of migrant workers, the wage account, the labour-contract filing
 * number and the supervising authority.
 */
export const salesSupplements = pgTable(
  'sales_supplement',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    policyId: bigint('policy_id', { mode: 'number' })
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    /** STANDARD | NBNMG */
    variant: text('variant').notNull().default('STANDARD'),
    salespersonName: text('salesperson_name').notNull(),
    salespersonNo: text('salesperson_no').notNull(),
    /** The agent as a user of the system, if any. */
    agentUserId: bigint('agent_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    /** The agent's (user's or agency's) name. */
    agentName: text('agent_name'),
    agentLicenceNo: text('agent_licence_no'),
    /** Micro-percent, ≤ the product's commission cap (≤ 5%). */
    commissionRate: integer('commission_rate').notNull(),
    /** Value from the `business_source` dictionary. */
    businessSource: text('business_source').notNull(),
    // NBNMG (农民工工资保证)
    nbProjectName: text('nb_project_name'),
    migrantWorkerCount: integer('migrant_worker_count'),
    wageBank: text('wage_bank'),
    wageAccountNo: text('wage_account_no'),
    labourContractFilingNo: text('labour_contract_filing_no'),
    supervisingAuthority: text('supervising_authority'),
    remark: text('remark'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    updatedBy: bigint('updated_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('sales_supplement_policy').on(t.policyId),
    index('sales_supplement_salesperson').on(t.salespersonNo),
    check('sales_supplement_variant', sql`${t.variant} in ('STANDARD', 'NBNMG')`),
    check('sales_supplement_commission', sql`${t.commissionRate} between 0 and 5000000`),
    check(
      'sales_supplement_migrant_workers',
      sql`${t.migrantWorkerCount} is null or ${t.migrantWorkerCount} between 1 and 999999`,
    ),
  ],
);

/** Changes of a supplement's salesperson (updateSale): old → new, who, when, why. Append-only. */
export const salespersonChanges = pgTable(
  'salesperson_change',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    supplementId: bigint('supplement_id', { mode: 'number' })
      .notNull()
      .references(() => salesSupplements.id, { onDelete: 'cascade' }),
    policyId: bigint('policy_id', { mode: 'number' })
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    oldName: text('old_name').notNull(),
    oldNo: text('old_no').notNull(),
    newName: text('new_name').notNull(),
    newNo: text('new_no').notNull(),
    reason: text('reason').notNull(),
    actorId: bigint('actor_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name'),
    createdAt: createdAt(),
  },
  (t) => [index('salesperson_change_supplement').on(t.supplementId, t.id)],
);

// ---- risk control: accident-prevention services (AQ 9010-2019; see @piibs/shared/risk-control) ----

/** Service organisations (风控服务机构): qualifications, regions and industries served, contacts (jsonb). */
export const serviceOrgs = pgTable(
  'service_org',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** GB 32100 unified social credit code. */
    code: text('code').notNull(),
    name: text('name').notNull(),
    address: text('address'),
    /** { name, certNo, level, validFrom, validTo }[] */
    qualifications: jsonb('qualifications').notNull().default([]),
    /** GB/T 2260 region codes. */
    regions: jsonb('regions').notNull().default([]),
    /** GB/T 4754 industry sections (A–T). */
    industries: jsonb('industries').notNull().default([]),
    /** { name, phone, position }[] (phones masked whenever read). */
    contacts: jsonb('contacts').notNull().default([]),
    enabled: boolean('enabled').notNull().default(true),
    note: text('note'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('service_org_code').on(t.code), index('service_org_name').on(t.name)],
);

/** The sign-in accounts acting for a service organisation (a user belongs to at most one). */
export const serviceOrgMembers = pgTable(
  'service_org_member',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => serviceOrgs.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('service_org_member_org').on(t.orgId)],
);

/** Service persons and experts of an organisation, with their qualification certificate. */
export const servicePersons = pgTable(
  'service_person',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => serviceOrgs.id),
    name: text('name').notNull(),
    specialty: text('specialty').notNull(),
    title: text('title'),
    expert: boolean('expert').notNull().default(false),
    certificateName: text('certificate_name').notNull(),
    certificateNo: text('certificate_no').notNull(),
    certificateValidFrom: date('certificate_valid_from', { mode: 'string' }).notNull(),
    certificateValidTo: date('certificate_valid_to', { mode: 'string' }).notNull(),
    phone: text('phone').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    note: text('note'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('service_person_org').on(t.orgId),
    check('service_person_certificate', sql`${t.certificateValidFrom} <= ${t.certificateValidTo}`),
  ],
);

/**
 * The prevention fund of a policy (its prevention fee): planned (reserved by plan items, not yet spent),
 * spent (confirmed services) and what is left. Every change locks this row; the CHECK keeps planned + spent
 * within the total whatever happens.
 */
export const preventionFunds = pgTable(
  'prevention_fund',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    policyId: bigint('policy_id', { mode: 'number' })
      .notNull()
      .references(() => policies.id),
    /** 'YF' + policy number. */
    seqNo: text('seq_no').notNull(),
    totalFen: bigint('total_fen', { mode: 'number' }).notNull(),
    plannedFen: bigint('planned_fen', { mode: 'number' }).notNull().default(0),
    spentFen: bigint('spent_fen', { mode: 'number' }).notNull().default(0),
    /** The last service order serial of this record. */
    orderSerial: integer('order_serial').notNull().default(0),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('prevention_fund_policy').on(t.policyId),
    uniqueIndex('prevention_fund_seq_no').on(t.seqNo),
    check(
      'prevention_fund_amounts',
      sql`${t.plannedFen} >= 0 and ${t.spentFen} >= 0 and ${t.plannedFen} + ${t.spentFen} <= ${t.totalFen}`,
    ),
  ],
);

/** Items of a policy's service plan: what, how often, by whom, when, at what cost. Soft-deleted. */
export const preventionPlanItems = pgTable(
  'prevention_plan_item',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    fundId: bigint('fund_id', { mode: 'number' })
      .notNull()
      .references(() => preventionFunds.id),
    itemType: text('item_type').notNull(),
    content: text('content'),
    frequency: text('frequency').notNull(),
    times: integer('times').notNull(),
    unitCostFen: bigint('unit_cost_fen', { mode: 'number' }).notNull(),
    /** unit_cost × times (0 once deleted). */
    reservedFen: bigint('reserved_fen', { mode: 'number' }).notNull(),
    spentFen: bigint('spent_fen', { mode: 'number' }).notNull().default(0),
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => serviceOrgs.id),
    personIds: jsonb('person_ids').notNull().default([]),
    scheduledDates: jsonb('scheduled_dates').notNull().default([]),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('prevention_plan_item_fund').on(t.fundId),
    index('prevention_plan_item_org').on(t.orgId),
    check('prevention_plan_item_times', sql`${t.times} >= 1`),
    check(
      'prevention_plan_item_money',
      sql`${t.unitCostFen} >= 0 and ${t.spentFen} >= 0 and ${t.reservedFen} >= 0`,
    ),
  ],
);

/** Service orders: one occurrence of a plan item, dispatched to the item's organisation. */
export const serviceOrders = pgTable(
  'service_order',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** seq_no + '-' + serial, e.g. YFPAZX202600000001-001. */
    number: text('number').notNull(),
    fundId: bigint('fund_id', { mode: 'number' })
      .notNull()
      .references(() => preventionFunds.id),
    policyId: bigint('policy_id', { mode: 'number' })
      .notNull()
      .references(() => policies.id),
    planItemId: bigint('plan_item_id', { mode: 'number' })
      .notNull()
      .references(() => preventionPlanItems.id),
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => serviceOrgs.id),
    itemType: text('item_type').notNull(),
    personIds: jsonb('person_ids').notNull().default([]),
    scheduledDate: date('scheduled_date', { mode: 'string' }).notNull(),
    costFen: bigint('cost_fen', { mode: 'number' }).notNull(),
    /** See SERVICE_ORDER_STATUSES. */
    status: text('status').notNull().default('DISPATCHED'),
    note: text('note'),
    serviceDate: date('service_date', { mode: 'string' }),
    address: text('address'),
    findings: text('findings'),
    /** { name, side, position }[] */
    participants: jsonb('participants').notNull().default([]),
    rejectReason: text('reject_reason'),
    cancelReason: text('cancel_reason'),
    returnOpinion: text('return_opinion'),
    satisfaction: integer('satisfaction'),
    satisfactionComment: text('satisfaction_comment'),
    ratedAt: timestamp('rated_at', { withTimezone: true }),
    dispatchedBy: bigint('dispatched_by', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    confirmedBy: bigint('confirmed_by', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('service_order_number').on(t.number),
    index('service_order_org_status').on(t.orgId, t.status),
    index('service_order_policy').on(t.policyId),
    index('service_order_plan_item').on(t.planItemId),
    check(
      'service_order_status',
      sql`${t.status} in ('DISPATCHED', 'ACCEPTED', 'REJECTED', 'IN_SERVICE', 'SUBMITTED', 'CONFIRMED', 'CLOSED', 'CANCELLED')`,
    ),
    check('service_order_cost', sql`${t.costFen} >= 0`),
    check('service_order_satisfaction', sql`${t.satisfaction} is null or ${t.satisfaction} between 1 and 5`),
  ],
);

/** Hazards found on site: level, rectification deadline, follow-up until rectified. */
export const serviceHazards = pgTable(
  'service_hazard',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => serviceOrders.id),
    seq: integer('seq').notNull(),
    description: text('description').notNull(),
    location: text('location'),
    /** GENERAL | SERIOUS | MAJOR (一般 / 较大 / 重大) */
    level: text('level').notNull(),
    measure: text('measure'),
    deadline: date('deadline', { mode: 'string' }).notNull(),
    /** OPEN | RECTIFIED */
    status: text('status').notNull().default('OPEN'),
    rectifiedDate: date('rectified_date', { mode: 'string' }),
    rectifyNote: text('rectify_note'),
    rectifiedBy: bigint('rectified_by', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    rectifiedAt: timestamp('rectified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('service_hazard_order').on(t.orderId, t.seq),
    check('service_hazard_level', sql`${t.level} in ('GENERAL', 'SERIOUS', 'MAJOR')`),
    check('service_hazard_status', sql`${t.status} in ('OPEN', 'RECTIFIED')`),
  ],
);

/** The timeline of a service order: every transition with its actor and opinion. Append-only. */
export const serviceOrderEvents = pgTable(
  'service_order_event',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => serviceOrders.id),
    action: text('action').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actorId: bigint('actor_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name'),
    opinion: text('opinion'),
    createdAt: createdAt(),
  },
  (t) => [index('service_order_event_order').on(t.orderId, t.id)],
);

/** Complaints about a service, answered within 10 working days; one open at a time per order. */
export const serviceComplaints = pgTable(
  'service_complaint',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => serviceOrders.id),
    content: text('content').notNull(),
    complainedOn: date('complained_on', { mode: 'string' }).notNull(),
    deadline: date('deadline', { mode: 'string' }).notNull(),
    /** OPEN | REPLIED */
    status: text('status').notNull().default('OPEN'),
    reply: text('reply'),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    repliedBy: bigint('replied_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    repliedByName: text('replied_by_name'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name'),
    createdAt: createdAt(),
  },
  (t) => [
    index('service_complaint_order').on(t.orderId, t.id),
    uniqueIndex('service_complaint_one_open').on(t.orderId).where(sql`${t.status} = 'OPEN'`),
    index('service_complaint_open_deadline').on(t.deadline).where(sql`${t.status} = 'OPEN'`),
    check('service_complaint_status', sql`${t.status} in ('OPEN', 'REPLIED')`),
  ],
);

/** The fund's ledger: every reservation, release and spending with the amounts after it. Append-only. */
export const preventionLedger = pgTable(
  'prevention_ledger_entry',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    fundId: bigint('fund_id', { mode: 'number' })
      .notNull()
      .references(() => preventionFunds.id),
    /** RESERVE | RELEASE | SPEND */
    kind: text('kind').notNull(),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    plannedDeltaFen: bigint('planned_delta_fen', { mode: 'number' }).notNull(),
    spentDeltaFen: bigint('spent_delta_fen', { mode: 'number' }).notNull(),
    plannedAfterFen: bigint('planned_after_fen', { mode: 'number' }).notNull(),
    spentAfterFen: bigint('spent_after_fen', { mode: 'number' }).notNull(),
    leftAfterFen: bigint('left_after_fen', { mode: 'number' }).notNull(),
    planItemId: bigint('plan_item_id', { mode: 'number' }).references(() => preventionPlanItems.id),
    orderId: bigint('order_id', { mode: 'number' }).references(() => serviceOrders.id),
    note: text('note'),
    actorId: bigint('actor_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name'),
    createdAt: createdAt(),
  },
  (t) => [
    index('prevention_ledger_fund').on(t.fundId, t.id),
    check('prevention_ledger_kind', sql`${t.kind} in ('RESERVE', 'RELEASE', 'SPEND')`),
    check('prevention_ledger_left', sql`${t.leftAfterFen} >= 0`),
  ],
);

// ---- project insurance: annual orders (年度订单) and secondary orders (二次下单) ----
// Rules and states: packages/shared/src/project-order.ts. Money in fen.

/** Serials of the annual-order and secondary-order numbers (the server adds the prefix and the year). */
export const annualOrderNumberSeq = pgSequence('annual_order_number_seq', { startWith: 1 });
export const secondaryOrderNumberSeq = pgSequence('secondary_order_number_seq', { startWith: 1 });

/**
 * Annual orders: a contractor's framework for a period on one construction product, with a premium quota.
 * `consumed_fen` is the premium reserved by its declarations (changed only under a row lock on this row); the
 * CHECK keeps it within the quota whatever happens.
 */
export const annualOrders = pgTable(
  'annual_order',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** 'ND' + year + 6-digit serial, e.g. ND2026000001. */
    number: text('number').notNull(),
    /** The contractor (施工企业), an approved customer. */
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    quotaFen: bigint('quota_fen', { mode: 'number' }).notNull(),
    consumedFen: bigint('consumed_fen', { mode: 'number' }).notNull().default(0),
    note: text('note'),
    /** The contractor's contact for this framework (from the customer when opened; staff may edit). */
    contactName: text('contact_name'),
    contactPhone: text('contact_phone'),
    /** The epinsure application this order was made from (生成年度订单), if any: at most one order each. */
    applicationId: bigint('application_id', { mode: 'number' }).references(() => applications.id),
    /** Set when staff close the order: no declarations (new or changes) after it. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('annual_order_number').on(t.number),
    uniqueIndex('annual_order_application').on(t.applicationId),
    index('annual_order_customer').on(t.customerId),
    index('annual_order_created_by').on(t.createdBy),
    check('annual_order_quota', sql`${t.quotaFen} > 0 and ${t.consumedFen} between 0 and ${t.quotaFen}`),
    check('annual_order_period', sql`${t.endDate} > ${t.startDate}`),
  ],
);

/**
 * Secondary orders (二次下单): a project declared against an annual order, priced on the product's active rate
 * table (the quote snapshot kept), reviewed as a 'tender' task. `reserved_fen` is what it holds of the order's
 * quota now. On approval the server makes the project's application (channel 'project', settled against the
 * annual order) and issues its policy through the issuance path.
 */
export const secondaryOrders = pgTable(
  'secondary_order',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** 'EC' + year + 6-digit serial, e.g. EC2026000001. */
    number: text('number').notNull(),
    annualOrderId: bigint('annual_order_id', { mode: 'number' })
      .notNull()
      .references(() => annualOrders.id),
    /** 1 a new project; 2 a change (批改) of the approved project `base_id`. */
    kind: integer('kind').notNull().default(1),
    /** A change's project: the kind-1 declaration whose policy the endorsement amends. */
    baseId: bigint('base_id', { mode: 'number' }).references((): AnyPgColumn => secondaryOrders.id),
    /** A change's starting point: the project's values and premium when the change was made. */
    baseValues: jsonb('base_values'),
    /** A change's premium difference against the project's current premium (negative: a refund). */
    premiumDiffFen: bigint('premium_diff_fen', { mode: 'number' }),
    projectName: text('project_name').notNull(),
    projectAddress: text('project_address').notNull(),
    projectCostFen: bigint('project_cost_fen', { mode: 'number' }).notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    highRisk: boolean('high_risk').notNull().default(false),
    headcount: integer('headcount'),
    /** QuoteResult of @piibs/shared/product (rate-table id and version, inputs, lines, factors). */
    quote: jsonb('quote').notNull(),
    rateTableId: bigint('rate_table_id', { mode: 'number' }).notNull(),
    premiumFen: bigint('premium_fen', { mode: 'number' }).notNull(),
    reservedFen: bigint('reserved_fen', { mode: 'number' }).notNull().default(0),
    /** See DECLARATION_STATUSES. */
    status: text('status').notNull().default('DRAFT'),
    reviewOpinion: text('review_opinion'),
    ownerId: bigint('owner_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    agentId: bigint('agent_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    /** The application made on approval, whose policy is the project's. */
    applicationId: bigint('application_id', { mode: 'number' }).references(() => applications.id),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('secondary_order_number').on(t.number),
    uniqueIndex('secondary_order_application').on(t.applicationId),
    index('secondary_order_annual').on(t.annualOrderId, t.status),
    index('secondary_order_owner').on(t.ownerId),
    /** At most one open change per project. */
    uniqueIndex('secondary_order_open_change')
      .on(t.baseId)
      .where(sql`${t.status} in ('DRAFT', 'PENDING_REVIEW', 'RETURNED')`),
    check('secondary_order_change', sql`(${t.kind} = 2) = (${t.baseId} is not null)`),
    check(
      'secondary_order_status',
      sql`${t.status} in ('DRAFT', 'PENDING_REVIEW', 'RETURNED', 'APPROVED', 'REJECTED', 'CANCELLED')`,
    ),
    check('secondary_order_kind', sql`${t.kind} in (1, 2)`),
    check(
      'secondary_order_money',
      sql`${t.projectCostFen} > 0 and ${t.premiumFen} >= 0 and ${t.reservedFen} >= 0`,
    ),
    check('secondary_order_period', sql`${t.endDate} > ${t.startDate}`),
  ],
);

export const endorsementNumberSeq = pgSequence('endorsement_number_seq', { startWith: 1 });

/**
 * Endorsements (批单): an approved change of a project, issued against the project's policy (the policy row and
 * its e-policy stay as issued). Holds the changed fields (before → after), the premium difference (negative: a
 * refund) and the SHA-256 of its PDF. One per change.
 */
export const endorsements = pgTable(
  'endorsement',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** 'E' + product prefix + year + 8-digit serial, e.g. EJZSG202600000001. */
    number: text('number').notNull(),
    policyId: bigint('policy_id', { mode: 'number' })
      .notNull()
      .references(() => policies.id),
    secondaryOrderId: bigint('secondary_order_id', { mode: 'number' })
      .notNull()
      .references(() => secondaryOrders.id),
    /** EndorsementChange[] (@piibs/shared/project-order): field, label, before, after (display text). */
    changes: jsonb('changes').notNull().default([]),
    premiumBeforeFen: bigint('premium_before_fen', { mode: 'number' }).notNull(),
    premiumAfterFen: bigint('premium_after_fen', { mode: 'number' }).notNull(),
    premiumDiffFen: bigint('premium_diff_fen', { mode: 'number' }).notNull(),
    /** Asia/Shanghai date the change takes effect (the day after approval: no back-dating). */
    effectiveDate: date('effective_date', { mode: 'string' }).notNull(),
    pdfSha256: text('pdf_sha256').notNull(),
    pdfSize: integer('pdf_size').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('endorsement_number').on(t.number),
    uniqueIndex('endorsement_secondary_order').on(t.secondaryOrderId),
    index('endorsement_policy').on(t.policyId),
    check(
      'endorsement_money',
      sql`${t.premiumBeforeFen} >= 0 and ${t.premiumAfterFen} >= 0 and ${t.premiumDiffFen} = ${t.premiumAfterFen} - ${t.premiumBeforeFen}`,
    ),
  ],
);

/** The endorsement's PDF as issued (its SHA-256 is on the endorsement row). */
export const endorsementDocuments = pgTable('endorsement_document', {
  endorsementId: bigint('endorsement_id', { mode: 'number' })
    .primaryKey()
    .references(() => endorsements.id, { onDelete: 'cascade' }),
  content: bytea('content').notNull(),
  sha256: text('sha256').notNull(),
  createdAt: createdAt(),
});

/**
 * In-app notifications: one row per (user, event). `event_key` is deterministic per business event, so a
 * retried request, a replayed gateway notification or a re-run job never stores the same event twice.
 * Rows are written by `notify` inside the business transaction and pushed live via pg_notify on commit.
 */
export const notifications = pgTable(
  'notification',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** e.g. task.assigned, application.approved, payment.received, policy.expiring. */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** A web route path to the record. */
    link: text('link'),
    eventKey: text('event_key').notNull(),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notification_user_event').on(t.userId, t.eventKey),
    index('notification_user_id').on(t.userId, t.id.desc()),
    index('notification_unread').on(t.userId, t.id).where(sql`${t.readAt} is null`),
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
