import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import { isValidRange, type DateRange } from '../../domain/date-range';
import type { I18nKey } from '../../domain/i18n-key';
import { LOGIN_FAILURE_REPORT_ROWS } from '../../domain/report-limits';
import { actionError, type ActionError } from '../shared/request-error';

/**
 * One failed sign-in: `ip` is the connection's address (as the trusted proxies tell it), `claimed_ip`
 * what the browser's IP lookup claimed; the screen shows them apart (contracts/openapi.yaml LoginFailure).
 */
export type LoginFailure = components['schemas']['LoginFailure'];

/** A user the report can be narrowed to. */
export type ReportUser = components['schemas']['ReportUser'];

export interface LoginFailureReportInput extends Partial<DateRange> {
  rest: RestClient;
  /** The tenant whose users fill the picker (the address's); absent means the caller's own. */
  tenantName?: string;
}

export interface LoginFailureReportContext {
  rest: RestClient;
  tenantName: string | undefined;
  range: DateRange;
  /** Empty: every user (the contract's rule for `selectedUsers`). */
  selectedUsers: number[];
  users: ReportUser[];
  /** The user picker could not be filled; the report still runs for every user. */
  usersError: ActionError | null;
  rows: LoginFailure[];
  /**
   * When the report stopped at its row limit (LOGIN_FAILURE_REPORT_ROWS): what the last run asked,
   * for the full CSV, and the period's real total (the login-failure sheet's count; null when it
   * could not be read, so "at least"). Null when the rows are all there is.
   */
  cut: { range: DateRange; selectedUsers: number[]; total: number | null } | null;
  /** A failed report is an empty list (docs/product.md, Errors); this says it failed. */
  error: ActionError | null;
  invalid: I18nKey | null;
}

export type LoginFailureReportEvent =
  | { type: 'reports.range'; startAt: string; finishAt: string }
  | { type: 'reports.toggleUser'; userId: number }
  | { type: 'reports.clearUsers' }
  | { type: 'reports.run' };

/**
 * The login-failure report (`/dashboard/report`, `/dashboard/report-smart`): failures between two
 * days for the selected users (`POST /api/dashboard-report`). The user picker is filled from
 * `GET /api/dashboard-report/users` (the tenant's users, under the report's own permission, so a
 * report-only role gets it too); when that fails the picker stays empty with `usersError` and the
 * report runs for every user. A failed report is an empty list plus `error`.
 *
 * States: `editing` (`loadingUsers`, `idle`, `done`), where the filters change and a run starts, and
 * `loading` (tag `busy`).
 */
