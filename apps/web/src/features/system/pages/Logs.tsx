import type { AuditLogRow } from '@piibs/shared/admin';
import { AUDIT_ACTION_LABELS, AUDIT_ENTITY_LABELS } from '@piibs/shared/audit-text';
import { formatTime } from '@piibs/shared/constants';
import { Tag, Typography } from 'antd';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { logsResource } from '../api.ts';
import { SYSTEM_TEXTS as T } from '../texts.ts';

const options = (labels: Readonly<Record<string, string>>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

const SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: T.keyword, placeholder: '操作人、对象、对象ID或 IP' },
  { kind: 'input', name: 'actor', label: T.actor, placeholder: '姓名或用户名' },
  {
    kind: 'select',
    name: 'action',
    label: T.action,
    options: options(AUDIT_ACTION_LABELS),
    width: 140,
    searchable: true,
  },
  {
    kind: 'select',
    name: 'entity',
    label: T.entity,
    options: options(AUDIT_ENTITY_LABELS),
    width: 130,
    searchable: true,
  },
  { kind: 'input', name: 'number', label: T.record, placeholder: T.recordHint, width: 240 },
  { kind: 'dateRange', name: 'createdAt', label: T.time },
];
const FILTER_KEYS = searchKeys(SEARCH);

const columns: CrudColumn<AuditLogRow>[] = [
  {
    key: 'createdAt',
    title: T.time,
    dataIndex: 'createdAt',
    sortField: 'createdAt',
    alwaysVisible: true,
    width: 180,
    render: (v: string) => formatTime(v),
  },
  {
    key: 'actorName',
    title: T.actor,
    dataIndex: 'actorName',
    sortField: 'actorName',
    render: (v: string | null) => v ?? T.none,
  },
  {
    key: 'action',
    title: T.action,
    dataIndex: 'action',
    sortField: 'action',
    render: (v: string) => <Tag>{AUDIT_ACTION_LABELS[v] ?? v}</Tag>,
  },
  {
    key: 'entity',
    title: T.entity,
    dataIndex: 'entity',
    sortField: 'entity',
    render: (v: string) => AUDIT_ENTITY_LABELS[v] ?? v,
  },
  { key: 'record', title: T.record, dataIndex: 'record', render: (v: string | null) => v ?? T.none },
  { key: 'ip', title: T.ip, dataIndex: 'ip', render: (v: string | null) => v ?? T.none },
  {
    key: 'detail',
    title: T.detail,
    dataIndex: 'lines',
    ellipsis: true,
    width: 320,
    render: (v: string[]) =>
      v.length ? <Typography.Text type="secondary">{v.join('；')}</Typography.Text> : T.none,
  },
];

/** What an entry recorded, a line a field: 字段：旧值 → 新值. */
function DetailLines({ lines }: { lines: string[] }) {
  return (
    <ul style={{ margin: 0, paddingInlineStart: 20 }}>
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one detail never reorder
        <li key={i}>{line}</li>
      ))}
    </ul>
  );
}

/** 操作日志: read-only, searchable and exportable; a row opens to show what changed. */
export default function Logs() {
  const list = useListState({ filterKeys: FILTER_KEYS, defaultSort: 'createdAt,desc' });
  return (
    <CrudPage>
      <SearchForm fields={SEARCH} list={list} />
      <CrudTable<AuditLogRow>
        id="system.logs"
        resource={logsResource}
        list={list}
        columns={columns}
        addHint={false}
        tableProps={{
          expandable: {
            rowExpandable: (row) => row.lines.length > 0,
            expandedRowRender: (row) => <DetailLines lines={row.lines} />,
          },
        }}
      />
    </CrudPage>
  );
}
