// 从业人员名单's rows as the wizard keeps them: what it reads from a saved list, checks, sends and makes of a
// refusal. Kept apart from the section's table (NamedInsuredSection.tsx), which the wizard loads only on the step
// that shows it.
import { type InsuredList, insuredPersonProblem, NAMED_INSURED_TITLE } from '@piibs/shared/named-insured';
import { errorMessage } from '@/components/crud/resource.ts';
import { refusalOf } from '@/lib/http.ts';

/** One row of the list: a saved person (sort, masked number) or one typed in (full number). */
export interface NamedRow {
  key: string;
  /** A saved person, kept by their 序号. */
  sort?: number;
  name: string;
  idNumber: string;
  idNumberMasked?: string;
}

export const NAMED_TEXTS = Object.freeze({
  title: NAMED_INSURED_TITLE,
  count: (n: number) => `共 ${n} 人，参保人数随名单`,
  add: '添加人员',
  import: '导入 xlsx',
  template: '下载导入模板',
  remove: '删除',
  empty: '尚未录入人员：可逐行添加，或下载模板填写后导入',
  hint: '导入将整表替换当前名单；任一行有误则不导入，并逐行说明错误。',
  importFailed: '导入未成功，名单未作任何修改',
  imported: (n: number) => `已导入 ${n} 人`,
  required: `请录入或导入${NAMED_INSURED_TITLE}`,
  fix: `${NAMED_INSURED_TITLE}有错误，请按各行提示修改后再继续`,
  rowLabel: (n: number, column: string) => `第 ${n} 行${column}`,
});

/** The rows of a saved list. */
export const rowsOf = (list: InsuredList): NamedRow[] =>
  list.persons.map((p) => ({
    key: `saved-${p.sort}`,
    sort: p.sort,
    name: p.name,
    idNumber: '',
    idNumberMasked: p.idNumberMasked,
  }));

/** Whether the rows differ from the saved list (something typed, someone removed). */
export const rowsChanged = (rows: readonly NamedRow[], list: InsuredList | undefined): boolean =>
  rows.some((r) => r.sort === undefined) || rows.length !== (list?.persons.length ?? 0);

/** Each typed row's problem by the shared rule (a number twice among them too), by row key. */
export function rowProblems(rows: readonly NamedRow[]): Map<string, string> {
  const problems = new Map<string, string>();
  const seen = new Map<string, number>();
  for (const [i, r] of rows.entries()) {
    if (r.sort !== undefined) continue;
    const problem = insuredPersonProblem(r);
    if (problem) {
      problems.set(r.key, problem);
      continue;
    }
    const id = r.idNumber.trim().toUpperCase();
    const before = seen.get(id);
    if (before !== undefined) problems.set(r.key, `身份证号码：与第 ${before} 行重复`);
    else seen.set(id, i + 1);
  }
  return problems;
}

/** The body of the PUT: a saved person by 序号, a typed one in full. */
export const personsOf = (rows: readonly NamedRow[]) =>
  rows.map((r) => (r.sort !== undefined ? { sort: r.sort } : { name: r.name, idNumber: r.idNumber }));

/** A server refusal naming rows (`第 N 行：…`) put on those rows, by key; the rest as a list. */
export function serverRowProblems(
  rows: readonly NamedRow[],
  messages: readonly string[],
): { byRow: Map<string, string>; other: string[] } {
  const byRow = new Map<string, string>();
  const other: string[] = [];
  for (const m of messages) {
    const hit = /^第 (\d+) 行：(.*)$/.exec(m);
    const row = hit ? rows[Number(hit[1]) - 1] : undefined;
    if (row && hit) byRow.set(row.key, hit[2]!);
    else other.push(m);
  }
  return { byRow, other };
}

/** A refusal's messages: each row the server named (`第 N 行：…`), else its one message. */
export function refusalMessages(error: unknown): string[] {
  const data = refusalOf(error)?.data;
  const errors = (data as { errors?: { message?: unknown }[] } | undefined)?.errors ?? [];
  const messages = errors.map((e) => e.message).filter((m): m is string => typeof m === 'string');
  return messages.length ? messages : [errorMessage(error)];
}
