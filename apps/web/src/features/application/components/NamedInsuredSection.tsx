// 从业人员名单 in the wizard, for a product that asks for it: the saved people (numbers masked, kept by 序号), rows
// typed in (姓名, 身份证号码, each checked by the shared rule as typed), an .xlsx import that replaces the list at
// once (or, with any bad row, changes nothing and names every row), and the template to fill. The headcount is
// the list's length. The wizard saves typed rows with the draft (PUT, version-checked).
import {
  type InsuredList,
  insuredPersonProblem,
  NAMED_INSURED_COLUMNS,
  NAMED_INSURED_TITLE,
} from '@piibs/shared/named-insured';
import { Alert, Button, Input, Space, Table, Typography, Upload } from 'antd';
import axios from 'axios';
import { useState } from 'react';
import { errorMessage } from '@/components/crud/resource.ts';
import { downloadInsuredTemplate } from '../api.ts';

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
const T = NAMED_TEXTS;

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

let seq = 0;
const newKey = () => `new-${++seq}`;

export interface NamedInsuredSectionProps {
  rows: NamedRow[];
  onRows(rows: NamedRow[]): void;
  /** Show every typed row's problem (after a save was tried), not only those of rows touched. */
  showAll: boolean;
  /** Problems the server named per row (by key). */
  serverProblems: Map<string, string>;
  /** Imports the file (replacing the list); resolves with the count once the wizard has the new list. */
  onImport(file: File): Promise<number>;
  disabled?: boolean;
}

/** A refusal's messages: each row the server named (`第 N 行：…`), else its one message. */
export function refusalMessages(error: unknown): string[] {
  const data = axios.isAxiosError(error) ? error.response?.data : undefined;
  const errors = (data as { errors?: { message?: unknown }[] } | undefined)?.errors ?? [];
  const messages = errors.map((e) => e.message).filter((m): m is string => typeof m === 'string');
  return messages.length ? messages : [errorMessage(error)];
}

export function NamedInsuredSection(props: NamedInsuredSectionProps) {
  const { rows, onRows, showAll, serverProblems } = props;
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [importing, setImporting] = useState(false);
  const [importError, setImportError] = useState<string[] | null>(null);
  const [imported, setImported] = useState<number | null>(null);
  const problems = rowProblems(rows);
  const [page, setPage] = useState(1);
  const pageSize = 10;

  const update = (key: string, patch: Partial<NamedRow>) =>
    onRows(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const touch = (key: string) => setTouched((t) => new Set(t).add(key));
  const add = () => {
    const next = [...rows, { key: newKey(), name: '', idNumber: '' }];
    onRows(next);
    setPage(Math.ceil(next.length / pageSize));
  };

  const doImport = async (file: File) => {
    setImporting(true);
    setImportError(null);
    setImported(null);
    try {
      setImported(await props.onImport(file));
      setTouched(new Set());
      setPage(1);
    } catch (e) {
      setImportError(refusalMessages(e));
    } finally {
      setImporting(false);
    }
  };

  const problemOf = (r: NamedRow) =>
    serverProblems.get(r.key) ?? (showAll || touched.has(r.key) ? problems.get(r.key) : undefined);

  /** A new row's 姓名 or 身份证号 field, marked when its problem is about that field. */
  const cellInput = (r: NamedRow, n: number, field: 'name' | 'idNumber', bad: boolean) => {
    const [column, maxLength, width] =
      field === 'name' ? [NAMED_INSURED_COLUMNS[0], 50, 120] : [NAMED_INSURED_COLUMNS[1], 18, 200];
    return (
      <Input
        aria-label={T.rowLabel(n, column)}
        value={r[field]}
        maxLength={maxLength}
        status={bad ? 'error' : undefined}
        aria-invalid={bad || undefined}
        aria-describedby={problemOf(r) ? `${r.key}-problem` : undefined}
        style={{ width }}
        onChange={(e) => update(r.key, { [field]: e.target.value })}
        onBlur={() => touch(r.key)}
      />
    );
  };

  return (
    <section aria-labelledby="named-insured-title" data-testid="named-insured">
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
          <Typography.Title level={5} id="named-insured-title" style={{ margin: 0 }}>
            {T.title}（{T.count(rows.length)}）
          </Typography.Title>
          <Space wrap>
            <Button onClick={add} disabled={props.disabled}>
              {T.add}
            </Button>
            <Upload
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              showUploadList={false}
              disabled={props.disabled || importing}
              beforeUpload={(file) => {
                void doImport(file);
                return false;
              }}
            >
              <Button loading={importing} disabled={props.disabled}>
                {T.import}
              </Button>
            </Upload>
            <Button type="link" onClick={() => void downloadInsuredTemplate()}>
              {T.template}
            </Button>
          </Space>
        </Space>
        <Typography.Text type="secondary">{T.hint}</Typography.Text>
        {importError ? (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={T.importFailed}
            description={
              <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                {importError.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            }
          />
        ) : null}
        {imported !== null ? <Alert type="success" showIcon title={T.imported(imported)} /> : null}
        {/* A narrow screen scrolls the table sideways in a region the keyboard can reach. */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1) */}
        <section aria-label="人员列表" tabIndex={0} style={{ overflowX: 'auto' }}>
          <Table<NamedRow>
            rowKey="key"
            size="small"
            dataSource={rows}
            locale={{ emptyText: T.empty }}
            pagination={
              rows.length > pageSize
                ? { current: page, pageSize, onChange: setPage, showSizeChanger: false }
                : false
            }
            columns={[
              {
                title: '序号',
                key: 'n',
                width: 64,
                render: (_, _r, i) => (page - 1) * pageSize + i + 1,
              },
              {
                title: NAMED_INSURED_COLUMNS[0],
                key: 'name',
                render: (_, r, i) => {
                  const n = (page - 1) * pageSize + i + 1;
                  if (r.sort !== undefined) return r.name;
                  return cellInput(r, n, 'name', problemOf(r)?.startsWith('姓名') ?? false);
                },
              },
              {
                title: NAMED_INSURED_COLUMNS[1],
                key: 'idNumber',
                render: (_, r, i) => {
                  const n = (page - 1) * pageSize + i + 1;
                  const problem = problemOf(r);
                  if (r.sort !== undefined)
                    return (
                      <>
                        {r.idNumberMasked}
                        {problem ? <RowProblem id={`${r.key}-problem`} text={problem} /> : null}
                      </>
                    );
                  const idBad = problem !== undefined && !problem.startsWith('姓名');
                  return (
                    <>
                      {cellInput(r, n, 'idNumber', idBad)}
                      {problem ? <RowProblem id={`${r.key}-problem`} text={problem} /> : null}
                    </>
                  );
                },
              },
              {
                title: '操作',
                key: 'actions',
                width: 80,
                render: (_, r, i) => (
                  <Button
                    size="small"
                    danger
                    autoInsertSpace={false}
                    disabled={props.disabled}
                    aria-label={`${T.remove}第 ${(page - 1) * pageSize + i + 1} 行${r.name ? `（${r.name}）` : ''}`}
                    onClick={() => onRows(rows.filter((x) => x.key !== r.key))}
                  >
                    {T.remove}
                  </Button>
                ),
              },
            ]}
          />
        </section>
      </Space>
    </section>
  );
}

function RowProblem({ id, text }: { id: string; text: string }) {
  return (
    <div id={id} style={{ color: '#cf1322', fontSize: 12, marginTop: 4 }}>
      {text}
    </div>
  );
}
