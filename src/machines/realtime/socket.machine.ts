import {
  assertEvent,
  assign,
  emit,
  enqueueActions,
  fromPromise,
  sendTo,
  setup,
  type ActorRefFrom,
  type SnapshotFrom,
} from 'xstate';
import { decodeServerFrame } from '../../domain/socket-codec';
import type { AppBus, BusMessage } from '../shared/app-bus';
import {
  connectionActor,
  pageLifecycleActor,
  type ConnectionEvent,
  type CreateSocket,
  type PageHideSource,
} from './socket-actors';
import { buildSocketUrl, DEFAULT_SOCKET_URL, reconnectDelay } from '../../domain/socket-url';

/** Application ping interval (contracts/socket.md §4). */
export const PING_INTERVAL_MS = 300_000;
/** A connection open this long resets the reconnect attempt counter (socket.md §4.3). */
export const STABLE_AFTER_MS = 60_000;

/** A socket ticket (contracts/socket.md §1.1) and the session token it was asked with. */
export interface SocketTicket {
  ticket: string;
  /** The session's token when the ticket came back: a 4401 then asks to refresh this one (realtime.ts). */
  token: string | null;
}

export interface SocketInput {
  /** `(url) => new WebSocket(url)` in the browser; a fake in tests. */
  createSocket: CreateSocket;
  /**
   * A new single-use ticket (`POST /api/auth/socket-ticket` through the session's REST client, so a 401
   * refreshes the token first): asked before every connect and reconnect.
   */
  fetchTicket: () => Promise<SocketTicket>;
  /** The page's address (`location.href`), against which `socketUrl` resolves. */
  pageUrl: string;
  /** Where decoded events are forwarded. */
  bus: AppBus;
  /** `SOCKET_URL` setting; default `/ws`. */
  socketUrl?: string;
  /** Uniform in [0, 1) for the backoff jitter; default Math.random. */
  random?: () => number;
  /** Socket errors, closes and pongs are only logged (docs/product.md, Errors); default console.info. */
  log?: (message: string, detail?: unknown) => void;
  /** Page unload signal, e.g. `windowPageHide(window)`; default: none. */
  pageHide?: PageHideSource;
}

export interface SocketContext {
  deps: Required<SocketInput>;
  tenantName: string | null;
  userId: number | null;
  /** The ticket of the connection being opened (used once). */
  ticket: string | null;
  /** The session token that ticket was asked with. */
  token: string | null;
  /** Reconnect attempts since the last stable connection. */
  attempt: number;
  /** Delay before the next reconnect, drawn when the connection closed. */
  nextDelay: number;
  lastClose: { code: number; reason: string } | null;
}

export type SocketEvent =
  /** Signed in: connect (only when no socket exists). */
  | { type: 'socket.start'; tenantName: string; userId: number }
  /** Logout: close with 1000 "Logout", no reconnect until the next start. */
  | { type: 'socket.stop' }
  /** Page unload: close with 1000 "Page unload", never reconnect. */
  | { type: 'socket.unload' }
  /** The session has a new token: a socket waiting after a refused ticket (4401) connects again. */
  | { type: 'socket.token' }
  /** The tenant (first path segment) changed: reconnect for it at once. */
  | { type: 'socket.tenant'; tenantName: string }
  | ConnectionEvent;

/** Emitted for listeners (`actor.on(...)`); the bus gets the same decoded events. */
export type SocketEmitted =
  | { type: 'socket.message'; event: string; data: Record<string, unknown>; tenantName: string; sentAt: string }
  /** A connection opened (the first or a reconnect): presence says `connected` (realtime.ts). */
  | { type: 'socket.connected' }
  /** The server refused the ticket or the session (close 4401): ask the session for a refresh (realtime.ts does). */
  | { type: 'socket.unauthorized'; token: string | null }
  /** What the connection may see changed (close 4000: its role, its tenant's name); it reconnected at once. */
  | { type: 'socket.accessChanged'; reason: string };

const DELIBERATE: Partial<Record<SocketEvent['type'], string>> = {
  'socket.stop': 'Logout',
  'socket.unload': 'Page unload',
  'socket.tenant': 'Tenant changed',
};

/** Asks for a ticket (the machine's `ticket` actor). */
const ticketActor = fromPromise<SocketTicket, { fetchTicket: () => Promise<SocketTicket> }>(({ input }) =>
  input.fetchTicket(),
);

