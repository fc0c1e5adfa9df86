import { and, type SnapshotFrom } from 'xstate';
import { PRESENCE_POLL_MS, type UserRow } from './users-actors';
import type { UserAction, UsersContext } from './users-context';
import { usersSetup } from './users-setup';

export {
  USER_ACTION_ERRORS,
  type FormView,
  type UserAction,
  type UserIntent,
  type UsersContext,
  type UsersEmitted,
  type UsersEvent,
  type UsersInput,
} from './users-context';

/** A call that answered with the user's row: the outcome is emitted, the row replaced, the dialog closed. */
const answered = (action: UserAction) => ({
  target: '#users.dialog.idle',
  actions: [
    { type: 'succeeded' as const, params: { action } },
    { type: 'replaceRow' as const, params: ({ event }: { event: { output: UserRow } }) => event.output },
  ],
});
/** A refused call: the outcome says why; a quick edit goes `back` to its dialog, the reason on its field. */
const refused = (action: UserAction, back = '#users.dialog.idle') => ({
  target: back,
  actions: [
    { type: 'failed' as const, params: ({ event }: { event: { error: unknown } }) => ({ action, error: event.error }) },
    {
      type: 'storeFailure' as const,
      params: ({ event }: { event: { error: unknown } }) => ({ action, error: event.error }),
    },
  ],
});

/** An action on the event's user: the list is shown and the signed-in user may act on that user. */
const onUser = and(['listShown', 'mayActOn']);

/**
 * The users screen: the list and the dialogs as two parallel regions.
 *
 * `list`: the GraphQL `users` list (see users-actors.ts for why); a failed list is empty and carries
 * `listError`. `users.presence` (from the app bus) and `users.online` (the presence poll, run while
 * the list is shown) update `isConnected` whatever the dialogs do. States `loading`, `failed`, `ready`.
 *
 * `dialog`: what the admin asked for, opened while the list is shown and only on a user the signed-in
 * user may act on (`subject`, `roles`: users-access.ts; the server refuses the rest); never one's own
 * e-mail, two-factor reset or enrolment requirement (the account screens', with the current password or a code). `open.*` are the dialogs that
 * wait for the admin (`users.close` closes any): the confirmations of delete, block, disconnect and
 * two-factor off, the name-only and email-only edits, and `form`, the user form (user-form.machine.ts) as
 * child `userForm`. Unblock, two-factor on and requiring (or not) two-factor enrolment run without asking. Each call (tag `busy`) ends in an
 * emitted `outcome` (src/machines/shared/outcome.ts) and its answer lands in the list; a list reload
 * never touches an open dialog.
 */
