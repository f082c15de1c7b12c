// Who may see (and so edit) which customers. A record the caller may not see answers 404, never 403.
//   admin                   every customer;
//   enterprise (role '17')  only the customer whose code equals the user's own uscc;
//   agent                   only the customers they own;
//   staff (other roles)     by the data scope of their staff roles: customers owned or created by users in
//                           scope (underwriters have scope 'all').
// A user with several roles sees the union.
import { ROLE_CODES } from '@piibs/shared';
import { eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { customers, users } from '../../db/schema.ts';
import { type DataScope, dataScopeOf, usersInScope } from '../../lib/data-scope.ts';
import { asIs, type Bind, type Binder } from '../../lib/statement-shapes.ts';
import type { RequestUser } from '../auth/sessions.ts';

export interface CustomerViewer {
  user: RequestUser;
  /** The enterprise's code of a role-17 user (null when the account has none). */
  uscc: string | null;
  isEnterprise: boolean;
  isAgent: boolean;
  /** The data scope of the caller's staff roles; null when they have none. */
  staffScope: DataScope | null;
}

/**
 * What a viewer's data scope depends on, as a cache key part (cached list counts): all, or the user, their
 * enterprise, whether an agent, and their staff departments.
 */
export function viewerScopeKey(v: CustomerViewer): unknown {
  return v.staffScope?.all
    ? 'all'
    : [v.user.id, v.isEnterprise ? v.uscc : null, v.isAgent, v.staffScope?.deptIds ?? null];
}

const NON_STAFF: readonly string[] = [ROLE_CODES.enterprise, ROLE_CODES.agent];

/** The account's credit code: as read with the session, else from the account. */
export async function usccOf(db: Db, user: RequestUser): Promise<string | null> {
  if (user.uscc !== undefined) return user.uscc;
  const [me] = await db.select({ uscc: users.uscc }).from(users).where(eq(users.id, user.id));
  return me?.uscc ?? null;
}

export async function customerViewerOf(db: Db, user: RequestUser): Promise<CustomerViewer> {
  const isAdmin = user.roles.includes(ROLE_CODES.admin);
  const staffRoles = user.roles.filter((r) => !NON_STAFF.includes(r));
  const isEnterprise = user.roles.includes(ROLE_CODES.enterprise);
  return {
    user,
    uscc: isEnterprise ? await usccOf(db, user) : null,
    isEnterprise,
    isAgent: user.roles.includes(ROLE_CODES.agent),
    staffScope: isAdmin
      ? { all: true }
      : staffRoles.length
        ? await dataScopeOf(db, { ...user, roles: staffRoles })
        : null,
  };
}

/**
 * customersVisibleTo with its values bound to `binder`, and its shape (lib/statement-shapes.ts); null for a scope of
 * departments (as many parameters as departments), whose list renders its statement each time.
 */
export function customerScopeShape(
  db: Pick<Db, 'select'>,
  v: CustomerViewer,
  binder: Binder,
): { shape: string; where: SQL | undefined } | null {
  if (v.staffScope && !v.staffScope.all) return null;
  const shape = v.staffScope?.all
    ? 'all'
    : `${v.isEnterprise && v.uscc ? 'enterprise' : ''}+${v.isAgent ? 'agent' : ''}`;
  return { shape, where: customersVisibleTo(db, v, binder.bind) };
}

/** The WHERE condition of the customers a viewer may see (undefined: all); `bind` its values for a shaped statement. */
export function customersVisibleTo(
  db: Pick<Db, 'select'>,
  v: CustomerViewer,
  bind: Bind = asIs,
): SQL | undefined {
  if (v.staffScope?.all) return undefined;
  const conditions: SQL[] = [];
  if (v.isEnterprise && v.uscc) conditions.push(eq(customers.uscc, bind(v.uscc)));
  if (v.isAgent) conditions.push(eq(customers.ownerId, bind(v.user.id)));
  if (v.staffScope) {
    const inScope = db.select({ id: users.id }).from(users).where(usersInScope(v.staffScope));
    conditions.push(or(inArray(customers.ownerId, inScope), inArray(customers.createdBy, inScope))!);
  }
  return conditions.length ? or(...conditions) : sql`false`;
}
