// 从业人员名单 in the wizard, for a product that asks for it: the saved people (numbers masked, kept by 序号), rows
// typed in (姓名, 身份证号码, each checked by the shared rule as typed), an .xlsx import that replaces the list at
// once (or, with any bad row, changes nothing and names every row), and the template to fill. The headcount is
// the list's length. The wizard saves typed rows with the draft (PUT, version-checked).
import { NAMED_INSURED_COLUMNS } from '@piibs/shared/named-insured';
import { Alert, Button, Input, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { DetailTable } from '@/components/crud/DetailTable.tsx';
import { downloadInsuredTemplate } from '../api.ts';
import { type NamedRow, refusalMessages, rowProblems, NAMED_TEXTS as T } from './named-insured-rows.ts';

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
        <DetailTable<NamedRow>
          noun="从业人员"
          region="人员列表"
          rowKey="key"
          size="small"
          dataSource={rows}
          locale={{ emptyText: T.empty }}
          pages={{ current: page, pageSize, onChange: setPage }}
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
