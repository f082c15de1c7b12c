// The new-business chain: applications (投保单) with their co-insurers and history, payment orders and payments
// (the provider's notifications, the sandbox gateway's own ledger), and the policies (保单) issued from them with
// their co-insurance table and e-policy document. One file, because an application and its policy refer to each
// other (a renewal names the policy it renews).

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
import { bytea, createdAt, fen, id, updatedAt } from './columns.ts';
import { customers } from './customers.ts';
import { products } from './products.ts';
import { userRef } from './system.ts';

/** Serials of the application and payment-order numbers (prefix and year are added by the server). */
export const applicationNumberSeq = pgSequence('application_number_seq', { startWith: 1 });
export const paymentOrderNumberSeq = pgSequence('payment_order_number_seq', { startWith: 1 });
/**
 * The applications' data version: a statement trigger (migration 0014) advances it on every insert, update or
 * delete of application, so cached list counts know they are stale (lib/paging.ts CountCache).
 */
export const applicationChangeSeq = pgSequence('application_change_seq', { startWith: 1 });
/**
 * The policies' data version: a statement trigger (migration 0028) advances it on every insert, update or delete
 * of policy, so the policy list's cached counts know they are stale (lib/keyset.ts CountCache).
 */
export const policyDataVersionSeq = pgSequence('policy_data_version_seq', { startWith: 1 });

/**
 * Applications: each wizard step saves the draft; submit re-rates on the active rate table and stores the quote
 * snapshot (rate-table id and version, every input, the factor breakdown) with the premium. States and their
 * transitions: packages/shared/src/application-status.ts.
 */
