import { createActor } from 'xstate';
import type { FetchLike } from '../api/auth-middleware';
import { createGraphqlClient, type Execute } from '../api/graphql-client';
import { lookupPublicIp } from '../api/ip-lookup';
import { createRestClient, type RestClient } from '../api/rest-client';
import { DEFAULT_TENANT, tenantFromPathname } from '../domain/paths';
import { activityFeedMachine, type ActivityFeedActor } from './activity-feed.machine';
import { createAppBus, type AppBus } from './app-bus';
import { overlayControl, preferencesMachine, type PreferencesActor } from './preferences.machine';
import { routeGuardMachine, type RouteGuardActor } from './route-guard.machine';
import type { OverlayControl } from './bulk-run';
import { linkPresence, presenceBeforeLogout } from './presence-link';
import { createRequestActivity, type RequestActivity } from './request-activity';
import { sessionFetch } from './session-seam';
import { selectAccessSubject } from './session-selectors';
import { memoryStorage, windowStorageEvents, type StorageLike } from './session-storage';
import { sessionMachine, type SessionActor } from './session.machine';
import { windowPageHide, type CreateSocket } from './socket-actors';
import { linkSocketToSession } from './socket-link';
import { socketMachine, type SocketActor } from './socket.machine';

/**
 * The composition root (DESIGN §2: ui → machines → api): builds the HTTP clients over the session
 * seam, starts the app-wide actors (session, socket, route guard, preferences) and links them. Views
 * receive the result through React context and only read actors and send events; screen machines get
 * `clients` through their `input`.
 */

/** Runtime settings (the server injects them into index.html; see `readSettings`). */
export interface AppSettings {
  /** `SOCKET_URL` (contracts/socket.md §1.1); default `/ws`. */
  socketUrl: string;
  /** Public-IP service (SPEC §7); empty disables the lookup (login then sends ip: null). */
  ipLookupUrl: string;
}

export const DEFAULT_SETTINGS: AppSettings = { socketUrl: '/ws', ipLookupUrl: '' };

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
  socket: SocketActor;
  guard: RouteGuardActor;
  preferences: PreferencesActor;
  bus: AppBus;
  /** The latest socket events, for the navbar's activity feed. */
  activityFeed: ActivityFeedActor;
  /** For bulk runners: holds the loading overlay off while they run (DESIGN §4). */
  overlay: OverlayControl;
  /** Requests in flight through the typed clients (the global loading indicator). */
  activity: RequestActivity;
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
}

/** Reads `<meta name="panel-settings" content='{"socketUrl":…}'>`; defaults for anything absent or malformed. */
export function readSettings(document: Pick<Document, 'querySelector'>): AppSettings {
  const raw = document.querySelector('meta[name="panel-settings"]')?.getAttribute('content');
  if (!raw) return DEFAULT_SETTINGS;
  try {
    const parsed = JSON.parse(raw) as Partial<Record<keyof AppSettings, unknown>>;
    return {
      socketUrl: typeof parsed.socketUrl === 'string' && parsed.socketUrl !== '' ? parsed.socketUrl : DEFAULT_SETTINGS.socketUrl,
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
  const apiBase = options.apiBase ?? '';
  const graphqlUrl = () => `${apiBase}/${tenant()}/graphql`;

  // Late binding: the clients need the session's seam, the session needs the REST client.
  const ref: { session?: SessionActor } = {};
  const source = () => {
    if (!ref.session) throw new Error('session not started');
    return ref.session;
  };
  const authFetch = sessionFetch(source, network);
  const activity = createRequestActivity();
  const counted = activity.track(authFetch);
  const rest = createRestClient({ baseUrl: apiBase, fetch: counted });
  const graphql = createGraphqlClient({ url: graphqlUrl, fetch: counted });
  // The refresh call goes over the plain network fetch, so a refresh can never recurse into the seam.
  const refreshGraphql = createGraphqlClient({ url: graphqlUrl, fetch: network });
  const lookupIp = () => (settings.ipLookupUrl === '' ? Promise.resolve(null) : lookupPublicIp({ url: settings.ipLookupUrl, fetch: network }));

  const session = createActor(sessionMachine, {
    input: { rest, refreshGraphql, lookupIp, storage, storageEvents: windowStorageEvents(window), baseUrl: apiBase, beforeLogout: presenceBeforeLogout(graphql.execute) },
  });
  const preferences = createActor(preferencesMachine, { input: { storage } });
  const guard = createActor(routeGuardMachine, { input: {} });
  const bus = createAppBus();
  const activityFeed = createActor(activityFeedMachine, { input: { bus } });
  const socket = createActor(socketMachine, {
    input: {
      createSocket: options.createSocket ?? ((url) => new window.WebSocket(url)),
      pageUrl: window.location.href,
      bus,
      socketUrl: settings.socketUrl,
      pageHide: windowPageHide(window),
    },
  });

  ref.session = session;
  session.start();
  preferences.start();
  guard.start();
  activityFeed.start();
  socket.start();
  const sessionActor = session;

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
  const unlinkSocket = linkSocketToSession(sessionActor, socket, tenant);
  const unlinkPresence = linkPresence({ session: sessionActor, socket, execute: graphql.execute, pageHide: windowPageHide(window) });

  return {
    clients: { rest, graphql, fetch: authFetch },
    session: sessionActor,
    socket,
    guard,
    preferences,
    bus,
    activityFeed,
    overlay: overlayControl(preferences),
    activity,
    settings,
    tenant,
    stop() {
      unlinkSocket();
      unlinkPresence();
      subjectSubscription.unsubscribe();
      socket.stop();
      activityFeed.stop();
      guard.stop();
      preferences.stop();
      sessionActor.stop();
    },
  };
}
