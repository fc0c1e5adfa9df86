import { createContext, useContext } from 'react';
import type { I18nKey } from '../../../domain/i18n-key';
import type { UserRow } from '../../../machines/users/users-actors';
import type { RowAction } from './user-row-actions';

/** What every row's action cell needs besides its user. */
export interface RowActionsState {
  narrow: boolean;
  /** An action is running (the machine takes one at a time). */
  busy: boolean;
  /** The user that action is for: its menu button spins. */
  pendingUserId: number | null;
  /** The signed-in admin: their row offers nothing that would lock them out. */
  selfId: number | null;
  onAction: (action: RowAction, user: UserRow) => void;
  /** Why the signed-in user may not act on `user` (users-access.ts), or null: its actions are disabled with it. */
  refusalOf: (user: UserRow) => I18nKey | null;
}

/*
 * Row cells read this from context instead of from the column definitions: new columns re-render
 * every row of the table (and make React Aria's table, for short lists, rebuild its collection),
 * and a busy flag in the columns would do that at the start and end of every action.
 */
export const RowActionsContext = createContext<RowActionsState | null>(null);

export function useRowActions(): RowActionsState {
  const state = useContext(RowActionsContext);
  if (!state) throw new Error('useRowActions() outside <RowActionsContext>');
  return state;
}
