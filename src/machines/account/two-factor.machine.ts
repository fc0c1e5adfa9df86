import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../api/api-error';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import type { I18nKey } from '../../domain/i18n-key';
import { succeeded, type Outcome } from '../shared/outcome';
import { actionError, type ActionError } from '../shared/request-error';

export type TwoFactorStatus = components['schemas']['TwoFactorStatus'];
export type TwoFactorEnrolment = components['schemas']['TwoFactorEnrolment'];
export type TwoFactorActivated = components['schemas']['TwoFactorActivated'];

export interface TwoFactorInput {
  rest: RestClient;
}

export interface TwoFactorContext {
  rest: RestClient;
  status: TwoFactorStatus | null;
  /** The pending secret, its otpauth URI and QR code, while enrolment waits for a code. */
  enrolment: TwoFactorEnrolment | null;
  /** The code being sent (verify or disable). */
  code: string | null;
  /** The 10 recovery codes, held only while `showingCodes`: the server never shows them again. */
  recoveryCodes: string[] | null;
  loadError: ActionError | null;
  /** Why the typed code was refused (format, or the server said wrong): shown on the code field. */
  codeError: I18nKey | null;
  /** Any other failure of the last action. */
  error: ActionError | null;
  notice: I18nKey | null;
}

export type TwoFactorEvent =
  | { type: 'twoFactor.reload' }
  | { type: 'twoFactor.enrol' }
  | { type: 'twoFactor.cancel' }
  | { type: 'twoFactor.verify'; code: string }
  | { type: 'twoFactor.acknowledge' }
  | { type: 'twoFactor.disable'; code: string };

const TOTP = /^\d{6}$/;
const TOTP_OR_RECOVERY = /^(\d{6}|[A-Za-z2-7]{5}-?[A-Za-z2-7]{5})$/;

/** A typed code without the spaces people copy along (`123 456`). */
export const normaliseCode = (code: string) => code.replace(/\s+/g, '');

/** Why a code is refused before it is sent: enrolment takes the 6 digits; disabling also a recovery code. */
export function codeProblem(code: string, purpose: 'verify' | 'disable'): I18nKey | null {
  const value = normaliseCode(code);
  if (purpose === 'verify') return TOTP.test(value) ? null : 'twoFactor.errors.codeFormat';
  return TOTP_OR_RECOVERY.test(value) ? null : 'twoFactor.errors.disableCodeFormat';
}

/** The contract's "wrong code" answer: 400 on the `code` field (it also counts as a failed sign-in). */
const isWrongCode = (error: unknown) => error instanceof ApiError && error.status === 400;
/** 409: no pending enrolment, already on, or already off — the screen is stale, so reload the state. */
const isStale = (error: unknown) => error instanceof ApiError && error.status === 409;

/**
 * The `/two-factor` flow (docs/product.md, Two-factor sign-in): status (`GET /api/two-factor`), enrolment with the
 * server's secret, otpauth URI and SVG QR code (`POST /api/two-factor/enrol`), confirmation with a
 * 6-digit code (`POST /api/two-factor/verify`) whose answer carries the recovery codes exactly once,
 * and disabling with a code or a recovery code (`POST /api/two-factor/disable`).
 *
 * States: `loading`, `failed`, `disabled`, `enrolling`, `awaitingCode`, `verifying`, `showingCodes`,
 * `enabled`, `disabling` (calls tagged `busy`).
 */
