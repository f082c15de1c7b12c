// 事故预防 (riskControl/Prevention, route prevention/index/:seqNo): a policy's prevention record — the fund
// (total / planned / spent / left in yuan with a progress bar), the service plan (items with frequency, times,
// unit cost, organisation and persons; insurer staff with prevention:plan add, change and delete items and
// dispatch an order for one), the fund ledger, and the orders of this record with their allowed actions.
// An item may carry its planned dates (within the policy period, no more than its times); dispatching defaults
// to the next of them. An organisation sees only its own items; the enterprise reads it all.
import { PlusOutlined } from '@ant-design/icons';
import { shanghaiToday } from '@piibs/shared/application-status';
import { formatFen, microPercentText } from '@piibs/shared/money';
import { type PlanDetail, type PlanItemRow, SCHEDULED_DATES_TITLE } from '@piibs/shared/risk-control';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Result, Space, Spin, Table, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { errorMessage, serverError } from '@/components/crud/resource.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { Can } from '@/lib/permission.tsx';
import { useActionsFixed } from '@/lib/use-phone.ts';
import { useTabRecord } from '@/stores/tagsView.ts';
import {
  deletePlanItem,
  ledgerQuery,
  orderQuery,
  ordersResource,
  planQuery,
  plansResource,
  SERVICE_LIST_PATH,
} from '../api.ts';
import { DispatchModal } from '../components/DispatchModal.tsx';
import { FundSummary } from '../components/FundSummary.tsx';
import { PlanItemModal } from '../components/PlanItemModal.tsx';
import { PlanLedger } from '../components/PlanLedger.tsx';
import { RecordOrders } from '../components/RecordOrders.tsx';
import { RISK_TEXTS as T } from '../texts.ts';

function PlanHeader({ plan }: { plan: PlanDetail }) {
  return (
    <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }} style={{ marginBottom: 16 }}>
      <Descriptions.Item label={T.seqNo}>
        <Typography.Text strong copyable data-testid="plan-seqno">
          {plan.seqNo}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={T.policyNumber}>{plan.policyNumber}</Descriptions.Item>
      <Descriptions.Item label={T.product}>{plan.productName}</Descriptions.Item>
      <Descriptions.Item label={T.holder}>{plan.holderName}</Descriptions.Item>
      <Descriptions.Item label={T.uscc}>{plan.holderUscc}</Descriptions.Item>
      <Descriptions.Item label={T.period}>
        {plan.startDate} 至 {plan.endDate}
      </Descriptions.Item>
      <Descriptions.Item label={T.preventionRatio}>
        {plan.preventionRatio === null ? T.none : `${microPercentText(plan.preventionRatio)}%`}
      </Descriptions.Item>
    </Descriptions>
  );
}

