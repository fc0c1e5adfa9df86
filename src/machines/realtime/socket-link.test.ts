import { createActor, waitFor } from 'xstate';
import { createAppBus } from '../shared/app-bus';
import { socketMachine } from './socket.machine';
import { linkSocketToSession } from './socket-link';
import { fakeApi, flush, json, startSession, USER } from '../test-support/session-fakes';
import { fakeSockets, TENANT } from '../test-support/socket-fakes';

function linked(api = fakeApi()) {
  const sockets = fakeSockets();
  const session = startSession({ api });
  const socket = createActor(socketMachine, {
    input: {
      createSocket: sockets.create,
      pageUrl: `http://127.0.0.1:8080/${TENANT}/`,
      bus: createAppBus(),
      log: () => undefined,
    },
  }).start();
  const unlink = linkSocketToSession(session.actor, socket, () => TENANT);
  return { ...session, socket, sockets, unlink };
}

describe('socket ↔ session link', () => {
  it('opens the socket on sign-in, reconnects with each new token, and closes it on logout', async () => {
    const { actor, socket, sockets, api } = linked();
    expect(sockets.all).toHaveLength(0);
    actor.send({ type: 'session.login', email: USER.email, password: 'x' });
    await waitFor(actor, (s) => s.hasTag('authenticated'));
    expect(sockets.last().url).toBe(`ws://127.0.0.1:8080/ws?tenantName=${TENANT}&userId=${USER.id}&token=T1`);
    sockets.last().open();
    actor.send({ type: 'session.refresh', token: 'T1' });
    await waitFor(actor, (s) => s.context.token === 'T2');
    expect(sockets.all).toHaveLength(2);
    expect(sockets.all[0]?.closedWith).toEqual({ code: 1000, reason: 'Token refreshed' });
    expect(sockets.last().url).toContain('token=T2');
    actor.send({ type: 'session.logout' });
    expect(sockets.last().closedWith).toEqual({ code: 1000, reason: 'Logout' });
    expect(socket.getSnapshot().value).toBe('idle');
    await flush();
    expect(api.calls('GRAPHQL refreshToken')).toHaveLength(1);
  });

  it('answers a refused socket token (4401) with one session refresh, then reconnects with the new token', async () => {
    const { actor, sockets, api } = linked();
    actor.send({ type: 'session.login', email: USER.email, password: 'x' });
    await waitFor(actor, (s) => s.hasTag('authenticated'));
    sockets.last().drop(4401, 'Unauthorized');
    await waitFor(actor, (s) => s.context.token === 'T2');
    expect(api.calls('GRAPHQL refreshToken')).toEqual([expect.objectContaining({ authorization: 'Bearer T1' })]);
    expect(sockets.all).toHaveLength(2);
    expect(sockets.last().url).toContain('token=T2');
  });

  it('when the refresh a refused socket token asks for gets no answer: the session stays, the socket waits, and the next token reconnects it', async () => {
    let refreshes = 0;
    const api = fakeApi({
      'GRAPHQL refreshToken': () =>
        ++refreshes === 1
          ? Promise.reject(new TypeError('Failed to fetch'))
          : json(200, { data: { refreshToken: { token: 'T2', expires_in: 900 } } }),
    });
    const { actor, sockets } = linked(api);
    actor.send({ type: 'session.login', email: USER.email, password: 'x' });
    await waitFor(actor, (s) => s.hasTag('authenticated'));
    sockets.last().drop(4401, 'Unauthorized');
    await waitFor(actor, () => refreshes === 1);
    await flush();
    expect(actor.getSnapshot().hasTag('authenticated')).toBe(true);
    expect(actor.getSnapshot().context.token).toBe('T1');
    expect(sockets.all).toHaveLength(1);
    actor.send({ type: 'session.refresh', token: 'T1' });
    await waitFor(actor, (s) => s.context.token === 'T2');
    expect(sockets.all).toHaveLength(2);
    expect(sockets.last().url).toContain('token=T2');
  });

  it('stops following after unlink', async () => {
    const { actor, sockets, unlink } = linked();
    unlink();
    actor.send({ type: 'session.login', email: USER.email, password: 'x' });
    await waitFor(actor, (s) => s.hasTag('authenticated'));
    expect(sockets.all).toHaveLength(0);
  });
});
