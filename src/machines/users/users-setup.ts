import { assertEvent, assign, emit, setup, stateIn } from 'xstate';
import { actionError, type ActionError } from '../shared/request-error';
import { userFormMachine } from './user-form.machine';
import { usersActors, type UserRow, type UsersList } from './users-actors';
import { actOnRefusalOf, isSelf } from './users-access';
import {
  USER_ACTION_ERRORS,
  failureOf,
  intentOf,
  successOf,
  type UserAction,
  type UsersContext,
  type UsersEmitted,
  type UsersEvent,
  type UsersInput,
} from './users-context';

const replaceRow = (users: UserRow[], row: UserRow): UserRow[] => {
  const at = users.findIndex((u) => u.id === row.id);
  return at === -1 ? [...users, row] : users.map((u, i) => (i === at ? row : u));
};

/** The failure of `action` (an unblock fails as `users.errors.unblock`). */
function errorOf(context: UsersContext, action: UserAction, error: unknown): ActionError {
  return actionError(USER_ACTION_ERRORS[intentOf(context, action) === 'unblock' ? 'unblock' : action], error);
}

/** The users machine's types, actors, guards and actions; its chart is in users.machine.ts. */
export const usersSetup = setup({
  types: {
    input: {} as UsersInput,
    context: {} as UsersContext,
    events: {} as UsersEvent,
    emitted: {} as UsersEmitted,
    children: {} as { userForm: 'userForm' },
  },
  actors: { ...usersActors, userForm: userFormMachine },
  guards: {
    listShown: stateIn({ list: 'ready' }),
    // The view offers no action on a user the signed-in user may not act on; an event for one anyway changes nothing.
    mayActOn: ({ context, event }) => {
      assertEvent(event, [
        'users.delete',
        'users.block',
        'users.twoFactor',
        'users.requireTwoFactor',
        'users.disconnect',
        'users.renameOpen',
        'users.emailOpen',
        'users.edit',
      ]);
      return actOnRefusalOf(context, event.user) === null;
    },
    // One's own e-mail and two-factor are the account screens' (server/src/users/service.ts asks the current
    // password for a new e-mail, server/src/access/self-service.ts a code to turn two-factor off): the row
    // offers neither, and an event for them anyway changes nothing.
    notSelf: ({ context, event }) => {
      assertEvent(event, ['users.emailOpen', 'users.twoFactor', 'users.requireTwoFactor']);
      return !isSelf(context, event.user.id);
    },
    blocks: ({ event }) => {
      assertEvent(event, 'users.block');
      return event.blocked;
    },
    enables: ({ event }) => {
      assertEvent(event, 'users.twoFactor');
      return event.enabled;
    },
    hasName: ({ event }) => {
      assertEvent(event, 'users.rename');
      return event.name.trim().length > 0;
    },
    hasEmail: ({ event }) => {
      assertEvent(event, 'users.changeEmail');
      return event.email.trim().length > 0;
    },
  },
  actions: {
    storeUsers: assign((_, list: UsersList) => ({ users: list.users, roles: list.roles, listError: null })),
    setSubject: assign(({ event }) => {
      assertEvent(event, 'users.subject');
      return { subject: event.subject };
    }),
    // A failed user list is an empty list; the error key makes the failure visible.
    listFailed: assign((_, params: { error: unknown }) => ({
      users: [],
      roles: [],
      listError: actionError('users.errors.load', params.error),
    })),
    presence: assign(({ context, event }) => {
      assertEvent(event, 'users.presence');
      return {
        users: context.users.map((u) =>
          u.id === event.userId && u.isConnected !== event.isConnected ? { ...u, isConnected: event.isConnected } : u,
        ),
      };
    }),
    // Only rows whose presence changed are replaced (and the list only when one did), so a poll
    // that finds nothing new does not re-render 10,000 rows.
    online: assign(({ context, event }) => {
      assertEvent(event, 'users.online');
      const ids = new Set(event.ids);
      let changed = false;
      const users = context.users.map((u) => {
        if (ids.has(u.id) === u.isConnected) return u;
        changed = true;
        return { ...u, isConnected: !u.isConnected };
      });
      return changed ? { users } : {};
    }),
    aim: assign(({ event }) => {
      assertEvent(event, [
        'users.delete',
        'users.block',
        'users.twoFactor',
        'users.requireTwoFactor',
        'users.disconnect',
        'users.renameOpen',
        'users.emailOpen',
        'users.edit',
      ]);
      return { target: event.user, pending: null, actionError: null };
    }),
    pendBlocked: assign(({ event }) => {
      assertEvent(event, 'users.block');
      return { pending: { blocked: event.blocked } };
    }),
    pendTwoFactor: assign(({ event }) => {
      assertEvent(event, 'users.twoFactor');
      return { pending: { twoFactor: event.enabled } };
    }),
    pendRequired: assign(({ event }) => {
      assertEvent(event, 'users.requireTwoFactor');
      return { pending: { twoFactorRequired: event.required } };
    }),
    pendName: assign(({ event }) => {
      assertEvent(event, 'users.rename');
      return { pending: { name: event.name.trim() }, actionError: null };
    }),
    pendEmail: assign(({ event }) => {
      assertEvent(event, 'users.changeEmail');
      return { pending: { email: event.email.trim() }, actionError: null };
    }),
    openCreate: assign({ target: null, pending: null, actionError: null, formView: 'full' as const }),
    setView: assign(({ event }) => {
      assertEvent(event, 'users.edit');
      return { formView: event.view ?? 'full' };
    }),
    close: assign({ target: null, pending: null, actionError: null }),
    succeeded: emit(({ context }, params: { action: UserAction }) => successOf(context, params.action)),
    replaceRow: assign(({ context }, row: UserRow) => ({
      users: replaceRow(context.users, row),
      target: null,
      pending: null,
    })),
    patchTarget: assign(({ context }, patch: Partial<UserRow>) => ({
      users: context.users.map((u) => (u.id === context.target?.id ? { ...u, ...patch } : u)),
      target: null,
      pending: null,
    })),
    removeTarget: assign(({ context }) => ({
      users: context.users.filter((u) => u.id !== context.target?.id),
      target: null,
      pending: null,
    })),
    failed: emit(({ context }, params: { action: UserAction; error: unknown }) =>
      failureOf(context, params.action, errorOf(context, params.action, params.error)),
    ),
    storeFailure: assign(({ context }, params: { action: UserAction; error: unknown }) => ({
      actionError: errorOf(context, params.action, params.error),
      pending: null,
    })),
    refuseEmpty: assign((_, params: { action: 'rename' | 'changeEmail' }) => ({
      actionError: { key: USER_ACTION_ERRORS[params.action], reason: 'apiErrors.validation' as const },
    })),
  },
});
