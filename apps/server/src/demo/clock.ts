// The demo's clock. Nobody may back-date an application, so the demo makes its records the way a user would,
// today, and then turns the clock: every date and time of one application's business (the application with its
// timeline and review task, its payment, the policy with its document) moves back by the same number of days, as
// if it had all happened that long ago. A policy made this way is in force today, so services can be performed
// and recorded within its period. The application's timeline is append-only (a trigger refuses updates); the
// demo rewrites only the timeline it has just written, with the trigger off inside this one transaction (the
// app owns its tables). The audit trail keeps the real times of the demo's writes.
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** The rows of one application's business, table by table. */
const rowsOf = (applicationId: number): [table: string, where: SQL][] => [
  ['application', sql`id = ${applicationId}`],
  ['application_event', sql`application_id = ${applicationId}`],
  ['review_task', sql`kind = 'application' and subject_id = ${applicationId}`],
  ['payment_order', sql`application_id = ${applicationId}`],
  ['payment', sql`application_id = ${applicationId}`],
  [
    'sandbox_charge',
    sql`charge_no in (select charge_no from payment_order where application_id = ${applicationId})`,
  ],
  ['policy', sql`application_id = ${applicationId}`],
  ['policy_document', sql`policy_id in (select id from policy where application_id = ${applicationId})`],
];

/** Append-only tables of the business above, with the trigger that keeps them so. */
const APPEND_ONLY: Readonly<Record<string, string>> = { application_event: 'application_event_no_update' };

/** Moves every date and timestamp of the application's business back by `days`. */
export async function moveIntoPast(db: Db, applicationId: number, days: number): Promise<void> {
  await db.transaction(async (tx) => {
    const triggers = Object.entries(APPEND_ONLY);
    for (const [table, trigger] of triggers)
      await tx.execute(sql`alter table ${sql.identifier(table)} disable trigger ${sql.identifier(trigger)}`);
    for (const [table, where] of rowsOf(applicationId)) {
      const { rows } = await tx.execute<{ column_name: string; data_type: string }>(
        sql`select column_name, data_type from information_schema.columns
            where table_schema = current_schema() and table_name = ${table}
              and data_type in ('date', 'timestamp with time zone')`,
      );
      if (!rows.length) continue;
      const sets = rows.map((c) =>
        c.data_type === 'date'
          ? sql`${sql.identifier(c.column_name)} = ${sql.identifier(c.column_name)} - ${days}::int`
          : sql`${sql.identifier(c.column_name)} = ${sql.identifier(c.column_name)} - make_interval(days => ${days}::int)`,
      );
      await tx.execute(sql`update ${sql.identifier(table)} set ${sql.join(sets, sql`, `)} where ${where}`);
    }
    for (const [table, trigger] of triggers)
      await tx.execute(sql`alter table ${sql.identifier(table)} enable trigger ${sql.identifier(trigger)}`);
  });
}
