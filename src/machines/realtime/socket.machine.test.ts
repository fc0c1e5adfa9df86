import fc from 'fast-check';
import { createActor, type EventObject } from 'xstate';
import { createAppBus, type BusMessage } from '../shared/app-bus';
import type { PageHideSource } from './socket-actors';
import {
  PING_INTERVAL_MS,
  STABLE_AFTER_MS,
  socketMachine,
  type SocketEmitted,
  type SocketInput,
  type SocketTicket,
} from './socket.machine';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  idleCallback,
  type GraphEvent,
} from '../test-support/graph-coverage';
import { fakeSockets, fakeTickets, frame, settle, TENANT, TrackingClock } from '../test-support/socket-fakes';

const START = { type: 'socket.start', tenantName: TENANT, userId: 2 } as const;
const INSTANCE = {
  id: 7,
  name: 'Loja 1',
  activated: true,
  tenantName: TENANT,
  isOfficial: false,
  isUnlimited: false,
  status: 'idle',
  syncProgress: 0,
  syncedMessages: 0,
  totalMessages: null,
  created_at: '2026-01-01T00:00:00.000Z',
};

function setup(overrides: Partial<SocketInput> = {}) {
  const sockets = fakeSockets();
  const tickets = fakeTickets();
  const logs: string[] = [];
  const messages: BusMessage[] = [];
  const bus = createAppBus();
  bus.onAny((m) => messages.push(m));
  const input: SocketInput = {
    createSocket: sockets.create,
    fetchTicket: tickets.fetchTicket,
    pageUrl: `https://panel.example.com/${TENANT}/users`,
    bus,
    random: () => 0.5,
    log: (message) => logs.push(message),
    ...overrides,
  };
  return { sockets, tickets, logs, messages, bus, input };
}

function start(overrides: Partial<SocketInput> = {}) {
  const env = setup(overrides);
  const clock = new TrackingClock();
  const actor = createActor(socketMachine, { input: env.input, clock }).start();
  const emitted: SocketEmitted[] = [];
  actor.on('*', (e) => emitted.push(e));
  return { ...env, clock, actor, emitted };
}

/** Started, its first ticket answered: the first socket exists. */
async function started(overrides: Partial<SocketInput> = {}) {
  const env = start(overrides);
  env.actor.send(START);
  await settle();
  return env;
}

describe('socket machine: model coverage', () => {
  it('reaches every state and transition along @xstate/graph paths, driving fake sockets', async () => {
    // The real connection actor runs over fake sockets; socket events are produced BY the fake socket.
    // Tickets are the walk's events (done / error of the `ticket` actor).
    const envs = new Map<SocketInput, { sockets: ReturnType<typeof fakeSockets>; clock: TrackingClock }>();
    const env = (input: SocketInput | undefined) => {
      const found = input && envs.get(input);
      if (!found) throw new Error('no environment for this path');
      return found;
    };
    const sockets = (input: SocketInput | undefined) => env(input).sockets.last();
    const events: GraphEvent<typeof socketMachine>[] = [
      START,
      { type: 'socket.stop' },
      { type: 'socket.unload' },
      { type: 'socket.token' },
      { type: 'socket.tenant', tenantName: 'outra-farmacia' },
      doneEvent('ticket', { ticket: 'K1', token: 'T1' } satisfies SocketTicket),
      errorEvent('ticket', new Error('Failed to fetch')),
      { type: 'socket.opened' },
      { type: 'socket.frame', data: frame('InstanceUpdated', INSTANCE) },
      { type: 'socket.error' },
      { type: 'socket.closed', code: 1006, reason: '' },
      { type: 'socket.closed', code: 4000, reason: 'Role changed' },
      { type: 'socket.closed', code: 4401, reason: 'Unauthorized' },
      { type: 'socket.closed', code: 4403, reason: 'Forbidden' },
    ];
    const report = await exploreCoverage({
      machine: socketMachine.provide({
        actors: {
          pageLifecycle: idleCallback<EventObject, { pageHide: PageHideSource }>(),
          ticket: heldPromise<SocketTicket, { fetchTicket: () => Promise<SocketTicket> }>(),
        },
      }),
      input: () => {
        const made = setup();
        envs.set(made.input, { sockets: made.sockets, clock: new TrackingClock() });
        return made.input;
      },
      clock: (input) => env(input).clock,
      events,
      serializeContext: (context) => Math.min(context.attempt, 2),
      // Along every path (contracts/socket.md §4): while the socket is open exactly one ping timer of
      // 300 000 ms runs and the open socket has pinged; unloaded, the socket is closed for good, no timer
      // is left, and an hour later still no socket or ticket was made.
      onStep: async ({ actor, input }, event) => {
        const { clock, sockets: made } = env(input);
        const snapshot = actor.getSnapshot();
        const open = snapshot.hasTag('open');
        expect(clock.pending(PING_INTERVAL_MS)).toBe(open ? 1 : 0);
        if (open) expect(made.last().pings().length).toBeGreaterThan(0);
        if (event.type !== 'socket.unload') return;
        expect(snapshot.status).toBe('done');
        expect(clock.pendingAll()).toBe(0);
        const before = made.all.length;
        if (before > 0) expect(made.last().state).toBe('closed');
        clock.advance(3_600_000);
        await settle();
        expect(made.all).toHaveLength(before);
      },
      drive: {
        'socket.opened': ({ input }) => sockets(input).open(),
        'socket.frame': ({ input }, event) => sockets(input).receive((event as { data: string }).data),
        'socket.error': ({ input }) => sockets(input).fail(),
        'socket.closed': ({ input }, event) => {
          const { code, reason } = event as { code: number; reason: string };
          sockets(input).drop(code, reason);
        },
      },
    });
    console.info(`socket: ${formatCoverage(report)}`);
    assertFullCoverage(report);
  });
});

