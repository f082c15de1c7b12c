import { PlusOutlined } from '@ant-design/icons';
import type { DictDetailRow, DictRow } from '@piibs/shared/admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Form, Input, InputNumber, Space, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDeleteRows } from '@/components/crud/actions.tsx';
import { CrudModal } from '@/components/crud/CrudModal.tsx';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { RowAction } from '@/components/crud/RowAction.tsx';
import { fetchPage, postInline, reloadRow } from '@/components/crud/resource.ts';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { invalidateDict } from '@/lib/dict.tsx';
import { Can } from '@/lib/permission.tsx';
import { dictDetailsResource, dictsResource } from '../api.ts';
import { SYSTEM_TEXTS as T } from '../texts.ts';

const DICT_SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: T.keyword, placeholder: '名称或描述' },
];
const ENTRY_SEARCH: SearchField[] = [{ kind: 'input', name: 'label', label: T.dictLabel, width: 160 }];
const DICT_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

interface DictValues {
  name: string;
  description?: string;
}
interface EntryValues {
  label: string;
  value: string;
  sort: number;
}

/** The entries of one dictionary, beside the dictionary list. */
function DictEntries({ dict }: { dict: DictRow }) {
  const list = useListState({
    prefix: 'entry',
    filterKeys: searchKeys(ENTRY_SEARCH),
    defaultSort: 'sort,asc',
  });
  const client = useQueryClient();
  const [form, setForm] = useState<{ open: boolean; entry: DictDetailRow | null }>({
    open: false,
    entry: null,
  });
  // Every select and label showing this dictionary follows the change.
  const changed = () => {
    invalidateDict(dict.name);
    void client.invalidateQueries({ queryKey: dictDetailsResource.key });
    void client.invalidateQueries({ queryKey: dictsResource.key });
  };
  const deleteRows = useDeleteRows(dictDetailsResource, { onDeleted: changed });

  const columns: CrudColumn<DictDetailRow>[] = [
    { key: 'label', title: T.dictLabel, dataIndex: 'label', sortField: 'label', alwaysVisible: true },
    {
      key: 'value',
      title: T.dictValue,
      dataIndex: 'value',
      sortField: 'value',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { key: 'sort', title: T.sort, dataIndex: 'sort', sortField: 'sort', width: 90 },
    {
      key: 'actions',
      title: T.actions,
      alwaysVisible: true,
      width: 130,
      render: (_, entry) => (
        <Space size={0}>
          <RowAction permission="dict:edit" onClick={() => setForm({ open: true, entry })}>
            {T.edit}
          </RowAction>
          <RowAction permission="dict:del" danger onClick={() => deleteRows([entry])}>
            {T.delete}
          </RowAction>
        </Space>
      ),
    },
  ];

  return (
    <>
      <SearchForm name="entry-search" fields={ENTRY_SEARCH} list={list} />
      <CrudTable<DictDetailRow>
        id="system.dictDetails"
        resource={dictDetailsResource}
        list={list}
        query={{ dictName: dict.name }}
        columns={columns}
        toolbar={
          <Can code="dict:add">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setForm({ open: true, entry: null })}
            >
              {T.addEntry}
            </Button>
          </Can>
        }
      />
      <CrudModal<EntryValues, DictDetailRow>
        open={form.open}
        title={form.entry ? T.editEntry : T.addEntry}
        record={form.entry}
        width={480}
        toValues={(entry) => ({ label: entry.label, value: entry.value, sort: entry.sort })}
        initialValues={{ sort: 999 }}
        onClose={() => setForm((current) => ({ ...current, open: false }))}
        onSubmit={(values, entry) => {
          const body = { label: values.label.trim(), value: values.value.trim(), sort: values.sort };
          return entry
            ? postInline('api/dictDetail/update', { id: entry.id, ...body })
            : postInline('api/dictDetail', { dictId: dict.id, ...body });
        }}
        onSaved={changed}
      >
        <Form.Item
          name="label"
          label={T.dictLabel}
          rules={[{ required: true, whitespace: true, message: T.required(T.dictLabel) }, { max: 100 }]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          name="value"
          label={T.dictValue}
          rules={[{ required: true, whitespace: true, message: T.required(T.dictValue) }, { max: 100 }]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="sort" label={T.sort} rules={[{ required: true, message: T.required(T.sort) }]}>
          <InputNumber min={0} max={99999} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </CrudModal>
    </>
  );
}

/** 字典管理: dictionaries on the left, the selected one's entries on the right; edits refresh the cache. */
export default function Dicts() {
  const list = useListState({ filterKeys: searchKeys(DICT_SEARCH) });
  const client = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const [selected, setSelected] = useState<DictRow | null>(null);
  const [form, setForm] = useState<{ open: boolean; dict: DictRow | null }>({ open: false, dict: null });
  const selectedName = selected?.name ?? search.get('dict') ?? undefined;

  const select = (dict: DictRow) => {
    setSelected(dict);
    const next = new URLSearchParams(search);
    next.set('dict', dict.name);
    for (const key of [...next.keys()]) if (key.startsWith('entry.')) next.delete(key);
    setSearch(next);
  };

  const deleteRows = useDeleteRows(dictsResource, {
    warning: T.deleteDictWarning,
    onDeleted: (rows) => {
      for (const row of rows) invalidateDict(row.name);
      if (rows.some((row) => row.name === selectedName)) setSelected(null);
    },
  });

  const columns: CrudColumn<DictRow>[] = [
    {
      key: 'name',
      title: T.dictName,
      dataIndex: 'name',
      sortField: 'name',
      alwaysVisible: true,
      render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
    },
    {
      key: 'description',
      title: T.dictDescription,
      dataIndex: 'description',
      ellipsis: true,
      render: (v: string | null) => v ?? T.none,
    },
    { key: 'detailCount', title: T.detailCount, dataIndex: 'detailCount', width: 90 },
    {
      key: 'actions',
      title: T.actions,
      alwaysVisible: true,
      width: 130,
      render: (_, dict) => (
        <Space size={0} onClick={(event) => event.stopPropagation()}>
          <RowAction permission="dict:edit" onClick={() => setForm({ open: true, dict })}>
            {T.edit}
          </RowAction>
          <RowAction permission="dict:del" danger onClick={() => deleteRows([dict])}>
            {T.delete}
          </RowAction>
        </Space>
      ),
    },
  ];

  // The selected dictionary as a row: from the click, else looked up by the name in the URL (a reload, Back).
  const byName = useQuery({
    queryKey: [...dictsResource.key, 'byName', selectedName],
    queryFn: () => fetchPage(dictsResource, { blurry: selectedName ?? '', page: 0, size: 50 }),
    enabled: !selected && !!selectedName,
    select: (page) => page.content.find((dict) => dict.name === selectedName),
  });
  const current = selected ?? byName.data;

  return (
    <CrudPage
      asideSide="right"
      asideSpan={12}
      asideTitle={current ? T.entriesOf(current.description || current.name) : T.dictEntries}
      aside={
        current ? (
          <DictEntries key={current.id} dict={current} />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.pickDict} />
        )
      }
    >
      <SearchForm fields={DICT_SEARCH} list={list} />
      <CrudTable<DictRow>
        id="system.dicts"
        resource={dictsResource}
        list={list}
        columns={columns}
        toolbar={
          <Can code="dict:add">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setForm({ open: true, dict: null })}
            >
              {T.add}
            </Button>
          </Can>
        }
        tableProps={{
          onRow: (dict) => ({ onClick: () => select(dict), style: { cursor: 'pointer' } }),
          rowClassName: (dict) => (dict.name === selectedName ? 'ant-table-row-selected' : ''),
        }}
      />
      <CrudModal<DictValues, DictRow>
        open={form.open}
        title={form.dict ? T.editDict : T.addDict}
        record={form.dict}
        width={480}
        toValues={(dict) => ({ name: dict.name, description: dict.description ?? '' })}
        onClose={() => setForm((c) => ({ ...c, open: false }))}
        reload={(dict) => reloadRow(client, dictsResource, dict.id)}
        onSubmit={(values, dict) => {
          const body = { name: values.name.trim(), description: values.description?.trim() || null };
          return dict
            ? postInline('api/dict/update', { id: dict.id, version: dict.version, ...body })
            : postInline('api/dict', body);
        }}
        onSaved={() => {
          // A renamed dictionary is known by a new name everywhere.
          invalidateDict();
          setSelected(null);
          void client.invalidateQueries({ queryKey: dictsResource.key });
        }}
      >
        <Form.Item
          name="name"
          label={T.dictName}
          rules={[
            { required: true, message: T.required(T.dictName) },
            { pattern: DICT_NAME, message: '只能包含字母、数字和下划线，且以字母开头' },
          ]}
        >
          <Input placeholder="user_status" />
        </Form.Item>
        <Form.Item name="description" label={T.description} rules={[{ max: 100 }]}>
          <Input />
        </Form.Item>
      </CrudModal>
    </CrudPage>
  );
}
