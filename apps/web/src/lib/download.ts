// File downloads through the one HTTP client: the server's file (e.g. an .xlsx export) saved under the name
// its Content-Disposition gives, else spec §9's `timestamp-name.ext`.
import { downloadFileName } from '@piibs/shared/constants';
import { type HttpResponse, request } from './http.ts';

/**
 * The file name of a Content-Disposition header: RFC 5987's `filename*=UTF-8''…` first (the server sends
 * Chinese names that way), then a plain or quoted `filename=`; null when there is none.
 */
export function fileNameFromDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      return decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed escape: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const name = (plain?.[2] ?? plain?.[1])?.trim();
  return name ? name : null;
}

/** Hands a blob to the browser as a download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled; revoking at once cancels the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

export interface DownloadOptions {
  /** Query parameters (the list's current filters and sort). */
  params?: Record<string, unknown>;
  /** The name part of the fallback `timestamp-name.ext` when the server names no file. */
  name: string;
  ext?: string;
}

/** GETs a file and saves it; answers the name it was saved under. Errors go through the client's policy. */
export async function downloadFile(url: string, options: DownloadOptions): Promise<string> {
  const response = await request<HttpResponse<Blob>>({
    url,
    params: options.params,
    responseType: 'blob',
    rawResponse: true,
  });
  const fileName =
    fileNameFromDisposition(response.headers['content-disposition'] ?? null) ??
    downloadFileName(options.name, options.ext ?? 'xlsx');
  saveBlob(response.data, fileName);
  return fileName;
}
