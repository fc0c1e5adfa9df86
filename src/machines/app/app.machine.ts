import {
  assertEvent,
  assign,
  enqueueActions,
  fromPromise,
  raise,
  sendTo,
  setup,
  type ActorRefFrom,
  type AnyActorLogic,
  type AnyActorRef,
  type SnapshotFrom,
} from 'xstate';
import { sameAccessSubject, type AccessSubject } from '../../domain/route-access';
import { routeGuardMachine } from '../navigation/route-guard.machine';
import { preferencesMachine, type PreferencesInput } from '../preferences/preferences.machine';
import type { RealtimeInput, RealtimeLogic } from '../realtime/realtime';
import { selectAccessSubject } from '../session/session-selectors';
import { sessionMachine, type SessionInput, type SessionNotice } from '../session/session.machine';

/** The realtime chunk as the root uses it (src/machines/realtime/realtime.ts). */
export interface RealtimeCode {
  realtimeMachine: RealtimeLogic;
}

export interface AppMachineInput {
  session: SessionInput;
  preferences: PreferencesInput;
  /** The realtime side's input, given to it when it starts. */
  realtime: RealtimeInput;
  /** The realtime code when it is already in (tests); otherwise the `loadRealtime` actor fetches it. */
  realtimeCode?: RealtimeCode;
}

export interface AppMachineContext {
  sessionInput: SessionInput;
  preferencesInput: PreferencesInput;
  /** The session's subject as last told to the route guard; null before the first. */
  subject: AccessSubject | null;
  realtimeInput: RealtimeInput;
  /** The signed-in user and token as the session last told them (SessionNotice); null while signed out. */
  signIn: { userId: number; token: string } | null;
  realtimeCode: RealtimeCode | null;
  /** The running realtime side (also `system.get('socket')`, `system.get('activityFeed')`). */
  realtime: AnyActorRef | null;
}

export type AppMachineEvent =
  /** The session changed (raised from its snapshots). */
  | { type: 'app.session'; subject: AccessSubject }
  /** Fetch the realtime code without starting it (the login page, while idle). */
  | { type: 'app.realtime.preload' }
  /** Start the realtime side now, signed in or not (a view asks for the socket). */
  | { type: 'app.realtime.load' }
  /** The address's tenant changed: the socket reconnects for it (socket.md §4.4). */
  | { type: 'app.tenant'; tenant: string }
  /** What the session tells the root (its `announce`, given `sendParent` here). */
  | SessionNotice;

function runningRealtime(actor: AnyActorRef | null): AnyActorRef {
  if (!actor) throw new Error('the realtime side is not running');
  return actor;
}

/**
 * The root of the app's actor system (docs/architecture.md, Layers): invokes the session, the
 * preferences and the route guard for the app's whole life, registered by `systemId` (app-system.ts),
 * and the realtime side once a user has signed in. The links between them are transitions here:
 *
 * - every session snapshot is raised as `app.session`; when its access subject changed (signed in,
 *   role, permitted routes), the guard is told with `route.session`, so it re-decides the route;
 * - the session tells the root of a sign-in, each new token after it and the sign-out (its `announce`
 *   action, given `sendParent` here: `session.signedIn`, `session.tokenChanged`, `session.signedOut`). The
 *   `session` region keeps what it was told; the realtime side is told the same while it runs, and at its
 *   start whom the session signed in, so its socket connects for that user and closes at sign-out
 *   (realtime.ts);
 * - the realtime region loads the realtime chunk in an invoked state (`loading`, the `loadRealtime`
 *   actor) and starts it at the first `session.signedIn`, or at `app.realtime.load`. `app.realtime.preload`
 *   fetches it ahead (`preloading` → `ready`), so a sign-in then starts it in the same step as the
 *   session's change and the first signed-in render finds it. A failed load (`failed`) is tried again
 *   at the next sign-in or `app.realtime.load`; a failed preload is silent (`idle`).
 * - `app.tenant` reaches the socket while the realtime side runs.
 *
 * Provide `loadRealtime` (the chunk's dynamic import) in the composition root (src/app/app-services.ts);
 * the machine itself imports only the chunk's types.
 */
