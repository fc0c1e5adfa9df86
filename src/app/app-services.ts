import { createActor, fromPromise } from 'xstate';
import type { FetchLike } from '../api/auth-middleware';
import type { Execute } from '../api/graphql-client';
import { lazyGraphqlClient } from '../api/lazy-graphql-client';
import { lazyRestClient } from '../api/lazy-rest-client';
import { createRecentAuditRecords, noteAuditRecords, type RecentAuditRecords } from '../api/audit-record-fetch';
import type { RestClient } from '../api/rest-client';
import { DEFAULT_TENANT, tenantFromPathname } from '../domain/paths';
import {
  appMachine,
  selectRealtimeFailed,
  selectRealtimeRunning,
  type AppActor,
  type RealtimeCode,
} from '../machines/app/app.machine';
import { findSystemActor, systemActor } from '../machines/app/app-system';
import type { ActivityFeedActor } from '../machines/realtime/activity-feed.machine';
import { createAppBus, type AppBus } from '../machines/shared/app-bus';
import { overlayControl, type PreferencesActor } from '../machines/preferences/preferences.machine';
import type { RouteGuardActor } from '../machines/navigation/route-guard.machine';
import type { OverlayControl } from '../machines/shared/bulk-run';
import { DisconnectedDocument } from '../generated/graphql-session';
import type { RoutePrefetch } from '../machines/navigation/route-prefetch';
import { createRequestActivity, type RequestActivity } from '../machines/shared/request-activity';
import { freshTokenFetch, sessionFetch } from '../machines/session/session-seam';
import { selectOwnTenant } from '../machines/session/session-selectors';
import { memoryStorage, windowStorageEvents, type StorageLike } from '../machines/session/session-storage';
import type { SessionActor } from '../machines/session/session.machine';
import type { CreateSocket } from '../machines/realtime/socket-actors';
import type { SocketActor } from '../machines/realtime/socket.machine';
import { importWithTimeout } from '../ui/components/preloadable';

/**
 * The composition root (docs/architecture.md, Layers): builds the HTTP clients over the session
 * seam and starts the root app machine (src/machines/app/app.machine.ts), which runs the app-wide
 * actors as one system (session, route guard, preferences; the socket and activity feed once signed
 * in) and links them by its transitions. Views receive the result through React context and only
 * read actors and send events; screen machines get `clients` through their `input`.
 */

/** Runtime settings (the server injects them into index.html; see `readSettings`). */
export interface AppSettings {
  /** `SOCKET_URL` (contracts/socket.md §1.1); default `/ws`. */
  socketUrl: string;
  /** Public-IP service (docs/product.md, Sessions); empty disables the lookup (login then sends ip: null). */
  ipLookupUrl: string;
  /**
   * Whether the server can e-mail password-reset links (`GET /api/auth/password-reset`'s answer, told in the
   * page so the login page shows "Esqueci minha senha" as it will stay, from its first paint); null when the
   * page does not say (the development server), and the login page asks.
   */
  passwordResetMail: boolean | null;
}

export const DEFAULT_SETTINGS: AppSettings = { socketUrl: '/ws', ipLookupUrl: '', passwordResetMail: null };

/** The socket and the activity feed, started once a user has signed in. */
export interface RealtimeServices {
  socket: SocketActor;
  /** The latest socket events, for the navbar's activity feed. */
  activityFeed: ActivityFeedActor;
}

/**
 * The socket, activity feed and presence (realtime.ts) are a chunk of their own, loaded and started
 * by the root app machine at the first sign-in (or at boot with a stored session), so the login route
 * carries none of them. This reads its realtime region.
 */
export interface RealtimeHandle {
  /** The running actors, or null until they have loaded. */
  current(): RealtimeServices | null;
  /**
   * Starts them (`app.realtime.load`) unless they run and resolves once they do: the same promise on
   * every call while one load is under way (React's `use` waits on it), a new one after a failed load.
   */
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
  /** The audit records recent REST answers named, for a change's toast to offer "Desfazer" (absent: no offer). */
  auditRecords?: RecentAuditRecords;
}