export const applications = pgTable(
  'application',
  {
    id: id(),
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
    payrollFen: fen('payroll_fen'),
    perPersonLimitFen: fen('per_person_limit_fen'),
    /** Optional coverages chosen (CoverageType[]). */
    coverages: jsonb('coverages').notNull().default([]),
    /** Floating factors chosen: { code: option }. */
    factors: jsonb('factors').notNull().default({}),
    guaranteeAmountFen: fen('guarantee_amount_fen'),
    // construction project
    projectName: text('project_name'),
    projectAddress: text('project_address'),
    projectCostFen: fen('project_cost_fen'),
    contractor: text('contractor'),
    highRisk: boolean('high_risk').notNull().default(false),
    // the quote
    /** QuoteResult of @piibs/shared/product: rate-table id and version, inputs, lines, factors. */
    quote: jsonb('quote'),
    rateTableId: bigint('rate_table_id', { mode: 'number' }),
    premiumFen: fen('premium_fen'),
    /** Micro-percent, within the product's range (≤ 21%). */
    preventionRatio: integer('prevention_ratio'),
    preventionFeeFen: fen('prevention_fee_fen'),
    /** Micro-percent, ≤ the product's cap (≤ 5%). */
    commissionRate: integer('commission_rate'),
    agentId: userRef('agent_id'),
    ownerId: userRef('owner_id'),
    /**
     * The applicant's owner (customer.owner_id: the agent whose client it is), for an agent's data scope: their
     * clients' applications are one index range of (applicant_owner_id, updated_at, id), not a range per client.
     * Kept by triggers (migration 0026), on a change of the row's applicant or of the applicant's owner; never
     * written by the app.
     */
    applicantOwnerId: bigint('applicant_owner_id', { mode: 'number' }),
    /** See APPLICATION_STATUSES. */
    status: text('status').notNull().default('DRAFT'),
    /** The underwriter's last opinion (return / decline). */
    reviewOpinion: text('review_opinion'),
    /** Document types the underwriter asked for (on a return, or while reviewing); cleared on a decision. */
    requestedDocTypes: jsonb('requested_doc_types').$type<string[]>().notNull().default([]),
    /** The policy this application renews (modules/sales/renewal.ts); null for new business. */
    renewalOfPolicyId: bigint('renewal_of_policy_id', { mode: 'number' }).references(
      (): AnyPgColumn => policies.id,
    ),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    version: integer('version').notNull().default(0),
    /**
     * The number, and the insured name where it differs from the applicant's name, as a search key of letters
     * and digits (piibs_text_key), for the keyword search's trigram index (lib/filters.ts keyedContains). An
     * insured who is the applicant is found through the applicant (customer.search_key), so the common name
     * leaves this index small. Kept by triggers (migration 0023), on a change of the row or of the applicant's
     * name; never written by the app.
     */
    searchKey: text('search_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('application_number').on(t.number),
    /**
     * Data-scoped lists (modules/applications/queries.ts): each branch of the scope's OR (owner, agent, client)
     * reads its newest rows in list order from one of these, then the branches are merged (fetchListPage).
     * application_customer_updated also INCLUDEs (owner_id, agent_id, applicant_owner_id) (migrations 0023 and
     * 0026, written there: drizzle has no INCLUDE): a searched scoped list filters the applicants' rows by the
     * scope from the index.
     */
    index('application_customer_updated').on(t.customerId, t.updatedAt, t.id),
    index('application_owner_updated').on(t.ownerId, t.updatedAt, t.id),
    index('application_agent_updated').on(t.agentId, t.updatedAt, t.id),
    index('application_applicant_owner_updated').on(t.applicantOwnerId, t.updatedAt, t.id),
    /** Keyword search ("contains" on number and insured name): a trigram index of search_key (pg_trgm). */
    index('application_search_trgm').using('gin', sql`${t.searchKey} gin_trgm_ops`),
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
    id: id(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** Code from the `coinsurer` dictionary. */
    insurerCode: text('insurer_code').notNull(),
    lead: boolean('lead').notNull().default(false),
    /** Micro-percent. */
    share: integer('share').notNull(),
    premiumFen: fen('premium_fen').notNull().default(0),
    preventionFeeFen: fen('prevention_fee_fen').notNull().default(0),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    uniqueIndex('application_coinsurer_insurer').on(t.applicationId, t.insurerCode),
    uniqueIndex('application_coinsurer_one_lead').on(t.applicationId).where(sql`${t.lead}`),
    check('application_coinsurer_share', sql`${t.share} between 1 and 100000000`),
  ],
);

/**
 * The named insured list (从业人员名单) of an application whose product asks for one: name and resident identity
 * card number (GB 11643), in the order entered or imported. Replaced whole while the application is a draft.
 */
export const applicationInsuredPersons = pgTable(
  'application_insured_person',
  {
    id: id(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    sort: integer('sort').notNull(),
    name: text('name').notNull(),
    idNumber: text('id_number').notNull(),
  },
  (t) => [
    uniqueIndex('application_insured_person_id_number').on(t.applicationId, t.idNumber),
    index('application_insured_person_application').on(t.applicationId, t.sort),
  ],
);

/** The history timeline of an application: every transition with its actor and opinion. Append-only. */
export const applicationEvents = pgTable(
  'application_event',
  {
    id: id(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** create | submit | approve | return | decline | cancel */
    action: text('action').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actorId: userRef('actor_id'),
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
    id: id(),
    number: text('number').notNull(),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id),
    amountFen: fen('amount_fen').notNull(),
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
 * Every payment notification received, verified or not, kept as it came (raw body, a few safe headers), with
 * whether its signature held and what came of it: PAID | DUPLICATE | BAD_SIGNATURE | AMOUNT_MISMATCH |
 * UNKNOWN_ORDER | ORDER_CLOSED | MALFORMED | ERROR. Never updated.
 */
export const paymentNotifications = pgTable(
  'payment_notification',
  {
    id: id(),
    provider: text('provider').notNull(),
    orderNo: text('order_no'),
    tradeNo: text('trade_no'),
    amountFen: fen('amount_fen'),
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
    id: id(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => paymentOrders.id),
    applicationId: bigint('application_id', { mode: 'number' })
      .notNull()
      .references(() => applications.id),
    provider: text('provider').notNull(),
    /** The provider's transaction number. */
    tradeNo: text('trade_no').notNull(),
    amountFen: fen('amount_fen').notNull(),
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
    id: id(),
    chargeNo: text('charge_no').notNull(),
    merchantId: text('merchant_id').notNull(),
    /** The merchant's order number (payment_order.number). */
    orderNo: text('order_no').notNull(),
    amountFen: fen('amount_fen').notNull(),
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

/**
 * The sandbox gateway's refunds (its side of a refund): one per merchant refund number, so asking again answers
 * the same refund; the refunds of a charge never add up to more than it.
 */
export const sandboxRefunds = pgTable(
  'sandbox_refund',
  {
    id: id(),
    merchantId: text('merchant_id').notNull(),
    refundNo: text('refund_no').notNull(),
    orderNo: text('order_no').notNull(),
    chargeNo: text('charge_no').notNull(),
    amountFen: fen('amount_fen').notNull(),
    refundTradeNo: text('refund_trade_no').notNull(),
    refundedAt: timestamp('refunded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sandbox_refund_no').on(t.merchantId, t.refundNo),
    index('sandbox_refund_order').on(t.merchantId, t.orderNo),
    check('sandbox_refund_amount', sql`${t.amountFen} > 0`),
  ],
);

/** Serial of the policy numbers (the server adds 'P', the product prefix and the year). */
export const policyNumberSeq = pgSequence('policy_number_seq', { startWith: 1 });

/**
 * Policies: one per paid application, made by the issuance job. Holds a copy of what was insured (period,
 * coverages with their limits and premiums, premium, prevention fee), the verification code printed on the
 * e-policy and the SHA-256 of that document.
 */
export const policies = pgTable(
  'policy',
  {
    id: id(),
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
    premiumFen: fen('premium_fen').notNull(),
    preventionRatio: integer('prevention_ratio'),
    preventionFeeFen: fen('prevention_fee_fen').notNull().default(0),
    /** PolicyCoverage[] (@piibs/shared/policy): the covers insured, with their limits (policyCoversOf). */
    coverages: jsonb('coverages').notNull().default([]),
    headcount: integer('headcount'),
    projectName: text('project_name'),
    specialTerms: text('special_terms'),
    /** ISSUED (IN_FORCE / EXPIRED follow from the dates; see @piibs/shared/policy); CANCELLED once 退保 is done. */
    status: text('status').notNull().default('ISSUED'),
    /**
     * The annual premium of the current risk (fen): endorsements price against it, a holder's cancellation takes
     * the short-rate share of it. Null: the policy's premium (a full-year policy as issued).
     */
    annualPremiumFen: fen('annual_premium_fen'),
    /** Contact and address as endorsed (null: as on the application). */
    contactName: text('contact_name'),
    contactPhone: text('contact_phone'),
    /** The first day no longer covered (退保生效日期) and why. */
    cancelledOn: date('cancelled_on', { mode: 'string' }),
    cancellationReason: text('cancellation_reason'),
    /** Optimistic lock: every endorsement or cancellation bumps it. */
    version: integer('version').notNull().default(0),
    /** Printed on the e-policy and in its QR code; answers the public verification. */
    verificationCode: text('verification_code').notNull(),
    pdfSha256: text('pdf_sha256').notNull(),
    pdfSize: integer('pdf_size').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Who may see it, as its application says (applicationScopeBranches: owner, agent, the applicant's owner):
     * copied by triggers (migration 0027), never written by the app, so a list reads its scope from the policy's
     * own indexes instead of through every application of the viewer.
     */
    ownerId: bigint('owner_id', { mode: 'number' }),
    agentId: bigint('agent_id', { mode: 'number' }),
    applicantOwnerId: bigint('applicant_owner_id', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('policy_number').on(t.number),
    uniqueIndex('policy_application').on(t.applicationId),
    uniqueIndex('policy_verification_code').on(t.verificationCode),
    index('policy_customer').on(t.customerId, t.id),
    index('policy_owner').on(t.ownerId, t.id),
    index('policy_agent').on(t.agentId, t.id),
    index('policy_applicant_owner').on(t.applicantOwnerId, t.id),
    index('policy_issued').on(t.issuedAt),
    check('policy_status', sql`${t.status} in ('ISSUED', 'IN_FORCE', 'EXPIRED', 'CANCELLED')`),
    check(
      'policy_money',
      sql`${t.premiumFen} >= 0 and ${t.preventionFeeFen} >= 0 and coalesce(${t.annualPremiumFen}, 0) >= 0`,
    ),
    check('policy_period', sql`${t.endDate} > ${t.startDate}`),
  ],
);

/** The co-insurance table of a policy, copied from the application at issue. */
export const policyCoinsurers = pgTable(
  'policy_coinsurer',
  {
    id: id(),
    policyId: bigint('policy_id', { mode: 'number' })
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    insurerCode: text('insurer_code').notNull(),
    insurerName: text('insurer_name'),
    lead: boolean('lead').notNull().default(false),
    /** Micro-percent. */
    share: integer('share').notNull(),
    premiumFen: fen('premium_fen').notNull(),
    preventionFeeFen: fen('prevention_fee_fen').notNull(),
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

/**
 * Every signed file PIIBS issued (电子保单, its redraws, 批单, 退保通知书, 事故预防服务档案): its kind and number,
 * the SHA-256 of the signed bytes, and the signing certificate as it was. Rows are only ever added: a new
 * signing certificate or a redrawn document adds a row and leaves the earlier files as they were signed
 * (the public verification lists them all). `content` holds the signed bytes of the policy's documents; the
 * archive, made per request for what its reader may see, keeps its hash only. Written by issueSignedDocument
 * (modules/documents/issue.ts).
 */
export const issuedDocuments = pgTable(
  'issued_document',
  {
    id: id(),
    /** DocumentKind (@piibs/shared/documents). */
    kind: text('kind').notNull(),
    /** The policy the file belongs to; null for the prevention archive (one enterprise, many policies). */
    policyId: bigint('policy_id', { mode: 'number' }).references(() => policies.id),
    /** The document's number (policy, endorsement or notice number; the archive: the enterprise's credit code). */
    number: text('number').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    content: bytea('content'),
    /** The signing certificate: subject and issuer common names, serial (hex), validity. */
    certSubject: text('cert_subject').notNull(),
    certIssuer: text('cert_issuer').notNull(),
    certSerial: text('cert_serial').notNull(),
    certNotBefore: timestamp('cert_not_before', { withTimezone: true }).notNull(),
    certNotAfter: timestamp('cert_not_after', { withTimezone: true }).notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('issued_document_policy').on(t.policyId, t.issuedAt),
    index('issued_document_sha256').on(t.sha256),
    check(
      'issued_document_kind',
      sql`${t.kind} in ('POLICY', 'ENDORSEMENT', 'CANCELLATION', 'PREVENTION_ARCHIVE')`,
    ),
  ],
);

/**
 * The named insured list on an issued policy (copied from its application at issuance; its e-policy annex), then
 * changed by endorsements: a person removed keeps their row (removed_on), one added has added_on.
 */
export const policyInsuredPersons = pgTable(
  'policy_insured_person',
  {
    id: id(),
    policyId: bigint('policy_id', { mode: 'number' })
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    sort: integer('sort').notNull(),
    name: text('name').notNull(),
    idNumber: text('id_number').notNull(),
    /** Added by an endorsement (批改) effective this day; null: on the policy as issued. */
    addedOn: date('added_on', { mode: 'string' }),
    /** Removed by an endorsement effective this day; null: still covered. */
    removedOn: date('removed_on', { mode: 'string' }),
  },
  (t) => [index('policy_insured_person_policy').on(t.policyId, t.sort)],
);
