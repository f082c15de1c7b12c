import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Activity, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp, resetHttp, type SentRequest } from '@/lib/http.ts';
import { type MockApi, mockApi } from '@/test/mock-api.ts';
import { onPhone } from '@/test/phone.ts';
import { type CrudColumn, CrudTable } from './CrudTable.tsx';
import { columnPrefsKey } from './column-prefs.ts';
import { useListState } from './list-state.ts';
import { defineResource } from './resource.ts';
import { type SearchField, SearchForm, searchKeys } from './SearchForm.tsx';
import { renderWithProviders, resetKitState, signInAs } from './test-utils.tsx';

type Thing = { id: number; name: string; createdAt: string };

const things = defineResource<Thing>({
  noun: '事物',
  key: ['test', 'things'],
  list: 'api/things',
  remove: 'api/things/delete',
  download: { url: 'api/things/download', name: '事物数据' },
  permission: 'thing',
  rowId: (row) => row.id,
  rowLabel: (row) => row.name,
});

const NAMES = '甲乙丙丁戊己庚辛壬癸';
const ALL: Thing[] = Array.from({ length: 25 }, (_, i) => ({
  id: i + 1,
  name: `${NAMES[i % 10]}${i + 1}`,
  createdAt: `2026-01-${String(i + 1).padStart(2, '0')}T00:00:00.000Z`,
}));

const columns: CrudColumn<Thing>[] = [
  { key: 'name', title: '名称', dataIndex: 'name', sortField: 'name', alwaysVisible: true },
  { key: 'createdAt', title: '创建时间', dataIndex: 'createdAt', sortField: 'createdAt' },
];
const SEARCH: SearchField[] = [{ kind: 'input', name: 'blurry', label: '关键词' }];

function ThingsPage() {
  const list = useListState({ filterKeys: searchKeys(SEARCH) });
  return (
    <>
      <SearchForm fields={SEARCH} list={list} />
      <CrudTable<Thing> id="test.things" resource={things} list={list} columns={columns} />
    </>
  );
}

function pageOf(config: SentRequest) {
  const params = config.params as { page: number; size: number; blurry?: string };
  const rows = ALL.filter((row) => !params.blurry || row.name.includes(params.blurry));
  const start = params.page * params.size;
  return { data: { content: rows.slice(start, start + params.size), totalElements: rows.length } };
}

let api: MockApi;

beforeEach(() => signInAs(['admin']));
afterEach(() => {
  api?.restore();
  resetKitState();
  vi.restoreAllMocks();
});

const lastListParams = () => api.callsTo('GET api/things').at(-1)?.params as Record<string, unknown>;
const rowNames = () =>
  screen
    .getAllByRole('row', { hidden: false })
    .slice(1)
    .map((row) => within(row).queryAllByRole('cell')[1]?.textContent);

