import type { SocketSnapshot } from './socket.machine';

/** What a view says of the socket: open, on its way (first connection or a reconnect), or neither. */
export type SocketConnectionState = 'connected' | 'connecting' | 'disconnected';

/** The socket's state from its tags (`open`, `connecting`, `reconnecting`). */
export function selectConnectionState(snapshot: SocketSnapshot): SocketConnectionState {
  if (snapshot.hasTag('open')) return 'connected';
  if (snapshot.hasTag('connecting') || snapshot.hasTag('reconnecting')) return 'connecting';
  return 'disconnected';
}
