import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { I18nKey } from '../../domain/i18n-key';
import type { ActionError } from '../../machines/shared/request-error';
import { Button } from './button';
import { Modal } from './dialog';
import { Form, FormActions } from './form';
import { TextField } from './text-field';

/** What a name dialog shows after a refused submit: per-field keys (`name`) and the whole-form failure. */
export interface NameDialogFeedback {
  fieldErrors: Record<string, I18nKey>;
  formError: ActionError | null;
}

export interface NameDialogProps {
  isOpen: boolean;
  onClose: () => void;
  isPending: boolean;
  feedback: NameDialogFeedback | null;
  title: string;
  label: string;
  hint: string;
  submitLabel: string;
  /** What an empty field says (the browser's own text is untranslated). */
  requiredMessage: string;
  /** The name the field starts with (a rename's current name). */
  initialName?: string;
  onSubmit: (name: string) => void;
  /** Each change of the name as typed (the machine keeps it, to know whether anything is unsaved). */
  onNameChange?: (name: string) => void;
  /** Shown above the field: the conflict notice (src/ui/components/conflict-notice/). */
  notice?: ReactNode;
  /** The notice waits for a choice: the field is read-only and no save is offered. */
  locked?: boolean;
}

/**
 * A dialog with one name field, for creating or renaming a record that is only a name (a department, a
 * connection). The field's error is the machine's (a local check or the server's refusal); the dialog
 * stays open on a refusal, and the form's failure says what failed and why.
 */
export function NameDialog({ isOpen, onClose, isPending, title, notice, ...form }: NameDialogProps) {
  return (
    <Modal title={title} isOpen={isOpen} onClose={onClose} isPending={isPending} size={notice ? 'md' : 'sm'}>
      {notice}
      <NameForm isPending={isPending} onCancel={onClose} {...form} />
    </Modal>
  );
}

function NameForm({
  isPending,
  feedback,
  label,
  hint,
  submitLabel,
  requiredMessage,
  initialName = '',
  onSubmit,
  onNameChange,
  locked = false,
  onCancel,
}: Omit<NameDialogProps, 'isOpen' | 'onClose' | 'title' | 'notice'> & { onCancel: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(initialName);
  const nameError = feedback?.fieldErrors['name'];
  // The refusal shows on the field until the user edits it: the feedback it was edited after is
  // remembered, and a newer refusal (a new feedback object) shows again. Managed here rather than as
  // the Form's server `validationErrors`, which a blur right after a new refusal could clear at once.
  const [editedAfter, setEditedAfter] = useState<NameDialogFeedback | null>(null);
  const shownError = nameError && editedAfter !== feedback ? t(nameError) : null;
  const formError = feedback?.formError
    ? t('departments.form.failure', { what: t(feedback.formError.key), why: t(feedback.formError.reason) })
    : null;
  return (
    <Form
      formError={formError}
      onSubmit={(event) => {
        event.preventDefault();
        if (!locked) onSubmit(name);
      }}
    >
      <TextField
        label={label}
        description={hint}
        name="name"
        value={name}
        onChange={(value) => {
          setName(value);
          setEditedAfter(feedback);
          onNameChange?.(value);
        }}
        isReadOnly={locked}
        isRequired
        isInvalid={shownError !== null ? true : undefined}
        errorMessage={shownError ?? requiredMessage}
        autoFocus
      />
      <FormActions>
        <Button variant="secondary" onPress={onCancel} isDisabled={isPending}>
          {t('common.cancel')}
        </Button>
        {locked ? null : (
          <Button type="submit" isPending={isPending}>
            {submitLabel}
          </Button>
        )}
      </FormActions>
    </Form>
  );
}
