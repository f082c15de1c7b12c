import { DownOutlined, ReloadOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, Input, Select, Space, TreeSelect, type TreeSelectProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { DictSelect } from '@/lib/dict.tsx';
import { usePhone } from '@/lib/use-phone.ts';
import type { Filters, ListState } from './list-state.ts';
import { CRUD_TEXTS as T } from './texts.ts';

/** A search field, described by config. Values travel as strings in the URL. */
export type SearchField =
  | { kind: 'input'; name: string; label: string; placeholder?: string; width?: number }
  | {
      kind: 'select';
      name: string;
      label: string;
      /** Options from a dictionary (lib/dict), or given here. */
      dict?: string;
      options?: { label: string; value: string }[];
      width?: number;
      /** Typing filters the options by label (for long lists). */
      searchable?: boolean;
    }
  | {
      kind: 'dateRange';
      /** The form's name for the pair; the URL holds `start` and `end`. */
      name: string;
      label: string;
      start?: string;
      end?: string;
    }
  | {
      kind: 'treeSelect';
      name: string;
      label: string;
      /** Node values must be strings (they go into the URL). */
      treeData: TreeSelectProps['treeData'];
      loading?: boolean;
      width?: number;
    };

const TIME = 'YYYY-MM-DD HH:mm:ss';

function rangeKeys(field: Extract<SearchField, { kind: 'dateRange' }>): [string, string] {
  return [field.start ?? 'startTime', field.end ?? 'endTime'];
}

/** The URL keys the fields fill in: pass them to useListState's `filterKeys`. */
export function searchKeys(fields: readonly SearchField[]): string[] {
  return fields.flatMap((field) => (field.kind === 'dateRange' ? rangeKeys(field) : [field.name]));
}

type FormValues = Record<string, string | [Dayjs, Dayjs] | undefined>;

function toFormValues(fields: readonly SearchField[], filters: Filters): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    if (field.kind === 'dateRange') {
      const [start, end] = rangeKeys(field);
      const from = filters[start] ? dayjs(filters[start]) : undefined;
      const to = filters[end] ? dayjs(filters[end]) : undefined;
      values[field.name] = from?.isValid() && to?.isValid() ? [from, to] : undefined;
    } else {
      values[field.name] = filters[field.name];
    }
  }
  return values;
}

function toFilters(fields: readonly SearchField[], values: FormValues): Record<string, string | undefined> {
  const filters: Record<string, string | undefined> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'dateRange') {
      const [start, end] = rangeKeys(field);
      // Whole days: from the first second of the first day to the last second of the last.
      filters[start] = Array.isArray(value) ? value[0].startOf('day').format(TIME) : undefined;
      filters[end] = Array.isArray(value) ? value[1].endOf('day').format(TIME) : undefined;
    } else {
      filters[field.name] = typeof value === 'string' ? value : undefined;
    }
  }
  return filters;
}

/** Form.Item hands its child `id`, `value` and `onChange`: passed on to the control. */
type ControlProps = { field: SearchField; full: boolean } & Record<string, unknown>;

/** A field's width: its own on a wide screen, the whole line on a phone. */
function widthOf(full: boolean, width: number) {
  return { width: full ? '100%' : width, maxWidth: '100%' };
}

function FieldControl({ field, full, ...control }: ControlProps) {
  switch (field.kind) {
    case 'input':
      return (
        <Input
          {...control}
          allowClear
          placeholder={field.placeholder ?? T.inputPlaceholder(field.label)}
          style={widthOf(full, field.width ?? 200)}
        />
      );
    case 'select':
      return field.dict ? (
        <DictSelect
          {...control}
          dict={field.dict}
          placeholder={T.selectPlaceholder(field.label)}
          style={widthOf(full, field.width ?? 160)}
        />
      ) : (
        <Select
          {...control}
          allowClear
          placeholder={T.selectPlaceholder(field.label)}
          options={field.options}
          showSearch={field.searchable ? { optionFilterProp: 'label' } : undefined}
          style={widthOf(full, field.width ?? 160)}
        />
      );
    case 'dateRange':
      return (
        <DatePicker.RangePicker
          {...control}
          placeholder={[T.startTime, T.endTime]}
          style={widthOf(full, 260)}
        />
      );
    case 'treeSelect':
      return (
        <TreeSelect
          {...control}
          allowClear
          showSearch
          treeDefaultExpandAll
          treeNodeFilterProp="title"
          placeholder={T.selectPlaceholder(field.label)}
          treeData={field.treeData}
          loading={field.loading}
          style={widthOf(full, field.width ?? 200)}
        />
      );
  }
}

