import { formatTime } from '@piibs/shared/constants';
import type { HistoryApplication, HistoryPolicy } from '@piibs/shared/customer-history';
import { formatFen } from '@piibs/shared/money';
import { useQuery } from '@tanstack/react-query';
import { Spin, Typography } from 'antd';
import type { ReactNode } from 'react';
import { DetailTable } from '@/components/crud/DetailTable.tsx';
import { serverError } from '@/components/crud/resource.ts';
import { viewPathOf } from '@/features/application/flows.ts';
import { customerHistoryQuery } from '@/features/customer/api.ts';
import { PageLink } from '@/features/dashboard/components/links.tsx';
import { policyViewPath } from '@/features/policy/api.ts';
import { useUserStore } from '@/stores/user.ts';
import { AuditSection } from './AuditSection.tsx';

/** “共 N 份”, and which of them are shown when not all are. */
const countText = (shown: number, total: number) =>
  total > shown ? `共 ${total} 份，显示最近 ${shown} 份` : `共 ${total} 份`;

/**
 * 客户历史: the customer's earlier policies and applications, newest first, each linked where the caller may
 * open it; `exclude` is the application under review.
 */
export function CustomerHistory({ customerId, exclude }: { customerId: number; exclude?: number }) {
  const query = useQuery(customerHistoryQuery(customerId, exclude));
  const roles = useUserStore((s) => s.roles);
  const history = query.data;

  let body: ReactNode;
  if (query.isPending) body = <Spin />;
  else if (query.isError || !history)
    body = (
      <Typography.Text type="danger">
        {serverError(query.error)?.message ?? '客户历史加载失败'}
      </Typography.Text>
    );
  else
    body = (
      <>
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          历史保单（{countText(history.policies.content.length, history.policies.totalElements)}）
        </Typography.Title>
        <DetailTable<HistoryPolicy>
          noun="历史保单"
          size="small"
          rowKey="id"
          scroll={{ x: 'max-content' }}
          dataSource={history.policies.content}
          locale={{ emptyText: '暂无保单' }}
          columns={[
            {
              key: 'number',
              title: '保单号',
              render: (_: unknown, p) => <PageLink to={policyViewPath(p.id)}>{p.number}</PageLink>,
            },
            { key: 'product', title: '险种', dataIndex: 'productName' },
            {
              key: 'period',
              title: '保险期间',
              render: (_: unknown, p) => `${p.startDate} 至 ${p.endDate}`,
            },
            {
              key: 'premium',
              title: '保费',
              align: 'right',
              render: (_: unknown, p) => formatFen(p.premiumFen),
            },
            { key: 'status', title: '状态', dataIndex: 'statusLabel' },
          ]}
        />
        <Typography.Title level={5}>
          历史投保单（{countText(history.applications.content.length, history.applications.totalElements)}）
        </Typography.Title>
        <DetailTable<HistoryApplication>
          noun="历史投保单"
          size="small"
          rowKey="id"
          scroll={{ x: 'max-content' }}
          dataSource={history.applications.content}
          locale={{ emptyText: '暂无其他投保单' }}
          columns={[
            {
              key: 'number',
              title: '投保单号',
              render: (_: unknown, a) => <PageLink to={viewPathOf(a, roles)}>{a.number}</PageLink>,
            },
            { key: 'product', title: '险种', dataIndex: 'productName' },
            {
              key: 'submittedAt',
              title: '提交日期',
              render: (_: unknown, a) => formatTime(a.submittedAt, '{y}-{m}-{d}'),
            },
            { key: 'outcome', title: '结果', dataIndex: 'statusLabel' },
          ]}
        />
      </>
    );

  return <AuditSection title="客户历史">{body}</AuditSection>;
}
