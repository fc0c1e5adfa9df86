import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { Execute } from '../../api/graphql-client';
import { isValidEmail } from '../../domain/email';
import { UpdateUserDocument, UpdateUserPasswordDocument } from '../../generated/graphql';
import type { I18nKey } from '../../domain/i18n-key';
import { succeeded, type Outcome } from '../shared/outcome';
import { actionError, refusedFields, type ActionError } from '../shared/request-error';
import type { SessionEvent } from '../session/session.machine';
import { passwordProblem } from '../users/user-form.machine';

/** Where the settings tell the session what changed (the app's session actor). */
export interface SessionLink {
  send(event: SessionEvent): void;
}

export interface UserSettingsInput {
  execute: Execute;
  /** The signed-in user's id (settings change only one's own account). */
  userId: number;
  session: SessionLink;
}

/** One form's feedback: refusals per field, the failure of the whole call, the success notice. */
export interface FormFeedback {
  fieldErrors: Partial<Record<string, I18nKey>>;
  error: ActionError | null;
  notice: I18nKey | null;
}

export interface UserSettingsContext extends UserSettingsInput {
  profile: FormFeedback;
  password: FormFeedback;
  /** Held only while the call is in flight. */
  pendingProfile: { name: string; email: string; currentPassword: string | null } | null;
  pendingPassword: { password: string; currentPassword: string } | null;
}

export type UserSettingsEvent =
  | {
      type: 'settings.saveProfile';
      name: string;
      email: string;
      /** The address stored now: a different one is a new e-mail, proven with the current password. */
      currentEmail: string;
      currentPassword: string;
    }
  | { type: 'settings.changePassword'; password: string; confirmation: string; currentPassword: string };

const MAX_PASSWORD = 128;
const clean: FormFeedback = { fieldErrors: {}, error: null, notice: null };

/** Whether `email` is another address than the one stored (case and spaces do not count). */
export function isNewEmail(email: string, currentEmail: string): boolean {
  return email.trim().toLowerCase() !== currentEmail.trim().toLowerCase();
}

/**
 * Local checks of the name and email (the rules of `updateUser`); a new e-mail needs the current
 * password (contracts/schema.graphql `updateUser(current_password)`).
 */
export function profileProblems(
  name: string,
  email: string,
  currentEmail = email,
  currentPassword = '',
): Partial<Record<'name' | 'email' | 'currentPassword', I18nKey>> {
  const problems: Partial<Record<'name' | 'email' | 'currentPassword', I18nKey>> = {};
  const trimmed = name.trim();
  if (!trimmed) problems.name = 'settings.errors.nameRequired';
  else if (Array.from(trimmed).length > 120) problems.name = 'settings.errors.nameTooLong';
  const address = email.trim();
  if (!isValidEmail(address)) problems.email = 'settings.errors.emailInvalid';
  if (isNewEmail(email, currentEmail) && !currentPassword)
    problems.currentPassword = 'settings.errors.currentPasswordRequired';
  return problems;
}

/**
 * Local checks of a new password: the current one is given, weak ones are refused (with the reason),
 * and both entries must match.
 */
export function passwordProblems(
  password: string,
  confirmation: string,
  currentPassword = 'given',
): Partial<Record<'password' | 'confirmation' | 'currentPassword', I18nKey>> {
  const problems: Partial<Record<'password' | 'confirmation' | 'currentPassword', I18nKey>> = {};
  if (!currentPassword) problems.currentPassword = 'settings.errors.currentPasswordRequired';
  if (!password) problems.password = 'settings.errors.passwordRequired';
  else if (password.length > MAX_PASSWORD) problems.password = 'settings.errors.passwordTooLong';
  else {
    const weak = passwordProblem(password);
    if (weak) problems.password = weak;
  }
  if (password && confirmation !== password) problems.confirmation = 'settings.errors.passwordMismatch';
  return problems;
}

/** Server refusals of the profile, said precisely for the fields this form has. */
function profileRefusals(error: unknown): Partial<Record<string, I18nKey>> {
  const fields = refusedFields(error);
  return {
    ...(fields['name'] ? { name: 'settings.errors.nameRejected' as const } : {}),
    ...(fields['email'] ? { email: 'settings.errors.emailRejected' as const } : {}),
    ...(fields['current_password'] ? { currentPassword: 'settings.errors.currentPasswordWrong' as const } : {}),
  };
}

/**
 * The signed-in user's own settings (`/user-settings`): name and email with GraphQL `updateUser`
 * (every user may change their own; a FORBIDDEN from a server that disagrees is said as such; a new
 * e-mail is proven with the current password), and the password with `updateUserPassword`, proven with
 * the current one, which ends the user's other sessions and answers a new token of this one: the
 * session adopts it at once (`session.tokenRotated`) and reloads the profile.
 *
 * Parallel regions `profile` and `password`, each `idle` or calling (tag `busy`).
 */
