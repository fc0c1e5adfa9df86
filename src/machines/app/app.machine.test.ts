// @vitest-environment jsdom
import { createActor, fromPromise } from 'xstate';
import { sameAccessSubject, type AccessSubject } from '../../domain/route-access';
import { realtimeMachine } from '../realtime/realtime';
import { memoryStorage } from '../session/session-storage';
import { fakeServer, json } from '../test-support/fake-fetch';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  type GraphEvent,
} from '../test-support/graph-coverage';
import { mergeCoverage } from '../test-support/merge-coverage';
import { inertSessionInput, USER } from '../test-support/session-fakes';
import { fakeSockets } from '../test-support/socket-fakes';
import { realtimeTestInput } from '../test-support/realtime-fakes';
import { writeStoredSession } from '../session/session-storage';
import {
  appMachine,
  selectRealtimeRunning,
  type AppActor,
  type AppMachineInput,
  type RealtimeCode,
} from './app.machine';
import { findSystemActor, systemActor } from './app-system';
import type { RealtimeActor } from '../realtime/realtime';

const code: RealtimeCode = { realtimeMachine };
const signedOut: AccessSubject = { authenticated: false, role: null, permittedRoutes: [], loggedOut: false };
const operator: AccessSubject = { authenticated: true, role: 'operador', permittedRoutes: ['users'], loggedOut: false };
const admin: AccessSubject = { authenticated: true, role: 'administrador', permittedRoutes: [], loggedOut: false };

/** Real session, preferences, guard and realtime machines; the network and the socket are fakes. */
function appInput(overrides: Partial<AppMachineInput> = {}) {
  const sockets = fakeSockets();
  const server = fakeServer(() => json(404, { message: 'no fake' }));
  const input: AppMachineInput = {
    session: inertSessionInput(),
    preferences: { storage: memoryStorage() },
    realtime: realtimeTestInput({ fetch: server.fetch, tenant: 'backoffice', createSocket: sockets.create }),
    ...overrides,
  };
  return { input, sockets, server };
}

/**
 * What holds after every step: the realtime side runs exactly in `running` (its socket and feed in
 * the system), and the route guard decides with the subject the root last told it. The root keeps
 * whom the session signed in exactly in `session.signedIn`; while the realtime side runs, it was told
 * the same (the same token), and its socket runs for that user only then: no socket while signed out.
 */
function checkStep(actor: AppActor) {
  const snapshot = actor.getSnapshot();
  const running = selectRealtimeRunning(snapshot);
  expect(snapshot.context.realtime !== null).toBe(running);
  expect(findSystemActor(actor.system, 'socket') !== undefined).toBe(running);
  expect(findSystemActor(actor.system, 'activityFeed') !== undefined).toBe(running);
  const told = snapshot.context.subject;
  const guard = systemActor(actor.system, 'routeGuard').getSnapshot().context.subject;
  if (told !== null) expect(sameAccessSubject(guard, told)).toBe(true);
  const { signIn } = snapshot.context;
  expect(signIn !== null).toBe(snapshot.matches({ session: 'signedIn' }));
  if (!running) return;
  const realtime = (snapshot.context.realtime as RealtimeActor).getSnapshot();
  expect(realtime.matches('signedIn')).toBe(signIn !== null);
  expect(realtime.context.token).toBe(signIn?.token ?? null);
  const socket = systemActor(actor.system, 'socket').getSnapshot();
  expect(socket.matches('signedIn')).toBe(signIn !== null);
  expect(socket.context.userId).toBe(signIn?.userId ?? null);
  expect(socket.context.tenantName !== null).toBe(signIn !== null);
}

describe('appMachine: model coverage', () => {
  const machine = appMachine.provide({ actors: { loadRealtime: heldPromise<RealtimeCode>() } });
  const events: GraphEvent<typeof machine>[] = [
    { type: 'app.session', subject: signedOut },
    { type: 'app.session', subject: operator },
    { type: 'app.session', subject: admin },
    { type: 'app.realtime.preload' },
    { type: 'app.realtime.load' },
    { type: 'app.tenant', tenant: 'farmacia-central' },
    doneEvent('loadRealtime', code),
    errorEvent('loadRealtime', new Error('offline')),
    { type: 'session.signedIn', userId: USER.id, token: 'T1' },
    { type: 'session.tokenChanged', token: 'T2' },
    { type: 'session.signedOut' },
  ];

  async function explore(input: () => AppMachineInput) {
    return exploreCoverage({
      machine,
      input,
      events,
      serializeContext: (context) => [context.subject?.role ?? null, context.subject?.authenticated ?? null],
      onStep: ({ actor }) => checkStep(actor),
      // The regions are independent: simple paths per concern, not over their product.
      simpleScenarios: [
        { events: events.slice(0, 3) },
        { events: [events[3]!, events[4]!, events[6]!, events[7]!] },
        { events: [events[8]!, events[9]!, events[10]!, events[6]!, events[7]!] },
        { prefix: [events[8]!], events: [events[5]!, events[9]!, events[10]!, events[6]!, events[7]!] },
        { prefix: [events[4]!], events: [events[6]!, events[8]!, events[9]!, events[10]!, events[5]!] },
      ],
    });
  }

  it('shortest, simple and per-edge paths reach every state and transition, with the properties at each step', async () => {
    // The failed loads the walk takes are reported on the console, by design.
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const withoutCode = await explore(() => appInput().input);
    // The realtime code given up front (tests, src/ui/test-support/render.tsx): ready at once.
    const withCode = await explore(() => appInput({ realtimeCode: code }).input);
    const report = mergeCoverage(withoutCode, withCode);
    console.info(`appMachine: ${formatCoverage(report)}`);
    expect(errors).toHaveBeenCalledWith('realtime chunk failed to load', expect.any(Error));
    errors.mockRestore();
    assertFullCoverage(report);
  });
});