describe('socket machine: tickets and connection (§1.1)', () => {
  it('asks for a ticket, then connects with the settings address, the credentials and the ticket (never a token)', async () => {
    const { actor, sockets, tickets } = start({ socketUrl: '/ws?v=1' });
    actor.send(START);
    expect(actor.getSnapshot().hasTag('connecting')).toBe(true);
    expect(tickets.state.asked).toBe(1);
    expect(sockets.all).toHaveLength(0);
    await settle();
    expect(sockets.last().url).toBe(`wss://panel.example.com/ws?v=1&tenantName=${TENANT}&userId=2&ticket=K1`);
    expect(sockets.last().url).not.toContain('token');
  });

  it('asks for a new ticket before every reconnect, each used once', async () => {
    const { sockets, tickets, clock } = await started();
    sockets.last().open();
    sockets.last().drop(1006);
    clock.advance(1000);
    expect(tickets.state.asked).toBe(2);
    await settle();
    sockets.last().drop(1006);
    clock.advance(1000);
    await settle();
    expect(sockets.all.map((s) => new URL(s.url).searchParams.get('ticket'))).toEqual(['K1', 'K2', 'K3']);
  });

  it('a ticket that cannot be had is a failed attempt: logged, backed off, asked again', async () => {
    const { actor, sockets, tickets, clock, logs } = start();
    tickets.state.failing = new TypeError('Failed to fetch');
    actor.send(START);
    await settle();
    expect(sockets.all).toHaveLength(0);
    expect(actor.getSnapshot().hasTag('reconnecting')).toBe(true);
    expect(actor.getSnapshot().context.attempt).toBe(1);
    expect(logs).toEqual(['socket: no ticket']);
    clock.advance(999);
    expect(tickets.state.asked).toBe(1);
    clock.advance(1);
    expect(tickets.state.asked).toBe(2);
    await settle();
    // Attempt 2 fails too: full jitter over [0, 2000] → 1000 with random 0.5.
    expect(actor.getSnapshot().context.nextDelay).toBe(1000);
    tickets.state.failing = null;
    clock.advance(1000);
    await settle();
    expect(sockets.all).toHaveLength(1);
  });

  it('a tenant switch while the ticket is on its way asks again, for the new tenant', async () => {
    const { actor, sockets, tickets } = start();
    actor.send(START);
    actor.send({ type: 'socket.tenant', tenantName: 'outra-farmacia' });
    expect(tickets.state.asked).toBe(2);
    await settle();
    expect(sockets.all).toHaveLength(1);
    expect(sockets.last().url).toContain('tenantName=outra-farmacia');
  });

  it('pings at once on open, then every 300000 ms, and stops pinging on close', async () => {
    const { sockets, clock } = await started();
    const socket = sockets.last();
    expect(socket.sent).toEqual([]);
    socket.open();
    expect(socket.pings()).toEqual([{ event: 'ping', tenantName: TENANT, userId: 2 }]);
    clock.advance(PING_INTERVAL_MS - 1);
    expect(socket.sent).toHaveLength(1);
    clock.advance(1);
    expect(socket.sent).toHaveLength(2);
    for (let i = 0; i < 3; i += 1) clock.advance(PING_INTERVAL_MS);
    expect(socket.sent).toHaveLength(5);
    socket.drop();
    expect(clock.pending(PING_INTERVAL_MS)).toBe(0);
  });
});

