import { shanghaiToday } from '@piibs/shared/application-status';
import { formatTime } from '@piibs/shared/constants';
import { amountShortText, multiplierText, rateText } from '@piibs/shared/money';
import type { ProductRow, RateTableDetail } from '@piibs/shared/product';
import { COVERAGE_LABELS, type CoverageType, type FactorDef, type ProductClass } from '@piibs/shared/rating';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Form,
  type FormInstance,
  Space,
  Spin,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { errorMessage, invalidateResource, serverError } from '@/components/crud/resource.ts';
import { CRUD_TEXTS as T } from '@/components/crud/texts.ts';
import { applyServerErrors } from '@/components/form/server-errors.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { Can, useCan } from '@/lib/permission.tsx';
import {
  createRateTable,
  productsResource,
  RATE_TABLE_STATUS_TEXT,
  rateTableQuery,
  updateRateTable,
} from '../api.ts';
import { emptyRow, RateTableForm, useIndustryOptions } from './RateTableForm.tsx';
import {
  type Problem,
  type RateTableValues,
  refusalFields,
  tableProblems,
  toBody,
  toValues,
} from './rate-table-values.ts';

/** What the drawer shows: a new draft (copying a version's rows and factors), or a stored version. */
export type RateTableTarget = { mode: 'create'; sourceId: number | null } | { mode: 'open'; tableId: number };

const STATUS_COLORS = { draft: 'default', active: 'success', retired: 'warning' } as const;

function industryText(options: ReturnType<typeof useIndustryOptions>, code: string | null): string {
  if (code === null) return '不限';
  for (const group of options) {
    const hit = group.options.find((o) => o.value === code);
    if (hit) return hit.label;
  }
  return code;
}

