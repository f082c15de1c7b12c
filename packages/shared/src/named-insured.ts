// Named insured lists (从业人员名单): a product may require the names and resident identity card numbers of the
// people it covers. Entered in the wizard or imported from .xlsx (a template to download; each bad row named in
// Chinese; nothing half-imported); the headcount then follows the list; the list is on the policy and its
// e-policy annex. The identity card number is sensitive: lists, the annex and the audit trail show it masked
// (3201**********1234); only the holder's own form sends it in full. Import it as `@piibs/shared/named-insured`.
import { z } from 'zod';
import { ID_CARD_MESSAGE, isIdCardNumber } from './application.ts';

/** At most this many people on one list. */
export const NAMED_INSURED_MAX = 5000;
export const NAMED_INSURED_TITLE = '从业人员名单';
/** The template's columns, in order. */
export const NAMED_INSURED_COLUMNS = ['姓名', '身份证号码'] as const;

/** 320102199001011234 → 3201**********1234 (the first four and the last four shown). */
export function maskIdNumber(id: string): string {
  if (id.length <= 8) return '*'.repeat(id.length);
  return `${id.slice(0, 4)}${'*'.repeat(id.length - 8)}${id.slice(-4)}`;
}

/** The problem of one person (Chinese, naming the column), or null. The number is upper-cased first. */
export function insuredPersonProblem(p: { name: string; idNumber: string }): string | null {
  const name = p.name.trim();
  if (!name) return '姓名：不能为空';
  if (name.length > 50) return '姓名：不能超过 50 个字符';
  const id = p.idNumber.trim().toUpperCase();
  if (!id) return '身份证号码：不能为空';
  if (!isIdCardNumber(id)) return `身份证号码：${ID_CARD_MESSAGE}`;
  return null;
}

export interface InsuredPerson {
  name: string;
  idNumber: string;
}

/**
 * Checks a whole list: every row's problem as `第 N 行：…` (N counts from 1, or from `firstRow` for a sheet
 * whose row 1 is the header), a number twice as `与第 M 行重复`. Answers the clean list (trimmed, upper-cased)
 * or the problems; a list with any problem is refused whole.
 */
export function checkInsuredList(
  rows: readonly InsuredPerson[],
  firstRow = 1,
): { persons: InsuredPerson[]; problems: string[] } {
  const problems: string[] = [];
  const persons: InsuredPerson[] = [];
  const seen = new Map<string, number>();
  if (rows.length > NAMED_INSURED_MAX) problems.push(`${NAMED_INSURED_TITLE}：最多 ${NAMED_INSURED_MAX} 人`);
  for (const [i, r] of rows.entries()) {
    const n = i + firstRow;
    const problem = insuredPersonProblem(r);
    if (problem) {
      problems.push(`第 ${n} 行：${problem}`);
      continue;
    }
    const person = { name: r.name.trim(), idNumber: r.idNumber.trim().toUpperCase() };
    const before = seen.get(person.idNumber);
    if (before !== undefined) problems.push(`第 ${n} 行：身份证号码与第 ${before} 行重复`);
    else seen.set(person.idNumber, n);
    persons.push(person);
  }
  return { persons, problems };
}

/** PUT /api/applications/:id/insuredPersons: the whole list (replaces the one saved; empty clears it). */
export const insuredListForm = z.object({
  version: z.number().int().min(0).meta({ title: '版本号' }),
  persons: z
    .array(
      z.object({
        name: z.string().max(100).default('').meta({ title: '姓名' }),
        idNumber: z.string().max(30).default('').meta({ title: '身份证号码' }),
        /**
         * A person of the saved list kept as saved, by their 序号 (the form never has their full number again:
         * lists answer it masked). Name and number are then ignored.
         */
        sort: z.number().int().positive().optional().meta({ title: '序号' }),
      }),
    )
    .max(NAMED_INSURED_MAX, { error: `最多 ${NAMED_INSURED_MAX} 人` })
    .meta({ title: NAMED_INSURED_TITLE }),
});
export type InsuredListForm = z.input<typeof insuredListForm>;

/** A person as lists show them: the number masked. */
export const insuredPersonRow = z.object({
  sort: z.number(),
  name: z.string(),
  /** 3201**********1234. */
  idNumberMasked: z.string(),
});
export type InsuredPersonRow = z.infer<typeof insuredPersonRow>;

/** GET /api/applications/:id/insuredPersons (and the policy's list). */
export const insuredList = z.object({
  /** The product asks for the list (the wizard shows it; submission needs it). */
  required: z.boolean(),
  count: z.number(),
  persons: z.array(insuredPersonRow),
});
export type InsuredList = z.infer<typeof insuredList>;

/** A person of a policy's list: covered from the policy's start (addedOn null) or an endorsement's date, until
 * an endorsement's date removed them (removedOn). */
export const policyInsuredPersonRow = insuredPersonRow.extend({
  addedOn: z.string().nullable(),
  removedOn: z.string().nullable(),
});
export type PolicyInsuredPersonRow = z.infer<typeof policyInsuredPersonRow>;

/** GET /api/policies/:id/insuredPersons: every person the policy has listed; count those not removed. */
export const policyInsuredList = z.object({
  required: z.boolean(),
  /** The people covered now (none removed): the policy's headcount. */
  count: z.number(),
  persons: z.array(policyInsuredPersonRow),
});
export type PolicyInsuredList = z.infer<typeof policyInsuredList>;

/** The import's refusal: every bad row, nothing imported. */
export const insuredImportProblem = z.object({
  status: z.literal(400),
  message: z.string(),
  problems: z.array(z.string()),
});
