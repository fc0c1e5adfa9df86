import type { Execute } from '../../api/graphql-client';
import { ConnectedDocument, DisconnectedDocument } from '../../generated/graphql-session';
import type { SessionActor } from '../session/session.machine';
import { selectFreshToken } from '../session/session-selectors';
import type { PageHideSource } from './socket-actors';

/** Presence failures are only logged: presence is a hint, never a reason to disturb the user. */
export type PresenceLog = (message: string, error: unknown) => void;

const defaultLog: PresenceLog = (message, error) => console.info(message, error);

/**
 * Presence (docs/product.md, Presence: `isConnected` becomes true via the `connected` call, false via
 * `disconnected`), said `connected` each time the signed-in user's socket opens (realtime.ts, at the
 * socket's `socket.connected`: a reconnect after a network loss or a server restart says so again).
 * `disconnected` goes out at logout (the session's `beforeLogout`, app-services.ts) and when the page
 * is left ({@link linkPresenceOnLeave}).
 *
 * Known limit: with two tabs open, closing one marks the user offline until the other reconnects.
 */
export async function sayConnected(execute: Execute, log: PresenceLog = defaultLog): Promise<void> {
  await execute(ConnectedDocument).catch((error: unknown) => log('presence: connected failed', error));
}

export interface PresenceOnLeaveDeps {
  session: SessionActor;
  /**
   * GraphQL over the session's token only while it is fresh, never refreshing and never reporting a
   * 401 to the session (`freshTokenFetch`, session-seam.ts): `disconnected` when the page is left.
   */
  executeIfFresh: Execute;
  pageHide?: PageHideSource;
  log?: PresenceLog;
}

/**
 * `disconnected` when the page is left, as a keepalive request that outlives the page.
 *
 * Leaving the page never refreshes the token: `disconnected` goes out with the current token only
 * while it is fresh, and is skipped otherwise. A refresh started there is cut off by the navigation,
 * possibly after the server rotated the token, so the next page would start from a superseded one.
 *
 * @returns the unlink function
 */
export function linkPresenceOnLeave(deps: PresenceOnLeaveDeps): () => void {
  const log = deps.log ?? defaultLog;
  const stopPageHide = deps.pageHide?.(() => {
    if (selectFreshToken(deps.session.getSnapshot()) === null) return;
    deps
      .executeIfFresh(DisconnectedDocument, {}, { keepalive: true })
      .catch((error: unknown) => log('presence: disconnected failed', error));
  });
  return () => stopPageHide?.();
}
