import { formatTime } from '@piibs/shared/constants';
import { type PolicyChangeView, policyChangeAuditPath } from '@piibs/shared/policy-change';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Space, Table, Tag, Typography } from 'antd';
import { Link, useNavigate } from 'react-router';
import { CrudPage } from '@/components/crud/CrudPage.tsx';
import { errorMessage } from '@/components/crud/resource.ts';
import { policyChangeReviewsQuery, policyViewPath } from '@/features/policy/api.ts';
import { useActionsFixed } from '@/lib/use-phone.ts';
import { kindWords, premiumDeltaWords } from '../components/PolicyChangeFacts.tsx';

/**
 * 批改审核 (task/PolicyChangeReviews): the endorsements (批改) and cancellations (退保) of issued policies waiting
 * for the underwriter, oldest first — the request and policy numbers, the policyholder, the product, what changes
 * in words, the effective date, the additional premium or refund, when it was asked; 审核 opens the request.
 */
export default function PolicyChangeReviews() {
  const navigate = useNavigate();
  const query = useQuery(policyChangeReviewsQuery());
  const actionsFixed = useActionsFixed();
  return (
    <CrudPage
      title="待核保的批改与退保申请"
      extra={
        <Button onClick={() => void query.refetch()} loading={query.isFetching}>
          刷新
        </Button>
      }
    >
      {query.isError ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={errorMessage(query.error)}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <Table<PolicyChangeView>
        rowKey="id"
        size="middle"
        loading={query.isPending}
        dataSource={query.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showTotal: (n) => `共 ${n} 件` }}
        scroll={{ x: 'max-content' }}
        // antd draws a plain empty text in colorTextDisabled (2.2:1 in dark mode): the secondary grey reads 4.5:1.
        locale={{ emptyText: <Typography.Text type="secondary">暂无待核保的批改或退保申请</Typography.Text> }}
        columns={[
          {
            key: 'number',
            title: '申请号',
            render: (_, r) => <Typography.Text strong>{r.number}</Typography.Text>,
          },
          {
            key: 'policy',
            title: '保单号',
            render: (_, r) => <Link to={policyViewPath(r.policyId)}>{r.policyNumber}</Link>,
          },
          { key: 'holder', title: '投保人', dataIndex: 'holderName' },
          { key: 'product', title: '产品', dataIndex: 'productName' },
          { key: 'kind', title: '类型', render: (_, r) => kindWords(r) },
          {
            key: 'changes',
            title: '变更内容',
            render: (_, r) => (
              <Space orientation="vertical" size={0}>
                {r.changes.map((c) => (
                  <span key={c.field}>
                    {c.label}：{c.before} → {c.after}
                  </span>
                ))}
              </Space>
            ),
          },
          { key: 'effective', title: '生效日期', dataIndex: 'effectiveDate' },
          { key: 'delta', title: '保费增减', render: (_, r) => premiumDeltaWords(r.premiumDeltaFen) },
          { key: 'createdAt', title: '提交时间', render: (_, r) => formatTime(r.createdAt) },
          {
            key: 'status',
            title: '状态',
            render: (_, r) => (
              <Tag color={r.status === 'PENDING_REVIEW' ? 'processing' : 'default'}>{r.statusLabel}</Tag>
            ),
          },
          {
            key: 'actions',
            title: '操作',
            fixed: actionsFixed,
            render: (_, r) => (
              <Button type="link" size="small" onClick={() => navigate(policyChangeAuditPath(r.id))}>
                审核
              </Button>
            ),
          },
        ]}
      />
    </CrudPage>
  );
}
