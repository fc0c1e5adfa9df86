import { useTranslation } from 'react-i18next';
import type { Role } from '../../../../machines/roles/roles.machine';
import type { ActionError } from '../../../../machines/shared/request-error';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import * as styles from './roles-list.css';

export interface DeleteRoleDialogProps {
  /** The role to delete, or null when closed. */
  role: Role | null;
  isPending: boolean;
  /** Why the server refused the delete (users hold the role…): shown in the dialog, which stays open. */
  error: ActionError | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** "Excluir função": an alertdialog with Cancel focused first; a refusal says why inside it. */
export function DeleteRoleDialog({ role, isPending, error, onConfirm, onCancel }: DeleteRoleDialogProps) {
  const { t } = useTranslation();
  if (!role) return null;
  return (
    <ConfirmDialog
      isOpen
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
      title={t('roles.form.deleteTitle')}
      message={
        <>
          {t('roles.form.deleteMessage', { name: role.display_name })}
          {error ? (
            <span role="alert" className={styles.deleteError}>
              {t('roles.form.failure', { what: t(error.key), why: t(error.reason) })}
            </span>
          ) : null}
        </>
      }
      confirmLabel={t('roles.list.delete')}
      variant="danger"
      isPending={isPending}
      onConfirm={onConfirm}
    />
  );
}
