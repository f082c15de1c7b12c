// The pieces of a policy (保单) the policy view and the payment pages show: its facts, coverages, co-insurers,
// e-policy and verification, payments, application and history; and the e-policy download button.
import { DownloadOutlined } from '@ant-design/icons';
import type { ApplicationEventRow } from '@piibs/shared/application';
import { APPLICATION_STATUS_LABELS, CHANNEL_LABELS } from '@piibs/shared/application-status';
import { formatTime } from '@piibs/shared/constants';
import { fileSizeText } from '@piibs/shared/material';
import { formatFen, microPercentText } from '@piibs/shared/money';
import { PAYMENT_ORDER_STATUS_LABELS, type PaymentOrderStatus, type PaymentRow } from '@piibs/shared/payment';
import {
  type CoverTable,
  coverTableOf,
  type PolicyCoinsurer,
  type PolicyCoverage,
  type PolicyDetail,
  type PolicyStatus,
  periodText,
} from '@piibs/shared/policy';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, type ButtonProps, Descriptions, Empty, Spin, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { DetailTable } from '@/components/crud/DetailTable.tsx';
import { serverError } from '@/components/crud/resource.ts';
import { ApplicationStatusTag } from '@/features/application/components/ApplicationStatusTag.tsx';
import { downloadPolicyPdf, policyQuery } from '../api.ts';
import { POLICY_TEXTS as T } from '../texts.ts';

const POLICY_STATUS_COLORS: Record<PolicyStatus, string> = {
  ISSUED: 'processing',
  IN_FORCE: 'success',
  EXPIRED: 'default',
  CANCELLED: 'error',
};

export function PolicyStatusTag({ status, label }: { status: PolicyStatus; label: string }) {
  return <Tag color={POLICY_STATUS_COLORS[status]}>{label}</Tag>;
}

const ORDER_STATUS_COLORS: Record<PaymentOrderStatus, string> = {
  PENDING: 'warning',
  PAID: 'success',
  EXPIRED: 'default',
  CANCELLED: 'default',
};

/** A payment order's state; an unknown one (the application detail types it as a string) shows as sent. */
export function PaymentOrderStatusTag({ status }: { status: string }) {
  const known = status in PAYMENT_ORDER_STATUS_LABELS ? (status as PaymentOrderStatus) : null;
  return (
    <Tag color={known ? ORDER_STATUS_COLORS[known] : 'default'}>
      {known ? PAYMENT_ORDER_STATUS_LABELS[known] : status}
    </Tag>
  );
}

