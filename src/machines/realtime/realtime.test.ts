// @vitest-environment jsdom
import { createActor, fromPromise, SimulatedClock, waitFor, type EventObject } from 'xstate';
import { createGraphqlClient, type Execute } from '../../api/graphql-client';
import { createRestClient } from '../../api/create-rest-client';
import { appMachine, type AppActor } from '../app/app.machine';
import { systemActor } from '../app/app-system';
import { sessionFetch } from '../session/session-seam';
import { memoryStorage, writeStoredSession, type StorageChange } from '../session/session-storage';
import type { SessionActor, SessionInput } from '../session/session.machine';
import {
  assertFullCoverage,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  idleCallback,
  type GraphEvent,
} from '../test-support/graph-coverage';
import { fakeApi, flush, json, NOW, USER, type FakeApi } from '../test-support/session-fakes';
import { remoteOtherUser } from '../test-support/session-fixtures';
import { fakeSockets, TENANT } from '../test-support/socket-fakes';
import { realtimeTestInput } from '../test-support/realtime-fakes';
import { realtimeMachine, type RealtimeInput } from './realtime';
import type { PageHideSource } from './socket-actors';
import { socketMachine, type SocketTicket } from './socket.machine';

const GRAPHQL_URL = `http://api.test/${TENANT}/graphql`;

describe('realtime machine: model coverage', () => {
  /** What the walk's current actor asked of the session and of presence (reset for every path). */
  const asked = { refresh: [] as (string | null)[], reloadProfile: 0, connected: 0 };
  /** The actor's state and the asks before the step being checked (reset for every path). */
  const atStart = { signedIn: false, token: null as string | null, refresh: 0, reloadProfile: 0, connected: 0 };
  let previous = { ...atStart };

  // The socket is the real machine; its ticket never comes (nothing connects), its page never unloads.
  const machine = realtimeMachine.provide({
    actors: {
      socket: socketMachine.provide({
        actors: {
          ticket: heldPromise<SocketTicket, { fetchTicket: () => Promise<SocketTicket> }>(),
          pageLifecycle: idleCallback<EventObject, { pageHide: PageHideSource }>(),
        },
      }),
      connected: fromPromise<void, { execute: Execute }>(async () => {
        asked.connected += 1;
      }),
      presenceOnLeave: idleCallback<EventObject, RealtimeInput>(),
      permissionsLink: idleCallback<EventObject, RealtimeInput>(),
    },
    // The session is the root app machine's child (app.machine.ts): here only what is asked of it.
    actions: {
      askRefresh: ({ event }) => {
        if (event.type === 'socket.unauthorized') asked.refresh.push(event.token);
      },
      reloadProfile: () => {
        asked.reloadProfile += 1;
      },
    },
  });

  const events: GraphEvent<typeof machine>[] = [
    { type: 'session.signedIn', userId: USER.id, token: 'T1' },
    { type: 'session.tokenChanged', token: 'T2' },
    { type: 'session.signedOut' },
    { type: 'realtime.tenant', tenantName: 'outra-farmacia' },
    { type: 'socket.unauthorized', token: 'T1' },
    { type: 'socket.unauthorized', token: 'T2' },
    { type: 'socket.accessChanged', reason: 'Role changed' },
    { type: 'socket.connected' },
  ];

  it('reaches every state and transition, with no socket and nothing asked while signed out', async () => {
    const report = await exploreCoverage({
      machine,
      input: (): RealtimeInput => {
        asked.refresh.length = 0;
        asked.reloadProfile = 0;
        asked.connected = 0;
        previous = { ...atStart };
        const refused = () => Promise.reject(new Error('the realtime model reaches no server'));
        return realtimeTestInput({ fetch: refused, tenant: TENANT, createSocket: fakeSockets().create });
      },
      events,
      serializeContext: (context) => context.token,
      // After every step: the socket runs exactly while signed in, for the user the session named, and
      // the session's token is known exactly then. Asked of the session and presence in the step: a
      // refresh only for a refusal of the token the session last told (an older one is retried at once
      // with the newer), a profile reload for a changed access, `connected` for an opened connection;
      // nothing of it while signed out.
      onStep: ({ actor }, event) => {
        const snapshot = actor.getSnapshot();
        const signedIn = snapshot.matches('signedIn');
        const socket = systemActor(actor.system, 'socket').getSnapshot();
        expect(socket.matches('signedIn')).toBe(signedIn);
        expect(socket.context.userId).toBe(signedIn ? USER.id : null);
        expect(snapshot.context.token !== null).toBe(signedIn);
        const was = previous.signedIn;
        const refresh = was && event.type === 'socket.unauthorized' && event.token === previous.token;
        expect(asked.refresh.slice(previous.refresh)).toEqual(refresh ? [previous.token] : []);
        expect(asked.reloadProfile - previous.reloadProfile).toBe(was && event.type === 'socket.accessChanged' ? 1 : 0);
        expect(asked.connected - previous.connected).toBe(was && event.type === 'socket.connected' ? 1 : 0);
        previous = {
          signedIn,
          token: snapshot.context.token,
          refresh: asked.refresh.length,
          reloadProfile: asked.reloadProfile,
          connected: asked.connected,
        };
      },
    });
    console.info(`realtime: ${formatCoverage(report)}`);
    assertFullCoverage(report);
  });
});

