import { waitFor } from 'xstate';
import { createGraphqlClient } from '../../api/graphql-client';
import { linkPresenceOnLeave } from './presence-link';
import type { PageHideSource } from './socket-actors';
import { freshTokenFetch } from '../session/session-seam';
import { memoryStorage, writeStoredSession } from '../session/session-storage';
import type { SessionActor } from '../session/session.machine';
import { deferred } from '../test-support/fake-fetch';
import { fakeApi, flush, json, NOW, startSession, USER, type RouteHandler } from '../test-support/session-fakes';

const GRAPHQL_URL = 'http://api.test/farmacia-central/graphql';

/** A page the test can leave: every listener of the fake page-hide source runs. */
function leavablePage() {
  const listeners = new Set<() => void>();
  const pageHide: PageHideSource = (listener) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return { pageHide, leave: () => [...listeners].forEach((listener) => listener()) };
}

/**
 * A signed-in session on T1 (valid until NOW + 60 s on a clock the test moves), linked to presence as
 * realtime.ts wires it: `executeIfFresh` over freshTokenFetch (app-services.ts).
 */
async function signedIn(routes: Record<string, RouteHandler> = {}) {
  let now = NOW;
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
  const api = fakeApi({ 'GRAPHQL disconnected': () => json(200, { data: { disconnected: true } }), ...routes });
  const keepalive: boolean[] = [];
  const network = (request: Request) => {
    keepalive.push(request.keepalive);
    return api.fetch(request);
  };
  const session = startSession({ storage, api: { ...api, fetch: network }, now: () => now });
  await waitFor(session.actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
  const actorOf = (): SessionActor => session.actor;
  const page = leavablePage();
  const logged: string[] = [];
  const unlink = linkPresenceOnLeave({
    session: session.actor,
    executeIfFresh: createGraphqlClient({ url: () => GRAPHQL_URL, fetch: freshTokenFetch(actorOf, network) }).execute,
    pageHide: page.pageHide,
    log: (message) => logged.push(message),
  });
  api.seen.length = 0;
  keepalive.length = 0;
  return { ...session, ...page, keepalive, logged, unlink, setNow: (ms: number) => (now = ms) };
}

describe('presence: leaving the page', () => {
  it('says `disconnected` with the fresh token, as a keepalive request, and refreshes nothing', async () => {
    const { api, actor, leave, keepalive } = await signedIn();
    leave();
    await flush();
    expect(api.seen.map((c) => [c.route, c.authorization])).toEqual([['GRAPHQL disconnected', 'Bearer T1']]);
    expect(keepalive).toEqual([true]);
    expect(actor.getSnapshot().context.token).toBe('T1');
  });

  it('with a locally expired token sends nothing at all: no refresh, no `disconnected`', async () => {
    const { api, actor, leave, setNow, logged } = await signedIn();
    setNow(NOW + 60_000);
    leave();
    await flush();
    expect(api.seen).toEqual([]);
    expect(actor.getSnapshot().context.token).toBe('T1');
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(false);
    expect(logged).toEqual([]);
  });

  it('inside the expiry margin counts as expired too (the session would refresh before using it)', async () => {
    const { api, leave, setNow } = await signedIn();
    setNow(NOW + 60_000 - 4_000);
    leave();
    await flush();
    expect(api.seen).toEqual([]);
  });

  it('while a refresh is in flight sends nothing (the token is being replaced)', async () => {
    const answer = deferred<Response>();
    const { api, actor, leave } = await signedIn({ 'GRAPHQL refreshToken': () => answer.promise });
    actor.send({ type: 'session.refresh', token: 'T1' });
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    leave();
    await flush();
    expect(api.seen.map((c) => c.route)).toEqual(['GRAPHQL refreshToken']);
    answer.resolve(json(200, { data: { refreshToken: { token: 'T2', expires_in: 900 } } }));
    await waitFor(actor, (s) => s.context.token === 'T2');
    await flush();
    // Nothing waited for the refresh to send `disconnected` after it either.
    expect(api.seen.map((c) => c.route)).toEqual(['GRAPHQL refreshToken']);
  });

  it.each([
    ['refreshable', { error: 'Token has expired' }],
    ['terminal', { status: 'Unauthorized' }],
  ])('a %s 401 to `disconnected` neither refreshes nor ends the session: it is only logged', async (_kind, body) => {
    const { api, actor, leave, logged } = await signedIn({ 'GRAPHQL disconnected': () => json(401, body) });
    leave();
    await flush();
    await flush();
    expect(api.seen.map((c) => c.route)).toEqual(['GRAPHQL disconnected']);
    expect(actor.getSnapshot().hasTag('authenticated')).toBe(true);
    expect(actor.getSnapshot().context.token).toBe('T1');
    expect(logged).toEqual(['presence: disconnected failed']);
  });

  it('signed out: nothing is sent', async () => {
    const { api, actor, leave } = await signedIn();
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.matches({ auth: 'anonymous' }));
    api.seen.length = 0;
    leave();
    await flush();
    expect(api.seen).toEqual([]);
  });

  it('stops listening when unlinked', async () => {
    const { api, leave, unlink } = await signedIn();
    unlink();
    leave();
    await flush();
    expect(api.seen).toEqual([]);
  });
});
