import type { Actor } from 'xstate';
import { createAppBus } from '../shared/app-bus';
import { socketMachine, type SocketInput, type SocketTicket } from '../realtime/socket.machine';
import type { WebSocketLike } from '../realtime/socket-actors';
import type { GraphEvent } from '../test-support/graph-paths';
import type { LiveModel } from './live-walk';
import { call, type LiveTarget } from './live-target';

type Socket = typeof socketMachine;

/** How long an event caused over REST may take to reach the socket. */
const EVENT_WAIT_MS = 5000;

/**
 * The socket machine against a live server (contracts/socket.md §4): each path connects with a real
 * ticket (`POST /api/auth/socket-ticket`, the kit's token) to the run's tenant as the kit's
 * administrator, pings on open, reconnects on a tenant change, closes on stop and unload. Live
 * properties: every connection used a ticket of its own; once open, a change made over REST (an
 * instance of the tenant renamed, `POST /api/instance/update`) arrives as `InstanceUpdated` (§3).
 * Closes the server starts (4401, 4403, 4000) need a server that misbehaves on cue: the protocol checks
 * of the kit and the fakes' walk cover them.
 */
export function socketLive(target: LiveTarget, instanceId: number): LiveModel<Socket> {
  const Ws = target.WebSocket ?? globalThis.WebSocket;
  let tickets = 0;
  let opened = 0;
  let renames = 0;

  const fetchTicket = async (): Promise<SocketTicket> => {
    tickets += 1;
    const answer = await call(target, 'POST', '/api/auth/socket-ticket');
    const ticket = (answer.json as { ticket?: unknown } | undefined)?.ticket;
    if (answer.status !== 200 || typeof ticket !== 'string') throw new Error(`no ticket: HTTP ${answer.status}`);
    return { ticket, token: target.token };
  };
  const input = (): SocketInput => ({
    createSocket: (url) => new Ws(url) as unknown as WebSocketLike,
    fetchTicket,
    pageUrl: `${target.baseUrl.replace(/\/+$/, '')}/`,
    bus: createAppBus(),
    log: () => undefined,
  });

  const events = (snapshot: ReturnType<Actor<Socket>['getSnapshot']>): GraphEvent<Socket>[] => {
    if (snapshot.matches('idle'))
      return [
        { type: 'socket.start', tenantName: target.tenantName, userId: target.userId },
        { type: 'socket.unload' },
      ];
    if (snapshot.matches({ signedIn: 'ticket' }))
      return [{ type: 'xstate.done.actor.ticket', output: { ticket: 'live', token: target.token } }];
    if (snapshot.matches({ signedIn: { connection: 'connecting' } })) return [{ type: 'socket.opened' }];
    if (snapshot.matches({ signedIn: { connection: 'open' } }))
      return [
        { type: 'socket.tenant', tenantName: target.tenantName },
        { type: 'socket.stop' },
        { type: 'socket.unload' },
      ];
    return [];
  };

  return {
    name: 'socket',
    paths: { machine: socketMachine, input, events, strategies: ['shortest', 'simple', 'transitions'] },
    awaited: (event) => event.type === 'socket.opened' || event.type.startsWith('xstate.done.actor.'),
    start: () => {
      tickets = 0;
      opened = 0;
      return Promise.resolve({ input: input() });
    },
    check: async ({ actor, event }) => {
      if (event.type !== 'socket.opened') return [];
      const problems: string[] = [];
      opened += 1;
      if (tickets !== opened) problems.push(`${opened} connections opened with ${tickets} tickets asked`);
      renames += 1;
      const name = `Conformance socket ${renames}`;
      const arrived = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          subscription.unsubscribe();
          resolve(false);
        }, EVENT_WAIT_MS);
        const subscription = actor.on('socket.message', (message) => {
          if (message.event === 'instanceUpdated' && message.data.id === instanceId && message.data.name === name) {
            clearTimeout(timer);
            subscription.unsubscribe();
            resolve(true);
          }
        });
      });
      const update = await call(target, 'POST', '/api/instance/update', {
        body: { id: instanceId, tenantName: target.tenantName, name, activated: true },
      });
      if (update.status !== 200) problems.push(`POST /api/instance/update answered HTTP ${update.status}`);
      else if (!(await arrived))
        problems.push(`no InstanceUpdated for the renamed instance reached the open socket within ${EVENT_WAIT_MS} ms`);
      return problems;
    },
  };
}
