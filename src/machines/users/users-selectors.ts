import type { I18nKey } from '../../domain/i18n-key';
import type { UserRow } from './users-actors';
import { USER_ACTION_ERRORS } from './users.machine';
import type { UsersSnapshot } from './users.machine';

/**
 * The list region as the table shows it: `loading` both for the first page (a spinner) and while another
 * page is asked for (the rows shown stay, dimmed, the table `aria-busy`).
 */
export const selectListStatus = (s: UsersSnapshot): 'loading' | 'error' | 'ready' =>
  s.matches({ list: 'failed' }) ? 'error' : s.hasTag('loading') ? 'loading' : 'ready';

/** A page is shown (it may be reloading): the total, the pager and "Novo usuário" are offered. */
export const selectListShown = (s: UsersSnapshot): boolean => s.matches({ list: 'shown' });

/** A call is in flight (the machine takes one at a time). */
export const selectBusy = (s: UsersSnapshot): boolean => s.hasTag('busy');

/** Actions that ask first: they end sessions or erase something the user cannot get back alone. */
export type ConfirmKind = 'delete' | 'block' | 'disconnect' | 'twoFactorOff';

export interface ConfirmView {
  kind: ConfirmKind;
  user: UserRow;
}

/** The confirmation shown, asking or (after `users.confirm`) pending while its call runs; null when none. */
export function selectConfirm(s: UsersSnapshot): ConfirmView | null {
  const user = s.context.target;
  if (!user) return null;
  const pending = s.context.pending;
  if (s.matches({ dialog: { open: 'confirmingDelete' } }) || s.matches({ dialog: 'deleting' }))
    return { kind: 'delete', user };
  if (s.matches({ dialog: { open: 'confirmingDisconnect' } }) || s.matches({ dialog: 'disconnecting' }))
    return { kind: 'disconnect', user };
  // Unblock and two-factor on run without asking: their calls show no confirmation.
  if (
    s.matches({ dialog: { open: 'confirmingBlock' } }) ||
    (s.matches({ dialog: 'blocking' }) && pending !== null && 'blocked' in pending && pending.blocked)
  )
    return { kind: 'block', user };
  if (
    s.matches({ dialog: { open: 'confirmingTwoFactorOff' } }) ||
    (s.matches({ dialog: 'settingTwoFactor' }) && pending !== null && 'twoFactor' in pending && !pending.twoFactor)
  )
    return { kind: 'twoFactorOff', user };
  return null;
}

export interface QuickEditView {
  field: 'rename' | 'changeEmail';
  user: UserRow;
  /** Why the server (or the empty-value check) refused the last submit, to show on the field. */
  error: I18nKey | null;
}

/** The name-only or email-only edit, open or saving; null when none. */
export function selectQuickEdit(s: UsersSnapshot): QuickEditView | null {
  const user = s.context.target;
  if (!user) return null;
  const field =
    s.matches({ dialog: { open: 'renameForm' } }) || s.matches({ dialog: 'renaming' })
      ? 'rename'
      : s.matches({ dialog: { open: 'emailForm' } }) || s.matches({ dialog: 'changingEmail' })
        ? 'changeEmail'
        : null;
  if (!field) return null;
  const { actionError } = s.context;
  const error =
    actionError?.key === USER_ACTION_ERRORS[field]
      ? field === 'changeEmail' && actionError.reason === 'apiErrors.conflict'
        ? 'apiErrors.fieldTaken'
        : actionError.reason
      : null;
  return { field, user, error };
}

/** Compares two quick-edit views by what they show. */
export const sameQuickEdit = (a: QuickEditView | null, b: QuickEditView | null): boolean =>
  a === b || (a !== null && b !== null && a.field === b.field && a.user === b.user && a.error === b.error);

/** Compares two confirmation views by what they show. */
export const sameConfirm = (a: ConfirmView | null, b: ConfirmView | null): boolean =>
  a === b || (a !== null && b !== null && a.kind === b.kind && a.user === b.user);

/** The running create/edit form (child `userForm`), or undefined. */
export const selectForm = (s: UsersSnapshot) => s.children.userForm;
