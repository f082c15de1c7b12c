// The database's own invariants, checked after every crash and at the end of the other long tests: each query
// lists violations (none expected), then amcheck verifies every B-tree index against its table and every table's
// pages (PostgreSQL's own corruption checks).
import type pg from 'pg';

/** Applications made by an approved secondary (project) order: paid through the annual order, no create step. */
const FROM_CREATE = 'not exists (select 1 from secondary_order s where s.application_id = a.id)';

const CHECKS: Record<string, string> = {
  'application without its create event': `
    select a.id from application a
    where not exists (select 1 from application_event e where e.application_id = a.id and e.action = 'create')
      and ${FROM_CREATE}`,
  'application without exactly one create audit row': `
    select a.id from application a
    left join audit_log l on l.entity = 'application' and l.action = 'create' and l.entity_id = a.id::text
    where ${FROM_CREATE} group by a.id having count(l.id) <> 1`,
  'application number used twice': `
    select number from application group by number having count(*) > 1`,
  'application waiting for review without exactly one open task': `
    select a.id from application a
    left join review_task t on t.kind = 'application' and t.subject_id = a.id and t.status = 'open'
    where a.status = 'PENDING_REVIEW' group by a.id having count(t.id) <> 1`,
  'open review task of an application not waiting for review': `
    select t.id from review_task t join application a on a.id = t.subject_id
    where t.kind = 'application' and t.status = 'open' and a.status <> 'PENDING_REVIEW'`,
  'submit events and review tasks of an application disagree': `
    select a.id from application a
    where (select count(*) from application_event e where e.application_id = a.id and e.action = 'submit')
       <> (select count(*) from review_task t where t.kind = 'application' and t.subject_id = a.id)`,
  'review task decided without decider, decision or time': `
    select id from review_task
    where status = 'done' and (decision is null or decided_at is null)`,
  'paid order without exactly one payment of its amount': `
    select o.id from payment_order o left join payment p on p.order_id = o.id and p.amount_fen = o.amount_fen
    where o.status = 'PAID' group by o.id having count(p.id) <> 1`,
  'payment of an order that is not paid': `
    select p.id from payment p join payment_order o on o.id = p.order_id where o.status <> 'PAID'`,
  'paid or issued application without a paid order': `
    select a.id from application a where a.status in ('PAID', 'ISSUED') and ${FROM_CREATE}
      and not exists (select 1 from payment_order o where o.application_id = a.id and o.status = 'PAID')`,
  'issued application without its policy': `
    select a.id from application a where a.status = 'ISSUED'
      and not exists (select 1 from policy p where p.application_id = a.id)`,
  'prevention fund totals differ from its ledger': `
    select f.id from prevention_fund f
    where f.planned_fen <> coalesce((select sum(planned_delta_fen) from prevention_ledger_entry l where l.fund_id = f.id), 0)
       or f.spent_fen <> coalesce((select sum(spent_delta_fen) from prevention_ledger_entry l where l.fund_id = f.id), 0)`,
  'stored idempotent answer naming an application that does not exist': `
    select k.key from idempotency_key k
    where k.method = 'POST' and k.path = '/api/applications' and k.status = 200
      and not exists (select 1 from application a where a.id = (k.response->>'id')::bigint)`,
};

/** Every violated invariant with up to 5 offending rows; empty when the database is consistent. */
export async function integrityProblems(db: pg.Client): Promise<string[]> {
  const problems: string[] = [];
  for (const [name, text] of Object.entries(CHECKS)) {
    const res = await db.query(`${text} limit 5`);
    if (res.rowCount) problems.push(`${name}: ${JSON.stringify(res.rows)}`);
  }
  problems.push(...(await amcheck(db)));
  return problems;
}

/** amcheck over the public schema: B-tree structure and heap-to-index agreement, heap pages. */
async function amcheck(db: pg.Client): Promise<string[]> {
  await db.query('create extension if not exists amcheck');
  const problems: string[] = [];
  const indexes = await db.query<{ oid: number; name: string }>(`
    select c.oid, c.relname as name from pg_index i
    join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
    where am.amname = 'btree' and c.relnamespace = 'public'::regnamespace and i.indisvalid`);
  for (const { oid, name } of indexes.rows) {
    try {
      await db.query('select bt_index_check($1::regclass, true)', [oid]);
    } catch (err) {
      problems.push(`index ${name}: ${(err as Error).message}`);
    }
  }
  const heap = await db.query(`
    select c.relname, v.blkno, v.msg from pg_class c, lateral verify_heapam(c.oid) v
    where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace limit 5`);
  for (const r of heap.rows) problems.push(`table ${r.relname} block ${r.blkno}: ${r.msg}`);
  return problems;
}

export const INVARIANTS = Object.keys(CHECKS).length;
