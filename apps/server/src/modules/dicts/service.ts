// Dictionaries and their entries: paged lists, create/update/delete (unique names and values), and the
// by-name reads every page uses for selects.
import type {
  DictDetailRow,
  DictRow,
  dictCreateForm,
  dictDetailCreateForm,
  dictDetailUpdateForm,
  dictUpdateForm,
  SORT_FIELDS,
} from '@piibs/shared/admin';
import { COINSURER_DICT, ISSUER_CODE } from '@piibs/shared/coinsurance';
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { dictDetails, dicts } from '../../db/schema.ts';
import { type Actor, auditChange } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { conflict, fieldError, notFound } from '../../lib/errors.ts';
import { blurry } from '../../lib/filters.ts';
import { countRows, type ListSpec, pageRows, type SortColumns } from '../../lib/paging.ts';
import { STALE_VERSION } from '../users/admin-service.ts';

const DICT_NOT_FOUND = '字典不存在';
const DETAIL_NOT_FOUND = '字典详情不存在';
const NAME_TAKEN = '字典名称已存在';
const VALUE_TAKEN = '该字典中已存在相同的字典值';

// ---- dictionaries ----

export interface DictFilter {
  blurry?: string | undefined;
}

const dictSort: SortColumns<(typeof SORT_FIELDS.dicts)[number]> = {
  id: dicts.id,
  name: dicts.name,
  createdAt: dicts.createdAt,
};

const dictColumns = {
  id: dicts.id,
  name: dicts.name,
  description: dicts.description,
  version: dicts.version,
  createdAt: dicts.createdAt,
  detailCount: sql<number>`(select count(*)::int from dict_detail dd where dd.dict_id = "dict"."id")`,
};

const toDictRow = (d: {
  id: number;
  name: string;
  description: string | null;
  version: number;
  createdAt: Date;
  detailCount: number;
}): DictRow => ({ ...d, createdAt: d.createdAt.toISOString() });

const dictWhere = (f: DictFilter) => blurry(f.blurry, dicts.name, dicts.description);

export function dictListSpec(db: Db, f: DictFilter): ListSpec<(typeof SORT_FIELDS.dicts)[number], DictRow> {
  const where = dictWhere(f);
  return {
    columns: dictSort,
    defaultOrder: [asc(dicts.id)],
    fetch: async (q) => (await pageRows(db, db.select(dictColumns).from(dicts), where, q)).map(toDictRow),
    count: () => countRows(db, dicts, where),
  };
}

export interface DictExportRow {
  name: string;
  description: string | null;
  label: string | null;
  value: string | null;
  sort: number | null;
  createdAt: Date;
}

/** For the export: one row per entry (a dictionary without entries once), in the list's order. */
export function dictExportSpec(
  db: Db,
  f: DictFilter,
): Pick<ListSpec<(typeof SORT_FIELDS.dicts)[number], DictExportRow>, 'columns' | 'defaultOrder' | 'fetch'> {
  const where = dictWhere(f);
  return {
    columns: dictSort,
    defaultOrder: [asc(dicts.id)],
    fetch: ({ limit, offset, orderBy }) =>
      db
        .select({
          name: dicts.name,
          description: dicts.description,
          label: dictDetails.label,
          value: dictDetails.value,
          sort: dictDetails.sort,
          createdAt: dicts.createdAt,
        })
        .from(dicts)
        .leftJoin(dictDetails, eq(dictDetails.dictId, dicts.id))
        .where(where)
        .orderBy(...orderBy, asc(dictDetails.sort), asc(dictDetails.id))
        .limit(limit)
        .offset(offset),
  };
}

async function dictNameTaken(tx: Tx, name: string, exceptId?: number) {
  const [row] = await tx
    .select({ id: dicts.id })
    .from(dicts)
    .where(and(eq(dicts.name, name), exceptId ? ne(dicts.id, exceptId) : undefined));
  return Boolean(row);
}

async function guard<T>(message: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(message);
    throw err;
  }
}

async function loadDict(tx: Tx, id: number): Promise<DictRow> {
  const [row] = await tx.select(dictColumns).from(dicts).where(eq(dicts.id, id));
  if (!row) throw notFound(DICT_NOT_FOUND);
  return toDictRow(row);
}

