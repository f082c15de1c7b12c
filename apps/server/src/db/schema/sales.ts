// Sales supplements (补录): the sales information of an issued policy and its salesperson change history.

import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgSequence, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { policies } from './business.ts';
import { createdAt, id, updatedAt } from './columns.ts';
import { userRef } from './system.ts';

/**
 * The supplements' data version: a statement trigger (migration 0029) advances it on every insert, update or
 * delete of sales_supplement, so the sales list's cached counts (with the policies' version) know they are stale.
 */
export const salesSupplementVersionSeq = pgSequence('sales_supplement_version_seq', { startWith: 1 });

/**
 * The sales information added to an issued policy (one per policy): salesperson, agent, commission rate
 * (micro-percent, ≤ the product's cap ≤ 5%), business source (`business_source` dictionary); the NBNMG variant
 * (农民工工资保证) adds the project, the number of migrant workers, the wage account, the labour-contract filing
 * number and the supervising authority.
 */
export const salesSupplements = pgTable(
  'sales_supplement',
  {
    id: id(),
    policyId: bigint('policy_id', { mode: 'number' })
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    /** STANDARD | NBNMG */
    variant: text('variant').notNull().default('STANDARD'),
    salespersonName: text('salesperson_name').notNull(),
    salespersonNo: text('salesperson_no').notNull(),
    /** The agent as a user of the system, if any. */
    agentUserId: userRef('agent_user_id'),
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
    createdBy: userRef('created_by'),
    updatedBy: userRef('updated_by'),
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
    id: id(),
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
    actorId: userRef('actor_id'),
    actorName: text('actor_name'),
    createdAt: createdAt(),
  },
  (t) => [index('salesperson_change_supplement').on(t.supplementId, t.id)],
);
