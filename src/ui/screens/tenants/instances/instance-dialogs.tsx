import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { I18nKey } from '../../../../domain/i18n-key';
import type { Instance, InstanceFields } from '../../../../machines/instances/instances.machine';
import type { ActionError } from '../../../../machines/shared/request-error';
import { Button } from '../../../components/button';
import { Checkbox } from '../../../components/checkbox';
import { Modal } from '../../../components/dialog';
import { Form, FormActions } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useFeedbackText } from '../../../hooks/use-feedback-text';
import * as styles from './instances-panel.css';

/** What a dialog shows after a refused submit: the call's failure and the refused fields. */
export interface InstanceFeedback {
  actionError: ActionError | null;
  fieldErrors: Record<string, I18nKey>;
}

export interface ShellProps {
  isOpen: boolean;
  isPending: boolean;
  feedback: InstanceFeedback;
  onClose: () => void;
}

/** A dialog's feedback as the Form primitive takes it. */
export function useInstanceFeedback({ actionError, fieldErrors }: InstanceFeedback) {
  return useFeedbackText({ fieldErrors, error: actionError }, 'instances.form.failure');
}

/** A modal that cannot be dismissed while its call runs. */
export function PanelModal({
  title,
  isOpen,
  isPending,
  onClose,
  children,
  size = 'sm',
}: Omit<ShellProps, 'feedback'> & { title: string; children: ReactNode; size?: 'sm' | 'md' }) {
  return (
    <Modal title={title} isOpen={isOpen} onClose={onClose} isPending={isPending} size={size}>
      {children}
    </Modal>
  );
}

const BLANK: InstanceFields = { name: '', activated: true, isOfficial: false, isUnlimited: false };

type InstanceFormProps = ShellProps & {
  instance: Instance | null;
  /** Back-office staff: only they change the official and unlimited flags (shown disabled to others, with why). */
  staff: boolean;
  onSubmit: (fields: InstanceFields) => void;
  /** The edit form's values as typed, kept by the machine (instances.machine.ts `draft`). */
  draft?: InstanceFields | null;
  onDraft?: (fields: InstanceFields) => void;
  /** Raised when the machine replaces the values (a reload after a change elsewhere): the form starts again. */
  formKey?: number;
  /** The conflict notice (src/ui/components/conflict-notice/), shown above the fields. */
  notice?: ReactNode;
  /** The notice waits for a choice: the fields are held and no save is offered. */
  locked?: boolean;
};

/**
 * Create (no `instance`) or edit an instance: name, official and unlimited flags, and, when editing,
 * whether it is activated. The machine sends only what changed.
 */
export function InstanceFormDialog({ instance, notice, formKey = 0, ...props }: InstanceFormProps) {
  const { t } = useTranslation();
  const title = instance ? t('instances.form.updateTitle', { name: instance.name }) : t('instances.form.createTitle');
  return (
    <PanelModal
      title={title}
      isOpen={props.isOpen}
      isPending={props.isPending}
      onClose={props.onClose}
      size={notice ? 'md' : 'sm'}
    >
      {notice}
      {/* Keyed by instance so reopening starts from the instance as it is now (and again after a reload). */}
      <InstanceForm key={`${instance?.id ?? 'new'}-${formKey}`} instance={instance} {...props} />
    </PanelModal>
  );
}

function InstanceForm({
  instance,
  staff,
  onSubmit,
  isPending,
  feedback,
  onClose,
  draft,
  onDraft,
  locked = false,
}: InstanceFormProps) {
  const { t } = useTranslation();
  const billingNoteId = useId();
  // For anyone but staff the flags show what they are and cannot change (the server refuses it).
  const billing = staff && !locked ? {} : { isDisabled: true, ...(staff ? {} : { 'aria-describedby': billingNoteId }) };
  const [fields, setFields] = useState<InstanceFields>(
    draft ??
      (instance
        ? {
            name: instance.name,
            activated: instance.activated,
            isOfficial: instance.isOfficial,
            isUnlimited: instance.isUnlimited,
          }
        : BLANK),
  );
  const { validationErrors, formError } = useInstanceFeedback(feedback);
  const set = (change: Partial<InstanceFields>) => {
    const next = { ...fields, ...change };
    setFields(next);
    if (instance) onDraft?.(next);
  };
  return (
    <Form
      formError={formError}
      validationErrors={validationErrors}
      onSubmit={(event) => {
        event.preventDefault();
        if (!locked) onSubmit(fields);
      }}
    >
      <TextField
        label={t('instances.form.name')}
        description={t('instances.form.nameHint')}
        name="name"
        value={fields.name}
        onChange={(name) => set({ name })}
        isReadOnly={locked}
        isRequired
        maxLength={80}
        errorMessage={t('instances.errors.name')}
        autoFocus
      />
      <Checkbox isSelected={fields.isOfficial} onChange={(isOfficial) => set({ isOfficial })} {...billing}>
        {t('instances.form.official')}
      </Checkbox>
      <Checkbox isSelected={fields.isUnlimited} onChange={(isUnlimited) => set({ isUnlimited })} {...billing}>
        {t('instances.form.unlimited')}
      </Checkbox>
      {staff ? null : (
        <p id={billingNoteId} className={styles.note}>
          {t('access.staffBillingFlags')}
        </p>
      )}
      {instance ? (
        <Checkbox isSelected={fields.activated} onChange={(activated) => set({ activated })} isDisabled={locked}>
          {t('instances.form.activated')}
        </Checkbox>
      ) : null}
      <FormActions>
        <Button variant="secondary" onPress={onClose} isDisabled={isPending}>
          {t('common.cancel')}
        </Button>
        {locked ? null : (
          <Button type="submit" isPending={isPending}>
            {t(instance ? 'instances.form.updateSubmit' : 'instances.form.createSubmit')}
          </Button>
        )}
      </FormActions>
    </Form>
  );
}