export function createDict(db: Db, actor: Actor, form: z.infer<typeof dictCreateForm>): Promise<DictRow> {
  return guard(NAME_TAKEN, () =>
    db.transaction(async (tx) => {
      if (await dictNameTaken(tx, form.name)) throw conflict(NAME_TAKEN);
      const values = { name: form.name, description: form.description ?? null };
      const [row] = await tx.insert(dicts).values(values).returning({ id: dicts.id });
      await auditChange(tx, actor, { action: 'create', entity: 'dict', entityId: row!.id, after: values });
      return loadDict(tx, row!.id);
    }),
  );
}

export function updateDict(db: Db, actor: Actor, form: z.infer<typeof dictUpdateForm>): Promise<DictRow> {
  return guard(NAME_TAKEN, () =>
    db.transaction(async (tx) => {
      const [before] = await tx.select().from(dicts).where(eq(dicts.id, form.id)).for('update');
      if (!before) throw notFound(DICT_NOT_FOUND);
      if (form.version !== undefined && form.version !== before.version) throw conflict(STALE_VERSION);
      if (await dictNameTaken(tx, form.name, form.id)) throw conflict(NAME_TAKEN);
      const values = { name: form.name, description: form.description ?? null };
      await tx
        .update(dicts)
        .set({ ...values, version: sql`${dicts.version} + 1`, updatedAt: sql`now()` })
        .where(eq(dicts.id, form.id));
      await auditChange(tx, actor, {
        action: 'update',
        entity: 'dict',
        entityId: form.id,
        before: { name: before.name, description: before.description },
        after: values,
      });
      return loadDict(tx, form.id);
    }),
  );
}

/** Deletes dictionaries with their entries. */
export function deleteDicts(db: Db, actor: Actor, ids: number[]): Promise<{ deleted: number }> {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const rows = await tx.select().from(dicts).where(inArray(dicts.id, unique)).for('update');
    if (rows.length !== unique.length) throw notFound(DICT_NOT_FOUND);
    const entries = await tx
      .select({ dictId: dictDetails.dictId, n: count() })
      .from(dictDetails)
      .where(inArray(dictDetails.dictId, unique))
      .groupBy(dictDetails.dictId);
    await tx.delete(dicts).where(inArray(dicts.id, unique));
    for (const d of rows) {
      await auditChange(tx, actor, {
        action: 'delete',
        entity: 'dict',
        entityId: d.id,
        before: {
          name: d.name,
          description: d.description,
          entries: entries.find((e) => e.dictId === d.id)?.n ?? 0,
        },
      });
    }
    return { deleted: rows.length };
  });
}

// ---- entries ----

export interface DetailFilter {
  dictName?: string | undefined;
  dictId?: number | undefined;
  label?: string | undefined;
}

const detailSort: SortColumns<(typeof SORT_FIELDS.dictDetails)[number]> = {
  id: dictDetails.id,
  label: dictDetails.label,
  value: dictDetails.value,
  sort: dictDetails.sort,
};

const detailColumns = {
  id: dictDetails.id,
  dictId: dictDetails.dictId,
  dictName: dicts.name,
  label: dictDetails.label,
  value: dictDetails.value,
  sort: dictDetails.sort,
};

export function detailListSpec(
  db: Db,
  f: DetailFilter,
): ListSpec<(typeof SORT_FIELDS.dictDetails)[number], DictDetailRow> {
  const where = and(
    f.dictName ? eq(dicts.name, f.dictName) : undefined,
    f.dictId ? eq(dictDetails.dictId, f.dictId) : undefined,
    blurry(f.label, dictDetails.label),
  );
  return {
    columns: detailSort,
    defaultOrder: [asc(dictDetails.sort), asc(dictDetails.id)],
    fetch: ({ limit, offset, orderBy }) =>
      db
        .select(detailColumns)
        .from(dictDetails)
        .innerJoin(dicts, eq(dicts.id, dictDetails.dictId))
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    count: async () =>
      (
        await db
          .select({ n: count() })
          .from(dictDetails)
          .innerJoin(dicts, eq(dicts.id, dictDetails.dictId))
          .where(where)
      )[0]?.n ?? 0,
  };
}

