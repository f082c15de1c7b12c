// The edit page of one organisation or person (serviceOrg/newUpdate/:id/:detail, servicePerson/newUpdate/:id/
// :detail): `useRecordForm` loads the record (`id` 0 creates, `detail` 'true' is read-only), saves with the
// loaded version — a 409 loads what the server holds now and says so, a 400 naming a field is shown under it,
// anything else above the form — and answers what to show while loading or when the record is missing.
// `RecordFormPage` is the frame (card, refusal, 保存 / 修改 / 返回); `FormListCard` a list of rows (qualifications,
// contacts) with 添加 / 删除; `ValidityItems` a 有效期起 / 止 pair whose end may not precede its start;
// `UnmaskButton` the 查看完整号码 link of a masked phone.
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { type QueryKey, type UseQueryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, type ColProps, DatePicker, Form, Result, Row, Space, Spin } from 'antd';
import type { FormInstance } from 'antd/es/form';
import type { NamePath } from 'antd/es/form/interface';
import type { Dayjs } from 'dayjs';
import { type ReactNode, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import { applyServerErrors } from '@/components/form/server-errors.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { Can } from '@/lib/permission.tsx';
import { RISK_TEXTS as T } from '../texts.ts';

/** Trimmed text, or null when empty (optional fields). */
export const blankToNull = (v: string | null | undefined): string | null => (v?.trim() ? v.trim() : null);

/** The rule of a required text field: 请输入… */
export const requiredText = (label: string) => ({
  required: true,
  whitespace: true,
  message: T.required(label),
});

interface Versioned {
  id: number;
  version: number;
}

export interface RecordFormSpec<Row extends Versioned, Values, Body, Key extends QueryKey> {
  /** The record's detail query by id (orgQuery, personQuery). */
  detail: (id: number) => UseQueryOptions<Row, Error, Row, Key> & { queryKey: Key };
  /** The resource's key: its lists are marked stale after a save. */
  listKey: readonly unknown[];
  valuesOf: (row: Row) => Values;
  toBody: (values: Values) => Body;
  create: (body: Body) => Promise<Row>;
  update: (body: Body & Versioned) => Promise<Row>;
  /** Where a save goes, and 返回 from a missing record. */
  donePath: string;
  /** The title when the record does not exist or is not visible. */
  notFound: string;
}

export interface RecordForm<Row extends Versioned, Values> {
  form: FormInstance<Values>;
  /** The loaded record (undefined while creating). */
  record: Row | undefined;
  readOnly: boolean;
  error: string | null;
  saving: boolean;
  /** What to show instead of the form (loading, missing), or null. */
  fallback: ReactNode;
  /** The props of the page's <Form>. */
  formProps: {
    form: FormInstance<Values>;
    layout: 'vertical';
    disabled: boolean;
    onFinish: (values: Values) => Promise<void>;
    onValuesChange: () => void;
  };
  /** Runs a call of the page (unmask …), showing its refusal above the form. */
  run: (call: () => Promise<void>) => Promise<void>;
}

export function useRecordForm<Row extends Versioned, Values, Body, Key extends QueryKey>(
  spec: RecordFormSpec<Row, Values, Body, Key>,
): RecordForm<Row, Values> {
  const params = useParams();
  const id = Number(params.id ?? 0) || 0;
  const readOnly = params.detail === 'true';
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message } = useAppApis();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const { valuesOf } = spec;
  const query = useQuery({ ...spec.detail(id), enabled: id > 0 });
  const record = query.data;

  useEffect(() => {
    if (record) form.setFieldsValue(valuesOf(record) as Parameters<typeof form.setFieldsValue>[0]);
  }, [record, form, valuesOf]);

  const save = async (values: Values) => {
    setError(null);
    setSaving(true);
    try {
      const body = spec.toBody(values);
      const saved = record
        ? await spec.update({ ...body, id: record.id, version: record.version })
        : await spec.create(body);
      client.setQueryData<Row>(spec.detail(saved.id).queryKey as QueryKey, saved);
      await client.invalidateQueries({ queryKey: spec.listKey, refetchType: 'none' });
      void message.success(T.saved);
      navigate(spec.donePath);
    } catch (err) {
      const refusal = serverError(err);
      if (!refusal) return;
      if (refusal.status === 409 && record) {
        const fresh = await query.refetch();
        if (fresh.data)
          form.setFieldsValue(valuesOf(fresh.data) as Parameters<typeof form.setFieldsValue>[0]);
        setError(`${refusal.message}（${T.conflictReloaded}）`);
        return;
      }
      if (!applyServerErrors(form, err)) setError(refusal.message);
    } finally {
      setSaving(false);
    }
  };

  const run = async (call: () => Promise<void>) => {
    try {
      await call();
    } catch (err) {
      setError(serverError(err)?.message ?? null);
    }
  };

  let fallback: ReactNode = null;
  if (id > 0 && query.isPending) {
    fallback = (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  } else if (id > 0 && !record) {
    const refusal = query.error ? serverError(query.error) : null;
    fallback = (
      <Result
        status="404"
        title={refusal && refusal.status !== 404 ? refusal.message : spec.notFound}
        extra={<Button onClick={() => navigate(spec.donePath)}>{T.back}</Button>}
      />
    );
  }

  return {
    form,
    record,
    readOnly,
    error,
    saving,
    fallback,
    formProps: {
      form,
      layout: 'vertical',
      disabled: readOnly,
      onFinish: save,
      onValuesChange: () => {
        if (error) setError(null);
      },
    },
    run,
  };
}

/**
 * The frame of an edit page: the card with the refusal above the form, then 保存 (add or edit permission) — or,
 * read-only, 修改 (edit permission) — and 返回. `after` goes below the card.
 */
export function RecordFormPage<Row extends Versioned, Values>({
  page,
  title,
  permission,
  editPath,
  after,
  children,
}: {
  page: RecordForm<Row, Values>;
  title: string;
  permission: { add: string; edit: string };
  /** The editable page of the record (from 修改 on the read-only page). */
  editPath: (id: number) => string;
  after?: ReactNode;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const { record, readOnly, error, saving, form } = page;
  if (page.fallback) return page.fallback;
  return (
    <div style={{ padding: 16 }}>
      <Card variant="borderless" title={title}>
        {error ? (
          <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />
        ) : null}
        {children}
        <Space>
          {readOnly ? (
            record ? (
              <Can code={permission.edit}>
                <Button type="primary" onClick={() => navigate(editPath(record.id))}>
                  {T.edit}
                </Button>
              </Can>
            ) : null
          ) : (
            <Can code={record ? permission.edit : permission.add}>
              <Button type="primary" loading={saving} onClick={() => form.submit()}>
                {T.save}
              </Button>
            </Can>
          )}
          <Button onClick={() => navigate(-1)}>{T.back}</Button>
        </Space>
      </Card>
      {after}
    </div>
  );
}

/**
 * A Form.List in a small card: each row's items from `row` (columns of md 22), a 删除 icon while more than one
 * row is left, and `addLabel` adding `blank` up to `max` rows. Read-only: neither.
 */
export function FormListCard({
  name,
  title,
  extra,
  max,
  blank,
  addLabel,
  removeLabel,
  readOnly,
  row,
}: {
  name: string;
  title: string;
  extra?: ReactNode;
  max: number;
  blank: Record<string, unknown>;
  addLabel: string;
  removeLabel: string;
  readOnly: boolean;
  row: (name: number) => ReactNode;
}) {
  return (
    <Form.List name={name}>
      {(fields, { add, remove }) => (
        <Card size="small" title={title} style={{ marginBottom: 16 }} extra={extra}>
          {fields.map((field) => (
            <Row gutter={12} key={field.key} align="top">
              {row(field.name)}
              <Col xs={24} md={2} style={{ paddingTop: 30 }}>
                {fields.length > 1 && !readOnly ? (
                  <MinusCircleOutlined aria-label={removeLabel} onClick={() => remove(field.name)} />
                ) : null}
              </Col>
            </Row>
          ))}
          {readOnly || fields.length >= max ? null : (
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add(blank)}>
              {addLabel}
            </Button>
          )}
        </Card>
      )}
    </Form.List>
  );
}

/**
 * 有效期起 / 止 as two date pickers, each in a column: both required, the end not before the start. `from` and
 * `to` are the items' names (relative inside a Form.List); `fromPath` the start's full path when it differs.
 */
export function ValidityItems({
  from,
  to,
  fromPath = from,
  fromLabel,
  toLabel,
  col,
}: {
  from: NamePath;
  to: NamePath;
  fromPath?: NamePath;
  fromLabel: string;
  toLabel: string;
  col: ColProps;
}) {
  return (
    <>
      <Col {...col}>
        <Form.Item name={from} label={fromLabel} rules={[{ required: true, message: T.choose(fromLabel) }]}>
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col {...col}>
        <Form.Item
          name={to}
          label={toLabel}
          dependencies={[fromPath]}
          rules={[
            { required: true, message: T.choose(toLabel) },
            ({ getFieldValue }) => ({
              validator: async (_: unknown, v: Dayjs | undefined) => {
                const start = getFieldValue(fromPath) as Dayjs | undefined;
                if (v && start && v.isBefore(start, 'day')) throw new Error(`不能早于${fromLabel}`);
              },
            }),
          ]}
        >
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
      </Col>
    </>
  );
}

/** 查看完整号码 beside a masked phone (the server audits it); stays clickable in a read-only form. */
export function UnmaskButton({ permission, onClick }: { permission: string; onClick: () => void }) {
  return (
    <Can code={permission}>
      <Button size="small" type="link" disabled={false} onClick={onClick}>
        {T.unmask}
      </Button>
    </Can>
  );
}
