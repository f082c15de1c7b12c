// Pieces of the service-order pages (record form, read-only view, result page): the order's summary, its
// on-site record, the hazard table, the history timeline and the complaints.
import { formatTime } from '@piibs/shared/constants';
import { formatFen } from '@piibs/shared/money';
import {
  type ComplaintRow,
  type HazardRow,
  type OrderEventRow,
  PARTICIPANT_SIDE_LABELS,
  SERVICE_ORDER_ACTION_LABELS,
  SERVICE_ORDER_STATUS_LABELS,
  type ServiceOrderAction,
  type ServiceOrderDetail,
} from '@piibs/shared/risk-control';
import { Button, Descriptions, Empty, Flex, Rate, Tag, Timeline, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DetailTable } from '@/components/crud/DetailTable.tsx';
import { preventionPath } from '../api.ts';
import { RISK_TEXTS as T } from '../texts.ts';
import { HazardLevelTag, HazardStatusTag, OrderStatusTag } from './tags.tsx';

const or = (v: ReactNode) => (v === null || v === undefined || v === '' ? T.none : v);

/** Who, what, when and how much: the header of every order page. */
export function OrderSummary({ order }: { order: ServiceOrderDetail }) {
  return (
    <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }}>
      <Descriptions.Item label={T.orderNumber}>
        <Typography.Text strong copyable data-testid="order-number">
          {order.number}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={T.status}>
        <OrderStatusTag status={order.status} />
      </Descriptions.Item>
      <Descriptions.Item label={T.itemType}>{order.itemLabel}</Descriptions.Item>
      <Descriptions.Item label={T.holder}>{order.holderName}</Descriptions.Item>
      <Descriptions.Item label={T.policyNumber}>
        <Link to={preventionPath(order.seqNo)}>{order.policyNumber}</Link>
      </Descriptions.Item>
      <Descriptions.Item label={T.org}>{order.orgName}</Descriptions.Item>
      <Descriptions.Item label={T.persons}>
        {or(order.persons.map((p) => p.name).join('、'))}
      </Descriptions.Item>
      <Descriptions.Item label={T.scheduledDate}>{order.scheduledDate}</Descriptions.Item>
      <Descriptions.Item label={T.cost}>{formatFen(order.costFen)}</Descriptions.Item>
      {order.note ? (
        <Descriptions.Item label={T.note} span="filled">
          {order.note}
        </Descriptions.Item>
      ) : null}
      {order.rejectReason ? (
        <Descriptions.Item label={T.rejectReason} span="filled">
          {order.rejectReason}
        </Descriptions.Item>
      ) : null}
      {order.cancelReason ? (
        <Descriptions.Item label={T.cancelReason} span="filled">
          {order.cancelReason}
        </Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}

/** The saved on-site record: date, place, findings, participants, and the rating when there is one. */
export function RecordDescriptions({ order }: { order: ServiceOrderDetail }) {
  return (
    <Descriptions size="small" bordered column={{ xs: 1, md: 2 }}>
      <Descriptions.Item label={T.serviceDate}>{or(order.serviceDate)}</Descriptions.Item>
      <Descriptions.Item label={T.address}>{or(order.address)}</Descriptions.Item>
      <Descriptions.Item label={T.findings} span="filled">
        <Typography.Paragraph
          style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}
          data-testid="order-findings"
        >
          {or(order.findings)}
        </Typography.Paragraph>
      </Descriptions.Item>
      <Descriptions.Item label={T.participants} span="filled">
        {order.participants.length
          ? order.participants.map((p) => (
              <Tag key={`${p.side}-${p.name}`}>
                {p.name}（{PARTICIPANT_SIDE_LABELS[p.side]}
                {p.position ? `·${p.position}` : ''}）
              </Tag>
            ))
          : T.none}
      </Descriptions.Item>
      {order.satisfaction !== null ? (
        <Descriptions.Item label={T.satisfaction} span="filled">
          <Rate disabled value={order.satisfaction} />
          {order.satisfactionComment ? (
            <Typography.Text style={{ marginLeft: 12 }}>{order.satisfactionComment}</Typography.Text>
          ) : null}
        </Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}

/** The hazards with level, deadline and rectification; `onRectify` adds 已整改 to the open ones. */
export function HazardTable({
  hazards,
  onRectify,
}: {
  hazards: readonly HazardRow[];
  onRectify?: (hazard: HazardRow) => void;
}) {
  return (
    <DetailTable<HazardRow>
      noun="隐患"
      size="small"
      rowKey="id"
      dataSource={hazards}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.nothing} /> }}
      columns={[
        { key: 'seq', title: '#', dataIndex: 'seq', width: 48, card: false },
        { key: 'description', title: T.hazardDescription, dataIndex: 'description' },
        { key: 'location', title: T.hazardLocation, dataIndex: 'location', render: or },
        {
          key: 'level',
          title: T.hazardLevel,
          dataIndex: 'level',
          render: (_, h) => <HazardLevelTag level={h.level} />,
        },
        { key: 'measure', title: T.hazardMeasure, dataIndex: 'measure', render: or },
        { key: 'deadline', title: T.hazardDeadline, dataIndex: 'deadline' },
        {
          key: 'status',
          title: T.hazardStatus,
          render: (_, h) => (
            <>
              <HazardStatusTag status={h.status} overdue={h.overdue} />
              {h.rectifiedDate ? (
                <Typography.Text type="secondary">
                  {h.rectifiedDate}
                  {h.rectifyNote ? ` ${h.rectifyNote}` : ''}
                </Typography.Text>
              ) : null}
            </>
          ),
        },
        ...(onRectify
          ? [
              {
                key: 'actions',
                title: T.actions,
                render: (_: unknown, h: HazardRow) =>
                  h.status === 'OPEN' ? (
                    <Button type="link" size="small" onClick={() => onRectify(h)}>
                      {T.rectify}
                    </Button>
                  ) : null,
              },
            ]
          : []),
      ]}
    />
  );
}

