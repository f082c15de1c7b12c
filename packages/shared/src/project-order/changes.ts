// Changes (批改) of a declared project: what may change, and its values before → after.

import { z } from 'zod';
import { formatFen } from '../money.ts';

// ---- changes (批改): what may change, before → after ----

/** A project as it stands: what a change starts from (kept on the change) and what it makes. */
export const projectValues = z.object({
  projectAddress: z.string(),
  projectCostFen: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  highRisk: z.boolean(),
  headcount: z.number().nullable(),
  premiumFen: z.number(),
});
export type ProjectValues = z.infer<typeof projectValues>;

/** The values of a project as it stands, taken from its declaration (a row, a detail): what a change starts from. */
export const projectValuesOf = (p: ProjectValues): ProjectValues => ({
  projectAddress: p.projectAddress,
  projectCostFen: p.projectCostFen,
  startDate: p.startDate,
  endDate: p.endDate,
  highRisk: p.highRisk,
  headcount: p.headcount,
  premiumFen: p.premiumFen,
});

/** The fields a change may change, with their labels. */
export const CHANGE_FIELDS = [
  ['projectAddress', '工程地址'],
  ['projectCostFen', '工程造价'],
  ['endDate', '竣工日期'],
  ['highRisk', '危大工程'],
  ['headcount', '施工人数'],
] as const;
export type ChangeField = (typeof CHANGE_FIELDS)[number][0];

/** One changed field of an endorsement, as printed: before → after. */
export const endorsementChange = z.object({
  field: z.string(),
  label: z.string(),
  before: z.string(),
  after: z.string(),
});
export type EndorsementChange = z.infer<typeof endorsementChange>;

/** A field's value as printed on the endorsement and shown beside the change form. */
export function changeValueText(field: ChangeField, v: Omit<ProjectValues, 'premiumFen'>): string {
  switch (field) {
    case 'projectCostFen':
      return formatFen(v.projectCostFen);
    case 'highRisk':
      return v.highRisk ? '是' : '否';
    case 'headcount':
      return v.headcount == null ? '—' : `${v.headcount} 人`;
    default:
      return v[field];
  }
}

/** The fields that differ between a project and its change (none: the change changes nothing). */
export function changesBetween(
  before: Omit<ProjectValues, 'premiumFen'>,
  after: Omit<ProjectValues, 'premiumFen'>,
): EndorsementChange[] {
  return CHANGE_FIELDS.filter(([field]) => (before[field] ?? null) !== (after[field] ?? null)).map(
    ([field, label]) => ({
      field,
      label,
      before: changeValueText(field, before),
      after: changeValueText(field, after),
    }),
  );
}
/** A change's premium difference in words: 加收 / 退还 / 保费不变. */
export function premiumDiffText(diffFen: number): string {
  if (diffFen > 0) return `加收 ${formatFen(diffFen)}`;
  if (diffFen < 0) return `退还 ${formatFen(-diffFen)}`;
  return '保费不变';
}

export const NOTHING_CHANGED =
  '批改内容：请至少变更一项项目信息（工程地址、工程造价、竣工日期、危大工程或施工人数）';
