import { createActor } from 'xstate';
import type { FetchLike } from '../api/auth-middleware';
import { createGraphqlClient, type Execute } from '../api/graphql-client';
import { lookupPublicIp } from '../api/ip-lookup';
import { createRestClient, type RestClient } from '../api/rest-client';
import { DEFAULT_TENANT, tenantFromPathname } from '../domain/paths';
import type { ActivityFeedActor } from '../machines/realtime/activity-feed.machine';
import { createAppBus, type AppBus } from '../machines/shared/app-bus';
import { overlayControl, preferencesMachine, type PreferencesActor } from '../machines/preferences/preferences.machine';
import { routeGuardMachine, type RouteGuardActor } from '../machines/navigation/route-guard.machine';
import type { OverlayControl } from '../machines/shared/bulk-run';
import { DisconnectedDocument } from '../generated/graphql-session';
import type { Realtime, RealtimeDeps, startRealtime as StartRealtime } from '../machines/realtime/realtime';
import type { RoutePrefetch } from '../machines/navigation/route-prefetch';
import { createRequestActivity, type RequestActivity } from '../machines/shared/request-activity';
import { freshTokenFetch, sessionFetch } from '../machines/session/session-seam';
import { selectAccessSubject, selectIsAuthenticated, selectOwnTenant } from '../machines/session/session-selectors';
import { memoryStorage, windowStorageEvents, type StorageLike } from '../machines/session/session-storage';
import { sessionMachine, type SessionActor, type SessionSnapshot } from '../machines/session/session.machine';
import type { CreateSocket } from '../machines/realtime/socket-actors';
import type { SocketActor } from '../machines/realtime/socket.machine';
import { importWithTimeout } from '../ui/components/preloadable';

/**
 * The composition root (docs/architecture.md, Layers): builds the HTTP clients over the session
 * seam, starts the app-wide actors (session, route guard, preferences; the socket and activity feed
 * once signed in, see {@link RealtimeHandle}) and links them. Views
 * receive the result through React context and only read actors and send events; screen machines get
 * `clients` through their `input`.
 */

/** Runtime settings (the server injects them into index.html; see `readSettings`). */
export interface AppSettings {
  /** `SOCKET_URL` (contracts/socket.md §1.1); default `/ws`. */
  socketUrl: string;
  /** Public-IP service (docs/product.md, Sessions); empty disables the lookup (login then sends ip: null). */
  ipLookupUrl: string;
}

export const DEFAULT_SETTINGS: AppSettings = { socketUrl: '/ws', ipLookupUrl: '' };

/** The socket and the activity feed, started once a user has signed in. */
export interface RealtimeServices {
  socket: SocketActor;
  /** The latest socket events, for the navbar's activity feed. */
  activityFeed: ActivityFeedActor;
}

/**
 * The socket, activity feed and presence (realtime.ts) are a chunk of their own, loaded and started
 * at the first sign-in (or at boot with a stored session), so the login route carries none of them.
 */
export interface RealtimeHandle {
  /** The running actors, or null until they have loaded. */
  current(): RealtimeServices | null;
  /** Loads and starts them once: the same promise on every call (a new one after a failed load). */
  ready(): Promise<RealtimeServices>;
  /** Fetches their code without starting anything (the login page warms it while idle). */
  preload(): Promise<void>;
}

/** The typed clients screen machines take as input. */
export interface AppClients {
  rest: RestClient;
  graphql: { execute: Execute };
  /** The session-aware fetch, for streams (sheet downloads) the typed clients do not cover. */
  fetch: FetchLike;
}

export interface AppServices {
  clients: AppClients;
  session: SessionActor;
  /** The socket and activity feed (views read them with `useRealtime()`). */
  realtime: RealtimeHandle;
  guard: RouteGuardActor;
  preferences: PreferencesActor;
  bus: AppBus;
  /** For bulk runners: holds the loading overlay off while they run (docs/product.md, Loading indicator). */
  overlay: OverlayControl;
  /** Requests in flight through the typed clients (the global loading indicator). */
  activity: RequestActivity;
  /**
   * Fetches, while the login page is idle, the code a sign-in runs at once: the socket side and the
   * first screen's request (route-prefetch.ts). Without it a sign-in works the same, only later.
   */
  preloadSignIn(): Promise<void>;
  settings: AppSettings;
  /** The tenant of the current address (first path segment). */
  tenant(): string;
  /** Stops every actor and listener (tests, hot reload). */
  stop(): void;
}

