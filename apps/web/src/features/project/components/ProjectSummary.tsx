// Read-only pieces of project insurance: an annual order's quota and facts, a declaration's facts, quote and
// history, the policies issued under an order.
import { formatTime } from '@piibs/shared/constants';
import { formatFen } from '@piibs/shared/money';
import {
  type AnnualOrderDetail,
  type AnnualOrderRow,
  type AnnualOrderState,
  applyPath,
  DECLARATION_KIND_LABELS,
  type DeclarationDetail,
  type DeclarationEvent,
  type DeclarationKind,
  type DeclarationStatus,
  type ProjectPolicyRow,
  premiumDiffText,
} from '@piibs/shared/project-order';
import { Col, Descriptions, Empty, Progress, Row, Statistic, Tag, Timeline } from 'antd';
import { Link } from 'react-router';
import { DetailTable } from '@/components/crud/DetailTable.tsx';
import { QuoteBreakdown } from '@/features/application/components/QuoteBreakdown.tsx';
import { viewPathOf } from '@/features/application/flows.ts';
import { policyViewPath } from '@/features/policy/api.ts';
import { DownloadPolicyButton } from '@/features/policy/components/PolicySummary.tsx';
import { useUserStore } from '@/stores/user.ts';

const STATUS_COLORS: Record<DeclarationStatus, string> = {
  DRAFT: 'default',
  PENDING_REVIEW: 'processing',
  RETURNED: 'warning',
  APPROVED: 'success',
  REJECTED: 'error',
  CANCELLED: 'default',
};
const STATE_COLORS: Record<AnnualOrderState, string> = {
  PENDING: 'default',
  ACTIVE: 'success',
  EXPIRED: 'default',
  CLOSED: 'error',
};

export function DeclarationStatusTag({ status, label }: { status: DeclarationStatus; label: string }) {
  return <Tag color={STATUS_COLORS[status]}>{label}</Tag>;
}

export function OrderStateTag({ state, label }: { state: AnnualOrderState; label: string }) {
  return <Tag color={STATE_COLORS[state]}>{label}</Tag>;
}

/** The quota of an annual order: what it allows, what its declarations hold, what is left. */
export function QuotaSummary({ order }: { order: AnnualOrderRow }) {
  const percent =
    order.quotaFen > 0 ? Math.min(100, Math.round((order.consumedFen * 1000) / order.quotaFen) / 10) : 0;
  return (
    <Row gutter={[16, 16]} align="middle">
      <Col xs={24} md={6}>
        <div data-testid="quota-total">
          <Statistic title="保费额度" value={formatFen(order.quotaFen)} />
        </div>
      </Col>
      <Col xs={24} md={6}>
        <div data-testid="quota-consumed">
          <Statistic title="已占用保费" value={formatFen(order.consumedFen)} />
        </div>
      </Col>
      <Col xs={24} md={6}>
        <div data-testid="quota-remaining">
          <Statistic title="剩余额度" value={formatFen(order.remainingFen)} />
        </div>
      </Col>
      <Col xs={24} md={6}>
        <Progress
          type="dashboard"
          size={96}
          percent={percent}
          status={order.remainingFen <= 0 ? 'exception' : 'normal'}
          format={(p) => `已用 ${p}%`}
          aria-label="额度占用比例"
        />
      </Col>
    </Row>
  );
}

/**
 * Who, what product, which period: the facts of an annual order, with its contact and, when it was made from
 * an epinsure application, that application and its policy.
 */
