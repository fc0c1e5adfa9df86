import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { BEFORE_LOGOUT_MS, initialContext } from './session-context';
import { sessionSetup } from './session-setup';

export * from './session-context';

/**
 * The session (docs/product.md, Sessions): restore, login, logout, the 401 policy and cross-tab sync.
 *
 * Read with tags: `authenticated` (signed in), `refreshing`, `busy` (login or logout in flight),
 * `token` (a token exists, so requests carry it), and the selectors of session-selectors.ts. Write
 * with the {@link SessionEvent}s. The HTTP clients reach it through `sessionSeam` (session-seam.ts).
 */
export const sessionMachine = sessionSetup.createMachine({
  id: 'session',
  type: 'parallel',
  context: ({ input }) => initialContext(input),
  invoke: {
    id: 'crossTab',
    src: 'crossTab',
    input: ({ context }) => ({
      events: context.deps.storageEvents,
      storage: context.deps.storage,
      baseUrl: context.deps.baseUrl,
    }),
  },
  states: {
    ip: {
      initial: 'lookingUp',
      states: {
        lookingUp: {
          invoke: {
            id: 'lookupIp',
            src: 'lookupIp',
            input: ({ context }) => ({ lookup: context.deps.lookupIp }),
            onDone: { target: 'settled', actions: { type: 'storeIp', params: ({ event }) => ({ ip: event.output }) } },
            onError: { target: 'settled', actions: { type: 'storeIp', params: { ip: null } } },
          },
        },
        settled: {},
      },
    },
    auth: {
      initial: 'restoring',
      states: {
        restoring: {
          always: [{ guard: 'hasToken', target: 'authenticated' }, { target: 'anonymous' }],
        },
        anonymous: {
          on: {
            'session.login': { target: 'loggingIn', actions: 'startLogin' },
            'session.sync': { guard: 'remoteNewToken', target: 'restoring', actions: 'adoptStored' },
          },
        },
        /** The server asked for the second factor; the e-mail and password are held (memory only) until it is sent. */
        awaitingCode: {
          tags: ['twoFactor'],
          on: {
            'session.verifyCode': { target: 'loggingIn', actions: 'sendCode' },
            'session.cancelTwoFactor': { target: 'anonymous', actions: 'dropCredentials' },
            'session.login': { target: 'loggingIn', actions: 'startLogin' },
            'session.sync': {
              guard: 'remoteNewToken',
              target: 'restoring',
              actions: ['dropCredentials', 'adoptStored'],
            },
          },
        },
        loggingIn: {
          tags: ['busy'],
          initial: 'waitingForIp',
          states: {
            waitingForIp: {
              always: { guard: 'ipSettled', target: 'submitting' },
              after: { ipWait: 'submitting' },
            },
            submitting: {
              invoke: {
                id: 'login',
                src: 'login',
                input: ({ context }) => ({
                  rest: context.deps.rest,
                  email: context.credentials?.email ?? '',
                  password: context.credentials?.password ?? '',
                  ip: context.ip,
                  otp: context.credentials?.otp ?? null,
                  remember: context.credentials?.remember ?? false,
                }),
                onDone: [
                  {
                    guard: { type: 'responseHasToken', params: ({ event }) => ({ response: event.output }) },
                    target: '#session.auth.authenticated',
                    actions: [{ type: 'storeLogin', params: ({ event }) => ({ response: event.output }) }, 'persist'],
                  },
                  {
                    target: '#session.auth.anonymous',
                    actions: { type: 'failLogin', params: { error: 'auth.login.noToken' } },
                  },
                ],
                onError: [
                  {
                    guard: { type: 'loginNeedsCode', params: ({ event }) => ({ error: event.error }) },
                    target: '#session.auth.awaitingCode',
                    actions: { type: 'askForCode', params: ({ event }) => ({ error: event.error }) },
                  },
                  {
                    guard: { type: 'loginEnrolmentExpired', params: ({ event }) => ({ error: event.error }) },
                    target: '#session.auth.anonymous',
                    actions: { type: 'failLogin', params: { error: 'auth.twoFactor.enrolmentExpired' } },
                  },
                  {
                    guard: { type: 'loginBadCode', params: ({ event }) => ({ error: event.error }) },
                    target: '#session.auth.awaitingCode',
                    actions: 'refuseCode',
                  },
                  {
                    // A closed company says so, never "wrong e-mail or password"; the form stays a sign-in form.
                    guard: { type: 'loginTenantDeleted', params: ({ event }) => ({ error: event.error }) },
                    target: '#session.auth.anonymous',
                    actions: { type: 'failLogin', params: { error: 'auth.login.tenantDeleted' } },
                  },
                  {
                    guard: { type: 'loginThrottled', params: ({ event }) => ({ error: event.error }) },
                    target: '#session.auth.anonymous',
                    actions: { type: 'throttleLogin', params: ({ event }) => ({ error: event.error }) },
                  },
                  {
                    target: '#session.auth.anonymous',
                    actions: { type: 'failLogin', params: { error: 'auth.login.failed' } },
                  },
                ],
              },
            },
          },
        },
        authenticated: {
          tags: ['authenticated', 'token'],
          type: 'parallel',
          on: {
            'session.logout': { target: 'loggingOut' },
            'session.sync': {
              guard: 'remoteSignedOut',
              target: 'anonymous',
              actions: { type: 'signOut', params: { reason: 'remote' } },
            },
            'session.redirected': { actions: 'clearRedirect' },
            'session.dismissNotice': { actions: 'clearNotice' },
            'session.recoveryCodesSeen': { actions: 'clearRecoveryCodes' },
          },
          states: {
            token: {
              initial: 'valid',
              // Valid or refreshing alike. While refreshing (single flight) a refreshable 401 waits for
              // the refresh; a terminal one for the current token ends the session. A newer token from
              // another tab, or a rotated one (the old token is revoked, so a refresh with it can only
              // fail), is taken at once instead of spending a refresh.
              on: {
                'session.unauthorized': {
                  guard: 'terminalUnauthorized',
                  target: '#session.auth.anonymous',
                  actions: ['clearStorage', { type: 'signOut', params: { reason: 'expired' } }],
                },
                'session.sync': { guard: 'remoteNewToken', target: '.valid', actions: 'adoptStored' },
                'session.tokenRotated': {
                  guard: 'rotatedToken',
                  target: '.valid',
                  actions: [
                    {
                      type: 'storeRefreshed',
                      params: ({ event }) => ({ token: event.token, expiresIn: event.expiresIn }),
                    },
                    'persist',
                  ],
                },
              },
              states: {
                valid: {
                  on: {
                    'session.ensureFresh': { guard: 'tokenExpired', target: 'refreshing' },
                    'session.refresh': { guard: 'refreshRequested', target: 'refreshing' },
                    // A stale 401 (an older token's) changes nothing; a terminal one falls to the parent.
                    'session.unauthorized': [
                      { guard: 'staleUnauthorized' },
                      { guard: 'refreshableUnauthorized', target: 'refreshing' },
                    ],
                  },
                },
                refreshing: {
                  tags: ['refreshing'],
                  invoke: {
                    id: 'refresh',
                    src: 'refresh',
                    input: ({ context }) => ({ graphql: context.deps.refreshGraphql, token: context.token ?? '' }),
                    onDone: {
                      target: 'valid',
                      actions: [{ type: 'storeRefreshed', params: ({ event }) => event.output }, 'persist'],
                    },
                    onError: [
                      {
                        guard: { type: 'refreshRefused', params: ({ event }) => ({ error: event.error }) },
                        target: '#session.auth.anonymous',
                        actions: ['clearStorage', { type: 'signOut', params: { reason: 'expired' } }],
                      },
                      // Not refused, e.g. the answer was lost: the server may have rotated the token all the
                      // same, and refreshing it again within the grace window gets the new one (docs/security.md).
                      // Keeping it, in storage too, keeps the session of this page and of the next one.
                      { target: 'valid' },
                    ],
                  },
                },
              },
            },
            profile: {
              initial: 'loading',
              states: {
                loading: {
                  // A reload asked for while one runs starts it again: the last answer reflects the last
                  // change (contracts/socket.md §4.6), and a reload right after sign-in asks userInfo too.
                  on: { 'session.reloadProfile': { target: 'loading', reenter: true, actions: 'settleProfile' } },
                  invoke: {
                    id: 'loadProfile',
                    src: 'loadProfile',
                    input: ({ context }) => ({
                      rest: context.deps.rest,
                      email: context.email,
                      userInfo: !context.profileFromLogin,
                    }),
                    onDone: {
                      target: 'ready',
                      actions: [{ type: 'storeProfile', params: ({ event }) => event.output }, 'persist'],
                    },
                    // A 401 is the seam's business; any other failure keeps what the session already knows.
                    onError: { target: 'ready', actions: 'settleProfile' },
                  },
                },
                ready: { on: { 'session.reloadProfile': { target: 'loading' } } },
              },
            },
          },
        },
        loggingOut: {
          tags: ['busy', 'token'],
          entry: 'clearStorage',
          invoke: {
            id: 'logout',
            src: 'logout',
            input: ({ context }) => ({
              rest: context.deps.rest,
              email: context.email,
              ip: context.ip,
              beforeLogout: context.deps.beforeLogout,
              waitMs: BEFORE_LOGOUT_MS,
            }),
            onDone: { target: 'anonymous', actions: { type: 'signOut', params: { reason: 'logout' } } },
            onError: { target: 'anonymous', actions: { type: 'signOut', params: { reason: 'logout' } } },
          },
        },
      },
    },
  },
});

/** A running session. */
export type SessionActor = ActorRefFrom<typeof sessionMachine>;
/** A session snapshot, for selectors. */
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;
