import { fromCallback, type EventObject } from 'xstate';
import { encodeClientFrame } from '../../domain/socket-codec';

/**
 * The socket machine's I/O: one WebSocket per `connection` actor, and the page lifecycle. The
 * WebSocket constructor comes through input, so tests hand in a fake.
 */

/** What the machine needs of a WebSocket (the browser's satisfies it). */
export interface WebSocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void;
  removeEventListener(type: 'open' | 'error', listener: () => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  removeEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void;
}

export type CreateSocket = (url: string) => WebSocketLike;

/** Events the connection reports to the machine. */
export type ConnectionEvent =
  | { type: 'socket.opened' }
  | { type: 'socket.frame'; data: string }
  | { type: 'socket.closed'; code: number; reason: string }
  | { type: 'socket.error' };

/** Commands the machine gives the connection. */
export type ConnectionCommand = { type: 'ping' } | { type: 'close'; code: number; reason: string };

export interface ConnectionInput {
  url: string;
  tenantName: string;
  userId: number;
  createSocket: CreateSocket;
  log: (message: string, detail?: unknown) => void;
}

/**
 * Opens one WebSocket and reports its life. A `close` command closes it deliberately and silences
 * it (no `socket.closed` comes back: the machine already left); stopping the actor without one
 * closes it with 1000 as well, so no socket outlives its state.
 */
export const connectionActor = fromCallback<ConnectionCommand, ConnectionInput>(({ input, sendBack, receive }) => {
  const report = (event: ConnectionEvent) => sendBack(event);
  let socket: WebSocketLike;
  try {
    socket = input.createSocket(input.url);
  } catch (error) {
    // A malformed address or a blocked scheme: treat like a connection that never opened.
    input.log('socket: could not connect', error);
    report({ type: 'socket.closed', code: 1006, reason: 'connect failed' });
    return undefined;
  }
  let done = false;
  const onOpen = () => report({ type: 'socket.opened' });
  const onError = () => report({ type: 'socket.error' });
  const onMessage = (event: { data: unknown }) => {
    if (typeof event.data === 'string') report({ type: 'socket.frame', data: event.data });
    else input.log('socket: binary frame dropped');
  };
  const onClose = (event: { code: number; reason: string }) => {
    done = true;
    report({ type: 'socket.closed', code: event.code, reason: event.reason });
  };
  socket.addEventListener('open', onOpen);
  socket.addEventListener('error', onError);
  socket.addEventListener('message', onMessage);
  socket.addEventListener('close', onClose);
  const silence = () => {
    socket.removeEventListener('open', onOpen);
    socket.removeEventListener('error', onError);
    socket.removeEventListener('message', onMessage);
    socket.removeEventListener('close', onClose);
  };
  const close = (code: number, reason: string) => {
    if (done) return;
    done = true;
    silence();
    socket.close(code, reason);
  };

  receive((command) => {
    if (command.type === 'close') close(command.code, command.reason);
    else if (!done)
      socket.send(encodeClientFrame({ event: 'ping', tenantName: input.tenantName, userId: input.userId }));
  });
  return () => {
    silence();
    close(1000, 'Closing');
  };
});

/** Subscribes to the page going away (`pagehide`/`beforeunload`); returns the unsubscribe function. */
export type PageHideSource = (listener: () => void) => () => void;

/** Reports page unload as `socket.unload`. */
export const pageLifecycleActor = fromCallback<EventObject, { pageHide: PageHideSource }>(({ input, sendBack }) =>
  input.pageHide(() => sendBack({ type: 'socket.unload' })),
);

/** The browser's page-hide signals as a {@link PageHideSource}. */
export function windowPageHide(target: Pick<Window, 'addEventListener' | 'removeEventListener'>): PageHideSource {
  return (listener) => {
    target.addEventListener('pagehide', listener);
    target.addEventListener('beforeunload', listener);
    return () => {
      target.removeEventListener('pagehide', listener);
      target.removeEventListener('beforeunload', listener);
    };
  };
}