export interface AppServicesOptions {
  window: Window & typeof globalThis;
  settings?: Partial<AppSettings>;
  /** Network fetch; default the window's. */
  fetch?: FetchLike;
  /** Absolute API origin; default '' (same origin as the page, as the reference server serves both). */
  apiBase?: string;
  /** WebSocket factory; default the window's `WebSocket`. */
  createSocket?: CreateSocket;
  /**
   * Starts the socket side in place, without loading its chunk (tests pass realtime.ts's
   * `startRealtime`, so it runs synchronously); default: the chunk, loaded at the first sign-in.
   */
  startRealtime?: (deps: RealtimeDeps) => Realtime;
}

/** Reads `<meta name="panel-settings" content='{"socketUrl":…}'>`; defaults for anything absent or malformed. */
export function readSettings(document: Pick<Document, 'querySelector'>): AppSettings {
  const raw = document.querySelector('meta[name="panel-settings"]')?.getAttribute('content');
  if (!raw) return DEFAULT_SETTINGS;
  try {
    const parsed = JSON.parse(raw) as Partial<Record<keyof AppSettings, unknown>>;
    return {
      socketUrl:
        typeof parsed.socketUrl === 'string' && parsed.socketUrl !== '' ? parsed.socketUrl : DEFAULT_SETTINGS.socketUrl,
      ipLookupUrl: typeof parsed.ipLookupUrl === 'string' ? parsed.ipLookupUrl : DEFAULT_SETTINGS.ipLookupUrl,
    };
  } catch {
    return DEFAULT_SETTINGS;
  }
}

