import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PreviewSheetName } from '../../../../machines/reports/sheet-preview.machine';
import { tenantOptionsMachine } from '../../../../machines/tenants/tenant-options.machine';
import { ComboBox } from '../../../components/combo-box';
import { NumberField } from '../../../components/number-field';
import { Select } from '../../../components/select';
import { useServices } from '../../../hooks/services-context';
import { LazyRangeField } from '../../../components/reports/lazy-fields';
import type { SheetFilters } from '../../../components/reports/sheet-request';
import * as styles from './sheets.css';

export interface SheetFiltersProps {
  sheet: PreviewSheetName;
  filters: SheetFilters;
  onChange: (next: SheetFilters) => void;
  /** The machine's refusal of the range, translated. */
  rangeError: string | null;
}

const ID_FORMAT = { useGrouping: false, maximumFractionDigits: 0 } as const;
const idOrNull = (value: number) => (Number.isFinite(value) && value >= 1 ? Math.trunc(value) : null);

/** A tenant (by id) for the reasons sheet; "every tenant" is the empty choice. */
function TenancyField({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const { t } = useTranslation();
  const { clients } = useServices();
  const actor = useActorRef(tenantOptionsMachine, { input: { rest: clients.rest } });
  const tenants = useSelector(actor, (s) => s.context.tenants);
  const items = useMemo(
    () => [
      { id: 'all', label: t('sheets.panel.filters.tenancyAll') },
      ...tenants.map((tenant) => ({ id: tenant.id, label: tenant.name })),
    ],
    [t, tenants],
  );
  return (
    <ComboBox
      label={t('sheets.panel.filters.tenancy')}
      items={items}
      selectedKey={value ?? 'all'}
      onSelectionChange={(key) => onChange(typeof key === 'number' ? key : null)}
      className={styles.filter}
    />
  );
}

/** The period and the filters its sheet takes (website and estimate; tenant and reason). */
export function SheetFiltersBar({ sheet, filters, onChange, rangeError }: SheetFiltersProps) {
  const { t } = useTranslation();
  const set = (patch: Partial<SheetFilters>) => onChange({ ...filters, ...patch });
  return (
    <div className={styles.filters}>
      <LazyRangeField
        label={t('sheets.panel.range')}
        description={t('reports.screen.rangeHint')}
        startAt={filters.startAt}
        finishAt={filters.finishAt}
        onChange={(startAt, finishAt) => set({ startAt, finishAt })}
        errorMessage={rangeError}
        className={styles.range}
      />
      {sheet === 'attendances' ? (
        <>
          <NumberField
            label={t('sheets.panel.filters.website')}
            description={t('sheets.panel.filters.websiteHint')}
            minValue={1}
            formatOptions={ID_FORMAT}
            value={filters.websiteId ?? Number.NaN}
            onChange={(value) => set({ websiteId: idOrNull(value) })}
            className={styles.filter}
          />
          <Select
            label={t('sheets.panel.filters.estimation')}
            items={[
              { id: 'all', label: t('sheets.panel.filters.estimationAll') },
              { id: 'yes', label: t('sheets.panel.filters.estimationYes') },
              { id: 'no', label: t('sheets.panel.filters.estimationNo') },
            ]}
            value={filters.estimation}
            onChange={(key) => set({ estimation: key === 'yes' || key === 'no' ? key : 'all' })}
            className={styles.filter}
          />
        </>
      ) : null}
      {sheet === 'reasons' ? (
        <>
          <TenancyField value={filters.tenancyId} onChange={(tenancyId) => set({ tenancyId })} />
          <NumberField
            label={t('sheets.panel.filters.reason')}
            description={t('sheets.panel.filters.reasonHint')}
            minValue={1}
            formatOptions={ID_FORMAT}
            value={filters.reasonId ?? Number.NaN}
            onChange={(value) => set({ reasonId: idOrNull(value) })}
            className={styles.filter}
          />
        </>
      ) : null}
    </div>
  );
}