export interface AppServices {
  /** The root of the actor system; the actors below are its children, by `systemId` (app-system.ts). */
  app: AppActor;
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
   * The realtime code in place, without loading its chunk (tests pass realtime.ts, so the socket side
   * starts in the same step as a sign-in); default: the chunk, loaded by the root app machine.
   */
  realtimeCode?: RealtimeCode;
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
      passwordResetMail: typeof parsed.passwordResetMail === 'boolean' ? parsed.passwordResetMail : null,
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
  // The clients find the session in the app's actor system (created below, before any request).
  const session = (): SessionActor => systemActor(app.system, 'session');
  // Where GraphQL and the socket go: the address's tenant, but a signed-in user who is not staff acts in
  // its own only (docs/product.md, Tenants in the address), also in the moment before the router moves it there.
  const actsIn = () => {
    const current = findSystemActor(app.system, 'session');
    return (current && selectOwnTenant(current.getSnapshot())) || tenant();
  };
  const apiBase = options.apiBase ?? '';
  const graphqlUrl = () => `${apiBase}/${actsIn()}/graphql`;

  const authFetch = sessionFetch(session, network);
  // The first screen's request, sent with the sign-in answer (route-prefetch.ts, once preloaded).
  let routePrefetch: RoutePrefetch | null = null;
  const activity = createRequestActivity();
  const counted = activity.track((request) => (routePrefetch ? routePrefetch.fetch(request) : authFetch(request)));
  // The typed REST client (openapi-fetch) is a chunk of its own: nothing on the login page calls it
  // before the sign-in, which the page fetches it for while idle (`preloadSignIn`); a stored session
  // loads it with its first request (the profile), beside the main layout's chunk.
  const loadRestCode = () => importWithTimeout(() => import('../api/create-rest-client'));
  // Each REST or GraphQL answer that names its change's audit record (`x-audit-record`) notes it, for the
  // change's toast (docs/lists.md, Undo on the server).
  const auditRecords = createRecentAuditRecords();
  const lazyRest = lazyRestClient(() =>
    loadRestCode().then(({ createRestClient }) =>
      createRestClient({ baseUrl: apiBase, fetch: noteAuditRecords(counted, auditRecords) }),
    ),
  );
  const rest = lazyRest.client;
  // The GraphQL client is a chunk of its own too: nothing on the login page calls it before a sign-in
  // (the page fetches it while idle, `preloadSignIn`); a stored session loads it with its first call.
  const loadGraphqlCode = () => importWithTimeout(() => import('../api/graphql-client'));
  const graphqlClient = (fetch: FetchLike) =>
    lazyGraphqlClient(() =>
      loadGraphqlCode().then(({ createGraphqlClient }) => createGraphqlClient({ url: graphqlUrl, fetch })),
    );
  const graphql = graphqlClient(noteAuditRecords(counted, auditRecords));
  // The refresh call goes over the plain network fetch, so a refresh can never recurse into the seam.
  const refreshGraphql = graphqlClient(network);
  // Requests made while the page is being left: never a refresh, never a logout (session-seam.ts).
  const ifFreshGraphql = graphqlClient(freshTokenFetch(session, network));
  // The lookup's code is a chunk of its own, fetched only where a lookup service is configured; a chunk
  // that does not arrive is a lookup that failed (null), as the lookup itself never throws.
  const lookupIp = () =>
    settings.ipLookupUrl === ''
      ? Promise.resolve(null)
      : importWithTimeout(() => import('../api/ip-lookup')).then(
          ({ lookupPublicIp }) => lookupPublicIp({ url: settings.ipLookupUrl, fetch: network }),
          () => null,
        );
  const bus = createAppBus();
  const loadRealtime = () => importWithTimeout(() => import('../machines/realtime/realtime'));

