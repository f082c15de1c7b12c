// A list's page, size, sort and filters live in the URL's search params (refine's habit): a reload, a shared
// link or the browser's Back button restores the list exactly as it was.
import { useCallback, useMemo, useRef } from 'react';
import { type SetURLSearchParams, useSearchParams } from 'react-router';

export const PAGE_SIZES = [10, 20, 50, 100] as const;
/**
 * The API's paging, as DEFAULT_PAGE_SIZE / MAX_PAGE_SIZE of @piibs/shared/admin (a test holds them equal):
 * importing that module would bring its zod schemas into every list page.
 */
export const LIST_DEFAULT_SIZE = 10;
export const LIST_MAX_SIZE = 500;

export interface ListStateOptions {
  /** Namespace of the URL keys for a second list on the same page: 'entry' → entry.page, entry.sort … */
  prefix?: string;
  defaultSize?: number;
  /** `field,asc|desc` when the URL names no sort; undefined lets the server order. */
  defaultSort?: string;
  /**
   * The filter keys this list reads. Without it every key that is not page/size/sort (and, for an unprefixed
   * list, has no '.') is a filter.
   */
  filterKeys?: readonly string[];
}

export type Filters = Readonly<Record<string, string>>;

/** The query of a list call: 0-based page, size, optional sort and the filters, as the server takes them. */
export type ListParams = Readonly<Record<string, string | number>>;

export interface ListSnapshot {
  /** 0-based, as the API counts. */
  page: number;
  size: number;
  /** `field,asc|desc`. */
  sort: string | undefined;
  filters: Filters;
}

export interface ListState extends ListSnapshot {
  params: ListParams;
  /** True when a filter is set (the empty state then suggests resetting them). */
  filtered: boolean;
  /** Goes to a page (0-based); a new size goes back to the first page. */
  setPage(page: number, size?: number): void;
  setSort(sort: string | undefined): void;
  /** Replaces the filters (empty values dropped) and goes back to the first page. */
  setFilters(filters: Readonly<Record<string, string | number | null | undefined>>): void;
  /** Clears filters, sort and page. */
  reset(): void;
}

const RESERVED = ['page', 'size', 'sort'] as const;

function keyOf(prefix: string | undefined, name: string): string {
  return prefix ? `${prefix}.${name}` : name;
}

function nonNegativeInt(text: string | null): number | undefined {
  if (text === null || !/^\d{1,9}$/.test(text)) return undefined;
  return Number(text);
}

const SORT = /^[A-Za-z][A-Za-z0-9_]*,(asc|desc)$/;

/** Reads a list's state from search params; anything malformed falls back to the defaults. */
export function readListState(search: URLSearchParams, options: ListStateOptions = {}): ListSnapshot {
  const { prefix, defaultSize = LIST_DEFAULT_SIZE, defaultSort, filterKeys } = options;
  const page = nonNegativeInt(search.get(keyOf(prefix, 'page'))) ?? 0;
  const sizeValue = nonNegativeInt(search.get(keyOf(prefix, 'size')));
  const size = sizeValue && sizeValue <= LIST_MAX_SIZE ? sizeValue : defaultSize;
  const sortValue = search.get(keyOf(prefix, 'sort'));
  // An empty `sort=` means "cleared", which must win over the default.
  const sort = sortValue === '' ? undefined : sortValue && SORT.test(sortValue) ? sortValue : defaultSort;

  const filters: Record<string, string> = {};
  const reserved = new Set<string>(RESERVED.map((name) => keyOf(prefix, name)));
  for (const [key, value] of search) {
    if (reserved.has(key) || value === '') continue;
    let name: string;
    if (prefix) {
      if (!key.startsWith(`${prefix}.`)) continue;
      name = key.slice(prefix.length + 1);
    } else {
      if (key.includes('.')) continue;
      name = key;
    }
    if (filterKeys && !filterKeys.includes(name)) continue;
    filters[name] = value;
  }
  return { page, size, sort, filters };
}

/** The API query of a snapshot. */
export function toListParams(state: ListSnapshot): ListParams {
  return {
    ...state.filters,
    page: state.page,
    size: state.size,
    ...(state.sort ? { sort: state.sort } : {}),
  };
}

