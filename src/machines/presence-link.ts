import type { Execute } from '../api/graphql-client';
import { ConnectedDocument, DisconnectedDocument } from '../generated/graphql';
import type { SessionActor } from './session.machine';
import type { PageHideSource } from './socket-actors';
import type { SocketActor } from './socket.machine';

/**
 * Presence (SPEC §4: `isConnected` becomes true via the `connected` call, false via `disconnected`):
 * `connected` each time the signed-in user's socket opens (a reconnect after a network loss or a
 * server restart says so again); `disconnected` at logout (the session's `beforeLogout`, app-services.ts) and when the
 * page is left, as a keepalive request that outlives the page. Failures are only logged: presence
 * is a hint, never a reason to disturb the user.
 *
 * Known limit: with two tabs open, closing one marks the user offline until the other reconnects.
 */
export function linkPresence(deps: { session: SessionActor; socket: SocketActor; execute: Execute; pageHide?: PageHideSource; log?: (message: string, error: unknown) => void }): () => void {
  const log = deps.log ?? ((message, error) => console.info(message, error));
  let open = deps.socket.getSnapshot().hasTag('open');
  const subscription = deps.socket.subscribe((snapshot) => {
    const now = snapshot.hasTag('open');
    if (now && !open && deps.session.getSnapshot().hasTag('authenticated')) {
      deps.execute(ConnectedDocument).catch((error: unknown) => log('presence: connected failed', error));
    }
    open = now;
  });
  const stopPageHide = deps.pageHide?.(() => {
    if (!deps.session.getSnapshot().hasTag('authenticated')) return;
    deps.execute(DisconnectedDocument, {}, { keepalive: true }).catch((error: unknown) => log('presence: disconnected failed', error));
  });
  return () => {
    subscription.unsubscribe();
    stopPageHide?.();
  };
}
