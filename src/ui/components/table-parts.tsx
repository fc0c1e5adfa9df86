import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataTableColumn, DataTableStatus, SortDescriptor } from './data-table';
import { EmptyState } from './empty-state';
import { ArrowDownIcon, ArrowUpIcon, SortIcon } from './icons';
import { Spinner } from './spinner';
import * as styles from './table.css';
import { VisuallyHidden } from './visually-hidden';

/*
 * Pieces `DataTable` and the windowed `VirtualizedDataTable` share: what rows
 * a table shows for its status, sortable column headers, and what it shows in place of rows.
 */

const NO_ROWS: readonly never[] = [];

/** The rows a table shows: none on error, none while a first load runs (existing rows stay, dimmed, on a reload). */
export function rowsToShow<T>(status: DataTableStatus, rows: readonly T[]): readonly T[] {
  return status === 'error' || (status === 'loading' && rows.length === 0) ? NO_ROWS : rows;
}

/** A sortable column's icon: the direction it is sorted in, or the neutral "sortable" arrows. */
export function SortIndicator({ direction }: { direction: 'ascending' | 'descending' | undefined }) {
  return (
    <span className={direction ? undefined : styles.sortIcon}>
      {direction === 'ascending' ? (
        <ArrowUpIcon size={14} />
      ) : direction === 'descending' ? (
        <ArrowDownIcon size={14} />
      ) : (
        <SortIcon size={14} />
      )}
    </span>
  );
}

/**
 * What a table shows in place of rows: the screen's error state, a spinner while loading, or the
 * screen's empty state (a plain "nothing here" by default).
 */
export function TableState({
  status,
  emptyState,
  errorState,
}: {
  status: DataTableStatus;
  emptyState?: ReactNode;
  errorState?: ReactNode;
}) {
  const { t } = useTranslation();
  if (status === 'error') return errorState;
  if (status === 'loading') {
    return (
      <div className={styles.state}>
        <Spinner label={t('ui.table.loading')} />
        <span aria-hidden="true">{t('ui.table.loading')}</span>
      </div>
    );
  }
  return emptyState ?? <EmptyState title={t('common.empty')} />;
}

/**
 * Sorting by column headers: a click, or Enter/Space on a focused header (`sortBy`), asks the
 * caller for the other direction of that column (ascending first). Each sortable header says it is
 * sortable and how it is sorted (`aria-sort`, and a description the grid points to).
 */
export function useColumnSort<T>(
  columns: readonly DataTableColumn<T>[],
  idPrefix: string,
  sortDescriptor?: SortDescriptor,
  onSortChange?: (sort: SortDescriptor) => void,
) {
  const { t } = useTranslation();
  const sortedColumn =
    sortDescriptor?.column == null ? undefined : columns.find((column) => column.id === sortDescriptor.column);
  const sortableId = `${idPrefix}-sortable`;
  const sortedId = `${idPrefix}-sorted`;
  const sortBy = (column: DataTableColumn<T> | undefined): boolean => {
    if (!column?.allowsSorting) return false;
    const direction =
      sortDescriptor?.column === column.id && sortDescriptor.direction === 'ascending' ? 'descending' : 'ascending';
    onSortChange?.({ column: column.id, direction });
    return true;
  };
  /** A header cell's sort attributes and content. */
  const header = (column: DataTableColumn<T>) => {
    const direction = sortedColumn?.id === column.id ? sortDescriptor?.direction : undefined;
    return {
      props: {
        'aria-sort': column.allowsSorting ? (direction ?? ('none' as const)) : undefined,
        'aria-describedby': column.allowsSorting ? sortableId : undefined,
        'data-allows-sorting': column.allowsSorting || undefined,
        'data-sort-direction': direction,
        onClick: () => sortBy(column),
      },
      content: (
        <span className={styles.columnContent}>
          {column.header}
          {column.allowsSorting ? <SortIndicator direction={direction} /> : null}
        </span>
      ),
    };
  };
  const descriptions = (
    <VisuallyHidden>
      <span id={sortableId}>{t('ui.table.sortable')}</span>
      {sortedColumn ? (
        <span id={sortedId}>
          {t(sortDescriptor?.direction === 'descending' ? 'ui.table.sortedDescending' : 'ui.table.sortedAscending', {
            column: sortedColumn.header,
          })}
        </span>
      ) : null}
    </VisuallyHidden>
  );
  return { sortBy, header, describedBy: sortedColumn ? sortedId : undefined, descriptions };
}
