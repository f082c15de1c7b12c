// Named insured lists (从业人员名单) of applications whose product asks for one: read (numbers masked), replaced
// whole from the wizard (PUT) or an .xlsx import (POST …/import: every bad row named in Chinese, nothing
// half-imported), and the template to fill. While the application is a draft (or returned) and only by its
// owner; the headcount follows the list and the draft is re-rated. The audit trail records the count and the
// masked numbers added or removed, never a full number.
import { EDITABLE_STATUSES } from '@piibs/shared/application-status';
import {
  checkInsuredList,
  type InsuredList,
  type InsuredPerson,
  maskIdNumber,
  NAMED_INSURED_COLUMNS,
  NAMED_INSURED_MAX,
  NAMED_INSURED_TITLE,
  type PolicyInsuredList,
} from '@piibs/shared/named-insured';
import { POLICY_NOT_FOUND } from '@piibs/shared/policy';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { applicationInsuredPersons, applications, policies, policyInsuredPersons } from '../../db/schema.ts';
import { badRequest, HttpError, notFound } from '../../lib/errors.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { policiesVisibleTo } from '../policies/service.ts';
import { getProduct } from '../products/service.ts';
import { type ApplicationActor, audit, checkChange, lockApplication } from './changes.ts';
import { quoteColumns, resplit, tryRate } from './pricing.ts';
import { getApplication } from './queries.ts';

const listOf = (
  required: boolean,
  rows: { sort: number; name: string; idNumber: string }[],
): InsuredList => ({
  required,
  count: rows.length,
  persons: rows.map((r) => ({ sort: r.sort, name: r.name, idNumberMasked: maskIdNumber(r.idNumber) })),
});

/** GET /api/applications/:id/insuredPersons: the list, masked (404 unless the viewer may see the application). */
export async function applicationInsuredList(
  db: Db,
  viewer: CustomerViewer,
  id: number,
): Promise<InsuredList> {
  const a = await getApplication(db, viewer, id);
  const product = await getProduct(db, a.productId);
  const rows = await db
    .select()
    .from(applicationInsuredPersons)
    .where(eq(applicationInsuredPersons.applicationId, id))
    .orderBy(asc(applicationInsuredPersons.sort));
  return listOf(product.namedInsuredRequired, rows);
}

/** The list of an issued policy as issued (its e-policy annex): the people endorsements added are not on it. */
export async function policyInsuredRows(db: Db | Tx, policyId: number) {
  return db
    .select()
    .from(policyInsuredPersons)
    .where(and(eq(policyInsuredPersons.policyId, policyId), isNull(policyInsuredPersons.addedOn)))
    .orderBy(asc(policyInsuredPersons.sort));
}

/**
 * GET /api/policies/:id/insuredPersons: everyone the policy has listed, masked, with the days endorsements added
 * or removed them; the count is of those not removed (404 unless the viewer may see the policy).
 */
export async function policyInsuredList(
  db: Db,
  viewer: CustomerViewer,
  policyId: number,
): Promise<PolicyInsuredList> {
  const [p] = await db
    .select({ id: policies.id, productId: policies.productId })
    .from(policies)
    .where(and(eq(policies.id, policyId), policiesVisibleTo(db, viewer)));
  if (!p) throw notFound(POLICY_NOT_FOUND);
  const product = await getProduct(db, p.productId);
  const rows = await db
    .select()
    .from(policyInsuredPersons)
    .where(eq(policyInsuredPersons.policyId, p.id))
    .orderBy(asc(policyInsuredPersons.sort));
  return {
    required: product.namedInsuredRequired,
    count: rows.filter((r) => !r.removedOn).length,
    persons: rows.map((r) => ({
      sort: r.sort,
      name: r.name,
      idNumberMasked: maskIdNumber(r.idNumber),
      addedOn: r.addedOn,
      removedOn: r.removedOn,
    })),
  };
}

/** At issuance: the application's list becomes the policy's. */
export async function copyInsuredListToPolicy(
  tx: Tx,
  applicationId: number,
  policyId: number,
): Promise<void> {
  const rows = await tx
    .select()
    .from(applicationInsuredPersons)
    .where(eq(applicationInsuredPersons.applicationId, applicationId))
    .orderBy(asc(applicationInsuredPersons.sort));
  for (let i = 0; i < rows.length; i += 1000)
    await tx
      .insert(policyInsuredPersons)
      .values(
        rows.slice(i, i + 1000).map((r) => ({ policyId, sort: r.sort, name: r.name, idNumber: r.idNumber })),
      );
}

/** The people a policy covers now, as its endorsements left it (none removed), in list order. */
export async function coveredPersons(db: Db | Tx, policyId: number) {
  return db
    .select({ name: policyInsuredPersons.name, idNumber: policyInsuredPersons.idNumber })
    .from(policyInsuredPersons)
    .where(and(eq(policyInsuredPersons.policyId, policyId), isNull(policyInsuredPersons.removedOn)))
    .orderBy(asc(policyInsuredPersons.sort));
}

/** A new draft's list (a renewal's: the people its policy covers now), numbered from 1. */
export async function insertApplicationList(
  tx: Tx,
  applicationId: number,
  persons: { name: string; idNumber: string }[],
): Promise<void> {
  for (let i = 0; i < persons.length; i += 1000)
    await tx
      .insert(applicationInsuredPersons)
      .values(persons.slice(i, i + 1000).map((p, j) => ({ applicationId, sort: i + j + 1, ...p })));
}

