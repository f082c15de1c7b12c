import { ROLE_CODES } from '@piibs/shared/auth';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/components/crud/test-render.tsx';
import { resetKitState, signInAs } from '@/components/crud/test-utils.tsx';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { paidResult, paymentResult } from '../test-data.ts';
import PaymentWebResult from './PaymentWebResult.tsx';

const PATTERN = '/piibs/insured/paymentWebResult/:payId/:payResult';
const render = (payResult = 'success', payId = 'PAY2026000005') =>
  renderRoute(<PaymentWebResult />, PATTERN, `/piibs/insured/paymentWebResult/${payId}/${payResult}`);
const RESULT = 'GET api/payments/PAY2026000005';

let api: MockApi;
beforeEach(() => signInAs([ROLE_CODES.enterprise], ['application:list', 'application:edit']));
afterEach(() => {
  api?.restore();
  vi.useRealTimers();
  vi.restoreAllMocks();
  resetKitState();
});

describe('支付结果 (insured/paymentWebResult/:payId/:payResult)', { timeout: 30_000 }, () => {
  it('the URL says success but the server says pending: no success, it keeps asking', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    api = mockApi({ [RESULT]: { data: paymentResult() } });
    render('success');
    expect(await screen.findByTestId('pay-status')).toHaveTextContent('待支付');
    expect(screen.getByText('正在确认支付结果…')).toBeInTheDocument();
    expect(screen.queryByText('支付成功')).toBeNull();
    expect(screen.queryByRole('button', { name: /下载电子保单/ })).toBeNull();
    // Asked again after 2 s.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    await waitFor(() => expect(api.callsTo(RESULT).length).toBeGreaterThanOrEqual(2));
  });

  it('the URL says success but the server says cancelled: the truth, and the way back to the payment page', async () => {
    api = mockApi({ [RESULT]: { data: paymentResult({ status: 'CANCELLED', statusLabel: '已取消' }) } });
    const { router } = render('success');
    expect(await screen.findByText('支付单已取消')).toBeInTheDocument();
    expect(screen.getByTestId('pay-status')).toHaveTextContent('已取消');
    expect(screen.queryByText('支付成功')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '返回支付页' }));
    expect(router.state.location.pathname).toBe('/piibs/insured/viewInsuranceCA/12');
  });

  it('expired: 支付单已过期', async () => {
    api = mockApi({ [RESULT]: { data: paymentResult({ status: 'EXPIRED', statusLabel: '已过期' }) } });
    render('success');
    expect(await screen.findByText('支付单已过期')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '返回支付页' })).toBeInTheDocument();
  });

  it('left the cashier cancelling while the order is pending: worded so, the status from the server', async () => {
    api = mockApi({ [RESULT]: { data: paymentResult() } });
    render('cancel');
    expect(await screen.findByTestId('pay-status')).toHaveTextContent('待支付');
    expect(screen.getByText('支付未完成')).toBeInTheDocument();
  });

  it('paid, then issued: 支付成功 with the policy number, the e-policy download and the policy', async () => {
    const answers = [paidResult(false), paidResult(true)];
    api = mockApi({
      [RESULT]: () => ({ data: answers.length > 1 ? answers.shift() : answers[0] }),
      'GET api/policies/9/pdf': {
        data: new Blob(['%PDF-1.7'], { type: 'application/pdf' }),
        headers: {
          'content-disposition': `attachment; filename*=UTF-8''1767225600000-${encodeURIComponent('电子保单-PAZX202600000009')}.pdf`,
        },
      },
    });
    const saved: string[] = [];
    Object.defineProperty(URL, 'createObjectURL', {
      value: () => 'blob:pdf',
      configurable: true,
      writable: true,
    });
    Object.defineProperty(URL, 'revokeObjectURL', { value: () => {}, configurable: true, writable: true });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });

    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { router } = render('success');
    expect(await screen.findByText('支付成功，正在出具保单…')).toBeInTheDocument();
    // Asked again 2 s later: issued.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(await screen.findByText('支付成功')).toBeInTheDocument();
    expect(screen.getByTestId('policy-number')).toHaveTextContent('保单号：PAZX202600000009');

    await userEvent.click(screen.getByRole('button', { name: /下载电子保单/ }));
    await waitFor(() => expect(saved).toEqual(['1767225600000-电子保单-PAZX202600000009.pdf']));

    // Settled: no more asking.
    const asked = api.callsTo(RESULT).length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(api.callsTo(RESULT).length).toBe(asked);

    await userEvent.click(screen.getByRole('button', { name: '查看保单' }));
    expect(router.state.location.pathname).toBe('/piibs/projectManage/policyInsuranceView/9');
  });

  it('after about a minute without an answer: stops asking and offers 刷新', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    api = mockApi({ [RESULT]: { data: paymentResult() } });
    render('success');
    expect(await screen.findByTestId('pay-status')).toHaveTextContent('待支付');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(61_000);
    });
    expect(await screen.findByText('暂未确认到支付结果')).toBeInTheDocument();
    const asked = api.callsTo(RESULT).length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(api.callsTo(RESULT).length).toBe(asked);

    await userEvent.click(screen.getByRole('button', { name: /刷\s*新/ }));
    await waitFor(() => expect(api.callsTo(RESULT).length).toBe(asked + 1));
    expect(await screen.findByText('正在确认支付结果…')).toBeInTheDocument();
  });

  it('404: 支付单不存在或无权查看', async () => {
    api = mockApi({
      'GET api/payments/NOPE': { status: 404, data: { status: 404, message: '支付单不存在' } },
    });
    render('success', 'NOPE');
    expect(await screen.findByText('支付单不存在或无权查看')).toBeInTheDocument();
  });
});
