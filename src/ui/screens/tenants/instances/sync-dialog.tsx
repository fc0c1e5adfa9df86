import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Instance } from '../../../../machines/instances/instances.machine';
import { Button } from '../../../components/button';
import { Form, FormActions } from '../../../components/form';
import { NumberField } from '../../../components/number-field';
import { Switch } from '../../../components/switch';
import { PanelModal, useInstanceFeedback, type ShellProps } from './instance-dialogs';

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
  const { validationErrors, formError } = useInstanceFeedback(feedback);
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