export const userSettingsMachine = setup({
  types: {
    input: {} as UserSettingsInput,
    context: {} as UserSettingsContext,
    events: {} as UserSettingsEvent,
    // A saved profile or changed password (src/machines/shared/outcome.ts); refusals show on their card.
    emitted: {} as Outcome<'profile' | 'password'>,
  },
  actors: {
    saveProfile: fromPromise<
      void,
      { execute: Execute; id: number; name: string; email: string; currentPassword: string | null }
    >(async ({ input }) => {
      await input.execute(UpdateUserDocument, {
        id: input.id,
        name: input.name,
        email: input.email,
        ...(input.currentPassword ? { current_password: input.currentPassword } : {}),
      });
    }),
    changePassword: fromPromise<
      { token: string; expiresIn: number },
      { execute: Execute; password: string; currentPassword: string }
    >(async ({ input }) => {
      const { updateUserPassword } = await input.execute(UpdateUserPasswordDocument, {
        password: input.password,
        current_password: input.currentPassword,
      });
      return { token: updateUserPassword.token, expiresIn: updateUserPassword.expires_in };
    }),
  },
  guards: {
    validProfile: ({ event }) => {
      assertEvent(event, 'settings.saveProfile');
      return (
        Object.keys(profileProblems(event.name, event.email, event.currentEmail, event.currentPassword)).length === 0
      );
    },
    validPassword: ({ event }) => {
      assertEvent(event, 'settings.changePassword');
      return Object.keys(passwordProblems(event.password, event.confirmation, event.currentPassword)).length === 0;
    },
  },
  actions: {
    beginProfile: assign(({ event }) => {
      assertEvent(event, 'settings.saveProfile');
      return {
        pendingProfile: {
          name: event.name.trim(),
          email: event.email.trim(),
          // Sent only for a new e-mail: the server asks it for nothing else.
          currentPassword: isNewEmail(event.email, event.currentEmail) ? event.currentPassword : null,
        },
        profile: clean,
      };
    }),
    refuseProfile: assign(({ event }) => {
      assertEvent(event, 'settings.saveProfile');
      return {
        profile: {
          ...clean,
          fieldErrors: profileProblems(event.name, event.email, event.currentEmail, event.currentPassword),
        },
      };
    }),
    profileSaved: assign({ pendingProfile: null, profile: { ...clean, notice: 'settings.notices.profileSaved' } }),
    reportProfileSaved: emit(succeeded('profile', { key: 'settings.notices.profileSaved' })),
    reportPasswordChanged: emit(succeeded('password', { key: 'settings.notices.passwordChanged' })),
    profileFailed: assign((_, params: { error: unknown }) => ({
      pendingProfile: null,
      profile: {
        fieldErrors: profileRefusals(params.error),
        error: actionError('settings.errors.profile', params.error),
        notice: null,
      },
    })),
    beginPassword: assign(({ event }) => {
      assertEvent(event, 'settings.changePassword');
      return { pendingPassword: { password: event.password, currentPassword: event.currentPassword }, password: clean };
    }),
    refusePassword: assign(({ event }) => {
      assertEvent(event, 'settings.changePassword');
      return {
        password: {
          ...clean,
          fieldErrors: passwordProblems(event.password, event.confirmation, event.currentPassword),
        },
      };
    }),
    passwordChanged: assign({
      pendingPassword: null,
      password: { ...clean, notice: 'settings.notices.passwordChanged' },
    }),
    passwordFailed: assign((_, params: { error: unknown }) => ({
      pendingPassword: null,
      password: {
        fieldErrors: {
          ...(refusedFields(params.error)['password'] ? { password: 'settings.errors.passwordRejected' as const } : {}),
          ...(refusedFields(params.error)['current_password']
            ? { currentPassword: 'settings.errors.currentPasswordWrong' as const }
            : {}),
        },
        error: actionError('settings.errors.password', params.error),
        notice: null,
      },
    })),
    adoptToken: ({ context }, params: { token: string; expiresIn: number }) =>
      context.session.send({ type: 'session.tokenRotated', ...params }),
    reloadProfile: ({ context }) => context.session.send({ type: 'session.reloadProfile' }),
  },
}).createMachine({
  id: 'userSettings',
  type: 'parallel',
  context: ({ input }) => ({ ...input, profile: clean, password: clean, pendingProfile: null, pendingPassword: null }),
  states: {
    profile: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'settings.saveProfile': [
              { guard: 'validProfile', target: 'saving', actions: 'beginProfile' },
              { actions: 'refuseProfile' },
            ],
          },
        },
        saving: {
          tags: ['busy', 'savingProfile'],
          invoke: {
            id: 'saveProfile',
            src: 'saveProfile',
            input: ({ context }) => ({
              execute: context.execute,
              id: context.userId,
              name: context.pendingProfile?.name ?? '',
              email: context.pendingProfile?.email ?? '',
              currentPassword: context.pendingProfile?.currentPassword ?? null,
            }),
            onDone: { target: 'idle', actions: ['profileSaved', 'reloadProfile', 'reportProfileSaved'] },
            onError: {
              target: 'idle',
              actions: { type: 'profileFailed', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    password: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'settings.changePassword': [
              { guard: 'validPassword', target: 'changing', actions: 'beginPassword' },
              { actions: 'refusePassword' },
            ],
          },
        },
        changing: {
          tags: ['busy', 'changingPassword'],
          invoke: {
            id: 'changePassword',
            src: 'changePassword',
            input: ({ context }) => ({
              execute: context.execute,
              password: context.pendingPassword?.password ?? '',
              currentPassword: context.pendingPassword?.currentPassword ?? '',
            }),
            // The token first: every request after this answer must carry the new one.
            onDone: {
              target: 'idle',
              actions: [
                { type: 'adoptToken', params: ({ event }) => event.output },
                'passwordChanged',
                'reloadProfile',
                'reportPasswordChanged',
              ],
            },
            onError: {
              target: 'idle',
              actions: { type: 'passwordFailed', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
  },
});

export type UserSettingsSnapshot = SnapshotFrom<typeof userSettingsMachine>;
