import type { ReactNode, RefObject } from 'react';
import { TENANT_PLANS, type TenantDeleted, type TenantPlan } from '../../../domain/tenants-query';
import { FilterSelect } from '../../components/filter-select';
import { useFeatureLabel } from './use-feature-label';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state';
import { PlusIcon } from '../../components/icons';
import { Button } from '../../components/button';
import { SearchField } from '../../components/search-field';
import { RadioGroup } from '../../components/radio-group';
import * as styles from './tenants.css';

export interface TenantsToolbarProps {
  searchText: string;
  onSearch: (text: string) => void;
  deleted: TenantDeleted;
  onView: (deleted: TenantDeleted) => void;
  onReload: () => void;
  isLoading: boolean;
  /** Null for anyone but back-office staff: no "Novo tenant", and no deleted or all view (restoring is staff's). */
  onCreate: (() => void) | null;
  canCreate: boolean;
  searchRef: RefObject<HTMLDivElement | null>;
  /** The list's filters (docs/lists.md): plan, and a feature on or off; null is any. */
  filters: { plan: TenantPlan | null; feature: string | null; featureEnabled: boolean };
  onFilter: (change: { plan?: TenantPlan | null; feature?: string | null; featureEnabled?: boolean }) => void;
  /** The feature options the feature filter offers (empty while unknown: the filter is left out). */
  featureOptions: readonly string[];
  /** "Exportar CSV" of the list as shown. */
  exportButton: ReactNode;
}

/**
 * Search (by name or CNPJ, debounced by the machine), active/deleted/all view, reload and "Novo tenant".
 * Native controls (search-field.tsx, radio-group.tsx, button.tsx): the first
 * screen after sign-in loads no React Aria for its toolbar.
 */
export function TenantsToolbar({
  searchText,
  onSearch,
  deleted,
  onView,
  onReload,
  isLoading,
  onCreate,
  canCreate,
  searchRef,
  filters,
  onFilter,
  featureOptions,
  exportButton,
}: TenantsToolbarProps) {
  const { t } = useTranslation();
  const featureLabel = useFeatureLabel();
  const any = { value: '', label: t('lists.filters.any') };
  return (
    <div className={styles.toolbar}>
      <div ref={searchRef} className={styles.search}>
        <SearchField
          label={t('tenants.screen.searchLabel')}
          placeholder={t('tenants.screen.searchPlaceholder')}
          value={searchText}
          onChange={onSearch}
        />
      </div>
      {onCreate ? (
        <RadioGroup
          label={t('tenants.screen.viewLabel')}
          value={deleted}
          onChange={(value) => onView(value === 'only' || value === 'all' ? value : 'live')}
          options={[
            { value: 'live', label: t('tenants.views.active') },
            { value: 'only', label: t('tenants.views.deleted') },
            { value: 'all', label: t('tenants.views.all') },
          ]}
          className={styles.views}
        />
      ) : null}
      <div className={styles.filters}>
        <FilterSelect
          label={t('lists.filters.plan')}
          value={filters.plan ?? ''}
          options={[any, ...TENANT_PLANS.map((plan) => ({ value: plan, label: t(`tenants.screen.plans.${plan}`) }))]}
          onChange={(value) =>
            onFilter({ plan: (TENANT_PLANS as readonly string[]).includes(value) ? (value as TenantPlan) : null })
          }
        />
        {featureOptions.length > 0 || filters.feature !== null ? (
          <FilterSelect
            label={t('lists.filters.feature')}
            value={filters.feature ?? ''}
            options={[
              any,
              ...[...new Set([...featureOptions, ...(filters.feature ? [filters.feature] : [])])].map((option) => ({
                value: option,
                label: featureLabel(option),
              })),
            ]}
            onChange={(value) => onFilter({ feature: value === '' ? null : value })}
          />
        ) : null}
        {filters.feature !== null ? (
          <FilterSelect
            label={t('lists.filters.featureState')}
            value={filters.featureEnabled ? 'on' : 'off'}
            options={[
              { value: 'on', label: t('lists.filters.on') },
              { value: 'off', label: t('lists.filters.off') },
            ]}
            onChange={(value) => onFilter({ featureEnabled: value === 'on' })}
          />
        ) : null}
      </div>
      <div className={styles.toolbarEnd}>
        {exportButton}
        <Button
          variant="secondary"
          onPress={onReload}
          isPending={isLoading}
          pendingLabel={t('tenants.screen.loadingPage')}
          aria-label={t('tenants.screen.reloadHint')}
        >
          {t('tenants.screen.reload')}
        </Button>
        {onCreate ? (
          <Button icon={<PlusIcon />} onPress={onCreate} isDisabled={!canCreate}>
            {t('tenants.screen.create')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

export interface TenantsEmptyStateProps {
  deleted: TenantDeleted;
  search: string;
  onClear: () => void;
  /** Null for anyone but back-office staff (the empty list then offers nothing to create). */
  onCreate: (() => void) | null;
}

/** Why the page is empty: nothing yet (create one), nothing deleted, or a search with no match (clear it). */
export function TenantsEmptyState({ deleted, search, onClear, onCreate }: TenantsEmptyStateProps) {
  const { t } = useTranslation();
  if (search !== '') {
    return (
      <EmptyState
        title={t('tenants.screen.empty.search', { search })}
        description={t('tenants.screen.empty.searchHint')}
        action={
          <Button variant="secondary" onPress={onClear}>
            {t('tenants.screen.empty.clear')}
          </Button>
        }
      />
    );
  }
  if (deleted === 'only')
    return <EmptyState title={t('tenants.screen.empty.deleted')} description={t('tenants.screen.empty.deletedHint')} />;
  return (
    <EmptyState
      title={t('tenants.screen.empty.none')}
      description={t('tenants.screen.empty.noneHint')}
      action={
        onCreate ? (
          <Button icon={<PlusIcon />} onPress={onCreate}>
            {t('tenants.screen.create')}
          </Button>
        ) : undefined
      }
    />
  );
}
