import { Checkbox, Select, Spin } from 'antd';
import { type Key, type ReactNode, useId } from 'react';
import type { CrudColumn } from './CrudTable.tsx';
import { CRUD_TEXTS as T } from './texts.ts';

/** The actions column: shown at a card's foot, not as a field. */
const ACTIONS = 'actions';

function valueAt(row: object, dataIndex: unknown): unknown {
  if (dataIndex === undefined || dataIndex === null) return undefined;
  const path = Array.isArray(dataIndex) ? dataIndex : [dataIndex];
  let value: unknown = row;
  for (const step of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[step as string | number];
  }
  return value;
}

/** What a column shows for a row, as the table's cell would. */
function cellOf<T extends object>(column: CrudColumn<T>, row: T, index: number): ReactNode {
  const value = valueAt(row, column.dataIndex);
  return (column.render ? column.render(value, row, index) : value) as ReactNode;
}

const blank = (content: ReactNode) =>
  content === null || content === undefined || content === '' || content === false;

function RowCard<T extends object>({
  row,
  index,
  head,
  fields,
  actions,
  label,
  selection,
}: {
  row: T;
  index: number;
  head: CrudColumn<T> | undefined;
  fields: readonly CrudColumn<T>[];
  actions: CrudColumn<T> | undefined;
  label: string | undefined;
  selection: { checked: boolean; disabled: boolean; onChange: (on: boolean) => void } | undefined;
}) {
  const titleId = useId();
  return (
    <li className="crud-card">
      <div className="crud-card-head">
        {selection ? (
          <Checkbox
            checked={selection.checked}
            disabled={selection.disabled}
            onChange={(event) => selection.onChange(event.target.checked)}
            {...(label ? { 'aria-label': T.selectRow(label) } : { 'aria-labelledby': titleId })}
          />
        ) : null}
        <span className="crud-card-title" id={titleId}>
          {head ? cellOf(head, row, index) : null}
        </span>
      </div>
      <dl className="crud-card-fields">
        {fields.map((column) => {
          const content = cellOf(column, row, index);
          if (blank(content)) return null;
          return (
            <div key={column.key} className="crud-card-field">
              <dt>{column.title}</dt>
              <dd>{content}</dd>
            </div>
          );
        })}
      </dl>
      {actions ? <div className="crud-card-actions">{cellOf(actions, row, index)}</div> : null}
    </li>
  );
}

export interface RowCardsProps<T> {
  rows: readonly T[];
  /** The visible columns, in order: the first one heads each card, `actions` goes to its foot. */
  columns: readonly CrudColumn<T>[];
  rowKey: (row: T) => Key;
  /** Names a row for its checkbox ('选择 张三'); else the heading column's text. */
  rowLabel?: (row: T) => string;
  noun: string;
  loading: boolean;
  empty: ReactNode;
  selection?: {
    keys: readonly Key[];
    onChange: (rows: T[]) => void;
    disabled?: (row: T) => boolean;
  };
  sort?: {
    value: string | undefined;
    options: { value: string; label: string }[];
    onChange: (sort: string | undefined) => void;
  };
}

/**
 * A list on a phone: one card per row, headed by the row's first column, its other columns as labelled fields
 * (empty ones left out) and its actions at the foot. Sorting is a select; selection a checkbox per card and one
 * for the page. Nothing is cut off or scrolled sideways at 320 px.
 */
export function RowCards<T extends object>({
  rows,
  columns,
  rowKey,
  rowLabel,
  noun,
  loading,
  empty,
  selection,
  sort,
}: RowCardsProps<T>) {
  const [head, ...rest] = columns.filter((column) => column.key !== ACTIONS);
  const actions = columns.find((column) => column.key === ACTIONS);
  const selectable = selection ? rows.filter((row) => !selection.disabled?.(row)) : [];
  const selectedCount = selection
    ? selectable.filter((row) => selection.keys.includes(rowKey(row))).length
    : 0;

  const toggle = (row: T, on: boolean) => {
    if (!selection) return;
    const keys = new Set(selection.keys);
    if (on) keys.add(rowKey(row));
    else keys.delete(rowKey(row));
    selection.onChange(rows.filter((r) => keys.has(rowKey(r))));
  };

  return (
    <div className="crud-cards">
      {(selection && selectable.length > 0) || (sort && sort.options.length > 0) ? (
        <div className="crud-cards-bar">
          {selection && selectable.length > 0 ? (
            <Checkbox
              checked={selectedCount === selectable.length}
              indeterminate={selectedCount > 0 && selectedCount < selectable.length}
              onChange={(event) => selection.onChange(event.target.checked ? selectable : [])}
            >
              {T.selectPage}
            </Checkbox>
          ) : null}
          {sort && sort.options.length > 0 ? (
            <Select
              aria-label={T.sortBy}
              className="crud-cards-sort"
              value={sort.options.some((o) => o.value === sort.value) ? sort.value : ''}
              options={[{ value: '', label: T.defaultOrder }, ...sort.options]}
              onChange={(value: string) => sort.onChange(value || undefined)}
              popupMatchSelectWidth={false}
            />
          ) : null}
        </div>
      ) : null}
      <Spin spinning={loading}>
        {rows.length === 0 ? (
          <div className="crud-cards-empty">{empty}</div>
        ) : (
          <ul className="crud-cards-list" aria-label={T.listOf(noun)} aria-busy={loading}>
            {rows.map((row, index) => (
              <RowCard
                key={rowKey(row)}
                row={row}
                index={index}
                head={head}
                fields={rest}
                actions={actions}
                label={rowLabel?.(row)}
                selection={
                  selection && {
                    checked: selection.keys.includes(rowKey(row)),
                    disabled: selection.disabled?.(row) ?? false,
                    onChange: (on) => toggle(row, on),
                  }
                }
              />
            ))}
          </ul>
        )}
      </Spin>
    </div>
  );
}
