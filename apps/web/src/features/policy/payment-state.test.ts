import { describe, expect, it } from 'vitest';
import { isSafeCashierUrl } from './api.ts';
import { remainingText } from './countdown.ts';
import { isSettled, payStateOf, resultStateOf } from './payment-state.ts';
import { applicationDetail, paidResult, paymentResult } from './test-data.ts';

describe('what the payment page offers', () => {
  const now = Date.now();
  const order = applicationDetail().paymentOrder!;

  it('pay while pending, in time, for the owner', () => {
    expect(payStateOf(applicationDetail(), now)).toBe('payable');
    expect(payStateOf(applicationDetail({ actions: ['view'] }), now)).toBe('not-owner');
  });

  it('an order past its expiry cannot be paid, even before the expiry job closes it', () => {
    const due = { ...order, expiresAt: new Date(now - 1000).toISOString() };
    expect(payStateOf(applicationDetail({ paymentOrder: due }), now)).toBe('expired');
    expect(
      payStateOf(
        applicationDetail({ status: 'PAYMENT_EXPIRED', paymentOrder: { ...order, status: 'EXPIRED' } }),
        now,
      ),
    ).toBe('expired');
  });

  it('paid, issued or cancelled: nothing to pay', () => {
    expect(payStateOf(applicationDetail({ paymentOrder: { ...order, status: 'PAID' } }), now)).toBe('paid');
    expect(payStateOf(applicationDetail({ status: 'ISSUED' }), now)).toBe('paid');
    expect(
      payStateOf(
        applicationDetail({ status: 'CANCELLED', paymentOrder: { ...order, status: 'CANCELLED' } }),
        now,
      ),
    ).toBe('cancelled');
  });

  it('before approval there is no order', () => {
    expect(payStateOf(applicationDetail({ status: 'PENDING_REVIEW', paymentOrder: null }), now)).toBe(
      'not-payable',
    );
    expect(payStateOf(applicationDetail({ paymentOrder: null }), now)).toBe('no-order');
  });
});

describe('what the result page shows: the server’s answer', () => {
  it('issued only with a policy; keeps asking while pending or issuing', () => {
    expect(resultStateOf(paidResult())).toBe('issued');
    expect(resultStateOf(paidResult(false))).toBe('issuing');
    expect(resultStateOf(paymentResult())).toBe('pending');
    expect(resultStateOf(paymentResult({ status: 'EXPIRED' }))).toBe('expired');
    expect(resultStateOf(paymentResult({ status: 'CANCELLED' }))).toBe('cancelled');
    expect(
      ['issued', 'issuing', 'pending', 'expired', 'cancelled'].filter((s) => !isSettled(s as never)),
    ).toEqual(['issuing', 'pending']);
  });
});

describe('countdown', () => {
  it('shows days, then hours, minutes and seconds; never negative', () => {
    expect(remainingText(90_061_000)).toBe('1 天 01:01:01');
    expect(remainingText(3_599_000)).toBe('00:59:59');
    expect(remainingText(-5000)).toBe('00:00:00');
  });
});

describe('cashier URL', () => {
  it('same-origin paths and http(s) URLs only', () => {
    expect(isSafeCashierUrl('/sandbox-pay/cashier?orderNo=1&sign=ab')).toBe(true);
    expect(isSafeCashierUrl('https://pay.example.com/cashier?x=1')).toBe(true);
    expect(isSafeCashierUrl('javascript:alert(1)')).toBe(false);
    expect(isSafeCashierUrl('//evil.example.com/x')).toBe(false);
    expect(isSafeCashierUrl('/\\evil.example.com')).toBe(false);
    expect(isSafeCashierUrl('')).toBe(false);
  });
});
