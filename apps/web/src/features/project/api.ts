// Project insurance calls (年度订单 / 二次下单) shared by the projectManage pages and the tender review page.
import type { Page } from '@piibs/shared/admin';
import type {
  AnnualOrderCreateForm,
  AnnualOrderDetail,
  AnnualOrderFromApplicationForm,
  AnnualOrderRow,
  AnnualOrderUpdateForm,
  DeclarationChangeForm,
  DeclarationCreateForm,
  DeclarationDetail,
  DeclarationRow,
  DeclarationSaveForm,
  EndorsementRow,
} from '@piibs/shared/project-order';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { defineResource, postInline } from '@/components/crud/resource.ts';
import { downloadFile } from '@/lib/download.ts';
import { request } from '@/lib/http.ts';

/** The permission codes the server checks (menu buttons under 年度订单). */
export const PROJECT_PERMISSIONS = Object.freeze({
  list: 'project_order:list',
  add: 'project_order:add',
  edit: 'project_order:edit',
  apply: 'project_order:apply',
});

const ROOT = ['project'] as const;

export const annualOrdersResource = defineResource<AnnualOrderRow>({
  noun: '年度订单',
  key: [...ROOT, 'orders'],
  list: 'api/project-orders',
  download: { url: 'api/project-orders/download', name: '年度订单' },
  permission: { list: PROJECT_PERMISSIONS.list, add: PROJECT_PERMISSIONS.add },
  rowId: (row) => row.id,
  rowLabel: (row) => row.number,
});

export const declarationsResource = defineResource<DeclarationRow>({
  noun: '申报项目',
  key: [...ROOT, 'declarations'],
  list: 'api/project-declarations',
  download: { url: 'api/project-declarations/download', name: '二次下单' },
  permission: { list: PROJECT_PERMISSIONS.list, add: PROJECT_PERMISSIONS.apply },
  rowId: (row) => row.id,
  rowLabel: (row) => row.projectName,
});

export const annualOrderQuery = (id: number) =>
  queryOptions({
    queryKey: [...ROOT, 'order', id],
    queryFn: () =>
      request<AnnualOrderDetail>({ url: `api/project-orders/${id}`, method: 'get', inlineErrors: true }),
  });

export const declarationQuery = (id: number) =>
  queryOptions({
    queryKey: [...ROOT, 'declaration', id],
    queryFn: () =>
      request<DeclarationDetail>({
        url: `api/project-declarations/${id}`,
        method: 'get',
        inlineErrors: true,
      }),
  });

/** The annual order made from an application (生成年度订单), if any. */
export const orderOfApplicationQuery = (applicationId: number) =>
  queryOptions({
    queryKey: [...ROOT, 'of-application', applicationId],
    queryFn: async () =>
      (
        await request<Page<AnnualOrderRow>>({
          url: 'api/project-orders',
          method: 'get',
          params: { applicationId, size: 1 },
          inlineErrors: true,
        })
      ).content[0] ?? null,
  });

/** The endorsements (批单) of a policy. */
export const policyEndorsementsQuery = (policyId: number) =>
  queryOptions({
    queryKey: [...ROOT, 'endorsements', policyId],
    queryFn: () =>
      request<EndorsementRow[]>({
        url: `api/policies/${policyId}/endorsements`,
        method: 'get',
        inlineErrors: true,
      }),
  });

/** Refreshes every order, declaration and list of project insurance (quota figures move together). */
export const invalidateProjects = (client: QueryClient) => client.invalidateQueries({ queryKey: ROOT });

export const createAnnualOrder = (form: AnnualOrderCreateForm) =>
  postInline<AnnualOrderDetail>('api/project-orders', form);
export const annualOrderFromApplication = (applicationId: number, form: AnnualOrderFromApplicationForm) =>
  postInline<AnnualOrderDetail>(`api/project-orders/from-application/${applicationId}`, form);
export const updateAnnualOrder = (id: number, form: AnnualOrderUpdateForm) =>
  postInline<AnnualOrderDetail>(`api/project-orders/${id}/update`, form);
export const closeAnnualOrder = (id: number, version: number) =>
  postInline<AnnualOrderDetail>(`api/project-orders/${id}/close`, { version });
export const createChange = (projectId: number, form: DeclarationChangeForm) =>
  postInline<DeclarationDetail>(`api/project-declarations/${projectId}/changes`, form);
export const createDeclaration = (orderId: number, form: DeclarationCreateForm) =>
  postInline<DeclarationDetail>(`api/project-orders/${orderId}/declarations`, form);
export const saveDeclaration = (id: number, form: DeclarationSaveForm) =>
  postInline<DeclarationDetail>(`api/project-declarations/${id}/draft`, form);
export const submitDeclaration = (id: number, version: number) =>
  postInline<DeclarationDetail>(`api/project-declarations/${id}/submit`, { version });
export const cancelDeclaration = (id: number, version: number) =>
  postInline<DeclarationDetail>(`api/project-declarations/${id}/cancel`, { version });

/** Saves the endorsement's PDF under the server's name (`timestamp-批单-<number>.pdf`). */
export const downloadEndorsementPdf = (id: number, number: string) =>
  downloadFile(`api/endorsements/${id}/pdf`, { name: `批单-${number}`, ext: 'pdf' });
