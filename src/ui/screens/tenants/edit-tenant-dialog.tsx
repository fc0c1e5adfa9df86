import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { I18nKey } from '../../../domain/i18n-key';
import type { Conflict, ConflictField } from '../../../machines/shared/conflict';
import type { ActionError } from '../../../machines/shared/request-error';
import type { Tenant, TenantEdit } from '../../../machines/tenants/tenants-actors';
import { Button } from '../../components/button';
import { ConflictNotice } from '../../components/conflict-notice/conflict-notice';
import * as conflictStyles from '../../components/conflict-notice/conflict-notice.css';
import { Modal } from '../../components/dialog';
import { Form, FormActions } from '../../components/form';
import { editProblems } from './tenant-form-checks';
import { TenantIdentityFields, type TenantIdentity } from './tenant-identity-fields';
import * as styles from './tenants.css';
import { useFocusFirstInvalid, useFormErrors } from './use-field-errors';

export interface EditTenantDialogProps {
  tenant: Tenant;
  isPending: boolean;
  /** The server's (or the machine's) refusals by field. */
  fieldErrors: Record<string, I18nKey>;
  formError: ActionError | null;
  onSubmit: (tenant: TenantEdit) => void;
  onClose: () => void;
  /** The form's values as typed, kept by the machine (src/machines/tenants/tenants-list.machine.ts `draft`). */
  draft?: TenantEdit | null;
  onDraft?: (tenant: TenantEdit) => void;
  /** Raised when the machine replaces the values (a reload after a change elsewhere): the form starts again. */
  formKey?: number;
  /** The conflict notice (src/machines/shared/conflict.ts), and the user's unsaved values beside it. */
  conflict?: Conflict | null;
  mine?: readonly ConflictField[];
  /** The notice waits for a choice: no save is offered meanwhile. */
  conflictOpen?: boolean;
  resolving?: 'reapply' | 'discard' | null;
  onReapply?: () => void;
  onDiscard?: () => void;
  onDismiss?: () => void;
}

/**
 * "Editar dados": a tenant's name, CNPJ, template and pool (`POST /api/tenant/update`), starting from
 * its current values, checked with the creation form's rules; the server's refusals on their fields.
 */
export function EditTenantDialog(props: EditTenantDialogProps) {
  const { t } = useTranslation();
  const { tenant, isPending, onClose } = props;
  return (
    <Modal
      title={t('tenants.screen.form.editTitle', { name: tenant.name })}
      isOpen
      onClose={onClose}
      isPending={isPending}
    >
      {props.conflict ? (
        <div className={conflictStyles.spaced}>
          <ConflictNotice
            conflict={props.conflict}
            mine={props.mine ?? []}
            targetType="tenant"
            resolving={props.resolving ?? null}
            onReapply={() => props.onReapply?.()}
            onDiscard={() => props.onDiscard?.()}
            onDismiss={() => props.onDismiss?.()}
          />
        </div>
      ) : null}
      <EditTenantForm key={props.formKey ?? 0} {...props} />
    </Modal>
  );
}

function EditTenantForm({
  tenant,
  isPending,
  fieldErrors,
  formError,
  onSubmit,
  onClose,
  draft,
  onDraft,
  conflictOpen,
}: EditTenantDialogProps) {
  const { t } = useTranslation();
  const [identity, setIdentity] = useState<TenantIdentity>(
    () =>
      draft ?? {
        name: tenant.name,
        cnpj: tenant.cnpj,
        template: tenant.template,
        pool: tenant.pool,
      },
  );
  const { errors, refuse, touch } = useFormErrors(fieldErrors);
  const container = useRef<HTMLDivElement>(null);
  useFocusFirstInvalid(container, errors);

  return (
    <div ref={container}>
      <Form
        validationBehavior="aria"
        validationErrors={errors}
        formError={formError ? t('tenants.screen.failure', { what: t(formError.key), why: t(formError.reason) }) : null}
        onSubmit={(event) => {
          event.preventDefault();
          const values: TenantEdit = {
            name: identity.name.trim(),
            cnpj: identity.cnpj,
            template: identity.template.trim(),
            pool: identity.pool.trim(),
          };
          const problems = editProblems(values);
          refuse(problems);
          if (Object.keys(problems).length === 0) onSubmit(values);
        }}
      >
        <div className={styles.fields}>
          <TenantIdentityFields
            values={identity}
            onChange={(field, value) => {
              touch(field);
              const next = { ...identity, [field]: value };
              setIdentity(next);
              onDraft?.(next);
            }}
            nameHint="tenants.screen.form.editNameHint"
            isDisabled={conflictOpen === true}
          />
        </div>
        <FormActions>
          <Button variant="secondary" onPress={onClose} isDisabled={isPending}>
            {t('common.cancel')}
          </Button>
          {conflictOpen ? null : (
            <Button type="submit" isPending={isPending} pendingLabel={t('tenants.screen.form.saving')}>
              {t('tenants.screen.form.submitEdit')}
            </Button>
          )}
        </FormActions>
      </Form>
    </div>
  );
}
