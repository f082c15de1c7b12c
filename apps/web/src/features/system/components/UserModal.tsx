import type { UserRow } from '@piibs/shared/admin';
import { MASKED_MOBILE } from '@piibs/shared/auth';
import { rules } from '@piibs/shared/validators';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Col, Form, Input, Radio, Row, Select, Switch, TreeSelect } from 'antd';
import { useMemo } from 'react';
import { CrudModal } from '@/components/crud/CrudModal.tsx';
import { postInline, reloadRow } from '@/components/crud/resource.ts';
import { DictSelect } from '@/lib/dict.tsx';
import { allRolesQuery, createUser, deptTreeQuery, enabledJobsQuery, usersResource } from '../api.ts';
import { SYSTEM_TEXTS as T } from '../texts.ts';
import { deptPickerData } from '../tree.ts';
import type { OneTimePassword } from './OneTimePasswordModal.tsx';

export interface UserValues {
  username: string;
  nickName: string;
  phone?: string;
  email?: string;
  gender?: '男' | '女';
  deptId?: number;
  roleIds: number[];
  jobIds: number[];
  channel: string;
  uscc?: string;
  enabled: boolean;
}

function toValues(user: UserRow): UserValues {
  return {
    username: user.username,
    nickName: user.nickName,
    phone: user.phone ?? '',
    email: user.email ?? '',
    gender: user.gender === '男' || user.gender === '女' ? user.gender : undefined,
    deptId: user.dept?.id,
    roleIds: user.roles.map((role) => role.id),
    jobIds: user.jobs.map((job) => job.id),
    channel: user.channel,
    uscc: user.uscc ?? '',
    enabled: user.enabled,
  };
}

function body(values: UserValues) {
  return {
    username: values.username.trim(),
    nickName: values.nickName.trim(),
    phone: values.phone?.trim() || null,
    email: values.email?.trim() || null,
    gender: values.gender ?? null,
    deptId: values.deptId ?? null,
    roleIds: values.roleIds ?? [],
    jobIds: values.jobIds ?? [],
    channel: values.channel,
    uscc: values.uscc?.trim() || null,
  };
}

/** The phone as listed (138****5678) keeps the stored number on an edit. */
const phoneRule = {
  validator: (rule: unknown, value: unknown) =>
    typeof value === 'string' && MASKED_MOBILE.test(value)
      ? Promise.resolve()
      : rules.mobile.validator(rule, value),
};

/** Create or edit a user. A new user's one-time password is handed to `onCreated`, to be shown once. */
export function UserModal({
  open,
  user,
  onClose,
  onCreated,
}: {
  open: boolean;
  user: UserRow | null;
  onClose: () => void;
  onCreated: (result: OneTimePassword) => void;
}) {
  const client = useQueryClient();
  const depts = useQuery({ ...deptTreeQuery, enabled: open });
  const roles = useQuery({ ...allRolesQuery, enabled: open });
  const jobs = useQuery({ ...enabledJobsQuery, enabled: open });
  const deptData = useMemo(() => deptPickerData(depts.data ?? []), [depts.data]);
  const roleOptions = useMemo(
    () => (roles.data ?? []).map((role) => ({ value: role.id, label: `${role.name}（${role.code}）` })),
    [roles.data],
  );
  // A job the user holds stays selectable even when it has been disabled since.
  const jobOptions = useMemo(() => {
    const options = (jobs.data ?? []).map((job) => ({ value: job.id, label: job.name }));
    for (const job of user?.jobs ?? []) {
      if (!options.some((option) => option.value === job.id))
        options.push({ value: job.id, label: job.name });
    }
    return options;
  }, [jobs.data, user]);

  return (
    <CrudModal<UserValues, UserRow>
      open={open}
      title={user ? T.editUser : T.addUser}
      record={user}
      width={680}
      toValues={toValues}
      initialValues={{ roleIds: [], jobIds: [], channel: 'staff', enabled: true }}
      onClose={onClose}
      reload={(record) => reloadRow(client, usersResource, record.id)}
      onSubmit={async (values, record) => {
        if (record)
          return postInline('api/users/update', { id: record.id, version: record.version, ...body(values) });
        const result = await createUser({ ...body(values), enabled: values.enabled });
        onCreated({ username: result.username, password: result.password, kind: 'created' });
        return result;
      }}
      onSaved={() => void client.invalidateQueries({ queryKey: usersResource.key })}
    >
      {(_form, record) => (
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="username"
              label={T.username}
              rules={[{ required: true, whitespace: true, message: T.required(T.username) }, { max: 32 }]}
            >
              <Input autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="nickName"
              label={T.nickName}
              rules={[{ required: true, whitespace: true, message: T.required(T.nickName) }, { max: 30 }]}
            >
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="phone"
              label={T.phone}
              rules={[record ? phoneRule : rules.mobile]}
              extra={record?.phone ? T.phoneMaskedHint : undefined}
            >
              <Input maxLength={11} inputMode="tel" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="email" label={T.email} rules={[rules.email, { max: 100 }]}>
              <Input inputMode="email" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="deptId" label={T.dept}>
              <TreeSelect
                allowClear
                showSearch
                treeDefaultExpandAll
                treeNodeFilterProp="title"
                treeData={deptData}
                loading={depts.isPending}
                placeholder={T.requiredSelect(T.dept)}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="channel"
              label={T.channel}
              rules={[{ required: true, message: T.requiredSelect(T.channel) }]}
            >
              <DictSelect dict="user_channel" allowClear={false} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="roleIds" label={T.roles}>
              <Select
                mode="multiple"
                allowClear
                options={roleOptions}
                loading={roles.isPending}
                optionFilterProp="label"
                placeholder={T.requiredSelect(T.roles)}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="jobIds" label={T.jobs}>
              <Select
                mode="multiple"
                allowClear
                options={jobOptions}
                loading={jobs.isPending}
                optionFilterProp="label"
                placeholder={T.requiredSelect(T.jobs)}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="gender" label={T.gender}>
              <Radio.Group
                options={[
                  { value: '男', label: T.male },
                  { value: '女', label: T.female },
                ]}
              />
            </Form.Item>
          </Col>
          {record ? null : (
            <Col xs={24} sm={12}>
              <Form.Item name="enabled" label={T.status} valuePropName="checked">
                <Switch checkedChildren={T.enabled} unCheckedChildren={T.disabled} />
              </Form.Item>
            </Col>
          )}
          <Form.Item noStyle shouldUpdate={(a, b) => a.channel !== b.channel}>
            {({ getFieldValue }) =>
              getFieldValue('channel') === 'enterprise' ? (
                <Col xs={24}>
                  <Form.Item name="uscc" label={T.uscc} rules={[rules.uscc]}>
                    <Input maxLength={18} style={{ textTransform: 'uppercase' }} />
                  </Form.Item>
                </Col>
              ) : null
            }
          </Form.Item>
        </Row>
      )}
    </CrudModal>
  );
}
