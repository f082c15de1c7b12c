// Payment and policy (保单) calls shared by the payment page, the payment result page, the policy view and the
// public verification page. Shapes: @piibs/shared/payment and @piibs/shared/policy.
import type { PaymentResult, PayStartResult } from '@piibs/shared/payment';
import type { PolicyDetail, PolicyVerification } from '@piibs/shared/policy';
import { queryOptions } from '@tanstack/react-query';
import { postInline } from '@/components/crud/resource.ts';
import { downloadFile } from '@/lib/download.ts';
import { request } from '@/lib/http.ts';

/** The policy detail page (spec: projectManage/policyInsuranceView/:id). */
export const policyViewPath = (id: number) => `/piibs/projectManage/policyInsuranceView/${id}`;

/** The payment result page; `result` is only how the payer left the cashier (the page asks the server). */
export const paymentResultPath = (payId: string, result: 'success' | 'cancel' | 'fail') =>
  `/piibs/insured/paymentWebResult/${encodeURIComponent(payId)}/${result}`;

/** GET /api/payments/:payId: the order as the server knows it (it asks the provider first while pending). */
export const paymentResultQuery = (payId: string) =>
  queryOptions({
    queryKey: ['payment', 'result', payId],
    queryFn: ({ signal }) =>
      request<PaymentResult>({
        url: `api/payments/${encodeURIComponent(payId)}`,
        method: 'get',
        signal,
        inlineErrors: true,
      }),
  });

/** POST /api/payments/orders/:applicationId/pay: opens (or re-opens) the charge; answers the cashier URL. */
export const startPayment = (applicationId: number) =>
  postInline<PayStartResult>(`api/payments/orders/${applicationId}/pay`);

/**
 * Where the browser may be sent for the cashier: a same-origin path or an http(s) URL, never a `javascript:`
 * or protocol-relative one (the URL comes from the server, but a redirect is not the place to trust blindly).
 */
export function isSafeCashierUrl(url: string): boolean {
  if (/^\/(?![/\\])/.test(url)) return true;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

export const policyQuery = (id: number) =>
  queryOptions({
    queryKey: ['policy', 'detail', id],
    queryFn: ({ signal }) =>
      request<PolicyDetail>({ url: `api/policies/${id}`, method: 'get', signal, inlineErrors: true }),
  });

/** GET /api/policies/verify/:code (public): the masked facts, or 404 with the server's message. */
export const policyVerificationQuery = (code: string) =>
  queryOptions({
    queryKey: ['policy', 'verify', code],
    queryFn: ({ signal }) =>
      request<PolicyVerification>({
        url: `api/policies/verify/${encodeURIComponent(code)}`,
        method: 'get',
        signal,
        inlineErrors: true,
      }),
  });

/** Saves the e-policy PDF under the server's name (`timestamp-电子保单-<number>.pdf`); answers the name. */
export const downloadPolicyPdf = (policyId: number, number: string) =>
  downloadFile(`api/policies/${policyId}/pdf`, { name: `电子保单-${number}`, ext: 'pdf' });
