import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditTargetType } from '../../../domain/audit';
import { auditNamesMachine, type AuditName } from '../../../machines/audit/audit-names.machine';
import { ComboBox } from '../../components/combo-box';
import * as reportStyles from '../../components/reports/report-layout.css';
import { useServices } from '../../hooks/services-context';

const ALL = '*';

export interface AuditNamePickerProps {
  label: string;
  /** The first option, which clears the filter ("Todos os usuários"). */
  allLabel: string;
  of: 'actor' | 'target';
  targetType?: AuditTargetType | null;
  value: number | null;
  onChange: (id: number | null) => void;
}

/**
 * "Usuário" / "Alvo" of the audit filters: a combo box whose options the server searches by name as one
 * types (src/machines/audit/audit-names.machine.ts); the filter keeps the chosen id, as the address does.
 */
export function AuditNamePicker({ label, allLabel, of, targetType, value, onChange }: AuditNamePickerProps) {
  const { t } = useTranslation();
  const { clients } = useServices();
  const names = useActorRef(auditNamesMachine, {
    input: { rest: clients.rest, of, targetType: targetType ?? null, selectedId: value },
  });
  const results = useSelector(names, (s) => s.context.results);
  const known = useSelector(names, (s) => s.context.known);
  const loading = useSelector(names, (s) => s.hasTag('loading'));
  const failed = useSelector(names, (s) => s.context.failed);
  // An id set elsewhere (a record's "only this user") is named once read.
  useEffect(() => {
    if (value !== null) names.send({ type: 'names.resolve', id: value });
  }, [names, value]);

  const text = (name: AuditName) => {
    const main = name.name ?? name.email ?? t('audit.filters.nameWithId', { id: name.id });
    return of === 'actor' && name.email && name.name ? `${main} · ${name.email}` : main;
  };
  const chosen =
    value === null ? allLabel : known[value] ? text(known[value]) : t('audit.filters.nameWithId', { id: value });
  return (
    <ComboBox
      className={reportStyles.field}
      label={label}
      items={[{ id: ALL, label: allLabel }, ...results.map((name) => ({ id: name.id, label: text(name) }))]}
      selectedKey={value ?? ALL}
      selectedLabel={chosen}
      onSelectionChange={(key) => onChange(key === ALL ? null : Number(key))}
      onInputChange={(typed) => names.send({ type: 'names.type', text: typed })}
      pendingText={loading ? t('audit.filters.searching') : failed ? t('audit.filters.namesFailed') : undefined}
    />
  );
}
