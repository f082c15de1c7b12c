// Endorsements (批改) of a policy with a named insured list (从业人员名单): the holder adds and removes people, never
// a bare headcount; the headcount becomes the list's length and is priced by the headcount endorsement's own
// arithmetic (changes.ts). On approval the list changes as of the effective date: a person removed keeps their
// row with removed_on, one added gets a row with added_on. Requests, views and the 批单 show numbers masked.
import {
  checkInsuredList,
  type InsuredPerson,
  insuredPersonProblem,
  maskIdNumber,
} from '@piibs/shared/named-insured';
import type { EndorsementRequest, FieldChange } from '@piibs/shared/policy-change';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { policyInsuredPersons } from '../../db/schema.ts';
import { type FieldError, fieldError, HttpError } from '../../lib/errors.ts';

/** What a named-list request stores in its new values (full numbers: the rows it will write). */
interface NamedValues {
  addPersons?: InsuredPerson[];
  removePersons?: (InsuredPerson & { sort: number })[];
}

/** The people of a request as views and the 批单 show them, numbers masked; null for other requests. */
export function namedPersonsOf(newValues: unknown) {
  const nv = (newValues ?? {}) as NamedValues;
  if (!nv.addPersons && !nv.removePersons) return null;
  const masked = (p: InsuredPerson) => ({ name: p.name, idNumberMasked: maskIdNumber(p.idNumber) });
  return { added: (nv.addPersons ?? []).map(masked), removed: (nv.removePersons ?? []).map(masked) };
}

/**
 * The named-list part of an endorsement request, checked against the policy's current list: each added person
 * by the shared list rules and not already listed, each removed one on the list now, at least one left. Null
 * when the policy has no list (and none is asked for). A bare headcount on a listed policy is refused.
 */
export async function namedListChange(
  tx: Tx,
  policyId: number,
  input: EndorsementRequest,
): Promise<{ headcount: number; changes: FieldChange[]; values: NamedValues } | null> {
  const current = await tx
    .select()
    .from(policyInsuredPersons)
    .where(and(eq(policyInsuredPersons.policyId, policyId), isNull(policyInsuredPersons.removedOn)));
  const adding = input.addPersons ?? [];
  const removing = [...new Set(input.removePersons ?? [])];
  const asked = adding.length > 0 || removing.length > 0;
  if (current.length === 0) {
    if (asked) throw fieldError('addPersons', '增加人员：该保单没有从业人员名单，请直接批改参保人数');
    return null;
  }
  if (!asked) {
    if (input.headcount !== undefined && input.headcount !== current.length)
      throw fieldError('headcount', '参保人数：该保单按从业人员名单承保，请增加或减少人员，参保人数随名单');
    return null;
  }
  const errors: FieldError[] = [];
  const bySort = new Map(current.map((r) => [r.sort, r]));
  const removed = removing.flatMap((sort) => {
    const row = bySort.get(sort);
    if (!row) errors.push({ field: 'removePersons', message: `序号 ${sort} 不在保单现有名单中` });
    return row ? [{ sort, name: row.name, idNumber: row.idNumber }] : [];
  });
  const staying = new Map(
    current.filter((r) => !removing.includes(r.sort)).map((r) => [r.idNumber, r.sort] as const),
  );
  const { persons: added, problems } = checkInsuredList(adding);
  for (const problem of problems) errors.push({ field: 'addPersons', message: problem });
  for (const [i, p] of adding.entries()) {
    if (insuredPersonProblem(p)) continue;
    const listed = staying.get(p.idNumber.trim().toUpperCase());
    if (listed !== undefined)
      errors.push({
        field: 'addPersons',
        message: `第 ${i + 1} 行：身份证号码已在保单名单中（序号 ${listed}）`,
      });
  }
  if (errors.length) {
    const label = (e: FieldError) => (e.field === 'addPersons' ? '增加人员' : '减少人员');
    throw new HttpError(
      400,
      `从业人员名单批改有 ${errors.length} 处错误：${errors
        .slice(0, 50)
        .map((e) => `${label(e)}${e.message}`)
        .join('；')}`,
      errors.slice(0, 50),
    );
  }
  const headcount = current.length - removed.length + added.length;
  if (headcount < 1)
    throw fieldError('removePersons', '减少人员：批改后名单至少保留 1 人（全部人员退出请申请退保）');
  if (input.headcount !== undefined && input.headcount !== headcount)
    throw fieldError('headcount', `参保人数：须与批改后的名单人数（${headcount} 人）一致`);
  const parts = [
    added.length ? `增加 ${added.length} 人` : '',
    removed.length ? `减少 ${removed.length} 人` : '',
  ].filter(Boolean);
  return {
    headcount,
    changes: [
      {
        field: 'persons',
        label: '从业人员名单',
        before: `${current.length} 人`,
        after: `${headcount} 人（${parts.join('，')}）`,
      },
    ],
    values: {
      ...(added.length ? { addPersons: added } : {}),
      ...(removed.length ? { removePersons: removed } : {}),
    },
  };
}

/** On approval: the removed people leave and the added join, as of the effective date. */
export async function applyNamedListChange(
  tx: Tx,
  policyId: number,
  effectiveDate: string,
  newValues: unknown,
): Promise<void> {
  const nv = (newValues ?? {}) as NamedValues;
  const removeSorts = (nv.removePersons ?? []).map((p) => p.sort);
  if (removeSorts.length)
    await tx
      .update(policyInsuredPersons)
      .set({ removedOn: effectiveDate })
      .where(
        and(
          eq(policyInsuredPersons.policyId, policyId),
          inArray(policyInsuredPersons.sort, removeSorts),
          isNull(policyInsuredPersons.removedOn),
        ),
      );
  const adds = nv.addPersons ?? [];
  if (!adds.length) return;
  const [last] = await tx
    .select({ n: sql<number>`coalesce(max(${policyInsuredPersons.sort}), 0)::int` })
    .from(policyInsuredPersons)
    .where(eq(policyInsuredPersons.policyId, policyId));
  const from = last?.n ?? 0;
  for (let i = 0; i < adds.length; i += 1000)
    await tx.insert(policyInsuredPersons).values(
      adds.slice(i, i + 1000).map((p, j) => ({
        policyId,
        sort: from + i + j + 1,
        name: p.name,
        idNumber: p.idNumber,
        addedOn: effectiveDate,
      })),
    );
}
