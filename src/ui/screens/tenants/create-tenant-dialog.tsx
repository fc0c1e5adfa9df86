import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { I18nKey } from '../../../domain/i18n-key';
import type { ActionError } from '../../../machines/shared/request-error';
import type { Plan, TenantCreate } from '../../../machines/tenants/tenants-actors';
import { Button } from '../../components/button';
import { Checkbox, CheckboxGroup } from '../../components/checkbox';
import { Modal } from '../../components/dialog';
import { Form, FormActions } from '../../components/form';
import { NumberField } from '../../components/number-field';
import { Select } from '../../components/select';
import { Spinner } from '../../components/spinner';
import { createProblems, LIMITS, PLAN_DEFAULTS, PLANS } from './tenant-form-checks';
import { TenantIdentityFields, type TenantIdentity } from './tenant-identity-fields';
import * as styles from './tenants.css';
import { useFeatureLabel } from './use-feature-label';
import { useFeatureOptions } from './use-feature-options';
import { useFocusFirstInvalid, useFormErrors } from './use-field-errors';

export interface CreateTenantDialogProps {
  isPending: boolean;
  /** The server's (or the machine's) refusals by field. */
  fieldErrors: Record<string, I18nKey>;
  formError: ActionError | null;
  onSubmit: (tenant: TenantCreate) => void;
  onClose: () => void;
}

/** "Novo tenant": every TenantCreate field, checked here first, the server's refusals on their fields. */
export function CreateTenantDialog(props: CreateTenantDialogProps) {
  const { t } = useTranslation();
  const { isPending, onClose } = props;
  return (
    <Modal title={t('tenants.screen.form.createTitle')} isOpen size="lg" onClose={onClose} isPending={isPending}>
      <CreateTenantForm {...props} />
    </Modal>
  );
}

function CreateTenantForm({ isPending, fieldErrors, formError, onSubmit, onClose }: CreateTenantDialogProps) {
  const { t } = useTranslation();
  const featureOptions = useFeatureOptions();
  const featureLabel = useFeatureLabel();
  const [identity, setIdentity] = useState<TenantIdentity>({ name: '', cnpj: '', template: '', pool: '' });
  const [features, setFeatures] = useState<string[]>([]);
  const [plan, setPlan] = useState<Plan>('starter');
  const [limits, setLimits] = useState(PLAN_DEFAULTS.starter);
  const [limitsEdited, setLimitsEdited] = useState(false);
  const { errors, refuse, touch } = useFormErrors(fieldErrors);
  const container = useRef<HTMLDivElement>(null);
  useFocusFirstInvalid(container, errors);

  const edit =
    <T,>(field: string, set: (value: T) => void) =>
    (value: T) => {
      touch(field);
      set(value);
    };
  const pickPlan = (next: Plan) => {
    touch('plan');
    setPlan(next);
    if (!limitsEdited) setLimits(PLAN_DEFAULTS[next]);
  };
  const setLimit = (field: 'userLimit' | 'ticketLimit', value: number) => {
    touch(field);
    setLimitsEdited(true);
    setLimits((current) => ({ ...current, [field]: value }));
  };

  return (
    <div ref={container}>
      <Form
        validationBehavior="aria"
        validationErrors={errors}
        formError={formError ? t('tenants.screen.failure', { what: t(formError.key), why: t(formError.reason) }) : null}
        onSubmit={(event) => {
          event.preventDefault();
          const tenant: TenantCreate = {
            name: identity.name.trim(),
            cnpj: identity.cnpj,
            features,
            template: identity.template.trim(),
            pool: identity.pool.trim(),
            plan,
            ...limits,
          };
          const problems = createProblems(tenant);
          refuse(problems);
          if (Object.keys(problems).length === 0) onSubmit(tenant);
        }}
      >
        <div className={styles.fields}>
          <TenantIdentityFields
            values={identity}
            onChange={(field, value) => {
              touch(field);
              setIdentity((current) => ({ ...current, [field]: value }));
            }}
            nameHint="tenants.screen.form.nameHint"
          />
          <Select
            label={t('tenants.screen.form.plan')}
            description={t('tenants.screen.form.planHint')}
            name="plan"
            items={PLANS.map((id) => ({ id, label: t(`tenants.screen.plans.${id}`) }))}
            value={plan}
            onChange={(key) => {
              const next = PLANS.find((id) => id === key);
              if (next) pickPlan(next);
            }}
            isRequired
          />
          <NumberField
            label={t('tenants.screen.form.userLimit')}
            name="userLimit"
            value={limits.userLimit}
            onChange={(v) => setLimit('userLimit', v)}
            minValue={LIMITS.userLimit.min}
            maxValue={LIMITS.userLimit.max}
            isRequired
          />
          <NumberField
            label={t('tenants.screen.form.ticketLimit')}
            name="ticketLimit"
            value={limits.ticketLimit}
            onChange={(v) => setLimit('ticketLimit', v)}
            minValue={LIMITS.ticketLimit.min}
            maxValue={LIMITS.ticketLimit.max}
            isRequired
          />
          <div className={styles.wide}>
            {featureOptions === null ? (
              <div className={styles.loading}>
                <Spinner label={t('tenants.screen.form.featuresLoading')} />
                <span aria-hidden="true">{t('tenants.screen.form.featuresLoading')}</span>
              </div>
            ) : featureOptions === 'failed' ? (
              <p className={styles.muted}>{t('tenants.screen.form.featuresFailed')}</p>
            ) : (
              <CheckboxGroup
                label={t('tenants.screen.form.features')}
                name="features"
                value={features}
                onChange={edit('features', setFeatures)}
                orientation="horizontal"
              >
                {featureOptions.map((option) => (
                  <Checkbox key={option} value={option}>
                    {featureLabel(option)}
                  </Checkbox>
                ))}
              </CheckboxGroup>
            )}
          </div>
        </div>
        <FormActions>
          <Button variant="secondary" onPress={onClose} isDisabled={isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" isPending={isPending} pendingLabel={t('tenants.screen.form.saving')}>
            {t('tenants.screen.form.submitCreate')}
          </Button>
        </FormActions>
      </Form>
    </div>
  );
}
