// What a CRUD screen manages, described once: its list call, delete call, export and permission codes.
// The kit's table, delete confirmation and export read it, so a page only lists its columns and its form.
import type { Page } from '@piibs/shared/admin';
import { keepPreviousData, type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { HTTP_TEXTS, isHttpError, refusalOf, request } from '@/lib/http.ts';
import type { ListParams } from './list-state.ts';
import { CRUD_TEXTS as T } from './texts.ts';

export type RowId = number | string;

/** The permission codes the server checks for the resource's calls (`user:list` …). */
export interface ResourcePermissions {
  list?: string;
  add?: string;
  edit?: string;
  del?: string;
}

export interface CrudResource<T> {
  /** The noun in messages: '用户' ('暂无用户', '确定删除…'). */
  noun: string;
  /** Root of the resource's react-query keys; invalidating it refreshes every list of it. */
  key: readonly string[];
  /** GET, answering `{ content, totalElements }` (a tree list answers all rows in `content`). */
  list: string;
  /** POST with the ids as a JSON array, or a call of its own (one request per id …). */
  remove?: string | ((ids: RowId[]) => Promise<unknown>);
  /** GET with the list's query, answering a file; `name` is the fallback file name. */
  download?: { url: string; name: string };
  /** `user` → user:list / user:add / user:edit / user:del, or the codes one by one. */
  permission: string | ResourcePermissions;
  rowId: (row: T) => RowId;
  /** What a row is called in a delete confirmation ('「张三」'). */
  rowLabel?: (row: T) => string;
}

export function defineResource<T>(resource: CrudResource<T>): CrudResource<T> {
  return resource;
}

export function permissionsOfResource(resource: CrudResource<never>): ResourcePermissions {
  const p = resource.permission;
  if (typeof p !== 'string') return p;
  return { list: `${p}:list`, add: `${p}:add`, edit: `${p}:edit`, del: `${p}:del` };
}

/** The react-query key of one list query: the resource's key, then the query itself. */
export function listKey(resource: CrudResource<never>, params: ListParams): readonly unknown[] {
  return [...resource.key, 'list', params];
}

/**
 * One page of the resource. A failure follows the spec §8 policy (the server's message as a notice for 5 s, one
 * per distinct message); the table shows it as well, beside its 重试 button.
 */
export function fetchPage<T>(resource: CrudResource<T>, params: ListParams, signal?: AbortSignal) {
  return request<Page<T>>({ url: resource.list, method: 'get', params, signal });
}

/**
 * For a list that pages by cursor (its answers carry `cursors`): the cursor of a page next to a cached
 * neighbour — `after` the full page before it, or `before` the page after it — so stepping to the next or
 * previous page costs the server one index range, not an OFFSET, however deep. Other pages go by number.
 */
export function cursorFor(
  client: QueryClient,
  resource: CrudResource<never>,
  params: ListParams,
): { after?: string; before?: string } {
  const page = Number(params.page);
  if (!Number.isInteger(page) || page < 1) return {};
  const cached = (p: number) => client.getQueryData<Page<unknown>>(listKey(resource, { ...params, page: p }));
  const previous = cached(page - 1);
  if (previous?.cursors && previous.content.length === Number(params.size))
    return { after: previous.cursors.after };
  const next = cached(page + 1);
  if (next?.cursors && next.content.length > 0) return { before: next.cursors.before };
  return {};
}

/** The resource's list for a query, kept on screen while the next page loads. */
export function useCrudList<T>(resource: CrudResource<T>, params: ListParams, enabled = true) {
  const client = useQueryClient();
  return useQuery({
    // The cursor is not part of the key: a page is the same page however it was reached.
    queryKey: listKey(resource, params),
    queryFn: ({ signal }) =>
      fetchPage(resource, { ...params, ...cursorFor(client, resource, params) }, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Refreshes every list of the resource. */
export function invalidateResource(client: QueryClient, resource: CrudResource<never>): Promise<void> {
  return client.invalidateQueries({ queryKey: resource.key });
}

/** Finds a row by id in any cached list of the resource (rows of tree lists included). */
function findCachedRow<T>(client: QueryClient, resource: CrudResource<T>, id: RowId): T | undefined {
  for (const [, page] of client.getQueriesData<Page<T>>({ queryKey: resource.key })) {
    const found = findInTree(page?.content ?? [], resource.rowId, id);
    if (found) return found;
  }
  return undefined;
}

function findInTree<T>(rows: readonly T[], rowId: (row: T) => RowId, id: RowId): T | undefined {
  for (const row of rows) {
    if (rowId(row) === id) return row;
    const children = (row as { children?: T[] }).children;
    if (Array.isArray(children)) {
      const found = findInTree(children, rowId, id);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Reloads the resource's lists and answers the current version of a row (undefined when it is gone or no
 * longer in a cached list): after a 409 the form shows what the server holds now.
 */
export async function reloadRow<T>(
  client: QueryClient,
  resource: CrudResource<T>,
  id: RowId,
): Promise<T | undefined> {
  await client.refetchQueries({ queryKey: resource.key, type: 'active' });
  return findCachedRow(client, resource, id);
}

/** A refusal from the server: its status and its Chinese message. */
export interface ServerError {
  status: number;
  message: string;
}

/** The server's refusal in an error, or null for a network failure, a timeout or a cancelled call. */
export function serverError(error: unknown): ServerError | null {
  const refusal = refusalOf(error);
  if (!refusal) return null;
  const { status, data } = refusal;
  const message = (data as { message?: unknown } | undefined)?.message;
  return { status, message: typeof message === 'string' && message ? message : T.requestFailed(status) };
}

/** What to show for a failed call: the server's message, else the client's words for what went wrong. */
export function errorMessage(error: unknown): string {
  const refusal = serverError(error);
  if (refusal) return refusal.message;
  if (isHttpError(error)) return error.code === 'ECONNABORTED' ? HTTP_TEXTS.timeout : HTTP_TEXTS.failed;
  return T.loadFailed;
}

/**
 * A POST whose refusal the caller shows beside its form or in a dialog (CrudModal, delete): the client does
 * not notify it, and a 403 on a rule ("角色权限不足 …") stays on the page.
 */
export function postInline<T = unknown>(url: string, data?: unknown): Promise<T> {
  return request<T>({ url, method: 'post', data, inlineErrors: true, inlineForbidden: true });
}
