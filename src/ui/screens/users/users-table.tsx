import { Suspense, useEffect, useMemo, type ComponentType } from 'react';
import type { SortDescriptor } from 'react-aria-components/Table';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '../../../machines/users/users-actors';
import { Badge } from '../../components/badge';
import { DataTable, type DataTableColumn, type DataTableProps } from '../../components/data-table';
import { lazyPart } from '../../components/lazy-with-timeout';
import { Presence } from '../../components/status-dot';
import type { VirtualizedDataTableProps } from '../../components/virtualized-table';
import { RowActionsContext, type RowActionsState } from './row-actions-context';
import { UserRowActions } from './user-row-actions';
import * as styles from './users.css';

/**
 * Above this many users the table is virtualized: only the rows in view are in the DOM
 * (`usersListMaxDomRows` in bench/budgets.json: 10,000 users, at most ~150 rows). Decided on the whole list, not the filtered one, so typing a
 * search never swaps the table under the user.
 */
export const VIRTUALIZE_FROM = 100;

// The windowed grid is a chunk of its own, used only when a tenant has that many users: the list of a
// smaller tenant paints without it. It is fetched while the list loads (see UsersTable), so a large
// list does not wait for it after its data arrived.
const VirtualizedDataTable = lazyPart(() =>
  import('../../components/virtualized-table').then((m) => ({
    default: m.VirtualizedDataTable as ComponentType<VirtualizedDataTableProps<UserRow>>,
  })),
);

const NONE: readonly string[] = [];

/** Fixed row height of the virtualized table: a small button plus the cell padding. */
const ROW_HEIGHT = 52;

export interface UsersTableProps extends Pick<
  DataTableProps<UserRow>,
  'status' | 'emptyState' | 'errorState' | 'aria-labelledby'
> {
  rows: readonly UserRow[];
  totalUsers: number;
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

/** The users list: name, email, role, department, live presence, status and the row actions. */
export function UsersTable({
  rows,
  totalUsers,
  sort,
  onSortChange,
  actions,
  hiddenColumns = NONE,
  selection,
  ...props
}: UsersTableProps) {
  const all = useColumns(actions.narrow);
  const columns = useMemo(() => all.filter((c) => !hiddenColumns.includes(c.id)), [all, hiddenColumns]);
  // The size of the list is known only when it arrives: fetch the grid's chunk alongside it.
  const loading = props.status === 'loading';
  useEffect(() => {
    if (loading) void VirtualizedDataTable.preload();
  }, [loading]);
  const common = { ...props, columns, rows, sortDescriptor: sort, onSortChange };
  return (
    <RowActionsContext.Provider value={actions}>
      {totalUsers > VIRTUALIZE_FROM ? (
        <Suspense fallback={<DataTable {...common} rows={[]} status="loading" />}>
          <VirtualizedDataTable {...common} height="max(20rem, calc(100dvh - 16rem))" rowHeight={ROW_HEIGHT} />
        </Suspense>
      ) : (
        // A long list is virtualized, without row checkboxes: "select all N matching" in the bar selects it.
        <DataTable {...common} {...(selection ? { selectionMode: 'multiple' as const, ...selection } : {})} />
      )}
    </RowActionsContext.Provider>
  );
}