describe('appMachine: one system', () => {
  it('registers the session, preferences and route guard by systemId, and the socket and feed once running', () => {
    const { input } = appInput({ realtimeCode: code });
    const app = createActor(appMachine, { input }).start();
    expect(systemActor(app.system, 'session').getSnapshot().status).toBe('active');
    expect(systemActor(app.system, 'preferences').getSnapshot().status).toBe('active');
    expect(systemActor(app.system, 'routeGuard').getSnapshot().status).toBe('active');
    expect(findSystemActor(app.system, 'socket')).toBeUndefined();
    app.send({ type: 'app.realtime.load' });
    expect(systemActor(app.system, 'socket').getSnapshot().status).toBe('active');
    expect(systemActor(app.system, 'activityFeed').getSnapshot().status).toBe('active');
    // A tenant switch in the address reaches the socket through the root and the realtime side.
    const toSocket: unknown[] = [];
    app.system.inspect((event) => {
      if (event.type === '@xstate.event' && event.actorRef === findSystemActor(app.system, 'socket'))
        toSocket.push(event.event);
    });
    app.send({ type: 'app.tenant', tenant: 'farmacia-central' });
    expect(toSocket).toEqual([{ type: 'socket.tenant', tenantName: 'farmacia-central' }]);
    app.stop();
    expect(findSystemActor(app.system, 'socket')).toBeUndefined();
  });

  it('tells the guard the session’s subject from its own snapshots, once per change', () => {
    const storage = memoryStorage();
    writeStoredSession(storage, {
      token: 'stored-token',
      expiresAt: Date.now() + 3_600_000,
      email: USER.email,
      originBackoffice: true,
      user: USER,
      permittedRoutes: ['users'],
      permissions: [],
      baseUrl: 'http://api.test',
    });
    const { input } = appInput({ session: inertSessionInput({ storage, now: Date.now }), realtimeCode: code });
    const app = createActor(appMachine, { input });
    const told: AccessSubject[] = [];
    app.system.inspect((event) => {
      if (event.type !== '@xstate.event') return;
      const sent: { type: string; subject?: AccessSubject } = event.event;
      if (sent.type === 'route.session' && sent.subject) told.push(sent.subject);
    });
    app.start();
    // Stored as back-office staff: the guard is told so (src/domain/route-access.ts, staff routes).
    expect(told).toEqual([
      { authenticated: true, role: USER.role.name, permittedRoutes: ['users'], staff: true, loggedOut: false },
    ]);
    // Signed in at boot: the session said so as it started, and the realtime side started in the same
    // step, its socket for the stored user.
    expect(selectRealtimeRunning(app.getSnapshot())).toBe(true);
    expect(app.getSnapshot().context.signIn).toEqual({ userId: USER.id, token: 'stored-token' });
    expect(systemActor(app.system, 'socket').getSnapshot().context.userId).toBe(USER.id);
    app.stop();
  });

  it('loads the realtime chunk in an invoked state, and after a failed load tries again when asked', async () => {
    let calls = 0;
    let fail = true;
    const machine = appMachine.provide({
      actors: {
        loadRealtime: fromPromise(async () => {
          calls += 1;
          if (fail) throw new Error('offline');
          return code;
        }),
      },
    });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const app = createActor(machine, { input: appInput().input }).start();
    app.send({ type: 'app.realtime.load' });
    expect(app.getSnapshot().matches({ realtime: 'loading' })).toBe(true);
    await vi.waitFor(() => expect(app.getSnapshot().matches({ realtime: 'failed' })).toBe(true));
    expect(errors).toHaveBeenCalledWith('realtime chunk failed to load', expect.any(Error));
    fail = false;
    app.send({ type: 'app.realtime.load' });
    await vi.waitFor(() => expect(selectRealtimeRunning(app.getSnapshot())).toBe(true));
    expect(calls).toBe(2);
    errors.mockRestore();
    app.stop();
  });
});