describe('socket machine: reconnecting', () => {
  it('reconnects after exactly 1000 ms, then backs off with jitter up to 30 s, and resets after 60 s open', async () => {
    const random = vi.fn(() => 0.5);
    const { actor, sockets, clock } = await started({ random });
    sockets.last().open();
    sockets.last().drop(1006);
    clock.advance(999);
    await settle();
    expect(sockets.all).toHaveLength(1);
    clock.advance(1);
    await settle();
    expect(sockets.all).toHaveLength(2);
    // Attempt 2 fails without opening: uniform over [0, 2000] → 1000 with random 0.5.
    sockets.last().drop(1006);
    clock.advance(999);
    await settle();
    expect(sockets.all).toHaveLength(2);
    clock.advance(1);
    await settle();
    expect(sockets.all).toHaveLength(3);
    const delays: number[] = [];
    for (let attempt = 3; attempt <= 8; attempt += 1) {
      sockets.last().drop(1006);
      delays.push(actor.getSnapshot().context.nextDelay);
      clock.advance(actor.getSnapshot().context.nextDelay);
      await settle();
    }
    expect(delays).toEqual([2000, 4000, 8000, 15000, 15000, 15000]);
    random.mockReturnValue(0.999999);
    sockets.last().drop(1006);
    expect(actor.getSnapshot().context.nextDelay).toBe(30000);
    clock.advance(30000);
    await settle();
    sockets.last().open();
    clock.advance(STABLE_AFTER_MS);
    sockets.last().drop(1001, 'Server shutdown');
    expect(actor.getSnapshot().context.nextDelay).toBe(1000);
  });

  it('on page unload closes deliberately, stops pinging and never reconnects', async () => {
    let hide: () => void = () => undefined;
    const { actor, sockets, clock } = await started({
      pageHide: (listener) => ((hide = listener), () => undefined),
    });
    sockets.last().open();
    hide();
    expect(sockets.last().closedWith).toEqual({ code: 1000, reason: 'Page unload' });
    expect(actor.getSnapshot().status).toBe('done');
    clock.advance(PING_INTERVAL_MS * 10);
    await settle();
    expect(sockets.all).toHaveLength(1);
    expect(sockets.last().sent).toHaveLength(1);
  });

  it("on 4401 asks the session for a refresh of the ticket's token and waits for it; stops on 4403 until the tenant changes", async () => {
    const { actor, sockets, tickets, clock, emitted } = await started();
    sockets.last().drop(4401, 'Unauthorized');
    expect(emitted).toEqual([{ type: 'socket.unauthorized', token: 'T1' }]);
    clock.advance(60_000);
    await settle();
    expect(sockets.all).toHaveLength(1);
    expect(tickets.state.asked).toBe(1);
    actor.send({ type: 'socket.token' });
    await settle();
    expect(sockets.last().url).toContain('ticket=K2');
    sockets.last().drop(4403, 'Forbidden');
    clock.advance(600_000);
    actor.send({ type: 'socket.token' });
    await settle();
    expect(sockets.all).toHaveLength(2);
    actor.send({ type: 'socket.tenant', tenantName: 'outra-farmacia' });
    await settle();
    expect(sockets.last().url).toContain('tenantName=outra-farmacia');
  });

  it('on 4000 (role or tenant name changed) reconnects at once with a new ticket, says so, and counts no failure', async () => {
    const { actor, sockets, tickets, emitted, logs } = await started();
    sockets.last().open();
    sockets.last().drop(4000, 'Role changed');
    expect(tickets.state.asked).toBe(2);
    expect(emitted).toEqual([{ type: 'socket.connected' }, { type: 'socket.accessChanged', reason: 'Role changed' }]);
    expect(logs).toContain('socket: closed 4000 Role changed');
    await settle();
    expect(sockets.all).toHaveLength(2);
    expect(sockets.last().url).toContain('ticket=K2');
    expect(actor.getSnapshot().context.attempt).toBe(0);
  });

  it('says `socket.connected` each time a connection opens, the first and every reconnect, and only then', async () => {
    const { sockets, clock, emitted } = await started();
    const connected = () => emitted.filter((e) => e.type === 'socket.connected').length;
    expect(connected()).toBe(0);
    sockets.last().open();
    expect(connected()).toBe(1);
    // Pinging on (a timer re-entering inside `open`) is not a new connection.
    clock.advance(PING_INTERVAL_MS * 2);
    expect(connected()).toBe(1);
    sockets.last().drop(1006);
    clock.advance(60_000);
    await settle();
    expect(sockets.all).toHaveLength(2);
    expect(connected()).toBe(1);
    sockets.last().open();
    expect(connected()).toBe(2);
  });

  it('a new session token does not reopen an open socket (it carries none); a tenant switch does, with 1000 "Tenant changed"', async () => {
    const { actor, sockets } = await started();
    sockets.last().open();
    actor.send({ type: 'socket.token' });
    await settle();
    expect(sockets.all).toHaveLength(1);
    expect(sockets.last().state).toBe('open');
    const old = sockets.last();
    actor.send({ type: 'socket.tenant', tenantName: 'outra-farmacia' });
    expect(old.closedWith).toEqual({ code: 1000, reason: 'Tenant changed' });
    await settle();
    expect(sockets.all).toHaveLength(2);
    actor.send({ type: 'socket.stop' });
    expect(sockets.last().closedWith).toEqual({ code: 1000, reason: 'Logout' });
    expect(actor.getSnapshot().value).toBe('idle');
  });
});

