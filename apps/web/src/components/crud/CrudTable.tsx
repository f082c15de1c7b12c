import { DeleteOutlined, DownloadOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import type { Page } from '@piibs/shared/admin';
import type { UseQueryResult } from '@tanstack/react-query';
import {
  Button,
  Checkbox,
  Empty,
  Flex,
  Pagination,
  Popover,
  Space,
  Table,
  type TableColumnType,
  type TableProps,
  Tooltip,
  Typography,
} from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { type Key, type ReactNode, useEffect, useMemo, useState } from 'react';
import { Can, useCan } from '@/lib/permission.tsx';
import { usePhone } from '@/lib/use-phone.ts';
import { useDeleteRows, useExport } from './actions.tsx';
import { useHiddenColumns } from './column-prefs.ts';
import { type ListState, PAGE_SIZES } from './list-state.ts';
import { RowCards } from './RowCards.tsx';
import { type CrudResource, errorMessage, permissionsOfResource, useCrudList } from './resource.ts';
import { CRUD_TEXTS as T } from './texts.ts';
import './crud.css';

export type CrudColumn<T> = Omit<TableColumnType<T>, 'key' | 'title'> & {
  key: string;
  /** Plain text: the column settings list it. */
  title: string;
  /** The server's sort field: the column sorts on the server (`sort=field,asc|desc`). */
  sortField?: string;
  /** Always shown (the name, the actions): not offered in the column settings. */
  alwaysVisible?: boolean;
  defaultHidden?: boolean;
};

export interface CrudTableProps<T> {
  /** Names the table's saved column choice: unique per table ('system.users'). */
  id: string;
  resource: CrudResource<T>;
  list: ListState;
  columns: readonly CrudColumn<T>[];
  /** Query parameters that are not in the URL. */
  query?: Readonly<Record<string, string | number | undefined>>;
  /** Left of the toolbar: 新增 and the like. */
  toolbar?: ReactNode;
  /** Above the toolbar's buttons, on the left. */
  title?: ReactNode;
  /** Row selection with batch delete (default: when the resource can delete). */
  selectable?: boolean;
  /** More buttons for the selected rows (batch delete is built in). */
  batchActions?: (selected: T[], clear: () => void) => ReactNode;
  /** A tree list: every row in one answer, no paging. */
  tree?: boolean;
  /** The empty state suggests 新增 (when the user may add). */
  addHint?: boolean;
  tableProps?: Omit<TableProps<T>, 'columns' | 'dataSource' | 'rowKey' | 'pagination' | 'loading'>;
}

function sortOrderOf(sort: string | undefined, field: string | undefined): 'ascend' | 'descend' | null {
  if (!sort || !field) return null;
  if (sort === `${field},asc`) return 'ascend';
  if (sort === `${field},desc`) return 'descend';
  return null;
}

/** Tree rows without empty `children`, so leaves get no expand button. */
function pruneEmptyChildren<T>(rows: readonly T[]): T[] {
  return rows.map((row) => {
    const children = (row as { children?: T[] }).children;
    if (!Array.isArray(children)) return row;
    if (children.length === 0) {
      const { children: _none, ...rest } = row as T & { children?: T[] };
      return rest as T;
    }
    return { ...row, children: pruneEmptyChildren(children) };
  });
}

function ColumnSettings<T>({
  columns,
  hidden,
  onToggle,
  onReset,
}: {
  columns: readonly CrudColumn<T>[];
  hidden: readonly string[];
  onToggle: (key: string, visible: boolean) => void;
  onReset: () => void;
}) {
  const content = (
    <Flex vertical gap={6} style={{ minWidth: 140 }}>
      {columns
        .filter((column) => !column.alwaysVisible)
        .map((column) => (
          <Checkbox
            key={column.key}
            checked={!hidden.includes(column.key)}
            onChange={(event) => onToggle(column.key, event.target.checked)}
          >
            {column.title}
          </Checkbox>
        ))}
      <Button
        size="small"
        type="link"
        onClick={onReset}
        style={{ alignSelf: 'flex-start', paddingInline: 0 }}
      >
        {T.columnsReset}
      </Button>
    </Flex>
  );
  return (
    <Popover content={content} title={T.columns} trigger="click" placement="bottomRight">
      <Tooltip title={T.columns}>
        <Button icon={<SettingOutlined />} aria-label={T.columns} />
      </Tooltip>
    </Popover>
  );
}

function EmptyState({
  query,
  noun,
  filtered,
  onReset,
  addHint,
}: {
  query: UseQueryResult<unknown>;
  noun: string;
  filtered: boolean;
  onReset: () => void;
  addHint: boolean;
}) {
  if (query.isError) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <Typography.Text type="danger" role="alert">
            {T.loadFailed}：{errorMessage(query.error)}
          </Typography.Text>
        }
      >
        <Button type="primary" onClick={() => void query.refetch()}>
          {T.retry}
        </Button>
      </Empty>
    );
  }
  if (query.isPending) return <div style={{ height: 120 }} />;
  if (filtered) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <>
            <div>{T.emptyFiltered(noun)}</div>
            <Typography.Text type="secondary">{T.emptyFilteredHint}</Typography.Text>
          </>
        }
      >
        <Button onClick={onReset}>{T.reset}</Button>
      </Empty>
    );
  }
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <>
          <div>{T.empty(noun)}</div>
          {addHint ? <Typography.Text type="secondary">{T.emptyHint(noun)}</Typography.Text> : null}
        </>
      }
    />
  );
}

