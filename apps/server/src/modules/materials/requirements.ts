// The documents an application must carry (its product's required materials by stage, and what the underwriter
// asked for): what is on file, and the refusal of a submission or an approval without them. The rule itself
// (which types each stage needs, what is missing, the message) is shared with the web: @piibs/shared/material.
import {
  MATERIAL_DOC_DICT,
  type MaterialNeeds,
  materialsProblem,
  missingDocTypes,
} from '@piibs/shared/material';
import type { MaterialStage } from '@piibs/shared/product';
import { and, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { materials } from '../../db/schema.ts';
import { fieldError, problemError } from '../../lib/errors.ts';

/** The document types of the live materials of a record (distinct). */
async function docTypesOf(db: Db | Tx, where: SQL | undefined): Promise<string[]> {
  const rows = await db
    .selectDistinct({ docType: materials.docType })
    .from(materials)
    .where(and(where, isNull(materials.deletedAt)));
  return rows.map((r) => r.docType);
}

/** The document types on file for a customer (licence scans and the like, which count for its applications). */
export const customerDocTypes = (db: Db | Tx, customerId: number): Promise<string[]> =>
  docTypesOf(db, and(eq(materials.businessType, 'customer'), eq(materials.businessId, customerId)));

/** The document types on file for an application: its own materials and its applicant's. */
const applicationDocTypes = (db: Db | Tx, a: { id: number; customerId: number }): Promise<string[]> =>
  docTypesOf(
    db,
    or(
      and(eq(materials.businessType, 'application'), eq(materials.businessId, a.id)),
      and(eq(materials.businessType, 'customer'), eq(materials.businessId, a.customerId)),
    ),
  );

/** The labels of document types, in their order (a code the dictionary no longer has is shown as it is). */
export async function docTypeLabels(db: Pick<Db, 'execute'>, codes: readonly string[]): Promise<string[]> {
  if (codes.length === 0) return [];
  const res = await db.execute<{ value: string; label: string }>(sql`
    select dd.value, dd.label from dict_detail dd join dict d on d.id = dd.dict_id
    where d.name = ${MATERIAL_DOC_DICT} and dd.value in (${sql.join(
      codes.map((c) => sql`${c}`),
      sql`, `,
    )})`);
  const labels = new Map(res.rows.map((r) => [r.value, r.label]));
  return codes.map((c) => labels.get(c) ?? c);
}

/** 400 at `field` unless every code is in the document-type dictionary. */
export async function checkDocTypes(
  db: Pick<Db, 'execute'>,
  codes: readonly string[],
  field: string,
  label: string,
): Promise<void> {
  if (codes.length === 0) return;
  const res = await db.execute<{ value: string }>(sql`
    select dd.value from dict_detail dd join dict d on d.id = dd.dict_id
    where d.name = ${MATERIAL_DOC_DICT} and dd.value in (${sql.join(
      codes.map((c) => sql`${c}`),
      sql`, `,
    )})`);
  const known = new Set(res.rows.map((r) => r.value));
  const unknown = codes.find((c) => !known.has(c));
  if (unknown !== undefined) throw fieldError(field, `字典中没有代码 ${unknown}`, label);
}

/**
 * 400 at `materials` naming the missing documents (影像资料：请上传 营业执照、被保险人清单) unless the application
 * carries every type `stage` needs; nothing is changed.
 */
export async function checkApplicationMaterials(
  db: Db | Tx,
  a: { id: number; customerId: number; requestedDocTypes: readonly string[] },
  product: { requiredMaterials: MaterialNeeds['requiredMaterials'] },
  stage: MaterialStage,
): Promise<void> {
  const needs = { requiredMaterials: product.requiredMaterials, requestedDocTypes: a.requestedDocTypes };
  const missing = missingDocTypes(needs, stage, await applicationDocTypes(db, a));
  const problem = materialsProblem(await docTypeLabels(db, missing));
  if (problem) throw problemError(problem);
}
