// Data scope: which users' records a caller may see. Each role has one of
//   all         every record;
//   department  the caller's own department and every department below it;
//   custom      the departments chosen for the role (role_dept) and every department below them;
//   self        only the caller's own records.
// A caller's effective scope is the union over their roles; the admin role (and any role with `all`) sees all.
import { eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { roleDepts, roles, users } from '../db/schema.ts';
import type { RequestUser } from '../modules/auth/sessions.ts';

/** A caller's scope: all, or departments and their own records. Read-only: one is shared by the requests of a version. */
export type DataScope = { all: true } | { all: false; deptIds: readonly number[]; selfId: number };

/** The departments and every department below them (ids), by a recursive query. */
export async function deptSubtree(db: Pick<Db, 'execute'>, rootIds: number[]): Promise<number[]> {
  if (rootIds.length === 0) return [];
  const res = await db.execute<{ id: number | string }>(sql`
    WITH RECURSIVE down AS (
      SELECT id FROM department WHERE id IN (${sql.join(
        rootIds.map((id) => sql`${id}`),
        sql`, `,
      )})
      UNION SELECT d.id FROM department d JOIN down ON d.parent_id = down.id)
    SELECT id FROM down`);
  return res.rows.map((r) => Number(r.id));
}

/** A caller as a data scope reads them: with the department and the scopes' version when read with the session. */
type ScopeCaller = Pick<RequestUser, 'id' | 'roles' | 'deptId' | 'scopeVersion'>;

/** Scopes computed at one version of the departments and roles, per database (one per app instance). */
const computed = new WeakMap<Db, { version: string; scopes: Map<string, DataScope> }>();
/** Callers remembered at one version at most (then forgotten together). */
const SCOPES_MAX = 10_000;
/** How many scopes were computed (read from the database), for the tests. */
export const scopeReads = { count: 0 };

/**
 * The caller's effective data scope. Read with the session (`deptId`, `scopeVersion`), it is computed once per
 * caller, roles and department at the version of the departments and roles (migration 0030: every change of
 * department, role or role_dept advances it), so a list does not read the roles and departments again at every
 * request; a change takes effect at the next request, on every instance.
 */
export async function dataScopeOf(db: Db, user: ScopeCaller): Promise<DataScope> {
  if (user.roles.includes('admin')) return { all: true };
  const { scopeVersion, deptId } = user;
  if (scopeVersion === undefined || deptId === undefined) return computeScope(db, user);
  let at = computed.get(db);
  if (!at || at.version !== scopeVersion) {
    at = { version: scopeVersion, scopes: new Map() };
    computed.set(db, at);
  }
  const key = `${user.id}|${deptId}|${user.roles.join(',')}`;
  const known = at.scopes.get(key);
  if (known) return known;
  const scope = await computeScope(db, user);
  if (at.scopes.size >= SCOPES_MAX) at.scopes.clear();
  at.scopes.set(key, scope);
  return scope;
}

async function computeScope(db: Db, user: Pick<RequestUser, 'id' | 'roles'>): Promise<DataScope> {
  scopeReads.count += 1;
  const own =
    user.roles.length === 0
      ? []
      : await db
          .select({ id: roles.id, dataScope: roles.dataScope })
          .from(roles)
          .where(inArray(roles.code, user.roles));
  if (own.some((r) => r.dataScope === 'all')) return { all: true };
  const roots = new Set<number>();
  if (own.some((r) => r.dataScope === 'department')) {
    const [me] = await db.select({ deptId: users.deptId }).from(users).where(eq(users.id, user.id));
    if (me?.deptId != null) roots.add(me.deptId);
  }
  const custom = own.filter((r) => r.dataScope === 'custom').map((r) => r.id);
  if (custom.length) {
    const chosen = await db
      .select({ deptId: roleDepts.deptId })
      .from(roleDepts)
      .where(inArray(roleDepts.roleId, custom));
    for (const c of chosen) roots.add(c.deptId);
  }
  return { all: false, deptIds: await deptSubtree(db, [...roots]), selfId: user.id };
}

/** The WHERE condition limiting users to a scope (undefined: no limit). */
export function usersInScope(scope: DataScope): SQL | undefined {
  if (scope.all) return undefined;
  return scope.deptIds.length
    ? or(inArray(users.deptId, scope.deptIds), eq(users.id, scope.selfId))
    : eq(users.id, scope.selfId);
}
