import { createActor } from 'xstate';
import type { Execute } from '../../api/graphql-client';
import type { RestClient } from '../../api/rest-client';
import { activityFeedMachine, type ActivityFeedActor } from './activity-feed.machine';
import type { AppBus } from '../shared/app-bus';
import { linkPermissions } from './permissions-link';
import { linkPresence } from './presence-link';
import type { SessionActor } from '../session/session.machine';
import { windowPageHide, type CreateSocket } from './socket-actors';
import { linkSocketToSession } from './socket-link';
import { socketMachine, type SocketActor } from './socket.machine';
import { socketTicketSource } from './socket-ticket';

/** The signed-in side of the app: the socket, the activity feed it fills, presence and live permissions. */
export interface Realtime {
  socket: SocketActor;
  /** The latest socket events, for the navbar's activity feed. */
  activityFeed: ActivityFeedActor;
  /** Stops the actors and unlinks them from the session. */
  stop(): void;
}

export interface RealtimeDeps {
  window: Window & typeof globalThis;
  session: SessionActor;
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

/**
 * Starts the socket, the activity feed and presence, linked to the session (socket-link.ts,
 * presence-link.ts), and reloads the session's permitted routes when its role's change
 * (permissions-link.ts). Its own chunk: the composition root (app-services.ts) loads it once a user has
 * signed in, so the login route carries none of it. From then on it follows the session by itself
 * (stops the socket at sign-out, starts it again at the next sign-in).
 */
export function startRealtime(deps: RealtimeDeps): Realtime {
  const { window, session, bus } = deps;
  // The feed first: it must hear the socket's first event.
  const activityFeed = createActor(activityFeedMachine, { input: { bus } });
  const socket = createActor(socketMachine, {
    input: {
      createSocket: deps.createSocket ?? ((url) => new window.WebSocket(url)),
      fetchTicket: socketTicketSource(deps.rest, session),
      pageUrl: window.location.href,
      bus,
      socketUrl: deps.socketUrl,
      pageHide: windowPageHide(window),
    },
  });
  activityFeed.start();
  socket.start();
  const unlinkSocket = linkSocketToSession(session, socket, deps.tenant);
  const unlinkPresence = linkPresence({
    session,
    socket,
    execute: deps.execute,
    executeIfFresh: deps.executeIfFresh,
    pageHide: windowPageHide(window),
  });
  const unlinkPermissions = linkPermissions(session, bus);
  return {
    socket,
    activityFeed,
    stop() {
      unlinkSocket();
      unlinkPresence();
      unlinkPermissions();
      socket.stop();
      activityFeed.stop();
    },
  };
}
