import { and, assertEvent, assign, emit, setup, type SnapshotFrom } from 'xstate';
import type { Execute } from '../../api/graphql-client';
import type { Subject } from '../../domain/escalation';
import { passwordStrength, type PasswordScore } from '../../domain/password-strength';
import type { I18nKey } from '../../domain/i18n-key';
import type { AppBus } from '../shared/app-bus';
import {
  checkRemote,
  conflictGuards,
  conflictReload,
  graphqlAuditReader,
  liveConflict,
  remoteCheckGuards,
  remoteCheckTransitions,
  remoteNoted,
  saveConflict,
  versionOf,
  watchTarget,
  type Conflict,
  type ConflictEvent,
  type ConflictField,
  type RemoteCheck,
} from '../shared/conflict';
import { succeeded, type Outcome } from '../shared/outcome';
import { actionError, refusedFields, type ActionError } from '../shared/request-error';
import { problemsOf } from './user-form-checks';
import { isSelf } from './users-access';
import {
  loadUserRow,
  userFormActors,
  type UserFormOptions,
  type Department,
  type InstanceOption,
  type Role,
  type UserFormValues,
  type UserInstanceLink,
  type UserRow,
} from './users-actors';

/**
 * `subject`: the signed-in user (users-access.ts), null when not known. `bus`: the app bus, for a change
 * to the edited user made elsewhere (src/machines/shared/conflict.ts); left out, it is learnt on save.
 */
export type UserFormInput =
  | { execute: Execute; subject?: Subject | null; bus?: AppBus | null; mode: 'create' }
  | { execute: Execute; subject?: Subject | null; bus?: AppBus | null; mode: 'edit'; user: UserRow };

export type UserFormField = 'username' | 'name' | 'email' | 'password';
export { passwordProblem, validateUserForm } from './user-form-checks';
export { roleProblem, sameRoleField, selectRoleField, type RoleField } from './user-form-role';

export interface UserFormContext {
  execute: Execute;
  mode: 'create' | 'edit';
  /** The edited user's id (null when creating). */
  userId: number | null;
  /** The signed-in user: the roles it may give, and whether the edited user is itself. */
  subject: Subject | null;
  /** The edited user's role as stored (null when creating): kept, it needs no right to give. */
  storedRoleId: number | null;
  values: UserFormValues;
  /** Strength score (docs/product.md, Passwords) of the password typed so far (null while empty), for the strength meter. */
  passwordScore: PasswordScore | null;
  roles: Role[];
  departments: Department[];
  /** Instances that can be added. */
  instances: InstanceOption[];
  /** The edited user's current links (removed one by one with `deleteUserInstance`). */
  links: UserInstanceLink[];
  /** Instance ids added in the form, sent with the save. */
  chosen: number[];
  /** Why each field is refused: local checks or the server's answer. */
  invalid: Partial<Record<string, I18nKey>>;
  error: ActionError | null;
  /** The link whose removal is in flight. */
  removing: number | null;
  saved: UserRow | null;
  bus: AppBus | null;
  /** The edited user's version as loaded (sent with the save; src/machines/shared/conflict.ts). */
  version: number | null;
  /** The values as loaded: what the user changed is what differs from them. */
  stored: UserFormValues;
  conflict: Conflict | null;
  /** Audit records of the edited user announced since the last check. */
  remoteIds: number[];
}

export type UserFormEvent =
  | { type: 'users.form.field'; field: UserFormField; value: string }
  | { type: 'users.form.role'; roleId: number | null }
  | { type: 'users.form.department'; departmentId: number | null }
  | { type: 'users.form.toggleInstance'; instanceId: number }
  | { type: 'users.form.removeLink'; linkId: number }
  | { type: 'users.form.submit' }
  | { type: 'users.form.reload' }
  | ConflictEvent;

const emptyValues: UserFormValues = {
  username: '',
  name: '',
  email: '',
  password: '',
  role_id: null,
  user_department_id: null,
};