  const app: AppActor = createActor(appMachine.provide({ actors: { loadRealtime: fromPromise(loadRealtime) } }), {
    systemId: 'app',
    input: {
      session: {
        rest,
        refreshGraphql,
        lookupIp,
        storage,
        storageEvents: windowStorageEvents(window),
        baseUrl: apiBase,
        // Presence (docs/product.md, Presence): say `disconnected` while the token still works (the rest is presence-link.ts).
        beforeLogout: () => graphql.execute(DisconnectedDocument),
      },
      preferences: { storage },
      realtime: {
        window,
        bus,
        execute: graphql.execute,
        executeIfFresh: ifFreshGraphql.execute,
        rest,
        socketUrl: settings.socketUrl,
        tenant: actsIn,
        createSocket: options.createSocket,
      },
      realtimeCode: options.realtimeCode,
    },
  });
  app.start();
  const sessionActor = systemActor(app.system, 'session');
  const preferences = systemActor(app.system, 'preferences');
  const guard = systemActor(app.system, 'routeGuard');
  // The chosen language and theme in a cookie too, for the login page the server sends (./look-cookie-keeper.ts).
  let stopped = false;
  let stopLook = () => undefined as void;
  if (window.document)
    void importWithTimeout(() => import('./look-cookie-keeper')).then(
      ({ keepLookCookie }) => {
        if (!stopped) stopLook = keepLookCookie(preferences, window.document, window.location.protocol === 'https:');
      },
      () => undefined,
    );

  // The same object while one realtime side runs, so views and `use` see a stable value.
  const started = new WeakMap<object, RealtimeServices>();
  const current = (): RealtimeServices | null => {
    const snapshot = app.getSnapshot();
    const running = snapshot.context.realtime;
    if (!selectRealtimeRunning(snapshot) || running === null) return null;
    let services = started.get(running);
    if (!services) {
      services = { socket: systemActor(app.system, 'socket'), activityFeed: systemActor(app.system, 'activityFeed') };
      started.set(running, services);
    }
    return services;
  };
  // One promise per load, for React's `use`: the state itself is the machine's realtime region.
  let waiting: Promise<RealtimeServices> | null = null;
  const realtimeHandle: RealtimeHandle = {
    current,
    ready() {
      const running = current();
      if (running) return Promise.resolve(running);
      if (waiting) return waiting;
      app.send({ type: 'app.realtime.load' });
      const settled = current();
      if (settled) return Promise.resolve(settled);
      const wait = new Promise<RealtimeServices>((resolve, reject) => {
        const subscription = app.subscribe({
          next: (snapshot) => {
            const running = current();
            if (running) resolve(running);
            else if (selectRealtimeFailed(snapshot)) reject(new Error('the realtime chunk did not load'));
            else return;
            subscription.unsubscribe();
          },
          error: reject,
        });
      });
      // A chunk that failed (offline) is asked for again next time.
      wait.catch(() => {
        if (waiting === wait) waiting = null;
      });
      waiting = wait;
      return wait;
    },
    async preload() {
      app.send({ type: 'app.realtime.preload' });
      // A failure here is silent (the machine goes back to idle): the load at sign-in reports it.
      await new Promise<void>((resolve) => {
        const done = () => !app.getSnapshot().matches({ realtime: 'preloading' });
        if (done()) return resolve();
        const subscription = app.subscribe({
          next: () => {
            if (!done()) return;
            subscription.unsubscribe();
            resolve();
          },
          complete: resolve,
        });
      });
    },
  };

  // Once preloaded, route-prefetch.ts sends the first screen's request with each sign-in's answer.
  const preloadSignIn = async () => {
    await Promise.all([
      realtimeHandle.preload(),
      // The sign-in itself goes out with it; a failure here is met again by that request.
      lazyRest.load().catch(() => undefined),
      // The socket side's first calls (presence) and the refresh go out with it.
      ...[graphql, refreshGraphql, ifFreshGraphql].map((client) => client.load().catch(() => undefined)),
      Promise.all([importWithTimeout(() => import('../machines/navigation/route-prefetch')), loadRestCode()]).then(
        ([module, { createRestClient }]) => {
          routePrefetch ??= module.createRoutePrefetch(sessionActor, authFetch, (fetch) =>
            createRestClient({ baseUrl: apiBase, fetch: activity.track(fetch) }),
          );
        },
        () => undefined,
      ),
    ]);
  };

  return {
    app,
    clients: { rest, graphql: { execute: graphql.execute }, fetch: authFetch, auditRecords },
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
      stopLook();
      routePrefetch?.stop();
      app.stop();
    },
  };
}
