import {
  assertEvent,
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  sendTo,
  setup,
  spawnChild,
  type ActorRefFrom,
  type EventObject,
} from 'xstate';
import type { Execute } from '../../api/graphql-client';
import type { RestClient } from '../../api/rest-client';
import { findSystemActor, systemActor } from '../app/app-system';
import type { AppBus } from '../shared/app-bus';
import type { SessionNotice } from '../session/session.machine';
import { activityFeedMachine } from './activity-feed.machine';
import { linkPermissions } from './permissions-link';
import { linkPresenceOnLeave, sayConnected } from './presence-link';
import { windowPageHide, type CreateSocket } from './socket-actors';
import { socketMachine, type SocketEmitted, type SocketEvent } from './socket.machine';
import { socketTicketSource } from './socket-ticket';

/** What the realtime side needs besides the session, which it finds in the app system. */
export interface RealtimeInput {
  window: Window & typeof globalThis;
  bus: AppBus;
  /** The typed GraphQL client (presence's `connected`). */
  execute: Execute;
  /** The session's REST client: the socket's tickets (`POST /api/auth/socket-ticket`). */
  rest: RestClient;
  /** GraphQL over the session's token only while it is fresh, never refreshing (presence's `disconnected` on page hide). */
  executeIfFresh: Execute;
  socketUrl: string;
  /** The page's tenant (first path segment), read when the socket starts. */
  tenant: () => string;
  createSocket?: CreateSocket;
}

export interface RealtimeContext extends RealtimeInput {
  /** The session's token as it last told it (null while signed out): a refused older one needs no refresh. */
  token: string | null;
}

/** The socket's own events the realtime side answers (socket.machine.ts `SocketEmitted`). */
export type SocketNotice = Extract<
  SocketEmitted,
  { type: 'socket.connected' | 'socket.unauthorized' | 'socket.accessChanged' }
>;

export type RealtimeEvent =
  /** The tenant of the address changed (socket.md §4.4): the socket reconnects for it. */
  | { type: 'realtime.tenant'; tenantName: string }
  /** What the session told the root app machine, forwarded by it (session.machine.ts). */
  | SessionNotice
  /** What the socket emitted, relayed by the `socketEvents` actor. */
  | SocketNotice;

/** The socket's notices, as events of the realtime side. */
const socketEvents = fromCallback<EventObject>(({ system, sendBack }) => {
  const socket = systemActor(system, 'socket');
  const subscriptions = [
    socket.on('socket.connected', sendBack),
    socket.on('socket.unauthorized', sendBack),
    socket.on('socket.accessChanged', sendBack),
  ];
  return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
});

/**
 * The signed-in side of the app, its own chunk: the socket (`systemId` `socket`), the activity feed
 * it fills (`activityFeed`), presence and live permissions. The root app machine
 * (src/machines/app/app.machine.ts) loads it in an invoked state once a user has signed in, so the
 * login route carries none of it, runs it until the app stops, and forwards it the session's notices
 * (`session.signedIn`, `session.tokenChanged`, `session.signedOut`). The links are this chart's
 * transitions (socket.md §4.1, §4.3–4.6):
 *
 * - `signedOut` → `signedIn` at `session.signedIn`: the socket starts for that user (with the user's id,
 *   so after userInfo) in the page's tenant; back at `session.signedOut`, it stops (close 1000 "Logout").
 * - A new token (`session.tokenChanged`) reaches the socket as `socket.token`: one waiting after a refused
 *   ticket connects again. It does not reopen an open socket: that carries no token (each connection asks
 *   for a ticket), and the server re-checks its session when the token ends (§5).
 * - The socket refused (close 4401, `socket.unauthorized`): a session refresh for the refused token, or at
 *   once `socket.token` when the session already told a newer one than the refused ticket was asked with.
 * - A close 4000 (`socket.accessChanged`: the user's role changed) reloads the session's profile, as a
 *   role's permission change on the bus does (permissions-link.ts, §4.6).
 * - Each connection that opens (`socket.connected`) says presence `connected` (presence-link.ts); leaving
 *   the page says `disconnected`.
 *
 * Takes `realtime.tenant` too, forwarded to the socket while it runs.
 */
