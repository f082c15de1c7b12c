import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onPhone } from '@/test/phone.ts';
import { type DetailColumn, DetailTable } from './DetailTable.tsx';

interface Coinsurer {
  code: string;
  name: string;
  share: string;
  note: string | null;
}

const ROWS: Coinsurer[] = [
  { code: 'A', name: '示例财产保险股份有限公司', share: '70%', note: '主承保' },
  { code: 'B', name: '中国人民财产保险股份有限公司', share: '30%', note: null },
];

const COLUMNS: DetailColumn<Coinsurer>[] = [
  { key: 'code', title: '代码', dataIndex: 'code', card: false },
  { key: 'name', title: '共保公司', dataIndex: 'name' },
  { key: 'share', title: '份额', dataIndex: 'share' },
  { title: '说明', dataIndex: 'note' },
  { key: 'actions', title: '操作', render: (_, row) => <button type="button">查看 {row.code}</button> },
];

const table = (rows = ROWS) => (
  <DetailTable<Coinsurer>
    noun="共保公司"
    rowKey="code"
    dataSource={rows}
    columns={COLUMNS}
    locale={{ emptyText: '无共保' }}
    title={() => '共保明细'}
    footer={() => '保费按份额分摊'}
  />
);

afterEach(() => vi.restoreAllMocks());

describe('DetailTable', () => {
  it('on a wide screen is a table with every column', () => {
    render(table());
    const grid = screen.getByRole('table');
    for (const title of ['代码', '共保公司', '份额', '说明', '操作'])
      expect(within(grid).getByRole('columnheader', { name: title })).toBeInTheDocument();
    expect(within(grid).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByText('共保明细')).toBeInTheDocument();
    expect(screen.getByText('保费按份额分摊')).toBeInTheDocument();
  });

  it('on a phone is a card per row: headed by the first column a card shows, the others labelled, empty ones left out, actions at the foot; title above, footer below', () => {
    onPhone();
    render(table());
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(screen.getByRole('list', { name: '共保公司列表' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const [lead, other] = cards as [HTMLElement, HTMLElement];
    expect(lead.querySelector('.crud-card-title')).toHaveTextContent('示例财产保险股份有限公司');
    expect(within(lead).getByText('份额').nextElementSibling).toHaveTextContent('70%');
    expect(within(lead).getByText('说明').nextElementSibling).toHaveTextContent('主承保');
    expect(within(other).queryByText('说明')).toBeNull();
    expect(within(other).getByRole('button', { name: '查看 B' })).toBeInTheDocument();
    expect(within(other).queryByText('操作')).toBeNull();
    // A column marked `card: false` (here the code) is left off the cards.
    expect(screen.queryByText('代码')).toBeNull();
    // The table's title above the cards, its footer below them.
    expect(screen.getByText('共保明细')).toBeInTheDocument();
    expect(screen.getByText('保费按份额分摊')).toBeInTheDocument();
  });

  it('on a phone says when there is nothing, in the table’s own words', () => {
    onPhone();
    render(table([]));
    expect(screen.getByText('无共保')).toBeInTheDocument();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('on a phone shows the page the caller keeps, with a pager to the others', () => {
    onPhone();
    const rows: Coinsurer[] = ['A', 'B', 'C'].map((code) => ({
      code,
      name: `公司${code}`,
      share: '1%',
      note: null,
    }));
    function Paged() {
      const [current, setCurrent] = useState(1);
      return (
        <DetailTable<Coinsurer>
          noun="共保公司"
          rowKey="code"
          dataSource={rows}
          columns={COLUMNS}
          pages={{ current, pageSize: 2, onChange: setCurrent }}
        />
      );
    }
    render(<Paged />);
    const list = () => screen.getByRole('list', { name: '共保公司列表' });
    expect(
      within(list())
        .getAllByRole('listitem')
        .map((card) => card.querySelector('.crud-card-title')?.textContent),
    ).toEqual(['公司A', '公司B']);
    fireEvent.click(screen.getByRole('listitem', { name: '2' }));
    expect(
      within(list())
        .getAllByRole('listitem')
        .map((card) => card.querySelector('.crud-card-title')?.textContent),
    ).toEqual(['公司C']);
  });
});