/** localStorage when the browser allows it (private modes may throw), else memory for this tab. */
function browserStorage(window: Window): StorageLike {
  try {
    const probe = '__panel_probe__';
    window.localStorage.setItem(probe, '1');
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch {
    return memoryStorage();
  }
}

export function createAppServices(options: AppServicesOptions): AppServices {
  const { window } = options;
  const settings: AppSettings = { ...DEFAULT_SETTINGS, ...options.settings };
  const network: FetchLike = options.fetch ?? ((request) => window.fetch(request));
  const storage = browserStorage(window);
  const tenant = () => tenantFromPathname(window.location.pathname) ?? DEFAULT_TENANT;
  // Late binding: the clients need the session's seam, the session needs the REST client.
  const ref: { session?: SessionActor } = {};
  // Where GraphQL and the socket go: the address's tenant, but a signed-in user who is not staff acts in
  // its own only (docs/product.md, Tenants in the address), also in the moment before the router moves it there.
  const actsIn = () => (ref.session && selectOwnTenant(ref.session.getSnapshot())) || tenant();
  const apiBase = options.apiBase ?? '';
  const graphqlUrl = () => `${apiBase}/${actsIn()}/graphql`;

  const source = () => {
    if (!ref.session) throw new Error('session not started');
    return ref.session;
  };
  const authFetch = sessionFetch(source, network);
  // The first screen's request, sent with the sign-in answer (route-prefetch.ts, once preloaded).
  let routePrefetch: RoutePrefetch | null = null;
  const activity = createRequestActivity();
  const counted = activity.track((request) => (routePrefetch ? routePrefetch.fetch(request) : authFetch(request)));
  const rest = createRestClient({ baseUrl: apiBase, fetch: counted });
  const graphql = createGraphqlClient({ url: graphqlUrl, fetch: counted });
  // The refresh call goes over the plain network fetch, so a refresh can never recurse into the seam.
  const refreshGraphql = createGraphqlClient({ url: graphqlUrl, fetch: network });
  // Requests made while the page is being left: never a refresh, never a logout (session-seam.ts).
  const ifFreshGraphql = createGraphqlClient({ url: graphqlUrl, fetch: freshTokenFetch(source, network) });
  const lookupIp = () =>
    settings.ipLookupUrl === '' ? Promise.resolve(null) : lookupPublicIp({ url: settings.ipLookupUrl, fetch: network });

  const session = createActor(sessionMachine, {
    // Presence (docs/product.md, Presence): say `disconnected` while the token still works (the rest is presence-link.ts).
    input: {
      rest,
      refreshGraphql,
      lookupIp,
      storage,
      storageEvents: windowStorageEvents(window),
      baseUrl: apiBase,
      beforeLogout: () => graphql.execute(DisconnectedDocument),
    },
  });
  const preferences = createActor(preferencesMachine, { input: { storage } });
  const guard = createActor(routeGuardMachine, { input: {} });
  const bus = createAppBus();

  ref.session = session;
  session.start();
  preferences.start();
  guard.start();
  const sessionActor = session;

  let realtime: Realtime | null = null;
  let loading: Promise<RealtimeServices> | null = null;
  // The realtime module once preloaded: a sign-in then starts it synchronously, so the main
  // layout's first render finds it instead of suspending (a fallback shown delays the next reveal
  // by React's 300 ms).
  let preloaded: { startRealtime: typeof StartRealtime } | null = null;
  let stopped = false;
  const realtimeDeps: RealtimeDeps = {
    window,
    session: sessionActor,
    bus,
    execute: graphql.execute,
    executeIfFresh: ifFreshGraphql.execute,
    rest,
    socketUrl: settings.socketUrl,
    tenant: actsIn,
    createSocket: options.createSocket,
  };
  const start = (startRealtime: (deps: RealtimeDeps) => Realtime): RealtimeServices => {
    if (stopped) throw new Error('app services stopped');
    realtime ??= startRealtime(realtimeDeps);
    return realtime;
  };
  const realtimeHandle: RealtimeHandle = {
    current: () => realtime,
    ready() {
      if (loading) return loading;
      if (options.startRealtime) loading = Promise.resolve(start(options.startRealtime));
      else if (preloaded) loading = Promise.resolve(start(preloaded.startRealtime));
      else {
        const load = importWithTimeout(() => import('../machines/realtime/realtime')).then((module) =>
          start(module.startRealtime),
        );
        // A chunk that failed (offline) is asked for again next time.
        load.catch(() => {
          if (loading === load) loading = null;
        });
        loading = load;
      }
      return loading;
    },
    async preload() {
      if (options.startRealtime || realtime) return;
      // The bundler keeps one module instance: ready() later finds it evaluated. A failure here is
      // ready()'s to report, when the socket is actually needed.
      await importWithTimeout(() => import('../machines/realtime/realtime')).then(
        (module) => {
          preloaded = module;
        },
        () => undefined,
      );
    },
  };

  // The guard decides with the session's current subject (signed in, role, permitted routes).
  guard.send({ type: 'route.session', subject: selectAccessSubject(sessionActor.getSnapshot()) });
  let lastSubject = JSON.stringify(selectAccessSubject(sessionActor.getSnapshot()));
  const subjectSubscription = sessionActor.subscribe((snapshot) => {
    const subject = selectAccessSubject(snapshot);
    const key = JSON.stringify(subject);
    if (key === lastSubject) return;
    lastSubject = key;
    guard.send({ type: 'route.session', subject });
  });
  // The socket side starts with the first signed-in snapshot (a stored session: at once).
  const startWhenSignedIn = (snapshot: SessionSnapshot) => {
    if (realtime !== null || loading !== null || !selectIsAuthenticated(snapshot)) return;
    realtimeHandle.ready().catch((error: unknown) => {
      if (!stopped) console.error('realtime chunk failed to load', error);
    });
  };
  const realtimeSubscription = sessionActor.subscribe(startWhenSignedIn);
  startWhenSignedIn(sessionActor.getSnapshot());
  // Once preloaded, route-prefetch.ts sends the first screen's request with each sign-in's answer.
  const preloadSignIn = async () => {
    await Promise.all([
      realtimeHandle.preload(),
      importWithTimeout(() => import('../machines/navigation/route-prefetch')).then(
        (module) => {
          routePrefetch ??= module.createRoutePrefetch(sessionActor, authFetch, (fetch) =>
            createRestClient({ baseUrl: apiBase, fetch: activity.track(fetch) }),
          );
        },
        () => undefined,
      ),
    ]);
  };

  return {
    clients: { rest, graphql, fetch: authFetch },
    session: sessionActor,
    realtime: realtimeHandle,
    preloadSignIn,
    guard,
    preferences,
    bus,
    overlay: overlayControl(preferences),
    activity,
    settings,
    tenant,
    stop() {
      stopped = true;
      realtimeSubscription.unsubscribe();
      routePrefetch?.stop();
      realtime?.stop();
      subjectSubscription.unsubscribe();
      guard.stop();
      preferences.stop();
      sessionActor.stop();
    },
  };
}
