import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { I18nKey } from '../../../domain/i18n-key';
import type { ActionError } from '../../../machines/shared/request-error';
import type { Plan, Tenant } from '../../../machines/tenants/tenants-actors';
import { Button } from '../../components/button';
import { Modal } from '../../components/dialog';
import { Form, FormActions } from '../../components/form';
import { NumberField } from '../../components/number-field';
import { Select } from '../../components/select';
import { limitProblem, LIMITS, PLAN_DEFAULTS, PLANS, type FieldProblem } from './tenant-form-checks';
import * as styles from './tenants.css';
import { useFocusFirstInvalid, useFormErrors } from './use-field-errors';

export interface SetPlanDialogProps {
  tenant: Tenant;
  isPending: boolean;
  fieldErrors: Record<string, I18nKey>;
  formError: ActionError | null;
  onSubmit: (plan: Plan, user: number, ticket: number) => void;
  onClose: () => void;
}

/** "Alterar plano": plan, user limit and ticket limit (`POST /api/tenant/set-plan`), starting from the tenant's. */
export function SetPlanDialog(props: SetPlanDialogProps) {
  const { t } = useTranslation();
  const { tenant, isPending, onClose } = props;
  return (
    <Modal
      title={t('tenants.screen.form.planTitle', { name: tenant.name })}
      isOpen
      onClose={onClose}
      isPending={isPending}
    >
      <SetPlanForm {...props} />
    </Modal>
  );
}

function SetPlanForm({ tenant, isPending, fieldErrors, formError, onSubmit, onClose }: SetPlanDialogProps) {
  const { t } = useTranslation();
  const [plan, setPlan] = useState<Plan>(tenant.plan);
  const [user, setUser] = useState(tenant.userLimit);
  const [ticket, setTicket] = useState(tenant.ticketLimit);
  const [edited, setEdited] = useState(false);
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
          const problems: Record<string, FieldProblem> = {};
          const userProblem = limitProblem(user, LIMITS.userLimit);
          const ticketProblem = limitProblem(ticket, LIMITS.ticketLimit);
          if (userProblem) problems['user'] = userProblem;
          if (ticketProblem) problems['ticket'] = ticketProblem;
          refuse(problems);
          if (Object.keys(problems).length === 0) onSubmit(plan, user, ticket);
        }}
      >
        <div className={styles.fields}>
          <Select
            label={t('tenants.screen.form.plan')}
            description={t('tenants.screen.form.planHint')}
            name="plan"
            items={PLANS.map((id) => ({ id, label: t(`tenants.screen.plans.${id}`) }))}
            value={plan}
            onChange={(key) => {
              const next = PLANS.find((id) => id === key);
              if (!next) return;
              touch('plan');
              setPlan(next);
              // The limits follow the plan until the admin types their own.
              if (!edited) {
                setUser(PLAN_DEFAULTS[next].userLimit);
                setTicket(PLAN_DEFAULTS[next].ticketLimit);
              }
            }}
            autoFocus
          />
          <NumberField
            label={t('tenants.screen.form.userLimit')}
            name="user"
            value={user}
            onChange={(value) => {
              touch('user');
              setEdited(true);
              setUser(value);
            }}
            minValue={LIMITS.userLimit.min}
            maxValue={LIMITS.userLimit.max}
            isRequired
          />
          <NumberField
            label={t('tenants.screen.form.ticketLimit')}
            name="ticket"
            value={ticket}
            onChange={(value) => {
              touch('ticket');
              setEdited(true);
              setTicket(value);
            }}
            minValue={LIMITS.ticketLimit.min}
            maxValue={LIMITS.ticketLimit.max}
            isRequired
          />
        </div>
        <FormActions>
          <Button variant="secondary" onPress={onClose} isDisabled={isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" isPending={isPending} pendingLabel={t('tenants.screen.form.saving')}>
            {t('tenants.screen.form.submitPlan')}
          </Button>
        </FormActions>
      </Form>
    </div>
  );
}
