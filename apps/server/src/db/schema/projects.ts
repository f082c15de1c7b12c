// Project insurance: annual orders (年度订单), secondary orders (二次下单) and endorsements (批单).
// Rules and states: packages/shared/src/project-order.ts. Money in fen.

import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { applications, policies } from './business.ts';
import { bytea, createdAt, fen, id, updatedAt } from './columns.ts';
import { customers } from './customers.ts';
import { products } from './products.ts';
import { userRef } from './system.ts';

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
    id: id(),
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
    quotaFen: fen('quota_fen').notNull(),
    consumedFen: fen('consumed_fen').notNull().default(0),
    note: text('note'),
    /** The contractor's contact for this framework (from the customer when opened; staff may edit). */
    contactName: text('contact_name'),
    contactPhone: text('contact_phone'),
    /** The epinsure application this order was made from (生成年度订单), if any: at most one order each. */
    applicationId: bigint('application_id', { mode: 'number' }).references(() => applications.id),
    /** Set when staff close the order: no declarations (new or changes) after it. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdBy: userRef('created_by'),
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
    id: id(),
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
    premiumDiffFen: fen('premium_diff_fen'),
    projectName: text('project_name').notNull(),
    projectAddress: text('project_address').notNull(),
    projectCostFen: fen('project_cost_fen').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    highRisk: boolean('high_risk').notNull().default(false),
    headcount: integer('headcount'),
    /** QuoteResult of @piibs/shared/product (rate-table id and version, inputs, lines, factors). */
    quote: jsonb('quote').notNull(),
    rateTableId: bigint('rate_table_id', { mode: 'number' }).notNull(),
    premiumFen: fen('premium_fen').notNull(),
    reservedFen: fen('reserved_fen').notNull().default(0),
    /** See DECLARATION_STATUSES. */
    status: text('status').notNull().default('DRAFT'),
    reviewOpinion: text('review_opinion'),
    ownerId: userRef('owner_id'),
    agentId: userRef('agent_id'),
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
    id: id(),
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
    premiumBeforeFen: fen('premium_before_fen').notNull(),
    premiumAfterFen: fen('premium_after_fen').notNull(),
    premiumDiffFen: fen('premium_diff_fen').notNull(),
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
