import { PlusOutlined } from '@ant-design/icons';
import type { JobRow } from '@piibs/shared/admin';
import { formatTime } from '@piibs/shared/constants';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, InputNumber, Space, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useDeleteRows } from '@/components/crud/actions.tsx';
import { CrudModal } from '@/components/crud/CrudModal.tsx';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { RowAction } from '@/components/crud/RowAction.tsx';
import { postInline, reloadRow } from '@/components/crud/resource.ts';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { DictLabel } from '@/lib/dict.tsx';
import { Can } from '@/lib/permission.tsx';
import { jobsResource } from '../api.ts';
import { SYSTEM_TEXTS as T } from '../texts.ts';

const SEARCH: SearchField[] = [
  { kind: 'input', name: 'name', label: T.jobName },
  { kind: 'select', name: 'enabled', label: T.status, dict: 'job_status', width: 120 },
  { kind: 'dateRange', name: 'createdAt', label: T.createdAt },
];
const FILTER_KEYS = searchKeys(SEARCH);

interface JobValues {
  name: string;
  sort: number;
  enabled: boolean;
}

/** 岗位管理. */
export default function Jobs() {
  const list = useListState({ filterKeys: FILTER_KEYS, defaultSort: 'sort,asc' });
  const client = useQueryClient();
  const [form, setForm] = useState<{ open: boolean; job: JobRow | null }>({ open: false, job: null });
  const deleteRows = useDeleteRows(jobsResource);

  const columns: CrudColumn<JobRow>[] = [
    { key: 'name', title: T.jobName, dataIndex: 'name', sortField: 'name', alwaysVisible: true },
    { key: 'sort', title: T.sort, dataIndex: 'sort', sortField: 'sort', width: 100 },
    {
      key: 'enabled',
      title: T.status,
      dataIndex: 'enabled',
      sortField: 'enabled',
      width: 100,
      render: (enabled: boolean) => (
        <Tag color={enabled ? 'success' : 'default'}>
          <DictLabel dict="job_status" value={enabled} />
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
      width: 140,
      render: (_, job) => (
        <Space size={0}>
          <RowAction permission="job:edit" onClick={() => setForm({ open: true, job })}>
            {T.edit}
          </RowAction>
          <RowAction permission="job:del" danger onClick={() => deleteRows([job])}>
            {T.delete}
          </RowAction>
        </Space>
      ),
    },
  ];

  return (
    <CrudPage>
      <SearchForm fields={SEARCH} list={list} />
      <CrudTable<JobRow>
        id="system.jobs"
        resource={jobsResource}
        list={list}
        columns={columns}
        toolbar={
          <Can code="job:add">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ open: true, job: null })}>
              {T.add}
            </Button>
          </Can>
        }
      />
      <CrudModal<JobValues, JobRow>
        open={form.open}
        title={form.job ? T.editJob : T.addJob}
        record={form.job}
        width={480}
        toValues={(job) => ({ name: job.name, sort: job.sort, enabled: job.enabled })}
        initialValues={{ sort: 999, enabled: true }}
        onClose={() => setForm((current) => ({ ...current, open: false }))}
        reload={(job) => reloadRow(client, jobsResource, job.id)}
        onSubmit={(values, job) => {
          const body = { name: values.name.trim(), sort: values.sort, enabled: values.enabled };
          return job
            ? postInline('api/jobs/update', { id: job.id, version: job.version, ...body })
            : postInline('api/jobs', body);
        }}
        onSaved={() => void client.invalidateQueries({ queryKey: jobsResource.key })}
      >
        <Form.Item
          name="name"
          label={T.jobName}
          rules={[{ required: true, whitespace: true, message: T.required(T.jobName) }, { max: 50 }]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="sort" label={T.sort} rules={[{ required: true, message: T.required(T.sort) }]}>
          <InputNumber min={0} max={99999} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="enabled" label={T.status} valuePropName="checked">
          <Switch checkedChildren={T.enabled} unCheckedChildren={T.disabled} />
        </Form.Item>
      </CrudModal>
    </CrudPage>
  );
}
