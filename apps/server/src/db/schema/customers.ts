// Customers (投保人) and the review tasks of customers, applications and declared projects.

import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { userRef } from './system.ts';

/**
 * The customers' data version: a statement trigger (migration 0024) advances it on every insert, update or delete
 * of customer, so cached list counts know they are stale (lib/keyset.ts CountCache).
 */
export const customerChangeSeq = pgSequence('customer_change_seq', { startWith: 1 });

/** Customers (投保人). An application needs an approved one. */
export const customers = pgTable(
  'customer',
  {
    id: id(),
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
    ownerId: userRef('owner_id'),
    createdBy: userRef('created_by'),
    /** pending | approved | returned | rejected */
    reviewStatus: text('review_status').notNull().default('pending'),
    reviewOpinion: text('review_opinion'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    version: integer('version').notNull().default(0),
    /**
     * Name, credit code and contact as a search key of letters and digits (piibs_text_key, migration 0017), for
     * the keyword search's trigram index (lib/filters.ts keyedContains). Kept by PostgreSQL.
     */
    searchKey: text('search_key').generatedAlwaysAs(
      sql`piibs_text_key(coalesce(name, '') || ' ' || coalesce(uscc, '') || ' ' || coalesce(contact_name, ''))`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('customer_uscc').on(t.uscc),
    uniqueIndex('customer_ca_fingerprint').on(t.caFingerprint).where(sql`${t.caFingerprint} is not null`),
    /** An agent's clients, newest first (the list's order): the page is read from the index, not filtered out of all. */
    index('customer_owner').on(t.ownerId, t.id),
    /** Keyword search ("contains" on name, credit code, contact): a trigram index of search_key (pg_trgm). */
    index('customer_search_trgm').using('gin', sql`${t.searchKey} gin_trgm_ops`),
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
    id: id(),
    /** customer | application | tender */
    kind: text('kind').notNull(),
    subjectId: bigint('subject_id', { mode: 'number' }).notNull(),
    /** What is reviewed, for lists (e.g. the customer's name and code). */
    title: text('title').notNull(),
    /** open | done */
    status: text('status').notNull().default('open'),
    submittedBy: userRef('submitted_by'),
    assigneeId: userRef('assignee_id'),
    /** approve | return | reject */
    decision: text('decision'),
    opinion: text('opinion'),
    decidedBy: userRef('decided_by'),
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
