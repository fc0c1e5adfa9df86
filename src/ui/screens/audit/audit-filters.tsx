import { useActorRef, useSelector } from '@xstate/react';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIT_OPERATION_NAMES, AUDIT_TARGET_TYPES } from '../../../domain/audit';
import type { AuditActor } from '../../../machines/audit/audit.machine';
import { activeAuditFilters, type AuditQuery } from '../../../machines/audit/audit-query';
import { tenantOptionsMachine } from '../../../machines/tenants/tenant-options.machine';
import { Button } from '../../components/button';
import { ComboBox } from '../../components/combo-box';
import { LazyRangeField } from '../../components/reports/lazy-fields';
import * as reportStyles from '../../components/reports/report-layout.css';
import { cx } from '../../components/class-names';
import { AuditNamePicker } from './audit-name-picker';
import { useServices } from '../../hooks/services-context';
import * as styles from './audit.css';
import { FilterSelect as AuditSelect } from '../../components/filter-select';

const ALL = '*';

/** Staff: one tenant or every tenant, from the active tenants (as the dashboard's tenant filter). */
function TenantFilter({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const { t } = useTranslation();
  const { clients } = useServices();
  const options = useActorRef(tenantOptionsMachine, { input: { rest: clients.rest } });
  const tenants = useSelector(options, (s) => s.context.tenants);
  const items = [
    { id: ALL, label: t('audit.filters.allTenants') },
    ...tenants.map((x) => ({ id: x.id, label: x.name })),
  ];
  // A tenant id from the address that is not an active tenant (deleted, unknown) stays selectable.
  if (value !== null && !tenants.some((x) => x.id === value)) items.push({ id: value, label: `#${value}` });
  return (
    <ComboBox
      className={reportStyles.field}
      label={t('audit.filters.tenant')}
      items={items}
      selectedKey={value ?? ALL}
      onSelectionChange={(key) => onChange(key === ALL ? null : Number(key))}
    />
  );
}

export interface AuditFiltersProps {
  actor: AuditActor;
  staff: boolean;
  /** The export button, beside "Filtrar". */
  exportButton: ReactNode;
}

/**
 * The filters as one form (Enter in a field applies them): the period, who acted and the target by
 * name (server-searched pickers), the tenant (staff), the operation and the target's type; "Filtrar"
 * applies, and the address follows. On a narrow screen the form folds behind "Filtros (n)", n the
 * filters applied.
 */
export function AuditFilters({ actor, staff, exportButton }: AuditFiltersProps) {
  const { t } = useTranslation();
  const formId = useId();
  const [unfolded, setUnfolded] = useState(false);
  const draft = useSelector(actor, (s) => s.context.draft);
  const active = useSelector(actor, (s) => activeAuditFilters(s.context.query));
  const invalid = useSelector(actor, (s) => s.context.invalid);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const patch = (next: Partial<AuditQuery>) => actor.send({ type: 'audit.draft', patch: next });
  return (
    <>
      <div className={styles.filtersToggle}>
        <Button
          variant="secondary"
          aria-expanded={unfolded}
          aria-controls={formId}
          onPress={() => setUnfolded((x) => !x)}
        >
          {active > 0 ? t('audit.filters.toggleCount', { count: active }) : t('audit.filters.toggle')}
        </Button>
      </div>
      <form
        id={formId}
        className={cx(reportStyles.toolbar, !unfolded && styles.filtersFolded)}
        aria-label={t('audit.filters.label')}
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: 'audit.apply' });
        }}
      >
        <LazyRangeField
          label={t('audit.filters.period')}
          description={t('audit.filters.periodHint')}
          startAt={draft.from}
          finishAt={draft.to}
          onChange={(from, to) => patch({ from, to })}
          errorMessage={invalid === 'audit.errors.range' ? t(invalid) : null}
          className={reportStyles.field}
        />
        <AuditNamePicker
          label={t('audit.filters.actor')}
          allLabel={t('audit.filters.allActors')}
          of="actor"
          value={draft.actorId}
          onChange={(actorId) => patch({ actorId })}
        />
        {staff ? <TenantFilter value={draft.tenantId} onChange={(tenantId) => patch({ tenantId })} /> : null}
        <AuditSelect
          className={reportStyles.field}
          label={t('audit.filters.operation')}
          options={[
            { value: ALL, label: t('audit.filters.allOperations') },
            ...AUDIT_OPERATION_NAMES.map((name) => ({ value: name, label: t(`audit.operation.${name}`) })),
          ]}
          value={draft.operation ?? ALL}
          onChange={(value) => patch({ operation: AUDIT_OPERATION_NAMES.find((x) => x === value) ?? null })}
        />
        <AuditSelect
          className={reportStyles.field}
          label={t('audit.filters.targetType')}
          options={[
            { value: ALL, label: t('audit.filters.allTargets') },
            ...AUDIT_TARGET_TYPES.map((type) => ({ value: type, label: t(`audit.target.${type}`) })),
          ]}
          value={draft.targetType ?? ALL}
          // Ids are per kind: another kind clears the target.
          onChange={(value) =>
            patch({ targetType: AUDIT_TARGET_TYPES.find((x) => x === value) ?? null, targetId: null })
          }
        />
        {draft.targetType !== null ? (
          <AuditNamePicker
            key={draft.targetType}
            label={t('audit.filters.target')}
            allLabel={t('audit.filters.allTargetsOfType', { type: t(`audit.target.${draft.targetType}`) })}
            of="target"
            targetType={draft.targetType}
            value={draft.targetId}
            onChange={(targetId) => patch({ targetId })}
          />
        ) : null}
        <div className={reportStyles.actions}>
          <span className={reportStyles.labelSpace} aria-hidden="true">
            {'\u00a0'}
          </span>
          <div className={reportStyles.buttons}>
            <Button type="submit" isPending={busy}>
              {t('audit.filters.apply')}
            </Button>
            {exportButton}
          </div>
        </div>
      </form>
    </>
  );
}
