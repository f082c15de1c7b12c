// Risk-control calls shared by the riskControl pages: service orders, prevention records (fund, plan,
// ledger), organisations and persons, the archive export, and the pages' paths.
//
// Order pages are keyed by the policy's prevention record (route param :seqNo, 'YF' + policy number) and take
// the order itself from the query string: `?order=<order number or id>` (the server's :ref accepts both), e.g.
// /piibs/riskControl/prevention/service/YFPAZX2026…?order=YFPAZX2026…-003.
import type { Page } from '@piibs/shared/admin';
import type {
  DispatchForm,
  LedgerResult,
  OrgMemberRow,
  PlanDetail,
  PlanItemCreateForm,
  PlanItemUpdateForm,
  PlanRow,
  ServiceOrderAction,
  ServiceOrderDetail,
  ServiceOrderRow,
  ServiceOrgCreateForm,
  ServiceOrgRow,
  ServiceOrgUpdateForm,
  ServicePersonCreateForm,
  ServicePersonRow,
  ServicePersonUpdateForm,
  ServiceRecordForm,
} from '@piibs/shared/risk-control';
import { queryOptions } from '@tanstack/react-query';
import { defineResource, postInline } from '@/components/crud/resource.ts';
import { downloadFile } from '@/lib/download.ts';
import { request } from '@/lib/http.ts';

// ---- paths ----

const BASE = '/piibs/riskControl';
export const SERVICE_LIST_PATH = `${BASE}/prevention/serviceList`;
export const EXPERT_PATH = `${BASE}/prevention/expert`;
export const preventionPath = (seqNo: string) => `${BASE}/prevention/index/${encodeURIComponent(seqNo)}`;
const orderPage = (page: 'service' | 'view' | 'success', seqNo: string, ref: string | number) =>
  `${BASE}/prevention/${page}/${encodeURIComponent(seqNo)}?order=${encodeURIComponent(String(ref))}`;
/** The organisation's on-site record form of an order. */
export const servicePath = (seqNo: string, ref: string | number) => orderPage('service', seqNo, ref);
/** The read-only record (confirm / return / rate / complain / rectify there). */
export const viewPath = (seqNo: string, ref: string | number) => orderPage('view', seqNo, ref);
/** The result page after a submission (organisation) or a confirmation (enterprise). */
export const successPath = (seqNo: string, ref: string | number) => orderPage('success', seqNo, ref);
export const orgEditPath = (id: number, detail: boolean) => `${BASE}/serviceOrg/newUpdate/${id}/${detail}`;
export const personEditPath = (id: number, detail: boolean, orgId?: number) =>
  `${BASE}/servicePerson/newUpdate/${id}/${detail}${orgId ? `?orgId=${orgId}` : ''}`;

// ---- resources (lists) ----

export const ordersResource = defineResource<ServiceOrderRow>({
  noun: '服务单',
  key: ['risk-control', 'orders'],
  list: 'api/prevention/orders',
  permission: { list: 'prevention:list' },
  rowId: (row) => row.id,
  rowLabel: (row) => row.number,
});

export const plansResource = defineResource<PlanRow>({
  noun: '事故预防记录',
  key: ['risk-control', 'plans'],
  list: 'api/prevention/plans',
  permission: { list: 'prevention:list' },
  rowId: (row) => row.seqNo,
  rowLabel: (row) => row.policyNumber,
});

export const orgsResource = defineResource<ServiceOrgRow>({
  noun: '服务机构',
  key: ['risk-control', 'orgs'],
  list: 'api/service-orgs',
  remove: 'api/service-orgs/delete',
  permission: 'service_org',
  rowId: (row) => row.id,
  rowLabel: (row) => row.name,
});

export const personsResource = defineResource<ServicePersonRow>({
  noun: '服务人员',
  key: ['risk-control', 'persons'],
  list: 'api/service-persons',
  remove: 'api/service-persons/delete',
  permission: 'service_person',
  rowId: (row) => row.id,
  rowLabel: (row) => row.name,
});

// ---- queries ----

const get = <T>(url: string, params?: Record<string, unknown>) =>
  request<T>({ url, method: 'get', params, inlineErrors: true });

export const planQuery = (seqNo: string) =>
  queryOptions({
    queryKey: [...plansResource.key, 'detail', seqNo],
    queryFn: () => get<PlanDetail>(`api/prevention/plans/${encodeURIComponent(seqNo)}`),
  });

export const ledgerQuery = (seqNo: string) =>
  queryOptions({
    queryKey: [...plansResource.key, 'ledger', seqNo],
    queryFn: () => get<LedgerResult>(`api/prevention/plans/${encodeURIComponent(seqNo)}/ledger`),
  });

export const orderQuery = (ref: string) =>
  queryOptions({
    queryKey: [...ordersResource.key, 'detail', ref],
    queryFn: () => get<ServiceOrderDetail>(`api/prevention/orders/${encodeURIComponent(ref)}`),
  });

export const orgQuery = (id: number) =>
  queryOptions({
    queryKey: [...orgsResource.key, 'detail', id],
    queryFn: () => get<ServiceOrgRow>(`api/service-orgs/${id}`),
  });

export const personQuery = (id: number) =>
  queryOptions({
    queryKey: [...personsResource.key, 'detail', id],
    queryFn: () => get<ServicePersonRow>(`api/service-persons/${id}`),
  });