export const realtimeMachine = setup({
  types: {
    input: {} as RealtimeInput,
    context: {} as RealtimeContext,
    events: {} as RealtimeEvent,
  },
  actors: {
    activityFeed: activityFeedMachine,
    socket: socketMachine,
    socketEvents,
    connected: fromPromise<void, { execute: Execute }>(({ input }) => sayConnected(input.execute)),
    presenceOnLeave: fromCallback<EventObject, RealtimeInput>(({ input, system }) =>
      linkPresenceOnLeave({
        session: systemActor(system, 'session'),
        executeIfFresh: input.executeIfFresh,
        pageHide: windowPageHide(input.window),
      }),
    ),
    permissionsLink: fromCallback<EventObject, RealtimeInput>(({ input, system }) =>
      linkPermissions(systemActor(system, 'session'), input.bus),
    ),
  },
  guards: {
    refusedOlderToken: ({ context, event }) => {
      assertEvent(event, 'socket.unauthorized');
      return event.token !== context.token;
    },
  },
  actions: {
    tellSocket: enqueueActions(({ enqueue, system }, command: SocketEvent) => {
      // After page unload the socket machine is done for good, and gone from the system.
      const socket = findSystemActor(system, 'socket');
      if (socket?.getSnapshot().status === 'active') enqueue.sendTo(socket, command);
    }),
    takeToken: assign(({ event }) => {
      assertEvent(event, ['session.signedIn', 'session.tokenChanged']);
      return { token: event.token };
    }),
    forgetToken: assign({ token: null }),
    askRefresh: sendTo(
      ({ system }) => systemActor(system, 'session'),
      ({ event }) => {
        assertEvent(event, 'socket.unauthorized');
        return { type: 'session.refresh' as const, token: event.token };
      },
    ),
    reloadProfile: sendTo(({ system }) => systemActor(system, 'session'), { type: 'session.reloadProfile' as const }),
    sayConnected: spawnChild('connected', { input: ({ context }) => ({ execute: context.execute }) }),
  },
}).createMachine({
  id: 'realtime',
  context: ({ input }) => ({ ...input, token: null }),
  // In this order: the feed must hear the socket's first event, and the links find the socket started.
  invoke: [
    {
      src: 'activityFeed',
      id: 'activityFeed',
      systemId: 'activityFeed',
      input: ({ context }) => ({ bus: context.bus }),
    },
    {
      src: 'socket',
      id: 'socket',
      systemId: 'socket',
      input: ({ context, self }) => ({
        createSocket: context.createSocket ?? ((url: string) => new context.window.WebSocket(url)),
        // The session is looked up when a ticket is asked for, like every other use of it here.
        fetchTicket: () => socketTicketSource(context.rest, systemActor(self.system, 'session'))(),
        pageUrl: context.window.location.href,
        bus: context.bus,
        socketUrl: context.socketUrl,
        pageHide: windowPageHide(context.window),
      }),
    },
    { src: 'socketEvents', id: 'socketEvents' },
    { src: 'presenceOnLeave', input: ({ context }) => context },
    { src: 'permissionsLink', input: ({ context }) => context },
  ],
  on: {
    'realtime.tenant': {
      actions: {
        type: 'tellSocket',
        params: ({ event }) => ({ type: 'socket.tenant', tenantName: event.tenantName }),
      },
    },
  },
  initial: 'signedOut',
  states: {
    /** No one signed in: the socket is idle. */
    signedOut: {
      on: {
        'session.signedIn': {
          target: 'signedIn',
          actions: [
            'takeToken',
            {
              type: 'tellSocket',
              params: ({ context, event }) => ({
                type: 'socket.start',
                tenantName: context.tenant(),
                userId: event.userId,
              }),
            },
          ],
        },
      },
    },
    /** The socket runs for the signed-in user. */
    signedIn: {
      on: {
        'session.tokenChanged': { actions: ['takeToken', { type: 'tellSocket', params: { type: 'socket.token' } }] },
        'session.signedOut': {
          target: 'signedOut',
          actions: ['forgetToken', { type: 'tellSocket', params: { type: 'socket.stop' } }],
        },
        'socket.unauthorized': [
          { guard: 'refusedOlderToken', actions: { type: 'tellSocket', params: { type: 'socket.token' } } },
          { actions: 'askRefresh' },
        ],
        'socket.accessChanged': { actions: 'reloadProfile' },
        'socket.connected': { actions: 'sayConnected' },
      },
    },
  },
});

export type RealtimeLogic = typeof realtimeMachine;
export type RealtimeActor = ActorRefFrom<typeof realtimeMachine>;
