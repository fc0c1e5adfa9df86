/**
 * Stored sessions and waits shared by the session tests (src/machines/session/): another tab's
 * expired session and a fresh one on T1, storages holding them, the wait for a loaded profile, and
 * a count of the session's endings. The fakes they run against are in session-fakes.ts.
 */
import { waitFor } from 'xstate';
import type { SessionActor } from '../session/session.machine';
import { memoryStorage, writeStoredSession, type StoredSession } from '../session/session-storage';
import { fakeApi, NOW, startSession, USER, type RouteHandler } from './session-fakes';

/** Another tab's session: token T3, already expired locally (so `session.ensureFresh` refreshes it). */
export const remote: StoredSession = {
  token: 'T3',
  expiresAt: NOW - 1000,
  email: USER.email,
  originBackoffice: false,
  user: USER,
  permittedRoutes: ['users'],
  permissions: [],
  baseUrl: 'http://api.test',
};

/** Another tab's session of another user (id 7, another tenant), on token T8. */
export const remoteOtherUser: StoredSession = {
  ...remote,
  token: 'T8',
  email: 'outra@demo.local',
  user: { ...USER, id: 7, email: 'outra@demo.local', username: 'outra', tenantName: 'outra-farmacia' },
};

/** A session on T1 that stays fresh for ten minutes. */
export const T1_SESSION: StoredSession = {
  token: 'T1',
  expiresAt: NOW + 600_000,
  email: USER.email,
  originBackoffice: false,
  user: USER,
  permittedRoutes: ['users'],
  permissions: [],
  baseUrl: 'http://api.test',
};

/** The body of a 401 for an expired token: the seam refreshes the token and retries once. */
export const EXPIRED = { error: 'Token has expired' };

/** Resolves once the session is signed in with its profile loaded. */
export const loggedIn = (actor: SessionActor) =>
  waitFor(actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));

/** A storage holding `session`. */
export const stored = (session: StoredSession) => {
  const storage = memoryStorage();
  writeStoredSession(storage, session);
  return storage;
};

/** A storage holding {@link T1_SESSION}. */
export function storedT1() {
  const storage = memoryStorage();
  writeStoredSession(storage, T1_SESSION);
  return storage;
}

/** Counts the session's endings (authenticated → anything else) as they happen. */
export function countLogouts(actor: SessionActor) {
  let authenticated = actor.getSnapshot().hasTag('authenticated');
  const counter = { logouts: 0 };
  actor.subscribe((snapshot) => {
    if (authenticated && !snapshot.hasTag('authenticated')) counter.logouts += 1;
    authenticated = snapshot.hasTag('authenticated');
  });
  return counter;
}

/** A session on T1 whose profile load already finished, so only the test's requests are in flight. */
export async function ready(routes: Record<string, RouteHandler>) {
  const started = startSession({ storage: storedT1(), api: fakeApi(routes) });
  await waitFor(started.actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
  started.api.seen.length = 0;
  return { ...started, counter: countLogouts(started.actor) };
}
