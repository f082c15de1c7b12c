// 支付 (/piibs/insured/viewInsuranceCA/:id): an approved application's payment order, with a live countdown to
// its expiry and 「去支付」, which opens the charge on the server and sends the browser to the gateway's cashier.
// The gateway sends the payer back to insured/paymentWebResult, which asks the server what happened.
import { formatTime } from '@piibs/shared/constants';
import { formatFen } from '@piibs/shared/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Result, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { errorMessage, serverError } from '@/components/crud/resource.ts';
import { applicationQuery } from '@/features/application/api.ts';
import {
  ApplicationFacts,
  ApplicationPremium,
} from '@/features/application/components/ApplicationSummary.tsx';
import { INSURE_LIST_PATH, viewPathOf } from '@/features/application/flows.ts';
import { useUserStore } from '@/stores/user.ts';
import {
  isSafeCashierUrl,
  paymentResultPath,
  paymentResultQuery,
  policyViewPath,
  startPayment,
} from '../api.ts';
import { PaymentOrderStatusTag } from '../components/PolicySummary.tsx';
import { remainingText, useNow } from '../countdown.ts';
import { type PayState, payStateOf } from '../payment-state.ts';
import { PAYMENT_TEXTS as T } from '../texts.ts';

export default function ViewInsuranceCA() {
  const params = useParams();
  const id = Number(params.id ?? 0) || 0;
  const navigate = useNavigate();
  const client = useQueryClient();
  const roles = useUserStore((s) => s.roles);
  const query = useQuery({ ...applicationQuery(id), enabled: id > 0 });
  const app = query.data;
  const order = app?.paymentOrder ?? null;
  const waiting = order?.status === 'PENDING' && app?.status === 'PENDING_PAYMENT';
  const now = useNow(waiting);
  const state: PayState | null = app ? payStateOf(app, now) : null;
  // Paid: the payment's answer names the policy (issued shortly after payment).
  const payment = useQuery({
    ...paymentResultQuery(order?.number ?? ''),
    enabled: state === 'paid' && order !== null,
  });
  const [starting, setStarting] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  // The countdown ran out: ask the server again (its expiry job may have closed the order meanwhile).
  const ranOut = waiting && state === 'expired';
  useEffect(() => {
    if (ranOut) void client.invalidateQueries({ queryKey: applicationQuery(id).queryKey });
  }, [ranOut, client, id]);

  if (id > 0 && query.isPending) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  if (!app || !state) {
    const error = serverError(query.error);
    return (
      <Result
        status="warning"
        title={!error || error.status === 404 ? T.applicationMissing : error.message}
        extra={<Button onClick={() => navigate(INSURE_LIST_PATH)}>{T.backToList}</Button>}
      />
    );
  }

  const pay = async () => {
    setStarting(true);
    setRefusal(null);
    try {
      const charge = await startPayment(app.id);
      if (isSafeCashierUrl(charge.cashierUrl)) {
        // Leaving the app: the button stays busy until the cashier page replaces this one.
        window.location.assign(charge.cashierUrl);
        return;
      }
      setRefusal(T.badCashierUrl);
    } catch (err) {
      setRefusal(errorMessage(err));
      // A 409 (expired, closed, no longer pending) means the page is out of date.
      if (serverError(err)) void client.invalidateQueries({ queryKey: applicationQuery(app.id).queryKey });
    }
    setStarting(false);
  };

  const policyId = payment.data?.policyId ?? null;
  const notice = (() => {
    switch (state) {
      case 'payable':
        return null;
      case 'paid':
        return (
          <Alert
            type="success"
            showIcon
            title={T.paid}
            description={policyId === null && !payment.isPending ? T.issuing : undefined}
            action={
              policyId !== null ? (
                <Button type="primary" onClick={() => navigate(policyViewPath(policyId))}>
                  {T.viewPolicy}
                  {payment.data?.policyNumber ? ` ${payment.data.policyNumber}` : ''}
                </Button>
              ) : order ? (
                <Button onClick={() => navigate(paymentResultPath(order.number, 'success'))}>
                  {T.viewResult}
                </Button>
              ) : null
            }
          />
        );
      case 'expired':
        return <Alert type="warning" showIcon title={T.expired} />;
      case 'cancelled':
        return <Alert type="warning" showIcon title={T.cancelled} />;
      case 'no-order':
        return <Alert type="info" showIcon title={T.noOrder} />;
      case 'not-owner':
        return <Alert type="info" showIcon title={T.notOwner} />;
      default:
        return <Alert type="info" showIcon title={T.notPayable(app.statusLabel)} />;
    }
  })();

  return (
    <div style={{ padding: 16 }}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card
          variant="borderless"
          title={T.pageTitle(app.number)}
          extra={
            <Space wrap>
              <Button onClick={() => navigate(viewPathOf(app, roles))}>{T.viewApplication}</Button>
              <Button onClick={() => navigate(INSURE_LIST_PATH)}>{T.backToList}</Button>
            </Space>
          }
        >
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            {order ? (
              <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} bordered title={T.orderCard}>
                <Descriptions.Item label={T.orderNumber}>{order.number}</Descriptions.Item>
                <Descriptions.Item label={T.amount}>
                  <Typography.Text strong type="danger" style={{ fontSize: 20 }} data-testid="pay-amount">
                    {formatFen(order.amountFen)}
                  </Typography.Text>
                </Descriptions.Item>
                <Descriptions.Item label={T.status}>
                  <PaymentOrderStatusTag status={state === 'expired' ? 'EXPIRED' : order.status} />
                </Descriptions.Item>
                <Descriptions.Item label={T.expiresAt}>{formatTime(order.expiresAt)}</Descriptions.Item>
                {state === 'payable' ? (
                  <Descriptions.Item label={T.remaining}>
                    <Typography.Text strong data-testid="pay-countdown">
                      {remainingText(Date.parse(order.expiresAt) - now)}
                    </Typography.Text>
                  </Descriptions.Item>
                ) : null}
              </Descriptions>
            ) : null}
            {notice}
            {refusal ? <Alert type="error" showIcon title={refusal} /> : null}
            {state === 'payable' ? (
              <Space wrap align="center">
                <Button type="primary" size="large" loading={starting} onClick={() => void pay()}>
                  {T.pay}
                </Button>
                <Typography.Text type="secondary">{starting ? T.redirecting : T.payHint}</Typography.Text>
              </Space>
            ) : null}
          </Space>
        </Card>
        <Card variant="borderless" title={T.applicationCard}>
          <ApplicationFacts app={app} />
        </Card>
        <Card variant="borderless" title={T.premiumCard}>
          <ApplicationPremium app={app} />
        </Card>
      </Space>
    </div>
  );
}
