// Roles: list, create/update (version), delete (refused while assigned), menu grants, data scope. A caller
// may only create, change, delete or grant menus to roles of their own level or below (level 1 is the most
// powerful); only an administrator touches the admin role. Built-in roles keep their code and cannot go.
import { ROLE_CODES } from '@piibs/shared';
import type { RoleDetail, RoleRow, roleCreateForm, roleUpdateForm, SORT_FIELDS } from '@piibs/shared/admin';
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { departments, menus, roleDepts, roleMenus, roles, userRoles } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { badRequest, conflict, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { blurry, timeRange } from '../../lib/filters.ts';
import { countRows, type ListSpec, pageRows, type SortColumns } from '../../lib/paging.ts';
import { bumpMenuVersion } from '../menus/service.ts';
import { STALE_VERSION } from '../users/admin-service.ts';

export const ROLE_NOT_FOUND = '角色不存在';
const BUILTIN_CODES = new Set<string>(Object.values(ROLE_CODES));

const deptIdsOf = sql<
  number[]
>`coalesce((select json_agg(rd.dept_id order by rd.dept_id) from role_dept rd where rd.role_id = "role"."id"), '[]'::json)`;

const rowColumns = {
  id: roles.id,
  code: roles.code,
  name: roles.name,
  level: roles.level,
  dataScope: roles.dataScope,
  description: roles.description,
  version: roles.version,
  createdAt: roles.createdAt,
  updatedAt: roles.updatedAt,
  deptIds: deptIdsOf,
};
const selectRows = (db: Db | Tx) => db.select(rowColumns).from(roles);
type RawRow = Awaited<ReturnType<typeof selectRows>>[number];

function toRow(r: RawRow): RoleRow {
  return {
    ...r,
    builtin: BUILTIN_CODES.has(r.code),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export interface RoleFilter {
  blurry?: string | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

const sortColumns: SortColumns<(typeof SORT_FIELDS.roles)[number]> = {
  id: roles.id,
  code: roles.code,
  name: roles.name,
  level: roles.level,
  dataScope: roles.dataScope,
  createdAt: roles.createdAt,
  updatedAt: roles.updatedAt,
};

export function roleListSpec(db: Db, f: RoleFilter): ListSpec<(typeof SORT_FIELDS.roles)[number], RoleRow> {
  const where = and(
    blurry(f.blurry, roles.name, roles.code, roles.description),
    timeRange(roles.createdAt, f.startTime, f.endTime),
  );
  return {
    columns: sortColumns,
    defaultOrder: [asc(roles.level), asc(roles.id)],
    fetch: async (q) => (await pageRows(db, selectRows(db), where, q)).map(toRow),
    count: () => countRows(db, roles, where),
  };
}

export async function roleDetail(db: Db, id: number): Promise<RoleDetail> {
  const [row] = await selectRows(db).where(eq(roles.id, id));
  if (!row) throw notFound(ROLE_NOT_FOUND);
  const grants = await db
    .select({ id: roleMenus.menuId })
    .from(roleMenus)
    .where(eq(roleMenus.roleId, id))
    .orderBy(asc(roleMenus.menuId));
  return { ...toRow(row), menuIds: grants.map((g) => g.id) };
}

export async function allRoles(db: Db) {
  return db
    .select({ id: roles.id, code: roles.code, name: roles.name, level: roles.level })
    .from(roles)
    .orderBy(asc(roles.level), asc(roles.id));
}

// ---- rules ----

function checkLevel(caller: Caller, level: number, what: string) {
  if (level < caller.level) {
    throw forbidden(`角色权限不足：你的角色级别为 ${caller.level}，不能${what}级别为 ${level} 的角色`);
  }
}

async function lockRole(tx: Tx, caller: Caller, id: number) {
  const [row] = await tx.select().from(roles).where(eq(roles.id, id)).for('update');
  if (!row) throw notFound(ROLE_NOT_FOUND);
  if (row.code === ROLE_CODES.admin && !caller.user.roles.includes('admin'))
    throw forbidden('只有系统管理员可以修改系统管理员角色');
  checkLevel(caller, row.level, '操作');
  return row;
}

async function scopeDepts(tx: Tx, dataScope: string, deptIds: number[]): Promise<number[]> {
  if (dataScope !== 'custom') return [];
  const unique = [...new Set(deptIds)];
  if (unique.length === 0) throw fieldError('deptIds', '自定义数据权限须至少选择一个部门', '数据权限');
  const found = await tx
    .select({ id: departments.id })
    .from(departments)
    .where(inArray(departments.id, unique));
  if (found.length !== unique.length) throw fieldError('deptIds', '所选部门不存在', '数据权限部门');
  return unique.sort((a, b) => a - b);
}

async function checkUnique(tx: Tx, code: string, name: string, exceptId?: number) {
  const others = exceptId ? ne(roles.id, exceptId) : undefined;
  const [byCode] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.code, code), others));
  if (byCode) throw conflict('角色编码已存在');
  const [byName] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.name, name), others));
  if (byName) throw conflict('角色名称已存在');
}

async function setDepts(tx: Tx, roleId: number, deptIds: number[]) {
  await tx.delete(roleDepts).where(eq(roleDepts.roleId, roleId));
  if (deptIds.length) await tx.insert(roleDepts).values(deptIds.map((deptId) => ({ roleId, deptId })));
}

const snapshot = (r: {
  code: string;
  name: string;
  level: number;
  dataScope: string;
  description: string | null;
  deptIds: number[];
}) => ({
  code: r.code,
  name: r.name,
  level: r.level,
  dataScope: r.dataScope,
  description: r.description,
  deptIds: r.deptIds,
});