/**
 * A server-side list: paging and sorting by the URL's list state, its own query (react-query, keyed by the
 * query), column show/hide saved per table, 刷新 and 导出, loading / empty / error states, and row selection
 * with batch delete. Buttons show only to users holding the server's permission code for them.
 */
export function CrudTable<T extends object>({
  id,
  resource,
  list,
  columns,
  query: extraQuery,
  toolbar,
  title,
  selectable,
  batchActions,
  tree = false,
  addHint = true,
  tableProps,
}: CrudTableProps<T>) {
  const permissions = permissionsOfResource(resource);
  const merged: Record<string, string | number> = { ...list.params };
  for (const [key, value] of Object.entries(extraQuery ?? {})) {
    if (value !== undefined && value !== '') merged[key] = value;
  }
  if (tree) {
    delete merged.page;
    delete merged.size;
  }
  // Keyed by content: `query` is often a literal, new on every render.
  const paramsKey = JSON.stringify(merged);
  // biome-ignore lint/correctness/useExhaustiveDependencies: paramsKey stands for merged
  const params = useMemo(() => merged, [paramsKey]);
  const query = useCrudList<T>(resource, params);
  const page: Page<T> | undefined = query.data;

  const defaultHidden = useMemo(() => columns.filter((c) => c.defaultHidden).map((c) => c.key), [columns]);
  const { hidden, toggle, reset: resetColumns } = useHiddenColumns(id, defaultHidden);

  const canSelect = selectable ?? !!resource.remove;
  const [selected, setSelected] = useState<T[]>([]);
  const selectedKeys = useMemo(() => selected.map(resource.rowId), [selected, resource.rowId]);
  // A new page or a new search starts with nothing selected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: paramsKey is the trigger, not an input
  useEffect(() => setSelected([]), [paramsKey]);

  const mayAdd = useCan(permissions.add);
  const deleteRows = useDeleteRows(resource, { onDeleted: () => setSelected([]) });
  const exporter = useExport(resource);

  const shownColumns = useMemo(
    () => columns.filter((column) => column.alwaysVisible || !hidden.includes(column.key)),
    [columns, hidden],
  );
  const phone = usePhone();
  // On a phone a column fixed at the side would cover most of the row's name: the table scrolls as a whole instead.
  const visibleColumns = useMemo(
    () =>
      shownColumns.map(
        ({ sortField, alwaysVisible: _a, defaultHidden: _d, ...shown }): TableColumnType<T> => {
          const column = phone ? { ...shown, fixed: undefined } : shown;
          if (!sortField) return column;
          return {
            ...column,
            sorter: true,
            sortOrder: sortOrderOf(list.sort, sortField),
            sortDirections: ['ascend', 'descend'],
          };
        },
      ),
    [shownColumns, list.sort, phone],
  );
  const sortOptions = useMemo(
    () =>
      columns.flatMap(({ sortField, title }) =>
        sortField
          ? [
              { value: `${sortField},asc`, label: T.sortAscending(title) },
              { value: `${sortField},desc`, label: T.sortDescending(title) },
            ]
          : [],
      ),
    [columns],
  );
  // On a phone a plain list is a column of cards; a tree, or a table whose rows open or are clicked, stays a table.
  const cards = phone && !tree && !tableProps?.expandable && !tableProps?.onRow;
  const rowKey = (row: T) => resource.rowId(row) as Key;
  const emptyState = (
    <EmptyState
      query={query}
      noun={resource.noun}
      filtered={list.filtered}
      onReset={list.reset}
      addHint={addHint && mayAdd}
    />
  );

  const onChange: TableProps<T>['onChange'] = (_pagination, _filters, sorter, extra) => {
    if (extra.action !== 'sort') return;
    const first = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
    const column = columns.find((c) => c.key === first?.columnKey);
    const field = column?.sortField;
    if (!field || !first?.order) list.setSort(undefined);
    else list.setSort(`${field},${first.order === 'ascend' ? 'asc' : 'desc'}`);
  };

  const rows = useMemo(() => {
    const content = page?.content ?? [];
    return tree ? pruneEmptyChildren(content) : content;
  }, [page, tree]);

  const deleteButton =
    canSelect && resource.remove && permissions.del && selected.length > 0 ? (
      <Can code={permissions.del}>
        <Button danger icon={<DeleteOutlined />} onClick={() => deleteRows(selected)}>
          {T.delete}
          {selected.length > 1 ? `（${selected.length}）` : ''}
        </Button>
      </Can>
    ) : null;

  return (
    <div className="crud-table">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
        <Space wrap size={8}>
          {title}
          {toolbar}
          {deleteButton}
          {selected.length > 0 ? batchActions?.(selected, () => setSelected([])) : null}
          {selected.length > 0 ? (
            <Typography.Text type="secondary">
              {T.selected(selected.length)}{' '}
              <Typography.Link onClick={() => setSelected([])}>{T.clearSelection}</Typography.Link>
            </Typography.Text>
          ) : null}
        </Space>
        <Space size={8}>
          {resource.download && permissions.list ? (
            <Can code={permissions.list}>
              <Button
                icon={<DownloadOutlined />}
                loading={exporter.exporting}
                onClick={() => void exporter.run(params)}
              >
                {T.export}
              </Button>
            </Can>
          ) : null}
          <Tooltip title={T.refresh}>
            <Button
              icon={<ReloadOutlined spin={query.isFetching && !query.isPending} />}
              aria-label={T.refresh}
              onClick={() => void query.refetch()}
            />
          </Tooltip>
          <ColumnSettings columns={columns} hidden={hidden} onToggle={toggle} onReset={resetColumns} />
        </Space>
      </Flex>
      {cards ? (
        <>
          <RowCards<T>
            rows={rows}
            columns={shownColumns}
            rowKey={rowKey}
            rowLabel={resource.rowLabel}
            noun={resource.noun}
            loading={query.isFetching}
            empty={emptyState}
            selection={
              canSelect
                ? {
                    keys: selectedKeys as Key[],
                    onChange: setSelected,
                    disabled: (row) => !!tableProps?.rowSelection?.getCheckboxProps?.(row)?.disabled,
                  }
                : undefined
            }
            sort={{ value: list.sort, options: sortOptions, onChange: list.setSort }}
          />
          <Pagination
            className="crud-cards-pages"
            size="small"
            showLessItems
            showSizeChanger={false}
            current={list.page + 1}
            pageSize={list.size}
            total={page?.totalElements ?? 0}
            showTotal={(total) => T.total(total)}
            onChange={(current, size) => list.setPage(current - 1, size)}
          />
        </>
      ) : (
        <Table<T>
          // A tree mounts again once its rows arrive, so defaultExpandAllRows and the like apply to them.
          key={tree && page ? 'rows' : 'empty'}
          size="middle"
          {...tableProps}
          rowKey={rowKey}
          columns={visibleColumns}
          dataSource={rows}
          loading={query.isFetching}
          onChange={onChange}
          scroll={{ x: 'max-content', ...tableProps?.scroll }}
          locale={{ emptyText: emptyState }}
          rowSelection={
            canSelect
              ? {
                  ...tableProps?.rowSelection,
                  selectedRowKeys: selectedKeys as Key[],
                  onChange: (_keys, selectedRows) => setSelected(selectedRows.filter(Boolean)),
                  checkStrictly: true,
                }
              : undefined
          }
          pagination={
            tree
              ? false
              : {
                  current: list.page + 1,
                  pageSize: list.size,
                  total: page?.totalElements ?? 0,
                  showSizeChanger: true,
                  pageSizeOptions: PAGE_SIZES.map(String),
                  showQuickJumper: true,
                  showTotal: (total) => T.total(total),
                  onChange: (current, size) => list.setPage(current - 1, size),
                }
          }
        />
      )}
    </div>
  );
}
