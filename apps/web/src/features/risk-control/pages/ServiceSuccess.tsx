// 服务完成 (riskControl/ServiceSuccess, route prevention/success/:seqNo?order=<order number>): the result after
// the organisation submits its record (waiting for the enterprise) or the enterprise confirms a service (the
// cost is now spent from the fund), with the way on: the order, the prevention record, the list.
import { formatFen } from '@piibs/shared/money';
import { Button, Card, Result, Space } from 'antd';
import { useNavigate } from 'react-router';
import { preventionPath, SERVICE_LIST_PATH, viewPath } from '../api.ts';
import { FundSummary } from '../components/FundSummary.tsx';
import { useOrderPage } from '../components/useOrderPage.tsx';
import { RISK_TEXTS as T } from '../texts.ts';

export default function ServiceSuccess() {
  const page = useOrderPage();
  const navigate = useNavigate();
  const order = page.order;
  if (!order) return <>{page.fallback}</>;

  const confirmed = order.status === 'CONFIRMED' || order.status === 'CLOSED';
  const submitted = order.status === 'SUBMITTED';
  const title = confirmed
    ? T.confirmedTitle
    : submitted
      ? T.submittedTitle
      : T.otherStatus(order.statusLabel);
  const subTitle = confirmed
    ? T.confirmedSub(order.number, formatFen(order.costFen))
    : submitted
      ? T.submittedSub(order.number)
      : undefined;

  return (
    <div style={{ padding: 16 }}>
      <Card variant="borderless">
        <Result
          status={confirmed || submitted ? 'success' : 'info'}
          title={title}
          subTitle={subTitle}
          extra={
            <Space wrap>
              <Button type="primary" onClick={() => navigate(viewPath(order.seqNo, order.number))}>
                {T.toView}
              </Button>
              <Button onClick={() => navigate(preventionPath(order.seqNo))}>{T.goPrevention}</Button>
              <Button onClick={() => navigate(SERVICE_LIST_PATH)}>{T.toList}</Button>
            </Space>
          }
        />
        {confirmed ? <FundSummary fund={order.fund} /> : null}
      </Card>
    </div>
  );
}
