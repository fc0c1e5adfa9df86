import { assertEvent, assign, emit, raise, setup, stateIn, and, type SnapshotFrom } from 'xstate';
import type { Execute } from '../../api/graphql-client';
import type { RestClient } from '../../api/rest-client';
import type { Subject } from '../../domain/escalation';
import type { I18nKey } from '../../domain/i18n-key';
import { failed, succeeded, type Outcome } from '../shared/outcome';
import { type ActionError, actionError } from '../shared/request-error';
import {
  type Department,
  type OnlineEvent,
  type Role,
  type UserRow,
  usersActors,
  type UsersList,
  type UsersPage,
  PRESENCE_POLL_MS,
} from './users-actors';
import { DEFAULT_QUERY, onlySearchDiffers, sameUsersQuery, type UsersQuery } from './users-query';
import type { AppBus } from '../shared/app-bus';
import { userFormMachine } from './user-form.machine';
import { actOnRefusalOf, isSelf } from './users-access';

export interface UsersInput {
  execute: Execute;
  rest: RestClient;
  /** Presence poll period while the list is shown; default `PRESENCE_POLL_MS`, 0 turns it off. */
  presenceIntervalMs?: number;
  /**
   * The signed-in user as the no-way-up rules see it (session-selectors.ts `selectSubject`); the view
   * sends `users.subject` when it changes. Null (or left out): not known, nothing is refused here.
   */
  subject?: Subject | null;
  /** The app bus: the edit form shows a change to its user made elsewhere (src/machines/shared/conflict.ts). */
  bus?: AppBus | null;
  /** The page to load first (the address's, users-query.ts); default the first page by name. */
  query?: UsersQuery;
  /** How long the list waits after the search text changes before it asks; default `SEARCH_DELAY_MS`. */
  searchDelayMs?: number;
  /**
   * Load nothing until `users.start`: a bare address, where a saved default view may still replace the
   * query (docs/lists.md, Views), so the first page asked for is already the view's. Default false.
   */
  awaitStart?: boolean;
}

/**
 * The pause in typing before a changed search is asked for: one request per pause, not per keystroke.
 * Filters, sort and page ask at once. Shorter than the address's (users-query.machine.ts), which the
 * browser throttles.
 */
export const SEARCH_DELAY_MS = 250;

/** The calls the dialog region makes; each failure surfaces `users.errors.<action>`. */
export type UserAction =
  | 'delete'
  | 'block'
  | 'unblock'
  | 'twoFactor'
  | 'twoFactorRequirement'
  | 'disconnect'
  | 'rename'
  | 'changeEmail'
  | 'save';

/** What the admin asked for: names the outcome and tells on/off, block/unblock and create/edit apart. */
export type UserIntent =
  | 'create'
  | 'edit'
  | 'rename'
  | 'changeEmail'
  | 'delete'
  | 'block'
  | 'unblock'
  | 'twoFactorOn'
  | 'twoFactorOff'
  | 'twoFactorRequire'
  | 'twoFactorWaive'
  | 'disconnect';

/** `full`: create or edit everything; `instances`: only the user's instance links (row action "Instâncias"). */
export type FormView = 'full' | 'instances';

export interface UsersContext {
  execute: Execute;
  rest: RestClient;
  bus: AppBus | null;
  presenceIntervalMs: number;
  searchDelayMs: number;
  /** Whether the first load waits for `users.start` (see {@link UsersInput.awaitStart}). */
  awaitStart: boolean;
  /** The query the list shows or is loading (search, filters, sort, page). */
  query: UsersQuery;
  /** The rows of the page shown: at most `USERS_PAGE_SIZE` (users-query.ts). */
  users: UserRow[];
  /** Users matching the query in all pages, as the last answer said. */
  total: number;
  /** Every role with its routes, loaded with the list (users-access.ts). */
  roles: Role[];
  /** The tenant's departments, which the department filter offers. */
  departments: Department[];
  /** The signed-in user (see {@link UsersInput.subject}). */
  subject: Subject | null;
  /** The list call failed: the list is empty and this says so. */
  listError: ActionError | null;
  /** The user a confirmation, action or form is about (null for a new user). */
  target: UserRow | null;
  /** What the action asked for sends. */
  pending:
    | { blocked: boolean }
    | { twoFactor: boolean }
    | { twoFactorRequired: boolean }
    | { name: string }
    | { email: string }
    | null;
  /** The last action's failure (a quick edit shows it on its field). */
  actionError: ActionError | null;
  /** What the create/edit form shows. */
  formView: FormView;
}

