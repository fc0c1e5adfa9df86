import { assertEvent, enqueueActions, fromCallback, setup, type ActorRefFrom, type EventObject } from 'xstate';
import type { Execute } from '../../api/graphql-client';
import type { RestClient } from '../../api/rest-client';
import { findSystemActor, systemActor } from '../app/app-system';
import type { AppBus } from '../shared/app-bus';
import { activityFeedMachine } from './activity-feed.machine';
import { linkPermissions } from './permissions-link';
import { linkPresence } from './presence-link';
import { windowPageHide, type CreateSocket } from './socket-actors';
import { linkSocketToSession } from './socket-link';
import { socketMachine } from './socket.machine';
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

/** The tenant of the address changed (socket.md §4.4): the socket reconnects for it. */
export type RealtimeEvent = { type: 'realtime.tenant'; tenantName: string };

/**
 * The signed-in side of the app: the socket (`systemId` `socket`), the activity feed it fills
 * (`activityFeed`), presence and live permissions, linked to the session they find in the app
 * system (socket-link.ts, presence-link.ts, permissions-link.ts). Its own chunk: the root app
 * machine (src/machines/app/app.machine.ts) loads it in an invoked state once a user has signed in,
 * so the login route carries none of it, and then runs it until the app stops; it follows the
 * session by itself (stops the socket at sign-out, starts it again at the next sign-in).
 *
 * Takes `realtime.tenant`, forwarded to the socket while it runs.
 */
export const realtimeMachine = setup({
  types: {
    input: {} as RealtimeInput,
    context: {} as RealtimeInput,
    events: {} as RealtimeEvent,
  },
  actors: {
    activityFeed: activityFeedMachine,
    socket: socketMachine,
    socketLink: fromCallback<EventObject, RealtimeInput>(({ input, system }) =>
      linkSocketToSession(systemActor(system, 'session'), systemActor(system, 'socket'), input.tenant),
    ),
    presenceLink: fromCallback<EventObject, RealtimeInput>(({ input, system }) =>
      linkPresence({
        session: systemActor(system, 'session'),
        socket: systemActor(system, 'socket'),
        execute: input.execute,
        executeIfFresh: input.executeIfFresh,
        pageHide: windowPageHide(input.window),
      }),
    ),
    permissionsLink: fromCallback<EventObject, RealtimeInput>(({ input, system }) =>
      linkPermissions(systemActor(system, 'session'), input.bus),
    ),
  },
  actions: {
    tellSocket: enqueueActions(({ enqueue, system, event }) => {
      assertEvent(event, 'realtime.tenant');
      // After page unload the socket machine is done for good, and gone from the system.
      const socket = findSystemActor(system, 'socket');
      if (socket?.getSnapshot().status === 'active')
        enqueue.sendTo(socket, { type: 'socket.tenant', tenantName: event.tenantName });
    }),
  },
}).createMachine({
  id: 'realtime',
  context: ({ input }) => input,
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
        fetchTicket: socketTicketSource(context.rest, systemActor(self.system, 'session')),
        pageUrl: context.window.location.href,
        bus: context.bus,
        socketUrl: context.socketUrl,
        pageHide: windowPageHide(context.window),
      }),
    },
    { src: 'socketLink', input: ({ context }) => context },
    { src: 'presenceLink', input: ({ context }) => context },
    { src: 'permissionsLink', input: ({ context }) => context },
  ],
  on: {
    'realtime.tenant': { actions: 'tellSocket' },
  },
});

export type RealtimeLogic = typeof realtimeMachine;
export type RealtimeActor = ActorRefFrom<typeof realtimeMachine>;