/**
 * Whether the form edits the signed-in user's own record, whose e-mail and password change only on the
 * account screen, with the current password (server/src/users/service.ts: a new e-mail of one's own
 * without it is refused on `current_password`, a password with 403): the form keeps them as stored.
 */
export const isOwnRecord = (context: Pick<UserFormContext, 'mode' | 'userId' | 'subject'>): boolean =>
  context.mode === 'edit' && isSelf(context, context.userId);

/** The form's values of a user row as stored (no password). */
function valuesOf(user: UserRow): UserFormValues {
  return {
    username: user.username,
    name: user.name,
    email: user.email,
    password: '',
    role_id: user.role.id,
    user_department_id: user.userDepartment?.id ?? null,
  };
}

/**
 * The fields the conflict notice compares, by their audit names (server/src/users/service.ts
 * `USER_AUDIT_FIELDS`). The password is never shown; it is kept and sent again on reapply.
 */
const COMPARED: readonly (readonly [keyof UserFormValues, string])[] = [
  ['name', 'name'],
  ['username', 'username'],
  ['email', 'email'],
  ['role_id', 'role_id'],
  ['user_department_id', 'department_id'],
];

/** The user's unsaved values as the notice shows them: each changed field, stored → edited. */
export function unsavedFields(context: Pick<UserFormContext, 'values' | 'stored'>): ConflictField[] {
  return COMPARED.filter(([key]) => context.values[key] !== context.stored[key]).map(([key, field]) => ({
    field,
    before: JSON.stringify(context.stored[key]),
    after: JSON.stringify(context.values[key]),
  }));
}

/** The user and the form's options read again for a reapply or a discard (`reloadUser`). */
type Reloaded = { user: UserRow; options: UserFormOptions };

const hasUnsaved = (context: Pick<UserFormContext, 'values' | 'stored' | 'chosen'>) =>
  unsavedFields(context).length > 0 || context.values.password !== '' || context.chosen.length > 0;

/** The fields of one's own record the users form leaves to the account screen (`/user-settings`). */
const OWN_ACCOUNT_FIELDS: readonly UserFormField[] = ['email', 'password'];

/**
 * The create/edit user form. Loads the role, department and instance choices (and, when editing,
 * the user's instance links) through GraphQL; checks the fields locally (weak passwords refused
 * with a reason key, docs/product.md, Passwords), then `newUser` or `updateUser`; removes a link at once with
 * `deleteUserInstance` (each removal emits an `outcome`, src/machines/shared/outcome.ts). On one's own
 * record the e-mail stays as stored ({@link isOwnRecord}). Ends in the final state `done` with the saved
 * row as output.
 *
 * States: `loading`, `loadFailed`, `ready`, `removingLink`, `creating`, `updating` (tag `busy` while calling), `done`.
 */
/** What the user may do to the fields while the form is shown (ready, and while a remote change is checked). */
const EDITS = {
  'users.form.field': { guard: 'editable', actions: 'setField' },
  'users.form.role': { actions: 'setRole' },
  'users.form.department': { actions: 'setDepartment' },
  'users.form.toggleInstance': { actions: 'toggleInstance' },
  'users.form.removeLink': { guard: 'knownLink', target: '#userForm.removingLink', actions: 'startRemoval' },
  'users.form.submit': [
    { guard: and(['valid', 'creating']), target: '#userForm.creating', actions: 'clearError' },
    { guard: 'valid', target: '#userForm.updating', actions: 'clearError' },
    { actions: 'showInvalid' },
  ],
} as const;

/** The same while an existing user's form checks a change announced from elsewhere. */
const EDITS_EXISTING = {
  ...EDITS,
  'users.form.submit': [
    { guard: 'valid', target: '#userForm.updating', actions: 'clearError' },
    { actions: 'showInvalid' },
  ],
} as const;

/** Reads the user and the form's options again for a reapply or a discard (`state`: the state that reads them). */
const reloadUser = (state: string) =>
  ({
    id: 'reloadUser',
    src: 'reloadUser',
    input: ({ context }: { context: UserFormContext }) => ({
      execute: context.execute,
      userId: context.userId ?? invalidState(state),
    }),
  }) as const;

