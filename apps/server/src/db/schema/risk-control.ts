// Risk control: accident-prevention services (AQ 9010-2019; see @piibs/shared/risk-control).

import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { policies } from './business.ts';
import { createdAt, fen, id, updatedAt } from './columns.ts';
import { userRef, users } from './system.ts';

/** Service organisations (风控服务机构): qualifications, regions and industries served, contacts (jsonb). */
export const serviceOrgs = pgTable(
  'service_org',
  {
    id: id(),
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
    createdBy: userRef('created_by'),
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
    id: id(),
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
    createdBy: userRef('created_by'),
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
    id: id(),
    policyId: bigint('policy_id', { mode: 'number' })
      .notNull()
      .references(() => policies.id),
    /** 'YF' + policy number. */
    seqNo: text('seq_no').notNull(),
    totalFen: fen('total_fen').notNull(),
    plannedFen: fen('planned_fen').notNull().default(0),
    spentFen: fen('spent_fen').notNull().default(0),
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
    id: id(),
    fundId: bigint('fund_id', { mode: 'number' })
      .notNull()
      .references(() => preventionFunds.id),
    itemType: text('item_type').notNull(),
    content: text('content'),
    frequency: text('frequency').notNull(),
    times: integer('times').notNull(),
    unitCostFen: fen('unit_cost_fen').notNull(),
    /** unit_cost × times (0 once deleted). */
    reservedFen: fen('reserved_fen').notNull(),
    spentFen: fen('spent_fen').notNull().default(0),
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => serviceOrgs.id),
    personIds: jsonb('person_ids').notNull().default([]),
    scheduledDates: jsonb('scheduled_dates').notNull().default([]),
    createdBy: userRef('created_by'),
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
    id: id(),
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
    costFen: fen('cost_fen').notNull(),
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
    dispatchedBy: userRef('dispatched_by'),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    confirmedBy: userRef('confirmed_by'),
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
    id: id(),
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
    rectifiedBy: userRef('rectified_by'),
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
    id: id(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => serviceOrders.id),
    action: text('action').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actorId: userRef('actor_id'),
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
    id: id(),
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
    repliedBy: userRef('replied_by'),
    repliedByName: text('replied_by_name'),
    createdBy: userRef('created_by'),
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
    id: id(),
    fundId: bigint('fund_id', { mode: 'number' })
      .notNull()
      .references(() => preventionFunds.id),
    /** RESERVE | RELEASE | SPEND */
    kind: text('kind').notNull(),
    amountFen: fen('amount_fen').notNull(),
    plannedDeltaFen: fen('planned_delta_fen').notNull(),
    spentDeltaFen: fen('spent_delta_fen').notNull(),
    plannedAfterFen: fen('planned_after_fen').notNull(),
    spentAfterFen: fen('spent_after_fen').notNull(),
    leftAfterFen: fen('left_after_fen').notNull(),
    planItemId: bigint('plan_item_id', { mode: 'number' }).references(() => preventionPlanItems.id),
    orderId: bigint('order_id', { mode: 'number' }).references(() => serviceOrders.id),
    note: text('note'),
    actorId: userRef('actor_id'),
    actorName: text('actor_name'),
    createdAt: createdAt(),
  },
  (t) => [
    index('prevention_ledger_fund').on(t.fundId, t.id),
    check('prevention_ledger_kind', sql`${t.kind} in ('RESERVE', 'RELEASE', 'SPEND')`),
    check('prevention_ledger_left', sql`${t.leftAfterFen} >= 0`),
  ],
);