/**
 * The root app machine with the real session, realtime side and socket machine, as app-services.ts
 * wires them: the socket's tickets and presence over the session's clients; the network is a
 * scripted API, the WebSocket a fake, the clock simulated (reconnect delays).
 */
/** The presence call each opened connection makes (docs/product.md, Presence). */
const presence = { 'GRAPHQL connected': () => json(200, { data: { connected: true } }) };

function linked(
  api: FakeApi = fakeApi(presence),
  tabs: Pick<SessionInput, 'storage' | 'storageEvents'> = {
    storage: memoryStorage(),
    storageEvents: () => () => undefined,
  },
) {
  const sockets = fakeSockets();
  const clock = new SimulatedClock();
  const holder: { app?: AppActor } = {};
  const session = (): SessionActor => {
    if (!holder.app) throw new Error('app not started');
    return systemActor(holder.app.system, 'session');
  };
  const authFetch = sessionFetch(session, api.fetch);
  const rest = createRestClient({ baseUrl: 'http://api.test', fetch: authFetch });
  const app = createActor(appMachine, {
    clock,
    input: {
      session: {
        rest,
        refreshGraphql: createGraphqlClient({ url: () => GRAPHQL_URL, fetch: api.fetch }),
        lookupIp: () => Promise.resolve('203.0.113.7'),
        ...tabs,
        now: () => NOW,
        baseUrl: 'http://api.test',
      },
      preferences: { storage: memoryStorage() },
      realtime: realtimeTestInput({ fetch: authFetch, tenant: TENANT, createSocket: sockets.create }),
      realtimeCode: { realtimeMachine },
    },
  });
  holder.app = app;
  app.start();
  const socket = () => systemActor(app.system, 'socket');
  return { app, actor: session(), api, sockets, socket, clock };
}

const ticketCalls = (api: FakeApi) => api.calls('POST /api/auth/socket-ticket').map((c) => c.authorization);

async function signIn({ actor }: ReturnType<typeof linked>) {
  actor.send({ type: 'session.login', email: USER.email, password: 'x' });
  await waitFor(actor, (s) => s.hasTag('authenticated'));
  await flush();
}

