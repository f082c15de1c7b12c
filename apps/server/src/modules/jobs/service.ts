// Jobs (岗位): paged list, create/update (optional version), delete refused while assigned to users.
import type { JobRow, jobCreateForm, jobUpdateForm, SORT_FIELDS } from '@piibs/shared/admin';
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { jobs, userJobs } from '../../db/schema.ts';
import { type Actor, auditChange } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { blurry, timeRange } from '../../lib/filters.ts';
import { countRows, type ListSpec, pageRows, type SortColumns } from '../../lib/paging.ts';
import { STALE_VERSION } from '../users/admin-service.ts';

const JOB_NOT_FOUND = '岗位不存在';
const NAME_TAKEN = '岗位名称已存在';

export interface JobFilter {
  name?: string | undefined;
  enabled?: boolean | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
}

const sortColumns: SortColumns<(typeof SORT_FIELDS.jobs)[number]> = {
  id: jobs.id,
  name: jobs.name,
  sort: jobs.sort,
  enabled: jobs.enabled,
  createdAt: jobs.createdAt,
};

const toRow = (j: typeof jobs.$inferSelect): JobRow => ({
  id: j.id,
  name: j.name,
  sort: j.sort,
  enabled: j.enabled,
  version: j.version,
  createdAt: j.createdAt.toISOString(),
});

export function jobListSpec(db: Db, f: JobFilter): ListSpec<(typeof SORT_FIELDS.jobs)[number], JobRow> {
  const where = and(
    blurry(f.name, jobs.name),
    f.enabled !== undefined ? eq(jobs.enabled, f.enabled) : undefined,
    timeRange(jobs.createdAt, f.startTime, f.endTime),
  );
  return {
    columns: sortColumns,
    defaultOrder: [asc(jobs.sort), asc(jobs.id)],
    fetch: async (q) => (await pageRows(db, db.select().from(jobs), where, q)).map(toRow),
    count: () => countRows(db, jobs, where),
  };
}

const snapshot = (j: { name: string; sort: number; enabled: boolean }) => ({
  name: j.name,
  sort: j.sort,
  enabled: j.enabled,
});

async function nameTaken(tx: Tx, name: string, exceptId?: number) {
  const [row] = await tx
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.name, name), exceptId ? ne(jobs.id, exceptId) : undefined));
  return Boolean(row);
}

async function uniqueGuard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(NAME_TAKEN);
    throw err;
  }
}

export function createJob(db: Db, actor: Actor, form: z.infer<typeof jobCreateForm>): Promise<JobRow> {
  return uniqueGuard(() =>
    db.transaction(async (tx) => {
      if (await nameTaken(tx, form.name)) throw conflict(NAME_TAKEN);
      const [row] = await tx.insert(jobs).values(form).returning();
      await auditChange(tx, actor, {
        action: 'create',
        entity: 'job',
        entityId: row!.id,
        after: snapshot(form),
      });
      return toRow(row!);
    }),
  );
}

export function updateJob(db: Db, actor: Actor, form: z.infer<typeof jobUpdateForm>): Promise<JobRow> {
  return uniqueGuard(() =>
    db.transaction(async (tx) => {
      const [before] = await tx.select().from(jobs).where(eq(jobs.id, form.id)).for('update');
      if (!before) throw notFound(JOB_NOT_FOUND);
      if (form.version !== undefined && form.version !== before.version) throw conflict(STALE_VERSION);
      if (await nameTaken(tx, form.name, form.id)) throw conflict(NAME_TAKEN);
      const values = { name: form.name, sort: form.sort, enabled: form.enabled };
      const [row] = await tx
        .update(jobs)
        .set({ ...values, version: sql`${jobs.version} + 1`, updatedAt: sql`now()` })
        .where(eq(jobs.id, form.id))
        .returning();
      await auditChange(tx, actor, {
        action: 'update',
        entity: 'job',
        entityId: form.id,
        before: snapshot(before),
        after: snapshot(values),
      });
      return toRow(row!);
    }),
  );
}

export function deleteJobs(db: Db, actor: Actor, ids: number[]): Promise<{ deleted: number }> {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const rows = await tx.select().from(jobs).where(inArray(jobs.id, unique)).for('update');
    if (rows.length !== unique.length) throw notFound(JOB_NOT_FOUND);
    for (const j of rows) {
      const [n] = await tx.select({ n: count() }).from(userJobs).where(eq(userJobs.jobId, j.id));
      if ((n?.n ?? 0) > 0) throw badRequest(`岗位「${j.name}」已分配给 ${n!.n} 个用户，请先解除关联再删除`);
    }
    await tx.delete(jobs).where(inArray(jobs.id, unique));
    for (const j of rows)
      await auditChange(tx, actor, { action: 'delete', entity: 'job', entityId: j.id, before: snapshot(j) });
    return { deleted: rows.length };
  });
}