export const userFormMachine = setup({
  types: {
    input: {} as UserFormInput,
    context: {} as UserFormContext,
    events: {} as UserFormEvent,
    output: {} as UserRow,
    emitted: {} as Outcome<'removeLink'>,
  },
  actors: { ...userFormActors, watchTarget, checkRemote: checkRemote<UserRow>() },
  guards: {
    ...conflictGuards,
    // Only the edit form has a record whose changes are news.
    news: (args) => args.context.mode === 'edit' && conflictGuards.news(args),
    ...remoteCheckGuards(hasUnsaved),
    valid: ({ context }) => Object.keys(problemsOf(context)).length === 0,
    creating: ({ context }) => context.mode === 'create',
    editable: ({ context, event }) => {
      assertEvent(event, 'users.form.field');
      return !(OWN_ACCOUNT_FIELDS.includes(event.field) && isOwnRecord(context));
    },
    knownLink: ({ context, event }) => {
      assertEvent(event, 'users.form.removeLink');
      return context.links.some((link) => link.id === event.linkId);
    },
  },
  actions: {
    storeOptions: assign(
      (
        _,
        options: { roles: Role[]; departments: Department[]; instances: InstanceOption[]; links: UserInstanceLink[] },
      ) => ({
        ...options,
        error: null,
      }),
    ),
    loadFailed: assign((_, params: { error: unknown }) => ({
      error: actionError('users.errors.formLoad', params.error),
    })),
    setField: assign(({ context, event }) => {
      assertEvent(event, 'users.form.field');
      const values = { ...context.values, [event.field]: event.value };
      const passwordScore =
        event.field === 'password' ? (event.value ? passwordStrength(event.value) : null) : context.passwordScore;
      const { [event.field]: _cleared, ...invalid } = context.invalid;
      return { values, passwordScore, invalid };
    }),
    setRole: assign(({ context, event }) => {
      assertEvent(event, 'users.form.role');
      const { role_id: _cleared, ...invalid } = context.invalid;
      return { values: { ...context.values, role_id: event.roleId }, invalid };
    }),
    setDepartment: assign(({ context, event }) => {
      assertEvent(event, 'users.form.department');
      return { values: { ...context.values, user_department_id: event.departmentId } };
    }),
    toggleInstance: assign(({ context, event }) => {
      assertEvent(event, 'users.form.toggleInstance');
      const chosen = context.chosen.includes(event.instanceId)
        ? context.chosen.filter((id) => id !== event.instanceId)
        : [...context.chosen, event.instanceId];
      return { chosen };
    }),
    showInvalid: assign(({ context }) => ({ invalid: problemsOf(context) })),
    startRemoval: assign(({ event }) => {
      assertEvent(event, 'users.form.removeLink');
      return { removing: event.linkId, error: null };
    }),
    // A removal applies at once, outside the save: "Instância removida: Loja Centro".
    reportRemoved: emit(({ context }) =>
      succeeded('removeLink', {
        key: 'users.notices.linkRemoved',
        params: { name: context.links.find((l) => l.id === context.removing)?.instance.name ?? '' },
      }),
    ),
    linkRemoved: assign(({ context }) => {
      const link = context.links.find((l) => l.id === context.removing);
      return {
        removing: null,
        links: context.links.filter((l) => l.id !== context.removing),
        // The instance can be chosen again.
        instances: link ? [...context.instances, link.instance].sort((a, b) => a.id - b.id) : context.instances,
        error: null,
      };
    }),
    refused: assign((_, params: { key: I18nKey; error: unknown }) => ({
      error: actionError(params.key, params.error),
      invalid: refusedFields(params.error),
      removing: null,
    })),
    clearError: assign({ error: null }),
    noteRemote: assign(({ context, event }) => remoteNoted(context, event)),
    checked: assign({ remoteIds: () => [] }),
    conflictLive: assign((_, check: RemoteCheck<UserRow>) => ({ conflict: liveConflict(check, true), remoteIds: [] })),
    // Nothing unsaved: the form shows the user as stored now, and says what changed.
    refreshedLive: assign((_, check: RemoteCheck<UserRow>) => ({
      values: valuesOf(check.record),
      stored: valuesOf(check.record),
      storedRoleId: check.record.role.id,
      version: check.version,
      conflict: liveConflict(check, false),
      remoteIds: [],
    })),
    conflictSave: assign((_, params: { error: unknown }) => ({
      conflict: saveConflict(params.error),
      error: null,
      invalid: {},
    })),
    dismissConflict: assign({ conflict: null }),
    // The fields the user changed laid over the user as stored now; the typed password and chosen instances kept.
    reapplied: assign(({ context }, fresh: Reloaded) => {
      const now = valuesOf(fresh.user);
      const values = { ...now, password: context.values.password };
      for (const [key] of COMPARED)
        if (context.values[key] !== context.stored[key]) Object.assign(values, { [key]: context.values[key] });
      const linked = new Set(fresh.options.links.map((link) => link.instance.id));
      return {
        ...fresh.options,
        values,
        stored: now,
        storedRoleId: fresh.user.role.id,
        version: versionOf(fresh.user),
        chosen: context.chosen.filter((id) => !linked.has(id)),
        conflict: null,
        remoteIds: [],
        error: null,
      };
    }),
    discarded: assign((_, fresh: Reloaded) => ({
      ...fresh.options,
      values: valuesOf(fresh.user),
      stored: valuesOf(fresh.user),
      storedRoleId: fresh.user.role.id,
      version: versionOf(fresh.user),
      passwordScore: null,
      chosen: [],
      invalid: {},
      conflict: null,
      remoteIds: [],
      error: null,
    })),
    reloadFailed: assign((_, params: { error: unknown }) => ({
      error: actionError('conflict.errors.reload', params.error),
    })),
    // After removing a link of its own: the user's version moves by that change only, never past anyone else's.
    resynced: assign(({ context }, user: UserRow) => {
      const next = versionOf(user);
      const own =
        next !== null && context.version !== null && (next === context.version || next === context.version + 1);
      return own ? { version: next } : {};
    }),
    saved: assign((_, user: UserRow) => ({ saved: user, error: null })),
  },
}).createMachine({
  id: 'userForm',
  context: ({ input }) => {
    const user = input.mode === 'edit' ? input.user : null;
    return {
      execute: input.execute,
      mode: input.mode,
      userId: user?.id ?? null,
      subject: input.subject ?? null,
      storedRoleId: user?.role.id ?? null,
      values: user ? valuesOf(user) : emptyValues,
      stored: user ? valuesOf(user) : emptyValues,
      version: versionOf(user),
      bus: input.mode === 'edit' ? (input.bus ?? null) : null,
      conflict: null,
      remoteIds: [],
      passwordScore: null,
      roles: [],
      departments: [],
      instances: [],
      links: [],
      chosen: [],
      invalid: {},
      error: null,
      removing: null,
      saved: null,
    };
  },
  initial: 'loading',
  output: ({ context }) => context.saved ?? invalidState('done'),
  invoke: {
    id: 'watchTarget',
    src: 'watchTarget',
    input: ({ context }) => ({ bus: context.bus, targetType: 'user' as const, targetId: context.userId ?? 0 }),
  },
  // Noted anywhere; checked once the form is ready (src/machines/shared/conflict.ts).
  on: { 'conflict.remote': { guard: 'news', actions: 'noteRemote' } },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadFormOptions',
        src: 'loadFormOptions',
        input: ({ context }) => ({ execute: context.execute, userId: context.userId }),
        onDone: { target: 'ready', actions: { type: 'storeOptions', params: ({ event }) => event.output } },
        onError: {
          target: 'loadFailed',
          actions: { type: 'loadFailed', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loadFailed: {
      on: { 'users.form.reload': 'loading' },
    },
    ready: {
      always: { guard: 'remotePending', target: 'checking' },
      on: {
        ...EDITS,
        'conflict.remote': { guard: 'news', target: 'checking', actions: 'noteRemote' },
      },
    },
    // Whether an announced change is one the form has not loaded; the user keeps typing meanwhile.
    checking: {
      invoke: {
        id: 'checkRemote',
        src: 'checkRemote',
        input: ({ context }) => ({
          targetType: 'user' as const,
          targetId: context.userId ?? 0,
          version: context.version,
          ids: context.remoteIds,
          load: (signal: AbortSignal) => loadUserRow(context.execute, context.userId ?? 0, signal),
          audit: graphqlAuditReader(context.execute),
        }),
        ...remoteCheckTransitions({ conflict: 'conflict', form: 'ready' }),
      },
      on: {
        ...EDITS_EXISTING,
        'conflict.remote': { guard: 'news', target: 'checking', reenter: true, actions: 'noteRemote' },
      },
    },
    // The user's unsaved values beside the other person's change: reapply them or discard them.
    conflict: {
      on: {
        'conflict.reapply': { target: 'reapplying', actions: 'clearError' },
        'conflict.discard': { target: 'discarding', actions: 'clearError' },
      },
    },
    reapplying: conflictReload(reloadUser('reapplying'), 'reapplied', { done: 'reapplied', conflict: 'conflict' }),
    // Saved with the new version at once when the values pass the checks; otherwise shown to be corrected.
    reapplied: {
      always: [
        { guard: 'valid', target: 'updating' },
        { target: 'ready', actions: 'showInvalid' },
      ],
    },
    discarding: conflictReload(reloadUser('discarding'), 'discarded', { done: 'ready', conflict: 'conflict' }),
    removingLink: {
      tags: ['busy'],
      invoke: {
        id: 'removeLink',
        src: 'removeLink',
        input: ({ context }) => ({
          execute: context.execute,
          linkId: context.removing ?? invalidState('removingLink'),
        }),
        onDone: [
          { guard: 'creating', target: 'ready', actions: ['reportRemoved', 'linkRemoved'] },
          { target: 'resyncing', actions: ['reportRemoved', 'linkRemoved'] },
        ],
        onError: {
          target: 'ready',
          actions: { type: 'refused', params: ({ event }) => ({ key: 'users.errors.removeLink', error: event.error }) },
        },
      },
    },
    // The removal changed the user: the form takes the version it produced (src/machines/shared/conflict.ts).
    resyncing: {
      tags: ['busy'],
      invoke: {
        id: 'resync',
        src: 'loadUserRow',
        input: ({ context }) => ({ execute: context.execute, userId: context.userId ?? invalidState('resyncing') }),
        onDone: { target: 'ready', actions: { type: 'resynced', params: ({ event }) => event.output } },
        onError: 'ready',
      },
    },
    creating: {
      tags: ['busy'],
      invoke: {
        id: 'createUser',
        src: 'createUser',
        input: ({ context }) => ({ execute: context.execute, values: context.values, instanceIds: context.chosen }),
        onDone: { target: 'done', actions: { type: 'saved', params: ({ event }) => event.output } },
        onError: {
          target: 'ready',
          actions: { type: 'refused', params: ({ event }) => ({ key: 'users.errors.create', error: event.error }) },
        },
      },
    },
    updating: {
      tags: ['busy'],
      invoke: {
        id: 'updateUser',
        src: 'updateUser',
        input: ({ context }) => ({
          execute: context.execute,
          id: context.userId ?? invalidState('updating'),
          values: context.values,
          instanceIds: [...context.links.map((link) => link.instance.id), ...context.chosen],
          version: context.version,
        }),
        onDone: { target: 'done', actions: { type: 'saved', params: ({ event }) => event.output } },
        onError: [
          {
            guard: 'stale',
            target: 'conflict',
            actions: { type: 'conflictSave', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'ready',
            actions: { type: 'refused', params: ({ event }) => ({ key: 'users.errors.update', error: event.error }) },
          },
        ],
      },
    },
    done: { type: 'final' },
  },
});

/** Only reachable through a transition that skipped storing what the state needs: a bug, not a user error. */
function invalidState(state: string): never {
  throw new Error(`userForm: ${state} without its data`);
}

export type UserFormSnapshot = SnapshotFrom<typeof userFormMachine>;
