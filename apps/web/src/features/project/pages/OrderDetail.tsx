// 年度订单 (/piibs/projectManage/orderDetail/:id). `orderDetail/0` (the sidebar's 年度订单) lists the annual
// orders and the declared projects the caller may see, with exports; staff open new annual orders there.
// `orderDetail/:id` is one annual order: its quota (consumed and remaining), facts (with the epinsure
// application it was made from), declared projects and changes (申报项目 opens the secondary-order page, 申请批改
// a change of an issued project) and the policies issued under it; staff may edit its quota and contact, or
// close it.
import { EditOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { formatTime } from '@piibs/shared/constants';
import { formatFen } from '@piibs/shared/money';
import {
  type AnnualOrderDetail,
  type AnnualOrderRow,
  applyPath,
  DECLARATION_STATUS_LABELS,
  DECLARATION_STATUSES,
  type DeclarationKind,
  type DeclarationRow,
  orderDetailPath,
  premiumDiffText,
} from '@piibs/shared/project-order';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Result, Space, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { serverError } from '@/components/crud/resource.ts';
import { type SearchField, SearchForm, searchKeys } from '@/components/crud/SearchForm.tsx';
import { policyViewPath } from '@/features/policy/api.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { Can } from '@/lib/permission.tsx';
import {
  annualOrderQuery,
  annualOrdersResource,
  closeAnnualOrder,
  declarationsResource,
  invalidateProjects,
  PROJECT_PERMISSIONS,
} from '../api.ts';
import { AnnualOrderEditModal } from '../components/AnnualOrderEditModal.tsx';
import { AnnualOrderModal } from '../components/AnnualOrderModal.tsx';
import {
  DeclarationStatusTag,
  OrderFacts,
  OrderStateTag,
  ProjectPolicies,
  QuotaSummary,
} from '../components/ProjectSummary.tsx';

export default function OrderDetail() {
  const params = useParams();
  const id = Number(params.id ?? 0) || 0;
  return id > 0 ? <OneOrder id={id} /> : <OrderLists />;
}

const ORDER_SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: '关键词', placeholder: '订单号、施工企业、信用代码' },
];
const DECLARATION_SEARCH: SearchField[] = [
  { kind: 'input', name: 'blurry', label: '关键词', placeholder: '申报单号、工程名称、施工企业' },
  {
    kind: 'select',
    name: 'status',
    label: '状态',
    options: DECLARATION_STATUSES.map((value) => ({ value, label: DECLARATION_STATUS_LABELS[value] })),
    width: 130,
  },
];

const kindOf = (row: DeclarationRow): DeclarationKind => (row.kind === 2 ? 2 : 1);

