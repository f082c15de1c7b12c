// Application (投保单) calls shared by the three wizards (insured, epinsure, agent), the list and the view.

import type { Page } from '@piibs/shared/admin';
import type {
  ApplicationCreateForm,
  ApplicationDetail,
  ApplicationDraftForm,
  ApplicationEventRow,
  ApplicationRow,
  CoinsurersForm,
} from '@piibs/shared/application';
import type { CustomerRow } from '@piibs/shared/customer';
import type { InsuredList, InsuredListForm } from '@piibs/shared/named-insured';
import type { AvailableProduct } from '@piibs/shared/product';
import { queryOptions } from '@tanstack/react-query';
import { defineResource, postInline } from '@/components/crud/resource.ts';
import { downloadFile } from '@/lib/download.ts';
import { EARLY_WIZARD_URLS, earlyOr } from '@/lib/early-requests.ts';
import { request } from '@/lib/http.ts';

/** A draft as the server answers a save: the detail plus why it has no quote yet. */
export type DraftAnswer = ApplicationDetail & { quoteProblem?: string | null };

export const applicationsResource = defineResource<ApplicationRow>({
  noun: '投保单',
  key: ['application', 'applications'],
  list: 'api/applications',
  download: { url: 'api/applications/download', name: '投保单' },
  permission: { list: 'application:list', add: 'application:add', edit: 'application:edit' },
  rowId: (row) => row.id,
  rowLabel: (row) => row.number,
});

export const applicationQuery = (id: number) =>
  queryOptions({
    queryKey: [...applicationsResource.key, 'detail', id],
    queryFn: () => request<DraftAnswer>({ url: `api/applications/${id}`, method: 'get', inlineErrors: true }),
  });

export const applicationEventsQuery = (id: number) =>
  queryOptions({
    queryKey: [...applicationsResource.key, 'events', id],
    queryFn: () =>
      request<ApplicationEventRow[]>({
        url: `api/applications/${id}/events`,
        method: 'get',
        inlineErrors: true,
      }),
  });

export const availableProductsQuery = () =>
  queryOptions({
    queryKey: ['application', 'available-products'],
    // A tab opened on a new application's first step asked for them with its first requests (main.tsx).
    queryFn: () =>
      earlyOr(EARLY_WIZARD_URLS.products, () =>
        request<AvailableProduct[]>({ url: EARLY_WIZARD_URLS.products, method: 'get' }),
      ),
    staleTime: 60_000,
  });

/** The query of approvedCustomersQuery: the first 50 by name, those whose name or number holds `blurry`. */
export const approvedCustomersParams = (blurry: string) => ({
  reviewStatus: 'approved',
  blurry: blurry || undefined,
  page: 0,
  size: 50,
  sort: 'name,asc',
});

/** The approved customers (投保人) the caller may apply for: an enterprise its own, an agent its clients. */
export const approvedCustomersQuery = (blurry: string) =>
  queryOptions({
    queryKey: ['application', 'approved-customers', blurry],
    queryFn: () => {
      const ask = () =>
        request<Page<CustomerRow>>({
          url: 'api/customers',
          method: 'get',
          params: approvedCustomersParams(blurry),
        });
      // Unfiltered, as a tab opened on a new application's first step asked for them (main.tsx).
      return (blurry ? ask() : earlyOr(EARLY_WIZARD_URLS.customers, ask)).then((page) => page.content);
    },
    staleTime: 30_000,
  });

export const createApplication = (form: ApplicationCreateForm) =>
  postInline<DraftAnswer>('api/applications', form);
export const saveDraft = (id: number, form: ApplicationDraftForm) =>
  postInline<DraftAnswer>(`api/applications/${id}/draft`, form);
export const replaceCoinsurers = (id: number, form: CoinsurersForm) =>
  postInline<ApplicationDetail>(`api/applications/${id}/coinsurers`, form);
export const submitApplication = (id: number, version: number) =>
  postInline<ApplicationDetail>(`api/applications/${id}/submit`, { version });
export const cancelApplication = (id: number, version: number) =>
  postInline<ApplicationDetail>(`api/applications/${id}/cancel`, { version });

// ---- 从业人员名单 (named insured lists of products that ask for them) ----

export const applicationInsuredQuery = (id: number) =>
  queryOptions({
    queryKey: [...applicationsResource.key, 'insured-persons', id],
    queryFn: () =>
      request<InsuredList>({
        url: `api/applications/${id}/insuredPersons`,
        method: 'get',
        inlineErrors: true,
      }),
  });

/** PUT the whole list (a saved person kept by `sort`); a bad row refuses it all (400, each row named). */
export const saveInsuredList = (id: number, form: InsuredListForm) =>
  request<InsuredList>({
    url: `api/applications/${id}/insuredPersons`,
    method: 'put',
    data: form,
    inlineErrors: true,
    inlineForbidden: true,
  });

/** POST an .xlsx as the list (replaces it); a bad row refuses the file (400, each sheet row named). */
export function importInsuredList(id: number, version: number, file: Blob & { name?: string }) {
  const data = new FormData();
  data.append('version', String(version));
  data.append('file', file, file.name ?? '从业人员名单.xlsx');
  return request<InsuredList>({
    url: `api/applications/${id}/insuredPersons/import`,
    method: 'post',
    data,
    inlineErrors: true,
    inlineForbidden: true,
  });
}

export const downloadInsuredTemplate = () =>
  downloadFile('api/applications/insuredPersons/template', { name: '从业人员名单模板' });

/** The application as the server holds it now (after a list save moved its version). */
export const fetchApplication = (id: number) =>
  request<DraftAnswer>({ url: `api/applications/${id}`, method: 'get', inlineErrors: true });