describe('CrudTable', () => {
  it('pages on the server: the page is sent 0-based, kept in the URL, and the total is shown', async () => {
    api = mockApi({ 'GET api/things': pageOf });
    const { search } = renderWithProviders(<ThingsPage />);
    expect(await screen.findByText('甲1')).toBeInTheDocument();
    expect(lastListParams()).toEqual({ page: 0, size: 10 });
    expect(screen.getByText('共 25 条')).toBeInTheDocument();

    fireEvent.click(screen.getByTitle('3'));
    expect(await screen.findByText('甲21')).toBeInTheDocument();
    expect(lastListParams()).toEqual({ page: 2, size: 10 });
    expect(search().get('page')).toBe('2');
  });

  it('a list that answers cursors steps to the next page by cursor: after the last row shown', async () => {
    // The server's keyset paging, by id: `after` the last row shown, `before` the first.
    const keyset = (config: SentRequest) => {
      const p = config.params as { page: number; size: number; after?: string; before?: string };
      const from = p.after
        ? ALL.findIndex((row) => `a${row.id}` === p.after) + 1
        : p.before
          ? ALL.findIndex((row) => `b${row.id}` === p.before) - p.size
          : p.page * p.size;
      const content = ALL.slice(from, from + p.size);
      const cursors = { before: `b${content[0]?.id}`, after: `a${content.at(-1)?.id}` };
      return { data: { content, totalElements: ALL.length, cursors } };
    };
    api = mockApi({ 'GET api/things': keyset });
    renderWithProviders(<ThingsPage />);
    await screen.findByText('甲1');
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('甲11')).toBeInTheDocument();
    expect(lastListParams()).toEqual({ page: 1, size: 10, after: 'a10' });
    fireEvent.click(screen.getByTitle('3'));
    expect(await screen.findByText('甲21')).toBeInTheDocument();
    expect(lastListParams()).toEqual({ page: 2, size: 10, after: 'a20' });
  });

  it('a page reached by number goes by number; the page before it by cursor: before its first row', async () => {
    api = mockApi({
      'GET api/things': (config) => {
        const p = config.params as { page: number; size: number; before?: string };
        const from = p.before ? Number(p.before.slice(1)) - 1 - p.size : p.page * p.size;
        const content = ALL.slice(from, from + p.size);
        return {
          data: {
            content,
            totalElements: ALL.length,
            cursors: { before: `b${content[0]?.id}`, after: `a${content.at(-1)?.id}` },
          },
        };
      },
    });
    renderWithProviders(<ThingsPage />, '/piibs/things?page=2');
    expect(await screen.findByText('甲21')).toBeInTheDocument();
    expect(lastListParams()).toEqual({ page: 2, size: 10 });
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('甲11')).toBeInTheDocument();
    expect(lastListParams()).toEqual({ page: 1, size: 10, before: 'b21' });
  });

  it('sorts on the server by the column sort field, and searches from the first page', async () => {
    api = mockApi({ 'GET api/things': pageOf });
    const { search } = renderWithProviders(<ThingsPage />, '/piibs/things?page=1');
    await screen.findByText('甲11');
    const header = () => screen.getByRole('columnheader', { name: /创建时间/ });
    fireEvent.click(header());
    await waitFor(() => expect(lastListParams()).toEqual({ page: 0, size: 10, sort: 'createdAt,asc' }));
    fireEvent.click(header());
    await waitFor(() => expect(lastListParams()).toEqual({ page: 0, size: 10, sort: 'createdAt,desc' }));
    expect(search().get('sort')).toBe('createdAt,desc');

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('关键词'), '甲');
    await user.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() =>
      expect(lastListParams()).toEqual({ page: 0, size: 10, sort: 'createdAt,desc', blurry: '甲' }),
    );
    expect(search().get('blurry')).toBe('甲');
  });

  it('a hidden column stays hidden for that table after a reload', async () => {
    api = mockApi({ 'GET api/things': pageOf });
    const first = renderWithProviders(<ThingsPage />);
    await screen.findByText('甲1');
    expect(screen.getByRole('columnheader', { name: /创建时间/ })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '列设置' }));
    fireEvent.click(await screen.findByRole('checkbox', { name: '创建时间' }));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: /创建时间/ })).toBeNull());
    expect(JSON.parse(localStorage.getItem(columnPrefsKey('test.things')) ?? 'null')).toEqual(['createdAt']);
    // The name column is always shown: it is not offered.
    expect(screen.queryByRole('checkbox', { name: '名称' })).toBeNull();

    first.unmount();
    renderWithProviders(<ThingsPage />);
    await screen.findByText('甲1');
    expect(screen.queryByRole('columnheader', { name: /创建时间/ })).toBeNull();
  });

  it('batch delete asks first (in Chinese); cancel sends nothing, confirm posts the ids and reloads', async () => {
    api = mockApi({ 'GET api/things': pageOf, 'POST api/things/delete': { data: { deleted: 2 } } });
    renderWithProviders(<ThingsPage />);
    await screen.findByText('甲1');
    const [, first, second] = screen.getAllByRole('checkbox', { hidden: false });
    fireEvent.click(first!);
    fireEvent.click(second!);
    expect(screen.getByText('已选择 2 项')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: /删\s*除（2）/ }));
    let dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('确定删除选中的 2 条记录吗？');
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    expect(api.callsTo('POST api/things/delete')).toHaveLength(0);

    const listCalls = api.callsTo('GET api/things').length;
    fireEvent.click(screen.getByRole('button', { name: /删\s*除（2）/ }));
    dialog = (await screen.findAllByRole('dialog')).at(-1)!;
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.callsTo('POST api/things/delete')).toHaveLength(1));
    expect(JSON.parse(String(api.callsTo('POST api/things/delete')[0]?.data))).toEqual([1, 2]);
    await waitFor(() => expect(api.callsTo('GET api/things').length).toBeGreaterThan(listCalls));
    expect(await screen.findByText('删除成功')).toBeInTheDocument();
  });

  it("a refused delete shows the server's words in a dialog", async () => {
    api = mockApi({
      'GET api/things': pageOf,
      'POST api/things/delete': {
        status: 400,
        data: { status: 400, message: '部门下还有 3 个用户，不能删除' },
      },
    });
    renderWithProviders(<ThingsPage />);
    await screen.findByText('甲1');
    fireEvent.click(screen.getAllByRole('checkbox', { hidden: false })[1]!);
    fireEvent.click(screen.getByRole('button', { name: /删\s*除/ }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('确定删除「甲1」吗？');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    const refusal = await screen.findByText('部门下还有 3 个用户，不能删除');
    expect(refusal.closest('.ant-modal-confirm')).toHaveTextContent('无法删除');
  });

  it('导出 downloads the current query as a blob, named by Content-Disposition or timestamp-name.xlsx', async () => {
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    URL.createObjectURL = vi.fn(() => 'blob:test');
    URL.revokeObjectURL = vi.fn();
    let named = true;
    api = mockApi({
      'GET api/things': pageOf,
      'GET api/things/download': () => ({
        data: new Blob(['xlsx'], {
          type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        }),
        headers: named
          ? ({
              'content-disposition': `attachment; filename*=UTF-8''1767225600000-${encodeURIComponent('事物数据')}.xlsx`,
            } as Record<string, string>)
          : {},
      }),
    });
    renderWithProviders(<ThingsPage />, '/piibs/things?blurry=%E7%94%B2&sort=name,desc');
    await screen.findByText('甲1');

    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    await waitFor(() => expect(saved).toEqual(['1767225600000-事物数据.xlsx']));
    const call = api.callsTo('GET api/things/download')[0]!;
    expect(call.responseType).toBe('blob');
    // The current filters and sort, every page.
    expect(call.params).toEqual({ blurry: '甲', sort: 'name,desc' });
    expect(await screen.findByText('已导出 1767225600000-事物数据.xlsx')).toBeInTheDocument();

    named = false;
    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]).toMatch(/^\d{13}-事物数据\.xlsx$/);
  });

  it('a failed load shows the spec §8 notice (5 s) and, in the table, the message and 重试; an empty search suggests 重置', async () => {
    const shown: [string, number][] = [];
    configureHttp({ ui: { confirm: vi.fn(), error: (message, ms) => shown.push([message, ms]) } });
    let fail = true;
    api = mockApi({
      'GET api/things': (config) =>
        fail ? { status: 500, data: { status: 500, message: '服务器内部错误，请稍后重试' } } : pageOf(config),
    });
    const { search } = renderWithProviders(<ThingsPage />, '/piibs/things?blurry=none');
    expect(await screen.findByRole('alert')).toHaveTextContent('加载失败：服务器内部错误，请稍后重试');
    expect(shown).toEqual([['服务器内部错误，请稍后重试', 5000]]);
    resetHttp();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect(await screen.findByText('没有符合条件的事物')).toBeInTheDocument();
    fireEvent.click(
      within(screen.getByText('没有符合条件的事物').closest('.ant-empty')!).getByRole('button'),
    );
    expect(await screen.findByText('甲1')).toBeInTheDocument();
    expect(search().get('blurry')).toBeNull();
  });

  it('buttons follow the permission codes the server checks', async () => {
    api = mockApi({ 'GET api/things': pageOf });
    // No codes from the server and not admin: nothing the server would refuse is offered.
    signInAs(['agent']);
    const first = renderWithProviders(<ThingsPage />);
    await screen.findByText('甲1');
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
    fireEvent.click(screen.getAllByRole('checkbox', { hidden: false })[1]!);
    expect(screen.queryByRole('button', { name: /删\s*除/ })).toBeNull();
    first.unmount();

    signInAs(['agent'], ['thing:list']);
    renderWithProviders(<ThingsPage />);
    await screen.findByText('甲1');
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getAllByRole('checkbox', { hidden: false })[1]!);
    });
    expect(screen.queryByRole('button', { name: /删\s*除/ })).toBeNull();
    expect(rowNames()[0]).toBe('甲1');
  });
});