export function OrderFacts({
  order,
}: {
  order: AnnualOrderRow & Partial<Pick<AnnualOrderDetail, 'sourcePolicyId' | 'sourcePolicyNumber'>>;
}) {
  const roles = useUserStore((state) => state.roles);
  return (
    <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} bordered>
      <Descriptions.Item label="年度订单号">{order.number}</Descriptions.Item>
      <Descriptions.Item label="施工企业">{order.customerName}</Descriptions.Item>
      <Descriptions.Item label="统一社会信用代码">{order.customerUscc}</Descriptions.Item>
      <Descriptions.Item label="险种">{order.productName}</Descriptions.Item>
      <Descriptions.Item label="订单期间">
        {order.startDate} 至 {order.endDate}
      </Descriptions.Item>
      <Descriptions.Item label="状态">
        <OrderStateTag state={order.state} label={order.stateLabel} />
      </Descriptions.Item>
      <Descriptions.Item label="已申报项目">{order.declaredCount} 个</Descriptions.Item>
      <Descriptions.Item label="已承保项目">{order.approvedCount} 个</Descriptions.Item>
      <Descriptions.Item label="已承保工程造价">{formatFen(order.approvedCostFen)}</Descriptions.Item>
      <Descriptions.Item label="联系人">{order.contactName ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="联系电话">{order.contactPhone ?? '—'}</Descriptions.Item>
      {order.closedAt ? (
        <Descriptions.Item label="关闭时间">{formatTime(order.closedAt)}</Descriptions.Item>
      ) : null}
      {order.applicationId && order.applicationNumber ? (
        <Descriptions.Item label="来源投保单">
          <Link
            to={viewPathOf({ id: order.applicationId, policyholderType: 1 }, roles)}
            data-testid="order-source-application"
          >
            {order.applicationNumber}
          </Link>
          {order.sourcePolicyId && order.sourcePolicyNumber ? (
            <>
              {'（保单 '}
              <Link to={policyViewPath(order.sourcePolicyId)}>{order.sourcePolicyNumber}</Link>
              {'）'}
            </>
          ) : null}
        </Descriptions.Item>
      ) : null}
      {order.note ? (
        <Descriptions.Item label="备注" span={3}>
          {order.note}
        </Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}

/** A declaration as declared: the project, its period and what it costs. */
export function DeclarationFacts({ declaration: d }: { declaration: DeclarationDetail }) {
  return (
    <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} bordered>
      <Descriptions.Item label="申报单号">{d.number}</Descriptions.Item>
      <Descriptions.Item label="申报类型">
        {DECLARATION_KIND_LABELS[d.kind as DeclarationKind] ?? d.kind}
        {d.baseId && d.baseNumber ? (
          <>
            {'（批改项目 '}
            <Link to={applyPath(d.baseId, { detail: true })}>{d.baseNumber}</Link>
            {'）'}
          </>
        ) : null}
      </Descriptions.Item>
      <Descriptions.Item label="状态">
        <DeclarationStatusTag status={d.status} label={d.statusLabel} />
      </Descriptions.Item>
      <Descriptions.Item label="年度订单">{d.annualOrderNumber}</Descriptions.Item>
      <Descriptions.Item label="施工企业">{d.customerName}</Descriptions.Item>
      <Descriptions.Item label="申报人">{d.ownerName ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="工程名称" span={2}>
        {d.projectName}
      </Descriptions.Item>
      <Descriptions.Item label="工程造价">
        <span data-testid="project-cost">{formatFen(d.projectCostFen)}</span>
      </Descriptions.Item>
      <Descriptions.Item label="工程地址" span={2}>
        {d.projectAddress}
      </Descriptions.Item>
      <Descriptions.Item label="危大工程">{d.highRisk ? '是' : '否'}</Descriptions.Item>
      <Descriptions.Item label="保险期间" span={2}>
        自 {d.startDate} 零时起至 {d.endDate} 二十四时止
      </Descriptions.Item>
      <Descriptions.Item label="施工人数">{d.headcount ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="保费">
        <span data-testid="declaration-premium">{formatFen(d.premiumFen)}</span>
      </Descriptions.Item>
      {d.premiumDiffFen !== null ? (
        <Descriptions.Item label="保费差额">{premiumDiffText(d.premiumDiffFen)}</Descriptions.Item>
      ) : null}
      <Descriptions.Item label="占用额度">{formatFen(d.reservedFen)}</Descriptions.Item>
      <Descriptions.Item label="提交时间">
        {d.submittedAt ? formatTime(d.submittedAt) : '—'}
      </Descriptions.Item>
    </Descriptions>
  );
}

/** The stored quote: band by band, the loading and the prevention fee. */
export function DeclarationQuote({ declaration: d }: { declaration: DeclarationDetail }) {
  if (!d.quote) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无报价" />;
  return (
    <QuoteBreakdown
      quote={d.quote}
      preventionRatio={d.quote.preventionRatio}
      preventionFeeFen={d.quote.preventionFeeFen}
      tableText={`第 ${d.quote.rateTableVersion} 版（${d.quote.effectiveDate} 生效）`}
    />
  );
}

/** The declaration's history: who did what, when, with the reviewer's opinions. */
export function DeclarationTimeline({ events }: { events: readonly DeclarationEvent[] }) {
  if (events.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无记录" />;
  return (
    <Timeline
      items={events.map((e, i) => ({
        key: i,
        color: e.action === 'review_reject' ? 'red' : e.action === 'review_return' ? 'orange' : 'blue',
        content: (
          <>
            <div>
              {formatTime(e.at)} {e.actor ?? ''} {e.actionLabel}
              {e.premiumFen !== null ? `（保费 ${formatFen(e.premiumFen)}）` : ''}
            </div>
            {e.opinion ? <div style={{ opacity: 0.75 }}>{e.opinion}</div> : null}
          </>
        ),
      }))}
    />
  );
}

/** The policies issued under an annual order, each with its e-policy. */
export function ProjectPolicies({ policies }: { policies: readonly ProjectPolicyRow[] }) {
  return (
    <DetailTable<ProjectPolicyRow>
      noun="项目保单"
      size="small"
      rowKey="policyId"
      dataSource={[...policies]}
      locale={{ emptyText: '暂无已出具的项目保单' }}
      scroll={{ x: 'max-content' }}
      columns={[
        {
          key: 'number',
          title: '保单号',
          dataIndex: 'number',
          render: (number: string, row) => <Link to={policyViewPath(row.policyId)}>{number}</Link>,
        },
        { key: 'projectName', title: '工程名称', dataIndex: 'projectName' },
        { key: 'premium', title: '保费', dataIndex: 'premiumFen', render: (fen: number) => formatFen(fen) },
        {
          key: 'period',
          title: '保险期间',
          render: (_, row) => `${row.startDate} 至 ${row.endDate}`,
        },
        { key: 'issuedAt', title: '出单时间', dataIndex: 'issuedAt', render: (v: string) => formatTime(v) },
        {
          key: 'download',
          title: '电子保单',
          render: (_, row) => (
            <DownloadPolicyButton policyId={row.policyId} number={row.number} size="small" type="link">
              下载
            </DownloadPolicyButton>
          ),
        },
      ]}
    />
  );
}
