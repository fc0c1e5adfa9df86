import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { ConflictNotice } from '../../components/conflict-notice/conflict-notice';
import * as conflictStyles from '../../components/conflict-notice/conflict-notice.css';
import { Modal } from '../../components/dialog';
import { ErrorState } from '../../components/error-state';
import { Form } from '../../components/form';
import { Spinner } from '../../components/spinner';
import { useOutcomeToast } from '../../hooks/use-outcome-toast';
import type { FormView } from '../../../machines/users/users.machine';
import { unsavedFields } from '../../../machines/users/user-form.machine';
import { UserIdentityFields, type UserFormRef } from './user-form-fields';
import { UserInstancesSection } from './user-instances-section';
import * as styles from './users.css';

export interface UserFormDialogProps {
  form: UserFormRef;
  view: FormView;
  /** The edited user's name as listed (the title must not follow what is being typed). */
  userName: string | null;
  onClose: () => void;
}

/**
 * The create/edit dialog over the users machine's `userForm` child: loading and load-failure
 * states, the fields, the instances, server errors on top and by field, and a pending submit that
 * cannot be dismissed halfway. The users machine closes it when the save lands.
 */
export function UserFormDialog({ form, view, userName, onClose }: UserFormDialogProps) {
  const { t } = useTranslation();
  const formId = useId();
  const bodyRef = useRef<HTMLDivElement>(null);
  const status = useSelector(form, (s) =>
    s.matches('loading') ? 'loading' : s.matches('loadFailed') ? 'failed' : 'ready',
  );
  const saving = useSelector(form, (s) => s.matches('creating') || s.matches('updating'));
  const mode = useSelector(form, (s) => s.context.mode);
  const error = useSelector(form, (s) => s.context.error);
  const [refusals, setRefusals] = useState(0);
  // The conflict notice (src/machines/shared/conflict.ts): the other person's change beside the unsaved values.
  const conflict = useSelector(form, (s) => s.context.conflict);
  const conflictOpen = useSelector(form, (s) => s.matches('conflict') || s.hasTag('busy'));
  const resolving = useSelector(form, (s) =>
    s.matches('reapplying') ? 'reapply' : s.matches('discarding') ? 'discard' : null,
  );
  const mine = useSelector(
    form,
    (s) => unsavedFields(s.context),
    (a, b) => JSON.stringify(a) === JSON.stringify(b),
  );
  const roles = useSelector(form, (s) => s.context.roles);
  const departments = useSelector(form, (s) => s.context.departments);
  // A role or department reads by its name, not its id.
  const valueLabel = (field: string, text: string) =>
    field === 'role_id'
      ? (roles.find((r) => String(r.id) === text)?.display_name ?? text)
      : field === 'department_id'
        ? (departments.find((d) => String(d.id) === text)?.name ?? text)
        : text;

  // After a refused submit, focus the first field that says why (keyboard and screen-reader users
  // land on the problem instead of hunting for it). After the render that marks the fields.
  useEffect(() => {
    if (refusals > 0)
      bodyRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid] button')?.focus();
  }, [refusals]);

  // A link removal applies at once, outside the save: the form says so when it lands.
  useOutcomeToast(form);

  const removeLink = (linkId: number) => form.send({ type: 'users.form.removeLink', linkId });

  const title =
    mode === 'create'
      ? t('users.form.createTitle')
      : view === 'instances'
        ? t('users.form.instancesTitle', { name: userName ?? '' })
        : t('users.form.editTitle', { name: userName ?? '' });

  return (
    <Modal
      isOpen
      onClose={onClose}
      isPending={saving}
      size={view === 'full' ? 'lg' : 'md'}
      title={title}
      footer={(close) => (
        <>
          <Button variant="secondary" isDisabled={saving} onPress={close}>
            {t('common.cancel')}
          </Button>
          {status === 'ready' && !(conflict?.kept && conflictOpen) ? (
            <Button type="submit" form={formId} isPending={saving} pendingLabel={t('users.form.saving')}>
              {mode === 'create' ? t('users.form.submitCreate') : t('users.form.submitSave')}
            </Button>
          ) : null}
        </>
      )}
    >
      {status === 'loading' ? (
        <div className={styles.loading}>
          <Spinner label={t('users.form.loading')} />
          <span aria-hidden="true">{t('users.form.loading')}</span>
        </div>
      ) : status === 'failed' ? (
        <ErrorState
          title={error ? t(error.key) : undefined}
          description={error ? t(error.reason) : undefined}
          onRetry={() => form.send({ type: 'users.form.reload' })}
        />
      ) : (
        <div ref={bodyRef}>
          {conflict ? (
            <div className={conflictStyles.spaced}>
              <ConflictNotice
                conflict={conflict}
                mine={mine}
                targetType="user"
                itemLabel={valueLabel}
                resolving={resolving}
                onReapply={() => form.send({ type: 'conflict.reapply' })}
                onDiscard={() => form.send({ type: 'conflict.discard' })}
                onDismiss={() => form.send({ type: 'conflict.dismiss' })}
              />
            </div>
          ) : null}
          <Form
            id={formId}
            validationBehavior="aria"
            formError={error ? `${t(error.key)} ${t(error.reason)}` : null}
            onSubmit={(event) => {
              event.preventDefault();
              form.send({ type: 'users.form.submit' });
              // The machine checks synchronously: a refusal is already in the snapshot.
              if (Object.keys(form.getSnapshot().context.invalid).length > 0) setRefusals((n) => n + 1);
            }}
          >
            {/* While the notice waits for the choice, the fields hold the values it shows. */}
            <fieldset className={conflictStyles.heldFields} disabled={Boolean(conflict?.kept && conflictOpen)}>
              {view === 'full' ? <UserIdentityFields form={form} /> : null}
              <UserInstancesSection form={form} onRemove={removeLink} />
            </fieldset>
          </Form>
        </div>
      )}
    </Modal>
  );
}
