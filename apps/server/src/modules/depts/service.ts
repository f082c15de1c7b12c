// Departments: a tree (small table, built in memory), create/update (optional version), delete refused while
// a department still has users or sub-departments.
import type { DeptNode, deptCreateForm, deptUpdateForm } from '@piibs/shared/admin';
import { and, asc, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { departments, users } from '../../db/schema.ts';
import { type Actor, auditChange } from '../../lib/audit.ts';
import type { DataScope } from '../../lib/data-scope.ts';
import { badRequest, conflict, fieldError, notFound } from '../../lib/errors.ts';
import { STALE_VERSION } from '../users/admin-service.ts';

export const DEPT_NOT_FOUND = '部门不存在';

export interface DeptFilter {
  name?: string | undefined;
  enabled?: boolean | undefined;
}

/** Departments matching the filter (within the scope), flat, ordered by sort then id. */
export async function deptRows(
  db: Db,
  scope: DataScope,
  f: DeptFilter,
): Promise<Omit<DeptNode, 'children'>[]> {
  const rows = await db
    .select({
      id: departments.id,
      parentId: departments.parentId,
      name: departments.name,
      sort: departments.sort,
      enabled: departments.enabled,
      version: departments.version,
      createdAt: departments.createdAt,
      userCount: sql<number>`(select count(*)::int from app_user u where u.dept_id = "department"."id")`,
    })
    .from(departments)
    .orderBy(asc(departments.sort), asc(departments.id));
  const needle = f.name?.toLowerCase();
  return rows
    .filter((d) => scope.all || scope.deptIds.includes(d.id))
    .filter((d) => !needle || d.name.toLowerCase().includes(needle))
    .filter((d) => f.enabled === undefined || d.enabled === f.enabled)
    .map((d) => ({ ...d, createdAt: d.createdAt.toISOString() }));
}

/** Nests rows: a row whose parent is not in the set becomes a root (as eladmin does for a filtered list). */
export function buildTree(rows: Omit<DeptNode, 'children'>[]): DeptNode[] {
  const ids = new Set(rows.map((r) => r.id));
  const byParent = new Map<number | null, Omit<DeptNode, 'children'>[]>();
  for (const r of rows) {
    const parent = r.parentId != null && ids.has(r.parentId) ? r.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), r]);
  }
  const walk = (parent: number | null): DeptNode[] =>
    (byParent.get(parent) ?? []).map((r) => {
      const children = walk(r.id);
      return children.length ? { ...r, children } : { ...r };
    });
  return walk(null);
}

const snapshot = (d: { name: string; parentId: number | null; sort: number; enabled: boolean }) => ({
  name: d.name,
  parentId: d.parentId,
  sort: d.sort,
  enabled: d.enabled,
});

async function checkParent(tx: Tx, parentId: number | null, selfId?: number) {
  if (parentId == null) return;
  if (parentId === selfId) throw fieldError('parentId', '不能选择自己', '上级部门');
  const [row] = await tx.select({ id: departments.id }).from(departments).where(eq(departments.id, parentId));
  if (!row) throw fieldError('parentId', '所选部门不存在', '上级部门');
  if (selfId != null) {
    const chain = await tx.execute(sql`
      WITH RECURSIVE up AS (SELECT id, parent_id FROM department WHERE id = ${parentId}
        UNION SELECT d.id, d.parent_id FROM department d JOIN up ON d.id = up.parent_id)
      SELECT 1 FROM up WHERE id = ${selfId}`);
    if (chain.rows.length) throw fieldError('parentId', '不能选择自己的下级部门', '上级部门');
  }
}

async function checkSiblingName(tx: Tx, name: string, parentId: number | null, selfId?: number) {
  const [row] = await tx
    .select({ id: departments.id })
    .from(departments)
    .where(
      and(
        eq(departments.name, name),
        parentId == null ? isNull(departments.parentId) : eq(departments.parentId, parentId),
        selfId != null ? ne(departments.id, selfId) : undefined,
      ),
    );
  if (row) throw conflict(`同级部门中已存在「${name}」`);
}

type DeptOut = Omit<DeptNode, 'children'>;

async function loadOne(tx: Tx, id: number): Promise<DeptOut> {
  const [d] = await tx.select().from(departments).where(eq(departments.id, id));
  if (!d) throw notFound(DEPT_NOT_FOUND);
  const [n] = await tx.select({ n: count() }).from(users).where(eq(users.deptId, id));
  return {
    id: d.id,
    parentId: d.parentId,
    name: d.name,
    sort: d.sort,
    enabled: d.enabled,
    version: d.version,
    createdAt: d.createdAt.toISOString(),
    userCount: n?.n ?? 0,
  };
}

export function createDept(db: Db, caller: Actor, form: z.infer<typeof deptCreateForm>): Promise<DeptOut> {
  return db.transaction(async (tx) => {
    await checkParent(tx, form.parentId);
    await checkSiblingName(tx, form.name, form.parentId);
    const values = { name: form.name, parentId: form.parentId, sort: form.sort, enabled: form.enabled };
    const [row] = await tx.insert(departments).values(values).returning({ id: departments.id });
    await auditChange(tx, caller, {
      action: 'create',
      entity: 'dept',
      entityId: row!.id,
      after: snapshot(values),
    });
    return loadOne(tx, row!.id);
  });
}

export function updateDept(db: Db, caller: Actor, form: z.infer<typeof deptUpdateForm>): Promise<DeptOut> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(departments).where(eq(departments.id, form.id)).for('update');
    if (!before) throw notFound(DEPT_NOT_FOUND);
    if (form.version !== undefined && form.version !== before.version) throw conflict(STALE_VERSION);
    await checkParent(tx, form.parentId, form.id);
    await checkSiblingName(tx, form.name, form.parentId, form.id);
    const values = { name: form.name, parentId: form.parentId, sort: form.sort, enabled: form.enabled };
    await tx
      .update(departments)
      .set({ ...values, version: sql`${departments.version} + 1`, updatedAt: sql`now()` })
      .where(eq(departments.id, form.id));
    await auditChange(tx, caller, {
      action: 'update',
      entity: 'dept',
      entityId: form.id,
      before: snapshot(before),
      after: snapshot(values),
    });
    return loadOne(tx, form.id);
  });
}

/** Deletes departments; refused while one still has users, or sub-departments not deleted with it. */
export function deleteDepts(db: Db, caller: Actor, ids: number[]): Promise<{ deleted: number }> {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const rows = await tx.select().from(departments).where(inArray(departments.id, unique)).for('update');
    if (rows.length !== unique.length) throw notFound(DEPT_NOT_FOUND);
    for (const d of rows) {
      const [n] = await tx.select({ n: count() }).from(users).where(eq(users.deptId, d.id));
      if ((n?.n ?? 0) > 0)
        throw badRequest(`部门「${d.name}」下还有 ${n!.n} 个用户，请先将用户调离该部门再删除`);
      const kids = await tx
        .select({ id: departments.id })
        .from(departments)
        .where(eq(departments.parentId, d.id));
      if (kids.some((k) => !unique.includes(k.id)))
        throw badRequest(`部门「${d.name}」下还有下级部门，请先删除下级部门`);
    }
    await tx.delete(departments).where(inArray(departments.id, unique));
    for (const d of rows)
      await auditChange(tx, caller, {
        action: 'delete',
        entity: 'dept',
        entityId: d.id,
        before: snapshot(d),
      });
    return { deleted: rows.length };
  });
}
