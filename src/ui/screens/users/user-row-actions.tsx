import type { TFunction } from 'i18next';
import { useId } from 'react';
import type { UserRow } from '../../../machines/users/users-actors';
import { LockIcon } from '../../components/icons';
import type { MenuOption } from '../../components/menu';
import { MenuButton } from '../../components/menu-button';
import { Button, IconButton } from '../../components/button';
import { appToasts, showToast } from '../../components/toast-queue';
import { VisuallyHidden } from '../../components/visually-hidden';
import { MoreIcon } from './more-icon';
import { useRowActions } from './row-actions-context';
import * as styles from './users.css';

/** Everything an admin can do to one user from the list. */
export const ROW_ACTIONS = [
  'edit',
  'rename',
  'changeEmail',
  'instances',
  'block',
  'unblock',
  'twoFactorOff',
  'twoFactorRequire',
  'twoFactorWaive',
  'disconnect',
  'delete',
] as const;
export type RowAction = (typeof ROW_ACTIONS)[number];

/** On one's own row, the link to the account screen where one's e-mail and password change. */
export const OWN_ACCOUNT = 'ownAccount';

interface RowMenuOption extends MenuOption {
  id: RowAction | typeof OWN_ACCOUNT;
}

/**
 * The menu entries for a user, in the order an admin scans them: edits, access, destructive last.
 * Only what applies is offered (unblock for a blocked user, disconnect for a connected one); on the
 * signed-in admin's own row, nothing that would lock them out (the server refuses those with 409), nor
 * its two-factor (its own screen's, with a code), and its e-mail as a link to the account screen, where
 * it changes with the current password (server/src/users/service.ts), as its password does.
 * Two-factor: a user who has it is reset; one who has not is required to enrol at the next sign-in,
 * or no longer (only the user can turn it on, by enrolling: contracts/openapi.yaml `userSettingsUpdate`).
 */
export function rowActionOptions(
  user: UserRow,
  t: TFunction,
  options: { withEdit: boolean; isSelf: boolean },
): RowMenuOption[] {
  const { withEdit, isSelf } = options;
  const items: RowMenuOption[] = [];
  if (withEdit) items.push({ id: 'edit', label: t('users.actions.edit') });
  items.push(
    { id: 'rename', label: t('users.actions.rename') },
    isSelf
      ? { id: OWN_ACCOUNT, label: t('users.actions.ownAccount'), href: '/user-settings' }
      : { id: 'changeEmail', label: t('users.actions.changeEmail') },
    { id: 'instances', label: t('users.actions.instances') },
  );
  if (user.blocked) items.push({ id: 'unblock', label: t('users.actions.unblock') });
  else if (!isSelf) items.push({ id: 'block', label: t('users.actions.block') });
  // One's own two-factor is the two-factor screen's, with a code (server/src/access/self-service.ts).
  if (!isSelf) items.push(twoFactorOption(user, t));
  if (user.isConnected && !isSelf) items.push({ id: 'disconnect', label: t('users.actions.disconnect') });
  if (!isSelf) items.push({ id: 'delete', label: t('users.actions.delete'), isDanger: true });
  return items;
}

/** Another user's two-factor: a reset when it has it, else requiring enrolment or lifting the requirement. */
function twoFactorOption(user: UserRow, t: TFunction): RowMenuOption {
  if (user.twoFactorEnabled) return { id: 'twoFactorOff', label: t('users.actions.twoFactorOff') };
  if (user.twoFactorEnrolmentRequired) return { id: 'twoFactorWaive', label: t('users.actions.twoFactorWaive') };
  return { id: 'twoFactorRequire', label: t('users.actions.twoFactorRequire') };
}

/**
 * "Editar" plus a "more" menu on wide screens; one menu with every action on narrow ones (where
 * "Editar" joins the menu so the column stays one button wide). While an action runs, its row's
 * menu button spins and the others are disabled: the machine takes one action at a time.
 *
 * A user the signed-in admin may not act on (it holds permissions the admin lacks, or is an
 * administrador: src/domain/escalation.ts) keeps its buttons, disabled and described by why, and a
 * lock button before them that says why on hover, on focus (its name) and on a tap (a toast).
 *
 * Mounted on every row a virtualized list scrolls into view, so it stays light: `t` comes from the
 * columns (no useTranslation per row), "Editar" is a {@link Button} (a plain button with the
 * ghost Button's look) and the menu is a {@link MenuButton} (its menu mounts only while it is open).
 */
export function UserRowActions({ user, t }: { user: UserRow; t: TFunction }) {
  const { narrow, busy, pendingUserId, selfId, onAction, refusalOf } = useRowActions();
  const refusal = refusalOf(user);
  const whyId = useId();
  const isPending = busy && pendingUserId === user.id;
  const isSelf = user.id === selfId;
  const why = refusal ? t(refusal) : null;
  return (
    <span className={styles.rowActions}>
      {why ? (
        <>
          <VisuallyHidden id={whyId}>{why}</VisuallyHidden>
          <IconButton
            variant="ghost"
            size="sm"
            icon={<LockIcon />}
            label={t('users.access.why', { name: user.name })}
            title={why}
            aria-describedby={whyId}
            className={styles.lock}
            onPress={() =>
              showToast(appToasts, {
                variant: 'info',
                title: t('users.access.lockedTitle', { name: user.name }),
                description: why,
              })
            }
          />
        </>
      ) : null}
      {narrow ? null : (
        <Button
          variant="ghost"
          size="sm"
          aria-label={t('users.actions.editNamed', { name: user.name })}
          aria-describedby={why ? whyId : undefined}
          isDisabled={busy || why !== null}
          onPress={() => onAction('edit', user)}
        >
          {t('users.actions.edit')}
        </Button>
      )}
      <MenuButton
        label={t('users.actions.more', { name: user.name })}
        icon={<MoreIcon />}
        size="sm"
        isPending={isPending}
        pendingLabel={isPending ? t('common.loading') : undefined}
        isDisabled={(busy && !isPending) || why !== null}
        describedBy={why ? whyId : undefined}
        items={() => rowActionOptions(user, t, { withEdit: narrow, isSelf })}
        onAction={(key) => {
          const action = ROW_ACTIONS.find((id) => id === key);
          if (action) onAction(action, user);
        }}
      />
    </span>
  );
}