/** The facts printed on the policy: parties, product, period, money. */
export function PolicyFacts({ policy }: { policy: PolicyDetail }) {
  return (
    <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} bordered>
      <Descriptions.Item label={T.number}>
        <Typography.Text strong copyable data-testid="policy-number">
          {policy.number}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={T.status}>
        <PolicyStatusTag status={policy.status} label={policy.statusLabel} />
      </Descriptions.Item>
      <Descriptions.Item label={T.product}>{policy.productName}</Descriptions.Item>
      <Descriptions.Item label={T.holder}>{policy.holderName}</Descriptions.Item>
      <Descriptions.Item label={T.holderUscc}>{policy.holderUscc}</Descriptions.Item>
      <Descriptions.Item label={T.insured}>{policy.insuredName}</Descriptions.Item>
      {policy.insuredUscc ? (
        <Descriptions.Item label={T.insuredUscc}>{policy.insuredUscc}</Descriptions.Item>
      ) : null}
      {policy.insuredIdNumber ? (
        <Descriptions.Item label={T.insuredIdNumber}>{policy.insuredIdNumber}</Descriptions.Item>
      ) : null}
      <Descriptions.Item label={T.insuredAddress}>{policy.insuredAddress ?? T.none}</Descriptions.Item>
      <Descriptions.Item label={T.period} span="filled">
        {periodText(policy.startDate, policy.endDate)}
      </Descriptions.Item>
      {policy.headcount !== null ? (
        <Descriptions.Item label={T.headcount}>{policy.headcount} 人</Descriptions.Item>
      ) : null}
      {policy.projectName ? (
        <Descriptions.Item label={T.project}>{policy.projectName}</Descriptions.Item>
      ) : null}
      <Descriptions.Item label={T.premium}>
        <Typography.Text strong data-testid="policy-premium">
          {formatFen(policy.premiumFen)}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item
        label={
          policy.preventionRatio !== null
            ? `${T.preventionFee}（${microPercentText(policy.preventionRatio)}%）`
            : T.preventionFee
        }
      >
        <span data-testid="policy-prevention-fee">{formatFen(policy.preventionFeeFen)}</span>
      </Descriptions.Item>
      <Descriptions.Item label={T.issuedAt}>{formatTime(policy.issuedAt)}</Descriptions.Item>
      <Descriptions.Item label={T.applicationNumber}>{policy.applicationNumber}</Descriptions.Item>
      {policy.specialTerms ? (
        <Descriptions.Item label={T.specialTerms} span="filled">
          {policy.specialTerms}
        </Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}

/**
 * The covers as insured, as the e-policy prints them (coverTableOf): limits, deductible and each one's premium,
 * or, when the premium is not split by cover, the total once under the table.
 */
export function PolicyCoverageTable({
  coverages,
  premiumFen,
}: {
  coverages: PolicyCoverage[];
  premiumFen: number;
}) {
  const t = coverTableOf(coverages, premiumFen);
  return (
    <DetailTable<CoverTable['rows'][number]>
      noun="保险责任"
      size="small"
      rowKey="key"
      dataSource={t.rows}
      scroll={{ x: 'max-content' }}
      data-testid="policy-covers"
      columns={t.columns.map((title, i) => ({
        key: String(i),
        title,
        align: i === 0 ? 'left' : 'right',
        render: (_: unknown, row) => row.cells[i],
      }))}
      footer={t.premiumNote ? () => t.premiumNote : undefined}
    />
  );
}

/** The covers of a policy read by its id (a project's 项目保单 view). */
export function PolicyCovers({ policyId }: { policyId: number }) {
  const query = useQuery(policyQuery(policyId));
  if (query.isPending) return <Spin />;
  if (!query.data) {
    const error = serverError(query.error);
    return (
      <Alert type="warning" showIcon title={!error || error.status === 404 ? T.missing : error.message} />
    );
  }
  return <PolicyCoverageTable coverages={query.data.coverages} premiumFen={query.data.premiumFen} />;
}

/** The co-insurers as the policy records them (names as at issue): share, premium and prevention fee. */
export function PolicyCoinsurerTable({ rows }: { rows: PolicyCoinsurer[] }) {
  return (
    <DetailTable
      noun="共保公司"
      size="small"
      rowKey="insurerCode"
      dataSource={rows}
      locale={{ emptyText: T.noCoinsurers }}
      columns={[
        {
          key: 'insurer',
          title: T.insurer,
          render: (_: unknown, c) => c.insurerName ?? c.insurerCode,
        },
        {
          key: 'lead',
          title: T.lead,
          dataIndex: 'lead',
          render: (lead: boolean) => (lead ? T.leadYes : T.leadNo),
        },
        { key: 'share', title: T.share, dataIndex: 'shareText', render: (v: string) => `${v}%` },
        { key: 'premium', title: T.premium, dataIndex: 'premiumFen', render: (v: number) => formatFen(v) },
        {
          key: 'prevention',
          title: T.preventionFee,
          dataIndex: 'preventionFeeFen',
          render: (v: number) => formatFen(v),
        },
      ]}
    />
  );
}

/** Downloads the e-policy PDF; a refusal is notified by the HTTP client's error policy. */
export function DownloadPolicyButton({
  policyId,
  number,
  children = T.download,
  ...props
}: { policyId: number; number: string } & Omit<ButtonProps, 'onClick' | 'loading'>) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadPolicyPdf(policyId, number);
    } catch {
      // The HTTP client has already shown what went wrong.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined />} {...props} loading={busy} onClick={() => void download()}>
      {children}
    </Button>
  );
}

