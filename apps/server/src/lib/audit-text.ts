// The audit trail as staff read it: the records and dictionary codes an entry names by id or code, looked up
// (a few queries for a whole page), then written out by the shared translation (@piibs/shared/audit-text).
// Used by the operation log, its export and the change history of a review task.
import {
  type AuditNames,
  type AuditRef,
  auditDetailLines,
  auditRecordText,
  auditRefKey,
  auditRefs,
} from '@piibs/shared/audit-text';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client.ts';
import {
  annualOrders,
  applications,
  customers,
  departments,
  dictDetails,
  dicts,
  endorsements,
  jobs,
  menus,
  paymentOrders,
  policies,
  preventionPlanItems,
  products,
  rateTables,
  reviewTasks,
  roles,
  secondaryOrders,
  serviceOrders,
  serviceOrgs,
  servicePersons,
  users,
} from '../db/schema.ts';

/** How each kind of record is named: its business number, else its name (one-table selects by id). */
const RECORD_NAMES: Readonly<Record<string, { id: PgColumn; name: PgColumn | SQL }>> = {
  user: { id: users.id, name: users.nickName },
  role: { id: roles.id, name: roles.name },
  menu: { id: menus.id, name: menus.title },
  dept: { id: departments.id, name: departments.name },
  job: { id: jobs.id, name: jobs.name },
  dict: { id: dicts.id, name: sql`coalesce(nullif(${dicts.description}, ''), ${dicts.name})` },
  dict_detail: { id: dictDetails.id, name: dictDetails.label },
  customer: { id: customers.id, name: customers.name },
  product: { id: products.id, name: products.name },
  // Named in full: drizzle leaves the columns of a one-table select unqualified.
  rate_table: {
    id: rateTables.id,
    name: sql`(select p.name from product p where p.id = "rate_table"."product_id") || ' 第 ' || "rate_table"."version_no" || ' 版'`,
  },
  application: { id: applications.id, name: applications.number },
  review_task: { id: reviewTasks.id, name: reviewTasks.title },
  payment_order: { id: paymentOrders.id, name: paymentOrders.number },
  policy: { id: policies.id, name: policies.number },
  annual_order: { id: annualOrders.id, name: annualOrders.number },
  secondary_order: { id: secondaryOrders.id, name: secondaryOrders.number },
  endorsement: { id: endorsements.id, name: endorsements.number },
  service_org: { id: serviceOrgs.id, name: serviceOrgs.name },
  service_person: { id: servicePersons.id, name: servicePersons.name },
  service_order: { id: serviceOrders.id, name: serviceOrders.number },
  prevention_plan_item: {
    id: preventionPlanItems.id,
    name: sql`(select f.seq_no from prevention_fund f where f.id = "prevention_plan_item"."fund_id") || coalesce(' ' || "prevention_plan_item"."content", '')`,
  },
};

const ID = /^\d{1,15}$/;

/** The names of the references: records by number or name, dictionary codes by label, login names by 姓名. */
export async function auditNames(db: Db | Tx, refs: readonly AuditRef[]): Promise<AuditNames> {
  const byKind = new Map<string, Set<string>>();
  for (const r of refs) {
    if (!byKind.has(r.kind)) byKind.set(r.kind, new Set());
    byKind.get(r.kind)!.add(r.value);
  }
  const names: Record<string, string> = {};
  const put = (kind: string, value: string, name: string | null) => {
    if (name) names[auditRefKey({ kind, value })] = name;
  };
  const dictWanted: SQL[] = [];
  const lookups: Promise<void>[] = [];
  for (const [kind, set] of byKind) {
    const values = [...set];
    const record = RECORD_NAMES[kind];
    if (record) {
      const ids = values.filter((v) => ID.test(v)).map(Number);
      if (ids.length)
        lookups.push(
          db
            .select({ id: record.id, name: sql<string | null>`${record.name}` })
            .from(record.id.table as PgTable)
            .where(inArray(record.id, ids))
            .then((rows) => {
              for (const r of rows) put(kind, String(r.id), r.name as string | null);
            }),
        );
    } else if (kind === 'username') {
      lookups.push(
        db
          .select({ username: users.username, name: users.nickName })
          .from(users)
          .where(inArray(users.username, values))
          .then((rows) => {
            for (const r of rows) put(kind, r.username, r.name);
          }),
      );
    } else if (kind === 'region') {
      dictWanted.push(sql`(d.name like 'region\\_%' and dd.value in (${sql.join(values, sql`, `)}))`);
    } else if (kind === 'industry') {
      dictWanted.push(
        sql`(d.name in ('industry_section', 'industry_division') and dd.value in (${sql.join(values, sql`, `)}))`,
      );
    } else if (kind.startsWith('dict.')) {
      dictWanted.push(sql`(d.name = ${kind.slice(5)} and dd.value in (${sql.join(values, sql`, `)}))`);
    }
  }
  if (dictWanted.length)
    lookups.push(
      db
        .execute<{ dict: string; value: string; label: string }>(
          sql`select d.name as dict, dd.value, dd.label from dict_detail dd join dict d on d.id = dd.dict_id
            where ${sql.join(dictWanted, sql` or `)} order by d.id desc`,
        )
        .then((res) => {
          for (const r of res.rows) {
            const kind = r.dict.startsWith('region_')
              ? 'region'
              : r.dict.startsWith('industry_')
                ? 'industry'
                : `dict.${r.dict}`;
            // Ordered newest dictionary first, so the oldest (the province's, for a shared code) wins.
            put(kind, r.value, r.label);
          }
        }),
    );
  await Promise.all(lookups);
  return names;
}

export interface AuditSubject {
  entity: string;
  entityId: string | null;
  detail: unknown;
}

/** Each entry's object (its business number or name; null when none) and its detail as lines, in words. */
export async function describeAudit(
  db: Db | Tx,
  entries: readonly AuditSubject[],
): Promise<{ record: string | null; lines: string[] }[]> {
  const names = await auditNames(
    db,
    entries.flatMap((e) => auditRefs(e.entity, e.entityId, e.detail)),
  );
  return entries.map((e) => ({
    record: auditRecordText(e.entity, e.entityId, e.detail, names),
    lines: auditDetailLines(e.detail, { entity: e.entity, names }),
  }));
}