/** The declared projects' columns; `withOrder` adds the annual order (for the list across orders). */
function useDeclarationColumns(withOrder: boolean): CrudColumn<DeclarationRow>[] {
  const navigate = useNavigate();
  return [
    {
      key: 'number',
      title: '申报单号',
      dataIndex: 'number',
      alwaysVisible: true,
      sortField: 'number',
      render: (number: string, row) => (
        <Link to={applyPath(row.id, { detail: true, type: kindOf(row) })}>{number}</Link>
      ),
    },
    {
      key: 'kind',
      title: '申报类型',
      dataIndex: 'kind',
      render: (_, row) =>
        row.kind === 2 ? (
          <Tag color="purple">批改{row.baseNumber ? ` ${row.baseNumber}` : ''}</Tag>
        ) : (
          <Tag>新增项目</Tag>
        ),
    },
    ...(withOrder
      ? [
          {
            key: 'order',
            title: '年度订单',
            dataIndex: 'annualOrderNumber',
            render: (number: string, row: DeclarationRow) => (
              <Link to={orderDetailPath(row.annualOrderId)}>{number}</Link>
            ),
          },
          { key: 'customer', title: '施工企业', dataIndex: 'customerName' },
        ]
      : []),
    { key: 'projectName', title: '工程名称', dataIndex: 'projectName' },
    { key: 'cost', title: '工程造价', dataIndex: 'projectCostFen', render: (fen: number) => formatFen(fen) },
    {
      key: 'highRisk',
      title: '危大工程',
      dataIndex: 'highRisk',
      render: (v: boolean) => (v ? '是' : '否'),
    },
    {
      key: 'period',
      title: '保险期间',
      render: (_, row) => `${row.startDate} 至 ${row.endDate}`,
    },
    {
      key: 'premium',
      title: '保费',
      dataIndex: 'premiumFen',
      sortField: 'premiumFen',
      render: (fen: number, row) =>
        row.premiumDiffFen === null ? (
          formatFen(fen)
        ) : (
          <>
            {formatFen(fen)}
            <div style={{ opacity: 0.75 }}>{premiumDiffText(row.premiumDiffFen)}</div>
          </>
        ),
    },
    {
      key: 'status',
      title: '状态',
      dataIndex: 'status',
      render: (_, row) => <DeclarationStatusTag status={row.status} label={row.statusLabel} />,
    },
    {
      key: 'opinion',
      title: '审核意见',
      dataIndex: 'reviewOpinion',
      defaultHidden: true,
      render: (v: string | null) => v ?? '—',
    },
    {
      key: 'policy',
      title: '保单号',
      dataIndex: 'policyNumber',
      render: (number: string | null, row) =>
        number && row.policyId ? <Link to={policyViewPath(row.policyId)}>{number}</Link> : '—',
    },
    {
      key: 'submittedAt',
      title: '提交时间',
      dataIndex: 'submittedAt',
      sortField: 'submittedAt',
      defaultHidden: true,
      render: (v: string | null) => (v ? formatTime(v) : '—'),
    },
    {
      key: 'actions',
      title: '操作',
      alwaysVisible: true,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            onClick={() => navigate(applyPath(row.id, { detail: true, type: kindOf(row), view: '1' }))}
          >
            查看
          </Button>
          {row.actions.includes('edit') ? (
            <Can code={PROJECT_PERMISSIONS.apply}>
              <Button
                type="link"
                size="small"
                onClick={() => navigate(applyPath(row.id, { type: kindOf(row) }))}
              >
                {row.status === 'RETURNED' ? '修改并重新提交' : '继续填写'}
              </Button>
            </Can>
          ) : null}
          {row.actions.includes('change') ? (
            <Can code={PROJECT_PERMISSIONS.apply}>
              <Button
                type="link"
                size="small"
                onClick={() => navigate(applyPath(0, { type: 2, baseId: row.id }))}
              >
                申请批改
              </Button>
            </Can>
          ) : null}
        </Space>
      ),
    },
  ];
}

/** orderDetail/0: the annual orders and the declared projects the caller sees. */
function OrderLists() {
  const orders = useListState({ filterKeys: searchKeys(ORDER_SEARCH) });
  const declarations = useListState({ prefix: 'decl', filterKeys: searchKeys(DECLARATION_SEARCH) });
  const navigate = useNavigate();
  const client = useQueryClient();
  const [creating, setCreating] = useState(false);
  const declarationColumns = useDeclarationColumns(true);

  const columns: CrudColumn<AnnualOrderRow>[] = [
    {
      key: 'number',
      title: '年度订单号',
      dataIndex: 'number',
      alwaysVisible: true,
      sortField: 'number',
      render: (number: string, row) => <Link to={orderDetailPath(row.id)}>{number}</Link>,
    },
    { key: 'customer', title: '施工企业', dataIndex: 'customerName' },
    { key: 'product', title: '险种', dataIndex: 'productName', defaultHidden: true },
    {
      key: 'period',
      title: '订单期间',
      sortField: 'startDate',
      render: (_, row) => `${row.startDate} 至 ${row.endDate}`,
    },
    {
      key: 'state',
      title: '状态',
      dataIndex: 'state',
      render: (_, row) => <OrderStateTag state={row.state} label={row.stateLabel} />,
    },
    {
      key: 'quota',
      title: '保费额度',
      dataIndex: 'quotaFen',
      sortField: 'quotaFen',
      render: (fen: number) => formatFen(fen),
    },
    { key: 'consumed', title: '已占用', dataIndex: 'consumedFen', render: (fen: number) => formatFen(fen) },
    {
      key: 'remaining',
      title: '剩余额度',
      dataIndex: 'remainingFen',
      render: (fen: number) => <Typography.Text strong>{formatFen(fen)}</Typography.Text>,
    },
    { key: 'declared', title: '已申报项目', dataIndex: 'declaredCount' },
    { key: 'approved', title: '已承保项目', dataIndex: 'approvedCount' },
    {
      key: 'actions',
      title: '操作',
      alwaysVisible: true,
      fixed: 'right',
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => navigate(orderDetailPath(row.id))}>
          详情
        </Button>
      ),
    },
  ];

  return (
    <CrudPage>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        年度订单
      </Typography.Title>
      <SearchForm fields={ORDER_SEARCH} list={orders} />
      <CrudTable<AnnualOrderRow>
        id="project.orders"
        resource={annualOrdersResource}
        list={orders}
        columns={columns}
        selectable={false}
        toolbar={
          <Can code={PROJECT_PERMISSIONS.add}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              新建年度订单
            </Button>
          </Can>
        }
      />
      <Typography.Title level={5}>申报项目</Typography.Title>
      <SearchForm name="declarationSearch" fields={DECLARATION_SEARCH} list={declarations} />
      <CrudTable<DeclarationRow>
        id="project.declarations"
        resource={declarationsResource}
        list={declarations}
        columns={declarationColumns}
        selectable={false}
        addHint={false}
      />
      <AnnualOrderModal
        open={creating}
        onClose={() => setCreating(false)}
        onSaved={(order) => {
          setCreating(false);
          void invalidateProjects(client);
          navigate(orderDetailPath(order.id));
        }}
      />
    </CrudPage>
  );
}