export const loginFailureReportMachine = setup({
  types: {
    input: {} as LoginFailureReportInput,
    context: {} as LoginFailureReportContext,
    events: {} as LoginFailureReportEvent,
  },
  actors: {
    loadReportUsers: fromPromise<ReportUser[], { rest: RestClient; tenantName: string | undefined }>(
      async ({ input, signal }) =>
        unwrap(
          await input.rest.GET('/api/dashboard-report/users', {
            params: { query: input.tenantName ? { tenantName: input.tenantName } : {} },
            signal,
          }),
        ),
    ),
    loadLoginFailures: fromPromise<
      { rows: LoginFailure[]; cut: LoginFailureReportContext['cut'] },
      { rest: RestClient; range: DateRange; selectedUsers: number[] }
    >(async ({ input, signal }) => {
      const { rest, range, selectedUsers } = input;
      const rows = unwrap(
        await rest.POST('/api/dashboard-report', {
          body: { start_at: range.startAt, finish_at: range.finishAt, selectedUsers },
          signal,
        }),
      );
      if (rows.length < LOGIN_FAILURE_REPORT_ROWS) return { rows, cut: null };
      // Cut: the sheet of the same request counts every row (a one-row preview).
      const total = await rest
        .GET('/api/tenant/sheets/login_failures', {
          headers: { Accept: 'application/json' },
          params: { query: { ...range, ...(selectedUsers.length ? { userId: selectedUsers } : {}), limit: 1 } },
          signal,
        })
        .then((result) => {
          const body = unwrap(result);
          return typeof body === 'object' ? body.total : null;
        })
        .catch(() => null);
      return { rows, cut: { range, selectedUsers, total } };
    }),
  },
  guards: {
    validRange: ({ context }) => isValidRange(context.range),
  },
  actions: {
    storeUsers: assign((_, users: ReportUser[]) => ({ users })),
    usersFailed: assign((_, params: { error: unknown }) => ({
      users: [],
      usersError: actionError('reports.errors.users', params.error),
    })),
    setRange: assign(({ event }) => {
      assertEvent(event, 'reports.range');
      return { range: { startAt: event.startAt, finishAt: event.finishAt }, invalid: null };
    }),
    toggleUser: assign(({ context, event }) => {
      assertEvent(event, 'reports.toggleUser');
      const on = context.selectedUsers.includes(event.userId);
      return {
        selectedUsers: on
          ? context.selectedUsers.filter((id) => id !== event.userId)
          : [...context.selectedUsers, event.userId],
      };
    }),
    clearUsers: assign({ selectedUsers: () => [] }),
    refuseRange: assign({ invalid: 'reports.errors.range' as const }),
    storeRows: assign((_, result: { rows: LoginFailure[]; cut: LoginFailureReportContext['cut'] }) => ({
      rows: result.rows,
      cut: result.cut,
      error: null,
    })),
    reportFailed: assign((_, params: { error: unknown }) => ({
      rows: [],
      cut: null,
      error: actionError('reports.errors.loginFailures', params.error),
    })),
  },
}).createMachine({
  id: 'loginFailureReport',
  context: ({ input }) => ({
    rest: input.rest,
    tenantName: input.tenantName,
    range: { startAt: input.startAt ?? '', finishAt: input.finishAt ?? input.startAt ?? '' },
    selectedUsers: [],
    users: [],
    usersError: null,
    rows: [],
    cut: null,
    error: null,
    invalid: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      initial: 'loadingUsers',
      on: {
        'reports.range': { actions: 'setRange' },
        'reports.toggleUser': { actions: 'toggleUser' },
        'reports.clearUsers': { actions: 'clearUsers' },
        'reports.run': [{ guard: 'validRange', target: '#loginFailureReport.loading' }, { actions: 'refuseRange' }],
      },
      states: {
        loadingUsers: {
          invoke: {
            id: 'loadReportUsers',
            src: 'loadReportUsers',
            input: ({ context }) => ({ rest: context.rest, tenantName: context.tenantName }),
            onDone: { target: 'idle', actions: { type: 'storeUsers', params: ({ event }) => event.output } },
            onError: {
              target: 'idle',
              actions: { type: 'usersFailed', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        idle: {},
        done: {},
      },
    },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadLoginFailures',
        src: 'loadLoginFailures',
        input: ({ context }) => ({ rest: context.rest, range: context.range, selectedUsers: context.selectedUsers }),
        onDone: { target: 'editing.done', actions: { type: 'storeRows', params: ({ event }) => event.output } },
        onError: {
          target: 'editing.done',
          actions: { type: 'reportFailed', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
  },
});

export type LoginFailureReportSnapshot = SnapshotFrom<typeof loginFailureReportMachine>;

/** Until a run has answered (unless its range was refused) counts as loading; a failed run is an error. */
export function selectLoginFailureStatus(s: LoginFailureReportSnapshot): 'loading' | 'error' | 'ready' {
  if (s.hasTag('busy') || (!s.matches({ editing: 'done' }) && !s.context.invalid)) return 'loading';
  return s.context.error ? 'error' : 'ready';
}

/** The user picker is still being filled. */
export const selectLoadingUsers = (s: LoginFailureReportSnapshot) => s.matches({ editing: 'loadingUsers' });
