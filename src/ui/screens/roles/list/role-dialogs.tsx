import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActionError } from '../../../../machines/shared/request-error';
import type { I18nKey } from '../../../../domain/i18n-key';
import { Button } from '../../../components/button';
import { Modal } from '../../../components/dialog';
import { Form, FormActions } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useFeedbackText } from '../../../hooks/use-feedback-text';

/** What a role dialog shows after a refused submit: per-field keys and the whole-form failure. */
export interface DialogFeedback {
  fieldErrors: Record<string, I18nKey>;
  formError: ActionError | null;
}

interface DialogShellProps {
  isOpen: boolean;
  onClose: () => void;
  isPending: boolean;
  feedback: DialogFeedback | null;
}

/** A role's machine name suggested from its display name: `Gerente de Loja` → `gerente-de-loja`. */
export function suggestRoleName(displayName: string): string {
  return displayName
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
}

function useRoleFeedback(feedback: DialogFeedback | null) {
  return useFeedbackText(
    { fieldErrors: feedback?.fieldErrors, error: feedback?.formError ?? null },
    'roles.form.failure',
  );
}

/** The "Nova função" dialog: display name, and the identifier suggested from it until edited. */
export function CreateRoleDialog({
  isOpen,
  onClose,
  isPending,
  feedback,
  onSubmit,
}: DialogShellProps & { onSubmit: (name: string, displayName: string) => void }) {
  const { t } = useTranslation();
  return (
    <Modal title={t('roles.form.createTitle')} isOpen={isOpen} onClose={onClose} isPending={isPending}>
      <CreateRoleForm isPending={isPending} feedback={feedback} onSubmit={onSubmit} onCancel={onClose} />
    </Modal>
  );
}

function CreateRoleForm({
  isPending,
  feedback,
  onSubmit,
  onCancel,
}: Pick<DialogShellProps, 'isPending' | 'feedback'> & {
  onSubmit: (name: string, displayName: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [displayName, setDisplayName] = useState('');
  const [name, setName] = useState<string | null>(null);
  const { validationErrors, formError } = useRoleFeedback(feedback);
  const shownName = name ?? suggestRoleName(displayName);
  return (
    <Form
      formError={formError}
      validationErrors={validationErrors}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(shownName, displayName);
      }}
    >
      <TextField
        label={t('roles.form.displayName')}
        description={t('roles.form.displayNameHint')}
        name="display_name"
        value={displayName}
        onChange={setDisplayName}
        isRequired
        errorMessage={t('roles.errors.displayName')}
        autoFocus
      />
      <TextField
        label={t('roles.form.name')}
        description={t('roles.form.nameHint')}
        name="name"
        value={shownName}
        onChange={setName}
        isRequired
        errorMessage={t('roles.errors.name')}
      />
      <FormActions>
        <Button variant="secondary" onPress={onCancel} isDisabled={isPending}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" isPending={isPending}>
          {t('roles.form.createSubmit')}
        </Button>
      </FormActions>
    </Form>
  );
}

/** The "Renomear função" dialog: the display name only (the identifier never changes). */
export function RenameRoleDialog({
  isOpen,
  onClose,
  isPending,
  feedback,
  currentName,
  onSubmit,
}: DialogShellProps & { currentName: string; onSubmit: (displayName: string) => void }) {
  const { t } = useTranslation();
  return (
    <Modal title={t('roles.form.renameTitle')} isOpen={isOpen} onClose={onClose} isPending={isPending} size="sm">
      <RenameRoleForm
        isPending={isPending}
        feedback={feedback}
        currentName={currentName}
        onSubmit={onSubmit}
        onCancel={onClose}
      />
    </Modal>
  );
}

function RenameRoleForm({
  isPending,
  feedback,
  currentName,
  onSubmit,
  onCancel,
}: Pick<DialogShellProps, 'isPending' | 'feedback'> & {
  currentName: string;
  onSubmit: (displayName: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [displayName, setDisplayName] = useState(currentName);
  const { validationErrors, formError } = useRoleFeedback(feedback);
  return (
    <Form
      formError={formError}
      validationErrors={validationErrors}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(displayName);
      }}
    >
      <TextField
        label={t('roles.form.displayName')}
        description={t('roles.form.displayNameHint')}
        name="display_name"
        value={displayName}
        onChange={setDisplayName}
        isRequired
        errorMessage={t('roles.errors.displayName')}
        autoFocus
      />
      <FormActions>
        <Button variant="secondary" onPress={onCancel} isDisabled={isPending}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" isPending={isPending}>
          {t('roles.form.renameSubmit')}
        </Button>
      </FormActions>
    </Form>
  );
}