export default function Prevention() {
  const { seqNo = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { modal, message } = useAppApis();
  const plan = useQuery({ ...planQuery(seqNo), enabled: seqNo !== '' });
  useTabRecord(plan.data?.holderName);
  const [editing, setEditing] = useState<{ open: boolean; item: PlanItemRow | null }>({
    open: false,
    item: null,
  });
  const [dispatching, setDispatching] = useState<PlanItemRow | null>(null);
  const actionsFixed = useActionsFixed();

  const refresh = (fresh?: PlanDetail) => {
    if (fresh) client.setQueryData(planQuery(seqNo).queryKey, fresh);
    return Promise.all([
      client.invalidateQueries({ queryKey: plansResource.key }),
      client.invalidateQueries({ queryKey: ordersResource.key }),
    ]);
  };

  if (plan.isPending && seqNo) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  const data = plan.data;
  if (!data) {
    const refusal = plan.error ? serverError(plan.error) : null;
    return (
      <Result
        status="404"
        title={refusal && refusal.status !== 404 ? refusal.message : T.recordNotFound}
        extra={<Button onClick={() => navigate(SERVICE_LIST_PATH)}>{T.toList}</Button>}
      />
    );
  }

  const removeItem = (item: PlanItemRow) =>
    modal.confirm({
      title: T.delete,
      content: T.deleteItem(item.itemLabel),
      okText: T.ok,
      okType: 'danger',
      cancelText: T.cancel,
      onOk: async () => {
        try {
          await refresh(await deletePlanItem(seqNo, item.id, item.version));
          void message.success(T.itemDeleted);
        } catch (err) {
          modal.error({ title: T.delete, content: errorMessage(err), okText: T.ok });
          await plan.refetch();
        }
      },
    });

  const itemColumns = [
    { key: 'item', title: T.itemType, dataIndex: 'itemLabel' },
    {
      key: 'content',
      title: T.content,
      dataIndex: 'content',
      render: (v: string | null) => (
        <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 240 }}>
          {v ?? T.none}
        </Typography.Text>
      ),
    },
    { key: 'frequency', title: T.frequency, dataIndex: 'frequencyLabel' },
    { key: 'times', title: T.times, dataIndex: 'times' },
    {
      key: 'schedule',
      title: SCHEDULED_DATES_TITLE,
      dataIndex: 'scheduledDates',
      render: (v: string[]) => (v.length ? [...v].sort().join('、') : T.none),
    },
    {
      key: 'unit',
      title: T.unitCost,
      dataIndex: 'unitCostFen',
      align: 'right' as const,
      render: (v: number) => formatFen(v),
    },
    {
      key: 'reserved',
      title: T.reserved,
      dataIndex: 'reservedFen',
      align: 'right' as const,
      render: (v: number) => formatFen(v),
    },
    {
      key: 'spent',
      title: T.spent,
      dataIndex: 'spentFen',
      align: 'right' as const,
      render: (v: number) => formatFen(v),
    },
    {
      key: 'dispatched',
      title: T.dispatched,
      render: (_: unknown, i: PlanItemRow) => `${i.liveOrders} / ${i.times}`,
    },
    { key: 'org', title: T.org, dataIndex: 'orgName' },
    {
      key: 'persons',
      title: T.persons,
      render: (_: unknown, i: PlanItemRow) => i.persons.map((p) => p.name).join('、') || T.none,
    },
    ...(data.canPlan
      ? [
          {
            key: 'actions',
            title: T.actions,
            fixed: actionsFixed,
            render: (_: unknown, i: PlanItemRow) => (
              <Can code="prevention:plan">
                <Space size={0}>
                  <Button
                    type="link"
                    size="small"
                    disabled={i.liveOrders >= i.times}
                    onClick={() => setDispatching(i)}
                  >
                    {T.dispatch}
                  </Button>
                  <Button type="link" size="small" onClick={() => setEditing({ open: true, item: i })}>
                    {T.edit}
                  </Button>
                  <Button type="link" size="small" danger onClick={() => removeItem(i)}>
                    {T.delete}
                  </Button>
                </Space>
              </Can>
            ),
          },
        ]
      : []),
  ];

  const today = shanghaiToday();
  const firstDay = data.startDate > today ? data.startDate : today;

  return (
    <div style={{ padding: 16 }}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card variant="borderless" title={T.fund}>
          <PlanHeader plan={data} />
          <FundSummary fund={data.fund} />
        </Card>
        <Card
          variant="borderless"
          title={T.planItems}
          extra={
            data.canPlan ? (
              <Can code="prevention:plan">
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => setEditing({ open: true, item: null })}
                >
                  {T.addItem}
                </Button>
              </Can>
            ) : null
          }
        >
          <Table<PlanItemRow>
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={data.items}
            columns={itemColumns}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: T.noPlan }}
            data-testid="plan-items"
          />
        </Card>
        <Card variant="borderless" title={T.ledger}>
          <PlanLedger seqNo={seqNo} />
        </Card>
        <Card variant="borderless" title={T.recordOrders}>
          <RecordOrders seqNo={seqNo} />
        </Card>
      </Space>

      <PlanItemModal
        seqNo={seqNo}
        period={data}
        open={editing.open}
        item={editing.item}
        onClose={() => setEditing((e) => ({ ...e, open: false }))}
        reload={async (i) => (await plan.refetch()).data?.items.find((x) => x.id === i.id)}
        onSaved={(fresh) => {
          void refresh(fresh);
          void client.invalidateQueries({ queryKey: ledgerQuery(seqNo).queryKey });
        }}
      />

      <DispatchModal
        seqNo={seqNo}
        item={dispatching}
        firstDay={firstDay}
        onClose={() => setDispatching(null)}
        onSaved={(order) => {
          client.setQueryData(orderQuery(order.number).queryKey, order);
          void plan.refetch();
          void refresh();
        }}
      />
    </div>
  );
}