/** 修改 / 关闭 of an open annual order, for staff with project_order:edit. */
function OrderAdmin({ order }: { order: AnnualOrderDetail }) {
  const client = useQueryClient();
  const { message, modal } = useAppApis();
  const [editing, setEditing] = useState(false);
  if (order.state === 'CLOSED') return null;
  const close = () =>
    order.openCount > 0
      ? modal.warning({
          title: '暂不能关闭年度订单',
          content: `该订单还有 ${order.openCount} 个未完成的申报（草稿、待审核或已退回），请先完成审核或撤销后再关闭。`,
        })
      : modal.confirm({
          title: '关闭年度订单',
          content: `关闭后不能再在年度订单 ${order.number} 下申报项目或批改，且不能恢复。确定关闭吗？`,
          okText: '关闭订单',
          okButtonProps: { danger: true },
          cancelText: '取消',
          onOk: async () => {
            try {
              await closeAnnualOrder(order.id, order.version);
              void message.success('年度订单已关闭');
            } catch (err) {
              const refusal = serverError(err);
              if (refusal && refusal.status !== 401) void message.error(refusal.message);
            } finally {
              await invalidateProjects(client);
            }
          },
        });
  return (
    <Can code={PROJECT_PERMISSIONS.edit}>
      <Space>
        <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
          修改订单
        </Button>
        <Button danger icon={<StopOutlined />} onClick={close}>
          关闭订单
        </Button>
      </Space>
      <AnnualOrderEditModal
        order={order}
        open={editing}
        onClose={() => setEditing(false)}
        onSaved={() => void invalidateProjects(client)}
      />
    </Can>
  );
}

/** orderDetail/:id: one annual order. */
function OneOrder({ id }: { id: number }) {
  const navigate = useNavigate();
  const query = useQuery(annualOrderQuery(id));
  const declarations = useListState({ prefix: 'decl', filterKeys: searchKeys(DECLARATION_SEARCH) });
  const columns = useDeclarationColumns(false);

  if (query.isPending)
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  if (!query.data)
    return (
      <Result
        status="warning"
        title={serverError(query.error)?.message ?? '年度订单不存在'}
        extra={<Button onClick={() => navigate(orderDetailPath(0))}>返回年度订单列表</Button>}
      />
    );
  const order = query.data;
  const declare = order.canDeclare ? (
    <Can code={PROJECT_PERMISSIONS.apply}>
      <Button
        type="primary"
        icon={<PlusOutlined />}
        onClick={() => navigate(applyPath(0, { orderId: order.id }))}
      >
        申报项目
      </Button>
    </Can>
  ) : null;

  return (
    <div style={{ padding: 16 }}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card
          variant="borderless"
          title={
            <Space>
              年度订单 {order.number}
              <OrderStateTag state={order.state} label={order.stateLabel} />
            </Space>
          }
          extra={
            <Space>
              <OrderAdmin order={order} />
              <Link to={orderDetailPath(0)}>全部年度订单</Link>
            </Space>
          }
        >
          {order.state === 'CLOSED' ? (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              title="该年度订单已关闭：不能再申报项目或批改，已承保项目的保单继续有效"
            />
          ) : null}
          <QuotaSummary order={order} />
        </Card>
        <Card variant="borderless" title="订单信息">
          <OrderFacts order={order} />
        </Card>
        <Card variant="borderless" title="申报项目">
          <SearchForm name="declarationSearch" fields={DECLARATION_SEARCH} list={declarations} />
          <CrudTable<DeclarationRow>
            id="project.order-declarations"
            resource={declarationsResource}
            list={declarations}
            columns={columns}
            query={{ orderId: order.id }}
            selectable={false}
            addHint={false}
            toolbar={declare}
          />
        </Card>
        <Card variant="borderless" title="项目保单">
          <ProjectPolicies policies={order.policies} />
        </Card>
      </Space>
    </div>
  );
}
