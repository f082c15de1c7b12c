// Under the policy's facts: when it can be renewed (open now, opening on a day, or lapsed) and, for the roles
// that see prevention records, the way to the policy's accident-prevention services (YF + policy number).
import { Alert, Space, Typography } from 'antd';
import { Link } from 'react-router';
import { preventionPath } from '@/features/risk-control/api.ts';
import { Can } from '@/lib/permission.tsx';
import { renewalHint } from './RenewButton.tsx';

export function PolicyLifecycle({
  policy,
  today,
}: {
  policy: { number: string; endDate: string; status: string };
  /** Today (Asia/Shanghai), for tests; defaults to now. */
  today?: string;
}) {
  const hint = renewalHint(policy, today);
  return (
    <Space orientation="vertical" style={{ width: '100%', marginTop: 12 }} data-testid="policy-lifecycle">
      {hint ? <Alert type="info" showIcon title={hint} /> : null}
      <Can code="prevention:list">
        <Typography.Text>
          事故预防服务：<Link to={preventionPath(`YF${policy.number}`)}>查看本保单的预防服务</Link>
        </Typography.Text>
      </Can>
    </Space>
  );
}
