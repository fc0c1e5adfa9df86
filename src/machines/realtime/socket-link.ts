import type { SessionActor, SessionSnapshot } from '../session/session.machine';
import type { SocketActor, SocketEvent } from './socket.machine';

/**
 * Keeps the socket in step with the session (socket.md §4.1, §4.3–4.5): start once signed in (with
 * the user's id, so after userInfo), reconnect with every new token, stop on sign-out, and answer a
 * refused token (close 4401) with a session refresh — or with the newer token the session already has.
 *
 * @param tenantName - the page's tenant (first path segment), read when the socket starts
 * @returns the unlink function
 */
export function linkSocketToSession(session: SessionActor, socket: SocketActor, tenantName: () => string): () => void {
  let given: string | null = null;
  const send = (event: SocketEvent) => {
    // After page unload the socket machine is done for good.
    if (socket.getSnapshot().status === 'active') socket.send(event);
  };

  const follow = (snapshot: SessionSnapshot) => {
    const { token, user } = snapshot.context;
    if (!snapshot.hasTag('authenticated')) {
      if (given !== null) send({ type: 'socket.stop' });
      given = null;
      return;
    }
    if (token === null || user === null || token === given) return;
    if (given === null) send({ type: 'socket.start', tenantName: tenantName(), userId: user.id, token });
    else send({ type: 'socket.token', token });
    given = token;
  };

  follow(session.getSnapshot());
  const sessionSubscription = session.subscribe(follow);
  const refusedSubscription = socket.on('socket.unauthorized', (event) => {
    const current = session.getSnapshot();
    if (!current.hasTag('authenticated') || current.context.token === null) return;
    if (current.context.token !== event.token) send({ type: 'socket.token', token: current.context.token });
    else session.send({ type: 'session.refresh', token: event.token });
  });
  return () => {
    sessionSubscription.unsubscribe();
    refusedSubscription.unsubscribe();
  };
}
