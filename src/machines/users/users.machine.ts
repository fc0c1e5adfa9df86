import { assign, setup, type SnapshotFrom } from 'xstate';
import type { Execute } from '../../api/graphql-client';
import type { RestClient } from '../../api/rest-client';
import type { I18nKey } from '../../domain/i18n-key';
import { actionError, type ActionError } from '../shared/request-error';
import { userFormMachine } from './user-form.machine';
import { PRESENCE_POLL_MS, usersActors, type OnlineEvent, type UserRow } from './users-actors';

export interface UsersInput {
  execute: Execute;
  rest: RestClient;
  /** Presence poll period while the list is shown; default {@link PRESENCE_POLL_MS}, 0 turns it off. */
  presenceIntervalMs?: number;
}

/** The row actions; each failure surfaces `users.errors.<action>`. */
export type UserAction =
  'delete' | 'block' | 'unblock' | 'twoFactor' | 'disconnect' | 'rename' | 'changeEmail' | 'save';

export interface UsersContext {
  execute: Execute;
  rest: RestClient;
  presenceIntervalMs: number;
  users: UserRow[];
  /** The list call failed: the list is empty (docs/product.md, Errors) and this says so. */
  listError: ActionError | null;
  /** The user a confirmation, action or form is about (null for a new user). */
  target: UserRow | null;
  /** What the action in flight sends. */
  pending: { blocked: boolean } | { twoFactor: boolean } | { name: string } | { email: string } | null;
  /** A failed action "returns false" (docs/product.md, Errors): the last action's outcome, with `actionError` when it failed. */
  lastResult: { action: UserAction; ok: boolean } | null;
  actionError: ActionError | null;
}

export type UsersEvent =
  | { type: 'users.reload' }
  | { type: 'users.presence'; userId: number; isConnected: boolean }
  | OnlineEvent
  | { type: 'users.delete'; user: UserRow }
  | { type: 'users.confirm' }
  | { type: 'users.close' }
  | { type: 'users.block'; user: UserRow; blocked: boolean }
  | { type: 'users.twoFactor'; user: UserRow; enabled: boolean }
  | { type: 'users.disconnect'; user: UserRow }
  | { type: 'users.rename'; user: UserRow; name: string }
  | { type: 'users.changeEmail'; user: UserRow; email: string }
  | { type: 'users.create' }
  | { type: 'users.edit'; user: UserRow };

/** What failed, per action (the reason comes from the error). */
export const USER_ACTION_ERRORS = {
  delete: 'users.errors.delete',
  block: 'users.errors.block',
  unblock: 'users.errors.unblock',
  twoFactor: 'users.errors.twoFactor',
  disconnect: 'users.errors.disconnect',
  rename: 'users.errors.rename',
  changeEmail: 'users.errors.changeEmail',
  save: 'users.errors.save',
} as const satisfies Record<UserAction, I18nKey>;

const replaceRow = (users: UserRow[], row: UserRow): UserRow[] => {
  const at = users.findIndex((u) => u.id === row.id);
  return at === -1 ? [...users, row] : users.map((u, i) => (i === at ? row : u));
};

/**
 * The users screen. The list comes from GraphQL `users` (see users-actors.ts for why); a failed list
 * is empty (docs/product.md, Errors) and carries `listError`. Row actions: delete (after `users.confirm`),
 * block/unblock, two-factor on/off, disconnect, name-only and email-only changes; each ends in
 * `lastResult` and, on failure, `actionError` (`users.errors.<action>`) instead of a silent false.
 * `users.create` / `users.edit` open the {@link userFormMachine} as child `userForm`
 * (`snapshot.children.userForm`); its saved row lands in the list. `users.presence` (from the app
 * bus) updates `isConnected` live in any state.
 *
 * States: `loading`, `failed`, `ready.{idle, confirmingDelete, deleting, blocking, settingTwoFactor,
 * disconnecting, renaming, changingEmail, form}` (calls tagged `busy`).
 */
