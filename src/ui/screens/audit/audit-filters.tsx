import { useActorRef, useSelector } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIT_OPERATION_NAMES, AUDIT_TARGET_TYPES } from '../../../domain/audit';
import type { AuditActor } from '../../../machines/audit/audit.machine';
import { parseId, type AuditQuery } from '../../../machines/audit/audit-query';
import { tenantOptionsMachine } from '../../../machines/tenants/tenant-options.machine';
import { Button } from '../../components/button';
import { ComboBox } from '../../components/combo-box';
import { LazyRangeField } from '../../components/reports/lazy-fields';
import * as reportStyles from '../../components/reports/report-layout.css';
import { TextField } from '../../components/text-field';
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

/** A record id typed as text; a bad one is named under the field and keeps the filters as they were. */
function IdField({
  label,
  description,
  text,
  error,
  onChange,
}: {
  label: string;
  description: string;
  text: string;
  error: string | null;
  onChange: (text: string) => void;
}) {
  return (
    <TextField
      className={styles.idField}
      label={label}
      description={description}
      inputMode="numeric"
      value={text}
      onChange={onChange}
      isInvalid={error !== null}
      errorMessage={error ?? undefined}
      validationBehavior="aria"
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
 * The filters as one form (Enter in a field applies them): the period, the acting user's id, the
 * tenant (staff), the operation, the target type and id; "Filtrar" applies, and the address follows.
 */
export function AuditFilters({ actor, staff, exportButton }: AuditFiltersProps) {
  const { t } = useTranslation();
  const draft = useSelector(actor, (s) => s.context.draft);
  const invalid = useSelector(actor, (s) => s.context.invalid);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  // The texts of the id fields: a text that is no id is refused here, before the machine sees it.
  const [texts, setTexts] = useState(() => ({
    actorId: draft.actorId === null ? '' : String(draft.actorId),
    targetId: draft.targetId === null ? '' : String(draft.targetId),
  }));
  // A draft id set from elsewhere (a record's "only this user", the address) shows in its field; a
  // typed text that reads as the draft's id (or as none, while being typed) shows as typed.
  const follow = (text: string, id: number | null) => (parseId(text) === id ? text : id === null ? '' : String(id));
  const shown = { actorId: follow(texts.actorId, draft.actorId), targetId: follow(texts.targetId, draft.targetId) };
  const [badIds, setBadIds] = useState<{ actorId: boolean; targetId: boolean }>({ actorId: false, targetId: false });
  const patch = (next: Partial<AuditQuery>) => actor.send({ type: 'audit.draft', patch: next });
  const idChanged = (name: 'actorId' | 'targetId') => (text: string) => {
    setTexts((x) => ({ ...x, [name]: text }));
    setBadIds((x) => ({ ...x, [name]: false }));
    patch({ [name]: parseId(text) });
  };
  const submit = () => {
    const bad = {
      actorId: shown.actorId.trim() !== '' && parseId(shown.actorId) === null,
      targetId: shown.targetId.trim() !== '' && parseId(shown.targetId) === null,
    };
    setBadIds(bad);
    if (bad.actorId || bad.targetId) return;
    actor.send({ type: 'audit.apply' });
  };
  const idError = t('audit.filters.idInvalid');
  return (
    <form
      className={reportStyles.toolbar}
      aria-label={t('audit.filters.label')}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
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
      <IdField
        label={t('audit.filters.actor')}
        description={t('audit.filters.actorHint')}
        text={shown.actorId}
        error={badIds.actorId ? idError : null}
        onChange={idChanged('actorId')}
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
        onChange={(value) => patch({ targetType: AUDIT_TARGET_TYPES.find((x) => x === value) ?? null })}
      />
      <IdField
        label={t('audit.filters.targetId')}
        description={t('audit.filters.targetIdHint')}
        text={shown.targetId}
        error={badIds.targetId ? idError : invalid === 'audit.errors.targetId' ? t(invalid) : null}
        onChange={idChanged('targetId')}
      />
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
  );
}