/** A version as stored: its settings, rows and factors, nothing editable. */
function RateTableView({ table, productClass }: { table: RateTableDetail; productClass: ProductClass }) {
  const industries = useIndustryOptions();
  type Row = RateTableDetail['rows'][number];
  const columns = [
    { key: 'index', title: '行', width: 48, render: (_: unknown, __: Row, i: number) => i + 1 },
    ...(productClass === 'work_safety'
      ? [
          {
            key: 'coverageType',
            title: '责任类型',
            dataIndex: 'coverageType',
            render: (v: CoverageType) => COVERAGE_LABELS[v] ?? v,
          },
        ]
      : []),
    ...(productClass === 'construction'
      ? []
      : [
          {
            key: 'industry',
            title: '行业',
            dataIndex: 'industry',
            render: (v: string | null) => industryText(industries, v),
          },
        ]),
    ...(productClass === 'work_safety'
      ? [
          {
            key: 'limitTier',
            title: '限额档次',
            dataIndex: 'limitTierFen',
            render: (v: number | null) => (v === null ? '不限' : `${amountShortText(v)}/人`),
          },
        ]
      : []),
    ...(productClass === 'construction'
      ? [
          {
            key: 'costBand',
            title: '造价档次',
            dataIndex: 'costBandUpToFen',
            render: (v: number | null) => (v === null ? '以上（最高一档）' : `≤ ${amountShortText(v)}`),
          },
        ]
      : []),
    { key: 'rate', title: '基准费率', dataIndex: 'rate', render: (v: number) => rateText(v) },
  ];
  return (
    <>
      <Descriptions bordered size="small" column={{ xs: 1, sm: 2 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label="版本">V{table.versionNo}</Descriptions.Item>
        <Descriptions.Item label="状态">
          <Tag color={STATUS_COLORS[table.status]}>{RATE_TABLE_STATUS_TEXT[table.status]}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label="生效日期">{table.effectiveDate}</Descriptions.Item>
        <Descriptions.Item label="生效时间">
          {table.activatedAt
            ? `${formatTime(table.activatedAt)}${table.activatedBy ? `（${table.activatedBy}）` : ''}`
            : '—'}
        </Descriptions.Item>
        {productClass === 'construction' ? (
          <Descriptions.Item label="高风险加成系数">
            ×{multiplierText(table.highRiskLoading ?? 13_000)}
          </Descriptions.Item>
        ) : null}
        <Descriptions.Item label="备注">{table.note ?? '—'}</Descriptions.Item>
      </Descriptions>
      <Typography.Title level={5}>费率明细</Typography.Title>
      <Table<Row>
        size="small"
        rowKey="id"
        pagination={false}
        columns={columns}
        dataSource={table.rows}
        scroll={{ y: 420 }}
        style={{ marginBottom: 16 }}
      />
      <Typography.Title level={5}>浮动因子</Typography.Title>
      {table.factors.length === 0 ? <Typography.Paragraph type="secondary">无</Typography.Paragraph> : null}
      {table.factors.map((f: FactorDef) => (
        <div key={f.code} style={{ marginBottom: 12 }}>
          <Typography.Text strong>
            {f.label}（{f.code}）
          </Typography.Text>
          <Typography.Text type="secondary">
            {' '}
            系数 ×{multiplierText(f.min)} – ×{multiplierText(f.max)}，默认：
            {f.options.find((o) => o.value === f.defaultOption)?.label ?? f.defaultOption}
          </Typography.Text>
          <Table
            size="small"
            rowKey="value"
            pagination={false}
            columns={[
              { key: 'value', title: '选项代码', dataIndex: 'value' },
              { key: 'label', title: '选项名称', dataIndex: 'label' },
              {
                key: 'multiplier',
                title: '系数',
                dataIndex: 'multiplier',
                render: (v: number) => `×${multiplierText(v)}`,
              },
            ]}
            dataSource={f.options}
          />
        </div>
      ))}
    </>
  );
}

/**
 * The editor's form, with a store of its own: remounted (a new key) it starts from its initial values, where
 * a store shared across remounts would keep what it held. The drawer reaches it through `formRef`.
 */
function SessionForm({
  formRef,
  initialValues,
  onValuesChange,
  children,
}: {
  formRef: RefObject<FormInstance<RateTableValues> | null>;
  initialValues: RateTableValues;
  onValuesChange: () => void;
  children: ReactNode;
}) {
  const [form] = Form.useForm<RateTableValues>();
  formRef.current = form;
  return (
    <Form<RateTableValues>
      form={form}
      layout="vertical"
      name="rateTable"
      initialValues={initialValues}
      onValuesChange={onValuesChange}
    >
      {children}
    </Form>
  );
}

/**
 * A rate-table version of a product in a drawer. A new draft starts from a copy of the version it is made
 * from (its rows and factors; dated today); a draft is edited in place (with its `version`, a stale one
 * reloads); active and retired versions are frozen and shown read-only, with 复制为新版本. Everything is
 * checked with the shared rules before it is sent; a refusal is shown at its field, else above the form.
 */
export function RateTableDrawer({
  product,
  target: initialTarget,
  onClose,
}: {
  product: ProductRow;
  target: RateTableTarget;
  onClose: () => void;
}) {
  const { message, modal } = useAppApis();
  const client = useQueryClient();
  const canEdit = useCan('product:edit');
  // The form of the current session (SessionForm owns it: a new session starts from a new store).
  const formRef = useRef<FormInstance<RateTableValues> | null>(null);
  const [target, setTarget] = useState<RateTableTarget>(initialTarget);
  // The version the form was loaded from (its `version` is what an update sends); replaced on a 409.
  const [loaded, setLoaded] = useState<RateTableDetail | null>(null);
  const [session, setSession] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const productClass = product.productClass;

  const id = target.mode === 'create' ? target.sourceId : target.tableId;
  const query = useQuery({ ...rateTableQuery(id ?? 0), enabled: id !== null });
  useEffect(() => {
    if (query.data && !loaded) setLoaded(query.data);
  }, [query.data, loaded]);

  const creating = target.mode === 'create';
  const table = id === null ? null : loaded;
  const ready = id === null || table !== null;
  const editable = canEdit && (creating || table?.status === 'draft');

  const initialValues = (): RateTableValues => {
    if (creating) {
      return table
        ? { ...toValues(table, shanghaiToday()), note: null }
        : { effectiveDate: dayjs(shanghaiToday()), rows: [emptyRow(productClass)], factors: [] };
    }
    return table ? toValues(table) : {};
  };

  const copy = () => {
    if (!table) return;
    setTarget({ mode: 'create', sourceId: table.id });
    setError(null);
    setSession((n) => n + 1);
  };

  const place = (problems: Problem[]) => {
    const form = formRef.current!;
    const placed = problems.filter((p) => p.name !== null);
    form.setFields(placed.map((p) => ({ name: p.name!, errors: [p.message] })));
    const rest = problems.filter((p) => p.name === null).map((p) => p.message);
    setError(rest.length ? rest.join('；') : null);
    if (placed[0]) form.scrollToField(placed[0].name!);
  };

  const save = async () => {
    const form = formRef.current;
    if (!form) return;
    let values: RateTableValues;
    try {
      await form.validateFields();
      values = form.getFieldsValue(true) as RateTableValues;
    } catch (invalid) {
      // A long table: bring the first field in error into view.
      const first = (invalid as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0];
      if (first) form.scrollToField(first.name);
      return;
    }
    const problems = tableProblems(values, productClass);
    if (problems.length) return place(problems);
    setError(null);
    const body = toBody(values, productClass);
    setSaving(true);
    try {
      const saved =
        target.mode === 'create'
          ? await createRateTable(product.id, body)
          : await updateRateTable(target.tableId, { ...body, version: table!.version });
      void message.success(
        target.mode === 'create'
          ? `已新建费率表 V${saved.versionNo}（草稿）`
          : `费率表 V${saved.versionNo} 已保存`,
      );
      void invalidateResource(client, productsResource);
      onClose();
    } catch (err) {
      const refusal = serverError(err);
      // Network failures were announced by the client; a 401 follows its policy (the re-login dialog).
      if (!refusal || refusal.status === 401) return;
      if (refusal.status === 409 && target.mode === 'open') {
        const fresh = (await query.refetch()).data;
        if (fresh && fresh.version !== table?.version) {
          setLoaded(fresh);
          setSession((n) => n + 1);
          setError(
            fresh.status === 'draft'
              ? `${refusal.message}（${T.conflictReloaded}）`
              : `${refusal.message}（该版本已${RATE_TABLE_STATUS_TEXT[fresh.status]}，不能再修改）`,
          );
          return;
        }
      }
      if (!applyServerErrors(form, err, refusalFields(values))) setError(refusal.message);
    } finally {
      setSaving(false);
    }
  };

  // Closing an editor with changes in it asks first: a rate table is long, and its edits are not kept.
  const dismiss = () => {
    if (!editable || !formRef.current?.isFieldsTouched()) return onClose();
    modal.confirm({
      title: '放弃未保存的修改？',
      content: '关闭后，本次对费率表所做的修改不会保存。',
      okText: '放弃修改',
      cancelText: '继续编辑',
      onOk: onClose,
    });
  };

  const title = creating
    ? `新建费率表版本${table ? `（复制自 V${table.versionNo}）` : ''}`
    : table
      ? `费率表 V${table.versionNo}（${RATE_TABLE_STATUS_TEXT[table.status]}）`
      : '费率表';

  const footer = editable ? (
    <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
      <Button onClick={dismiss}>{T.cancel}</Button>
      <Button type="primary" loading={saving} disabled={!ready} onClick={() => void save()}>
        {creating ? '保存为草稿' : '保存'}
      </Button>
    </Space>
  ) : (
    <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
      <Button onClick={onClose}>关闭</Button>
      {table ? (
        <Can code="product:edit">
          <Button type="primary" onClick={copy}>
            复制为新版本
          </Button>
        </Can>
      ) : null}
    </Space>
  );

  let body: ReactNode;
  if (id !== null && query.isError && !table) {
    body = <Alert type="error" showIcon title={errorMessage(query.error)} />;
  } else if (!ready) {
    body = <Spin />;
  } else if (editable) {
    body = (
      <SessionForm
        key={session}
        formRef={formRef}
        initialValues={initialValues()}
        onValuesChange={() => {
          if (error) setError(null);
        }}
      >
        {error ? (
          <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />
        ) : null}
        {creating ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title="保存为草稿后，在费率表列表中「激活」才会用于新报价（生效日期当天或之后）；已出的报价不受影响。"
          />
        ) : null}
        <RateTableForm productClass={productClass} />
      </SessionForm>
    );
  } else {
    body = (
      <>
        {error ? (
          <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} />
        ) : null}
        {table!.status !== 'draft' ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={`${RATE_TABLE_STATUS_TEXT[table!.status]}的版本不可修改；如需调整费率，请「复制为新版本」。`}
          />
        ) : null}
        <RateTableView table={table!} productClass={productClass} />
      </>
    );
  }

  return (
    <Drawer open title={title} size={1100} onClose={dismiss} destroyOnHidden footer={footer}>
      {body}
    </Drawer>
  );
}
