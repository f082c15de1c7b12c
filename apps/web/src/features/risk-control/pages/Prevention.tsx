// 事故预防 (riskControl/Prevention, route prevention/index/:seqNo): a policy's prevention record — the fund
// (total / planned / spent / left in yuan with a progress bar), the service plan (items with frequency, times,
// unit cost, organisation and persons; insurer staff with prevention:plan add, change and delete items and
// dispatch an order for one), the fund ledger, and the orders of this record with their allowed actions.
// An item may carry its planned dates (within the policy period, no more than its times); dispatching defaults
// to the next of them. An organisation sees only its own items; the enterprise reads it all.
import { PlusOutlined } from '@ant-design/icons';
import { formatTime } from '@piibs/shared/constants';
import { microPercentText } from '@piibs/shared/money';
import {
  FREQUENCY_TIMES,
  type LedgerEntryRow,
  nextScheduledDate,
  type PlanDetail,
  type PlanItemRow,
  SCHEDULED_DATES_TITLE,
  SERVICE_FREQUENCIES,
  SERVICE_FREQUENCY_LABELS,
  SERVICE_ITEM_LABELS,
  SERVICE_ITEM_TYPES,
  type ServiceFrequency,
  type ServiceItemType,
  type ServiceOrderDetail,
  type ServiceOrderRow,
  scheduledDatesProblem,
} from '@piibs/shared/risk-control';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Result,
  Row,
  Select,
  Space,
  Spin,
  Table,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { CrudModal } from '@/components/crud/CrudModal.tsx';
import { type CrudColumn, CrudTable } from '@/components/crud/CrudTable.tsx';
import { useListState } from '@/components/crud/list-state.ts';
import { errorMessage, serverError } from '@/components/crud/resource.ts';
import { yuanOf } from '@/features/application/components/QuoteBreakdown.tsx';
import { Can } from '@/lib/permission.tsx';
import {
  addPlanItem,
  deletePlanItem,
  dispatchOrder,
  ledgerQuery,
  orderQuery,
  ordersResource,
  orgOptionsQuery,
  personOptionsQuery,
  planQuery,
  plansResource,
  SERVICE_LIST_PATH,
  updatePlanItem,
  viewPath,
} from '../api.ts';
import { FundSummary } from '../components/FundSummary.tsx';
import { useOrderActions } from '../components/OrderActions.tsx';
import { OrderStatusTag } from '../components/tags.tsx';
import { dayOf, dayText, fenOfYuan, shanghaiDay, yuanInput } from '../form.ts';
import { RISK_TEXTS as T } from '../texts.ts';

interface ItemValues {
  itemType?: ServiceItemType;
  content?: string | null;
  frequency?: ServiceFrequency;
  times?: number;
  unitCost?: string;
  orgId?: number;
  personIds?: number[];
  scheduledDates?: Dayjs[];
}

interface DispatchValues {
  scheduledDate?: Dayjs;
  personIds?: number[];
  cost?: string;
  note?: string | null;
}

const ITEM_FIELDS: Readonly<Record<string, keyof ItemValues>> = {
  服务项目: 'itemType',
  服务内容: 'content',
  服务频次: 'frequency',
  计划次数: 'times',
  单次费用: 'unitCost',
  服务机构: 'orgId',
  服务人员: 'personIds',
  [SCHEDULED_DATES_TITLE]: 'scheduledDates',
};
const DISPATCH_FIELDS: Readonly<Record<string, keyof DispatchValues>> = {
  计划服务日期: 'scheduledDate',
  服务人员: 'personIds',
  服务费用: 'cost',
  派单说明: 'note',
};

/** Texts of the planned dates (the shared risk-control texts belong to other pages' work too). */
const DATES_TEXTS = Object.freeze({
  label: SCHEDULED_DATES_TITLE,
  hint: (start: string, end: string) => `可选多个日期：${start} 至 ${end} 之间，不多于计划次数`,
});

interface Period {
  startDate: string;
  endDate: string;
}

const amountRule = {
  validator: async (_: unknown, v: string | undefined) => {
    if (v !== undefined && String(v).trim() !== '' && fenOfYuan(v) === null) throw new Error(T.amountInvalid);
  },
};

