import { unwrap } from '../../api/rest-client';
import { passwordProblem } from '../users/user-form-checks';
import type { ResetLinkSent, SupportPerson } from './support-actors';
import { createSupportActionMachine } from './support-action.machine';

/**
 * The desk's actions (docs/support-desk.md, REST operations), each an instance of the one action
 * machine (support-action.machine.ts) with its call, its confirmation rule and its words. Destructive
 * ones ask first: a two-factor reset (the authenticator is erased), ending sessions, blocking.
 */

const asPerson = (person: SupportPerson) => person;

export const liftThrottleMachine = createSupportActionMachine<Record<string, never>, SupportPerson>({
  id: 'supportLiftThrottle',
  run: async (rest, id, _params, signal) =>
    unwrap(await rest.POST('/api/support/users/{id}/lift-throttle', { params: { path: { id } }, body: {}, signal })),
  success: () => ({ key: 'support.done.liftThrottle' }),
  failure: () => 'support.failed.liftThrottle',
  person: asPerson,
});

/** The temporary password form: what is typed, checked with the strength rule of the user form. */
export interface TemporaryPasswordParams {
  password: string;
}

export const temporaryPasswordMachine = createSupportActionMachine<TemporaryPasswordParams, SupportPerson>({
  id: 'supportTemporaryPassword',
  run: async (rest, id, { password }, signal) =>
    unwrap(
      await rest.POST('/api/support/users/{id}/temporary-password', {
        params: { path: { id } },
        body: { password },
        signal,
      }),
    ),
  confirm: 'always',
  validate: ({ password }) => (password === '' ? 'users.form.required' : passwordProblem(password)),
  success: () => ({ key: 'support.done.temporaryPassword' }),
  failure: () => 'support.failed.temporaryPassword',
  person: asPerson,
});

export const resetLinkMachine = createSupportActionMachine<Record<string, never>, ResetLinkSent>({
  id: 'supportResetLink',
  run: async (rest, id, _params, signal) =>
    unwrap(await rest.POST('/api/support/users/{id}/reset-link', { params: { path: { id } }, body: {}, signal })),
  success: (_params, answer) => ({
    key: 'support.done.resetLink',
    // Minutes left as the server counts them (30 when just sent), never fewer than one.
    params: { count: Math.max(1, Math.round((Date.parse(answer.expires_at) - Date.now()) / 60_000)) },
  }),
  failure: () => 'support.failed.resetLink',
  // The answer says nothing of the person; the page asks again (a new audit record).
  person: () => null,
});

export type TwoFactorAction = 'reset' | 'require' | 'unrequire';

export const twoFactorMachine = createSupportActionMachine<{ action: TwoFactorAction }, SupportPerson>({
  id: 'supportTwoFactor',
  run: async (rest, id, { action }, signal) =>
    unwrap(
      await rest.POST('/api/support/users/{id}/two-factor', { params: { path: { id } }, body: { action }, signal }),
    ),
  confirm: ({ action }) => action === 'reset',
  success: ({ action }) => ({ key: `support.done.twoFactor.${action}` }),
  failure: ({ action }) => `support.failed.twoFactor.${action}`,
  person: asPerson,
});

/** One session (`sessionId`) or, null, all of them. */
export interface EndSessionsParams {
  sessionId: string | null;
  /** The session's device, for the confirmation ("Chrome 131 · Windows"); null for all or unknown. */
  device: string | null;
}

export const endSessionsMachine = createSupportActionMachine<EndSessionsParams, SupportPerson>({
  id: 'supportEndSessions',
  run: async (rest, id, { sessionId }, signal) =>
    unwrap(
      await rest.POST('/api/support/users/{id}/sessions/end', {
        params: { path: { id } },
        body: sessionId === null ? {} : { session_id: sessionId },
        signal,
      }),
    ),
  confirm: 'always',
  success: ({ sessionId }) => ({ key: sessionId === null ? 'support.done.endAll' : 'support.done.endOne' }),
  failure: ({ sessionId }) => (sessionId === null ? 'support.failed.endAll' : 'support.failed.endOne'),
  notFound: 'support.refusals.sessionGone',
  person: asPerson,
});

export const blockMachine = createSupportActionMachine<{ blocked: boolean }, SupportPerson>({
  id: 'supportBlock',
  run: async (rest, id, { blocked }, signal) =>
    unwrap(await rest.POST('/api/support/users/{id}/block', { params: { path: { id } }, body: { blocked }, signal })),
  confirm: ({ blocked }) => blocked,
  success: ({ blocked }) => ({ key: blocked ? 'support.done.block' : 'support.done.unblock' }),
  failure: ({ blocked }) => (blocked ? 'support.failed.block' : 'support.failed.unblock'),
  person: asPerson,
});

export const restoreMachine = createSupportActionMachine<Record<string, never>, SupportPerson>({
  id: 'supportRestore',
  run: async (rest, id, _params, signal) =>
    unwrap(await rest.POST('/api/support/users/{id}/restore', { params: { path: { id } }, body: {}, signal })),
  success: () => ({ key: 'support.done.restore' }),
  failure: () => 'support.failed.restore',
  person: asPerson,
});
