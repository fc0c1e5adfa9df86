import { createActor, waitFor } from 'xstate';
import { createAppBus } from '../shared/app-bus';
import { socketMachine } from './socket.machine';
import { linkSocketToSession } from './socket-link';
import { socketTicketSource } from './socket-ticket';
import { fakeApi, flush, json, startSession, USER, type FakeApi } from '../test-support/session-fakes';
import { fakeSockets, TENANT } from '../test-support/socket-fakes';

/** A real session and a real socket machine, linked as realtime.ts does: tickets over the session's REST client. */
function linked(api: FakeApi = fakeApi()) {
  const sockets = fakeSockets();
  const session = startSession({ api });
  const socket = createActor(socketMachine, {
    input: {
      createSocket: sockets.create,
      fetchTicket: socketTicketSource(session.rest, session.actor),
      pageUrl: `http://127.0.0.1:8080/${TENANT}/`,
      bus: createAppBus(),
      log: () => undefined,
    },
  }).start();
  const unlink = linkSocketToSession(session.actor, socket, () => TENANT);
  return { ...session, socket, sockets, unlink };
}

const ticketCalls = (api: FakeApi) => api.calls('POST /api/auth/socket-ticket').map((c) => c.authorization);

async function signIn({ actor }: ReturnType<typeof linked>) {
  actor.send({ type: 'session.login', email: USER.email, password: 'x' });
  await waitFor(actor, (s) => s.hasTag('authenticated'));
  await flush();
}

describe('socket ↔ session link', () => {
  it('opens the socket on sign-in with a ticket asked with the session token; a refresh leaves it open; logout closes it', async () => {
    const env = linked();
    const { actor, socket, sockets, api } = env;
    expect(sockets.all).toHaveLength(0);
    await signIn(env);
    expect(ticketCalls(api)).toEqual(['Bearer T1']);
    expect(sockets.last().url).toBe(`ws://127.0.0.1:8080/ws?tenantName=${TENANT}&userId=${USER.id}&ticket=K1`);
    sockets.last().open();
    actor.send({ type: 'session.refresh', token: 'T1' });
    await waitFor(actor, (s) => s.context.token === 'T2');
    await flush();
    // The socket carries no token: a refresh neither closes it nor asks for a ticket.
    expect(sockets.all).toHaveLength(1);
    expect(sockets.last().state).toBe('open');
    expect(ticketCalls(api)).toEqual(['Bearer T1']);
    actor.send({ type: 'session.logout' });
    expect(sockets.last().closedWith).toEqual({ code: 1000, reason: 'Logout' });
    expect(socket.getSnapshot().value).toBe('idle');
    await flush();
    expect(api.calls('GRAPHQL refreshToken')).toHaveLength(1);
  });

  it('answers a refused ticket or session (4401) with one session refresh, then a new ticket with the new token', async () => {
    const env = linked();
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
    const env = linked();
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
    const env = linked(api);
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
    const env = linked(api);
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
    const env = linked();
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

  it('stops following after unlink', async () => {
    const env = linked();
    env.unlink();
    await signIn(env);
    expect(env.sockets.all).toHaveLength(0);
  });
});
