import { createActor, type SimulatedClock } from 'xstate';
import { createGraphqlClient } from '../../api/graphql-client';
import { createRestClient } from '../../api/create-rest-client';
import type { FetchLike } from '../../api/auth-middleware';
import type { LoginResponse } from '../session/session-actors';
import type { SessionInput, SessionNotice } from '../session/session.machine';
import { sessionMachine, type SessionActor } from '../session/session.machine';
import { sessionFetch } from '../session/session-seam';
import { memoryStorage, type StorageChange, type StorageLike, type User } from '../session/session-storage';

/** Fakes for session tests: a scripted API behind the REAL REST and GraphQL clients, and a multi-tab storage. */

export const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

export const USER: User = {
  id: 2,
  version: 1,
  name: 'Olga Operadora',
  username: 'operador',
  email: 'operador@demo.local',
  image: null,
  isConnected: true,
  role: { id: 2, name: 'operador', display_name: 'Operador', version: 1, has_permission_routes: ['users'] },
  userDepartment: null,
  userInstances: [],
  blocked: false,
  twoFactorEnabled: false,
  twoFactorEnrolmentRequired: false,
  tenantName: 'farmacia-central',
  origin_backoffice: false,
};

export function loginResponse(token: string, overrides: Partial<LoginResponse> = {}): LoginResponse {
  return {
    access_token: token,
    token_type: 'Bearer',
    expires_in: 900,
    origin_backoffice: false,
    has_permission_routes: ['users'],
    user: USER,
    ...overrides,
  };
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A fetch that fails the test if anything calls it (for inputs whose actors are faked). */
export const unreachableFetch: FetchLike = (request) =>
  Promise.reject(new Error(`unexpected request ${request.method} ${request.url}`));

/** Several tabs over one storage: a write in one tab reaches the others' listeners, never its own (like `storage` events). */
export function storageHub(initial: Record<string, string> = {}) {
  const shared = memoryStorage(initial);
  const tabs: { listeners: Set<(change: StorageChange) => void> }[] = [];
  function tab() {
    const self = { listeners: new Set<(change: StorageChange) => void>() };
    tabs.push(self);
    const notify = (key: string) =>
      tabs.filter((t) => t !== self).forEach((t) => t.listeners.forEach((l) => l({ key })));
    const storage: StorageLike = {
      getItem: (key) => shared.getItem(key),
      setItem: (key, value) => {
        const changed = shared.getItem(key) !== value;
        shared.setItem(key, value);
        if (changed) notify(key);
      },
      removeItem: (key) => {
        const existed = shared.getItem(key) !== null;
        shared.removeItem(key);
        if (existed) notify(key);
      },
    };
    const storageEvents = (listener: (change: StorageChange) => void) => {
      self.listeners.add(listener);
      return () => void self.listeners.delete(listener);
    };
    return { storage, storageEvents };
  }
  return { shared, tab };
}

/** A session input whose clients must never be reached (actors are provided as fakes). */
export function inertSessionInput(overrides: Partial<SessionInput> = {}): SessionInput {
  return {
    rest: createRestClient({ baseUrl: 'http://api.test', fetch: unreachableFetch }),
    refreshGraphql: createGraphqlClient({
      url: () => 'http://api.test/farmacia-central/graphql',
      fetch: unreachableFetch,
    }),
    lookupIp: () => Promise.reject(new Error('ip lookup is faked')),
    storage: memoryStorage(),
    storageEvents: () => () => undefined,
    now: () => NOW,
    baseUrl: 'http://api.test',
    ...overrides,
  };
}

/** One request as the fake API saw it. */
export interface SeenRequest {
  route: string;
  authorization: string | null;
  body: unknown;
}

export type RouteHandler = (request: Request, body: unknown) => Response | Promise<Response>;

/**
 * A scripted API on `http://api.test`: handlers keyed by `METHOD /path` (GraphQL by
 * `GRAPHQL <operationName>`), every request recorded with its bearer token and parsed body.
 */
export function fakeApi(routes: Record<string, RouteHandler> = {}) {
  const seen: SeenRequest[] = [];
  let tickets = 0;
  const handlers: Record<string, RouteHandler> = {
    'POST /api/auth/login': () => json(200, loginResponse('T1')),
    'POST /api/auth/logout': () => json(200, { message: 'Logged out' }),
    'GET /api/auth/userInfo': () => json(200, { user: USER, has_permission_routes: ['users', 'tenants'] }),
    'GET /api/permission/email': () =>
      json(200, [{ id: 1, route_name: 'users', display_name: 'Usuários', category: 'Usuários' }]),
    'GRAPHQL refreshToken': () => json(200, { data: { refreshToken: { token: 'T2', expires_in: 900 } } }),
    'POST /api/auth/socket-ticket': () => json(200, { ticket: `K${++tickets}`, expires_in: 30 }),
    ...routes,
  };
  const fetch: FetchLike = async (request) => {
    const url = new URL(request.url);
    const text = request.body ? await request.clone().text() : '';
    const body: unknown = text ? JSON.parse(text) : null;
    const operation = url.pathname.endsWith('/graphql')
      ? (body as { operationName?: string } | null)?.operationName
      : undefined;
    const route = operation ? `GRAPHQL ${operation}` : `${request.method} ${url.pathname}`;
    seen.push({ route, authorization: request.headers.get('Authorization'), body });
    const handler = handlers[route];
    if (!handler) throw new Error(`fake API has no route ${route}`);
    return handler(request, body);
  };
  const calls = (route: string) => seen.filter((s) => s.route === route);
  return { fetch, seen, calls, handlers };
}

export type FakeApi = ReturnType<typeof fakeApi>;

/** Lets every pending promise reaction run (fake actors and fetches resolve in microtasks). */
export const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export interface StartOptions {
  api?: FakeApi;
  storage?: StorageLike;
  storageEvents?: SessionInput['storageEvents'];
  lookupIp?: () => Promise<string | null>;
  now?: () => number;
  clock?: SimulatedClock;
  beforeLogout?: () => Promise<unknown>;
  /** Hears what the session tells its owner (its `announce` action; the root app machine's `sendParent`). */
  announce?: (notice: SessionNotice) => void;
}

/**
 * A real session wired as the UI will wire it: the REST client over `sessionFetch(() => actor)`,
 * the refresh GraphQL client over the plain fake fetch, everything else injected.
 */
export function startSession(options: StartOptions = {}) {
  const api = options.api ?? fakeApi();
  // Assigned right below; the seam reads it lazily, only when a request is made.
  const holder: { actor?: SessionActor } = {};
  const current = (): SessionActor => {
    if (!holder.actor) throw new Error('session not started');
    return holder.actor;
  };
  const rest = createRestClient({ baseUrl: 'http://api.test', fetch: sessionFetch(current, api.fetch) });
  const input: SessionInput = {
    rest,
    refreshGraphql: createGraphqlClient({ url: () => 'http://api.test/farmacia-central/graphql', fetch: api.fetch }),
    lookupIp: options.lookupIp ?? (() => Promise.resolve('203.0.113.7')),
    storage: options.storage ?? memoryStorage(),
    storageEvents: options.storageEvents ?? (() => () => undefined),
    now: options.now ?? (() => NOW),
    baseUrl: 'http://api.test',
    ...(options.beforeLogout ? { beforeLogout: options.beforeLogout } : {}),
  };
  const { announce } = options;
  const machine = announce
    ? sessionMachine.provide({ actions: { announce: (_, notice: SessionNotice | null) => notice && announce(notice) } })
    : sessionMachine;
  const actor = createActor(machine, { input, ...(options.clock ? { clock: options.clock } : {}) });
  holder.actor = actor;
  actor.start();
  return { actor, api, rest, input };
}
