import { PlusOutlined } from '@ant-design/icons';
import type { UserRow } from '@piibs/shared/admin';
import { formatTime } from '@piibs/shared/constants';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useDeleteRows } from '@/components/crud/actions.tsx';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { RowAction } from '@/components/crud/RowAction.tsx';
import { errorMessage, invalidateResource } from '@/components/crud/resource.ts';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { useAppApis } from '@/lib/app-apis.tsx';
import { DictLabel } from '@/lib/dict.tsx';
import { Can, useCan } from '@/lib/permission.tsx';
import { enableUser, resetUserPassword, usersResource } from '../api.ts';
import { DeptTree } from '../components/DeptTree.tsx';
import { type OneTimePassword, OneTimePasswordModal } from '../components/OneTimePasswordModal.tsx';
import { UserModal } from '../components/UserModal.tsx';
import { SYSTEM_TEXTS as T } from '../texts.ts';

const SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: T.keyword, placeholder: '用户名、昵称、手机号或邮箱' },
  { kind: 'select', name: 'enabled', label: T.status, dict: 'user_status', width: 120 },
  { kind: 'select', name: 'channel', label: T.channel, dict: 'user_channel', width: 150 },
  { kind: 'dateRange', name: 'createdAt', label: T.createdAt },
];
const FILTER_KEYS = [...searchKeys(SEARCH), 'deptId'];

/** 用户管理: the department tree filters the list; create/edit, enable, reset password (shown once), delete. */
export default function Users() {
  const list = useListState({ filterKeys: FILTER_KEYS, defaultSort: 'createdAt,desc' });
  const { modal, message } = useAppApis();
  const client = useQueryClient();
  const canEdit = useCan('user:edit');
  const [editing, setEditing] = useState<UserRow | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [oneTime, setOneTime] = useState<OneTimePassword | null>(null);
  const deleteRows = useDeleteRows(usersResource);

  const open = (user: UserRow | null) => {
    setEditing(user);
    setFormOpen(true);
  };

  const toggleEnabled = (user: UserRow, enabled: boolean) => {
    modal.confirm({
      title: T.enableConfirm(user.nickName || user.username, enabled),
      content: enabled ? undefined : T.disableHint,
      okText: T.ok,
      cancelText: T.cancel,
      okType: enabled ? 'primary' : 'danger',
      onOk: async () => {
        try {
          await enableUser(user.id, enabled);
          void message.success(T.enabledDone(enabled));
          await invalidateResource(client, usersResource);
        } catch (error) {
          void message.error(errorMessage(error));
        }
      },
    });
  };

  const resetPassword = (user: UserRow) => {
    modal.confirm({
      title: T.resetPasswordConfirm(user.nickName || user.username),
      content: T.resetPasswordHint,
      okText: T.ok,
      cancelText: T.cancel,
      onOk: async () => {
        try {
          const result = await resetUserPassword(user.id);
          setOneTime({ username: result.username, password: result.password, kind: 'reset' });
        } catch (error) {
          void message.error(errorMessage(error));
        }
      },
    });
  };

  const columns: CrudColumn<UserRow>[] = [
    {
      key: 'username',
      title: T.username,
      dataIndex: 'username',
      sortField: 'username',
      alwaysVisible: true,
      render: (username: string, user) => (
        <Space size={4}>
          <Typography.Text strong>{username}</Typography.Text>
          {user.mustChangePassword ? <Tag color="warning">待改密</Tag> : null}
        </Space>
      ),
    },
    { key: 'nickName', title: T.nickName, dataIndex: 'nickName', sortField: 'nickName' },
    { key: 'phone', title: T.phone, dataIndex: 'phone', render: (v: string | null) => v ?? T.none },
    {
      key: 'email',
      title: T.email,
      dataIndex: 'email',
      sortField: 'email',
      defaultHidden: true,
      render: (v: string | null) => v ?? T.none,
    },
    { key: 'dept', title: T.dept, render: (_, user) => user.dept?.name ?? T.none },
    {
      key: 'roles',
      title: T.roles,
      render: (_, user) =>
        user.roles.length ? user.roles.map((role) => <Tag key={role.id}>{role.name}</Tag>) : T.none,
    },
    {
      key: 'jobs',
      title: T.jobs,
      defaultHidden: true,
      render: (_, user) => user.jobs.map((job) => job.name).join('、') || T.none,
    },
    {
      key: 'channel',
      title: T.channel,
      dataIndex: 'channel',
      render: (channel: string) => <DictLabel dict="user_channel" value={channel} />,
    },
    {
      key: 'enabled',
      title: T.status,
      dataIndex: 'enabled',
      sortField: 'enabled',
      render: (enabled: boolean, user) =>
        canEdit ? (
          <Switch
            size="small"
            checked={enabled}
            aria-label={`${user.username} ${T.status}`}
            onChange={(checked) => toggleEnabled(user, checked)}
          />
        ) : (
          <Tag color={enabled ? 'success' : 'default'}>
            <DictLabel dict="user_status" value={enabled} />
          </Tag>
        ),
    },
    {
      key: 'createdAt',
      title: T.createdAt,
      dataIndex: 'createdAt',
      sortField: 'createdAt',
      render: (v: string) => formatTime(v),
    },
    {
      key: 'actions',
      title: T.actions,
      alwaysVisible: true,
      fixed: 'right',
      render: (_, user) => (
        <Space size={0}>
          <RowAction permission="user:edit" onClick={() => open(user)}>
            {T.edit}
          </RowAction>
          <RowAction permission="user:edit" onClick={() => resetPassword(user)}>
            {T.resetPassword}
          </RowAction>
          <RowAction permission="user:del" danger onClick={() => deleteRows([user])}>
            {T.delete}
          </RowAction>
        </Space>
      ),
    },
  ];

  return (
    <CrudPage
      asideTitle={T.deptTree}
      aside={
        <DeptTree
          selected={list.filters.deptId}
          onSelect={(deptId) => list.setFilters({ ...list.filters, deptId })}
        />
      }
    >
      <SearchForm fields={SEARCH} list={list} />
      <CrudTable<UserRow>
        id="system.users"
        resource={usersResource}
        list={list}
        columns={columns}
        toolbar={
          <Can code="user:add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open(null)}>
              {T.add}
            </Button>
          </Can>
        }
      />
      <UserModal
        open={formOpen}
        user={editing}
        onClose={() => setFormOpen(false)}
        onCreated={(result) => setOneTime(result)}
      />
      <OneTimePasswordModal value={oneTime} onClose={() => setOneTime(null)} />
    </CrudPage>
  );
}
