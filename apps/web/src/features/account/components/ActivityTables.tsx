import { LOGIN_METHOD_LABELS, LOGIN_REASON_LABELS } from '@piibs/shared/audit-text';
import type { LoginRecord, SessionInfo } from '@piibs/shared/auth';
import { formatTime } from '@piibs/shared/constants';
import { Button, Popconfirm, Tag } from 'antd';
import { type DetailColumn, DetailTable } from '@/components/crud/DetailTable.tsx';
import { useAppApis } from '@/lib/app-apis.tsx';
import { useLogins, useRevokeOtherSessions, useSessions } from '../api.ts';
import { CENTER_TEXTS as T } from '../texts.ts';

/** A short browser name from a user agent, for the tables. */
function browserName(userAgent: string | null): string {
  if (!userAgent) return '—';
  const known: [RegExp, string][] = [
    [/Edg\//, 'Edge'],
    [/OPR\//, 'Opera'],
    [/Firefox\//, 'Firefox'],
    [/Chrome\//, 'Chrome'],
    [/Safari\//, 'Safari'],
  ];
  const os = /Windows/.test(userAgent)
    ? 'Windows'
    : /Android/.test(userAgent)
      ? 'Android'
      : /iPhone|iPad/.test(userAgent)
        ? 'iOS'
        : /Mac OS/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  const name = known.find(([re]) => re.test(userAgent))?.[1] ?? userAgent.slice(0, 40);
  return os ? `${name} · ${os}` : name;
}

const method = (value: string) => LOGIN_METHOD_LABELS[value] ?? value;

const loginColumns: DetailColumn<LoginRecord>[] = [
  { title: T.time, dataIndex: 'time', render: (value: string) => formatTime(value), width: 180 },
  { title: T.ip, dataIndex: 'ip', render: (value: string | null) => value ?? '—' },
  { title: T.browser, dataIndex: 'userAgent', render: browserName },
  { title: T.method, dataIndex: 'method', render: method },
  {
    title: T.result,
    dataIndex: 'success',
    render: (success: boolean, record) =>
      success ? (
        <Tag color="success">{T.success}</Tag>
      ) : (
        <Tag color="error">
          {record.reason ? (LOGIN_REASON_LABELS[record.reason] ?? record.reason) : T.failure}
        </Tag>
      ),
  },
];

export function LoginsTable() {
  const logins = useLogins();
  return (
    <DetailTable<LoginRecord>
      noun={T.loginsTab}
      size="small"
      rowKey={(record) => `${record.time}-${record.method}-${record.ip ?? ''}`}
      loading={logins.isPending}
      dataSource={logins.data ?? []}
      columns={loginColumns}
      scroll={{ x: 640 }}
    />
  );
}

const sessionColumns: DetailColumn<SessionInfo>[] = [
  {
    title: T.browser,
    dataIndex: 'userAgent',
    render: (value: string | null, record) => (
      <>
        {browserName(value)} {record.current ? <Tag color="processing">{T.current}</Tag> : null}
      </>
    ),
  },
  { title: T.ip, dataIndex: 'ip', render: (value: string | null) => value ?? '—' },
  { title: T.method, dataIndex: 'method', render: method },
  { title: T.createdAt, dataIndex: 'createdAt', render: (value: string) => formatTime(value), width: 180 },
  { title: T.lastSeenAt, dataIndex: 'lastSeenAt', render: (value: string) => formatTime(value), width: 180 },
];

export function SessionsTable() {
  const sessions = useSessions();
  const revoke = useRevokeOtherSessions();
  const { message } = useAppApis();
  const others = (sessions.data ?? []).filter((session) => !session.current).length;

  return (
    <>
      <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 12 }}>
        <Popconfirm
          title={T.revokeOthersConfirm}
          okText={T.ok}
          cancelText={T.cancel}
          onConfirm={async () => {
            const { revoked } = await revoke.mutateAsync();
            void message.success(T.revokedOthers(revoked));
          }}
          disabled={others === 0}
        >
          <Button danger disabled={others === 0} loading={revoke.isPending}>
            {T.revokeOthers}
          </Button>
        </Popconfirm>
      </div>
      <DetailTable<SessionInfo>
        noun={T.sessionsTab}
        size="small"
        rowKey="id"
        loading={sessions.isPending}
        dataSource={sessions.data ?? []}
        columns={sessionColumns}
        scroll={{ x: 640 }}
      />
    </>
  );
}
