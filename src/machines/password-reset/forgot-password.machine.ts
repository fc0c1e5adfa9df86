import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../api/api-error';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';

/** The languages the server writes its e-mails in (contracts/openapi.yaml `PasswordResetRequest.locale`). */
export type MailLocale = NonNullable<components['schemas']['PasswordResetRequest']['locale']>;

export interface ForgotPasswordInput {
  rest: RestClient;
}

export interface ForgotPasswordContext {
  rest: RestClient;
  /** The e-mail last sent, kept for the form when it opens again. */
  email: string;
  /** The language of the e-mail and of the answer. */
  locale: MailLocale;
  /** Seconds to wait after too many requests from this address (429). */
  retryAfter: number | null;
}

export type ForgotPasswordEvent =
  { type: 'forgot.open' } | { type: 'forgot.close' } | { type: 'forgot.submit'; email: string; locale: MailLocale };

/** 503 `mail_disabled` (contracts/openapi.yaml `ServiceUnavailable.error`): the server cannot send mail. */
const isMailDisabled = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 503 &&
  (error.body as { error?: unknown } | null)?.error === 'mail_disabled';
const isThrottled = (error: unknown) => error instanceof ApiError && error.status === 429;

/**
 * "Esqueci minha senha" on the login page (docs/support-desk.md, Forgot password): asks the server
 * whether reset links can be sent (`GET /api/auth/password-reset`), and when they can, takes the e-mail
 * and sends the request (`POST /api/auth/password-reset/request`), whose answer is the same whatever the
 * e-mail. States: `checking`, `closed` (the link), `disabled` (no mail: ask the provider's support),
 * `open` (the form; `error` child states say why the last request failed), `sending` (tag `busy`),
 * `sent` (the one confirmation).
 */
export const forgotPasswordMachine = setup({
  types: {
    input: {} as ForgotPasswordInput,
    context: {} as ForgotPasswordContext,
    events: {} as ForgotPasswordEvent,
  },
  actors: {
    status: fromPromise<{ enabled: boolean }, { rest: RestClient }>(async ({ input, signal }) =>
      unwrap(await input.rest.GET('/api/auth/password-reset', { signal })),
    ),
    request: fromPromise<unknown, { rest: RestClient; email: string; locale: MailLocale }>(async ({ input, signal }) =>
      unwrap(
        await input.rest.POST('/api/auth/password-reset/request', {
          body: { email: input.email, locale: input.locale },
          signal,
        }),
      ),
    ),
  },
  guards: {
    enabled: (_, params: { enabled: boolean }) => params.enabled,
    mailDisabled: (_, params: { error: unknown }) => isMailDisabled(params.error),
    throttled: (_, params: { error: unknown }) => isThrottled(params.error),
  },
  actions: {
    keepEmail: assign(({ event }) => {
      assertEvent(event, 'forgot.submit');
      return { email: event.email.trim(), locale: event.locale, retryAfter: null };
    }),
    keepRetryAfter: assign((_, params: { error: unknown }) => {
      const seconds = (
        params.error instanceof ApiError ? (params.error.body as { retry_after?: unknown } | null) : null
      )?.retry_after;
      return { retryAfter: typeof seconds === 'number' && seconds > 0 ? seconds : 3600 };
    }),
  },
}).createMachine({
  id: 'forgotPassword',
  context: ({ input }) => ({ rest: input.rest, email: '', locale: 'pt-BR', retryAfter: null }),
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        id: 'status',
        src: 'status',
        input: ({ context }) => ({ rest: context.rest }),
        onDone: [
          { guard: { type: 'enabled', params: ({ event }) => ({ enabled: event.output.enabled }) }, target: 'closed' },
          { target: 'disabled' },
        ],
        // The status could not be read: the link is offered, and the request says what the server says.
        onError: 'closed',
      },
      // Opened before the status came (a prerendered page): the request will say if mail is off.
      on: { 'forgot.open': 'open' },
    },
    closed: { on: { 'forgot.open': 'open' } },
    disabled: {},
    open: {
      initial: 'editing',
      on: { 'forgot.close': 'closed', 'forgot.submit': { target: 'sending', actions: 'keepEmail' } },
      states: {
        editing: {},
        throttled: {},
        failed: {},
      },
    },
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'request',
        src: 'request',
        input: ({ context }) => ({ rest: context.rest, email: context.email, locale: context.locale }),
        onDone: 'sent',
        onError: [
          { guard: { type: 'mailDisabled', params: ({ event }) => ({ error: event.error }) }, target: 'disabled' },
          {
            guard: { type: 'throttled', params: ({ event }) => ({ error: event.error }) },
            target: 'open.throttled',
            actions: { type: 'keepRetryAfter', params: ({ event }) => ({ error: event.error }) },
          },
          { target: 'open.failed' },
        ],
      },
    },
    sent: { on: { 'forgot.close': 'closed' } },
  },
});

export type ForgotPasswordSnapshot = SnapshotFrom<typeof forgotPasswordMachine>;
