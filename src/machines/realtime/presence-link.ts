import type { Execute } from '../../api/graphql-client';
import { ConnectedDocument, DisconnectedDocument } from '../../generated/graphql-session';
import type { SessionActor } from '../session/session.machine';
import { selectFreshToken } from '../session/session-selectors';
import type { PageHideSource } from './socket-actors';
import type { SocketActor } from './socket.machine';

export interface PresenceDeps {
  session: SessionActor;
  socket: SocketActor;
  /** The session's GraphQL client (`connected`). */
  execute: Execute;
  /**
   * GraphQL over the session's token only while it is fresh, never refreshing and never reporting a
   * 401 to the session (`freshTokenFetch`, session-seam.ts): `disconnected` when the page is left.
   */
  executeIfFresh: Execute;
  pageHide?: PageHideSource;
  log?: (message: string, error: unknown) => void;
}

/**
 * Presence (docs/product.md, Presence: `isConnected` becomes true via the `connected` call, false via `disconnected`):
 * `connected` each time the signed-in user's socket opens (a reconnect after a network loss or a
 * server restart says so again); `disconnected` at logout (the session's `beforeLogout`, app-services.ts) and when the
 * page is left, as a keepalive request that outlives the page. Failures are only logged: presence
 * is a hint, never a reason to disturb the user.
 *
 * Leaving the page never refreshes the token: `disconnected` goes out with the current token only
 * while it is fresh, and is skipped otherwise. A refresh started there is cut off by the navigation,
 * possibly after the server rotated the token, so the next page would start from a superseded one.
 *
 * Known limit: with two tabs open, closing one marks the user offline until the other reconnects.
 */
export function linkPresence(deps: PresenceDeps): () => void {
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
    if (selectFreshToken(deps.session.getSnapshot()) === null) return;
    deps
      .executeIfFresh(DisconnectedDocument, {}, { keepalive: true })
      .catch((error: unknown) => log('presence: disconnected failed', error));
  });
  return () => {
    subscription.unsubscribe();
    stopPageHide?.();
  };
}