describe('realtime: the socket and the session, linked through the root app machine', () => {
  let app: AppActor | undefined;
  afterEach(() => app?.stop());
  const start = (api?: FakeApi, tabs?: Parameters<typeof linked>[1]) => {
    const env = linked(api, tabs);
    app = env.app;
    return env;
  };

  it('opens the socket on sign-in with a ticket asked with the session token; a refresh leaves it open; logout closes it', async () => {
    const env = start();
    const { actor, socket, sockets, api } = env;
    expect(sockets.all).toHaveLength(0);
    await signIn(env);
    expect(ticketCalls(api)).toEqual(['Bearer T1']);
    expect(sockets.last().url).toContain(`/ws?tenantName=${TENANT}&userId=${USER.id}&ticket=K1`);
    sockets.last().open();
    actor.send({ type: 'session.refresh', token: 'T1' });
    await waitFor(actor, (s) => s.context.token === 'T2');
    await flush();
    // The socket carries no token: a refresh neither closes it nor asks for a ticket.
    expect(sockets.all).toHaveLength(1);
    expect(sockets.last().state).toBe('open');
    expect(ticketCalls(api)).toEqual(['Bearer T1']);
    actor.send({ type: 'session.logout' });
    // Closed in the same step, before the logout request (and presence's `disconnected`) goes out.
    expect(sockets.last().closedWith).toEqual({ code: 1000, reason: 'Logout' });
    expect(socket().getSnapshot().value).toBe('idle');
    expect(api.calls('POST /api/auth/logout')).toHaveLength(0);
    await flush();
    expect(api.calls('GRAPHQL refreshToken')).toHaveLength(1);
  });

  it('answers a refused ticket or session (4401) with one session refresh, then a new ticket with the new token', async () => {
    const env = start();
    const { actor, sockets, api } = env;
    await signIn(env);
    sockets.last().drop(4401, 'Unauthorized');
    await waitFor(actor, (s) => s.context.token === 'T2');
    await flush();
    expect(api.calls('GRAPHQL refreshToken')).toEqual([expect.objectContaining({ authorization: 'Bearer T1' })]);
    expect(ticketCalls(api)).toEqual(['Bearer T1', 'Bearer T2']);
    expect(sockets.all).toHaveLength(2);
    expect(sockets.last().url).toContain('ticket=K2');
  });

  it('a 4401 after the session already moved to a newer token reconnects at once, without another refresh', async () => {
    const env = start();
    const { actor, sockets, api } = env;
    await signIn(env);
    sockets.last().open();
    actor.send({ type: 'session.refresh', token: 'T1' });
    await waitFor(actor, (s) => s.context.token === 'T2');
    sockets.last().drop(4401, 'Unauthorized');
    await flush();
    expect(api.calls('GRAPHQL refreshToken')).toHaveLength(1);
    expect(ticketCalls(api)).toEqual(['Bearer T1', 'Bearer T2']);
    expect(sockets.all).toHaveLength(2);
  });

  it('a ticket asked with an expired token gets a refresh first (the 401 classifier), then the socket opens', async () => {
    const api = fakeApi({
      'POST /api/auth/socket-ticket': (request) =>
        request.headers.get('Authorization') === 'Bearer T1'
          ? json(401, { error: 'Token has expired' })
          : json(200, { ticket: 'K9', expires_in: 30 }),
    });
    const env = start(api);
    await signIn(env);
    await waitFor(env.actor, (s) => s.context.token === 'T2');
    await flush();
    expect(ticketCalls(api)).toEqual(['Bearer T1', 'Bearer T2']);
    expect(env.sockets.last().url).toContain('ticket=K9');
  });

  it('when the refresh a refused ticket asks for gets no answer: the session stays, the socket waits, and the next token reconnects it', async () => {
    let refreshes = 0;
    const api = fakeApi({
      'GRAPHQL refreshToken': () =>
        ++refreshes === 1
          ? Promise.reject(new TypeError('Failed to fetch'))
          : json(200, { data: { refreshToken: { token: 'T2', expires_in: 900 } } }),
    });
    const env = start(api);
    const { actor, sockets } = env;
    await signIn(env);
    sockets.last().drop(4401, 'Unauthorized');
    await waitFor(actor, () => refreshes === 1);
    await flush();
    expect(actor.getSnapshot().hasTag('authenticated')).toBe(true);
    expect(actor.getSnapshot().context.token).toBe('T1');
    expect(sockets.all).toHaveLength(1);
    actor.send({ type: 'session.refresh', token: 'T1' });
    await waitFor(actor, (s) => s.context.token === 'T2');
    await flush();
    expect(sockets.all).toHaveLength(2);
    expect(ticketCalls(api)).toEqual(['Bearer T1', 'Bearer T2']);
  });

  it('a close 4000 (the role changed) reloads the profile and reconnects with a new ticket', async () => {
    const env = start();
    const { sockets, api } = env;
    await signIn(env);
    await flush();
    const profiles = api.calls('GET /api/auth/userInfo').length;
    sockets.last().open();
    sockets.last().drop(4000, 'Role changed');
    await flush();
    expect(api.calls('GET /api/auth/userInfo')).toHaveLength(profiles + 1);
    expect(ticketCalls(api)).toEqual(['Bearer T1', 'Bearer T1']);
    expect(sockets.all).toHaveLength(2);
    expect(api.calls('GRAPHQL refreshToken')).toHaveLength(0);
  });

  it('says presence `connected` each time a connection opens, a reconnect too, and nothing once signed out', async () => {
    const env = start();
    const { api } = env;
    const { actor, sockets, clock } = env;
    await signIn(env);
    expect(api.calls('GRAPHQL connected')).toHaveLength(0);
    sockets.last().open();
    await flush();
    expect(api.calls('GRAPHQL connected').map((c) => c.authorization)).toEqual(['Bearer T1']);
    sockets.last().drop(1006);
    clock.increment(60_000);
    await flush();
    expect(sockets.all).toHaveLength(2);
    sockets.last().open();
    await flush();
    expect(api.calls('GRAPHQL connected')).toHaveLength(2);
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.matches({ auth: 'anonymous' }));
    await flush();
    expect(api.calls('GRAPHQL connected')).toHaveLength(2);
  });

  it('signs in again after a logout: the same socket machine connects for the new sign-in', async () => {
    const env = start();
    const { actor, sockets, api } = env;
    await signIn(env);
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.matches({ auth: 'anonymous' }));
    await flush();
    expect(sockets.all).toHaveLength(1);
    await signIn(env);
    expect(sockets.all).toHaveLength(2);
    expect(sockets.last().url).toContain(`userId=${USER.id}&ticket=K2`);
    expect(ticketCalls(api)).toEqual(['Bearer T1', 'Bearer T1']);
  });

  it('another tab signed in as another user (seen as one storage change): the socket reconnects for that user', async () => {
    const storage = memoryStorage();
    const listeners = new Set<(change: StorageChange) => void>();
    const storageEvents = (listener: (change: StorageChange) => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    };
    const env = start(fakeApi(presence), { storage, storageEvents });
    const { sockets, api } = env;
    await signIn(env);
    sockets.last().open();
    await flush();
    const other = { ...remoteOtherUser, expiresAt: NOW + 600_000 };
    writeStoredSession(storage, other);
    listeners.forEach((listener) => listener({ key: null }));
    await flush();
    // The first user's socket is closed as a logout; the next one is the new user's, with its ticket.
    expect(sockets.all[0]!.closedWith).toEqual({ code: 1000, reason: 'Logout' });
    expect(sockets.all).toHaveLength(2);
    expect(sockets.last().url).toContain(`userId=${other.user!.id}&ticket=K2`);
    expect(ticketCalls(api)).toEqual(['Bearer T1', `Bearer ${other.token}`]);
  });

  it('closes the socket when the app stops, and connects nothing after', async () => {
    const env = start();
    const { app: running, sockets, api } = env;
    await signIn(env);
    sockets.last().open();
    running.stop();
    expect(sockets.last().state).toBe('closed');
    await flush();
    expect(sockets.all).toHaveLength(1);
    expect(ticketCalls(api)).toEqual(['Bearer T1']);
  });
});
