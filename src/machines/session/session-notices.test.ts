import { waitFor } from 'xstate';
import { memoryStorage, writeStoredSession } from './session-storage';
import type { SessionNotice } from './session.machine';
import { fakeApi, flush, json, startSession, storageHub, USER } from '../test-support/session-fakes';
import { T1_SESSION } from '../test-support/session-fixtures';
import { deferred } from '../test-support/fake-fetch';

/** A session whose notices (what the root app machine hears) are kept in order. */
function heard(options: Parameters<typeof startSession>[0] = {}) {
  const notices: SessionNotice[] = [];
  const session = startSession({ ...options, announce: (notice) => notices.push(notice) });
  return { ...session, notices };
}

describe('session: what it tells its owner', () => {
  it('a sign-in, each new token, then the sign-out before the logout request leaves', async () => {
    let noticesAtLogout: SessionNotice[] = [];
    const session = heard({
      beforeLogout: async () => {
        noticesAtLogout = [...session.notices];
      },
    });
    const { actor, notices, api } = session;
    expect(notices).toEqual([]);
    actor.send({ type: 'session.login', email: USER.email, password: 'x' });
    await waitFor(actor, (s) => s.hasTag('authenticated'));
    expect(notices).toEqual([{ type: 'session.signedIn', userId: USER.id, token: 'T1' }]);
    await flush();
    // A profile load that brings the same user says nothing.
    actor.send({ type: 'session.reloadProfile' });
    await waitFor(actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
    actor.send({ type: 'session.refresh', token: 'T1' });
    await waitFor(actor, (s) => s.context.token === 'T2');
    actor.send({ type: 'session.tokenRotated', token: 'T3', expiresIn: 900 });
    expect(notices.slice(1)).toEqual([
      { type: 'session.tokenChanged', token: 'T2' },
      { type: 'session.tokenChanged', token: 'T3' },
    ]);
    actor.send({ type: 'session.logout' });
    expect(notices.at(-1)).toEqual({ type: 'session.signedOut' });
    await waitFor(actor, (s) => s.matches({ auth: 'anonymous' }));
    expect(noticesAtLogout.at(-1)).toEqual({ type: 'session.signedOut' });
    expect(api.calls('POST /api/auth/logout')).toHaveLength(1);
    expect(notices).toHaveLength(4);
  });

  it('a stored session is signed in from the start', () => {
    const storage = memoryStorage();
    writeStoredSession(storage, T1_SESSION);
    const { notices } = heard({ storage });
    expect(notices).toEqual([{ type: 'session.signedIn', userId: USER.id, token: 'T1' }]);
  });

  it('a session stored without its user is signed in only once its profile brings the user', async () => {
    const storage = memoryStorage();
    writeStoredSession(storage, { ...T1_SESSION, user: null });
    const { actor, notices } = heard({ storage });
    expect(actor.getSnapshot().hasTag('authenticated')).toBe(true);
    expect(notices).toEqual([]);
    await waitFor(actor, (s) => s.context.user !== null);
    expect(notices).toEqual([{ type: 'session.signedIn', userId: USER.id, token: 'T1' }]);
  });

  it('without a user a new token says nothing yet; the profile then signs in with the newest token', async () => {
    const storage = memoryStorage();
    writeStoredSession(storage, { ...T1_SESSION, user: null });
    const profile = deferred<Response>();
    const api = fakeApi({ 'GET /api/auth/userInfo': () => profile.promise });
    const { actor, notices } = heard({ storage, api });
    actor.send({ type: 'session.refresh', token: 'T1' });
    await waitFor(actor, (s) => s.context.token === 'T2');
    expect(notices).toEqual([]);
    profile.resolve(json(200, { user: USER, has_permission_routes: ['users'] }));
    await waitFor(actor, (s) => s.context.user !== null);
    expect(notices).toEqual([{ type: 'session.signedIn', userId: USER.id, token: 'T2' }]);
  });

  it("another tab's token is a new token; another tab's logout, a sign-out", async () => {
    const hub = storageHub();
    writeStoredSession(hub.shared, T1_SESSION);
    const a = startSession({ ...hub.tab() });
    const b = heard({ ...hub.tab() });
    await flush();
    a.actor.send({ type: 'session.refresh', token: 'T1' });
    await waitFor(b.actor, (s) => s.context.token === 'T2');
    a.actor.send({ type: 'session.logout' });
    await waitFor(b.actor, (s) => s.matches({ auth: 'anonymous' }));
    expect(b.notices).toEqual([
      { type: 'session.signedIn', userId: USER.id, token: 'T1' },
      { type: 'session.tokenChanged', token: 'T2' },
      { type: 'session.signedOut' },
    ]);
  });

  it('a refused session (a terminal 401) is a sign-out', async () => {
    const { actor, notices } = heard();
    actor.send({ type: 'session.login', email: USER.email, password: 'x' });
    await waitFor(actor, (s) => s.hasTag('authenticated'));
    actor.send({ type: 'session.unauthorized', token: 'T1', body: { status: 'Unauthorized' }, attempt: 1 });
    expect(actor.getSnapshot().matches({ auth: 'anonymous' })).toBe(true);
    expect(notices.map((n) => n.type)).toEqual(['session.signedIn', 'session.signedOut']);
  });
});

describe('session: another user signed in by another tab', () => {
  const OTHER = {
    ...USER,
    id: 7,
    email: 'outra@demo.local',
    username: 'outra',
    tenantName: 'outra-farmacia',
  };

  // A browser reads storage when it handles a `storage` event, not when the other tab wrote it: a
  // tab that was frozen or busy while another tab signed out and signed in again as someone else
  // hears both writes as one change, and finds the other user's session already stored.
  it('is a sign-out and a sign-in for that user, never a new token of the user signed in before', async () => {
    const storage = memoryStorage();
    writeStoredSession(storage, T1_SESSION);
    const listeners = new Set<(change: { key: string | null }) => void>();
    const storageEvents = (listener: (change: { key: string | null }) => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    };
    const api = fakeApi({
      'GET /api/auth/userInfo': (request) =>
        json(200, {
          user: request.headers.get('Authorization') === 'Bearer T9' ? OTHER : USER,
          has_permission_routes: ['users'],
        }),
    });
    const { actor, notices } = heard({ storage, storageEvents, api });
    await waitFor(actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
    const profiles = api.calls('GET /api/auth/userInfo').length;

    writeStoredSession(storage, { ...T1_SESSION, token: 'T9', user: OTHER, email: OTHER.email });
    listeners.forEach((listener) => listener({ key: null }));

    expect(notices).toEqual([
      { type: 'session.signedIn', userId: USER.id, token: 'T1' },
      { type: 'session.signedOut' },
      { type: 'session.signedIn', userId: OTHER.id, token: 'T9' },
    ]);
    expect(actor.getSnapshot().context.user?.id).toBe(OTHER.id);
    // What the first user's profile said (routes, permissions) is asked again for the new one.
    await waitFor(actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
    expect(
      api
        .calls('GET /api/auth/userInfo')
        .slice(profiles)
        .map((c) => c.authorization),
    ).toEqual(['Bearer T9']);
  });
});