/** Enabled organisations for a select (an organisation's own account sees only its own). */
export const orgOptionsQuery = () =>
  queryOptions({
    queryKey: [...orgsResource.key, 'options'],
    queryFn: () =>
      get<Page<ServiceOrgRow>>('api/service-orgs', {
        enabled: true,
        page: 0,
        size: 500,
        sort: 'name,asc',
      }).then((p) => p.content),
    staleTime: 30_000,
  });

/** The enabled persons of an organisation for a select. */
export const personOptionsQuery = (orgId: number | undefined) =>
  queryOptions({
    queryKey: [...personsResource.key, 'options', orgId ?? 0],
    queryFn: () =>
      get<Page<ServicePersonRow>>('api/service-persons', {
        orgId,
        enabled: true,
        page: 0,
        size: 500,
        sort: 'name,asc',
      }).then((p) => p.content),
    enabled: !!orgId,
    staleTime: 30_000,
  });

// ---- changes (refusals come back to the caller, shown beside the form) ----

const seq = (seqNo: string) => encodeURIComponent(seqNo);
const ref = (r: string | number) => encodeURIComponent(String(r));

export const addPlanItem = (seqNo: string, form: PlanItemCreateForm) =>
  postInline<PlanDetail>(`api/prevention/plans/${seq(seqNo)}/items`, form);
export const updatePlanItem = (seqNo: string, itemId: number, form: PlanItemUpdateForm) =>
  postInline<PlanDetail>(`api/prevention/plans/${seq(seqNo)}/items/${itemId}/update`, form);
export const deletePlanItem = (seqNo: string, itemId: number, version: number) =>
  postInline<PlanDetail>(`api/prevention/plans/${seq(seqNo)}/items/${itemId}/delete`, { version });
export const dispatchOrder = (seqNo: string, form: DispatchForm) =>
  postInline<ServiceOrderDetail>(`api/prevention/plans/${seq(seqNo)}/orders`, form);

/** A state change of an order with the version as loaded (409 when stale); `extra` carries reason/opinion …. */
export const orderAction = (
  r: string | number,
  action: ServiceOrderAction | 'rate',
  version: number,
  extra: Record<string, unknown> = {},
) => postInline<ServiceOrderDetail>(`api/prevention/orders/${ref(r)}/${action}`, { version, ...extra });
export const saveRecord = (r: string | number, form: ServiceRecordForm) =>
  postInline<ServiceOrderDetail>(`api/prevention/orders/${ref(r)}/record`, form);
export const rectifyHazard = (
  r: string | number,
  hazardId: number,
  body: { version: number; rectifiedDate: string; note?: string | null },
) => postInline<ServiceOrderDetail>(`api/prevention/orders/${ref(r)}/hazards/${hazardId}/rectify`, body);
export const complain = (r: string | number, content: string) =>
  postInline<ServiceOrderDetail>(`api/prevention/orders/${ref(r)}/complaints`, { content });
export const replyComplaint = (r: string | number, complaintId: number, reply: string) =>
  postInline<ServiceOrderDetail>(`api/prevention/orders/${ref(r)}/complaints/${complaintId}/reply`, {
    reply,
  });

export const createOrg = (form: ServiceOrgCreateForm) => postInline<ServiceOrgRow>('api/service-orgs', form);
export const updateOrg = (form: ServiceOrgUpdateForm) =>
  postInline<ServiceOrgRow>('api/service-orgs/update', form);
export const unmaskOrg = (id: number) =>
  postInline<{ contacts: ServiceOrgRow['contacts'] }>(`api/service-orgs/${id}/unmask`);

// ---- the sign-in accounts acting for an organisation ----

export const orgMembersQuery = (orgId: number) =>
  queryOptions({
    queryKey: [...orgsResource.key, 'members', orgId],
    queryFn: () => get<OrgMemberRow[]>(`api/service-orgs/${orgId}/members`),
  });
/** Service accounts that may be linked to the organisation (its own included), by username or nickname. */
export const memberCandidatesQuery = (orgId: number, keyword: string) =>
  queryOptions({
    queryKey: [...orgsResource.key, 'member-candidates', orgId, keyword],
    queryFn: () =>
      get<OrgMemberRow[]>(`api/service-orgs/${orgId}/member-candidates`, keyword ? { keyword } : undefined),
    staleTime: 10_000,
  });
/** Replaces the organisation's accounts (insurer staff; 409 when one belongs to another organisation). */
export const setOrgMembers = (orgId: number, userIds: number[]) =>
  postInline<OrgMemberRow[]>(`api/service-orgs/${orgId}/members`, { userIds });

export const createPerson = (form: ServicePersonCreateForm) =>
  postInline<ServicePersonRow>('api/service-persons', form);
export const updatePerson = (form: ServicePersonUpdateForm) =>
  postInline<ServicePersonRow>('api/service-persons/update', form);
export const unmaskPerson = (id: number) => postInline<{ phone: string }>(`api/service-persons/${id}/unmask`);

/** The enterprise's service archive (xlsx); an enterprise account may leave `uscc` out (its own). */
export const downloadArchive = (uscc: string | undefined) =>
  downloadFile('api/prevention/archive/download', {
    params: uscc ? { uscc } : {},
    name: `事故预防服务档案${uscc ? `-${uscc}` : ''}`,
  });
/** The same archive as a PDF summary (funds, orders, hazards, complaints per policy). */
export const downloadArchivePdf = (uscc: string | undefined) =>
  downloadFile('api/prevention/archive/pdf', {
    params: uscc ? { uscc } : {},
    name: `事故预防服务档案${uscc ? `-${uscc}` : ''}`,
    ext: 'pdf',
  });
