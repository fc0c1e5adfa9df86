import type { ReactNode } from 'react';
import { Cell, Column, Row, Table, TableBody, TableHeader, type Key, type TableProps } from 'react-aria-components/Table';
import { Checkbox } from './checkbox';
import { cx } from './class-names';
import { rowsToShow, SortIndicator, TableState } from './table-parts';
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

function SelectionCheckbox() {
  // RAC names it ("Selecionar", "Selecionar tudo") and wires it to the row/table selection.
  return <Checkbox slot="selection" />;
}

/**
 * A data table (RAC `Table`, role grid): sortable headers with `aria-sort` (the caller sorts, the
 * table shows it), optional row selection with checkboxes, row actions, and loading/empty/error
 * slots. Arrow keys move between cells. For long lists use `VirtualizedDataTable`.
 */
export function DataTable<T extends { id: Key }>(props: DataTableProps<T>) {
  const { columns, rows, status = 'ready', emptyState, errorState, selectionMode = 'none', className, ...tableProps } = props;
  const multiple = selectionMode === 'multiple';
  const shownRows = rowsToShow(status, rows);
  const renderState = () => <TableState status={status} emptyState={emptyState} errorState={errorState} />;
  // aria-busy on the wrapper: RAC's Table does not forward it, and it covers the whole region.
  return (
    <div className={cx(styles.wrapper, className)} aria-busy={status === 'loading' || undefined}>
      <Table {...tableProps} selectionMode={selectionMode} className={styles.table}>
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
                  {allowsSorting ? <SortIndicator direction={sortDirection} /> : null}
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
    </div>
  );
}