/**
 * The real-time socket (contracts/socket.md §4): connect when signed in, with a new single-use ticket
 * each time (never the token), ping at once on open and every 300000 ms, reconnect after 1000 ms then
 * with capped jittered backoff, never after unload; decoded frames go to the app bus. Tags: `open`,
 * `connecting`, `reconnecting`. States: `idle`, `signedIn` (from `socket.start` until `socket.stop`:
 * `ticket`, `connection`, `waiting`, `awaitingToken` after a refused ticket or session, `blocked` after
 * a forbidden tenant), `unloaded`.
 */
export const socketMachine = setup({
  types: {
    context: {} as SocketContext,
    events: {} as SocketEvent,
    input: {} as SocketInput,
    emitted: {} as SocketEmitted,
  },
  actors: { connection: connectionActor, pageLifecycle: pageLifecycleActor, ticket: ticketActor },
  guards: {
    refusedToken: ({ event }) => {
      assertEvent(event, 'socket.closed');
      return event.code === 4401;
    },
    forbidden: ({ event }) => {
      assertEvent(event, 'socket.closed');
      return event.code === 4403;
    },
    accessChanged: ({ event }) => {
      assertEvent(event, 'socket.closed');
      return event.code === 4000;
    },
  },
  actions: {
    takeCredentials: assign(({ event }) => {
      assertEvent(event, 'socket.start');
      return { tenantName: event.tenantName, userId: event.userId, attempt: 0 };
    }),
    takeTicket: assign((_, params: SocketTicket) => ({ ticket: params.ticket, token: params.token })),
    takeTenant: assign(({ event }) => {
      assertEvent(event, 'socket.tenant');
      return { tenantName: event.tenantName, attempt: 0 };
    }),
    forget: assign({ tenantName: null, userId: null, ticket: null, token: null, attempt: 0 }),
    countFailure: assign(({ context, event }) => {
      assertEvent(event, 'socket.closed');
      const attempt = context.attempt + 1;
      return {
        attempt,
        nextDelay: reconnectDelay(attempt, context.deps.random),
        lastClose: { code: event.code, reason: event.reason },
      };
    }),
    countTicketFailure: assign(({ context }) => {
      const attempt = context.attempt + 1;
      return { attempt, nextDelay: reconnectDelay(attempt, context.deps.random) };
    }),
    logTicketFailure: ({ context }, params: { error: unknown }) => context.deps.log('socket: no ticket', params.error),
    resetAttempts: assign({ attempt: 0 }),
    ping: sendTo('connection', { type: 'ping' }),
    // An exit action, so it reaches the connection before the connection is stopped.
    // Every way out of `connection`: a close the server started, or one of the DELIBERATE ones.
    closeDeliberately: sendTo('connection', ({ event }) => {
      assertEvent(event, ['socket.closed', 'socket.stop', 'socket.unload', 'socket.tenant']);
      return { type: 'close' as const, code: 1000, reason: DELIBERATE[event.type] ?? 'Closing' };
    }),
    logClose: ({ context, event }) => {
      assertEvent(event, 'socket.closed');
      context.deps.log(`socket: closed ${event.code} ${event.reason}`.trim());
    },
    logError: ({ context }) => context.deps.log('socket: error'),
    tellConnected: emit({ type: 'socket.connected' as const }),
    askForToken: emit(({ context }) => ({ type: 'socket.unauthorized' as const, token: context.token })),
    tellAccessChanged: emit(({ event }) => {
      assertEvent(event, 'socket.closed');
      return { type: 'socket.accessChanged' as const, reason: event.reason };
    }),
    // Decoding is pure; logging and publishing are enqueued, so they run as actions, not while deciding.
    handleFrame: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'socket.frame');
      const { log, bus } = context.deps;
      const decoded = decodeServerFrame(event.data);
      if (!decoded.ok) return enqueue(() => log(`socket: frame dropped (${decoded.reason})`));
      const message: BusMessage = decoded.event;
      if (message.tenantName !== context.tenantName)
        return enqueue(() => log(`socket: frame for tenant ${message.tenantName} dropped`));
      // The pong is only logged (contracts/socket.md §4).
      if (message.name === 'ping') return enqueue(() => log('socket: pong', message.data));
      enqueue(() => bus.publish(message));
      enqueue.emit({
        type: 'socket.message',
        event: message.name,
        data: message.data,
        tenantName: message.tenantName,
        sentAt: message.sentAt,
      });
    }),
  },
  delays: {
    pingInterval: PING_INTERVAL_MS,
    stableAfter: STABLE_AFTER_MS,
    reconnect: ({ context }) => context.nextDelay,
  },
}).createMachine({
  id: 'socket',
  initial: 'idle',
  context: ({ input }) => ({
    deps: {
      socketUrl: DEFAULT_SOCKET_URL,
      random: Math.random,
      log: (m, d) => console.info(m, d ?? ''),
      pageHide: () => () => undefined,
      ...input,
    },
    tenantName: null,
    userId: null,
    ticket: null,
    token: null,
    attempt: 0,
    nextDelay: 0,
    lastClose: null,
  }),
  invoke: { id: 'pageLifecycle', src: 'pageLifecycle', input: ({ context }) => ({ pageHide: context.deps.pageHide }) },
  on: {
    'socket.unload': '.unloaded',
  },
  states: {
    idle: {
      on: { 'socket.start': { target: 'signedIn', actions: 'takeCredentials' } },
    },
    signedIn: {
      initial: 'ticket',
      on: { 'socket.stop': { target: 'idle', actions: 'forget' } },
      states: {
        ticket: {
          tags: ['connecting'],
          invoke: {
            id: 'ticket',
            src: 'ticket',
            input: ({ context }) => ({ fetchTicket: context.deps.fetchTicket }),
            onDone: { target: 'connection', actions: { type: 'takeTicket', params: ({ event }) => event.output } },
            // No answer, or a refusal the session did not end with (a 401 there refreshes first):
            // a failed attempt, with the reconnect backoff.
            onError: {
              target: 'waiting',
              actions: [
                { type: 'logTicketFailure', params: ({ event }) => ({ error: event.error }) },
                'countTicketFailure',
              ],
            },
          },
          on: { 'socket.tenant': { target: 'ticket', reenter: true, actions: 'takeTenant' } },
        },
        connection: {
          tags: ['connecting'],
          invoke: {
            id: 'connection',
            src: 'connection',
            input: ({ context }) => ({
              url: buildSocketUrl(context.deps.socketUrl, context.deps.pageUrl, {
                tenantName: context.tenantName ?? '',
                userId: context.userId ?? 0,
                ticket: context.ticket ?? '',
              }),
              tenantName: context.tenantName ?? '',
              userId: context.userId ?? 0,
              createSocket: context.deps.createSocket,
              log: context.deps.log,
            }),
          },
          exit: 'closeDeliberately',
          initial: 'connecting',
          states: {
            connecting: { on: { 'socket.opened': 'open' } },
            open: {
              tags: ['open'],
              entry: 'tellConnected',
              after: { stableAfter: { actions: 'resetAttempts' } },
              initial: 'pinging',
              states: {
                pinging: {
                  entry: 'ping',
                  after: { pingInterval: { target: 'pinging', reenter: true } },
                },
              },
            },
          },
          on: {
            'socket.frame': { actions: 'handleFrame' },
            'socket.error': { actions: 'logError' },
            'socket.closed': [
              { guard: 'forbidden', target: 'blocked', actions: 'logClose' },
              { guard: 'refusedToken', target: 'awaitingToken', actions: ['logClose', 'askForToken'] },
              // Its role or its tenant's name changed: at once, with a new ticket (not a failure).
              { guard: 'accessChanged', target: 'ticket', actions: ['logClose', 'tellAccessChanged'] },
              { target: 'waiting', actions: ['logClose', 'countFailure'] },
            ],
            'socket.tenant': { target: 'ticket', actions: 'takeTenant' },
          },
        },
        waiting: {
          tags: ['reconnecting'],
          after: { reconnect: 'ticket' },
          on: { 'socket.tenant': { target: 'ticket', actions: 'takeTenant' } },
        },
        awaitingToken: {
          on: { 'socket.token': 'ticket' },
        },
        blocked: {
          on: { 'socket.tenant': { target: 'ticket', actions: 'takeTenant' } },
        },
      },
    },
    unloaded: { type: 'final' },
  },
});

/** A running socket machine. */
export type SocketActor = ActorRefFrom<typeof socketMachine>;
export type SocketSnapshot = SnapshotFrom<typeof socketMachine>;
