import { ROLE_CODES } from '@piibs/shared/auth';
import { PAYMENT_MESSAGES } from '@piibs/shared/payment';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { applicationDetail, paidResult, policyDetail } from '../test-data.ts';
import ViewInsuranceCA from './ViewInsuranceCA.tsx';

const PATTERN = '/piibs/insured/viewInsuranceCA/:id';
const render = (id = 12) => renderRoute(<ViewInsuranceCA />, PATTERN, `/piibs/insured/viewInsuranceCA/${id}`);
const CASHIER = '/sandbox-pay/cashier?merchantId=PIIBS&orderNo=PAY2026000005&sign=abc';

let api: MockApi;
beforeEach(() => signInAs([ROLE_CODES.enterprise], ['application:list', 'application:edit']));
afterEach(() => {
  api?.restore();
  vi.unstubAllGlobals();
  resetKitState();
});

describe('支付 (insured/viewInsuranceCA/:id)', { timeout: 30_000 }, () => {
  it('shows the order with its countdown and the application; 去支付 opens the charge and goes to the cashier', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    api = mockApi({
      'GET api/applications/12': { data: applicationDetail() },
      'POST api/payments/orders/12/pay': {
        data: {
          payId: 'PAY2026000005',
          orderId: 5,
          applicationId: 12,
          amountFen: 2_400_000,
          expiresAt: applicationDetail().paymentOrder!.expiresAt,
          provider: 'sandbox',
          chargeNo: 'CH1',
          cashierUrl: CASHIER,
        },
      },
    });
    render();
    expect(await screen.findByText('PAY2026000005')).toBeInTheDocument();
    expect(screen.getByTestId('pay-amount')).toHaveTextContent('¥24,000.00');
    expect(screen.getByTestId('pay-countdown').textContent).toMatch(/^(1 天 00|23):\d\d:\d\d$/);
    expect(screen.getAllByText('待支付').length).toBeGreaterThan(0);
    // The application's summary.
    expect(screen.getByText('AZX2026000012')).toBeInTheDocument();
    expect(screen.getAllByText(/镇江示范机械有限公司/).length).toBeGreaterThan(0);

    await userEvent.click(screen.getByRole('button', { name: '去支付' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CASHIER));
    expect(api.callsTo('POST api/payments/orders/12/pay')).toHaveLength(1);
  });

  it('a co-insured application: the issuer, as lead, collects the whole premium; each party’s share and parts', async () => {
    api = mockApi({
      'GET api/applications/12': {
        data: applicationDetail({ allowsCoinsurance: true, coinsurers: policyDetail().coinsurers }),
      },
      'GET api/dictDetail': { data: { content: [], totalElements: 0 } },
    });
    render();
    expect(await screen.findByTestId('collection-notice')).toHaveTextContent(
      '本保单为共保保单，由主承保人 示例财产保险股份有限公司 代收全部保费 ¥24,000.00，并按份额与共保人结算',
    );
    const mine = screen.getByRole('cell', { name: '示例财产保险股份有限公司' }).closest('tr')!;
    expect(within(mine).getByText('主承保')).toBeInTheDocument();
    expect(within(mine).getByText('60%')).toBeInTheDocument();
    expect(within(mine).getByText('¥14,400.00')).toBeInTheDocument();
    const other = screen.getByRole('cell', { name: '中国平安财产保险股份有限公司' }).closest('tr')!;
    expect(within(other).getByText('40%')).toBeInTheDocument();
    expect(within(other).getByText('¥9,600.00')).toBeInTheDocument();
  });

  it('a refusal of the server is shown and nothing is opened', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    api = mockApi({
      'GET api/applications/12': { data: applicationDetail() },
      'POST api/payments/orders/12/pay': {
        status: 409,
        data: { status: 409, message: PAYMENT_MESSAGES.orderExpired },
      },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: '去支付' }));
    expect(await screen.findByText(PAYMENT_MESSAGES.orderExpired)).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });

  it('an order past its expiry: 支付单已过期 and no pay button', async () => {
    const order = applicationDetail().paymentOrder!;
    api = mockApi({
      'GET api/applications/12': {
        data: applicationDetail({
          paymentOrder: { ...order, expiresAt: new Date(Date.now() - 60_000).toISOString() },
        }),
      },
    });
    render();
    expect(await screen.findByText(PAYMENT_MESSAGES.orderExpired)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '去支付' })).toBeNull();
    expect(screen.getByText('已过期')).toBeInTheDocument();
  });

  it('already paid: links to the policy', async () => {
    const order = applicationDetail().paymentOrder!;
    api = mockApi({
      'GET api/applications/12': {
        data: applicationDetail({
          status: 'ISSUED',
          statusLabel: '已出单',
          actions: ['view'],
          paymentOrder: { ...order, status: 'PAID' },
        }),
      },
      'GET api/payments/PAY2026000005': { data: paidResult() },
    });
    const { router } = render();
    expect(await screen.findByText('该投保单已支付')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '去支付' })).toBeNull();
    await userEvent.click(await screen.findByRole('button', { name: /查看保单 PAZX202600000009/ }));
    expect(router.state.location.pathname).toBe('/piibs/projectManage/policyInsuranceView/9');
  });

  it('404: 投保单不存在或无权查看', async () => {
    api = mockApi({
      'GET api/applications/99': { status: 404, data: { status: 404, message: '投保单不存在' } },
    });
    render(99);
    expect(await screen.findByText('投保单不存在或无权查看')).toBeInTheDocument();
  });
});
