// 我的服务单 (riskControl/ServiceList, route prevention/serviceList): the service orders the caller may see —
// an organisation's staff their organisation's, an enterprise its policies', insurer staff those in their data
// scope — filtered by status, item type, planned date and keyword, with each row's allowed actions (接单,
// 开始服务, 执行服务 → prevention/service/:seqNo?order=…, 确认服务 → prevention/view/:seqNo?order=…), and the
// export of an enterprise's service archive (xlsx, or a PDF summary). A second tab lists the prevention records (one per visible
// policy: fund and plan), each opening prevention/index/:seqNo. The tab, filters and paging live in the URL.

import { DownloadOutlined, FilePdfOutlined } from '@ant-design/icons';
import { formatFen } from '@piibs/shared/money';
import {
  type PlanRow,
  SERVICE_ITEM_LABELS,
  SERVICE_ITEM_TYPES,
  SERVICE_ORDER_STATUS_LABELS,
  SERVICE_ORDER_STATUSES,
  type ServiceOrderRow,
} from '@piibs/shared/risk-control';
import { AutoComplete, Button, Form, Modal, Rate, Space, Tabs, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { useCrudList } from '@/components/crud/resource.ts';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { useAppApis } from '@/lib/app-apis.tsx';
import { Can } from '@/lib/permission.tsx';
import { useUserStore } from '@/stores/user.ts';
import {
  downloadArchive,
  downloadArchivePdf,
  ordersResource,
  plansResource,
  preventionPath,
  viewPath,
} from '../api.ts';
import { useOrderActions } from '../components/OrderActions.tsx';
import { OrderStatusTag } from '../components/tags.tsx';
import { RISK_TEXTS as T } from '../texts.ts';

const ORDER_SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: T.keyword, placeholder: T.keywordHint, width: 240 },
  {
    kind: 'select',
    name: 'status',
    label: T.status,
    options: SERVICE_ORDER_STATUSES.map((s) => ({ value: s, label: SERVICE_ORDER_STATUS_LABELS[s] })),
    width: 140,
  },
  {
    kind: 'select',
    name: 'itemType',
    label: T.itemType,
    options: SERVICE_ITEM_TYPES.map((s) => ({ value: s, label: SERVICE_ITEM_LABELS[s] })),
    width: 160,
  },
  { kind: 'dateRange', name: 'scheduled', label: T.dateRange, start: 'startDate', end: 'endDate' },
];
const ORDER_KEYS = searchKeys(ORDER_SEARCH);
const PLAN_SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: T.keyword, placeholder: T.planKeywordHint, width: 240 },
];
const PLAN_KEYS = searchKeys(PLAN_SEARCH);

/** The planned-date filter as the API takes it (the search bar keeps whole-day times in the URL). */
const dayOf = (v: string | undefined) => (v ? v.slice(0, 10) : undefined);

const ARCHIVE_EXPORTS = {
  xlsx: { label: T.exportArchive, icon: <DownloadOutlined />, download: downloadArchive },
  pdf: { label: '导出档案PDF', icon: <FilePdfOutlined />, download: downloadArchivePdf },
} as const;

