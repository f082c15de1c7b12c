import type { DeptNode } from '@piibs/shared/admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, Input, InputNumber, Switch, TreeSelect } from 'antd';
import { useMemo } from 'react';
import { CrudModal } from '@/components/crud/CrudModal.tsx';
import { postInline, reloadRow } from '@/components/crud/resource.ts';
import { deptsResource, deptTreeQuery } from '../api.ts';
import { SYSTEM_TEXTS as T } from '../texts.ts';
import { deptPickerData } from '../tree.ts';

interface DeptValues {
  name: string;
  parentId?: number | null;
  sort: number;
  enabled: boolean;
}

export function DeptModal({
  open,
  dept,
  parentId,
  onClose,
}: {
  open: boolean;
  dept: DeptNode | null;
  parentId?: number | null;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const tree = useQuery({ ...deptTreeQuery, enabled: open });
  // A department cannot move under itself or one of its sub-departments.
  const parents = useMemo(() => deptPickerData(tree.data ?? [], dept?.id), [tree.data, dept]);

  return (
    <CrudModal<DeptValues, DeptNode>
      open={open}
      title={dept ? T.editDept : T.addDept}
      record={dept}
      toValues={(d) => ({ name: d.name, parentId: d.parentId, sort: d.sort, enabled: d.enabled })}
      initialValues={{ parentId: parentId ?? null, sort: 999, enabled: true }}
      onClose={onClose}
      reload={(record) => reloadRow(client, deptsResource, record.id)}
      onSubmit={(values, record) => {
        const body = {
          name: values.name.trim(),
          parentId: values.parentId ?? null,
          sort: values.sort,
          enabled: values.enabled,
        };
        return record
          ? postInline('api/depts/update', { id: record.id, version: record.version, ...body })
          : postInline('api/depts', body);
      }}
      onSaved={() => void client.invalidateQueries({ queryKey: deptsResource.key })}
    >
      <Form.Item
        name="name"
        label={T.deptName}
        rules={[{ required: true, whitespace: true, message: T.required(T.deptName) }, { max: 50 }]}
      >
        <Input />
      </Form.Item>
      <Form.Item name="parentId" label={T.parentDept}>
        <TreeSelect
          allowClear
          showSearch
          treeDefaultExpandAll
          treeNodeFilterProp="title"
          treeData={parents}
          loading={tree.isPending}
          placeholder={T.topDept}
        />
      </Form.Item>
      <Form.Item name="sort" label={T.sort} rules={[{ required: true, message: T.required(T.sort) }]}>
        <InputNumber min={0} max={99999} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="enabled" label={T.status} valuePropName="checked">
        <Switch checkedChildren={T.enabled} unCheckedChildren={T.disabled} />
      </Form.Item>
    </CrudModal>
  );
}
