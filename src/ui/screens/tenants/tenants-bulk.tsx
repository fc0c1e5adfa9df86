import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BulkSelection, BulkTarget } from '../../../machines/shared/bulk-action.machine';
import { tenantFilters, type TenantsQuery } from '../../../domain/tenants-query';
import { Button } from '../../components/button';
import { LazyBulkActionDialog, usePreloadBulkActionDialog } from '../../components/selection/lazy-bulk-action-dialog';
import { SelectionBar } from '../../components/selection/selection-bar';
import type { ListSelectionApi } from '../../components/selection/use-list-selection';
import * as selectionStyles from '../../components/selection/selection.css';
import { useServices } from '../../hooks/services-context';
import { useFeatureLabel } from './use-feature-label';
import type { useFeatureOptions } from './use-feature-options';

/**
 * The tenants list's bulk action (docs/lists.md, Bulk actions), for back-office staff: a feature on or
 * off across the selected tenants, or across every tenant the search matches. The feature is chosen in
 * the selection bar; the dry run, the run and the results are the shared BulkActionDialog's.
 */
export function TenantsBulk({
  selection,
  total,
  totalIsLowerBound = false,
  query,
  options,
  onDone,
}: {
  selection: ListSelectionApi;
  /** The feature options, as the screen read them once for its filter too (./use-feature-options.ts). */
  options: ReturnType<typeof useFeatureOptions>;
  total: number;
  /** More than `total` match (docs/lists.md, Counts); "select all" still selects every match. */
  totalIsLowerBound?: boolean;
  query: Pick<TenantsQuery, 'search' | 'sortName' | 'sortType' | 'deleted' | 'plan' | 'feature' | 'featureEnabled'>;
  onDone: (changed: boolean) => void;
}) {
  const { t } = useTranslation();
  const { clients, overlay } = useServices();
  usePreloadBulkActionDialog(selection.count > 0);
  const label = useFeatureLabel();
  const selectId = useId();
  const [option, setOption] = useState('');
  const [target, setTarget] = useState<Extract<BulkTarget, { kind: 'tenantFeature' }> | null>(null);
  const known = Array.isArray(options) ? options : [];
  const chosen = known.includes(option) ? option : (known[0] ?? '');
  const rows: BulkSelection =
    selection.selection.mode === 'matching'
      ? {
          kind: 'matching',
          list: 'tenants',
          body: {
            search: query.search,
            sort_name: query.sortName,
            sort_type: query.sortType,
            deleted: query.deleted,
            ...tenantFilters(query),
          },
        }
      : { kind: 'ids', ids: [...selection.selection.ids] };
  const start = (enabled: boolean) => setTarget({ kind: 'tenantFeature', option: chosen, enabled });
  return (
    <>
      <SelectionBar
        count={selection.count}
        total={total}
        totalIsLowerBound={totalIsLowerBound}
        allMatching={selection.selection.mode === 'matching'}
        onSelectMatching={selection.selectMatching}
        onClear={selection.clear}
      >
        <span className={selectionStyles.field}>
          <label htmlFor={selectId}>{t('bulkAction.tenants.chooseFeature')}</label>
          <select
            id={selectId}
            className={selectionStyles.select}
            value={chosen}
            onChange={(event) => setOption(event.target.value)}
          >
            {known.map((name) => (
              <option key={name} value={name}>
                {label(name)}
              </option>
            ))}
          </select>
        </span>
        <Button size="sm" isDisabled={!chosen} onPress={() => start(true)}>
          {t('bulkAction.tenants.featureOn')}
        </Button>
        <Button size="sm" variant="secondary" isDisabled={!chosen} onPress={() => start(false)}>
          {t('bulkAction.tenants.featureOff')}
        </Button>
      </SelectionBar>
      {target ? (
        <LazyBulkActionDialog
          rest={clients.rest}
          overlay={overlay}
          target={target}
          selection={rows}
          actionLabel={t(target.enabled ? 'bulkAction.tenants.featureOnTitle' : 'bulkAction.tenants.featureOffTitle', {
            feature: label(target.option),
          })}
          onClose={(changed) => {
            setTarget(null);
            onDone(changed);
          }}
        />
      ) : null}
    </>
  );
}
