import { waitFor } from 'xstate';
import { deferred } from '../test-support/fake-fetch';
import { fakeApi, json, NOW, startSession, USER } from '../test-support/session-fakes';
import { memoryStorage, readStoredSession, writeStoredSession } from './session-storage';
import type { SessionActor } from './session.machine';

/** `session.tokenRotated`: a token the server issued outside a refresh (GraphQL `updateUserPassword`). */

const signedIn = () => {
  const storage = memoryStorage();
  writeStoredSession(storage, {
    token: 'T1',
    expiresAt: NOW + 60_000,
    email: USER.email,
    originBackoffice: false,
    user: USER,
    permittedRoutes: ['users'],
    permissions: [],
    baseUrl: 'http://api.test',
  });
  return storage;
};
const ready = (actor: SessionActor) =>
  waitFor(actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));

describe('session machine: token rotated by the server', () => {
  it('adopts and persists the new token, so the next requests carry it', async () => {
    const storage = signedIn();
    const { actor, api, rest } = startSession({ storage });
    await ready(actor);
    actor.send({ type: 'session.tokenRotated', token: 'T9', expiresIn: 600 });
    expect(actor.getSnapshot().context).toMatchObject({ token: 'T9', expiresAt: NOW + 600_000 });
    expect(readStoredSession(storage, 'http://api.test')?.token).toBe('T9');
    await rest.GET('/api/auth/userInfo');
    expect(api.calls('GET /api/auth/userInfo').at(-1)?.authorization).toBe('Bearer T9');
    expect(actor.getSnapshot().hasTag('authenticated')).toBe(true);
  });

  it('ends a refresh of the revoked token with the rotated one, and ignores an empty token', async () => {
    const refresh = deferred<Response>();
    const api = fakeApi({ 'GRAPHQL refreshToken': () => refresh.promise });
    const { actor } = startSession({ storage: signedIn(), api });
    await ready(actor);
    actor.send({ type: 'session.tokenRotated', token: '', expiresIn: 600 });
    expect(actor.getSnapshot().context.token).toBe('T1');
    // The server closed the socket of the revoked token (4401) before the mutation's answer arrived.
    actor.send({ type: 'session.refresh', token: 'T1' });
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    actor.send({ type: 'session.tokenRotated', token: 'T9', expiresIn: 600 });
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(false);
    refresh.resolve(json(401, { status: 'Unauthorized' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().context.token).toBe('T9');
    expect(actor.getSnapshot().hasTag('authenticated')).toBe(true);
  });

  it('takes the email from a reloaded profile (the user may have changed it in their settings)', async () => {
    const asked: (string | null)[] = [];
    const api = fakeApi({
      'GET /api/auth/userInfo': () =>
        json(200, { user: { ...USER, email: 'olga@demo.local' }, has_permission_routes: ['users'] }),
      'GET /api/permission/email': (request) => (
        asked.push(new URL(request.url).searchParams.get('email')),
        json(200, [])
      ),
    });
    const { actor } = startSession({ storage: signedIn(), api });
    await ready(actor);
    expect(actor.getSnapshot().context.email).toBe('olga@demo.local');
    actor.send({ type: 'session.reloadProfile' });
    await ready(actor);
    expect(asked).toEqual([USER.email, 'olga@demo.local']);
  });

  it('is ignored while signed out', () => {
    const { actor } = startSession();
    actor.send({ type: 'session.tokenRotated', token: 'T9', expiresIn: 600 });
    expect(actor.getSnapshot().context.token).toBeNull();
    expect(actor.getSnapshot().hasTag('authenticated')).toBe(false);
  });
});
