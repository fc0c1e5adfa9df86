import { useMemo } from 'react';
import type { SortDescriptor } from 'react-aria-components/Table';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '../../../machines/users/users-actors';
import { Badge } from '../../components/badge';
import { DataTable, type DataTableColumn, type DataTableProps } from '../../components/data-table';
import { Presence } from '../../components/status-dot';
import { RowActionsContext, type RowActionsState } from './row-actions-context';
import { UserRowActions } from './user-row-actions';
import * as styles from './users.css';

export interface UsersTableProps extends Pick<
  DataTableProps<UserRow>,
  'status' | 'emptyState' | 'errorState' | 'aria-labelledby'
> {
  /** One page from the server (users-query.ts `USERS_PAGE_SIZE`, 100 at most): every row is rendered. */
  rows: readonly UserRow[];
  sort: SortDescriptor;
  onSortChange: (sort: SortDescriptor) => void;
  actions: RowActionsState;
  /** Columns the user hid (src/ui/components/views/list-views.tsx); the name and actions always show. */
  hiddenColumns?: readonly string[];
  /** The selection for bulk actions (docs/lists.md): a labelled checkbox per row and one for the list. */
  selection?: Pick<DataTableProps<UserRow>, 'selectedKeys' | 'onSelectionChange'> | undefined;
}

/** The columns, in the order of the viewport: they change only with the language and the breakpoint. */
function useColumns(narrow: boolean): DataTableColumn<UserRow>[] {
  const { t } = useTranslation();
  return useMemo(() => {
    // Translated once per language, not once per row: a virtualized list renders rows while scrolling.
    const text = {
      noDepartment: t('users.noDepartment'),
      active: t('users.status.active'),
      blocked: t('users.status.blocked'),
      twoFactor: t('users.status.twoFactor'),
      twoFactorRequired: t('users.status.twoFactorRequired'),
      presence: { online: t('ui.presence.online'), offline: t('ui.presence.offline') },
    };
    const name: DataTableColumn<UserRow> = {
      id: 'name',
      header: t('users.columns.name'),
      isRowHeader: true,
      allowsSorting: true,
      cell: (u) => u.name,
    };
    const actions: DataTableColumn<UserRow> = {
      id: 'actions',
      header: t('users.columns.actions'),
      align: 'end',
      cell: (u) => <UserRowActions user={u} t={t} />,
    };
    const presence: DataTableColumn<UserRow> = {
      id: 'presence',
      header: t('users.columns.presence'),
      allowsSorting: true,
      cell: (u) => <Presence isConnected={u.isConnected} labels={text.presence} />,
    };
    const details: DataTableColumn<UserRow>[] = [
      { id: 'email', header: t('users.columns.email'), allowsSorting: true, cell: (u) => u.email },
      { id: 'role', header: t('users.columns.role'), allowsSorting: true, cell: (u) => u.role.display_name },
      {
        id: 'department',
        header: t('users.columns.department'),
        allowsSorting: true,
        cell: (u) => u.userDepartment?.name ?? <span className={styles.muted}>{text.noDepartment}</span>,
      },
    ];
    const status: DataTableColumn<UserRow> = {
      id: 'status',
      header: t('users.columns.status'),
      cell: (u) => (
        <span className={styles.badges}>
          {u.blocked ? <Badge tone="danger">{text.blocked}</Badge> : <Badge tone="success">{text.active}</Badge>}
          {u.twoFactorEnabled ? <Badge tone="info">{text.twoFactor}</Badge> : null}
          {!u.twoFactorEnabled && u.twoFactorEnrolmentRequired ? (
            <Badge tone="warning">{text.twoFactorRequired}</Badge>
          ) : null}
        </span>
      ),
    };
    // On a phone the actions and presence come right after the name, before any sideways scroll.
    return narrow ? [name, actions, presence, ...details, status] : [name, ...details, presence, status, actions];
  }, [t, narrow]);
}

const NONE: readonly string[] = [];

/**
 * The users list: name, email, role, department, live presence, status and the row actions, one page of
 * at most 100 rows (the server pages, docs/lists.md), so a plain table with a checkbox per row.
 */
export function UsersTable({
  rows,
  sort,
  onSortChange,
  actions,
  hiddenColumns = NONE,
  selection,
  ...props
}: UsersTableProps) {
  const all = useColumns(actions.narrow);
  const columns = useMemo(() => all.filter((c) => !hiddenColumns.includes(c.id)), [all, hiddenColumns]);
  return (
    <RowActionsContext.Provider value={actions}>
      <DataTable
        {...props}
        columns={columns}
        rows={rows}
        sortDescriptor={sort}
        onSortChange={onSortChange}
        {...(selection ? { selectionMode: 'multiple' as const, ...selection } : {})}
      />
    </RowActionsContext.Provider>
  );
}