describe('socket machine: frames', () => {
  it('forwards decoded events with the first letter lowercased; logs pongs, bad frames and other tenants', async () => {
    const { sockets, messages, logs, emitted } = await started();
    const socket = sockets.last();
    socket.open();
    socket.receive(frame('InstanceUpdated', INSTANCE));
    socket.receive(frame('ping', { message: 'pong', serverTime: '2026-01-15T12:00:00.000Z' }));
    socket.receive('not base64 at all!');
    socket.receive(frame('ChatTicketClosed', { ticketId: 1 }, 'outra-farmacia'));
    socket.receive(new Uint8Array([1, 2]));
    expect(messages).toEqual([
      { name: 'instanceUpdated', data: INSTANCE, tenantName: TENANT, sentAt: '2026-01-15T12:00:00.000Z' },
    ]);
    expect(emitted).toEqual([
      { type: 'socket.connected' },
      {
        type: 'socket.message',
        event: 'instanceUpdated',
        data: INSTANCE,
        tenantName: TENANT,
        sentAt: '2026-01-15T12:00:00.000Z',
      },
    ]);
    expect(logs).toEqual([
      'socket: pong',
      'socket: frame dropped (not-base64)',
      'socket: frame for tenant outra-farmacia dropped',
      'socket: binary frame dropped',
    ]);
  });
});

type Op =
  | { kind: 'open' }
  | { kind: 'close'; code: number }
  | { kind: 'error' }
  | { kind: 'unload' }
  | { kind: 'advance'; ms: number }
  | { kind: 'token' }
  | { kind: 'ticketFails'; failing: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constant({ kind: 'open' } as const),
  fc.constantFrom(1000, 1001, 1006, 1011, 4000, 4401, 4403).map((code) => ({ kind: 'close', code }) as const),
  fc.constant({ kind: 'error' } as const),
  fc.constant({ kind: 'unload' } as const),
  fc.constant({ kind: 'token' } as const),
  fc.boolean().map((failing) => ({ kind: 'ticketFails', failing }) as const),
  fc
    .constantFrom(1, 999, 1000, 30_000, 60_000, PING_INTERVAL_MS - 1, PING_INTERVAL_MS)
    .map((ms) => ({ kind: 'advance', ms }) as const),
);

describe('socket machine: properties', () => {
  it('any sequence never reconnects after unload, never runs two ping timers, and never uses a ticket twice', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        const { actor, sockets, tickets, clock } = start({ random: () => 0.3 });
        actor.send(START);
        await settle();
        let socketsAtUnload: number | null = null;
        let sentAtUnload = 0;
        for (const step of ops) {
          const socket = sockets.all.at(-1);
          if (step.kind === 'open' && socket?.state === 'connecting') socket.open();
          if (step.kind === 'close') socket?.drop(step.code);
          if (step.kind === 'error') socket?.fail();
          if (step.kind === 'ticketFails') tickets.state.failing = step.failing ? new Error('offline') : null;
          const running = actor.getSnapshot().status === 'active';
          if (step.kind === 'token' && running) actor.send({ type: 'socket.token' });
          if (step.kind === 'advance') clock.advance(step.ms);
          if (step.kind === 'unload') {
            if (running) actor.send({ type: 'socket.unload' });
            socketsAtUnload ??= sockets.all.length;
            sentAtUnload = sockets.all.reduce((n, s) => n + s.sent.length, 0);
          }
          await settle();
          expect(clock.pending(PING_INTERVAL_MS)).toBeLessThanOrEqual(1);
          // Only the newest socket may still be alive; a ping timer only while it is open.
          expect(sockets.all.slice(0, -1).every((s) => s.state === 'closed')).toBe(true);
          if (clock.pending(PING_INTERVAL_MS) === 1) expect(sockets.all.at(-1)?.state).toBe('open');
          const used = sockets.all.map((s) => new URL(s.url).searchParams.get('ticket'));
          expect(new Set(used).size).toBe(used.length);
          if (socketsAtUnload !== null) {
            expect(sockets.all).toHaveLength(socketsAtUnload);
            expect(sockets.all.reduce((n, s) => n + s.sent.length, 0)).toBe(sentAtUnload);
            expect(sockets.all.at(-1)?.state ?? 'closed').toBe('closed');
            expect(clock.pending(PING_INTERVAL_MS)).toBe(0);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