/** The e-policy (download, size, SHA-256) and its verification code and public link. */
export function PolicyDocument({ policy }: { policy: PolicyDetail }) {
  const verifyUrl = `${window.location.origin}${policy.verifyPath}`;
  return (
    <Descriptions size="small" column={1} bordered>
      <Descriptions.Item label={T.document}>
        <DownloadPolicyButton policyId={policy.id} number={policy.number} type="primary" />
        <Typography.Text type="secondary" style={{ marginLeft: 12, display: 'inline-block' }}>
          {T.documentSize}：{fileSizeText(policy.document.sizeBytes)}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={T.sha256}>
        <Typography.Text code copyable data-testid="policy-sha256" style={{ wordBreak: 'break-all' }}>
          {policy.document.sha256}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={T.verificationCode}>
        <Typography.Text code copyable data-testid="policy-verification-code">
          {policy.verificationCode}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={T.verifyLink}>
        <Typography.Link href={policy.verifyPath} target="_blank" rel="noopener noreferrer">
          {verifyUrl}
        </Typography.Link>
        <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
          {T.verifyHint}
        </Typography.Paragraph>
      </Descriptions.Item>
    </Descriptions>
  );
}

/** The settled payments of the policy's application. */
export function PolicyPaymentsTable({ rows }: { rows: PaymentRow[] }) {
  return (
    <DetailTable
      noun="支付记录"
      size="small"
      rowKey="id"
      dataSource={rows}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: T.noPayments }}
      columns={[
        { key: 'order', title: T.paymentOrder, dataIndex: 'orderNumber' },
        { key: 'provider', title: T.provider, dataIndex: 'providerLabel' },
        { key: 'tradeNo', title: T.tradeNo, dataIndex: 'tradeNo' },
        { key: 'amount', title: T.amount, dataIndex: 'amountFen', render: (v: number) => formatFen(v) },
        { key: 'paidAt', title: T.paidAt, dataIndex: 'paidAt', render: (v: string) => formatTime(v) },
        {
          key: 'source',
          title: T.source,
          dataIndex: 'source',
          render: (v: PaymentRow['source']) => (v === 'notify' ? T.sourceNotify : T.sourceQuery),
        },
      ]}
    />
  );
}

/** The application the policy was issued from. */
export function PolicyApplicationFacts({ application }: { application: PolicyDetail['application'] }) {
  return (
    <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} bordered>
      <Descriptions.Item label={T.applicationNumber}>{application.number}</Descriptions.Item>
      <Descriptions.Item label={T.applicationStatus}>
        <ApplicationStatusTag status={application.status} />
      </Descriptions.Item>
      <Descriptions.Item label={T.channel}>{CHANNEL_LABELS[application.channel]}</Descriptions.Item>
      <Descriptions.Item label={T.submittedAt}>
        {application.submittedAt ? formatTime(application.submittedAt) : T.none}
      </Descriptions.Item>
      <Descriptions.Item label={T.owner}>{application.ownerName ?? T.none}</Descriptions.Item>
    </Descriptions>
  );
}

const EVENT_LABELS: Record<string, string> = {
  create: '创建投保单',
  submit: '提交审核',
  approve: '审核通过',
  return: '审核退回',
  decline: '拒保',
  cancel: '撤销',
  pay: '支付成功',
  expire: '支付单过期',
  issue: '出具保单',
};

const REVIEW_ACTIONS = new Set(['approve', 'return', 'decline']);

/** The application's history through payment and issue, oldest first. */
export function PolicyTimeline({ events }: { events: ApplicationEventRow[] }) {
  if (!events.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.noHistory} />;
  return (
    <Timeline
      items={events.map((e) => ({
        key: e.id,
        color:
          e.toStatus === 'DECLINED' || e.toStatus === 'RETURNED'
            ? 'red'
            : e.toStatus === 'ISSUED'
              ? 'green'
              : 'blue',
        content: (
          <>
            <div>
              {formatTime(e.at)} {e.actor ?? '系统'} {EVENT_LABELS[e.action] ?? e.action} →{' '}
              {APPLICATION_STATUS_LABELS[e.toStatus]}
            </div>
            {e.opinion ? (
              <div style={{ opacity: 0.75 }}>
                {REVIEW_ACTIONS.has(e.action) ? '意见' : '说明'}：{e.opinion}
              </div>
            ) : null}
          </>
        ),
      }))}
    />
  );
}
