// Customer (投保人) calls: the list resource of the CRUD kit, one customer, and its saves.
import type {
  CustomerCreateForm,
  CustomerResubmitForm,
  CustomerRow,
  CustomerUpdateForm,
} from '@piibs/shared/customer';
import { queryOptions } from '@tanstack/react-query';
import { defineResource, postInline } from '@/components/crud/resource.ts';
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
