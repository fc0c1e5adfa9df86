import { memo, useMemo, type ReactNode } from 'react';
import type { SortDescriptor } from 'react-aria-components/Table';
import { useTranslation } from 'react-i18next';
import { formatDate, formatNumber } from '../../../domain/format';
import type { Tenant } from '../../../machines/tenants/tenants-actors';
import { TENANT_SORT_NAMES, type TenantDeleted, type TenantSortName } from '../../../domain/tenants-query';
import { Badge, type Tone } from '../../components/badge';
import { DataTable, type DataTableColumn, type DataTableStatus, type Selection } from '../../components/data-table';
import { TenantRowActions, TenantRowActionsContext, type TenantRowActionsState } from './tenant-row-actions';
import { tenantValueLabels } from '../../components/tenant-value-labels';
import { fillable, MARKS, remembered } from './row-labels';
import * as styles from './tenants.css';

const PLAN_TONES: Record<Tenant['plan'], Tone> = { starter: 'neutral', professional: 'info', enterprise: 'success' };

export interface TenantsTableProps {
  rows: readonly Tenant[];
  status: DataTableStatus;
  /**
   * Which tenants the list shows (src/domain/tenants-query.ts): the deleted view has "Excluído em" instead
   * of "Criado em"; the all view "Criado em", with a deleted row's name marked "Excluído em <date>"; a deleted row offers restore
   * instead of the menu (./tenant-row-actions.tsx).
   */
  deleted: TenantDeleted;
  narrow: boolean;
  sort: SortDescriptor;
  onSort: (sortName: TenantSortName, direction: 'ASC' | 'DESC') => void;
  actions: TenantRowActionsState;
  emptyState: ReactNode;
  errorState: ReactNode;
  'aria-labelledby': string;
  /** Columns the user hid (src/ui/components/views/list-views.tsx); the name and actions always show. */
  hiddenColumns?: readonly string[];
  /** Staff's selection for bulk actions (docs/lists.md): a labelled checkbox per row and one for the page. */
  selection?: { selectedKeys: Selection; onSelectionChange: (keys: Selection) => void } | undefined;
}

const NONE: readonly string[] = [];

function useColumns(deleted: TenantDeleted, narrow: boolean): DataTableColumn<Tenant>[] {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return useMemo(() => {
    const labels = tenantValueLabels(t);
    // Translated once for the page, not per row (./row-labels.ts).
    const template = remembered(labels.template);
    const pool = remembered(labels.pool);
    const plan = remembered((value: Tenant['plan']) => t(`tenants.screen.plans.${value}`));
    const usage = fillable(t('tenants.screen.usage', { used: MARKS[0], limit: MARKS[1] }));
    const overLimit = t('tenants.screen.overLimit');
    const name: DataTableColumn<Tenant> = {
      id: 'name',
      header: t('tenants.screen.columns.name'),
      isRowHeader: true,
      allowsSorting: true,
      cell: (row) =>
        deleted === 'all' && row.deleted_at !== null ? (
          <span className={styles.markedName}>
            <span className={styles.name}>{row.name}</span>
            <Badge tone="danger">{t('tenants.screen.deletedOn', { date: formatDate(row.deleted_at, locale) })}</Badge>
          </span>
        ) : (
          <span className={styles.name}>{row.name}</span>
        ),
    };
    const actions: DataTableColumn<Tenant> = {
      id: 'actions',
      header: t('tenants.screen.columns.actions'),
      align: 'end',
      cell: (row) => <TenantRowActions tenant={row} />,
    };
    const details: DataTableColumn<Tenant>[] = [
      {
        id: 'cnpj',
        header: t('tenants.screen.columns.cnpj'),
        allowsSorting: true,
        cell: (row) => <span className={styles.nowrap}>{row.cnpj}</span>,
      },
      {
        id: 'plan',
        header: t('tenants.screen.columns.plan'),
        allowsSorting: true,
        cell: (row) => <Badge tone={PLAN_TONES[row.plan]}>{plan(row.plan)}</Badge>,
      },
      {
        id: 'userLimit',
        header: t('tenants.screen.columns.users'),
        allowsSorting: true,
        align: 'end',
        cell: (row) => (
          <span className={styles.usage}>
            <span className={styles.nowrap}>
              {usage(formatNumber(row.users_count, locale), formatNumber(row.userLimit, locale))}
            </span>
            {row.users_count > row.userLimit ? <Badge tone="warning">{overLimit}</Badge> : null}
          </span>
        ),
      },
      {
        id: 'ticketLimit',
        header: t('tenants.screen.columns.ticketLimit'),
        allowsSorting: true,
        align: 'end',
        cell: (row) => formatNumber(row.ticketLimit, locale),
      },
      {
        id: 'template',
        header: t('tenants.screen.columns.template'),
        allowsSorting: true,
        cell: (row) => template(row.template),
      },
      {
        id: 'pool',
        header: t('tenants.screen.columns.pool'),
        allowsSorting: true,
        cell: (row) => pool(row.pool),
      },
      ...(deleted === 'only'
        ? []
        : [
            {
              id: 'created_at',
              header: t('tenants.screen.columns.createdAt'),
              allowsSorting: true,
              cell: (row: Tenant) => formatDate(row.created_at, locale),
            },
          ]),
      // The all view marks a deleted row's name with its date instead (a column more would push the
      // actions out of a 1366-wide screen).
      ...(deleted !== 'only'
        ? []
        : [
            {
              id: 'deleted_at',
              header: t('tenants.screen.columns.deletedAt'),
              allowsSorting: true,
              cell: (row: Tenant) => (row.deleted_at ? formatDate(row.deleted_at, locale) : ''),
            },
          ]),
    ];
    // On a phone the actions come right after the name, before any sideways scroll.
    return narrow ? [name, actions, ...details] : [name, ...details, actions];
  }, [t, locale, deleted, narrow]);
}

/**
 * One page of tenants: name, CNPJ, plan, users against the limit, limits, template, pool, dates, actions.
 * Memoized: the screen keeps its props' identity, so an answer that changes nothing here skips it.
 */
export const TenantsTable = memo(function TenantsTable({
  rows,
  status,
  deleted,
  narrow,
  sort,
  onSort,
  actions,
  emptyState,
  errorState,
  hiddenColumns = NONE,
  selection,
  ...aria
}: TenantsTableProps) {
  const { t } = useTranslation();
  const all = useColumns(deleted, narrow);
  const columns = useMemo(() => all.filter((c) => !hiddenColumns.includes(c.id)), [all, hiddenColumns]);
  const rowActions = useMemo(
    () => ({ ...actions, t, moreLabel: fillable(t('tenants.screen.actions.more', { name: MARKS[0] })) }),
    [actions, t],
  );
  return (
    <TenantRowActionsContext.Provider value={rowActions}>
      <DataTable
        {...aria}
        columns={columns}
        rows={rows}
        status={status}
        sortDescriptor={sort}
        onSortChange={({ column, direction }) => {
          const name = TENANT_SORT_NAMES.find((id) => id === column);
          if (name) onSort(name, direction === 'descending' ? 'DESC' : 'ASC');
        }}
        emptyState={emptyState}
        errorState={errorState}
        {...(selection
          ? {
              selectionMode: 'multiple' as const,
              selectedKeys: selection.selectedKeys,
              onSelectionChange: selection.onSelectionChange,
            }
          : {})}
      />
    </TenantRowActionsContext.Provider>
  );
});
