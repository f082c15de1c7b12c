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
    /** The project change it issues (project insurance); null for a policy endorsement (policy_change_id). */
    secondaryOrderId: bigint('secondary_order_id', { mode: 'number' }).references(() => secondaryOrders.id),
    /** The policy's endorsement request it issues (批改 of an issued policy). */
    policyChangeId: bigint('policy_change_id', { mode: 'number' }).references(
      (): AnyPgColumn => policyChanges.id,
    ),
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
    uniqueIndex('endorsement_policy_change').on(t.policyChangeId),
    check('endorsement_source', sql`num_nonnulls(${t.secondaryOrderId}, ${t.policyChangeId}) = 1`),
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

export const policyChangeNumberSeq = pgSequence('policy_change_number_seq', { startWith: 1 });

/**
 * A policyholder's request to change (批改) or cancel (退保) an issued policy, through the underwriter's queue
 * (@piibs/shared/policy-change for the states). Holds the fields before → after in words, the annual premium
 * before and after, the premium delta (positive: to pay; negative: a return of premium; a cancellation's is
 * −refund), and, once approved, the payment or refund that settles it. One open request per policy (a unique
 * partial index); the idempotency key makes a resubmitted request answer the first.
 */
export const policyChanges = pgTable(
  'policy_change',
  {
    id: id(),
    /** 'G' + year + 8-digit serial. */
    number: text('number').notNull(),
    policyId: bigint('policy_id', { mode: 'number' })
      .notNull()
      .references(() => policies.id),
    /** ENDORSEMENT | CANCELLATION */
    kind: text('kind').notNull(),
    status: text('status').notNull().default('PENDING_REVIEW'),
    effectiveDate: date('effective_date', { mode: 'string' }).notNull(),
    /** FieldChange[] (@piibs/shared/policy-change): label, before, after in words. */
    changes: jsonb('changes').notNull().default([]),
    /** The new values to apply on approval ({ headcount?, contactName?, contactPhone?, insuredAddress? }). */
    newValues: jsonb('new_values').notNull().default({}),
    annualBeforeFen: fen('annual_before_fen').notNull(),
    annualAfterFen: fen('annual_after_fen').notNull(),
    /** The premium held before (paid − refunded) and the delta: + to pay, − to refund. */
    premiumBeforeFen: fen('premium_before_fen').notNull(),
    premiumDeltaFen: fen('premium_delta_fen').notNull(),
    /** Cancellation: reason, who asks, the earned premium and how it was reckoned, the prevention fees spent. */
    reason: text('reason'),
    party: text('party'),
    earnedFen: fen('earned_fen'),
    basis: text('basis'),
    preventionSpentFen: fen('prevention_spent_fen'),
    proofMaterialId: bigint('proof_material_id', { mode: 'number' }),
    note: text('note'),
    idempotencyKey: text('idempotency_key').notNull(),
    requestedBy: userRef('requested_by'),
    reviewedBy: userRef('reviewed_by'),
    reviewOpinion: text('review_opinion'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** Additional premium: the sandbox/gateway charge (order number = this request's number). */
    provider: text('provider'),
    chargeNo: text('charge_no'),
    cashierUrl: text('cashier_url'),
    payExpiresAt: timestamp('pay_expires_at', { withTimezone: true }),
    tradeNo: text('trade_no'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    doneAt: timestamp('done_at', { withTimezone: true }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('policy_change_number').on(t.number),
    uniqueIndex('policy_change_idempotency').on(t.policyId, t.idempotencyKey),
    uniqueIndex('policy_change_open')
      .on(t.policyId)
      .where(sql`${t.status} in ('PENDING_REVIEW', 'RETURNED', 'PENDING_PAYMENT', 'REFUNDING')`),
    index('policy_change_status').on(t.status, t.id),
    check('policy_change_kind', sql`${t.kind} in ('ENDORSEMENT', 'CANCELLATION')`),
    check(
      'policy_change_status',
      sql`${t.status} in ('PENDING_REVIEW', 'RETURNED', 'DECLINED', 'PENDING_PAYMENT', 'REFUNDING', 'DONE', 'LAPSED')`,
    ),
    check(
      'policy_change_money',
      sql`${t.annualBeforeFen} >= 0 and ${t.annualAfterFen} >= 0 and ${t.premiumBeforeFen} >= 0 and ${t.premiumBeforeFen} + ${t.premiumDeltaFen} >= 0`,
    ),
  ],
);

/**
 * Refunds asked of the payment gateway: one per refund number (the idempotency key the gateway keys on), against
 * one paid charge (the original order or an endorsement's). SUCCESS once the gateway's signed answer verified.
 */
export const policyRefunds = pgTable(
  'policy_refund',
  {
    id: id(),
    refundNo: text('refund_no').notNull(),
    policyChangeId: bigint('policy_change_id', { mode: 'number' })
      .notNull()
      .references(() => policyChanges.id),
    policyId: bigint('policy_id', { mode: 'number' })
      .notNull()
      .references(() => policies.id),
    provider: text('provider').notNull(),
    /** The merchant order number of the charge refunded. */
    orderNo: text('order_no').notNull(),
    amountFen: fen('amount_fen').notNull(),
    /** PENDING | SUCCESS */
    status: text('status').notNull().default('PENDING'),
    refundTradeNo: text('refund_trade_no'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('policy_refund_no').on(t.refundNo),
    index('policy_refund_change').on(t.policyChangeId),
    check('policy_refund_amount', sql`${t.amountFen} > 0`),
    check('policy_refund_status', sql`${t.status} in ('PENDING', 'SUCCESS')`),
  ],
);
