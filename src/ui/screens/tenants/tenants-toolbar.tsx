import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { PlusIcon } from '../../components/icons';
import { Radio, RadioGroup } from '../../components/radio-group';
import { SearchField } from '../../components/search-field';
import * as styles from './tenants.css';

export interface TenantsToolbarProps {
  searchText: string;
  onSearch: (text: string) => void;
  deleted: boolean;
  onView: (deleted: boolean) => void;
  onReload: () => void;
  isLoading: boolean;
  onCreate: () => void;
  canCreate: boolean;
  searchRef: RefObject<HTMLDivElement | null>;
}

/** Search (by name or CNPJ, debounced by the machine), active/deleted view, reload and "Novo tenant". */
export function TenantsToolbar({ searchText, onSearch, deleted, onView, onReload, isLoading, onCreate, canCreate, searchRef }: TenantsToolbarProps) {
  const { t } = useTranslation();
  return (
    <div className={styles.toolbar}>
      <div ref={searchRef} className={styles.search}>
        <SearchField label={t('tenants.screen.searchLabel')} placeholder={t('tenants.screen.searchPlaceholder')} value={searchText} onChange={onSearch} />
      </div>
      <RadioGroup label={t('tenants.screen.viewLabel')} orientation="horizontal" value={deleted ? 'deleted' : 'active'} onChange={(value) => onView(value === 'deleted')}>
        <Radio value="active">{t('tenants.views.active')}</Radio>
        <Radio value="deleted">{t('tenants.views.deleted')}</Radio>
      </RadioGroup>
      <div className={styles.toolbarEnd}>
        <Button variant="secondary" onPress={onReload} isPending={isLoading} pendingLabel={t('tenants.screen.loadingPage')} aria-label={t('tenants.screen.reloadHint')}>
          {t('tenants.screen.reload')}
        </Button>
        <Button icon={<PlusIcon />} onPress={onCreate} isDisabled={!canCreate}>
          {t('tenants.screen.create')}
        </Button>
      </div>
    </div>
  );
}

export interface TenantsEmptyStateProps {
  deleted: boolean;
  search: string;
  onClear: () => void;
  onCreate: () => void;
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
  if (deleted) return <EmptyState title={t('tenants.screen.empty.deleted')} description={t('tenants.screen.empty.deletedHint')} />;
  return (
    <EmptyState
      title={t('tenants.screen.empty.none')}
      description={t('tenants.screen.empty.noneHint')}
      action={
        <Button icon={<PlusIcon />} onPress={onCreate}>
          {t('tenants.screen.create')}
        </Button>
      }
    />
  );
}
