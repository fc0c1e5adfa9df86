import { useActorRef, useSelector } from '@xstate/react';
import { Suspense, useCallback, useId, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { tenantsListMachine } from '../../../machines/tenants/tenants-list.machine';
import {
  selectBusy,
  selectCanAct,
  selectListStatus,
  selectStaff,
} from '../../../machines/tenants/tenants-list-selectors';
import { selectIsStaff } from '../../../machines/session/access-selectors';
import type { Tenant } from '../../../machines/tenants/tenants-actors';
import type { TenantSortName } from '../../../domain/tenants-query';
import { ErrorState } from '../../components/error-state';
import { lazyPart } from '../../components/lazy-with-timeout';
import { Spinner } from '../../components/spinner';
import { Pagination } from '../../components/pagination';
import { VisuallyHidden } from '../../components/visually-hidden';
import { ListViewsBar, useListViews } from '../../components/views/list-views';
import { useServices, useSession } from '../../hooks/services-context';
import { useMediaQuery } from '../../hooks/use-media-query';
import { useOutcomeToast } from '../../hooks/use-outcome-toast';
import { TenantDialogs } from './tenant-dialogs';
import type { TenantAction } from './tenant-row-actions';
import { TenantsEmptyState, TenantsToolbar } from './tenants-toolbar';
import { TenantsTable } from './tenants-table';
import * as styles from './tenants.css';
import { useTenantsAddress } from './use-tenants-address';
import { useReloadOnFocus } from './use-reload-on-focus';
import { useFeatureOptions } from './use-feature-options';
import { ListExportButton, ListExportStatus, useListExport } from '../../components/reports/list-export';
import { useListSelection } from '../../components/selection/use-list-selection';
import { TenantsBulk } from './tenants-bulk';

// The tenant panel (date pickers, multi-select, tabs, number fields) is its own chunk, as are the
// dialogs (tenant-dialogs.tsx): the list shows without them, and each arrives when first opened.
const TenantPanel = lazyPart(() => import('./tenant-panel').then((m) => ({ default: m.TenantPanel })));

const PAGE_SIZES = [4, 10, 25, 50];
const TENANT_PANEL_KEYS = ['panel', 'tenant'];

/** Below this width the row actions come right after the name (390 px phones). */
const NARROW_QUERY = '(max-width: 47.99rem)';

/**
 * `/tenants`: one page of tenants (4 per page by default; docs/product.md, Tenants) with search by name or CNPJ,
 * sortable columns, page controls and page size, all in the address; create, edit, set plan, delete
 * with confirmation, the deleted view with restore; per tenant, a panel (also in the address) with
 * its features, webhooks, analytics sync and instances. Below the shell's h1.
 */
export default function TenantsScreen() {
  const { t } = useTranslation();
  const { clients, bus } = useServices();
  const initialSearch = useSearch();
  const actor = useActorRef(tenantsListMachine, {
    input: { rest: clients.rest, search: initialSearch, staff: useSession(selectIsStaff), bus },
  });
  const [panel, setPanel] = useTenantsAddress(actor);
  // The open panel is not part of a view (src/ui/screens/tenants/tenants-address.ts).
  const views = useListViews('tenants', { omit: TENANT_PANEL_KEYS });
  const rows = useSelector(actor, (s) => s.context.rows);
  const total = useSelector(actor, (s) => s.context.total);
  const totalIsLowerBound = useSelector(actor, (s) => s.context.totalIsLowerBound);
  const query = useSelector(actor, (s) => s.context.query);
  const searchText = useSelector(actor, (s) => s.context.searchText);
  const status = useSelector(actor, selectListStatus);
  const listError = useSelector(actor, (s) => s.context.listError);
  const busy = useSelector(actor, selectBusy);
  const canAct = useSelector(actor, selectCanAct);
  const staff = useSelector(actor, selectStaff);
  const target = useSelector(actor, (s) => s.context.target);
  const narrow = useMediaQuery(NARROW_QUERY);
  const searchRef = useRef<HTMLDivElement>(null);
  const headingId = useId();

  // The row whose button had focus may be gone (deleted, restored): focus the search instead.
  useOutcomeToast(actor, (outcome) => {
    if (outcome.ok) requestAnimationFrame(() => searchRef.current?.querySelector('input')?.focus());
  });
  useReloadOnFocus(actor);

  const onAction = useCallback(
    (action: TenantAction, tenant: Tenant) => {
      if (action === 'edit') actor.send({ type: 'tenants.editOpen', tenant });
      else if (action === 'setPlan') actor.send({ type: 'tenants.planOpen', tenant });
      else if (action === 'delete') actor.send({ type: 'tenants.delete', tenant });
      else if (action === 'restore') actor.send({ type: 'tenants.restore', tenant });
      else setPanel({ tab: action, tenant: tenant.name });
    },
    [actor, setPanel],
  );
  const rowActions = useMemo(
    () => ({ busy, pendingId: target?.id ?? null, staff, onAction }),
    [busy, target, staff, onAction],
  );
  const sort = useMemo(
    () => ({
      column: query.sortName,
      direction: query.sortType === 'ASC' ? ('ascending' as const) : ('descending' as const),
    }),
    [query.sortName, query.sortType],
  );
  const pageSizes = PAGE_SIZES.includes(query.limit) ? PAGE_SIZES : [...PAGE_SIZES, query.limit].sort((a, b) => a - b);
  const create = useCallback(() => actor.send({ type: 'tenants.createOpen' }), [actor]);
  const featureOptions = useFeatureOptions();
  const exporter = useListExport();
  // Bulk actions (docs/lists.md): staff select tenants; a new search, view, filter or order is another list.
  const pageIds = useMemo(() => rows.map((row) => row.id), [rows]);
  const selection = useListSelection(
    JSON.stringify([
      query.search,
      query.deleted,
      query.plan,
      query.feature,
      query.featureEnabled,
      query.sortName,
      query.sortType,
    ]),
    pageIds,
    total,
  );
  // The table's props keep their identity while an unrelated answer (views, feature options)
  // re-renders the screen: the table is memoized and skips that render (docs/performance.md).
  const { selectedKeys, onSelectionChange } = selection;
  const tableSelection = useMemo(
    () => (staff ? { selectedKeys, onSelectionChange } : undefined),
    [staff, selectedKeys, onSelectionChange],
  );
  const onSort = useCallback(
    (sortName: TenantSortName, sortType: 'ASC' | 'DESC') => actor.send({ type: 'tenants.sort', sortName, sortType }),
    [actor],
  );
  const emptyState = useMemo(
    () => (
      <TenantsEmptyState
        deleted={query.deleted}
        search={query.search}
        onClear={() => actor.send({ type: 'tenants.search', text: '' })}
        onCreate={staff ? create : null}
      />
    ),
    [actor, query.deleted, query.search, staff, create],
  );
  const errorState = useMemo(
    () => (
      <ErrorState
        title={listError ? t(listError.key) : undefined}
        description={listError ? t(listError.reason) : undefined}
        onRetry={() => actor.send({ type: 'tenants.reload' })}
      />
    ),
    [actor, listError, t],
  );

  return (
    <section className={styles.screen} aria-labelledby={headingId}>
      <VisuallyHidden>
        <h2 id={headingId}>{t('tenants.screen.heading')}</h2>
      </VisuallyHidden>
      <TenantsToolbar
        searchText={searchText}
        onSearch={(text) => actor.send({ type: 'tenants.search', text })}
        deleted={query.deleted}
        onView={(deleted) => actor.send({ type: 'tenants.view', deleted })}
        onReload={() => actor.send({ type: 'tenants.reload' })}
        isLoading={status === 'loading'}
        onCreate={staff ? create : null}
        canCreate={canAct}
        searchRef={searchRef}
        filters={{ plan: query.plan, feature: query.feature, featureEnabled: query.featureEnabled }}
        onFilter={(change) => actor.send({ type: 'tenants.filter', ...change })}
        featureOptions={Array.isArray(featureOptions) ? featureOptions : []}
        exportButton={
          <ListExportButton
            actor={exporter}
            request={() => ({ list: 'tenants', query: actor.getSnapshot().context.query })}
          />
        }
      />
      <ListExportStatus actor={exporter} />
      {staff ? null : <p className={styles.notice}>{t('tenants.screen.readOnlyNote')}</p>}
      <ListViewsBar views={views} />
      {staff ? (
        <TenantsBulk
          selection={selection}
          total={total}
          totalIsLowerBound={totalIsLowerBound}
          query={query}
          options={featureOptions}
          onDone={(changed) => {
            selection.clear();
            if (changed) actor.send({ type: 'tenants.reload' });
          }}
        />
      ) : null}
      <TenantsTable
        aria-labelledby={headingId}
        rows={rows}
        status={status}
        deleted={query.deleted}
        narrow={narrow}
        hiddenColumns={views.hidden}
        sort={sort}
        onSort={onSort}
        actions={rowActions}
        selection={tableSelection}
        emptyState={emptyState}
        errorState={errorState}
      />
      <Pagination
        page={query.page}
        pageSize={query.limit}
        total={total}
        totalIsLowerBound={totalIsLowerBound}
        pageSizeOptions={pageSizes}
        onPageChange={(page) => actor.send({ type: 'tenants.page', page })}
        onPageSizeChange={(limit) => actor.send({ type: 'tenants.limit', limit })}
      />
      <TenantDialogs actor={actor} />
      {panel ? (
        <Suspense fallback={<Spinner label={t('common.loading')} />}>
          <TenantPanel key={panel.tenant ?? ''} panel={panel} onNavigate={setPanel} />
        </Suspense>
      ) : null}
    </section>
  );
}
