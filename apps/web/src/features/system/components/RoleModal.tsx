import type { DataScopeName, RoleRow } from '@piibs/shared/admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Col, Form, Input, InputNumber, Row, TreeSelect } from 'antd';
import { useMemo } from 'react';
import { CrudModal } from '@/components/crud/CrudModal.tsx';
import { postInline, reloadRow } from '@/components/crud/resource.ts';
import { DictSelect } from '@/lib/dict.tsx';
import { deptTreeQuery, roleLevelQuery, rolesResource } from '../api.ts';
import { SYSTEM_TEXTS as T } from '../texts.ts';
import { deptPickerData } from '../tree.ts';

export interface RoleValues {
  name: string;
  code: string;
  level: number;
  dataScope: DataScopeName;
  deptIds: number[];
  description?: string;
}

function toValues(role: RoleRow): RoleValues {
  return {
    name: role.name,
    code: role.code,
    level: role.level,
    dataScope: role.dataScope as DataScopeName,
    deptIds: role.deptIds,
    description: role.description ?? '',
  };
}

function body(values: RoleValues) {
  return {
    name: values.name.trim(),
    code: values.code.trim(),
    level: values.level,
    dataScope: values.dataScope,
    deptIds: values.dataScope === 'custom' ? (values.deptIds ?? []) : [],
    description: values.description?.trim() || null,
  };
}

export function RoleModal({
  open,
  role,
  onClose,
}: {
  open: boolean;
  role: RoleRow | null;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const level = useQuery({ ...roleLevelQuery, enabled: open });
  const depts = useQuery({ ...deptTreeQuery, enabled: open });
  const deptData = useMemo(() => deptPickerData(depts.data ?? []), [depts.data]);
  const minLevel = level.data ?? 1;

  return (
    <CrudModal<RoleValues, RoleRow>
      open={open}
      title={role ? T.editRole : T.addRole}
      record={role}
      width={620}
      toValues={toValues}
      initialValues={{ level: Math.max(3, minLevel), dataScope: 'self', deptIds: [] }}
      onClose={onClose}
      reload={(record) => reloadRow(client, rolesResource, record.id)}
      onSubmit={(values, record) =>
        record
          ? postInline('api/roles/update', { id: record.id, version: record.version, ...body(values) })
          : postInline('api/roles', body(values))
      }
      onSaved={() => void client.invalidateQueries({ queryKey: rolesResource.key })}
    >
      {(_form, record) => (
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="name"
              label={T.roleName}
              rules={[{ required: true, whitespace: true, message: T.required(T.roleName) }, { max: 30 }]}
            >
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="code"
              label={T.roleCode}
              rules={[
                { required: true, message: T.required(T.roleCode) },
                { pattern: /^[A-Za-z0-9_-]{1,32}$/, message: '角色编码为 1–32 位字母、数字、_ 或 -' },
              ]}
            >
              <Input disabled={record?.builtin} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="level"
              label={T.level}
              rules={[{ required: true, message: T.required(T.level) }]}
              extra={T.levelHint(minLevel)}
            >
              <InputNumber min={minLevel} max={999} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="dataScope"
              label={T.dataScope}
              rules={[{ required: true, message: T.requiredSelect(T.dataScope) }]}
            >
              <DictSelect dict="data_scope" allowClear={false} />
            </Form.Item>
          </Col>
          <Form.Item noStyle shouldUpdate={(a, b) => a.dataScope !== b.dataScope}>
            {({ getFieldValue }) =>
              getFieldValue('dataScope') === 'custom' ? (
                <Col xs={24}>
                  <Form.Item
                    name="deptIds"
                    label={T.dataScopeDepts}
                    rules={[
                      { required: true, type: 'array', min: 1, message: T.requiredSelect(T.dataScopeDepts) },
                    ]}
                  >
                    <TreeSelect
                      treeCheckable
                      showCheckedStrategy={TreeSelect.SHOW_PARENT}
                      treeDefaultExpandAll
                      treeNodeFilterProp="title"
                      treeData={deptData}
                      loading={depts.isPending}
                      placeholder={T.requiredSelect(T.dataScopeDepts)}
                    />
                  </Form.Item>
                </Col>
              ) : null
            }
          </Form.Item>
          <Col xs={24}>
            <Form.Item name="description" label={T.description} rules={[{ max: 200 }]}>
              <Input.TextArea rows={3} showCount maxLength={200} />
            </Form.Item>
          </Col>
        </Row>
      )}
    </CrudModal>
  );
}