const actionLabel = (action: string) =>
  SERVICE_ORDER_ACTION_LABELS[action as ServiceOrderAction] ??
  (
    { dispatch: '派单', record: '保存服务记录', rectify: '登记整改', close: '关闭', rate: '评价' } as Record<
      string,
      string
    >
  )[action] ??
  action;

/** The order's history, oldest first: who moved it from which state to which, with their words. */
export function EventTimeline({ events }: { events: readonly OrderEventRow[] }) {
  if (!events.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.nothing} />;
  return (
    <Timeline
      items={events.map((e) => ({
        key: e.id,
        content: (
          <div>
            <Typography.Text strong>{actionLabel(e.action)}</Typography.Text>{' '}
            <Typography.Text type="secondary">
              {e.fromStatus ? `${SERVICE_ORDER_STATUS_LABELS[e.fromStatus]} → ` : ''}
              {SERVICE_ORDER_STATUS_LABELS[e.toStatus]} · {e.actor ?? T.none} · {formatTime(e.at)}
            </Typography.Text>
            {e.opinion ? <div>{e.opinion}</div> : null}
          </div>
        ),
      }))}
    />
  );
}

/** Complaints with their deadline and reply; `onReply` adds 答复 to the open ones. */
export function ComplaintList({
  complaints,
  onReply,
}: {
  complaints: readonly ComplaintRow[];
  onReply?: (c: ComplaintRow) => void;
}) {
  if (!complaints.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.nothing} />;
  return (
    <Flex vertical gap={12}>
      {complaints.map((c) => (
        <div
          key={c.id}
          data-testid={`complaint-${c.id}`}
          style={{ borderBottom: '1px solid rgba(5, 5, 5, 0.06)', paddingBottom: 12 }}
        >
          <Flex justify="space-between" align="center" wrap gap={8}>
            <span>
              <Tag color={c.status === 'OPEN' ? 'warning' : 'success'}>
                {c.status === 'OPEN' ? T.open : T.replied}
              </Tag>
              {c.overdue ? <Tag color="error">{T.overdue}</Tag> : null}
              <Typography.Text type="secondary">
                {c.createdBy ?? ''} {c.complainedOn} · {T.complaintDeadline} {c.deadline}
              </Typography.Text>
            </span>
            {onReply && c.status === 'OPEN' ? (
              <Button type="link" size="small" onClick={() => onReply(c)}>
                {T.reply}
              </Button>
            ) : null}
          </Flex>
          <div style={{ marginTop: 4, whiteSpace: 'pre-wrap' }}>{c.content}</div>
          {c.reply ? (
            <div style={{ marginTop: 4 }}>
              <Typography.Text strong>{T.reply}：</Typography.Text>
              {c.reply}
              <Typography.Text type="secondary">
                {' '}
                （{c.repliedBy ?? ''} {c.repliedAt ? formatTime(c.repliedAt) : ''}）
              </Typography.Text>
            </div>
          ) : null}
        </div>
      ))}
    </Flex>
  );
}
