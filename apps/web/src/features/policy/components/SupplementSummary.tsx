import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Empty } from 'antd';
import { useNavigate } from 'react-router';
import { useCan } from '@/lib/permission.tsx';
import { margePath, policySalesQuery } from '../api.ts';

/**
 * 销售补录信息 of a policy, for those who may read supplements (`sales:list`): salesperson, agent, commission,
 * business source, with a link to the 补录 page. Nothing is shown (or fetched) for anybody else.
 */
export function SupplementSummary({ policyId }: { policyId: number }) {
  const allowed = useCan('sales:list');
  const navigate = useNavigate();
  const query = useQuery({ ...policySalesQuery(policyId), enabled: allowed });
  if (!allowed) return null;
  const s = query.data?.supplement;
  return (
    <Card
      variant="borderless"
      title="销售补录信息"
      loading={query.isPending}
      extra={
        <Button type="link" onClick={() => navigate(margePath(policyId, Boolean(s), s?.variant))}>
          {s ? '查看补录' : '去补录'}
        </Button>
      }
    >
      {s ? (
        <Descriptions size="small" column={{ xs: 1, md: 3 }}>
          <Descriptions.Item label="销售人员">
            {s.salespersonName}（{s.salespersonNo}）
          </Descriptions.Item>
          <Descriptions.Item label="代理人">{s.agentName ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="手续费比例">{s.commissionRateText}%</Descriptions.Item>
          <Descriptions.Item label="业务来源">{s.businessSourceLabel ?? s.businessSource}</Descriptions.Item>
          <Descriptions.Item label="补录人">{s.updatedBy ?? '—'}</Descriptions.Item>
        </Descriptions>
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={query.isError ? '补录信息加载失败' : '尚未补录销售信息'}
        />
      )}
    </Card>
  );
}
