import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './empty-state';
import { Spinner } from './spinner';
import type { DataTableStatus } from './data-table';
import * as styles from './table.css';

/**
 * What a table shows in place of rows: the screen's error state, a spinner while loading, or the
 * screen's empty state (a plain "nothing here" by default). Shared by `DataTable` and the windowed
 * `VirtualizedDataTable`.
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
