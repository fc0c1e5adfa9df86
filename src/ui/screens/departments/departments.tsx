import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  departmentsMachine,
  selectDepartmentsStatus,
  type Department,
} from '../../../machines/departments/departments.machine';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ErrorState } from '../../components/error-state';
import { PlusIcon } from '../../components/icons';
import { Inline, Stack } from '../../components/layout';
import { NameDialog, type NameDialogFeedback } from '../../components/name-dialog';
import { useRenameConflict } from '../../components/conflict-notice/use-rename-conflict';
import { useServices } from '../../hooks/services-context';
import { useOutcomeToast } from '../../hooks/use-outcome-toast';
import * as styles from './departments.css';

/**
 * `/departments`: the departments of the address's tenant with their status; creating and renaming in
 * a dialog, activating and deactivating from the row. Guarded by the `users` permission, like the
 * operations it calls (src/domain/paths.ts).
 */
export default function DepartmentsScreen() {
  const { t } = useTranslation();
  const { clients, tenant, bus } = useServices();
  const actor = useActorRef(departmentsMachine, { input: { rest: clients.rest, tenantName: tenant(), bus } });
  const { formKey, ...conflict } = useRenameConflict(actor, 'department');
  const departments = useSelector(actor, (s) => s.context.records);
  const status = useSelector(actor, selectDepartmentsStatus);
  const listError = useSelector(actor, (s) => s.context.listError);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const dialog = useSelector(actor, (s) => s.context.dialog);
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const actionError = useSelector(actor, (s) => s.context.actionError);
  // A new object only for a new refusal (the dialog shows it until the name is edited).
  const feedback = useMemo<NameDialogFeedback>(
    () => ({ fieldErrors, formError: actionError }),
    [fieldErrors, actionError],
  );

  // A success closes the dialog that asked (in the machine) and toasts; a refusal keeps it open with the reason.
  useOutcomeToast(actor);
  const openCreate = () => actor.send({ type: 'records.createOpen', scope: null });

  const columns: DataTableColumn<Department>[] = [
    { id: 'name', header: t('departments.columns.name'), isRowHeader: true, cell: (d) => d.name },
    {
      id: 'status',
      header: t('departments.columns.status'),
      cell: (d) => (
        <Badge tone={d.activated ? 'success' : 'neutral'}>
          {t(d.activated ? 'departments.activated' : 'departments.deactivated')}
        </Badge>
      ),
    },
    {
      id: 'actions',
      header: t('departments.columns.actions'),
      align: 'end',
      cell: (d) => (
        <span className={styles.actions}>
          <Button
            variant="ghost"
            size="sm"
            aria-label={t('departments.renameLabel', { name: d.name })}
            onPress={() => actor.send({ type: 'records.renameOpen', id: d.id })}
            isDisabled={busy}
          >
            {t('departments.rename')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            aria-label={t(d.activated ? 'departments.deactivateLabel' : 'departments.activateLabel', { name: d.name })}
            onPress={() => actor.send({ type: 'records.activate', id: d.id, activated: !d.activated })}
            isDisabled={busy}
          >
            {t(d.activated ? 'departments.deactivate' : 'departments.activate')}
          </Button>
        </span>
      ),
    },
  ];

  const renaming = dialog?.kind === 'rename' ? dialog.record : null;
  return (
    <Stack gap="lg">
      <Inline justify="between" gap="md">
        <p className={styles.intro}>{t('departments.intro')}</p>
        <Button icon={<PlusIcon />} onPress={openCreate} isDisabled={status !== 'ready'}>
          {t('departments.create')}
        </Button>
      </Inline>
      <DataTable
        aria-label={t('departments.tableLabel')}
        columns={columns}
        rows={departments}
        status={status}
        emptyState={
          <EmptyState
            title={t('departments.empty')}
            description={t('departments.emptyHint')}
            action={
              <Button variant="secondary" icon={<PlusIcon />} onPress={openCreate}>
                {t('departments.create')}
              </Button>
            }
          />
        }
        errorState={
          <ErrorState
            title={listError ? t(listError.key) : undefined}
            description={listError ? t(listError.reason) : undefined}
            onRetry={() => actor.send({ type: 'records.reload' })}
          />
        }
      />
      <NameDialog
        key={renaming ? `rename-${renaming.id}-${formKey}` : 'create'}
        isOpen={dialog !== null}
        onClose={() => actor.send({ type: 'records.close' })}
        isPending={busy}
        feedback={feedback}
        title={t(renaming ? 'departments.form.renameTitle' : 'departments.form.createTitle')}
        label={t('departments.form.name')}
        hint={t('departments.form.nameHint')}
        requiredMessage={t('departments.errors.nameRequired')}
        submitLabel={t(renaming ? 'departments.form.renameSubmit' : 'departments.form.createSubmit')}
        onSubmit={(name) => actor.send({ type: 'records.submit', name })}
        {...conflict}
      />
    </Stack>
  );
}