export const usersMachine = setup({
  types: {
    input: {} as UsersInput,
    context: {} as UsersContext,
    events: {} as UsersEvent,
    children: {} as { userForm: 'userForm' },
  },
  actors: { ...usersActors, userForm: userFormMachine },
  guards: {
    hasName: ({ event }) => event.type === 'users.rename' && event.name.trim().length > 0,
    hasEmail: ({ event }) => event.type === 'users.changeEmail' && event.email.trim().length > 0,
  },
  actions: {
    storeUsers: assign((_, users: UserRow[]) => ({ users, listError: null })),
    // A failed user list is an empty list (docs/product.md, Errors); the error key makes the failure visible.
    listFailed: assign((_, params: { error: unknown }) => ({
      users: [],
      listError: actionError('users.errors.load', params.error),
    })),
    presence: assign(({ context, event }) =>
      event.type === 'users.presence'
        ? {
            users: context.users.map((u) =>
              u.id === event.userId && u.isConnected !== event.isConnected
                ? { ...u, isConnected: event.isConnected }
                : u,
            ),
          }
        : {},
    ),
    // Only rows whose presence changed are replaced (and the list only when one did), so a poll
    // that finds nothing new does not re-render 10,000 rows.
    online: assign(({ context, event }) => {
      if (event.type !== 'users.online') return {};
      const ids = new Set(event.ids);
      let changed = false;
      const users = context.users.map((u) => {
        if (ids.has(u.id) === u.isConnected) return u;
        changed = true;
        return { ...u, isConnected: !u.isConnected };
      });
      return changed ? { users } : {};
    }),
    begin: assign(({ event }) => {
      const target = 'user' in event ? event.user : null;
      switch (event.type) {
        case 'users.block':
          return { target, pending: { blocked: event.blocked }, actionError: null };
        case 'users.twoFactor':
          return { target, pending: { twoFactor: event.enabled }, actionError: null };
        case 'users.rename':
          return { target, pending: { name: event.name.trim() }, actionError: null };
        case 'users.changeEmail':
          return { target, pending: { email: event.email.trim() }, actionError: null };
        default:
          return { target, pending: null, actionError: null };
      }
    }),
    close: assign({ target: null, pending: null }),
    replaceRow: assign(({ context }, params: { row: UserRow; action: UserAction }) => ({
      users: replaceRow(context.users, params.row),
      lastResult: { action: params.action, ok: true },
      target: null,
      pending: null,
    })),
    patchTarget: assign(({ context }, params: { patch: Partial<UserRow>; action: UserAction }) => ({
      users: context.users.map((u) => (u.id === context.target?.id ? { ...u, ...params.patch } : u)),
      lastResult: { action: params.action, ok: true },
      target: null,
      pending: null,
    })),
    removeTarget: assign(({ context }) => ({
      users: context.users.filter((u) => u.id !== context.target?.id),
      lastResult: { action: 'delete' as const, ok: true },
      target: null,
    })),
    failed: assign(({ context }, params: { action: UserAction; error: unknown }) => {
      const action: UserAction =
        params.action === 'block' && context.pending && 'blocked' in context.pending && !context.pending.blocked
          ? 'unblock'
          : params.action;
      return {
        lastResult: { action, ok: false },
        actionError: actionError(USER_ACTION_ERRORS[action], params.error),
        pending: null,
      };
    }),
    refuseEmpty: assign((_, params: { action: UserAction }) => ({
      lastResult: { action: params.action, ok: false },
      actionError: { key: USER_ACTION_ERRORS[params.action], reason: 'apiErrors.validation' as const },
    })),
  },
}).createMachine({
  id: 'users',
  context: ({ input }) => ({
    execute: input.execute,
    rest: input.rest,
    presenceIntervalMs: input.presenceIntervalMs ?? PRESENCE_POLL_MS,
    users: [],
    listError: null,
    target: null,
    pending: null,
    lastResult: null,
    actionError: null,
  }),
  on: { 'users.presence': { actions: 'presence' }, 'users.online': { actions: 'online' } },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadUsers',
        src: 'loadUsers',
        input: ({ context }) => ({ execute: context.execute }),
        onDone: { target: 'ready', actions: { type: 'storeUsers', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'listFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      on: { 'users.reload': 'loading' },
    },
    ready: {
      // Presence has no socket event (contracts/socket.md §3): poll it while the list is shown.
      invoke: {
        id: 'watchPresence',
        src: 'watchPresence',
        input: ({ context }) => ({ execute: context.execute, intervalMs: context.presenceIntervalMs }),
      },
      initial: 'idle',
      states: {
        idle: {
          on: {
            'users.reload': '#users.loading',
            'users.delete': { target: 'confirmingDelete', actions: 'begin' },
            'users.block': { target: 'blocking', actions: 'begin' },
            'users.twoFactor': { target: 'settingTwoFactor', actions: 'begin' },
            'users.disconnect': { target: 'disconnecting', actions: 'begin' },
            'users.rename': [
              { guard: 'hasName', target: 'renaming', actions: 'begin' },
              { actions: { type: 'refuseEmpty', params: { action: 'rename' } } },
            ],
            'users.changeEmail': [
              { guard: 'hasEmail', target: 'changingEmail', actions: 'begin' },
              { actions: { type: 'refuseEmpty', params: { action: 'changeEmail' } } },
            ],
            'users.create': { target: 'form', actions: 'begin' },
            'users.edit': { target: 'form', actions: 'begin' },
          },
        },
        confirmingDelete: {
          on: { 'users.confirm': 'deleting', 'users.close': { target: 'idle', actions: 'close' } },
        },
        deleting: {
          tags: ['busy'],
          invoke: {
            id: 'deleteUser',
            src: 'deleteUser',
            input: ({ context }) => ({ execute: context.execute, id: targetId(context) }),
            onDone: { target: 'idle', actions: 'removeTarget' },
            onError: {
              target: 'idle',
              actions: { type: 'failed', params: ({ event }) => ({ action: 'delete', error: event.error }) },
            },
          },
        },
        blocking: {
          tags: ['busy'],
          invoke: {
            id: 'setBlocked',
            src: 'setBlocked',
            input: ({ context }) => ({
              rest: context.rest,
              id: targetId(context),
              blocked: pendingOf(context, 'blocked'),
            }),
            onDone: {
              target: 'idle',
              actions: {
                type: 'replaceRow',
                params: ({ event }) => ({ row: event.output, action: event.output.blocked ? 'block' : 'unblock' }),
              },
            },
            onError: {
              target: 'idle',
              actions: { type: 'failed', params: ({ event }) => ({ action: 'block', error: event.error }) },
            },
          },
        },
        settingTwoFactor: {
          tags: ['busy'],
          invoke: {
            id: 'setTwoFactor',
            src: 'setTwoFactor',
            input: ({ context }) => ({
              rest: context.rest,
              id: targetId(context),
              enabled: pendingOf(context, 'twoFactor'),
            }),
            onDone: {
              target: 'idle',
              actions: {
                type: 'patchTarget',
                params: ({ event }) => ({ patch: { twoFactorEnabled: event.output }, action: 'twoFactor' }),
              },
            },
            onError: {
              target: 'idle',
              actions: { type: 'failed', params: ({ event }) => ({ action: 'twoFactor', error: event.error }) },
            },
          },
        },
        disconnecting: {
          tags: ['busy'],
          invoke: {
            id: 'disconnectUser',
            src: 'disconnectUser',
            input: ({ context }) => ({ execute: context.execute, id: targetId(context) }),
            onDone: {
              target: 'idle',
              actions: { type: 'patchTarget', params: { patch: { isConnected: false }, action: 'disconnect' } },
            },
            onError: {
              target: 'idle',
              actions: { type: 'failed', params: ({ event }) => ({ action: 'disconnect', error: event.error }) },
            },
          },
        },
        renaming: {
          tags: ['busy'],
          invoke: {
            id: 'renameUser',
            src: 'renameUser',
            input: ({ context }) => ({ rest: context.rest, id: targetId(context), name: pendingOf(context, 'name') }),
            onDone: {
              target: 'idle',
              actions: { type: 'replaceRow', params: ({ event }) => ({ row: event.output, action: 'rename' }) },
            },
            onError: {
              target: 'idle',
              actions: { type: 'failed', params: ({ event }) => ({ action: 'rename', error: event.error }) },
            },
          },
        },
        changingEmail: {
          tags: ['busy'],
          invoke: {
            id: 'changeEmail',
            src: 'changeEmail',
            input: ({ context }) => ({ rest: context.rest, id: targetId(context), email: pendingOf(context, 'email') }),
            onDone: {
              target: 'idle',
              actions: { type: 'replaceRow', params: ({ event }) => ({ row: event.output, action: 'changeEmail' }) },
            },
            onError: {
              target: 'idle',
              actions: { type: 'failed', params: ({ event }) => ({ action: 'changeEmail', error: event.error }) },
            },
          },
        },
        form: {
          invoke: {
            id: 'userForm',
            src: 'userForm',
            input: ({ context }) =>
              context.target
                ? { execute: context.execute, mode: 'edit' as const, user: context.target }
                : { execute: context.execute, mode: 'create' as const },
            onDone: {
              target: 'idle',
              actions: { type: 'replaceRow', params: ({ event }) => ({ row: event.output, action: 'save' }) },
            },
          },
          on: { 'users.close': { target: 'idle', actions: 'close' } },
        },
      },
    },
  },
});

function targetId(context: UsersContext): number {
  if (!context.target) throw new Error('users: an action state was entered without its user');
  return context.target.id;
}

type PendingValue = { blocked: boolean; twoFactor: boolean; name: string; email: string };

function pendingOf<K extends keyof PendingValue>(context: UsersContext, key: K): PendingValue[K] {
  const pending = context.pending as Partial<PendingValue> | null;
  const value = pending?.[key];
  if (value === undefined) throw new Error(`users: no pending ${key}`);
  return value as PendingValue[K];
}

export type UsersSnapshot = SnapshotFrom<typeof usersMachine>;
