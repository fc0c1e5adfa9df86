import { useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { tenantsListMachine } from '../../../machines/tenants/tenants-list.machine';
import { unsavedTenantFields } from '../../../machines/tenants/tenants-list.machine';
import { selectBusy, selectDialog } from '../../../machines/tenants/tenants-list-selectors';
import { lazyPart } from '../../components/lazy-with-timeout';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Spinner } from '../../components/spinner';

// Each dialog (number fields, selects) is its own chunk: the list shows without them, and each
// arrives when first opened.
const CreateTenantDialog = lazyPart(() =>
  import('./create-tenant-dialog').then((m) => ({ default: m.CreateTenantDialog })),
);
const EditTenantDialog = lazyPart(() => import('./edit-tenant-dialog').then((m) => ({ default: m.EditTenantDialog })));
const SetPlanDialog = lazyPart(() => import('./set-plan-dialog').then((m) => ({ default: m.SetPlanDialog })));

/**
 * The tenants list's dialogs (create, edit, set plan, the delete confirmation) as its machine opens
 * them: back-office staff's only (the machine opens none for anyone else).
 */
export function TenantDialogs({ actor }: { actor: ActorRefFrom<typeof tenantsListMachine> }) {
  const { t } = useTranslation();
  const dialog = useSelector(actor, selectDialog);
  const busy = useSelector(actor, selectBusy);
  const target = useSelector(actor, (s) => s.context.target);
  const actionError = useSelector(actor, (s) => s.context.actionError);
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const close = () => actor.send({ type: 'tenants.close' });
  // The edit form's conflict notice (src/machines/shared/conflict.ts).
  const draft = useSelector(actor, (s) => s.context.draft);
  const formKey = useSelector(actor, (s) => s.context.formKey);
  const conflict = useSelector(actor, (s) => s.context.conflict);
  const conflictOpen = useSelector(
    actor,
    (s) =>
      s.matches({ dialog: 'editConflict' }) ||
      s.matches({ dialog: 'editReapplying' }) ||
      s.matches({ dialog: 'editDiscarding' }),
  );
  const resolving = useSelector(actor, (s) =>
    s.matches({ dialog: 'editReapplying' }) ? 'reapply' : s.matches({ dialog: 'editDiscarding' }) ? 'discard' : null,
  );
  const mine = useSelector(
    actor,
    (s) => unsavedTenantFields(s.context),
    (a, b) => JSON.stringify(a) === JSON.stringify(b),
  );
  return (
    <>
      <Suspense fallback={<Spinner label={t('common.loading')} />}>
        {dialog === 'create' ? (
          <CreateTenantDialog
            isPending={busy}
            fieldErrors={fieldErrors}
            formError={actionError}
            onSubmit={(tenant) => actor.send({ type: 'tenants.create', tenant })}
            onClose={close}
          />
        ) : null}
        {dialog === 'edit' && target ? (
          <EditTenantDialog
            tenant={target}
            isPending={busy}
            fieldErrors={fieldErrors}
            formError={actionError}
            onSubmit={(tenant) => actor.send({ type: 'tenants.edit', tenant })}
            onClose={close}
            draft={draft}
            onDraft={(tenant) => actor.send({ type: 'tenants.editDraft', tenant })}
            formKey={formKey}
            conflict={conflict}
            mine={mine}
            conflictOpen={conflictOpen}
            resolving={resolving}
            onReapply={() => actor.send({ type: 'conflict.reapply' })}
            onDiscard={() => actor.send({ type: 'conflict.discard' })}
            onDismiss={() => actor.send({ type: 'conflict.dismiss' })}
          />
        ) : null}
        {dialog === 'plan' && target ? (
          <SetPlanDialog
            tenant={target}
            isPending={busy}
            fieldErrors={fieldErrors}
            formError={actionError}
            onSubmit={(plan, user, ticket) => actor.send({ type: 'tenants.setPlan', plan, user, ticket })}
            onClose={close}
          />
        ) : null}
      </Suspense>
      <ConfirmDialog
        isOpen={dialog === 'delete'}
        onOpenChange={(open) => !open && close()}
        title={t('tenants.screen.deleteTitle')}
        message={t('tenants.confirmDelete', { name: target?.name ?? '' })}
        confirmLabel={t('tenants.screen.actions.delete')}
        variant="danger"
        isPending={busy}
        onConfirm={() => actor.send({ type: 'tenants.confirm' })}
      />
    </>
  );
}
