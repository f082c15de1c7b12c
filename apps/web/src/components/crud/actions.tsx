// The kit's actions on a resource: delete with a confirmation, and export of the current query.
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useAppApis } from '@/lib/app-apis.tsx';
import { downloadFile } from '@/lib/download.ts';
import type { ListParams } from './list-state.ts';
import { type CrudResource, errorMessage, invalidateResource, postInline, type RowId } from './resource.ts';
import { CRUD_TEXTS as T } from './texts.ts';

/** Calls the resource's delete; refusals come back to the caller (shown in a dialog, not a notice). */
export function removeRows<T>(resource: CrudResource<T>, ids: RowId[]): Promise<unknown> {
  const { remove } = resource;
  if (!remove) throw new Error(`${resource.noun} cannot be deleted: the resource has no remove call`);
  if (typeof remove === 'function') return remove(ids);
  return postInline(remove, ids);
}

export interface DeleteOptions<T> {
  /** Added under the question, e.g. '下级部门将一并删除。' */
  warning?: ReactNode;
  onDeleted?: (rows: T[]) => void;
}

/**
 * Asks before deleting (Modal.confirm, in Chinese), then deletes, refreshes the lists and says so. A refusal
 * (a department that still has users …) is shown with the server's own words.
 */
export function useDeleteRows<T>(resource: CrudResource<T>, options: DeleteOptions<T> = {}) {
  const { modal, message } = useAppApis();
  const client = useQueryClient();
  return (rows: T[]) => {
    if (rows.length === 0) return;
    const first = rows[0]!;
    const question =
      rows.length === 1
        ? T.deleteOne(resource.rowLabel?.(first) ?? String(resource.rowId(first)))
        : T.deleteMany(rows.length);
    modal.confirm({
      title: T.confirmTitle,
      content: (
        <>
          <div>{question}</div>
          <div style={{ marginTop: 4, opacity: 0.65 }}>{options.warning ?? T.deleteIrreversible}</div>
        </>
      ),
      okText: T.ok,
      okType: 'danger',
      cancelText: T.cancel,
      onOk: async () => {
        try {
          await removeRows(resource, rows.map(resource.rowId));
        } catch (error) {
          modal.error({ title: T.deleteFailed, content: errorMessage(error), okText: T.ok });
          return;
        }
        void message.success(T.deleted);
        options.onDeleted?.(rows);
        await invalidateResource(client, resource);
      },
    });
  };
}

/** Downloads the resource's export for the list's current query (filters and sort, every page). */
export function useExport<T>(resource: CrudResource<T>) {
  const { message } = useAppApis();
  const [exporting, setExporting] = useState(false);
  const run = async (params: ListParams) => {
    const { download } = resource;
    if (!download) return;
    const { page: _page, size: _size, ...query } = params;
    setExporting(true);
    try {
      const fileName = await downloadFile(download.url, { params: query, name: download.name });
      void message.success(T.exported(fileName));
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setExporting(false);
    }
  };
  return { exporting, run };
}
