import type { LoginLogRow } from '@piibs/shared/admin';
import { LOGIN_METHOD_LABELS, LOGIN_REASON_LABELS } from '@piibs/shared/audit-text';
import { formatTime } from '@piibs/shared/constants';
import { Tag } from 'antd';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { loginLogsResource } from '../api.ts';
import { SYSTEM_TEXTS as T } from '../texts.ts';

const SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: T.keyword, placeholder: '用户名、IP 或浏览器' },
  {
    kind: 'select',
    name: 'success',
    label: T.loginResult,
    options: [
      { value: 'true', label: T.success },
      { value: 'false', label: T.failure },
    ],
    width: 110,
  },
  {
    kind: 'select',
    name: 'method',
    label: T.loginMethod,
    options: Object.entries(LOGIN_METHOD_LABELS).map(([value, label]) => ({ value, label })),
    width: 130,
  },
  { kind: 'dateRange', name: 'createdAt', label: T.time },
];
const FILTER_KEYS = searchKeys(SEARCH);

const columns: CrudColumn<LoginLogRow>[] = [
  {
    key: 'createdAt',
    title: T.time,
    dataIndex: 'createdAt',
    sortField: 'createdAt',
    alwaysVisible: true,
    width: 180,
    render: (v: string) => formatTime(v),
  },
  { key: 'username', title: T.username, dataIndex: 'username', sortField: 'username' },
  {
    key: 'method',
    title: T.loginMethod,
    dataIndex: 'method',
    sortField: 'method',
    render: (v: string) => LOGIN_METHOD_LABELS[v] ?? v,
  },
  {
    key: 'success',
    title: T.loginResult,
    dataIndex: 'success',
    sortField: 'success',
    render: (success: boolean) =>
      success ? <Tag color="success">{T.success}</Tag> : <Tag color="error">{T.failure}</Tag>,
  },
  {
    key: 'reason',
    title: T.reason,
    dataIndex: 'reason',
    render: (v: string | null) => (v ? (LOGIN_REASON_LABELS[v] ?? v) : T.none),
  },
  { key: 'ip', title: T.ip, dataIndex: 'ip', sortField: 'ip', render: (v: string | null) => v ?? T.none },
  { key: 'browser', title: T.browser, dataIndex: 'browser', render: (v: string | null) => v ?? T.none },
];

/** 登录日志: every sign-in attempt, read-only, searchable and exportable. */
export default function LoginLogs() {
  const list = useListState({ filterKeys: FILTER_KEYS, defaultSort: 'createdAt,desc' });
  return (
    <CrudPage>
      <SearchForm fields={SEARCH} list={list} />
      <CrudTable<LoginLogRow>
        id="system.loginLogs"
        resource={loginLogsResource}
        list={list}
        columns={columns}
        addHint={false}
      />
    </CrudPage>
  );
}