/** Writes a snapshot back into search params, leaving other lists' keys alone and defaults out of the URL. */
export function writeListState(
  search: URLSearchParams,
  state: ListSnapshot,
  options: ListStateOptions = {},
): URLSearchParams {
  const { prefix, defaultSize = LIST_DEFAULT_SIZE, defaultSort, filterKeys } = options;
  const reserved = new Set<string>(RESERVED.map((name) => keyOf(prefix, name)));
  const filterNames = filterKeys ? new Set(filterKeys.map((name) => keyOf(prefix, name))) : undefined;
  // The list's own keys are rewritten; everything else in the URL (another list, a selected row …) stays.
  const mine = (key: string) =>
    reserved.has(key) ||
    (filterNames ? filterNames.has(key) : prefix ? key.startsWith(`${prefix}.`) : !key.includes('.'));
  const next = new URLSearchParams();
  for (const [key, value] of search) {
    if (!mine(key)) next.append(key, value);
  }
  for (const [name, value] of Object.entries(state.filters)) {
    if (value !== '') next.set(keyOf(prefix, name), value);
  }
  if (state.sort && state.sort !== defaultSort) next.set(keyOf(prefix, 'sort'), state.sort);
  // Cleared while a default exists: say so, or the default would come back.
  if (!state.sort && defaultSort) next.set(keyOf(prefix, 'sort'), '');
  if (state.size !== defaultSize) next.set(keyOf(prefix, 'size'), String(state.size));
  if (state.page > 0) next.set(keyOf(prefix, 'page'), String(state.page));
  return next;
}

function cleanFilters(filters: Readonly<Record<string, string | number | null | undefined>>): Filters {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(filters)) {
    if (value === undefined || value === null) continue;
    const text = String(value).trim();
    if (text !== '') out[name] = text;
  }
  return out;
}

function sameFilters(a: Filters, b: Filters): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * A list's state in the URL. Every change is a new history entry, so Back steps through the pages and
 * searches the user made. Hidden keep-alive tabs read their own saved URL (see layout/AppMain).
 */
export function useListState(options: ListStateOptions = {}): ListState {
  const [search, setSearch] = useSearchParams();
  const { prefix, defaultSize, defaultSort, filterKeys } = options;
  // Options are usually literals: depend on their values, not their identity.
  const filterKeysKey = filterKeys?.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: filterKeysKey stands for filterKeys
  const opts = useMemo<ListStateOptions>(
    () => ({ prefix, defaultSize, defaultSort, filterKeys }),
    [prefix, defaultSize, defaultSort, filterKeysKey],
  );
  const snapshot = readListState(search, opts);
  const searchText = search.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the snapshot is derived from searchText
  const stable = useMemo(() => snapshot, [searchText, opts]);
  const update = useUpdater(search, setSearch, opts);

  return useMemo<ListState>(
    () => ({
      ...stable,
      params: toListParams(stable),
      filtered: Object.keys(stable.filters).length > 0,
      setPage: (page, size) =>
        update((current) =>
          size !== undefined && size !== current.size
            ? { ...current, page: 0, size }
            : { ...current, page: Math.max(0, page) },
        ),
      setSort: (sort) => update((current) => ({ ...current, sort, page: 0 })),
      setFilters: (filters) =>
        update((current) => {
          const next = cleanFilters(filters);
          // Searching again with the same values keeps the page.
          return sameFilters(next, current.filters) ? current : { ...current, filters: next, page: 0 };
        }),
      reset: () => update((current) => ({ ...current, filters: {}, page: 0, sort: opts.defaultSort })),
    }),
    [stable, update, opts],
  );
}

function useUpdater(search: URLSearchParams, setSearch: SetURLSearchParams, opts: ListStateOptions) {
  const latest = useRef(search);
  latest.current = search;
  return useCallback(
    (change: (current: ListSnapshot) => ListSnapshot) => {
      const current = readListState(latest.current, opts);
      const next = writeListState(latest.current, change(current), opts);
      // No history entry for a change that changes nothing (searching again with the same values).
      if (next.toString() !== latest.current.toString()) setSearch(next);
    },
    [setSearch, opts],
  );
}
