import { useTranslation } from 'react-i18next';
import type { UserRow } from '../../../machines/users/users-actors';
import type { ConfirmKind } from '../../../machines/users/users-selectors';
import { ConfirmDialog } from '../../components/confirm-dialog';

const CONFIRM_LABEL = {
  delete: 'users.actions.delete',
  block: 'users.actions.block',
  disconnect: 'users.actions.disconnect',
  twoFactorOff: 'users.actions.twoFactorOff',
} as const;

export interface UserConfirmDialogProps {
  /** What is being confirmed, or null when closed. */
  kind: ConfirmKind | null;
  user: UserRow | null;
  isPending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** "Excluir Ana? …" and friends: an alertdialog with Cancel focused first, pending while the call runs. */
export function UserConfirmDialog({ kind, user, isPending, onConfirm, onCancel }: UserConfirmDialogProps) {
  const { t } = useTranslation();
  if (!kind || !user) return null;
  return (
    <ConfirmDialog
      isOpen
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
      title={t(`users.confirm.${kind}.title`)}
      message={t(`users.confirm.${kind}.message`, { name: user.name })}
      confirmLabel={t(CONFIRM_LABEL[kind])}
      variant="danger"
      isPending={isPending}
      onConfirm={onConfirm}
    />
  );
}
