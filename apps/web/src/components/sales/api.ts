// Sales supplements (补录) and renewals (续保): the calls and paths of the policy/marge* pages and the renewal
// button. Shapes: @piibs/shared/sales.
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
import { request } from '@/lib/http.ts';

export const MARGE_LIST_PATH = '/piibs/policy/marge/xxt';
export const MARGE_NBNMG_LIST_PATH = '/piibs/policy/marge/NBNMG';
export const UPDATE_SALE_PATH = '/piibs/policy/marge/updateSale';

/**
 * The supplement form of a policy (`marge/:id/:detail`): `detail` true is read-only. The NBNMG list opens the
 * form with `?variant=NBNMG`; a saved supplement's own variant wins over the query.
 */
export const margePath = (policyId: number, readOnly: boolean, variant?: SupplementVariant) =>
  `/piibs/policy/marge/${policyId}/${readOnly ? 'true' : 'false'}${variant === 'NBNMG' ? '?variant=NBNMG' : ''}`;

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