export const appMachine = setup({
  types: {
    context: {} as AppMachineContext,
    events: {} as AppMachineEvent,
    input: {} as AppMachineInput,
  },
  actors: {
    session: sessionMachine.provide({
      actions: {
        announce: enqueueActions(({ enqueue }, notice: SessionNotice | null) => {
          if (notice) enqueue.sendParent(notice);
        }),
      },
    }),
    preferences: preferencesMachine,
    routeGuard: routeGuardMachine,
    loadRealtime: fromPromise<RealtimeCode>(() => Promise.reject(new Error('loadRealtime is provided by the app'))),
  },
  guards: {
    subjectChanged: ({ context, event }) => {
      assertEvent(event, 'app.session');
      return context.subject === null || !sameAccessSubject(context.subject, event.subject);
    },
    codeIn: ({ context }) => context.realtimeCode !== null,
  },
  actions: {
    tellGuard: sendTo('routeGuard', ({ event }) => {
      assertEvent(event, 'app.session');
      return { type: 'route.session' as const, subject: event.subject };
    }),
    takeSubject: assign(({ event }) => {
      assertEvent(event, 'app.session');
      return { subject: event.subject };
    }),
    takeSignIn: assign(({ event }) => {
      assertEvent(event, 'session.signedIn');
      return { signIn: { userId: event.userId, token: event.token } };
    }),
    takeToken: assign(({ context, event }) => {
      assertEvent(event, 'session.tokenChanged');
      return { signIn: context.signIn && { ...context.signIn, token: event.token } };
    }),
    forgetSignIn: assign({ signIn: null }),
    takeCode: assign((_, params: { code: RealtimeCode }) => ({ realtimeCode: params.code })),
    startRealtime: assign(({ context, spawn }) => {
      if (context.realtimeCode === null) throw new Error('the realtime code is not in');
      return {
        // The logic arrives with the chunk, so it cannot be named in `setup`.
        realtime: spawn(context.realtimeCode.realtimeMachine as AnyActorLogic, {
          systemId: 'realtime',
          input: context.realtimeInput,
        }),
      };
    }),
    // Only in `running`, where the realtime side has been spawned.
    tellRealtime: sendTo(
      ({ context }) => runningRealtime(context.realtime),
      ({ event }) => {
        assertEvent(event, 'app.tenant');
        return { type: 'realtime.tenant' as const, tenantName: event.tenant };
      },
    ),
    forwardNotice: sendTo(
      ({ context }) => runningRealtime(context.realtime),
      ({ event }) => {
        assertEvent(event, ['session.signedIn', 'session.tokenChanged', 'session.signedOut']);
        return event;
      },
    ),
    // At its start, the realtime side hears whom the session signed in before it ran.
    tellSignIn: enqueueActions(({ context, enqueue }) => {
      if (context.signIn)
        enqueue.sendTo(runningRealtime(context.realtime), { type: 'session.signedIn', ...context.signIn });
    }),
    reportLoadFailure: (_, params: { error: unknown }) => {
      console.error('realtime chunk failed to load', params.error);
    },
  },
}).createMachine({
  id: 'app',
  type: 'parallel',
  context: ({ input }) => ({
    sessionInput: input.session,
    preferencesInput: input.preferences,
    subject: null,
    realtimeInput: input.realtime,
    signIn: null,
    realtimeCode: input.realtimeCode ?? null,
    realtime: null,
  }),
  invoke: [
    {
      src: 'session',
      id: 'session',
      systemId: 'session',
      input: ({ context }) => context.sessionInput,
      onSnapshot: {
        actions: raise(({ event }) => ({ type: 'app.session' as const, subject: selectAccessSubject(event.snapshot) })),
      },
    },
    {
      src: 'preferences',
      id: 'preferences',
      systemId: 'preferences',
      input: ({ context }) => context.preferencesInput,
    },
    { src: 'routeGuard', id: 'routeGuard', systemId: 'routeGuard', input: {} },
  ],
  states: {
    /** What the session last told: signed in (and as whom, with which token) or not. */
    session: {
      initial: 'signedOut',
      states: {
        signedOut: { on: { 'session.signedIn': { target: 'signedIn', actions: 'takeSignIn' } } },
        signedIn: {
          on: {
            'session.tokenChanged': { actions: 'takeToken' },
            'session.signedOut': { target: 'signedOut', actions: 'forgetSignIn' },
          },
        },
      },
    },
    /** The route guard decides with the session's current subject. */
    access: {
      initial: 'following',
      states: {
        following: {
          on: { 'app.session': { guard: 'subjectChanged', actions: ['takeSubject', 'tellGuard'] } },
        },
      },
    },
    realtime: {
      initial: 'idle',
      states: {
        /** No code yet, nothing asked. */
        idle: {
          always: { guard: 'codeIn', target: 'ready' },
          on: {
            'session.signedIn': 'loading',
            'app.realtime.load': 'loading',
            'app.realtime.preload': 'preloading',
          },
        },
        /** Fetching the code ahead of a sign-in. */
        preloading: {
          invoke: {
            src: 'loadRealtime',
            id: 'loadRealtime',
            onDone: { target: 'ready', actions: { type: 'takeCode', params: ({ event }) => ({ code: event.output }) } },
            // Silent: the load at sign-in reports a chunk that cannot be had.
            onError: 'idle',
          },
          on: {
            'session.signedIn': 'loading',
            'app.realtime.load': 'loading',
          },
        },
        /** The code is in; it starts with the first sign-in. */
        ready: {
          on: {
            'session.signedIn': 'running',
            'app.realtime.load': 'running',
          },
        },
        loading: {
          invoke: {
            src: 'loadRealtime',
            id: 'loadRealtime',
            onDone: {
              target: 'running',
              actions: { type: 'takeCode', params: ({ event }) => ({ code: event.output }) },
            },
            onError: {
              target: 'failed',
              actions: { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        /** The chunk did not load (offline): asked for again at the next sign-in or request. */
        failed: {
          on: {
            'session.signedIn': 'loading',
            'app.realtime.load': 'loading',
            'app.realtime.preload': 'preloading',
          },
        },
        /** Runs until the app stops, told what the session tells the root. */
        running: {
          entry: ['startRealtime', 'tellSignIn'],
          on: {
            'app.tenant': { actions: 'tellRealtime' },
            'session.signedIn': { actions: 'forwardNotice' },
            'session.tokenChanged': { actions: 'forwardNotice' },
            'session.signedOut': { actions: 'forwardNotice' },
          },
        },
      },
    },
  },
});

export type AppActor = ActorRefFrom<typeof appMachine>;
export type AppSnapshot = SnapshotFrom<typeof appMachine>;

/** Whether the realtime side runs (its socket and feed are in the system). */
export const selectRealtimeRunning = (snapshot: AppSnapshot): boolean => snapshot.matches({ realtime: 'running' });

/** Whether the last load of the realtime chunk failed. */
export const selectRealtimeFailed = (snapshot: AppSnapshot): boolean => snapshot.matches({ realtime: 'failed' });
