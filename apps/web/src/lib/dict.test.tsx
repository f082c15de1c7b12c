import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SentRequest } from '@/lib/http.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { DictLabel, dictLabel, invalidateDict, loadDict, resetDictCache, useDict } from './dict.tsx';
import { resetHttp } from './http.ts';

const ENTRIES: Record<string, { label: string; value: string }[]> = {
  user_status: [
    { value: 'true', label: '启用' },
    { value: 'false', label: '停用' },
  ],
  id_type: [{ value: '01', label: '居民身份证' }],
};

let api: MockApi;
let release: (() => void) | null = null;

function answer(config: SentRequest) {
  const name = (config.params as { dictName: string }).dictName;
  const rows = (ENTRIES[name] ?? []).map((entry, i) => ({
    id: i + 1,
    dictId: 1,
    dictName: name,
    sort: i,
    ...entry,
  }));
  return { data: { content: rows, totalElements: rows.length } };
}

afterEach(() => {
  api?.restore();
  resetDictCache();
  resetHttp();
  release = null;
});

function Labels({ name }: { name: string }) {
  const options = useDict(name);
  return <span data-testid={`labels-${name}`}>{options.map((o) => o.label).join(',')}</span>;
}

describe('dictionary cache', () => {
  it('fetches each dictionary once per name with page=0&size=9999 (spec §9), shared by every component', async () => {
    api = mockApi({ 'GET api/dictDetail': answer });
    render(
      <>
        <Labels name="user_status" />
        <Labels name="user_status" />
        <DictLabel dict="user_status" value={false} />
        <Labels name="id_type" />
      </>,
    );
    await waitFor(() =>
      expect(screen.getAllByTestId('labels-user_status')[0]).toHaveTextContent('启用,停用'),
    );
    expect(screen.getByText('停用')).toBeInTheDocument();
    expect(screen.getByTestId('labels-id_type')).toHaveTextContent('居民身份证');
    const calls = api.callsTo('GET api/dictDetail');
    expect(calls.map((c) => c.params)).toEqual([
      { dictName: 'user_status', page: 0, size: 9999 },
      { dictName: 'id_type', page: 0, size: 9999 },
    ]);

    // Mounted later: served from the cache.
    render(<Labels name="user_status" />);
    expect(screen.getAllByTestId('labels-user_status').at(-1)).toHaveTextContent('启用,停用');
    expect(api.callsTo('GET api/dictDetail')).toHaveLength(2);
  });

  it('shares a fetch under way', async () => {
    api = mockApi({
      'GET api/dictDetail': (config) =>
        new Promise((resolve) => {
          release = () => resolve(answer(config));
        }),
    });
    const first = loadDict('id_type');
    const second = loadDict('id_type');
    expect(second).toBe(first);
    await waitFor(() => expect(release).not.toBeNull());
    release!();
    expect(await first).toEqual([{ label: '居民身份证', value: '01' }]);
    expect(api.callsTo('GET api/dictDetail')).toHaveLength(1);
  });

  it('invalidation refetches a dictionary on screen and forgets one that is not', async () => {
    api = mockApi({ 'GET api/dictDetail': answer });
    await loadDict('id_type');
    render(<Labels name="user_status" />);
    await waitFor(() => expect(screen.getByTestId('labels-user_status')).toHaveTextContent('启用,停用'));
    expect(api.callsTo('GET api/dictDetail')).toHaveLength(2);

    ENTRIES.user_status = [...ENTRIES.user_status!, { value: 'locked', label: '锁定' }];
    act(() => invalidateDict('user_status'));
    await waitFor(() => expect(screen.getByTestId('labels-user_status')).toHaveTextContent('启用,停用,锁定'));
    expect(api.callsTo('GET api/dictDetail')).toHaveLength(3);

    // Not on screen: fetched again only when next used.
    invalidateDict('id_type');
    expect(api.callsTo('GET api/dictDetail')).toHaveLength(3);
    await loadDict('id_type');
    expect(api.callsTo('GET api/dictDetail')).toHaveLength(4);
  });

  it('labels fall back to the value itself', () => {
    expect(dictLabel([{ label: '启用', value: 'true' }], true)).toBe('启用');
    expect(dictLabel([], 'x9')).toBe('x9');
    expect(dictLabel([], null)).toBe('');
  });
});