export const usersMachine = usersSetup.createMachine({
  id: 'users',
  context: ({ input }) => ({
    execute: input.execute,
    rest: input.rest,
    presenceIntervalMs: input.presenceIntervalMs ?? PRESENCE_POLL_MS,
    users: [],
    roles: [],
    subject: input.subject ?? null,
    listError: null,
    target: null,
    pending: null,
    actionError: null,
    formView: 'full',
  }),
  type: 'parallel',
  on: { 'users.subject': { actions: 'setSubject' } },
  states: {
    list: {
      initial: 'loading',
      on: {
        'users.reload': '.loading',
        'users.presence': { actions: 'presence' },
        'users.online': { actions: 'online' },
      },
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadUsers',
            src: 'loadUsers',
            input: ({ context }) => ({ execute: context.execute }),
            onDone: { target: 'ready', actions: { type: 'storeUsers', params: ({ event }) => event.output } },
            onError: {
              target: 'failed',
              actions: { type: 'listFailed', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: {},
        ready: {
          // Presence has no socket event (contracts/socket.md): poll it while the list is shown.
          invoke: {
            id: 'watchPresence',
            src: 'watchPresence',
            input: ({ context }) => ({ execute: context.execute, intervalMs: context.presenceIntervalMs }),
          },
        },
      },
    },
    dialog: {
      initial: 'idle',
      states: {
        idle: {
          // Each action needs the list shown and a user the signed-in user may act on (users-access.ts).
          on: {
            'users.delete': { guard: onUser, target: 'open.confirmingDelete', actions: 'aim' },
            'users.block': [
              { guard: and([onUser, 'blocks']), target: 'open.confirmingBlock', actions: ['aim', 'pendBlocked'] },
              { guard: onUser, target: 'blocking', actions: ['aim', 'pendBlocked'] },
            ],
            'users.twoFactor': [
              { guard: and([onUser, 'enables']), target: 'settingTwoFactor', actions: ['aim', 'pendTwoFactor'] },
              {
                guard: and([onUser, 'notSelf']),
                target: 'open.confirmingTwoFactorOff',
                actions: ['aim', 'pendTwoFactor'],
              },
            ],
            'users.requireTwoFactor': {
              guard: and([onUser, 'notSelf']),
              target: 'requiringTwoFactor',
              actions: ['aim', 'pendRequired'],
            },
            'users.disconnect': { guard: onUser, target: 'open.confirmingDisconnect', actions: 'aim' },
            'users.renameOpen': { guard: onUser, target: 'open.renameForm', actions: 'aim' },
            'users.emailOpen': { guard: and([onUser, 'notSelf']), target: 'open.emailForm', actions: 'aim' },
            'users.create': { guard: 'listShown', target: 'open.form', actions: 'openCreate' },
            'users.edit': { guard: onUser, target: 'open.form', actions: ['aim', 'setView'] },
          },
        },
        open: {
          // Never entered by default: every transition here names the dialog it opens.
          initial: 'confirmingDelete',
          on: { 'users.close': { target: 'idle', actions: 'close' } },
          states: {
            confirmingDelete: { on: { 'users.confirm': '#users.dialog.deleting' } },
            confirmingBlock: { on: { 'users.confirm': '#users.dialog.blocking' } },
            confirmingDisconnect: { on: { 'users.confirm': '#users.dialog.disconnecting' } },
            confirmingTwoFactorOff: { on: { 'users.confirm': '#users.dialog.settingTwoFactor' } },
            renameForm: {
              on: {
                'users.rename': [
                  { guard: 'hasName', target: '#users.dialog.renaming', actions: 'pendName' },
                  { actions: { type: 'refuseEmpty', params: { action: 'rename' } } },
                ],
              },
            },
            emailForm: {
              on: {
                'users.changeEmail': [
                  { guard: 'hasEmail', target: '#users.dialog.changingEmail', actions: 'pendEmail' },
                  { actions: { type: 'refuseEmpty', params: { action: 'changeEmail' } } },
                ],
              },
            },
            form: {
              invoke: {
                id: 'userForm',
                src: 'userForm',
                input: ({ context }) =>
                  context.target
                    ? {
                        execute: context.execute,
                        subject: context.subject,
                        mode: 'edit' as const,
                        user: context.target,
                      }
                    : { execute: context.execute, subject: context.subject, mode: 'create' as const },
                onDone: answered('save'),
              },
            },
          },
        },
        deleting: {
          tags: ['busy'],
          invoke: {
            id: 'deleteUser',
            src: 'deleteUser',
            input: ({ context }) => ({ execute: context.execute, id: targetId(context) }),
            onDone: {
              target: 'idle',
              actions: [{ type: 'succeeded', params: { action: 'delete' } }, 'removeTarget'],
            },
            onError: refused('delete'),
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
            onDone: answered('block'),
            onError: refused('block'),
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
              actions: [
                { type: 'succeeded', params: { action: 'twoFactor' } },
                { type: 'patchTarget', params: ({ event }) => ({ twoFactorEnabled: event.output }) },
              ],
            },
            onError: refused('twoFactor'),
          },
        },
        requiringTwoFactor: {
          tags: ['busy'],
          invoke: {
            id: 'setTwoFactorRequired',
            src: 'setTwoFactorRequired',
            input: ({ context }) => ({
              rest: context.rest,
              id: targetId(context),
              required: pendingOf(context, 'twoFactorRequired'),
            }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'succeeded', params: { action: 'twoFactorRequirement' } },
                { type: 'patchTarget', params: ({ event }) => ({ twoFactorEnrolmentRequired: event.output }) },
              ],
            },
            onError: refused('twoFactorRequirement'),
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
              actions: [
                { type: 'succeeded', params: { action: 'disconnect' } },
                { type: 'patchTarget', params: { isConnected: false } },
              ],
            },
            onError: refused('disconnect'),
          },
        },
        renaming: {
          tags: ['busy'],
          invoke: {
            id: 'renameUser',
            src: 'renameUser',
            input: ({ context }) => ({ rest: context.rest, id: targetId(context), name: pendingOf(context, 'name') }),
            onDone: answered('rename'),
            onError: refused('rename', 'open.renameForm'),
          },
        },
        changingEmail: {
          tags: ['busy'],
          invoke: {
            id: 'changeEmail',
            src: 'changeEmail',
            input: ({ context }) => ({ rest: context.rest, id: targetId(context), email: pendingOf(context, 'email') }),
            onDone: answered('changeEmail'),
            onError: refused('changeEmail', 'open.emailForm'),
          },
        },
      },
    },
  },
});

function targetId(context: UsersContext): number {
  if (!context.target) throw new Error('users: an action state was entered without its user');
  return context.target.id;
}

type PendingValue = { blocked: boolean; twoFactor: boolean; twoFactorRequired: boolean; name: string; email: string };

function pendingOf<K extends keyof PendingValue>(context: UsersContext, key: K): PendingValue[K] {
  const pending = context.pending as Partial<PendingValue> | null;
  const value = pending?.[key];
  if (value === undefined) throw new Error(`users: no pending ${key}`);
  return value as PendingValue[K];
}

export type UsersSnapshot = SnapshotFrom<typeof usersMachine>;