/** The refusal of a list with bad rows: 400, every row's problem (at `persons`), nothing saved. */
export function listRefusal(problems: string[]): HttpError {
  const shown = problems.slice(0, 50);
  const more = problems.length > shown.length ? `（另有 ${problems.length - shown.length} 处）` : '';
  return new HttpError(
    400,
    `${NAMED_INSURED_TITLE}有 ${problems.length} 处错误，未导入：${shown.join('；')}${more}`,
    shown.map((message) => ({ field: 'persons', message })),
  );
}

/**
 * Replaces the list of a draft (owner only; 409 in another state or on a stale version); the headcount becomes
 * the list's length and the draft is re-rated. A list with any bad row is refused whole (400, each row named).
 */
export async function replaceInsuredList(
  db: Db,
  actor: ApplicationActor,
  id: number,
  version: number,
  rows: readonly (InsuredPerson & { sort?: number | undefined })[],
  firstRow = 1,
): Promise<InsuredList> {
  // A row naming only a 序号 keeps that saved person (checked once the saved list is read, under the lock).
  const keeps = rows.some((r) => r.sort !== undefined);
  if (!keeps) {
    const { problems } = checkInsuredList(rows, firstRow);
    if (problems.length) throw listRefusal(problems);
  }
  await db.transaction(async (tx) => {
    const a = await lockApplication(tx, actor.viewer, id);
    checkChange(a, actor, EDITABLE_STATUSES.includes(a.status as never), version);
    const product = await getProduct(tx, a.productId);
    if (!product.namedInsuredRequired) throw badRequest(`该险种不需要${NAMED_INSURED_TITLE}`);
    const before = await tx
      .select({
        sort: applicationInsuredPersons.sort,
        name: applicationInsuredPersons.name,
        idNumber: applicationInsuredPersons.idNumber,
      })
      .from(applicationInsuredPersons)
      .where(eq(applicationInsuredPersons.applicationId, id));
    const saved = new Map(before.map((b) => [b.sort, b]));
    const missing: string[] = [];
    const resolved = rows.map((r, i) => {
      if (r.sort === undefined) return r;
      const kept = saved.get(r.sort);
      if (!kept) missing.push(`第 ${i + firstRow} 行：该人员已不在已保存的名单中，请刷新后重试`);
      return kept ?? { name: '', idNumber: '' };
    });
    if (missing.length) throw listRefusal(missing);
    const { persons, problems } = checkInsuredList(resolved, firstRow);
    if (problems.length) throw listRefusal(problems);
    await tx.delete(applicationInsuredPersons).where(eq(applicationInsuredPersons.applicationId, id));
    await insertApplicationList(tx, id, persons);
    const headcount = persons.length || a.headcount;
    const merged = { ...a, headcount };
    const priced = await tryRate(tx, actor.viewer, merged);
    const columns = quoteColumns(priced.quote);
    await tx
      .update(applications)
      .set({ headcount, ...columns, version: sql`${applications.version} + 1`, updatedAt: sql`now()` })
      .where(eq(applications.id, id));
    await resplit(tx, id, columns.premiumFen, columns.preventionFeeFen);
    const had = new Set(before.map((b) => b.idNumber));
    const now = new Set(persons.map((p) => p.idNumber));
    await audit(tx, actor, 'insured_list', id, {
      before: { count: before.length, headcount: a.headcount, premiumFen: a.premiumFen },
      after: { count: persons.length, headcount, premiumFen: columns.premiumFen },
      added: [...now]
        .filter((n) => !had.has(n))
        .slice(0, 100)
        .map(maskIdNumber),
      removed: [...had]
        .filter((n) => !now.has(n))
        .slice(0, 100)
        .map(maskIdNumber),
    });
  });
  return applicationInsuredList(db, actor.viewer, id);
}

/** The rows of an uploaded .xlsx (the first sheet; row 1 the header 姓名 / 身份证号码). */
export async function readInsuredSheet(bytes: Buffer): Promise<InsuredPerson[]> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw badRequest('文件：请上传 .xlsx 格式的名单（可先下载模板）');
  }
  const sheet = book.worksheets[0];
  if (!sheet) throw badRequest('文件：名单为空');
  const text = (v: unknown): string => {
    if (v === null || v === undefined) return '';
    if (typeof v === 'object' && 'text' in (v as object)) return String((v as { text: unknown }).text);
    if (typeof v === 'object' && 'result' in (v as object)) return String((v as { result: unknown }).result);
    return String(v);
  };
  const header = [
    text(sheet.getRow(1).getCell(1).value).trim(),
    text(sheet.getRow(1).getCell(2).value).trim(),
  ];
  if (header[0] !== NAMED_INSURED_COLUMNS[0] || header[1] !== NAMED_INSURED_COLUMNS[1])
    throw badRequest(`文件：第 1 行须为表头「${NAMED_INSURED_COLUMNS.join('」「')}」（请使用模板）`);
  const rows: InsuredPerson[] = [];
  const last = sheet.actualRowCount ? sheet.rowCount : 1;
  if (last - 1 > NAMED_INSURED_MAX) throw badRequest(`文件：最多 ${NAMED_INSURED_MAX} 人`);
  for (let r = 2; r <= last; r++) {
    const row = sheet.getRow(r);
    const name = text(row.getCell(1).value);
    const idNumber = text(row.getCell(2).value);
    rows.push({ name, idNumber });
  }
  // Blank rows at the end (a template's formatting) are not people.
  while (rows.length && !rows.at(-1)!.name.trim() && !rows.at(-1)!.idNumber.trim()) rows.pop();
  if (!rows.length) throw badRequest('文件：名单中没有人员');
  return rows;
}
