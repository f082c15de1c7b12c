import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@piibs/shared/admin';
import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import {
  LIST_DEFAULT_SIZE,
  LIST_MAX_SIZE,
  type ListStateOptions,
  readListState,
  toListParams,
  useListState,
  writeListState,
} from './list-state.ts';

describe('list state in the URL (pure)', () => {
  it('pages as the API does', () => {
    expect([LIST_DEFAULT_SIZE, LIST_MAX_SIZE]).toEqual([DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE]);
  });

  it('reads page (0-based), size, sort and filters, falling back to the defaults', () => {
    const state = readListState(
      new URLSearchParams('page=2&size=20&sort=createdAt,desc&blurry=张&enabled=true'),
    );
    expect(state).toEqual({
      page: 2,
      size: 20,
      sort: 'createdAt,desc',
      filters: { blurry: '张', enabled: 'true' },
    });
    expect(toListParams(state)).toEqual({
      page: 2,
      size: 20,
      sort: 'createdAt,desc',
      blurry: '张',
      enabled: 'true',
    });

    expect(
      readListState(new URLSearchParams('page=-1&size=abc&sort=drop table'), { defaultSort: 'id,asc' }),
    ).toEqual({
      page: 0,
      size: 10,
      sort: 'id,asc',
      filters: {},
    });
    // An explicitly cleared sort wins over the default.
    expect(readListState(new URLSearchParams('sort='), { defaultSort: 'id,asc' }).sort).toBeUndefined();
    expect(readListState(new URLSearchParams('size=100000')).size).toBe(10);
  });

  it('keeps defaults out of the URL and leaves the keys of other lists alone', () => {
    const options: ListStateOptions = { defaultSort: 'createdAt,desc', filterKeys: ['blurry'] };
    const next = writeListState(
      new URLSearchParams('role=3&entry.page=4&blurry=old'),
      { page: 0, size: 10, sort: 'createdAt,desc', filters: { blurry: 'new' } },
      options,
    );
    expect(next.toString()).toBe('role=3&entry.page=4&blurry=new');
  });

  it('a prefixed list reads and writes only its own keys', () => {
    const search = new URLSearchParams('page=1&blurry=a&entry.page=3&entry.label=是');
    expect(readListState(search, { prefix: 'entry' })).toEqual({
      page: 3,
      size: 10,
      sort: undefined,
      filters: { label: '是' },
    });
    // The unprefixed list ignores the dotted keys.
    expect(readListState(search).filters).toEqual({ blurry: 'a' });
    const next = writeListState(
      search,
      { page: 0, size: 20, sort: 'sort,asc', filters: {} },
      { prefix: 'entry' },
    );
    expect(next.toString()).toBe('page=1&blurry=a&entry.sort=sort%2Casc&entry.size=20');
  });
});

let renders = 0;

function Probe() {
  const list = useListState({ filterKeys: ['blurry'], defaultSort: 'createdAt,desc' });
  renders += 1;
  return (
    <div>
      <output data-testid="state">{JSON.stringify(list.params)}</output>
      <button type="button" onClick={() => list.setPage(3)}>
        page
      </button>
      <button type="button" onClick={() => list.setPage(3, 50)}>
        size
      </button>
      <button type="button" onClick={() => list.setSort('username,asc')}>
        sort
      </button>
      <button type="button" onClick={() => list.setFilters({ blurry: ' 张三 ' })}>
        filter
      </button>
      <button type="button" onClick={() => list.reset()}>
        reset
      </button>
    </div>
  );
}

function renderProbe(url: string) {
  const router = createMemoryRouter([{ path: '*', element: <Probe /> }], { initialEntries: [url] });
  const view = render(<RouterProvider router={router} />);
  const state = () => JSON.parse(screen.getByTestId('state').textContent ?? '{}') as Record<string, unknown>;
  return { router, view, state };
}

describe('useListState', () => {
  it('page, sort and filters live in the URL and survive a re-render', async () => {
    const { router, view, state } = renderProbe('/piibs/system/user');
    expect(state()).toEqual({ page: 0, size: 10, sort: 'createdAt,desc' });

    await act(() => screen.getByText('filter').click());
    expect(router.state.location.search).toBe('?blurry=%E5%BC%A0%E4%B8%89');
    await act(() => screen.getByText('page').click());
    await act(() => screen.getByText('sort').click());
    // A new sort goes back to the first page.
    expect(state()).toEqual({ page: 0, size: 10, sort: 'username,asc', blurry: '张三' });
    await act(() => screen.getByText('page').click());
    expect(state()).toEqual({ page: 3, size: 10, sort: 'username,asc', blurry: '张三' });

    // Unmounted and mounted again (a tab closed and reopened on the same URL): the state comes back.
    view.unmount();
    const before = renders;
    render(<RouterProvider router={router} />);
    expect(renders).toBeGreaterThan(before);
    expect(state()).toEqual({ page: 3, size: 10, sort: 'username,asc', blurry: '张三' });

    // A new size starts from the first page again.
    await act(() => screen.getByText('size').click());
    expect(state()).toEqual({ page: 0, size: 50, sort: 'username,asc', blurry: '张三' });
  });

  it('Back restores the previous page, sort and search', async () => {
    const { router, state } = renderProbe('/piibs/system/user?page=1&blurry=a');
    expect(state()).toMatchObject({ page: 1, blurry: 'a' });
    await act(() => screen.getByText('filter').click());
    expect(state()).toMatchObject({ page: 0, blurry: '张三' });
    await act(() => screen.getByText('page').click());
    expect(state()).toMatchObject({ page: 3, blurry: '张三' });

    await act(() => router.navigate(-1));
    expect(state()).toMatchObject({ page: 0, blurry: '张三' });
    await act(() => router.navigate(-1));
    expect(state()).toEqual({ page: 1, size: 10, sort: 'createdAt,desc', blurry: 'a' });
  });

  it('searching again with the same values adds no history entry; reset clears filters and sort', async () => {
    const { router, state } = renderProbe('/piibs/system/user?blurry=%E5%BC%A0%E4%B8%89&page=2');
    const entries = () => (router.state.historyAction === 'PUSH' ? router.state.location.key : 'initial');
    const key = entries();
    await act(() => screen.getByText('filter').click());
    expect(entries()).toBe(key);
    expect(state()).toMatchObject({ page: 2 });

    await act(() => screen.getByText('reset').click());
    expect(state()).toEqual({ page: 0, size: 10, sort: 'createdAt,desc' });
    expect(router.state.location.search).toBe('');
  });
});
