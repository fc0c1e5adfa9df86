import type { SessionActor, SessionSnapshot } from '../session/session.machine';
import type { SocketActor, SocketEvent } from './socket.machine';

/**
 * Keeps the socket in step with the session (socket.md §4.1, §4.3–4.6): start once signed in (with
 * the user's id, so after userInfo), stop on sign-out, and answer a refused ticket or session (close
 * 4401) with a session refresh — or at once when the session already has a newer token than the one
 * the refused ticket was asked with. A new token does not reopen an open socket: it carries no token
 * (each connection asks for a ticket), and the server re-checks its session when the token ends (§5).
 * A close 4000 (the user's role changed) reloads the session's profile, as a role's permission change
 * does (§4.6).
 *
 * @param tenantName - the page's tenant (first path segment), read when the socket starts
 * @returns the unlink function
 */
export function linkSocketToSession(session: SessionActor, socket: SocketActor, tenantName: () => string): () => void {
  let started = false;
  let lastToken: string | null = null;
  const send = (event: SocketEvent) => {
    // After page unload the socket machine is done for good.
    if (socket.getSnapshot().status === 'active') socket.send(event);
  };

  const follow = (snapshot: SessionSnapshot) => {
    const { token, user } = snapshot.context;
    if (!snapshot.hasTag('authenticated')) {
      if (started) send({ type: 'socket.stop' });
      started = false;
      lastToken = null;
      return;
    }
    if (token === null || user === null || token === lastToken) return;
    lastToken = token;
    if (!started) send({ type: 'socket.start', tenantName: tenantName(), userId: user.id });
    // A socket waiting after a refused ticket connects again; any other state ignores it.
    else send({ type: 'socket.token' });
    started = true;
  };

  follow(session.getSnapshot());
  const sessionSubscription = session.subscribe(follow);
  const refusedSubscription = socket.on('socket.unauthorized', (event) => {
    const current = session.getSnapshot();
    if (!current.hasTag('authenticated') || current.context.token === null) return;
    if (current.context.token !== event.token) send({ type: 'socket.token' });
    else session.send({ type: 'session.refresh', token: event.token });
  });
  const accessSubscription = socket.on('socket.accessChanged', () => {
    if (session.getSnapshot().hasTag('authenticated')) session.send({ type: 'session.reloadProfile' });
  });
  return () => {
    sessionSubscription.unsubscribe();
    refusedSubscription.unsubscribe();
    accessSubscription.unsubscribe();
  };
}