export type UsersEvent =
  | { type: 'users.reload' }
  /** The query changed (the query machine, users-query.machine.ts): load its page. */
  | { type: 'users.query'; query: UsersQuery }
  /**
   * The views are known (src/machines/views/views.machine.ts): load the first page, of `query` when given
   * (the default view's), else of the last `users.query`. Only the first counts.
   */
  | { type: 'users.start'; query?: UsersQuery }
  /** The signed-in user's role or routes changed (a live permission change, a profile reload). */
  | { type: 'users.subject'; subject: Subject | null }
  | { type: 'users.presence'; userId: number; isConnected: boolean }
  | OnlineEvent
  | { type: 'users.delete'; user: UserRow }
  | { type: 'users.block'; user: UserRow; blocked: boolean }
  | { type: 'users.twoFactor'; user: UserRow; enabled: boolean }
  /** Require (or stop requiring) enrolment at the user's next sign-in (contracts/openapi.yaml `userSettingsUpdate`). */
  | { type: 'users.requireTwoFactor'; user: UserRow; required: boolean }
  | { type: 'users.disconnect'; user: UserRow }
  | { type: 'users.renameOpen'; user: UserRow }
  | { type: 'users.emailOpen'; user: UserRow }
  | { type: 'users.rename'; name: string }
  | { type: 'users.changeEmail'; email: string }
  | { type: 'users.create' }
  | { type: 'users.edit'; user: UserRow; view?: FormView }
  | { type: 'users.confirm' }
  | { type: 'users.close' };

/** What an action ended in (src/machines/shared/outcome.ts). */
export type UsersOutcome = Outcome<UserIntent>;

export type UsersEmitted =
  | UsersOutcome
  /** The page asked for is past the last (users were deleted): the list went to `page`, the last. */
  | { type: 'users.pageMoved'; page: number };

/** What failed, per action (the reason comes from the error). */
export const USER_ACTION_ERRORS = {
  delete: 'users.errors.delete',
  block: 'users.errors.block',
  unblock: 'users.errors.unblock',
  twoFactor: 'users.errors.twoFactor',
  twoFactorRequirement: 'users.errors.twoFactor',
  disconnect: 'users.errors.disconnect',
  rename: 'users.errors.rename',
  changeEmail: 'users.errors.changeEmail',
  save: 'users.errors.save',
} as const satisfies Record<UserAction, I18nKey>;

const NOTICES = {
  create: 'users.notices.created',
  edit: 'users.notices.updated',
  rename: 'users.notices.renamed',
  changeEmail: 'users.notices.emailChanged',
  delete: 'users.notices.deleted',
  block: 'users.notices.blocked',
  unblock: 'users.notices.unblocked',
  twoFactorOn: 'users.notices.twoFactorOn',
  twoFactorOff: 'users.notices.twoFactorOff',
  twoFactorRequire: 'users.notices.twoFactorRequired',
  twoFactorWaive: 'users.notices.twoFactorWaived',
  disconnect: 'users.notices.disconnected',
} as const satisfies Record<UserIntent, I18nKey>;

/** Failures of these show on the field of their dialog, which stays open, instead of in a toast. */
const SHOWN_IN_DIALOG: readonly UserIntent[] = ['rename', 'changeEmail'];

/** What the action in flight was asked to do. */
export function intentOf(context: UsersContext, action: UserAction): UserIntent {
  const pending = context.pending;
  if (action === 'block' || action === 'unblock')
    return pending && 'blocked' in pending && !pending.blocked ? 'unblock' : 'block';
  if (action === 'twoFactor')
    return pending && 'twoFactor' in pending && pending.twoFactor ? 'twoFactorOn' : 'twoFactorOff';
  if (action === 'twoFactorRequirement')
    return pending && 'twoFactorRequired' in pending && !pending.twoFactorRequired
      ? 'twoFactorWaive'
      : 'twoFactorRequire';
  if (action === 'save') return context.target ? 'edit' : 'create';
  return action;
}

/** "Usuário bloqueado — Ana". */
export function successOf(context: UsersContext, action: UserAction): UsersOutcome {
  const intent = intentOf(context, action);
  return succeeded(intent, { key: NOTICES[intent] }, context.target?.name);
}

/** The failure with its reason; a two-factor switch-on refused with 409 says the user has not enrolled. */
export function failureOf(context: UsersContext, action: UserAction, error: ActionError): UsersOutcome {
  const intent = intentOf(context, action);
  if (SHOWN_IN_DIALOG.includes(intent)) return failed(intent, null);
  const notEnrolled = intent === 'twoFactorOn' && error.reason === 'apiErrors.conflict';
  return failed(intent, {
    variant: 'error',
    title: { key: error.key },
    description: notEnrolled
      ? { key: 'users.twoFactor.notEnrolled', params: { name: context.target?.name ?? '' } }
      : { key: error.reason },
  });
}