/**
 * The search bar of a list: the fields, 搜索 and 重置. It reads and writes the list's filters in the URL,
 * so Back brings the previous search back into the fields too.
 */
export function SearchForm({
  fields,
  list,
  extra,
  name = 'search',
}: {
  fields: readonly SearchField[];
  list: ListState;
  /** The form's name (field ids derive from it): give a second search bar on a page its own. */
  name?: string;
  /** Shown after the buttons. */
  extra?: ReactNode;
}) {
  const [form] = Form.useForm<FormValues>();
  const { filters } = list;
  // On a phone each label sits above its field, which takes the whole line, and only the first field shows until
  // 展开: the list starts on the first screen. A field the URL's search fills in is always shown.
  const phone = usePhone();
  const [unfolded, setUnfolded] = useState(false);
  const foldId = useId();
  const foldable = phone && fields.length > 1;
  const inUse = fields.slice(1).some((field) => searchKeys([field]).some((key) => filters[key]));
  const folded = foldable && !unfolded && !inUse;
  // The fields may be rebuilt on each render (tree data arriving …); only a change of the URL refills them.
  const fieldsRef = useRef(fields);
  fieldsRef.current = fields;

  // Refilled only when the filters in the URL change. A kept-alive page (a tab) runs its effects again each time
  // it is shown: the text typed but not yet searched stays until the tab is closed or refreshed.
  const filled = useRef<string | null>(null);
  useEffect(() => {
    const key = JSON.stringify(filters);
    if (filled.current === key) return;
    filled.current = key;
    form.resetFields();
    form.setFieldsValue(toFormValues(fieldsRef.current, filters));
  }, [form, filters]);

  const submit = (values: FormValues) => {
    // Filters of the list the bar does not show (a tree beside the table …) stay as they are.
    list.setFilters({ ...filters, ...toFilters(fields, values) });
  };

  const reset = () => {
    const cleared: Record<string, undefined> = {};
    for (const key of searchKeys(fields)) cleared[key] = undefined;
    form.resetFields();
    list.setFilters({ ...filters, ...cleared });
  };

  return (
    <Form<FormValues>
      form={form}
      name={name}
      layout={phone ? 'vertical' : 'inline'}
      onFinish={submit}
      className="crud-search"
      style={phone ? { marginBottom: 16 } : { rowGap: 12, marginBottom: 16 }}
      role="search"
    >
      <div id={foldId} style={{ display: 'contents' }}>
        {fields.map((field, index) => (
          <Form.Item
            key={field.name}
            name={field.name}
            label={field.label}
            // Folded fields stay in the form, so a search keeps what they hold.
            hidden={folded && index > 0}
            style={phone ? { marginBottom: 12 } : { marginInlineEnd: 16 }}
          >
            <FieldControl field={field} full={phone} />
          </Form.Item>
        ))}
      </div>
      <Form.Item style={phone ? { marginBottom: 0 } : { marginInlineEnd: 0 }}>
        <Space size={8} wrap>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {T.search}
          </Button>
          <Button onClick={reset} icon={<ReloadOutlined />}>
            {T.reset}
          </Button>
          {foldable && !inUse ? (
            <Button
              type="link"
              aria-expanded={!folded}
              aria-controls={foldId}
              icon={folded ? <DownOutlined /> : <UpOutlined />}
              iconPlacement="end"
              onClick={() => setUnfolded(folded)}
            >
              {folded ? T.expand : T.collapse}
            </Button>
          ) : null}
          {extra}
        </Space>
      </Form.Item>
    </Form>
  );
}
