import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../button';
import { Checkbox } from '../checkbox';
import { Modal } from '../dialog';
import { Form, FormActions } from '../form';
import { TextField } from '../text-field';

export interface ViewFormDialogProps {
  title: string;
  isOpen: boolean;
  onClose: () => void;
  /** A new form per view renamed (and one for saving): its fields start from `initialName`. */
  formKey: string;
  initialName: string;
  /** The "open this list with this view" checkbox (saving, not renaming). */
  withDefault: boolean;
  isPending: boolean;
  nameError: string | null;
  submitLabel: string;
  onSubmit: (name: string, isDefault: boolean) => void;
}

/**
 * "Salvar visão atual" / "Renomear visão" of ./list-views.tsx, in a chunk of its own (React Aria's
 * checkbox comes with it): the list renders without it.
 */
export default function ViewFormDialog({ title, isOpen, onClose, formKey, ...form }: ViewFormDialogProps) {
  return (
    <Modal title={title} isOpen={isOpen} onClose={onClose} isPending={form.isPending} size="sm">
      <ViewForm key={formKey} {...form} onCancel={onClose} />
    </Modal>
  );
}

function ViewForm({
  initialName,
  withDefault,
  isPending,
  nameError,
  submitLabel,
  onCancel,
  onSubmit,
}: {
  initialName: string;
  withDefault: boolean;
  isPending: boolean;
  nameError: string | null;
  submitLabel: string;
  onCancel: () => void;
  onSubmit: (name: string, isDefault: boolean) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initialName);
  const [isDefault, setDefault] = useState(false);
  // The refusal shows until the name is edited; a new refusal (another text, or the same after an edit) shows again.
  const [editedSince, setEditedSince] = useState<string | null>(null);
  const shown = nameError !== null && editedSince !== nameError ? nameError : null;
  return (
    <Form
      onSubmit={(event) => {
        event.preventDefault();
        setEditedSince(null);
        onSubmit(name, isDefault);
      }}
    >
      <TextField
        label={t('views.form.name')}
        description={t('views.form.nameHint')}
        name="name"
        value={name}
        maxLength={240}
        onChange={(value) => {
          setName(value);
          setEditedSince(nameError);
        }}
        isRequired
        isInvalid={shown !== null ? true : undefined}
        errorMessage={shown ?? t('views.errors.nameRequired')}
        autoFocus
      />
      {withDefault ? (
        <Checkbox isSelected={isDefault} onChange={setDefault}>
          {t('views.form.makeDefault')}
        </Checkbox>
      ) : null}
      <FormActions>
        <Button variant="secondary" onPress={onCancel} isDisabled={isPending}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" isPending={isPending}>
          {submitLabel}
        </Button>
      </FormActions>
    </Form>
  );
}
