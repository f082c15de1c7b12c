// 支付结果 (/piibs/insured/paymentWebResult/:payId/:payResult): where the gateway's cashier sends the payer back.
// It shows what GET /api/payments/:payId answers, never what the URL says: `:payResult` only tells which way
// the payer left the cashier, and only words the wait while the order is still pending. It asks again every
// 2 s while the order is pending or paid without a policy yet, for about a minute, then offers 「刷新」.
import { formatTime } from '@piibs/shared/constants';
import { formatFen } from '@piibs/shared/money';
import type { PaymentResult } from '@piibs/shared/payment';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Result, Space, Spin } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { errorMessage, serverError } from '@/components/crud/resource.ts';
import { applicationsResource } from '@/features/application/api.ts';
import { payPath } from '@/features/application/components/ApplicationActions.tsx';
import { INSURE_LIST_PATH } from '@/features/application/flows.ts';
import { paymentResultQuery, policyViewPath } from '../api.ts';
import { DownloadPolicyButton } from '../components/PolicySummary.tsx';
import { isSettled, type ResultState, resultStateOf } from '../payment-state.ts';
import { PAYMENT_TEXTS, RESULT_TEXTS as T } from '../texts.ts';

const POLL_MS = 2000;
const POLL_LIMIT_MS = 60_000;

/** The facts of the order as the server answered them. */
function OrderFacts({ result }: { result: PaymentResult }) {
  return (
    <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered style={{ maxWidth: 800, margin: '0 auto' }}>
      <Descriptions.Item label={PAYMENT_TEXTS.orderNumber}>{result.payId}</Descriptions.Item>
      <Descriptions.Item label={PAYMENT_TEXTS.status}>
        <span data-testid="pay-status">{result.statusLabel}</span>
      </Descriptions.Item>
      <Descriptions.Item label={T.applicationNumber}>{result.applicationNumber}</Descriptions.Item>
      <Descriptions.Item label={T.product}>{result.productName}</Descriptions.Item>
      <Descriptions.Item label={PAYMENT_TEXTS.amount}>{formatFen(result.amountFen)}</Descriptions.Item>
      {result.paidAt ? (
        <Descriptions.Item label={PAYMENT_TEXTS.paidAt}>{formatTime(result.paidAt)}</Descriptions.Item>
      ) : (
        <Descriptions.Item label={PAYMENT_TEXTS.expiresAt}>{formatTime(result.expiresAt)}</Descriptions.Item>
      )}
      {result.tradeNo ? (
        <Descriptions.Item label={PAYMENT_TEXTS.tradeNo}>{result.tradeNo}</Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}

/** The wording of a pending order: how the payer left the cashier (not the truth; the order is pending). */
function pendingWords(payResult: string | undefined): { title: string; hint: string; waiting: boolean } {
  if (payResult === 'cancel') return { title: T.leftCancelled, hint: T.leftCancelledHint, waiting: false };
  if (payResult === 'fail') return { title: T.leftFailed, hint: T.leftFailedHint, waiting: false };
  return { title: T.confirming, hint: T.confirmingHint, waiting: true };
}

export default function PaymentWebResult() {
  const { payId = '', payResult } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [round, setRound] = useState(0);
  const [timedOut, setTimedOut] = useState(false);

  // Each round of asking lasts about a minute; 「刷新」 starts another.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` restarts the timer on purpose.
  useEffect(() => {
    setTimedOut(false);
    const timer = setTimeout(() => setTimedOut(true), POLL_LIMIT_MS);
    return () => clearTimeout(timer);
  }, [round, payId]);

  const query = useQuery({
    ...paymentResultQuery(payId),
    enabled: payId !== '',
    refetchInterval: (q) => {
      const data = q.state.data;
      return data && !timedOut && !isSettled(resultStateOf(data)) ? POLL_MS : false;
    },
  });
  const result = query.data;
  const state: ResultState | null = result ? resultStateOf(result) : null;
  const settled = state !== null && isSettled(state);

  // Once settled, the application (its list row, its payment page) has moved on too.
  useEffect(() => {
    if (settled) void client.invalidateQueries({ queryKey: applicationsResource.key });
  }, [settled, client]);

  const refresh = () => {
    setRound((r) => r + 1);
    void query.refetch();
  };
  const refreshButton = (
    <Button key="refresh" type="primary" loading={query.isFetching} onClick={refresh}>
      {T.refresh}
    </Button>
  );
  const backToPay = (applicationId: number, primary = false) => (
    <Button key="pay" type={primary ? 'primary' : 'default'} onClick={() => navigate(payPath(applicationId))}>
      {T.backToPay}
    </Button>
  );
  const shell = (content: ReactNode, facts?: PaymentResult) => (
    <div style={{ padding: 16 }}>
      {content}
      {facts ? <OrderFacts result={facts} /> : null}
    </div>
  );

  if (payId === '' || (!result && !query.isPending)) {
    const missing = payId === '' || serverError(query.error)?.status === 404;
    return shell(
      <Result
        status="warning"
        title={missing ? T.missing : errorMessage(query.error)}
        extra={
          <Space wrap>
            {missing ? null : refreshButton}
            <Button onClick={() => navigate(INSURE_LIST_PATH)}>{PAYMENT_TEXTS.backToList}</Button>
          </Space>
        }
      />,
    );
  }
  if (!result || !state) {
    return shell(<Result icon={<Spin size="large" />} title={T.confirming} subTitle={T.confirmingHint} />);
  }

  switch (state) {
    case 'issued':
      return shell(
        <Result
          status="success"
          title={T.success}
          subTitle={<span data-testid="policy-number">{T.policyNumber(result.policyNumber ?? '')}</span>}
          extra={
            <Space wrap>
              <DownloadPolicyButton
                policyId={result.policyId!}
                number={result.policyNumber ?? ''}
                type="primary"
              >
                {T.download}
              </DownloadPolicyButton>
              <Button onClick={() => navigate(policyViewPath(result.policyId!))}>{T.viewPolicy}</Button>
            </Space>
          }
        />,
        result,
      );
    case 'issuing':
      return shell(
        timedOut ? (
          <Result status="info" title={T.stillIssuing} subTitle={T.stillIssuingHint} extra={refreshButton} />
        ) : (
          <Result icon={<Spin size="large" />} title={T.issuing} subTitle={T.issuingHint} />
        ),
        result,
      );
    case 'pending': {
      const words = pendingWords(payResult);
      return shell(
        timedOut ? (
          <Result
            status="warning"
            title={T.stillPending}
            subTitle={T.stillPendingHint}
            extra={
              <Space wrap>
                {refreshButton}
                {backToPay(result.applicationId)}
              </Space>
            }
          />
        ) : (
          <Result
            {...(words.waiting ? { icon: <Spin size="large" /> } : { status: 'info' as const })}
            title={words.title}
            subTitle={words.hint}
            extra={backToPay(result.applicationId)}
          />
        ),
        result,
      );
    }
    case 'expired':
      return shell(
        <Result
          status="warning"
          title={T.expired}
          subTitle={T.expiredHint}
          extra={backToPay(result.applicationId, true)}
        />,
        result,
      );
    case 'cancelled':
      return shell(
        <Result
          status="error"
          title={T.cancelled}
          subTitle={T.cancelledHint}
          extra={backToPay(result.applicationId, true)}
        />,
        result,
      );
  }
}
