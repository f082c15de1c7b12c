import { LogoutOutlined } from '@ant-design/icons';
import type { OnlineRow } from '@piibs/shared/admin';
import { LOGIN_METHOD_LABELS } from '@piibs/shared/audit-text';
import { formatTime } from '@piibs/shared/constants';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Space, Tag, Typography } from 'antd';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { errorMessage, invalidateResource } from '@/components/crud/resource.ts';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { useAppApis } from '@/lib/app-apis.tsx';
import { Can } from '@/lib/permission.tsx';
import { onlineResource, revokeSessions } from '../api.ts';
import { SYSTEM_TEXTS as T } from '../texts.ts';

const SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: T.keyword, placeholder: '用户名、昵称或 IP' },
];
const FILTER_KEYS = searchKeys(SEARCH);

/** 在线用户: the live sessions; 强制下线 revokes one (or the selected ones) after a confirmation. */
export default function Online() {
  const list = useListState({ filterKeys: FILTER_KEYS, defaultSort: 'lastSeenAt,desc' });
  const { modal, message } = useAppApis();
  const client = useQueryClient();

  const kick = (rows: OnlineRow[], done?: () => void) => {
    const first = rows[0];
    if (!first) return;
    modal.confirm({
      title:
        rows.length === 1 ? T.kickConfirm(first.nickName || first.username) : T.kickManyConfirm(rows.length),
      content: T.kickHint,
      okText: T.ok,
      okType: 'danger',
      cancelText: T.cancel,
      onOk: async () => {
        try {
          const { revoked } = await revokeSessions(rows.map((row) => row.id));
          void message.success(T.kicked(revoked));
          done?.();
          await invalidateResource(client, onlineResource);
        } catch (error) {
          void message.error(errorMessage(error));
        }
      },
    });
  };

  const columns: CrudColumn<OnlineRow>[] = [
    {
      key: 'username',
      title: T.username,
      dataIndex: 'username',
      sortField: 'username',
      alwaysVisible: true,
      render: (username: string, row) => (
        <Space size={4}>
          <Typography.Text strong>{username}</Typography.Text>
          {row.current ? <Tag color="processing">{T.currentSession}</Tag> : null}
        </Space>
      ),
    },
    { key: 'nickName', title: T.nickName, dataIndex: 'nickName' },
    { key: 'dept', title: T.dept, dataIndex: 'dept', render: (v: string | null) => v ?? T.none },
    { key: 'ip', title: T.ip, dataIndex: 'ip', render: (v: string | null) => v ?? T.none },
    { key: 'browser', title: T.browser, dataIndex: 'browser', render: (v: string | null) => v ?? T.none },
    {
      key: 'method',
      title: T.loginMethod,
      dataIndex: 'method',
      render: (v: string) => LOGIN_METHOD_LABELS[v] ?? v,
    },
    {
      key: 'createdAt',
      title: T.signInAt,
      dataIndex: 'createdAt',
      sortField: 'createdAt',
      render: (v: string) => formatTime(v),
    },
    {
      key: 'lastSeenAt',
      title: T.lastSeenAt,
      dataIndex: 'lastSeenAt',
      sortField: 'lastSeenAt',
      render: (v: string) => formatTime(v),
    },
    {
      key: 'expiresAt',
      title: T.expiresAt,
      dataIndex: 'expiresAt',
      defaultHidden: true,
      render: (v: string) => formatTime(v),
    },
    {
      key: 'actions',
      title: T.actions,
      alwaysVisible: true,
      fixed: 'right',
      render: (_, row) => (
        <Can code="online:kick">
          <Button type="link" size="small" danger disabled={row.current} onClick={() => kick([row])}>
            {T.kick}
          </Button>
        </Can>
      ),
    },
  ];

  return (
    <CrudPage>
      <SearchForm fields={SEARCH} list={list} />
      <CrudTable<OnlineRow>
        id="system.online"
        resource={onlineResource}
        list={list}
        columns={columns}
        addHint={false}
        selectable
        tableProps={{ rowSelection: { getCheckboxProps: (row) => ({ disabled: row.current }) } }}
        batchActions={(selected, clear) => (
          <Can code="online:kick">
            <Button danger icon={<LogoutOutlined />} onClick={() => kick(selected, clear)}>
              {T.kick}
            </Button>
          </Can>
        )}
      />
    </CrudPage>
  );
}
