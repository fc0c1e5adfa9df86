import { useTranslation } from 'react-i18next';
import { CNPJ_LENGTH, cnpjProblem, formatCnpj, normalizeCnpj } from '../../../domain/cnpj';
import type { I18nKey } from '../../../domain/i18n-key';
import { TextField } from '../../components/text-field';

export interface TenantIdentity {
  name: string;
  cnpj: string;
  template: string;
  pool: string;
}

export interface TenantIdentityFieldsProps {
  values: TenantIdentity;
  /** A field's new value (the form marks the field touched, so its server refusal clears). */
  onChange: (field: keyof TenantIdentity, value: string) => void;
  /** The hint under the name: creating and editing say different things about the address. */
  nameHint: I18nKey;
  /** Held while a conflict notice waits for the user's choice (edit-tenant-dialog.tsx). */
  isDisabled?: boolean;
}

/**
 * A tenant's name, CNPJ, template and pool, as the creation and the edit forms ask for them
 * (create-tenant-dialog.tsx, edit-tenant-dialog.tsx): the same labels, hints, mask and the CNPJ check.
 */
export function TenantIdentityFields({ values, onChange, nameHint, isDisabled = false }: TenantIdentityFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={t('tenants.screen.form.name')}
        description={t(nameHint)}
        name="name"
        value={values.name}
        onChange={(value) => onChange('name', value)}
        isRequired
        isDisabled={isDisabled}
        autoFocus
        autoComplete="off"
      />
      <TextField
        label={t('tenants.screen.form.cnpj')}
        description={t('tenants.screen.form.cnpjHint')}
        placeholder={t('tenants.screen.form.cnpjPlaceholder')}
        name="cnpj"
        value={values.cnpj}
        // Masked and upper-cased as typed; letters only where the base may have them (src/domain/cnpj.ts).
        onChange={(value) => onChange('cnpj', formatCnpj(value))}
        // Says what is wrong as soon as the 14th character is typed, before any submit.
        validate={(value) => {
          const problem = normalizeCnpj(value).length === CNPJ_LENGTH ? cnpjProblem(value) : null;
          return problem === null ? null : t(`tenants.errors.cnpj.${problem}`);
        }}
        // Letters since July 2026: a text keyboard, no spelling help on a code.
        inputMode="text"
        autoCorrect="off"
        spellCheck="false"
        isRequired
        isDisabled={isDisabled}
        autoComplete="off"
      />
      <TextField
        label={t('tenants.screen.form.template')}
        description={t('tenants.screen.form.templateHint')}
        name="template"
        value={values.template}
        onChange={(value) => onChange('template', value)}
        isRequired
        isDisabled={isDisabled}
        autoComplete="off"
      />
      <TextField
        label={t('tenants.screen.form.pool')}
        description={t('tenants.screen.form.poolHint')}
        name="pool"
        value={values.pool}
        onChange={(value) => onChange('pool', value)}
        isRequired
        isDisabled={isDisabled}
        autoComplete="off"
      />
    </>
  );
}
