import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { I18nKey } from '../../../../domain/i18n-key';
import type { Instance, InstanceFields } from '../../../../machines/instances/instances.machine';
import type { ActionError } from '../../../../machines/shared/request-error';
import { Button } from '../../../components/button';
import { Checkbox } from '../../../components/checkbox';
import { Modal } from '../../../components/dialog';
import { Form, FormActions } from '../../../components/form';
import { NumberField } from '../../../components/number-field';
import { Switch } from '../../../components/switch';
import { TextField } from '../../../components/text-field';

/** What a dialog shows after a refused submit: the call's failure and the refused fields. */
export interface InstanceFeedback {
  actionError: ActionError | null;
  fieldErrors: Record<string, I18nKey>;
}

interface ShellProps {
  isOpen: boolean;
  isPending: boolean;
  feedback: InstanceFeedback;
  onClose: () => void;
}

function useFeedbackText({ actionError, fieldErrors }: InstanceFeedback) {
  const { t } = useTranslation();
  // The same object until the machine reports new refusals: React Aria shows server errors again
  // whenever this object changes, so a fresh one per render would keep them after the user edits.
  const validationErrors = useMemo(
    () => Object.fromEntries(Object.entries(fieldErrors).map(([field, key]) => [field, t(key)])),
    [fieldErrors, t],
  );
  return {
    validationErrors,
    formError: actionError
      ? t('instances.form.failure', { what: t(actionError.key), why: t(actionError.reason) })
      : null,
  };
}

/** A modal that cannot be dismissed while its call runs. */
function PanelModal({
  title,
  isOpen,
  isPending,
  onClose,
  children,
}: Omit<ShellProps, 'feedback'> & { title: string; children: ReactNode }) {
  return (
    <Modal
      title={title}
      isOpen={isOpen}
      onOpenChange={(open) => !open && !isPending && onClose()}
      isDismissable={!isPending}
      isKeyboardDismissDisabled={isPending}
      hideCloseButton={isPending}
      size="sm"
    >
      {children}
    </Modal>
  );
}

const BLANK: InstanceFields = { name: '', activated: true, isOfficial: false, isUnlimited: false };

/**
 * Create (no `instance`) or edit an instance: name, official and unlimited flags, and, when editing,
 * whether it is activated. The machine sends only what changed.
 */
export function InstanceFormDialog({
  instance,
  onSubmit,
  ...shell
}: ShellProps & { instance: Instance | null; onSubmit: (fields: InstanceFields) => void }) {
  const { t } = useTranslation();
  const title = instance ? t('instances.form.updateTitle', { name: instance.name }) : t('instances.form.createTitle');
  return (
    <PanelModal title={title} {...shell}>
      {/* Keyed by instance so reopening starts from the instance as it is now. */}
      <InstanceForm key={instance?.id ?? 'new'} instance={instance} onSubmit={onSubmit} {...shell} />
    </PanelModal>
  );
}

function InstanceForm({
  instance,
  onSubmit,
  isPending,
  feedback,
  onClose,
}: ShellProps & { instance: Instance | null; onSubmit: (fields: InstanceFields) => void }) {
  const { t } = useTranslation();
  const [fields, setFields] = useState<InstanceFields>(
    instance
      ? {
          name: instance.name,
          activated: instance.activated,
          isOfficial: instance.isOfficial,
          isUnlimited: instance.isUnlimited,
        }
      : BLANK,
  );
  const { validationErrors, formError } = useFeedbackText(feedback);
  const set = (change: Partial<InstanceFields>) => setFields((current) => ({ ...current, ...change }));
  return (
    <Form
      formError={formError}
      validationErrors={validationErrors}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(fields);
      }}
    >
      <TextField
        label={t('instances.form.name')}
        description={t('instances.form.nameHint')}
        name="name"
        value={fields.name}
        onChange={(name) => set({ name })}
        isRequired
        maxLength={80}
        errorMessage={t('instances.errors.name')}
        autoFocus
      />
      <Checkbox isSelected={fields.isOfficial} onChange={(isOfficial) => set({ isOfficial })}>
        {t('instances.form.official')}
      </Checkbox>
      <Checkbox isSelected={fields.isUnlimited} onChange={(isUnlimited) => set({ isUnlimited })}>
        {t('instances.form.unlimited')}
      </Checkbox>
      {instance ? (
        <Checkbox isSelected={fields.activated} onChange={(activated) => set({ activated })}>
          {t('instances.form.activated')}
        </Checkbox>
      ) : null}
      <FormActions>
        <Button variant="secondary" onPress={onClose} isDisabled={isPending}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" isPending={isPending}>
          {t(instance ? 'instances.form.updateSubmit' : 'instances.form.createSubmit')}
        </Button>
      </FormActions>
    </Form>
  );
}

/** Default reach of a sync: the last 30 days. */
const DEFAULT_DAYS = 30;

/** Start a message sync: how many days back, or every message. */
export function SyncDialog({
  instance,
  onSubmit,
  ...shell
}: ShellProps & { instance: Instance | null; onSubmit: (daysAgo: number | null, unlimited: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <PanelModal title={t('instances.sync.title', { name: instance?.name ?? '' })} {...shell}>
      <SyncForm key={instance?.id ?? 'none'} onSubmit={onSubmit} {...shell} />
    </PanelModal>
  );
}

function SyncForm({
  onSubmit,
  isPending,
  feedback,
  onClose,
}: ShellProps & { onSubmit: (daysAgo: number | null, unlimited: boolean) => void }) {
  const { t } = useTranslation();
  const [daysAgo, setDaysAgo] = useState<number>(DEFAULT_DAYS);
  const [unlimited, setUnlimited] = useState(false);
  const { validationErrors, formError } = useFeedbackText(feedback);
  return (
    <Form
      formError={formError}
      validationErrors={validationErrors}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(Number.isNaN(daysAgo) ? null : daysAgo, unlimited);
      }}
    >
      <p>{t('instances.sync.intro')}</p>
      <NumberField
        label={t('instances.sync.daysAgo')}
        description={t('instances.sync.daysAgoHint')}
        name="daysAgo"
        value={daysAgo}
        onChange={setDaysAgo}
        minValue={1}
        maxValue={3650}
        step={1}
        isRequired={!unlimited}
        isDisabled={unlimited}
        errorMessage={t('instances.errors.daysAgo')}
      />
      <Switch isSelected={unlimited} onChange={setUnlimited}>
        {t('instances.sync.unlimited')}
      </Switch>
      <FormActions>
        <Button variant="secondary" onPress={onClose} isDisabled={isPending}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" isPending={isPending}>
          {t('instances.sync.submit')}
        </Button>
      </FormActions>
    </Form>
  );
}
