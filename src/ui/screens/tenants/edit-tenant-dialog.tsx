import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CNPJ_LENGTH, cnpjProblem, formatCnpj, normalizeCnpj } from '../../../domain/cnpj';
import type { I18nKey } from '../../../domain/i18n-key';
import type { ActionError } from '../../../machines/shared/request-error';
import type { Tenant, TenantEdit } from '../../../machines/tenants/tenants-actors';
import { Button } from '../../components/button';
import { Modal } from '../../components/dialog';
import { Form, FormActions } from '../../components/form';
import { TextField } from '../../components/text-field';
import { editProblems } from './tenant-form-checks';
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
      onOpenChange={(open) => !open && !isPending && onClose()}
      isDismissable={!isPending}
      isKeyboardDismissDisabled={isPending}
      hideCloseButton={isPending}
    >
      <EditTenantForm {...props} />
    </Modal>
  );
}

function EditTenantForm({ tenant, isPending, fieldErrors, formError, onSubmit, onClose }: EditTenantDialogProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(tenant.name);
  const [cnpj, setCnpj] = useState(tenant.cnpj);
  const [template, setTemplate] = useState(tenant.template);
  const [pool, setPool] = useState(tenant.pool);
  const { errors, refuse, touch } = useFormErrors(fieldErrors);
  const container = useRef<HTMLDivElement>(null);
  useFocusFirstInvalid(container, errors);

  const edit =
    <T,>(field: string, set: (value: T) => void) =>
    (value: T) => {
      touch(field);
      set(value);
    };

  return (
    <div ref={container}>
      <Form
        validationBehavior="aria"
        validationErrors={errors}
        formError={formError ? t('tenants.screen.failure', { what: t(formError.key), why: t(formError.reason) }) : null}
        onSubmit={(event) => {
          event.preventDefault();
          const values: TenantEdit = { name: name.trim(), cnpj, template: template.trim(), pool: pool.trim() };
          const problems = editProblems(values);
          refuse(problems);
          if (Object.keys(problems).length === 0) onSubmit(values);
        }}
      >
        <div className={styles.fields}>
          <TextField
            label={t('tenants.screen.form.name')}
            description={t('tenants.screen.form.editNameHint')}
            name="name"
            value={name}
            onChange={edit('name', setName)}
            isRequired
            autoFocus
            autoComplete="off"
          />
          <TextField
            label={t('tenants.screen.form.cnpj')}
            description={t('tenants.screen.form.cnpjHint')}
            placeholder={t('tenants.screen.form.cnpjPlaceholder')}
            name="cnpj"
            value={cnpj}
            // Masked and upper-cased as typed, as in the creation form (src/domain/cnpj.ts).
            onChange={edit('cnpj', (value: string) => setCnpj(formatCnpj(value)))}
            validate={(value) => {
              const problem = normalizeCnpj(value).length === CNPJ_LENGTH ? cnpjProblem(value) : null;
              return problem === null ? null : t(`tenants.errors.cnpj.${problem}`);
            }}
            inputMode="text"
            autoCorrect="off"
            spellCheck="false"
            isRequired
            autoComplete="off"
          />
          <TextField
            label={t('tenants.screen.form.template')}
            description={t('tenants.screen.form.templateHint')}
            name="template"
            value={template}
            onChange={edit('template', setTemplate)}
            isRequired
            autoComplete="off"
          />
          <TextField
            label={t('tenants.screen.form.pool')}
            description={t('tenants.screen.form.poolHint')}
            name="pool"
            value={pool}
            onChange={edit('pool', setPool)}
            isRequired
            autoComplete="off"
          />
        </div>
        <FormActions>
          <Button variant="secondary" onPress={onClose} isDisabled={isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" isPending={isPending} pendingLabel={t('tenants.screen.form.saving')}>
            {t('tenants.screen.form.submitEdit')}
          </Button>
        </FormActions>
      </Form>
    </div>
  );
}
