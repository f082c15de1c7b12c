import { Pagination, Table, type TableColumnType, type TableProps } from 'antd';
import type { Key, ReactNode } from 'react';
import { usePhone } from '@/lib/use-phone.ts';
import type { CrudColumn } from './CrudTable.tsx';
import { RowCards } from './RowCards.tsx';
import { CRUD_TEXTS as T } from './texts.ts';
import './crud.css';

/**
 * A column of a read-only table: a plain-text title (a card's field label on a phone); key 'actions' for actions;
 * `card: false` for a column a card does without (a row number: the cards are in order).
 */
export type DetailColumn<R> = Omit<TableColumnType<R>, 'key' | 'title'> & {
  key?: string;
  title: string;
  card?: false;
};

export interface DetailTableProps<R>
  extends Omit<TableProps<R>, 'columns' | 'dataSource' | 'rowKey' | 'pagination' | 'title' | 'footer'> {
  columns: readonly DetailColumn<R>[];
  dataSource: readonly R[];
  rowKey: (keyof R & string) | ((row: R) => Key);
  /** What a row is ('保险责任'): names the list of cards on a phone ('保险责任列表'). */
  noun: string;
  /**
   * Names the rows as a region. On a wide screen the region scrolls the table sideways and takes the keyboard
   * focus (WCAG 2.1.1), for tables wider than a narrow window; a phone's cards need neither.
   */
  region?: string;
  /** Pages kept by the caller (a long list being edited); none: the whole table. */
  pages?: { current: number; pageSize: number; onChange: (page: number) => void };
  /** A heading over the rows (antd's table title; above the cards on a phone). */
  title?: () => ReactNode;
  footer?: () => ReactNode;
  'data-testid'?: string;
}

/**
 * A table inside a detail page (a policy's covers, its co-insurers, payments, changes): antd's Table on a wide
 * screen; on a phone the same rows as cards, as the lists show them (RowCards: the first column heads each card,
 * the others are labelled fields, the actions at the foot), so nothing scrolls sideways or hides a column. No
 * selection; pages only where the caller keeps them (`pages`).
 */
export function DetailTable<R extends object>({
  columns,
  dataSource,
  rowKey,
  noun,
  region,
  pages,
  title,
  footer,
  loading,
  locale,
  'data-testid': testId,
  ...props
}: DetailTableProps<R>) {
  const phone = usePhone();
  const keyOf = typeof rowKey === 'function' ? rowKey : (row: R) => row[rowKey] as Key;
  // A list that fits one page shows no pager.
  const paged = pages && dataSource.length > pages.pageSize ? pages : undefined;
  if (!phone) {
    const table = (
      <Table<R>
        {...props}
        columns={columns.map(({ card: _, ...column }) => column as TableColumnType<R>)}
        dataSource={dataSource as R[]}
        rowKey={keyOf}
        loading={loading}
        locale={locale}
        pagination={paged ? { ...paged, showSizeChanger: false } : false}
        title={title}
        footer={footer}
        data-testid={testId}
      />
    );
    return region ? (
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
      <section aria-label={region} tabIndex={0} style={{ overflowX: 'auto' }}>
        {table}
      </section>
    ) : (
      table
    );
  }
  const cardColumns = columns
    .filter((column) => !column.hidden && column.card !== false)
    .map(
      (column, i): CrudColumn<R> => ({
        ...column,
        key: column.key ?? (typeof column.dataIndex === 'string' ? column.dataIndex : `column-${i}`),
      }),
    );
  const rows = paged
    ? dataSource.slice((paged.current - 1) * paged.pageSize, paged.current * paged.pageSize)
    : dataSource;
  const cards = (
    <div data-testid={testId} style={props.style}>
      {title ? <div className="crud-cards-title">{title()}</div> : null}
      <RowCards<R>
        rows={rows}
        columns={cardColumns}
        rowKey={keyOf}
        noun={noun}
        loading={Boolean(loading)}
        empty={(locale?.emptyText as ReactNode) ?? T.noData}
      />
      {paged ? (
        <Pagination
          className="crud-cards-pages"
          size="small"
          showLessItems
          showSizeChanger={false}
          current={paged.current}
          pageSize={paged.pageSize}
          total={dataSource.length}
          onChange={paged.onChange}
        />
      ) : null}
      {footer ? <div className="crud-cards-footer">{footer()}</div> : null}
    </div>
  );
  return region ? <section aria-label={region}>{cards}</section> : cards;
}
