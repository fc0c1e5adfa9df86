import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../api/api-error';
import { unwrap, type RestClient } from '../../api/rest-client';
import { newPasswordProblem, type NewPasswordProblem } from '../../domain/new-password';

export interface ResetPasswordInput {
  rest: RestClient;
  /** The link's token, read from the address's fragment (`#token=…`); empty when it has none. */
  token: string;
}

export interface ResetPasswordContext {
  rest: RestClient;
  token: string;
  /** The password being sent. */
  password: string;
  /** Why the typed password was not sent, or was refused by the server as weak. */
  problem: NewPasswordProblem | null;
}

export type ResetPasswordEvent =
  | { type: 'reset.submit'; password: string; confirmation: string }
  /** The user edits a field: the last refusal no longer describes what is typed. */
  | { type: 'reset.edit' };

/** 400 with `error: reset_link_invalid`: unknown, used, expired or voided (contracts/openapi.yaml). */
const isDeadLink = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 400 &&
  (error.body as { error?: unknown } | null)?.error === 'reset_link_invalid';
/** 400 on `body/password`: the strength rule (the link stays usable). */
const isWeak = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 400 &&
  ((error.body as { errors?: { field?: unknown }[] } | null)?.errors ?? []).some((e) => e.field === 'body/password');

/**
 * The `reset-password` page (docs/support-desk.md, Forgot password): the new password twice, checked
 * here as the server checks it, then `POST /api/auth/password-reset/confirm` with the link's token.
 * States: `noToken` (the address carries none), `editing` (with `problem`), `sending` (tag `busy`),
 * `done` (the page sends the user to the login page with a notice), `deadLink` (ask for a new one),
 * `failed` (no answer or a server failure: try again).
 */
export const resetPasswordMachine = setup({
  types: {
    input: {} as ResetPasswordInput,
    context: {} as ResetPasswordContext,
    events: {} as ResetPasswordEvent,
  },
  actors: {
    confirm: fromPromise<unknown, { rest: RestClient; token: string; password: string }>(async ({ input, signal }) =>
      unwrap(
        await input.rest.POST('/api/auth/password-reset/confirm', {
          body: { token: input.token, password: input.password },
          signal,
        }),
      ),
    ),
  },
  guards: {
    hasToken: ({ context }) => context.token !== '',
    acceptable: ({ event }) => {
      assertEvent(event, 'reset.submit');
      return newPasswordProblem(event.password, event.confirmation) === null;
    },
    deadLink: (_, params: { error: unknown }) => isDeadLink(params.error),
    weak: (_, params: { error: unknown }) => isWeak(params.error),
  },
  actions: {
    takePassword: assign(({ event }) => {
      assertEvent(event, 'reset.submit');
      return { password: event.password, problem: null };
    }),
    refuse: assign(({ event }) => {
      assertEvent(event, 'reset.submit');
      return { problem: newPasswordProblem(event.password, event.confirmation) };
    }),
    forget: assign({ password: '' }),
  },
}).createMachine({
  id: 'resetPassword',
  context: ({ input }) => ({ rest: input.rest, token: input.token, password: '', problem: null }),
  initial: 'start',
  states: {
    start: { always: [{ guard: 'hasToken', target: 'editing' }, { target: 'noToken' }] },
    noToken: {},
    editing: {
      on: {
        'reset.edit': { actions: assign({ problem: null }) },
        'reset.submit': [{ guard: 'acceptable', target: 'sending', actions: 'takePassword' }, { actions: 'refuse' }],
      },
    },
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'confirm',
        src: 'confirm',
        input: ({ context }) => ({ rest: context.rest, token: context.token, password: context.password }),
        onDone: { target: 'done', actions: 'forget' },
        onError: [
          {
            guard: { type: 'deadLink', params: ({ event }) => ({ error: event.error }) },
            target: 'deadLink',
            actions: 'forget',
          },
          {
            guard: { type: 'weak', params: ({ event }) => ({ error: event.error }) },
            target: 'editing',
            actions: [assign({ problem: 'weak' as const }), 'forget'],
          },
          { target: 'failed', actions: 'forget' },
        ],
      },
    },
    failed: {
      on: {
        'reset.submit': [
          { guard: 'acceptable', target: 'sending', actions: 'takePassword' },
          { target: 'editing', actions: 'refuse' },
        ],
      },
    },
    done: { type: 'final' },
    deadLink: { type: 'final' },
  },
});

export type ResetPasswordSnapshot = SnapshotFrom<typeof resetPasswordMachine>;

/** The token of a reset link's address fragment (`#token=…`), or '' when it has none. */
export function tokenFromFragment(hash: string): string {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
  return /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : '';
}