/** The persons of the organisation chosen in the form. */
function PersonSelect({
  orgId,
  ...rest
}: {
  orgId: number | undefined;
  value?: number[];
  onChange?: (v: number[]) => void;
}) {
  const persons = useQuery(personOptionsQuery(orgId));
  return (
    <Select<number[]>
      {...rest}
      mode="multiple"
      aria-label={T.persons}
      loading={persons.isFetching}
      optionFilterProp="label"
      options={(persons.data ?? []).map((p) => ({
        value: p.id,
        label: `${p.name}（${p.specialty}${p.expert ? '·专家' : ''}）`,
      }))}
    />
  );
}

/** The planned dates: a multiple-date picker bounded by the policy period, checked by the shared rule. */
function ScheduledDatesField({ form, period }: { form: FormInstance<ItemValues>; period: Period }) {
  const today = shanghaiDay();
  const opensAt =
    today < period.startDate ? period.startDate : today > period.endDate ? period.endDate : today;
  return (
    <Form.Item
      name="scheduledDates"
      label={DATES_TEXTS.label}
      extra={DATES_TEXTS.hint(period.startDate, period.endDate)}
      dependencies={['times']}
      rules={[
        {
          validator: async (_: unknown, v: Dayjs[] | undefined) => {
            const times = form.getFieldValue('times') as number | undefined;
            if (!v?.length || !times) return;
            const problem = scheduledDatesProblem(
              v.map((d) => dayText(d)!),
              times,
              period,
            );
            if (problem) throw new Error(problem);
          },
        },
      ]}
    >
      <DatePicker
        multiple
        aria-label={DATES_TEXTS.label}
        minDate={dayOf(period.startDate)}
        maxDate={dayOf(period.endDate)}
        defaultPickerValue={dayOf(opensAt)}
        style={{ width: '100%' }}
      />
    </Form.Item>
  );
}

