// Who may see which applications. A record the caller may not see answers 404, never 403.
//   admin / staff with scope 'all'  every application;
//   everyone                        the applications they own (made);
//   enterprise (role '17')          the applications of their own enterprise (the applicant's uscc = theirs);
//   agent                           the applications they entered and those of their own clients;
//   staff (other roles)             by data scope: applications owned by users in scope.
// Changing an application (draft, co-insurers, submit, cancel) is for its owner (or its agent) only: 403.
import { eq, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { applications, customers, policies, reviewTasks, users } from '../../db/schema.ts';
import { usersInScope } from '../../lib/data-scope.ts';
import { asIs, type Bind, type Binder } from '../../lib/statement-shapes.ts';
import type { CustomerViewer } from '../customers/access.ts';

/**
 * The applications a viewer may see, as the branches of an OR (undefined: all). Each branch fits an index that
 * starts with its column and goes on in list order ((owner | agent | customer | applicant_owner, updated_at, id),
 * migrations 0017 and 0026),
 * so a list can take each branch's newest rows and merge them (queries.ts) instead of filtering along the date.
 * The applicants' ids are `= any(array(…))`: an index condition, where `in (subquery)` is a filter.
 */
export function applicationScopeBranches(db: Pick<Db, 'select'>, v: CustomerViewer): SQL[] | undefined {
  return scopeOf(db, v)?.branches;
}

/**
 * The viewer's scope branches (applicationScopeBranches) with their values bound to `binder`, and the scope's shape
 * (lib/statement-shapes.ts): everything the branches' text depends on. Null for a scope of departments (its users
 * are read by department ids, as many parameters as departments): such a list renders its statement each time.
 */
export function applicationScopeShape(
  db: Pick<Db, 'select'>,
  v: CustomerViewer,
  binder: Binder,
  c: ScopeColumns = applications,
): { shape: string; branches: SQL[] | undefined } | null {
  if (v.staffScope?.all) return { shape: 'all', branches: undefined };
  if (v.staffScope) return null;
  const shape = `own${v.isEnterprise && v.uscc ? '+enterprise' : ''}${v.isAgent ? '+agent' : ''}`;
  return { shape, branches: scopeOf(db, v, c, binder.bind)?.branches };
}

/** The policy list's scope branches (policyScopeBranches), shaped as applicationScopeShape shapes an application's. */
export function policyScopeShape(
  db: Pick<Db, 'select'>,
  v: CustomerViewer,
  binder: Binder,
): { shape: string; branches: SQL[] | undefined } | null {
  return applicationScopeShape(db, v, binder, policies);
}

/**
 * What a viewer's scope reads from other tables (their applicants', their department's users' ids), as one text
 * value, or undefined when it reads none: a list's page anchors are valid only while this stays the same.
 */
export function applicationScopeReads(db: Pick<Db, 'select'>, v: CustomerViewer): SQL | undefined {
  const reads = scopeOf(db, v)?.reads ?? [];
  if (!reads.length) return undefined;
  return sql.join(
    reads.map((r) => sql`array(select s.id from ${r} as s order by 1)::text`),
    sql` || '|' || `,
  );
}

/**
 * The policies a viewer may see (those of the applications they may see), as the branches of an OR on the policy's
 * copies of its application's scope columns (owner, agent, applicant's owner: migration 0027; the customer is the
 * application's), undefined: all. Each branch fits an index that starts with its column and ends in the policy's id.
 */
export function policyScopeBranches(db: Pick<Db, 'select'>, v: CustomerViewer): SQL[] | undefined {
  return scopeOf(db, v, policies)?.branches;
}

/** The columns a scope reads: the application's, or the copies on its policy. */
type ScopeColumns = Record<'ownerId' | 'agentId' | 'applicantOwnerId' | 'customerId', AnyPgColumn>;

function scopeOf(
  db: Pick<Db, 'select'>,
  v: CustomerViewer,
  c: ScopeColumns = applications,
  bind: Bind = asIs,
): { branches: SQL[]; reads: SQL[] } | undefined {
  if (v.staffScope?.all) return undefined;
  const reads: SQL[] = [];
  const customerIn = (where: SQL) => {
    const ids = db.select({ id: customers.id }).from(customers).where(where);
    reads.push(sql`${ids}`);
    return sql`${c.customerId} = any(array(${ids}))`;
  };
  const branches: SQL[] = [eq(c.ownerId, bind(v.user.id))];
  if (v.isEnterprise && v.uscc) branches.push(customerIn(eq(customers.uscc, bind(v.uscc))));
  // An agent's clients are the customers they own, whose applications carry that owner (applicant_owner_id).
  if (v.isAgent) branches.push(eq(c.agentId, bind(v.user.id)), eq(c.applicantOwnerId, bind(v.user.id)));
  if (v.staffScope) {
    const inScope = db.select({ id: users.id }).from(users).where(usersInScope(v.staffScope));
    reads.push(sql`${inScope}`);
    branches.push(sql`${c.ownerId} = any(array(${inScope}))`);
  }
  return { branches, reads };
}

/** The WHERE condition of the applications a viewer may see (undefined: all). */
export function applicationsVisibleTo(db: Pick<Db, 'select'>, v: CustomerViewer): SQL | undefined {
  const branches = applicationScopeBranches(db, v);
  return branches && or(...branches);
}

/** The condition limiting review tasks of kind 'application' to applications the viewer may see. */
export function applicationTasksVisibleTo(db: Db, viewer: CustomerViewer): SQL | undefined {
  const visible = applicationsVisibleTo(db, viewer);
  if (!visible) return undefined;
  return sql`${reviewTasks.subjectId} in (select ${applications.id} from ${applications} where ${visible})`;
}

/** The owner (who made it) or the agent entering it for a client may change an application. */
export const isApplicationOwner = (
  a: { ownerId: number | null; agentId: number | null },
  userId: number,
): boolean => a.ownerId === userId || a.agentId === userId;
