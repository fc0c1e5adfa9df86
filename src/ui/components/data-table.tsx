import type { CSSProperties, ReactNode } from 'react';
import { Cell, Column, Row, Table, TableBody, TableHeader, type Key, type TableProps } from 'react-aria-components/Table';
import { Checkbox } from './checkbox';
import { cx } from './class-names';
import { ArrowDownIcon, ArrowUpIcon, SortIcon } from './icons';
import { TableState } from './table-state';
import * as styles from './table.css';

/** How one column reads and renders a row. */
export interface DataTableColumn<T> {
  id: string;
  /** Header text (translated). */
  header: string;
  cell: (row: T) => ReactNode;
  /** The column that names a row for screen readers (usually the name); one per table. */
  isRowHeader?: boolean;
  allowsSorting?: boolean;
  /** Numbers and money: right-aligned with tabular digits. */
  align?: 'start' | 'end';
  /** Fixed width (px, or a CSS length outside virtualized mode). */
  width?: number;
}

/** `ready` shows rows or the empty state; `loading` a spinner (or dims existing rows); `error` the error slot. */
export type DataTableStatus = 'ready' | 'loading' | 'error';

export interface DataTableProps<T extends { id: Key }>
  extends Pick<TableProps, 'aria-label' | 'aria-labelledby' | 'sortDescriptor' | 'onSortChange' | 'selectionMode' | 'selectedKeys' | 'defaultSelectedKeys' | 'onSelectionChange' | 'disabledKeys' | 'onRowAction'> {
  columns: readonly DataTableColumn<T>[];
  rows: readonly T[];
  status?: DataTableStatus;
  /** Shown when `ready` with no rows; defaults to an EmptyState saying "Nenhum registro encontrado". */
  emptyState?: ReactNode;
  /** Shown when `error`, e.g. `<ErrorState onRetry={…} />`. */
  errorState?: ReactNode;
  className?: string;
}

/** @internal Extra props the virtualized variant passes to the shared renderer. */
export interface DataTableRenderOptions {
  tableClassName?: string;
  tableStyle?: CSSProperties;
}

function SelectionCheckbox() {
  // RAC names it ("Selecionar", "Selecionar tudo") and wires it to the row/table selection.
  return <Checkbox slot="selection" />;
}

/** @internal The RAC table shared by {@link DataTable} and `VirtualizedDataTable` (which wraps it in a Virtualizer). */
export function DataTableView<T extends { id: Key }>(props: DataTableProps<T> & DataTableRenderOptions) {
  const { columns, rows, status = 'ready', emptyState, errorState, selectionMode = 'none', className: _className, tableClassName, tableStyle, ...tableProps } = props;
  const multiple = selectionMode === 'multiple';
  const shownRows = status === 'error' || (status === 'loading' && rows.length === 0) ? [] : rows;
  const renderState = () => <TableState status={status} emptyState={emptyState} errorState={errorState} />;
  return (
    <Table
      {...tableProps}
      selectionMode={selectionMode}
      className={cx(styles.table, tableClassName)}
      style={tableStyle}
    >
      <TableHeader className={styles.header}>
        {multiple ? (
          <Column className={cx(styles.column, styles.selectionCell)} width={44}>
            <SelectionCheckbox />
          </Column>
        ) : null}
        {columns.map((column) => (
          <Column
            key={column.id}
            id={column.id}
            isRowHeader={column.isRowHeader}
            allowsSorting={column.allowsSorting}
            textValue={column.header}
            width={column.width}
            className={cx(styles.column, column.align === 'end' && styles.alignEnd)}
          >
            {({ allowsSorting, sortDirection }) => (
              <span className={styles.columnContent}>
                {column.header}
                {allowsSorting ? (
                  <span className={sortDirection ? undefined : styles.sortIcon}>
                    {sortDirection === 'ascending' ? <ArrowUpIcon size={14} /> : sortDirection === 'descending' ? <ArrowDownIcon size={14} /> : <SortIcon size={14} />}
                  </span>
                ) : null}
              </span>
            )}
          </Column>
        ))}
      </TableHeader>
      <TableBody items={shownRows} dependencies={[columns, status]} renderEmptyState={renderState}>
        {(row) => (
          <Row id={row.id} className={styles.row}>
            {multiple ? (
              <Cell className={styles.cell}>
                <SelectionCheckbox />
              </Cell>
            ) : null}
            {columns.map((column) => (
              <Cell key={column.id} className={cx(styles.cell, column.align === 'end' && styles.alignEnd)}>
                {column.cell(row)}
              </Cell>
            ))}
          </Row>
        )}
      </TableBody>
    </Table>
  );
}

/**
 * A data table (RAC `Table`, role grid): sortable headers with `aria-sort` (the caller sorts, the
 * table shows it), optional row selection with checkboxes, row actions, and loading/empty/error
 * slots. Arrow keys move between cells. For long lists use `VirtualizedDataTable`.
 */
export function DataTable<T extends { id: Key }>(props: DataTableProps<T>) {
  // aria-busy on the wrapper: RAC's Table does not forward it, and it covers the whole region.
  return (
    <div className={cx(styles.wrapper, props.className)} aria-busy={props.status === 'loading' || undefined}>
      <DataTableView {...props} />
    </div>
  );
}