function ItemFields({ form, period }: { form: FormInstance<ItemValues>; period: Period }) {
  const orgs = useQuery(orgOptionsQuery());
  const orgId = Form.useWatch('orgId', form);
  return (
    <>
      <Form.Item
        name="itemType"
        label={T.itemType}
        rules={[{ required: true, message: T.choose(T.itemType) }]}
      >
        <Select
          aria-label={T.itemType}
          options={SERVICE_ITEM_TYPES.map((t) => ({ value: t, label: SERVICE_ITEM_LABELS[t] }))}
        />
      </Form.Item>
      <Form.Item name="content" label={T.content}>
        <Input.TextArea rows={2} maxLength={500} />
      </Form.Item>
      <Row gutter={12}>
        <Col span={16}>
          <Form.Item
            name="frequency"
            label={T.frequency}
            rules={[{ required: true, message: T.choose(T.frequency) }]}
          >
            <Select
              aria-label={T.frequency}
              options={SERVICE_FREQUENCIES.map((f) => ({ value: f, label: SERVICE_FREQUENCY_LABELS[f] }))}
              onChange={(f: ServiceFrequency) => form.setFieldValue('times', FREQUENCY_TIMES[f])}
            />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="times" label={T.times} rules={[{ required: true, message: T.required(T.times) }]}>
            <InputNumber min={1} max={366} precision={0} aria-label={T.times} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <ScheduledDatesField form={form} period={period} />
      <Form.Item
        name="unitCost"
        label={T.unitCost}
        rules={[{ required: true, whitespace: true, message: T.required(T.unitCost) }, amountRule]}
      >
        <Input prefix="¥" inputMode="decimal" />
      </Form.Item>
      <Form.Item name="orgId" label={T.org} rules={[{ required: true, message: T.choose(T.org) }]}>
        <Select
          aria-label={T.org}
          showSearch={{ optionFilterProp: 'label' }}
          loading={orgs.isPending}
          options={(orgs.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
          onChange={() => form.setFieldValue('personIds', [])}
        />
      </Form.Item>
      <Form.Item name="personIds" label={T.persons}>
        <PersonSelect orgId={orgId} />
      </Form.Item>
    </>
  );
}

function Ledger({ seqNo }: { seqNo: string }) {
  const ledger = useQuery(ledgerQuery(seqNo));
  // The server answers oldest first; the latest movements lead here.
  const newestFirst = useMemo(() => [...(ledger.data?.entries ?? [])].reverse(), [ledger.data]);
  return (
    <Table<LedgerEntryRow>
      size="small"
      rowKey="id"
      loading={ledger.isFetching}
      dataSource={newestFirst}
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      scroll={{ x: 'max-content' }}
      data-testid="ledger"
      columns={[
        { key: 'at', title: T.at, dataIndex: 'at', render: (v: string) => formatTime(v) },
        { key: 'kind', title: T.ledgerKind, dataIndex: 'kindLabel' },
        {
          key: 'amount',
          title: T.amount,
          dataIndex: 'amountFen',
          align: 'right',
          render: (v: number) => yuanOf(v),
        },
        {
          key: 'plannedAfter',
          title: T.plannedAfter,
          dataIndex: 'plannedAfterFen',
          align: 'right',
          render: (v: number) => yuanOf(v),
        },
        {
          key: 'spentAfter',
          title: T.spentAfter,
          dataIndex: 'spentAfterFen',
          align: 'right',
          render: (v: number) => yuanOf(v),
        },
        {
          key: 'leftAfter',
          title: T.leftAfter,
          dataIndex: 'leftAfterFen',
          align: 'right',
          render: (v: number) => yuanOf(v),
        },
        {
          key: 'order',
          title: T.orderNumber,
          dataIndex: 'orderNumber',
          render: (v: string | null) => v ?? T.none,
        },
        { key: 'note', title: T.remark, dataIndex: 'note', render: (v: string | null) => v ?? T.none },
        { key: 'actor', title: T.actor, dataIndex: 'actorName', render: (v: string | null) => v ?? T.none },
      ]}
    />
  );
}

function RecordOrders({ seqNo }: { seqNo: string }) {
  const list = useListState({ prefix: 'order', filterKeys: [], defaultSort: 'id,desc' });
  const { buttons, dialog } = useOrderActions({ mode: 'list' });
  const columns: CrudColumn<ServiceOrderRow>[] = [
    {
      key: 'number',
      title: T.orderNumber,
      dataIndex: 'number',
      alwaysVisible: true,
      render: (_, o) => <Link to={viewPath(o.seqNo, o.number)}>{o.number}</Link>,
    },
    { key: 'item', title: T.itemType, dataIndex: 'itemLabel' },
    { key: 'org', title: T.org, dataIndex: 'orgName' },
    { key: 'scheduledDate', title: T.scheduledDate, dataIndex: 'scheduledDate', sortField: 'scheduledDate' },
    { key: 'cost', title: T.cost, dataIndex: 'costFen', align: 'right', render: (v: number) => yuanOf(v) },
    {
      key: 'status',
      title: T.status,
      dataIndex: 'status',
      render: (_, o) => <OrderStatusTag status={o.status} />,
    },
    {
      key: 'actions',
      title: T.actions,
      alwaysVisible: true,
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
      <CrudTable<ServiceOrderRow>
        id="riskControl.recordOrders"
        resource={ordersResource}
        list={list}
        columns={columns}
        query={{ seqNo }}
        selectable={false}
        addHint={false}
      />
      {dialog}
    </>
  );
}

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
  const { modal, message } = App.useApp();
  const plan = useQuery({ ...planQuery(seqNo), enabled: seqNo !== '' });
  const [editing, setEditing] = useState<{ open: boolean; item: PlanItemRow | null }>({
    open: false,
    item: null,
  });
  const [dispatching, setDispatching] = useState<PlanItemRow | null>(null);

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
      title: DATES_TEXTS.label,
      dataIndex: 'scheduledDates',
      render: (v: string[]) => (v.length ? [...v].sort().join('、') : T.none),
    },
    {
      key: 'unit',
      title: T.unitCost,
      dataIndex: 'unitCostFen',
      align: 'right' as const,
      render: (v: number) => yuanOf(v),
    },
    {
      key: 'reserved',
      title: T.reserved,
      dataIndex: 'reservedFen',
      align: 'right' as const,
      render: (v: number) => yuanOf(v),
    },
    {
      key: 'spent',
      title: T.spent,
      dataIndex: 'spentFen',
      align: 'right' as const,
      render: (v: number) => yuanOf(v),
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
            fixed: 'right' as const,
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

  const today = shanghaiDay();
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
          <Ledger seqNo={seqNo} />
        </Card>
        <Card variant="borderless" title={T.recordOrders}>
          <RecordOrders seqNo={seqNo} />
        </Card>
      </Space>

      <CrudModal<ItemValues, PlanItemRow>
        open={editing.open}
        title={editing.item ? T.editItem : T.addItem}
        record={editing.item}
        width={600}
        toValues={(i) => ({
          itemType: i.itemType,
          content: i.content,
          frequency: i.frequency,
          times: i.times,
          unitCost: yuanInput(i.unitCostFen),
          orgId: i.orgId,
          personIds: i.persons.map((p) => p.id),
          scheduledDates: i.scheduledDates.map((d) => dayOf(d)!),
        })}
        initialValues={{ frequency: 'ONCE', times: 1, personIds: [], scheduledDates: [] }}
        fieldTitles={ITEM_FIELDS}
        onClose={() => setEditing((e) => ({ ...e, open: false }))}
        reload={async (i) => (await plan.refetch()).data?.items.find((x) => x.id === i.id)}
        onSubmit={(v, item) => {
          const body = {
            itemType: v.itemType!,
            content: v.content?.trim() || null,
            frequency: v.frequency!,
            times: v.times,
            unitCostFen: fenOfYuan(v.unitCost) ?? 0,
            orgId: v.orgId!,
            personIds: v.personIds ?? [],
            // Always sent: an edit keeps (or changes) the item's dates.
            scheduledDates: [...new Set((v.scheduledDates ?? []).map((d) => dayText(d)!))].sort(),
          };
          return item
            ? updatePlanItem(seqNo, item.id, { ...body, version: item.version })
            : addPlanItem(seqNo, body);
        }}
        onSaved={(fresh) => {
          void refresh(fresh as PlanDetail);
          void client.invalidateQueries({ queryKey: ledgerQuery(seqNo).queryKey });
        }}
      >
        {(form) => <ItemFields form={form} period={data} />}
      </CrudModal>

      <CrudModal<DispatchValues, never>
        open={dispatching !== null}
        title={dispatching ? T.dispatchTitle(dispatching.itemLabel) : ''}
        okText={T.dispatch}
        initialValues={{
          scheduledDate: dayOf((dispatching && nextScheduledDate(dispatching, firstDay)) ?? firstDay),
          personIds: dispatching?.persons.map((p) => p.id) ?? [],
        }}
        fieldTitles={DISPATCH_FIELDS}
        onClose={() => setDispatching(null)}
        onSubmit={(v) =>
          dispatchOrder(seqNo, {
            planItemId: dispatching!.id,
            scheduledDate: dayText(v.scheduledDate) ?? '',
            personIds: v.personIds?.length ? v.personIds : undefined,
            costFen: fenOfYuan(v.cost) ?? undefined,
            note: v.note?.trim() || null,
          })
        }
        onSaved={(order) => {
          const o = order as ServiceOrderDetail;
          client.setQueryData(orderQuery(o.number).queryKey, o);
          void plan.refetch();
          void refresh();
        }}
      >
        <Form.Item
          name="scheduledDate"
          label={T.scheduledDate}
          rules={[{ required: true, message: T.choose(T.scheduledDate) }]}
        >
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="personIds" label={T.persons} extra={T.personsHint}>
          <PersonSelect orgId={dispatching?.orgId} />
        </Form.Item>
        <Form.Item name="cost" label={T.costYuan} extra={T.costHint} rules={[amountRule]}>
          <Input
            prefix="¥"
            inputMode="decimal"
            placeholder={dispatching ? yuanInput(dispatching.unitCostFen) : ''}
          />
        </Form.Item>
        <Form.Item name="note" label={T.note}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </CrudModal>
    </div>
  );
}
