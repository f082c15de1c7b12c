// Calls of the image materials (影像资料): the record's list, the upload with progress, delete, and a file as
// a Blob (the files need the bearer token, so <img> cannot load them by URL: they become object URLs).
import type { MaterialBusinessType, MaterialList, MaterialRow } from '@piibs/shared/material';
import { queryOptions } from '@tanstack/react-query';
import { type HttpResponse, request } from '@/lib/http.ts';

export const materialsKey = (businessType: MaterialBusinessType, businessId: number) =>
  ['materials', businessType, businessId] as const;

/** The record's materials; a refusal (404 for a record the caller may not see) is shown by the panel. */
export const materialsQuery = (businessType: MaterialBusinessType, businessId: number) =>
  queryOptions({
    queryKey: materialsKey(businessType, businessId),
    queryFn: ({ signal }) =>
      request<MaterialList>({
        url: 'api/materials',
        method: 'get',
        params: { businessType, businessId },
        signal,
        inlineErrors: true,
      }),
  });

export interface UploadInput {
  businessType: MaterialBusinessType;
  businessId: number;
  docType: string;
  file: Blob & { name?: string };
  /** 0–100 while the bytes go up. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/** POST /api/materials as multipart; its refusals (400 type, 413 size, 409 state …) come back to the caller. */
export function uploadMaterial(input: UploadInput): Promise<MaterialRow> {
  const data = new FormData();
  data.append('businessType', input.businessType);
  data.append('businessId', String(input.businessId));
  data.append('docType', input.docType);
  data.append('file', input.file, input.file.name ?? 'file');
  return request<MaterialRow>({
    url: 'api/materials',
    method: 'post',
    data,
    signal: input.signal,
    inlineErrors: true,
    inlineForbidden: true,
    onUploadProgress: (event) => {
      if (event.total) input.onProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    },
  });
}

export function deleteMaterial(id: number): Promise<{ ok: true }> {
  return request<{ ok: true }>({
    url: `api/materials/${id}`,
    method: 'delete',
    inlineErrors: true,
    inlineForbidden: true,
  });
}

/** A material's bytes (the row's fileUrl or thumbnailUrl). */
export async function fetchMaterialBlob(url: string, signal?: AbortSignal): Promise<Blob> {
  const response = await request<HttpResponse<Blob>>({
    url: url.replace(/^\//, ''),
    responseType: 'blob',
    rawResponse: true,
    signal,
    inlineErrors: true,
  });
  return response.data;
}

/** The bytes as a query, cached while the page shows them. */
export const materialBlobQuery = (url: string) =>
  queryOptions({
    queryKey: ['material-file', url] as const,
    queryFn: ({ signal }) => fetchMaterialBlob(url, signal),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 5 * 60_000,
  });
