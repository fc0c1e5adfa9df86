import { useCallback } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { UserRow } from '../../../machines/users/users-actors';
import type { usersMachine } from '../../../machines/users/users.machine';
import type { RowAction } from './user-row-actions';

/**
 * What a row's action sends the users machine. Stable per machine, so the row cells (10,000 of them)
 * are not re-rendered by a new handler.
 */
export function useRowAction(actor: ActorRefFrom<typeof usersMachine>): (action: RowAction, user: UserRow) => void {
  return useCallback(
    (action: RowAction, user: UserRow) => {
      switch (action) {
        case 'edit':
        case 'instances':
          return actor.send({ type: 'users.edit', user, view: action === 'edit' ? 'full' : 'instances' });
        case 'rename':
          return actor.send({ type: 'users.renameOpen', user });
        case 'changeEmail':
          return actor.send({ type: 'users.emailOpen', user });
        case 'block':
        case 'unblock':
          return actor.send({ type: 'users.block', user, blocked: action === 'block' });
        case 'twoFactorOff':
          return actor.send({ type: 'users.twoFactor', user, enabled: false });
        case 'twoFactorRequire':
        case 'twoFactorWaive':
          return actor.send({ type: 'users.requireTwoFactor', user, required: action === 'twoFactorRequire' });
        case 'disconnect':
          return actor.send({ type: 'users.disconnect', user });
        case 'delete':
          return actor.send({ type: 'users.delete', user });
      }
    },
    [actor],
  );
}
