import { PlusOutlined } from '@ant-design/icons';
import type { DeptNode } from '@piibs/shared/admin';
import { formatTime } from '@piibs/shared/constants';
import { Button, Space, Tag } from 'antd';
import { useState } from 'react';
import { useDeleteRows } from '@/components/crud/actions.tsx';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { RowAction } from '@/components/crud/RowAction.tsx';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { DictLabel } from '@/lib/dict.tsx';
import { Can } from '@/lib/permission.tsx';
import { deptsResource } from '../api.ts';
import { DeptModal } from '../components/DeptModal.tsx';
import { SYSTEM_TEXTS as T } from '../texts.ts';

const SEARCH: SearchField[] = [
  { kind: 'input', name: 'name', label: T.deptName },
  { kind: 'select', name: 'enabled', label: T.status, dict: 'dept_status', width: 120 },
];
const FILTER_KEYS = searchKeys(SEARCH);

/** 部门管理: the department tree as a table; the server refuses to delete one that still has users or children. */
export default function Depts() {
  const list = useListState({ filterKeys: FILTER_KEYS });
  const [form, setForm] = useState<{ open: boolean; dept: DeptNode | null; parentId: number | null }>({
    open: false,
    dept: null,
    parentId: null,
  });
  const deleteRows = useDeleteRows(deptsResource);

  const columns: CrudColumn<DeptNode>[] = [
    { key: 'name', title: T.deptName, dataIndex: 'name', alwaysVisible: true, width: 260 },
    { key: 'sort', title: T.sort, dataIndex: 'sort', width: 80 },
    {
      key: 'enabled',
      title: T.status,
      dataIndex: 'enabled',
      width: 90,
      render: (enabled: boolean) => (
        <Tag color={enabled ? 'success' : 'default'}>
          <DictLabel dict="dept_status" value={enabled} />
        </Tag>
      ),
    },
    { key: 'userCount', title: T.userCount, dataIndex: 'userCount', width: 90 },
    {
      key: 'createdAt',
      title: T.createdAt,
      dataIndex: 'createdAt',
      render: (v: string) => formatTime(v),
    },
    {
      key: 'actions',
      title: T.actions,
      alwaysVisible: true,
      fixed: 'right',
      render: (_, dept) => (
        <Space size={0}>
          <RowAction
            permission="dept:add"
            onClick={() => setForm({ open: true, dept: null, parentId: dept.id })}
          >
            {T.addChildDept}
          </RowAction>
          <RowAction permission="dept:edit" onClick={() => setForm({ open: true, dept, parentId: null })}>
            {T.edit}
          </RowAction>
          <RowAction permission="dept:del" danger onClick={() => deleteRows([dept])}>
            {T.delete}
          </RowAction>
        </Space>
      ),
    },
  ];

  return (
    <CrudPage>
      <SearchForm fields={SEARCH} list={list} />
      <CrudTable<DeptNode>
        id="system.depts"
        resource={deptsResource}
        list={list}
        columns={columns}
        tree
        tableProps={{ expandable: { defaultExpandAllRows: true } }}
        toolbar={
          <Can code="dept:add">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setForm({ open: true, dept: null, parentId: null })}
            >
              {T.add}
            </Button>
          </Can>
        }
      />
      <DeptModal
        open={form.open}
        dept={form.dept}
        parentId={form.parentId}
        onClose={() => setForm((current) => ({ ...current, open: false }))}
      />
    </CrudPage>
  );
}
