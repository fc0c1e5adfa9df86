import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataTableStatus } from './data-table';
import { EmptyState } from './empty-state';
import { ArrowDownIcon, ArrowUpIcon, SortIcon } from './icons';
import { Spinner } from './spinner';
import * as styles from './table.css';

/*
 * Pieces `DataTable` (React Aria's table) and the windowed `VirtualizedDataTable` share: what rows
 * a table shows for its status, its sort indicator, and what it shows in place of rows.
 */

/** The rows a table shows: none on error, none while a first load runs (existing rows stay, dimmed, on a reload). */
export function rowsToShow<T>(status: DataTableStatus, rows: readonly T[]): readonly T[] {
  return status === 'error' || (status === 'loading' && rows.length === 0) ? [] : rows;
}

/** A sortable column's icon: the direction it is sorted in, or the neutral "sortable" arrows. */
export function SortIndicator({ direction }: { direction: 'ascending' | 'descending' | undefined }) {
  return (
    <span className={direction ? undefined : styles.sortIcon}>
      {direction === 'ascending' ? <ArrowUpIcon size={14} /> : direction === 'descending' ? <ArrowDownIcon size={14} /> : <SortIcon size={14} />}
    </span>
  );
}

/**
 * What a table shows in place of rows: the screen's error state, a spinner while loading, or the
 * screen's empty state (a plain "nothing here" by default).
 */
export function TableState({ status, emptyState, errorState }: { status: DataTableStatus; emptyState?: ReactNode; errorState?: ReactNode }) {
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
