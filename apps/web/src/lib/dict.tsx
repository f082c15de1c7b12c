// The dictionary cache (spec §3 "Dictionary entry", §7 GET api/dictDetail, §9 page size 9999): each
// dictionary is fetched once per name and shared by every select and label on every page; a fetch already
// under way is shared too. The dictionary page invalidates a name after editing it, and whatever shows that
// dictionary re-renders with the new entries.
import type { DictDetailRow, Page } from '@piibs/shared/admin';
import { DICT_PAGE_SIZE } from '@piibs/shared/constants';
import { Select, type SelectProps } from 'antd';
import { useEffect, useSyncExternalStore } from 'react';
import { request } from './http.ts';

export interface DictOption {
  label: string;
  value: string;
}

interface Entry {
  /** The entries; while a refresh runs, the previous ones (so selects do not flash empty). */
  options: DictOption[];
  status: 'loading' | 'ready' | 'error';
  promise: Promise<DictOption[]>;
  error?: unknown;
}

const cache = new Map<string, Entry>();
/** How many mounted components show each name: an invalidated name they show is fetched again at once. */
const watchers = new Map<string, number>();
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

function fetchDict(name: string): Promise<DictOption[]> {
  return request<Page<DictDetailRow>>({
    url: 'api/dictDetail',
    method: 'get',
    params: { dictName: name, page: 0, size: DICT_PAGE_SIZE },
  }).then((page) => page.content.map(({ label, value }) => ({ label, value })));
}

function start(name: string, previous: DictOption[] = []): Entry {
  const promise = fetchDict(name);
  const entry: Entry = { options: previous, status: 'loading', promise };
  cache.set(name, entry);
  promise.then(
    (options) => {
      // A newer fetch (after an invalidation) owns the name now.
      if (cache.get(name) !== entry) return;
      cache.set(name, { options, status: 'ready', promise });
      emit();
    },
    (error: unknown) => {
      if (cache.get(name) !== entry) return;
      cache.set(name, { options: previous, status: 'error', promise, error });
      emit();
    },
  );
  return entry;
}

/** The entries of a dictionary: from the cache, from the fetch under way, or fetched now (then cached). */
export function loadDict(name: string): Promise<DictOption[]> {
  const entry = cache.get(name);
  if (entry && entry.status !== 'error') return entry.promise;
  const started = start(name, entry?.options);
  emit();
  return started.promise;
}

/**
 * Forgets a dictionary (or all of them): the next use fetches it again, and a dictionary on screen is
 * fetched again now.
 */
export function invalidateDict(name?: string): void {
  const names = name === undefined ? [...cache.keys()] : [name];
  for (const n of names) {
    const entry = cache.get(n);
    if (!entry) continue;
    if ((watchers.get(n) ?? 0) > 0) start(n, entry.options);
    else cache.delete(n);
  }
  emit();
}

/** Empties the cache; for tests. */
export function resetDictCache(): void {
  cache.clear();
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export interface DictState {
  options: DictOption[];
  loading: boolean;
  error: unknown;
  /** Fetches again after a failure. */
  retry: () => void;
}

const NO_OPTIONS: DictOption[] = [];

/** A dictionary's entries with their loading state; `name` undefined shows nothing and fetches nothing. */
export function useDictState(name: string | undefined): DictState {
  const entry = useSyncExternalStore(subscribe, () => (name ? cache.get(name) : undefined));
  useEffect(() => {
    if (!name) return;
    watchers.set(name, (watchers.get(name) ?? 0) + 1);
    if (!cache.has(name)) loadDict(name).catch(() => {});
    return () => {
      const left = (watchers.get(name) ?? 1) - 1;
      if (left > 0) watchers.set(name, left);
      else watchers.delete(name);
    };
  }, [name]);
  return {
    options: entry?.options ?? NO_OPTIONS,
    loading: !!name && (entry === undefined || entry.status === 'loading'),
    error: entry?.status === 'error' ? entry.error : undefined,
    retry: () => {
      if (name) loadDict(name).catch(() => {});
    },
  };
}

/** A dictionary's entries as `{ label, value }` options (empty until they arrive). */
export function useDict(name: string): DictOption[] {
  return useDictState(name).options;
}

/** The label of a value in a list of options; the value itself when the dictionary does not know it. */
export function dictLabel(options: readonly DictOption[], value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  const text = String(value);
  return options.find((option) => option.value === text)?.label ?? text;
}

/** Renders a value by its dictionary label: `<DictLabel dict="user_status" value={row.enabled} />`. */
export function DictLabel({ dict, value, empty = '—' }: { dict: string; value: unknown; empty?: string }) {
  const options = useDict(dict);
  return <>{dictLabel(options, value) || empty}</>;
}

export type DictSelectProps = Omit<SelectProps<string>, 'options' | 'loading'> & { dict: string };

/** A select filled from a dictionary: `<DictSelect dict="user_channel" />`. */
export function DictSelect({ dict, placeholder = '请选择', allowClear = true, ...rest }: DictSelectProps) {
  const { options, loading } = useDictState(dict);
  return (
    <Select<string>
      {...rest}
      placeholder={placeholder}
      allowClear={allowClear}
      loading={loading}
      options={options}
      optionFilterProp="label"
    />
  );
}
