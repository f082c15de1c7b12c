import { PlusOutlined } from '@ant-design/icons';
import type { RoleRow } from '@piibs/shared/admin';
import { formatTime } from '@piibs/shared/constants';
import { Button, Empty, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDeleteRows } from '@/components/crud/actions.tsx';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { RowAction } from '@/components/crud/RowAction.tsx';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { DictLabel } from '@/lib/dict.tsx';
import { Can } from '@/lib/permission.tsx';
import { rolesResource } from '../api.ts';
import { RoleMenuPanel } from '../components/RoleMenuPanel.tsx';
import { RoleModal } from '../components/RoleModal.tsx';
import { SYSTEM_TEXTS as T } from '../texts.ts';

const SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: T.keyword, placeholder: '名称、编码或描述' },
  { kind: 'dateRange', name: 'createdAt', label: T.createdAt },
];
const FILTER_KEYS = searchKeys(SEARCH);

/** 角色管理: the list, and beside it the menus and buttons of the selected role. */
export default function Roles() {
  const list = useListState({ filterKeys: FILTER_KEYS, defaultSort: 'level,asc' });
  const [search, setSearch] = useSearchParams();
  const [selected, setSelected] = useState<RoleRow | null>(null);
  const [editing, setEditing] = useState<RoleRow | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const deleteRows = useDeleteRows(rolesResource, {
    onDeleted: (rows) => {
      if (rows.some((row) => row.id === selected?.id)) setSelected(null);
    },
  });
  // The selected role is in the URL too (?role=3), so Back and a reload keep the panel.
  const roleParam = Number(search.get('role')) || undefined;
  const selectedId = selected?.id ?? roleParam;

  const select = (role: RoleRow) => {
    setSelected(role);
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('role', String(role.id));
        return next;
      },
      { replace: true },
    );
  };

  const open = (role: RoleRow | null) => {
    setEditing(role);
    setFormOpen(true);
  };

  const columns: CrudColumn<RoleRow>[] = [
    {
      key: 'name',
      title: T.roleName,
      dataIndex: 'name',
      sortField: 'name',
      alwaysVisible: true,
      render: (name: string, role) => (
        <Space size={4}>
          <Typography.Text strong>{name}</Typography.Text>
          {role.builtin ? <Tag color="blue">{T.builtin}</Tag> : null}
        </Space>
      ),
    },
    { key: 'code', title: T.roleCode, dataIndex: 'code', sortField: 'code' },
    { key: 'level', title: T.level, dataIndex: 'level', sortField: 'level', width: 100 },
    {
      key: 'dataScope',
      title: T.dataScope,
      dataIndex: 'dataScope',
      sortField: 'dataScope',
      render: (scope: string) => <DictLabel dict="data_scope" value={scope} />,
    },
    {
      key: 'description',
      title: T.description,
      dataIndex: 'description',
      ellipsis: true,
      render: (v: string | null) => v ?? T.none,
    },
    {
      key: 'createdAt',
      title: T.createdAt,
      dataIndex: 'createdAt',
      sortField: 'createdAt',
      defaultHidden: true,
      render: (v: string) => formatTime(v),
    },
    {
      key: 'actions',
      title: T.actions,
      alwaysVisible: true,
      fixed: 'right',
      render: (_, role) => (
        <Space size={0} onClick={(event) => event.stopPropagation()}>
          <RowAction permission="role:edit" onClick={() => open(role)}>
            {T.edit}
          </RowAction>
          <Can code="role:del">
            <Button
              type="link"
              size="small"
              danger
              disabled={role.builtin}
              onClick={() => deleteRows([role])}
            >
              {T.delete}
            </Button>
          </Can>
        </Space>
      ),
    },
  ];

  return (
    <CrudPage
      asideSide="right"
      asideSpan={8}
      asideTitle={T.menuGrant}
      aside={
        selectedId ? (
          <RoleMenuPanel key={selectedId} roleId={selectedId} />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.menuGrantPick} />
        )
      }
    >
      <SearchForm fields={SEARCH} list={list} />
      <CrudTable<RoleRow>
        id="system.roles"
        resource={rolesResource}
        list={list}
        columns={columns}
        toolbar={
          <Can code="role:add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open(null)}>
              {T.add}
            </Button>
          </Can>
        }
        tableProps={{
          onRow: (role) => ({ onClick: () => select(role), style: { cursor: 'pointer' } }),
          rowClassName: (role) => (role.id === selectedId ? 'ant-table-row-selected' : ''),
        }}
      />
      <RoleModal open={formOpen} role={editing} onClose={() => setFormOpen(false)} />
    </CrudPage>
  );
}