const replaceRow = (users: UserRow[], row: UserRow): UserRow[] => {
  const at = users.findIndex((u) => u.id === row.id);
  return at === -1 ? [...users, row] : users.map((u, i) => (i === at ? row : u));
};

/** The failure of `action` (an unblock fails as `users.errors.unblock`). */
function errorOf(context: UsersContext, action: UserAction, error: unknown): ActionError {
  return actionError(USER_ACTION_ERRORS[intentOf(context, action) === 'unblock' ? 'unblock' : action], error);
}

/** The users machine's types, actors, guards and actions; its chart follows. */
/** The events that act on one user's row: each is refused unless the signed-in user may act on it. */
const ROW_ACTIONS = [
  'users.delete',
  'users.block',
  'users.twoFactor',
  'users.requireTwoFactor',
  'users.disconnect',
  'users.renameOpen',
  'users.emailOpen',
  'users.edit',
] as const;

export const usersSetup = setup({
  types: {
    input: {} as UsersInput,
    context: {} as UsersContext,
    events: {} as UsersEvent,
    emitted: {} as UsersEmitted,
    children: {} as { userForm: 'userForm' },
  },
  actors: { ...usersActors, userForm: userFormMachine },
  delays: { searchDelay: ({ context }) => context.searchDelayMs },
  guards: {
    listShown: stateIn({ list: 'shown' }),
    startNow: ({ context }) => !context.awaitStart,
    queryDiffers: ({ context, event }) => {
      assertEvent(event, 'users.query');
      return !sameUsersQuery(context.query, event.query);
    },
    onlySearchDiffers: ({ context, event }) => {
      assertEvent(event, 'users.query');
      return onlySearchDiffers(context.query, event.query);
    },
    // A page past the last (users deleted since, or an old link): ask for the last page instead.
    pastLast: (_, page: UsersPage) => page.users.length === 0 && page.page > page.lastPage,
    // The view offers no action on a user the signed-in user may not act on; an event for one anyway changes nothing.
    mayActOn: ({ context, event }) => {
      assertEvent(event, ROW_ACTIONS);
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
    storeList: assign((_, list: UsersList) => ({
      users: list.users,
      total: list.total,
      roles: list.roles,
      departments: list.departments,
      listError: null,
    })),
    storePage: assign((_, page: UsersPage) => ({ users: page.users, total: page.total, listError: null })),
    setQuery: assign(({ event }) => {
      assertEvent(event, 'users.query');
      return { query: event.query };
    }),
    startQuery: assign(({ context, event }) => {
      assertEvent(event, 'users.start');
      return { query: event.query ?? context.query };
    }),
    toLastPage: assign(({ context }, page: UsersPage) => ({ query: { ...context.query, page: page.lastPage } })),
    pageMoved: emit(({ context }) => ({ type: 'users.pageMoved' as const, page: context.query.page })),
    // After an action the page may hold other users (a delete, a block under a `blocked` filter, a new
    // name under another sort): it is asked for again, its rows shown meanwhile.
    reloadPage: raise({ type: 'users.reload' }),
    setSubject: assign(({ event }) => {
      assertEvent(event, 'users.subject');
      return { subject: event.subject };
    }),
    // A failed user list is an empty list; the error key makes the failure visible.
    listFailed: assign((_, params: { error: unknown }) => ({
      users: [],
      total: 0,
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
      assertEvent(event, ROW_ACTIONS);
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

/** A call that answered with the user's row: the outcome is emitted, the row replaced, the dialog closed. */
const answered = (action: UserAction) => ({
  target: '#users.dialog.idle',
  actions: [
    { type: 'succeeded' as const, params: { action } },
    { type: 'replaceRow' as const, params: ({ event }: { event: { output: UserRow } }) => event.output },
    'reloadPage' as const,
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
 * `list`: one page of GraphQL `usersPage` for `query` (users-actors.ts), which the view sends as
 * `users.query` when the admin searches, filters, sorts or pages. `awaitingStart` holds the first load, when
 * `awaitStart`, until `users.start` (the views known: a default view's query comes with it). `loading` reads the first page with the
 * roles and departments; `shown` keeps the page's rows while the next is asked for (`waiting` for a pause
 * in typing a search, `fetching`; both tagged `loading`, the table marks itself busy); a page past the
 * last goes to the last and emits `users.pageMoved`. A failed list is empty and carries `listError`
 * (`failed`; `users.reload` retries). `users.presence` and `users.online` (the presence poll, run while
 * the list is shown) update `isConnected` of the page's rows whatever the dialogs do.
 *
 * `dialog`: what the admin asked for, opened while the list is shown and only on a user the signed-in
 * user may act on (`subject`, `roles`: users-access.ts; the server refuses the rest); never one's own
 * e-mail, two-factor reset or enrolment requirement (the account screens', with the current password or a code). `open.*` are the dialogs that
 * wait for the admin (`users.close` closes any): the confirmations of delete, block, disconnect and
 * two-factor off, the name-only and email-only edits, and `form`, the user form (user-form.machine.ts) as
 * child `userForm`. Unblock, two-factor on and requiring (or not) two-factor enrolment run without asking. Each call (tag `busy`) ends in an
 * emitted `outcome` (src/machines/shared/outcome.ts) and its answer lands in the list, which is then asked
 * for again (the action may have moved users in or out of the page); a list reload never touches an open
 * dialog.
 */
export const usersMachine = usersSetup.createMachine({
  id: 'users',
  context: ({ input }) => ({
    execute: input.execute,
    rest: input.rest,
    bus: input.bus ?? null,
    presenceIntervalMs: input.presenceIntervalMs ?? PRESENCE_POLL_MS,
    searchDelayMs: input.searchDelayMs ?? SEARCH_DELAY_MS,
    awaitStart: input.awaitStart ?? false,
    query: input.query ?? DEFAULT_QUERY,
    users: [],
    total: 0,
    roles: [],
    departments: [],
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
      initial: 'awaitingStart',
      on: {
        'users.presence': { actions: 'presence' },
        'users.online': { actions: 'online' },
      },
      states: {
        // A bare address: the saved default view, once the views are known, may replace the query; the
        // first page waits for it, so the rows never load by name and then reorder. Otherwise straight on.
        awaitingStart: {
          tags: ['loading'],
          always: { guard: 'startNow', target: 'loading' },
          on: {
            'users.query': { actions: 'setQuery' },
            'users.start': { target: 'loading', actions: 'startQuery' },
          },
        },
        // The first page with the roles and departments; a query change restarts it (the old answer is dropped).
        loading: {
          tags: ['loading'],
          on: {
            'users.reload': { target: 'loading', reenter: true },
            'users.query': { guard: 'queryDiffers', target: 'loading', reenter: true, actions: 'setQuery' },
          },
          invoke: {
            id: 'loadUsers',
            src: 'loadUsers',
            input: ({ context }) => ({ execute: context.execute, query: context.query }),
            onDone: [
              {
                guard: { type: 'pastLast', params: ({ event }) => event.output },
                target: 'shown.fetching',
                actions: [
                  { type: 'storeList', params: ({ event }) => event.output },
                  { type: 'toLastPage', params: ({ event }) => event.output },
                  'pageMoved',
                ],
              },
              { target: 'shown', actions: { type: 'storeList', params: ({ event }) => event.output } },
            ],
            onError: {
              target: 'failed',
              actions: { type: 'listFailed', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: {
          on: {
            'users.reload': 'loading',
            'users.query': { target: 'loading', actions: 'setQuery' },
          },
        },
        shown: {
          initial: 'idle',
          // Presence has no socket event (contracts/socket.md): poll it while the list is shown, whatever
          // page is being asked for.
          invoke: {
            id: 'watchPresence',
            src: 'watchPresence',
            input: ({ context }) => ({ execute: context.execute, intervalMs: context.presenceIntervalMs }),
          },
          on: {
            // Re-entering `fetching` stops the request out (its signal aborts, its answer is never taken):
            // an answer for an older query can never replace a newer one.
            'users.reload': { target: '.fetching', reenter: true },
            'users.query': [
              { guard: 'onlySearchDiffers', target: '.waiting', reenter: true, actions: 'setQuery' },
              { guard: 'queryDiffers', target: '.fetching', reenter: true, actions: 'setQuery' },
            ],
          },
          states: {
            idle: {},
            // The search text changed: each keystroke restarts the pause, the rows shown stay (marked busy).
            waiting: {
              tags: ['loading'],
              after: { searchDelay: 'fetching' },
            },
            fetching: {
              tags: ['loading'],
              invoke: {
                id: 'loadUsersPage',
                src: 'loadUsersPage',
                input: ({ context }) => ({ execute: context.execute, query: context.query }),
                onDone: [
                  {
                    guard: { type: 'pastLast', params: ({ event }) => event.output },
                    target: 'fetching',
                    reenter: true,
                    actions: [
                      { type: 'storePage', params: ({ event }) => event.output },
                      { type: 'toLastPage', params: ({ event }) => event.output },
                      'pageMoved',
                    ],
                  },
                  { target: 'idle', actions: { type: 'storePage', params: ({ event }) => event.output } },
                ],
                onError: {
                  target: '#users.list.failed',
                  actions: { type: 'listFailed', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
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
                        bus: context.bus,
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
              actions: [{ type: 'succeeded', params: { action: 'delete' } }, 'removeTarget', 'reloadPage'],
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
                'reloadPage',
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
                'reloadPage',
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
                'reloadPage',
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