async function deptIdsOfRole(tx: Tx, id: number): Promise<number[]> {
  const rows = await tx
    .select({ id: roleDepts.deptId })
    .from(roleDepts)
    .where(eq(roleDepts.roleId, id))
    .orderBy(asc(roleDepts.deptId));
  return rows.map((r) => r.id);
}

// ---- changes ----

async function uniqueGuard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('角色编码已存在');
    throw err;
  }
}

export function createRole(db: Db, caller: Caller, form: z.infer<typeof roleCreateForm>): Promise<RoleRow> {
  checkLevel(caller, form.level, '创建');
  return uniqueGuard(() =>
    db.transaction(async (tx) => {
      await checkUnique(tx, form.code, form.name);
      const deptIds = await scopeDepts(tx, form.dataScope, form.deptIds);
      const values = {
        code: form.code,
        name: form.name,
        level: form.level,
        dataScope: form.dataScope,
        description: form.description ?? null,
      };
      const [row] = await tx.insert(roles).values(values).returning({ id: roles.id });
      await setDepts(tx, row!.id, deptIds);
      await auditChange(tx, caller, {
        action: 'create',
        entity: 'role',
        entityId: row!.id,
        after: snapshot({ ...values, deptIds }),
      });
      const [out] = await selectRows(tx).where(eq(roles.id, row!.id));
      return toRow(out!);
    }),
  );
}

export function updateRole(db: Db, caller: Caller, form: z.infer<typeof roleUpdateForm>): Promise<RoleRow> {
  return uniqueGuard(() =>
    db.transaction(async (tx) => {
      const before = await lockRole(tx, caller, form.id);
      if (before.version !== form.version) throw conflict(STALE_VERSION);
      checkLevel(caller, form.level, '设置');
      if (BUILTIN_CODES.has(before.code) && form.code !== before.code)
        throw fieldError('code', '内置角色的编码不能修改', '角色编码');
      await checkUnique(tx, form.code, form.name, form.id);
      const deptIds = await scopeDepts(tx, form.dataScope, form.deptIds);
      const beforeDepts = await deptIdsOfRole(tx, form.id);
      const values = {
        code: form.code,
        name: form.name,
        level: form.level,
        dataScope: form.dataScope,
        description: form.description ?? null,
      };
      await tx
        .update(roles)
        .set({ ...values, version: sql`${roles.version} + 1`, updatedAt: sql`now()` })
        .where(eq(roles.id, form.id));
      await setDepts(tx, form.id, deptIds);
      // Menus are cached per role code: a renamed code must not keep serving the old tree.
      if (values.code !== before.code) await bumpMenuVersion(tx);
      await auditChange(tx, caller, {
        action: 'update',
        entity: 'role',
        entityId: form.id,
        before: snapshot({ ...before, deptIds: beforeDepts }),
        after: snapshot({ ...values, deptIds }),
      });
      const [out] = await selectRows(tx).where(eq(roles.id, form.id));
      return toRow(out!);
    }),
  );
}

export async function deleteRoles(db: Db, caller: Caller, ids: number[]): Promise<{ deleted: number }> {
  // Ascending, so concurrent deletes lock rows in the same order.
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  return db.transaction(async (tx) => {
    const gone: { id: number; before: ReturnType<typeof snapshot> }[] = [];
    for (const id of unique) {
      const role = await lockRole(tx, caller, id);
      if (BUILTIN_CODES.has(role.code)) throw badRequest(`内置角色「${role.name}」不能删除`);
      const [used] = await tx.select({ n: count() }).from(userRoles).where(eq(userRoles.roleId, id));
      if ((used?.n ?? 0) > 0)
        throw badRequest(`角色「${role.name}」已分配给 ${used!.n} 个用户，请先解除分配再删除`);
      gone.push({ id, before: snapshot({ ...role, deptIds: await deptIdsOfRole(tx, id) }) });
    }
    await tx.delete(roles).where(inArray(roles.id, unique));
    await bumpMenuVersion(tx);
    for (const g of gone)
      await auditChange(tx, caller, { action: 'delete', entity: 'role', entityId: g.id, before: g.before });
    return { deleted: gone.length };
  });
}

/** Replaces the menus and buttons granted to a role; every user's menu tree is rebuilt at their next load. */
export async function grantMenus(
  db: Db,
  caller: Caller,
  roleId: number,
  menuIds: number[],
): Promise<{ id: number; menuIds: number[] }> {
  const unique = [...new Set(menuIds)].sort((a, b) => a - b);
  return db.transaction(async (tx) => {
    await lockRole(tx, caller, roleId);
    if (unique.length) {
      const found = await tx.select({ id: menus.id }).from(menus).where(inArray(menus.id, unique));
      if (found.length !== unique.length) throw fieldError('menuIds', '所选菜单不存在', '菜单');
    }
    const before = (
      await tx
        .select({ id: roleMenus.menuId })
        .from(roleMenus)
        .where(eq(roleMenus.roleId, roleId))
        .orderBy(asc(roleMenus.menuId))
    ).map((r) => r.id);
    await tx.delete(roleMenus).where(eq(roleMenus.roleId, roleId));
    if (unique.length) await tx.insert(roleMenus).values(unique.map((menuId) => ({ roleId, menuId })));
    await bumpMenuVersion(tx);
    await auditChange(tx, caller, {
      action: 'grant_menus',
      entity: 'role',
      entityId: roleId,
      before: { menuIds: before },
      after: { menuIds: unique },
    });
    return { id: roleId, menuIds: unique };
  });
}
