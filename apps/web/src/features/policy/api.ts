// The policy (保单) calls: payment and its result, the policy view, the public verification page, and the sales
// supplements (补录) and renewals (续保) of issued policies. Shapes: @piibs/shared/payment, /policy and /sales.
import type { PolicyInsuredList } from '@piibs/shared/named-insured';
import type { PaymentResult, PayStartResult } from '@piibs/shared/payment';
import type { PolicyDetail, PolicyRow, PolicyVerification } from '@piibs/shared/policy';
import type { CancellationRequest, EndorsementRequest, PolicyChangeView } from '@piibs/shared/policy-change';
import type {
  PolicySales,
  RenewalInfo,
  RenewalResult,
  SalespersonChangeForm,
  SalesRow,
  SupplementForm,
  SupplementVariant,
} from '@piibs/shared/sales';
import { queryOptions } from '@tanstack/react-query';
import { defineResource, postInline } from '@/components/crud/resource.ts';
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

// Sales supplements (补录) and renewals (续保).
export const MARGE_LIST_PATH = '/piibs/policy/marge/xxt';
export const MARGE_NBNMG_LIST_PATH = '/piibs/policy/marge/NBNMG';

/**
 * The supplement form of a policy (`marge/:id/:detail`): `detail` true is read-only. The NBNMG list opens the
 * form with `?variant=NBNMG`; a saved supplement's own variant wins over the query.
 */
export const margePath = (policyId: number, readOnly: boolean, variant?: SupplementVariant) =>
  `/piibs/policy/marge/${policyId}/${readOnly ? 'true' : 'false'}${variant === 'NBNMG' ? '?variant=NBNMG' : ''}`;

/** The policy lists (保单查询 / 我的保单): GET /api/policies, scoped as applications; xlsx export. */
export const policiesResource = defineResource<PolicyRow>({
  noun: '保单',
  key: ['policy', 'list'],
  list: 'api/policies',
  download: { url: 'api/policies/download', name: '保单' },
  permission: { list: 'application:list' },
  rowId: (row) => row.id,
  rowLabel: (row) => `「${row.number}」`,
});

export const salesResource = defineResource<SalesRow>({
  noun: '保单',
  key: ['sales'],
  list: 'api/sales',
  permission: { list: 'sales:list', edit: 'sales:edit' },
  rowId: (row) => row.policyId,
  rowLabel: (row) => `「${row.number}」`,
});

export const policySalesQuery = (policyId: number) =>
  queryOptions({
    queryKey: ['sales', 'policy', policyId],
    queryFn: ({ signal }) =>
      request<PolicySales>({
        url: `api/policies/${policyId}/sales`,
        method: 'get',
        signal,
        inlineErrors: true,
      }),
  });

/** PUT /api/policies/:id/sales: version null creates; a refusal is the caller's to show. */
export const saveSupplement = (policyId: number, body: SupplementForm) =>
  request<PolicySales>({
    url: `api/policies/${policyId}/sales`,
    method: 'put',
    data: body,
    inlineErrors: true,
    inlineForbidden: true,
  });

/** POST /api/policies/:id/sales/salesperson (updateSale). */
export const changeSalesperson = (policyId: number, body: SalespersonChangeForm) =>
  postInline<PolicySales>(`api/policies/${policyId}/sales/salesperson`, body);

export const renewalInfoQuery = (policyId: number) =>
  queryOptions({
    queryKey: ['renewal', policyId],
    queryFn: ({ signal }) =>
      request<RenewalInfo>({
        url: `api/policies/${policyId}/renewal`,
        method: 'get',
        signal,
        inlineErrors: true,
      }),
  });

/** POST /api/policies/:id/renew: the new draft. */
export const renewPolicy = (policyId: number) => postInline<RenewalResult>(`api/policies/${policyId}/renew`);

// Endorsements (批改) and cancellations (退保) of the policy.
export const policyChangesQuery = (policyId: number) =>
  queryOptions({
    queryKey: ['policy', 'changes', policyId],
    queryFn: ({ signal }) =>
      request<PolicyChangeView[]>({
        url: `api/policies/${policyId}/changes`,
        method: 'get',
        signal,
        inlineErrors: true,
      }),
  });

export const submitEndorsement = (policyId: number, body: EndorsementRequest) =>
  postInline<PolicyChangeView>(`api/policies/${policyId}/endorsements`, body);

export const submitCancellation = (policyId: number, body: CancellationRequest) =>
  postInline<PolicyChangeView>(`api/policies/${policyId}/cancellations`, body);

export const payPolicyChange = (id: number) =>
  postInline<{ cashierUrl: string }>(`api/policy-changes/${id}/pay`);

export const resubmitPolicyChange = (id: number, version: number) =>
  postInline<PolicyChangeView>(`api/policy-changes/${id}/resubmit`, { version });

export const reviewPolicyChange = (
  id: number,
  body: { decision: 'approve' | 'return' | 'reject'; opinion?: string; version: number },
) => postInline<PolicyChangeView>(`api/policy-changes/${id}/review`, body);

/** The underwriter's queue of requests waiting for review (批改审核), oldest first. */
export const policyChangeReviewsQuery = () =>
  queryOptions({
    queryKey: ['policy', 'change-reviews'],
    queryFn: ({ signal }) =>
      request<PolicyChangeView[]>({
        url: 'api/policy-change-reviews',
        method: 'get',
        signal,
        inlineErrors: true,
      }),
  });

/** One request (批改/退保). */
export const policyChangeQuery = (id: number) =>
  queryOptions({
    queryKey: ['policy', 'change', id],
    queryFn: ({ signal }) =>
      request<PolicyChangeView>({
        url: `api/policy-changes/${id}`,
        method: 'get',
        signal,
        inlineErrors: true,
      }),
  });

/** The policy's 从业人员名单 (numbers masked; those endorsements added or removed with their dates). */
export const policyInsuredQuery = (policyId: number) =>
  queryOptions({
    queryKey: ['policy', 'insured-persons', policyId],
    queryFn: ({ signal }) =>
      request<PolicyInsuredList>({
        url: `api/policies/${policyId}/insuredPersons`,
        method: 'get',
        signal,
        inlineErrors: true,
      }),
  });