function ExportArchive({
  holders,
  kind,
}: {
  holders: { value: string; label: string }[];
  kind: keyof typeof ARCHIVE_EXPORTS;
}) {
  const { label, icon, download } = ARCHIVE_EXPORTS[kind];
  const { message } = useAppApis();
  const ownUscc = useUserStore((s) => s.user?.uscc ?? null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ uscc: string }>();

  const run = async (uscc: string | undefined) => {
    setBusy(true);
    try {
      const name = await download(uscc);
      void message.success(T.exported(name));
      setOpen(false);
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Can code="prevention:export">
      <Button
        icon={icon}
        loading={busy && !open}
        onClick={() => {
          // An enterprise exports its own archive; others name the enterprise.
          if (ownUscc) void run(undefined);
          else {
            form.setFieldsValue({ uscc: holders.length === 1 ? holders[0]!.value : '' });
            setOpen(true);
          }
        }}
      >
        {label}
      </Button>
      <Modal
        open={open}
        title={T.exportTitle}
        okText={label}
        cancelText={T.cancel}
        confirmLoading={busy}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={(v) => void run(v.uscc.trim().toUpperCase())}>
          <Form.Item
            name="uscc"
            label={T.uscc}
            rules={[{ required: true, whitespace: true, message: T.exportUsccHint }]}
          >
            <AutoComplete options={holders} placeholder={T.exportUsccHint} />
          </Form.Item>
        </Form>
      </Modal>
    </Can>
  );
}

function OrdersTab() {
  const list = useListState({ filterKeys: ORDER_KEYS, defaultSort: 'id,desc' });
  const { buttons, dialog } = useOrderActions({ mode: 'list' });
  const startDate = dayOf(list.filters.startDate);
  const endDate = dayOf(list.filters.endDate);
  const query = { startDate, endDate };
  // The rows on screen name the enterprises the archive export offers (the table's own query, shared cache).
  const params = useMemo(() => {
    const p: Record<string, string | number> = { ...list.params };
    if (startDate) p.startDate = startDate;
    if (endDate) p.endDate = endDate;
    return p;
  }, [list.params, startDate, endDate]);
  const rows = useCrudList(ordersResource, params).data?.content;
  const holders = useMemo(() => {
    const seen = new Map<string, string>();
    for (const r of rows ?? []) seen.set(r.holderUscc, `${r.holderName}（${r.holderUscc}）`);
    return [...seen].map(([value, label]) => ({ value, label }));
  }, [rows]);

  // An organisation's account sees its own organisation's orders only, an enterprise its own: the column that would
  // repeat the account's own name in every row is left out, so the status shows on a laptop's screen.
  const ownColumn = useUserStore((s) =>
    s.user?.channel === 'service' ? 'org' : s.user?.channel === 'enterprise' ? 'holder' : null,
  );
  const columns: CrudColumn<ServiceOrderRow>[] = [
    {
      key: 'number',
      title: T.orderNumber,
      dataIndex: 'number',
      sortField: 'number',
      alwaysVisible: true,
      render: (_, o) => <Link to={viewPath(o.seqNo, o.number)}>{o.number}</Link>,
    },
    {
      key: 'holder',
      title: T.holder,
      render: (_, o) => (
        <div>
          <div>{o.holderName}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {o.holderUscc}
          </Typography.Text>
        </div>
      ),
    },
    {
      key: 'policy',
      title: T.policyNumber,
      render: (_, o) => <Link to={preventionPath(o.seqNo)}>{o.policyNumber}</Link>,
    },
    { key: 'item', title: T.itemType, dataIndex: 'itemLabel' },
    {
      key: 'status',
      title: T.status,
      dataIndex: 'status',
      sortField: 'status',
      render: (_, o) => (
        <>
          <OrderStatusTag status={o.status} />
          {o.openComplaint ? <Tag color="error">{T.openComplaint}</Tag> : null}
        </>
      ),
    },
    { key: 'org', title: T.org, dataIndex: 'orgName' },
    {
      key: 'persons',
      title: T.persons,
      defaultHidden: true,
      render: (_, o) => o.persons.map((p) => p.name).join('、') || T.none,
    },
    { key: 'scheduledDate', title: T.scheduledDate, dataIndex: 'scheduledDate', sortField: 'scheduledDate' },
    { key: 'serviceDate', title: T.serviceDate, dataIndex: 'serviceDate', render: (v) => v ?? T.none },
    { key: 'cost', title: T.cost, dataIndex: 'costFen', align: 'right', render: (v: number) => formatFen(v) },
    {
      key: 'hazards',
      title: T.hazards,
      render: (_, o) => (o.hazardCount ? `${o.openHazardCount} / ${o.hazardCount}` : T.none),
    },
    {
      key: 'satisfaction',
      title: T.satisfaction,
      render: (_, o) =>
        o.satisfaction ? <Rate disabled value={o.satisfaction} style={{ fontSize: 12 }} /> : T.none,
    },
    {
      key: 'actions',
      title: T.actions,
      alwaysVisible: true,
      fixed: 'right',
      render: (_, o) => (
        <Space size={0} wrap>
          <Link to={viewPath(o.seqNo, o.number)} style={{ padding: '0 7px' }}>
            {T.view}
          </Link>
          {buttons(o)}
        </Space>
      ),
    },
  ];

  return (
    <>
      <SearchForm fields={ORDER_SEARCH} list={list} />
      <CrudTable<ServiceOrderRow>
        id="riskControl.orders"
        resource={ordersResource}
        list={list}
        columns={ownColumn ? columns.filter((c) => c.key !== ownColumn) : columns}
        query={query}
        selectable={false}
        addHint={false}
        toolbar={
          <>
            <ExportArchive holders={holders} kind="xlsx" />
            <ExportArchive holders={holders} kind="pdf" />
          </>
        }
      />
      {dialog}
    </>
  );
}

function PlansTab() {
  const list = useListState({ prefix: 'plan', filterKeys: PLAN_KEYS, defaultSort: 'policyId,desc' });
  const columns: CrudColumn<PlanRow>[] = [
    {
      key: 'seqNo',
      title: T.seqNo,
      dataIndex: 'seqNo',
      alwaysVisible: true,
      render: (_, p) => <Link to={preventionPath(p.seqNo)}>{p.seqNo}</Link>,
    },
    { key: 'policyNumber', title: T.policyNumber, dataIndex: 'policyNumber', sortField: 'policyNumber' },
    { key: 'holder', title: T.holder, dataIndex: 'holderName' },
    { key: 'product', title: T.product, dataIndex: 'productName', defaultHidden: true },
    {
      key: 'period',
      title: T.period,
      sortField: 'startDate',
      render: (_, p) => `${p.startDate} 至 ${p.endDate}`,
    },
    { key: 'total', title: T.fundTotal, align: 'right', render: (_, p) => formatFen(p.fund.totalFen) },
    { key: 'planned', title: T.fundPlanned, align: 'right', render: (_, p) => formatFen(p.fund.plannedFen) },
    { key: 'spent', title: T.fundSpent, align: 'right', render: (_, p) => formatFen(p.fund.spentFen) },
    { key: 'left', title: T.fundLeft, align: 'right', render: (_, p) => formatFen(p.fund.leftFen) },
    { key: 'items', title: T.itemCount, dataIndex: 'itemCount' },
    { key: 'orders', title: T.orderCount, dataIndex: 'orderCount' },
    {
      key: 'actions',
      title: T.actions,
      alwaysVisible: true,
      fixed: 'right',
      render: (_, p) => <Link to={preventionPath(p.seqNo)}>{T.goPrevention}</Link>,
    },
  ];
  return (
    <>
      <SearchForm fields={PLAN_SEARCH} list={list} name="plan-search" />
      <CrudTable<PlanRow>
        id="riskControl.plans"
        resource={plansResource}
        list={list}
        columns={columns}
        selectable={false}
        addHint={false}
      />
    </>
  );
}

export default function ServiceList() {
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tab') === 'plans' ? 'plans' : 'orders';
  return (
    <CrudPage>
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          const next = new URLSearchParams(search);
          if (key === 'plans') next.set('tab', 'plans');
          else next.delete('tab');
          setSearch(next);
        }}
        items={[
          { key: 'orders', label: T.orders, children: tab === 'orders' ? <OrdersTab /> : null },
          { key: 'plans', label: T.plans, children: tab === 'plans' ? <PlansTab /> : null },
        ]}
      />
    </CrudPage>
  );
}