/** `{ name: [{ label, value }] }` for each name (unknown names answer an empty list). */
export async function optionsByName(
  db: Db,
  names: string[],
): Promise<Record<string, { label: string; value: string }[]>> {
  const out: Record<string, { label: string; value: string }[]> = {};
  for (const n of names) out[n] = [];
  if (names.length === 0) return out;
  const rows = await db
    .select({ name: dicts.name, label: dictDetails.label, value: dictDetails.value })
    .from(dictDetails)
    .innerJoin(dicts, eq(dicts.id, dictDetails.dictId))
    .where(inArray(dicts.name, names))
    .orderBy(asc(dicts.name), asc(dictDetails.sort), asc(dictDetails.id));
  for (const r of rows) out[r.name]?.push({ label: r.label, value: r.value });
  return out;
}

async function loadDetail(tx: Tx, id: number): Promise<DictDetailRow> {
  const [row] = await tx
    .select(detailColumns)
    .from(dictDetails)
    .innerJoin(dicts, eq(dicts.id, dictDetails.dictId))
    .where(eq(dictDetails.id, id));
  if (!row) throw notFound(DETAIL_NOT_FOUND);
  return row;
}

async function valueTaken(tx: Tx, dictId: number, value: string, exceptId?: number) {
  const [row] = await tx
    .select({ id: dictDetails.id })
    .from(dictDetails)
    .where(
      and(
        eq(dictDetails.dictId, dictId),
        eq(dictDetails.value, value),
        exceptId ? ne(dictDetails.id, exceptId) : undefined,
      ),
    );
  return Boolean(row);
}

const detailSnapshot = (d: { dictId: number; label: string; value: string; sort: number }) => ({
  dictId: d.dictId,
  label: d.label,
  value: d.value,
  sort: d.sort,
});

/** The co-insurers' dictionary may not take the issuing insurer's reserved code (it is 本公司, not an entry). */
function refuseReserved(dictName: string, value: string): void {
  if (dictName === COINSURER_DICT && value.trim().toUpperCase() === ISSUER_CODE)
    throw fieldError(
      'value',
      `${ISSUER_CODE} 为本公司（出单公司）的保留代码，不能用作共保公司代码`,
      '字典值',
    );
}

export function createDetail(
  db: Db,
  actor: Actor,
  form: z.infer<typeof dictDetailCreateForm>,
): Promise<DictDetailRow> {
  return guard(VALUE_TAKEN, () =>
    db.transaction(async (tx) => {
      const [dict] = await tx
        .select({ id: dicts.id, name: dicts.name })
        .from(dicts)
        .where(eq(dicts.id, form.dictId));
      if (!dict) throw fieldError('dictId', '字典不存在', '所属字典');
      refuseReserved(dict.name, form.value);
      if (await valueTaken(tx, form.dictId, form.value)) throw conflict(VALUE_TAKEN);
      const [row] = await tx.insert(dictDetails).values(form).returning({ id: dictDetails.id });
      await auditChange(tx, actor, {
        action: 'create',
        entity: 'dict_detail',
        entityId: row!.id,
        after: detailSnapshot(form),
      });
      return loadDetail(tx, row!.id);
    }),
  );
}

export function updateDetail(
  db: Db,
  actor: Actor,
  form: z.infer<typeof dictDetailUpdateForm>,
): Promise<DictDetailRow> {
  return guard(VALUE_TAKEN, () =>
    db.transaction(async (tx) => {
      const [before] = await tx.select().from(dictDetails).where(eq(dictDetails.id, form.id)).for('update');
      if (!before) throw notFound(DETAIL_NOT_FOUND);
      const [dict] = await tx.select({ name: dicts.name }).from(dicts).where(eq(dicts.id, before.dictId));
      refuseReserved(dict?.name ?? '', form.value);
      if (await valueTaken(tx, before.dictId, form.value, form.id)) throw conflict(VALUE_TAKEN);
      const values = { label: form.label, value: form.value, sort: form.sort };
      await tx
        .update(dictDetails)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(dictDetails.id, form.id));
      await auditChange(tx, actor, {
        action: 'update',
        entity: 'dict_detail',
        entityId: form.id,
        before: detailSnapshot(before),
        after: detailSnapshot({ ...values, dictId: before.dictId }),
      });
      return loadDetail(tx, form.id);
    }),
  );
}

export function deleteDetail(db: Db, actor: Actor, id: number): Promise<{ deleted: number }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(dictDetails).where(eq(dictDetails.id, id)).returning();
    if (!row) throw notFound(DETAIL_NOT_FOUND);
    await auditChange(tx, actor, {
      action: 'delete',
      entity: 'dict_detail',
      entityId: id,
      before: detailSnapshot(row),
    });
    return { deleted: 1 };
  });
}
