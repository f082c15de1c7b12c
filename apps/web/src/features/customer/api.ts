// Customer (投保人) calls: the list resource of the CRUD kit, one customer, and its saves.
import type {
  CustomerCreateForm,
  CustomerResubmitForm,
  CustomerRow,
  CustomerUpdateForm,
  UnmaskResult,
} from '@piibs/shared/customer';
import type { CustomerHistory } from '@piibs/shared/customer-history';
import { queryOptions } from '@tanstack/react-query';
import { defineResource, postInline, serverError } from '@/components/crud/resource.ts';
import { request } from '@/lib/http.ts';

export const customersResource = defineResource<CustomerRow>({
  noun: '客户',
  key: ['applicant', 'customers'],
  list: 'api/customers',
  download: { url: 'api/customers/download', name: '投保人数据' },
  permission: { list: 'customer:list', add: 'customer:add', edit: 'customer:edit' },
  rowId: (row) => row.id,
  rowLabel: (row) => row.name,
});

export const customerQuery = (id: number) =>
  queryOptions({
    queryKey: [...customersResource.key, 'detail', id],
    queryFn: () => request<CustomerRow>({ url: `api/customers/${id}`, method: 'get', inlineErrors: true }),
  });

/** 客户历史: the customer's policies and submitted applications, newest first (`exclude`: the one under review). */
export const customerHistoryQuery = (id: number, exclude?: number) =>
  queryOptions({
    queryKey: [...customersResource.key, 'history', id, exclude ?? null],
    queryFn: () =>
      request<CustomerHistory>({
        url: `api/customers/${id}/history`,
        method: 'get',
        params: exclude ? { exclude } : undefined,
        inlineErrors: true,
      }),
  });

/**
 * The enterprise account's own record (GET /api/customers/mine); null while the enterprise has not registered
 * it (or the account has no enterprise code).
 */
export const mineCustomerQuery = () =>
  queryOptions({
    queryKey: [...customersResource.key, 'mine'],
    queryFn: async (): Promise<CustomerRow | null> => {
      try {
        return await request<CustomerRow>({ url: 'api/customers/mine', method: 'get', inlineErrors: true });
      } catch (err) {
        if (serverError(err)?.status === 404) return null;
        throw err;
      }
    },
  });

/** The full phone number (permission customer:unmask; the server logs every read). */
export const unmaskCustomer = (id: number) => postInline<UnmaskResult>(`api/customers/${id}/unmask`);

export const createCustomer = (form: CustomerCreateForm) => postInline<CustomerRow>('api/customers', form);
export const updateCustomer = (form: CustomerUpdateForm) =>
  postInline<CustomerRow>('api/customers/update', form);
export const resubmitCustomer = (id: number, form: CustomerResubmitForm) =>
  postInline<CustomerRow>(`api/customers/${id}/resubmit`, form);

/**
 * Where a customer's page is: agents have their own route (/piibs/agent/applicant/newUpdate), everybody else
 * the applicant one. `detail` true opens it read-only.
 */
export function customerPath(roles: readonly string[], id: number, detail: boolean): string {
  const base = roles.includes('agent') ? '/piibs/agent/applicant/newUpdate' : '/piibs/applicant/newUpdate';
  return `${base}/${id}/${detail}`;
}

export const CUSTOMER_LIST_PATH = '/piibs/applicant/list';

/** The `id` of the enterprise's own record in its route (企业信息: /piibs/applicant/newUpdate/mine/false). */
export const MINE_ID = 'mine';