describe('a kept-alive list (a tab switched away from and back)', () => {
  function Tabbed() {
    const [shown, setShown] = useState(true);
    return (
      <>
        <button type="button" onClick={() => setShown((v) => !v)}>
          切换标签
        </button>
        <Activity mode={shown ? 'visible' : 'hidden'}>
          <ThingsPage />
        </Activity>
      </>
    );
  }

  it('keeps the filter text typed but not yet searched', async () => {
    api = mockApi({ 'GET api/things': pageOf });
    renderWithProviders(<Tabbed />);
    expect(await screen.findByText('甲1')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('关键词'), '丙');
    await user.click(screen.getByRole('button', { name: '切换标签' }));
    await user.click(screen.getByRole('button', { name: '切换标签' }));
    expect(screen.getByLabelText('关键词')).toHaveValue('丙');
    // Nothing was searched: the list is as it was.
    expect(lastListParams()).toEqual({ page: 0, size: 10 });
  });
});

describe('on a phone (under 576 px wide)', () => {
  beforeEach(onPhone);

  function PhonePage() {
    const list = useListState({ filterKeys: searchKeys(SEARCH) });
    const withActions: CrudColumn<Thing>[] = [
      ...columns,
      { key: 'note', title: '备注', render: () => null },
      {
        key: 'actions',
        title: '操作',
        alwaysVisible: true,
        render: (_, row) => <a href="#x">查看{row.name}</a>,
      },
    ];
    return (
      <>
        <SearchForm fields={SEARCH} list={list} />
        <CrudTable<Thing> id="test.phone" resource={things} list={list} columns={withActions} />
      </>
    );
  }

  it('shows each row as a card: headed by its first column, the others as labelled fields, its actions at the foot', async () => {
    api = mockApi({ 'GET api/things': pageOf });
    renderWithProviders(<PhonePage />);
    const list = await screen.findByRole('list', { name: '事物列表' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(10);
    expect(screen.queryByRole('table')).toBeNull();
    const first = cards[0]!;
    expect(first.querySelector('.crud-card-title')).toHaveTextContent('甲1');
    expect(within(first).getByRole('term')).toHaveTextContent('创建时间');
    expect(within(first).getByRole('definition')).toHaveTextContent('2026-01-01T00:00:00.000Z');
    // An empty field is left out; the actions are not a field.
    expect(within(first).queryByText('备注')).toBeNull();
    expect(within(first).queryByText('操作')).toBeNull();
    expect(within(first).getByRole('link', { name: '查看甲1' })).toBeInTheDocument();
    // The search bar puts each label above its field.
    expect(screen.getByRole('search')).toHaveClass('ant-form-vertical');

    expect(screen.getByText('共 25 条')).toBeInTheDocument();
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastListParams()).toMatchObject({ page: 1, size: 10 }));
    expect(await screen.findByText('甲11')).toBeInTheDocument();
  });

  it('a tree stays a table, its actions column no longer fixed over the names: the table scrolls as a whole', async () => {
    api = mockApi({ 'GET api/things': { data: { content: ALL.slice(0, 3), totalElements: 3 } } });
    function TreePage() {
      const list = useListState();
      const fixed: CrudColumn<Thing>[] = [
        ...columns,
        { key: 'actions', title: '操作', alwaysVisible: true, fixed: 'right', render: () => '编辑' },
      ];
      return <CrudTable<Thing> id="test.tree" resource={things} list={list} columns={fixed} tree />;
    }
    renderWithProviders(<TreePage />);
    await screen.findByText('甲1');
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: '操作' })).not.toHaveClass('ant-table-cell-fix');
    expect(document.querySelector('.ant-table-cell-fix')).toBeNull();
  });

  it('the search form shows its first field; 展开 shows the others, which show at once when the URL fills one in', async () => {
    api = mockApi({ 'GET api/things': pageOf });
    const fields: SearchField[] = [
      ...SEARCH,
      { kind: 'select', name: 'kind', label: '类别', options: [{ label: '甲类', value: 'a' }] },
    ];
    function Folding() {
      const list = useListState({ filterKeys: searchKeys(fields) });
      return <SearchForm fields={fields} list={list} />;
    }
    const first = renderWithProviders(<Folding />);
    expect(screen.getByLabelText('关键词')).toBeVisible();
    expect(screen.getByLabelText('类别')).not.toBeVisible();
    const toggle = screen.getByRole('button', { name: /展\s*开/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(screen.getByLabelText('类别')).toBeVisible();
    expect(screen.getByRole('button', { name: /收\s*起/ })).toHaveAttribute('aria-expanded', 'true');
    first.unmount();

    renderWithProviders(<Folding />, '/piibs/things?kind=a');
    expect(await screen.findByLabelText('类别')).toBeVisible();
    expect(screen.queryByRole('button', { name: /展\s*开/ })).toBeNull();
  });

  it('sorts by a select naming the column and the direction, from the first page', async () => {
    api = mockApi({ 'GET api/things': pageOf });
    const { search } = renderWithProviders(<PhonePage />, '/piibs/things?page=1');
    await screen.findByText('甲11');
    const sort = screen.getByRole('combobox', { name: '排序' });
    expect(screen.getByTitle('默认排序')).toBeInTheDocument();
    fireEvent.mouseDown(sort);
    fireEvent.click(await screen.findByText('按创建时间降序'));
    await waitFor(() => expect(lastListParams()).toEqual({ page: 0, size: 10, sort: 'createdAt,desc' }));
    expect(search().get('sort')).toBe('createdAt,desc');
  });

  it('selects a card by its checkbox, named by the row, or the whole page at once; batch delete takes them', async () => {
    api = mockApi({ 'GET api/things': pageOf, 'POST api/things/delete': { data: { deleted: 1 } } });
    renderWithProviders(<PhonePage />);
    await screen.findByText('甲1');
    fireEvent.click(screen.getByRole('checkbox', { name: '选择 乙2' }));
    expect(screen.getByText('已选择 1 项')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: '全选本页' }));
    expect(screen.getByText('已选择 10 项')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: '全选本页' }));
    expect(screen.queryByText(/已选择/)).toBeNull();

    fireEvent.click(screen.getByRole('checkbox', { name: '选择 丙3' }));
    fireEvent.click(screen.getByRole('button', { name: /删\s*除/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.callsTo('POST api/things/delete')).toHaveLength(1));
    expect(JSON.parse(String(api.callsTo('POST api/things/delete')[0]?.data))).toEqual([3]);
  });
});