export const twoFactorMachine = setup({
  types: {
    input: {} as TwoFactorInput,
    context: {} as TwoFactorContext,
    events: {} as TwoFactorEvent,
    emitted: {} as Outcome<'enable' | 'acknowledge' | 'disable'>,
  },
  actors: {
    loadStatus: fromPromise<TwoFactorStatus, { rest: RestClient }>(async ({ input, signal }) =>
      unwrap(await input.rest.GET('/api/two-factor', { signal })),
    ),
    enrol: fromPromise<TwoFactorEnrolment, { rest: RestClient }>(async ({ input }) =>
      unwrap(await input.rest.POST('/api/two-factor/enrol')),
    ),
    verify: fromPromise<TwoFactorActivated, { rest: RestClient; code: string }>(async ({ input }) =>
      unwrap(await input.rest.POST('/api/two-factor/verify', { body: { code: input.code } })),
    ),
    disable: fromPromise<TwoFactorStatus, { rest: RestClient; code: string }>(async ({ input }) =>
      unwrap(await input.rest.POST('/api/two-factor/disable', { body: { code: input.code } })),
    ),
  },
  guards: {
    isEnabled: ({ context }) => context.status?.enabled === true,
    validVerifyCode: ({ event }) => {
      assertEvent(event, 'twoFactor.verify');
      return codeProblem(event.code, 'verify') === null;
    },
    validDisableCode: ({ event }) => {
      assertEvent(event, 'twoFactor.disable');
      return codeProblem(event.code, 'disable') === null;
    },
    wrongCode: (_, params: { error: unknown }) => isWrongCode(params.error),
    stale: (_, params: { error: unknown }) => isStale(params.error),
  },
  actions: {
    storeStatus: assign((_, status: TwoFactorStatus) => ({ status, loadError: null })),
    loadFailed: assign((_, params: { error: unknown }) => ({
      loadError: actionError('twoFactor.errors.load', params.error),
    })),
    clearFeedback: assign({ codeError: null, error: null, notice: null }),
    takeCode: assign(({ event }) => {
      assertEvent(event, ['twoFactor.verify', 'twoFactor.disable']);
      return { code: normaliseCode(event.code) };
    }),
    refuseCode: assign((_, params: { codeError: I18nKey | null }) => ({ codeError: params.codeError, error: null })),
    storeEnrolment: assign((_, enrolment: TwoFactorEnrolment) => ({ enrolment })),
    dropEnrolment: assign({ enrolment: null, codeError: null, error: null }),
    activated: assign((_, answer: TwoFactorActivated) => ({
      status: { enabled: true, enrolled_at: answer.enrolled_at, recovery_codes_left: answer.recovery_codes.length },
      recoveryCodes: answer.recovery_codes,
      enrolment: null,
      code: null,
      notice: 'twoFactor.notices.enabled' as const,
    })),
    forgetCodes: assign({ recoveryCodes: null, notice: null }),
    // Outcomes (src/machines/shared/outcome.ts). While the recovery codes show, they are the feedback
    // (a toast would only cover them on a phone): enabling toasts once they are acknowledged.
    reportEnabled: emit({ type: 'outcome' as const, action: 'enable' as const, ok: true, toast: null }),
    reportAcknowledged: emit(succeeded('acknowledge', { key: 'twoFactor.notices.enabled' })),
    reportDisabled: emit(succeeded('disable', { key: 'twoFactor.notices.disabled' })),
    disabled: assign((_, status: TwoFactorStatus) => ({
      status,
      code: null,
      notice: 'twoFactor.notices.disabled' as const,
    })),
    codeRefused: assign({ codeError: 'twoFactor.errors.wrongCode' as const, code: null }),
    failed: assign((_, params: { key: I18nKey; error: unknown }) => ({
      error: actionError(params.key, params.error),
      code: null,
    })),
  },
}).createMachine({
  id: 'twoFactor',
  context: ({ input }) => ({
    rest: input.rest,
    status: null,
    enrolment: null,
    code: null,
    recoveryCodes: null,
    loadError: null,
    codeError: null,
    error: null,
    notice: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        input: ({ context }) => ({ rest: context.rest }),
        onDone: { target: 'deciding', actions: { type: 'storeStatus', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'loadFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: { on: { 'twoFactor.reload': 'loading' } },
    deciding: { always: [{ guard: 'isEnabled', target: 'enabled' }, { target: 'disabled' }] },
    disabled: { on: { 'twoFactor.enrol': { target: 'enrolling', actions: 'clearFeedback' } } },
    enrolling: {
      tags: ['busy'],
      invoke: {
        id: 'enrol',
        src: 'enrol',
        input: ({ context }) => ({ rest: context.rest }),
        onDone: { target: 'awaitingCode', actions: { type: 'storeEnrolment', params: ({ event }) => event.output } },
        onError: [
          {
            guard: { type: 'stale', params: ({ event }) => ({ error: event.error }) },
            target: 'loading',
            actions: { type: 'failed', params: ({ event }) => ({ key: 'twoFactor.errors.enrol', error: event.error }) },
          },
          {
            target: 'disabled',
            actions: { type: 'failed', params: ({ event }) => ({ key: 'twoFactor.errors.enrol', error: event.error }) },
          },
        ],
      },
    },
    awaitingCode: {
      on: {
        'twoFactor.verify': [
          { guard: 'validVerifyCode', target: 'verifying', actions: ['clearFeedback', 'takeCode'] },
          {
            actions: { type: 'refuseCode', params: ({ event }) => ({ codeError: codeProblem(event.code, 'verify') }) },
          },
        ],
        'twoFactor.enrol': { target: 'enrolling', actions: 'clearFeedback' },
        'twoFactor.cancel': { target: 'disabled', actions: 'dropEnrolment' },
      },
    },
    verifying: {
      tags: ['busy'],
      invoke: {
        id: 'verify',
        src: 'verify',
        input: ({ context }) => ({ rest: context.rest, code: context.code ?? '' }),
        onDone: {
          target: 'showingCodes',
          actions: [{ type: 'activated', params: ({ event }) => event.output }, 'reportEnabled'],
        },
        onError: [
          {
            guard: { type: 'wrongCode', params: ({ event }) => ({ error: event.error }) },
            target: 'awaitingCode',
            actions: 'codeRefused',
          },
          {
            guard: { type: 'stale', params: ({ event }) => ({ error: event.error }) },
            target: 'loading',
            actions: [
              'dropEnrolment',
              { type: 'failed', params: ({ event }) => ({ key: 'twoFactor.errors.verify', error: event.error }) },
            ],
          },
          {
            target: 'awaitingCode',
            actions: {
              type: 'failed',
              params: ({ event }) => ({ key: 'twoFactor.errors.verify', error: event.error }),
            },
          },
        ],
      },
    },
    showingCodes: {
      on: { 'twoFactor.acknowledge': { target: 'enabled', actions: ['forgetCodes', 'reportAcknowledged'] } },
    },
    enabled: {
      on: {
        'twoFactor.disable': [
          { guard: 'validDisableCode', target: 'disabling', actions: ['clearFeedback', 'takeCode'] },
          {
            actions: { type: 'refuseCode', params: ({ event }) => ({ codeError: codeProblem(event.code, 'disable') }) },
          },
        ],
      },
    },
    disabling: {
      tags: ['busy'],
      invoke: {
        id: 'disable',
        src: 'disable',
        input: ({ context }) => ({ rest: context.rest, code: context.code ?? '' }),
        onDone: {
          target: 'disabled',
          actions: [{ type: 'disabled', params: ({ event }) => event.output }, 'reportDisabled'],
        },
        onError: [
          {
            guard: { type: 'wrongCode', params: ({ event }) => ({ error: event.error }) },
            target: 'enabled',
            actions: 'codeRefused',
          },
          {
            guard: { type: 'stale', params: ({ event }) => ({ error: event.error }) },
            target: 'loading',
            actions: {
              type: 'failed',
              params: ({ event }) => ({ key: 'twoFactor.errors.disable', error: event.error }),
            },
          },
          {
            target: 'enabled',
            actions: {
              type: 'failed',
              params: ({ event }) => ({ key: 'twoFactor.errors.disable', error: event.error }),
            },
          },
        ],
      },
    },
  },
});

export type TwoFactorSnapshot = SnapshotFrom<typeof twoFactorMachine>;

/** The screen's phase: the machine's (flat) state. */
export const selectPhase = (s: TwoFactorSnapshot) => (typeof s.value === 'string' ? s.value : 'loading');
