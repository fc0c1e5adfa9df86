import { and, assertEvent, assign, emit, setup, type SnapshotFrom } from 'xstate';
import type { Execute } from '../../api/graphql-client';
import type { Subject } from '../../domain/escalation';
import { passwordStrength, type PasswordScore } from '../../domain/password-strength';
import type { I18nKey } from '../../domain/i18n-key';
import { succeeded, type Outcome } from '../shared/outcome';
import { actionError, refusedFields, type ActionError } from '../shared/request-error';
import { problemsOf } from './user-form-checks';
import { isSelf } from './users-access';
import {
  userFormActors,
  type Department,
  type InstanceOption,
  type Role,
  type UserFormValues,
  type UserInstanceLink,
  type UserRow,
} from './users-actors';

/** `subject`: the signed-in user (users-access.ts), null when not known. */
export type UserFormInput =
  | { execute: Execute; subject?: Subject | null; mode: 'create' }
  | { execute: Execute; subject?: Subject | null; mode: 'edit'; user: UserRow };

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
}

export type UserFormEvent =
  | { type: 'users.form.field'; field: UserFormField; value: string }
  | { type: 'users.form.role'; roleId: number | null }
  | { type: 'users.form.department'; departmentId: number | null }
  | { type: 'users.form.toggleInstance'; instanceId: number }
  | { type: 'users.form.removeLink'; linkId: number }
  | { type: 'users.form.submit' }
  | { type: 'users.form.reload' };

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
export const userFormMachine = setup({
  types: {
    input: {} as UserFormInput,
    context: {} as UserFormContext,
    events: {} as UserFormEvent,
    output: {} as UserRow,
    emitted: {} as Outcome<'removeLink'>,
  },
  actors: userFormActors,
  guards: {
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
      values: user
        ? {
            username: user.username,
            name: user.name,
            email: user.email,
            password: '',
            role_id: user.role.id,
            user_department_id: user.userDepartment?.id ?? null,
          }
        : emptyValues,
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
      on: {
        'users.form.field': { guard: 'editable', actions: 'setField' },
        'users.form.role': { actions: 'setRole' },
        'users.form.department': { actions: 'setDepartment' },
        'users.form.toggleInstance': { actions: 'toggleInstance' },
        'users.form.removeLink': { guard: 'knownLink', target: 'removingLink', actions: 'startRemoval' },
        'users.form.submit': [
          { guard: and(['valid', 'creating']), target: 'creating', actions: 'clearError' },
          { guard: 'valid', target: 'updating', actions: 'clearError' },
          { actions: 'showInvalid' },
        ],
      },
    },
    removingLink: {
      tags: ['busy'],
      invoke: {
        id: 'removeLink',
        src: 'removeLink',
        input: ({ context }) => ({
          execute: context.execute,
          linkId: context.removing ?? invalidState('removingLink'),
        }),
        onDone: { target: 'ready', actions: ['reportRemoved', 'linkRemoved'] },
        onError: {
          target: 'ready',
          actions: { type: 'refused', params: ({ event }) => ({ key: 'users.errors.removeLink', error: event.error }) },
        },
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
        }),
        onDone: { target: 'done', actions: { type: 'saved', params: ({ event }) => event.output } },
        onError: {
          target: 'ready',
          actions: { type: 'refused', params: ({ event }) => ({ key: 'users.errors.update', error: event.error }) },
        },
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
