// @vitest-environment jsdom
import { waitFor } from 'xstate';
import { createAppServices, type AppServices } from './app-services';
import { parseTenantsQuery, toPageRequest } from '../domain/tenants-query';
import { writeStoredSession, type StoredSession } from '../machines/session/session-storage';
import { USER } from '../machines/test-support/session-fakes';
import { fakeServer, flush, gqlData, json, operationOf, type SeenRequest } from '../machines/test-support/fake-fetch';
import { fakeSockets } from '../machines/test-support/socket-fakes';
import { DeleteUserDocument, UpdateUserDocument } from '../generated/graphql';

let services: AppServices | undefined;
afterEach(() => {
  services?.stop();
  services = undefined;
  window.localStorage.clear();
});

/** A signed-in session as a reload finds it in localStorage: fresh for an hour unless `overrides` say. */
function storeSignedIn(overrides: Partial<StoredSession> = {}) {
  writeStoredSession(window.localStorage, {
    token: 'stored-token',
    expiresAt: Date.now() + 3_600_000,
    email: USER.email,
    originBackoffice: true,
    user: USER,
    permittedRoutes: [],
    permissions: [],
    baseUrl: 'http://api.test',
    ...overrides,
  });
}

function start() {
  // The socket's ticket (contracts/socket.md §1.1), answered only to the stored session's token.
  const server = fakeServer((request) =>
    request.method === 'POST' &&
    request.path === '/api/auth/socket-ticket' &&
    request.headers.get('Authorization') === 'Bearer stored-token'
      ? json(200, { ticket: 'ticket-of-stored-token', expires_in: 30 })
      : json(404, { message: 'no fake' }),
  );
  const sockets = fakeSockets();
  // No `startRealtime`: the socket side comes from its chunk, as in the browser.
  services = createAppServices({
    window,
    fetch: server.fetch,
    apiBase: 'http://api.test',
    createSocket: sockets.create,
  });
  return { services, sockets };
}

describe('createAppServices: the socket side (realtime.ts)', () => {
  it('is not loaded for a signed-out visitor', async () => {
    const { services, sockets } = start();
    await flush();
    expect(services.realtime.current()).toBeNull();
    expect(sockets.all).toHaveLength(0);
  });

  it('preloads its code for a signed-out visitor without starting or connecting anything', async () => {
    const { services, sockets } = start();
    await services.realtime.preload();
    await flush();
    expect(services.realtime.current()).toBeNull();
    expect(sockets.all).toHaveLength(0);
  });

  it('once preloaded, starts in the same task as a sign-in, so the first signed-in render never waits for it', async () => {
    const server = fakeServer((request) =>
      request.path === '/api/auth/login'
        ? json(200, {
            access_token: 'fresh-token',
            token_type: 'Bearer',
            expires_in: 900,
            origin_backoffice: true,
            has_permission_routes: [],
            user: USER,
          })
        : json(200, []),
    );
    services = createAppServices({
      window,
      fetch: server.fetch,
      apiBase: 'http://api.test',
      createSocket: fakeSockets().create,
    });
    await services.realtime.preload();
    expect(services.realtime.current()).toBeNull();
    const { session, realtime } = services;
    const startedWithSignIn = new Promise<boolean>((resolve) => {
      const subscription = session.subscribe((snapshot) => {
        if (!snapshot.hasTag('authenticated')) return;
        subscription.unsubscribe();
        resolve(realtime.current() !== null);
      });
    });
    session.send({ type: 'session.login', email: USER.email, password: 'Back#Office!Demo' });
    expect(await startedWithSignIn).toBe(true);
  });

  it('loads and starts at boot with a stored session, and connects with a ticket asked with its token', async () => {
    storeSignedIn();
    const { services, sockets } = start();
    const first = services.realtime.ready();
    expect(services.realtime.ready()).toBe(first);
    const realtime = await first;
    expect(services.realtime.current()).toBe(realtime);
    expect(realtime.socket.getSnapshot().status).toBe('active');
    await vi.waitFor(() => expect(sockets.all).toHaveLength(1));
    expect(sockets.last().url).toContain('ticket=ticket-of-stored-token');
    expect(sockets.last().url).not.toContain('token=');
  });
});

describe('createAppServices: the public-IP lookup (its code a chunk of its own)', () => {
  it('sends the configured service’s answer with the login', async () => {
    const server = fakeServer((request) =>
      request.path === '/ip'
        ? json(200, { ip: '203.0.113.7' })
        : request.path === '/api/auth/login'
          ? json(401, { message: 'wrong' })
          : json(404, { message: 'no fake' }),
    );
    services = createAppServices({
      window,
      fetch: server.fetch,
      apiBase: 'http://api.test',
      settings: { ipLookupUrl: 'http://ip.test/ip' },
      createSocket: fakeSockets().create,
    });
    const { session } = services;
    await waitFor(session, (s) => s.matches({ ip: 'settled' }));
    session.send({ type: 'session.login', email: USER.email, password: 'Back#Office!Demo' });
    await waitFor(session, (s) => s.matches({ auth: 'anonymous' }) && s.context.error !== null);
    expect(server.seen.find((r) => r.path === '/api/auth/login')?.body).toMatchObject({ ip: '203.0.113.7' });
  });

  it('asks no service when none is configured', async () => {
    const { services } = start();
    await waitFor(services.session, (s) => s.matches({ ip: 'settled' }));
    expect(services.session.getSnapshot().context.ip).toBeNull();
  });
});

describe('createAppServices: signed out while the socket side is still loading', () => {
  it('connects nothing once the chunk is in: no ticket asked, no socket opened, no request with the old token', async () => {
    storeSignedIn();
    const server = fakeServer((request) =>
      request.path === '/api/auth/userInfo'
        ? json(200, { user: USER, has_permission_routes: [] })
        : request.path === '/api/auth/socket-ticket'
          ? json(200, { ticket: 'ticket-of-stored-token', expires_in: 30 })
          : operationOf(request)
            ? gqlData({ [operationOf(request)!.name]: true })
            : json(200, { message: 'ok' }),
    );
    const sockets = fakeSockets();
    services = createAppServices({
      window,
      fetch: server.fetch,
      apiBase: 'http://api.test',
      createSocket: sockets.create,
    });
    const { app, session } = services;
    // The stored session started the chunk's load at boot; the user signs out before it is in.
    expect(app.getSnapshot().matches({ realtime: 'loading' })).toBe(true);
    session.send({ type: 'session.logout' });
    await waitFor(session, (s) => s.matches({ auth: 'anonymous' }));
    const signedOutAt = server.seen.length;
    await waitFor(app, (s) => s.matches({ realtime: 'running' }));
    await flush();
    await flush();
    expect(sockets.all).toHaveLength(0);
    expect(server.seen.filter((r) => r.path === '/api/auth/socket-ticket')).toHaveLength(0);
    expect(server.seen.slice(signedOutAt).filter((r) => r.headers.get('Authorization') !== null)).toEqual([]);
  });
});

describe('createAppServices: the first screen’s request after a sign-in', () => {
  const ADMIN = { ...USER, role: { ...USER.role, name: 'administrador' } };
  function signIn(user: typeof USER, to: string) {
    const server = fakeServer((request) =>
      request.path === '/api/auth/login'
        ? json(200, {
            access_token: 'fresh-token',
            token_type: 'Bearer',
            expires_in: 900,
            origin_backoffice: true,
            has_permission_routes: user.role.has_permission_routes,
            user,
          })
        : json(200, request.path === '/api/tenant/paginated' ? { data: [], total: 0 } : []),
    );
    services = createAppServices({
      window,
      fetch: server.fetch,
      apiBase: 'http://api.test',
      createSocket: fakeSockets().create,
    });
    const preloaded = services.preloadSignIn();
    const signedIn = preloaded.then(() => waitFor(services!.session, (s) => s.hasTag('authenticated')));
    void preloaded.then(() =>
      services!.session.send({ type: 'session.login', email: user.email, password: 'Back#Office!Demo', to }),
    );
    const pages = () => server.seen.filter((r) => r.path === '/api/tenant/paginated');
    return { services, server, signedIn, pages };
  }

  it('sends the tenants page with the sign-in answer, and the screen’s equal request takes that answer', async () => {
    const { services, signedIn, pages } = signIn(ADMIN, '/tenants?limit=100&sort=-name');
    await signedIn;
    await vi.waitFor(() => expect(pages()).toHaveLength(1));
    expect(pages()[0]?.body).toEqual(toPageRequest(parseTenantsQuery('limit=100&sort=-name')));
    // What tenants-list.machine.ts sends on its first load.
    const first = await services.clients.rest.POST('/api/tenant/paginated', {
      body: toPageRequest(parseTenantsQuery('limit=100&sort=-name')),
    });
    expect(first.data).toEqual({ data: [], total: 0 });
    expect(pages()).toHaveLength(1);
    // Once: a reload asks the server again.
    await services.clients.rest.POST('/api/tenant/paginated', {
      body: toPageRequest(parseTenantsQuery('limit=100&sort=-name')),
    });
    expect(pages()).toHaveLength(2);
  });

  it('a prefetched answer serves only the sign-in it was sent for: after a sign-out and another sign-in, the screen asks again', async () => {
    let logins = 0;
    const server = fakeServer((request) => {
      if (request.path === '/api/auth/login')
        return json(200, {
          access_token: `token-${++logins}`,
          token_type: 'Bearer',
          expires_in: 900,
          origin_backoffice: true,
          has_permission_routes: ADMIN.role.has_permission_routes,
          user: logins === 1 ? ADMIN : { ...ADMIN, id: 9, email: 'outro@demo.local' },
        });
      if (request.path === '/api/tenant/paginated')
        return json(200, { data: [], total: 0, askedWith: request.headers.get('Authorization') });
      return json(200, []);
    });
    services = createAppServices({
      window,
      fetch: server.fetch,
      apiBase: 'http://api.test',
      createSocket: fakeSockets().create,
    });
    const { session, clients } = services;
    await services.preloadSignIn();
    const body = toPageRequest(parseTenantsQuery('limit=100'));
    session.send({ type: 'session.login', email: ADMIN.email, password: 'Back#Office!Demo', to: '/tenants?limit=100' });
    await waitFor(session, (s) => s.hasTag('authenticated'));
    await vi.waitFor(() => expect(server.seen.filter((r) => r.path === '/api/tenant/paginated')).toHaveLength(1));
    session.send({ type: 'session.logout' });
    await waitFor(session, (s) => s.matches({ auth: 'anonymous' }));
    session.send({ type: 'session.login', email: 'outro@demo.local', password: 'Back#Office!Demo', to: '/users' });
    await waitFor(session, (s) => s.hasTag('authenticated'));
    const answer = await clients.rest.POST('/api/tenant/paginated', { body });
    expect(answer.data).toMatchObject({ askedWith: 'Bearer token-2' });
  });

  it('sends nothing for a screen the user may not open', async () => {
    const { signedIn, pages } = signIn(USER, '/tenants?limit=100');
    await signedIn;
    await flush();
    expect(pages()).toHaveLength(0);
  });
});

describe('createAppServices: leaving the page', () => {
  /** A signed-in page on a server that answers everything the session and presence ask for. */
  async function signedInPage() {
    storeSignedIn({ expiresAt: Date.now() + 60_000 });
    const respond = (request: SeenRequest) => {
      const operation = operationOf(request)?.name;
      if (operation === 'refreshToken') return gqlData({ refreshToken: { token: 'refreshed-token', expires_in: 900 } });
      if (operation) return gqlData({ [operation]: true });
      if (request.path === '/api/auth/userInfo') return json(200, { user: USER, has_permission_routes: [] });
      return json(200, []);
    };
    const server = fakeServer(respond);
    const keepalive: boolean[] = [];
    services = createAppServices({
      window,
      fetch: (request) => (keepalive.push(request.keepalive), server.fetch(request)),
      apiBase: 'http://api.test',
      createSocket: fakeSockets().create,
    });
    await services.realtime.ready();
    await vi.waitFor(() => expect(server.seen.some((r) => r.path === '/api/auth/userInfo')).toBe(true));
    await flush();
    server.seen.length = 0;
    keepalive.length = 0;
    const sent = () => server.seen.map((r) => [operationOf(r)?.name ?? r.path, r.headers.get('Authorization')]);
    return { services, sent, keepalive };
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it('says `disconnected` with the fresh token as a keepalive request, without refreshing', async () => {
    const { services, sent, keepalive } = await signedInPage();
    window.dispatchEvent(new Event('pagehide'));
    await flush();
    expect(sent()).toEqual([['disconnected', 'Bearer stored-token']]);
    expect(keepalive).toEqual([true]);
    expect(services.session.getSnapshot().context.token).toBe('stored-token');
  });

  it("after an idle period past the token's life sends nothing: no refresh cut off by the navigation", async () => {
    const { services, sent } = await signedInPage();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 120_000);
    window.dispatchEvent(new Event('pagehide'));
    await flush();
    await flush();
    expect(sent()).toEqual([]);
    expect(services.session.getSnapshot().hasTag('refreshing')).toBe(false);
    expect(window.localStorage.getItem('accessToken')).toBe('stored-token');
  });
});

describe('createAppServices: the audit record a change names (docs/lists.md, Undo on the server)', () => {
  it("notes `x-audit-record` of a GraphQL change's answer for its toast, as of a REST one", async () => {
    storeSignedIn();
    const server = fakeServer((request) => {
      const operation = operationOf(request)?.name;
      if (operation === 'updateUser')
        return json(200, { data: { updateUser: { id: 7 } } }, { 'x-audit-record': '314' });
      if (operation === 'deleteUser')
        return json(200, { data: null, errors: [{ message: 'NOT_FOUND', extensions: { code: 'NOT_FOUND' } }] }, {});
      if (request.path === '/api/auth/userInfo') return json(200, { user: USER, has_permission_routes: [] });
      return json(200, []);
    });
    services = createAppServices({
      window,
      fetch: server.fetch,
      apiBase: 'http://api.test',
      createSocket: fakeSockets().create,
    });
    const { graphql, auditRecords } = services.clients;
    await graphql.execute(UpdateUserDocument, { id: 7, name: 'Nome Novo' });
    expect(auditRecords?.take()).toBe(314);
    expect(auditRecords?.take()).toBeNull();
    await graphql.execute(DeleteUserDocument, { id: 7 }).catch(() => undefined);
    expect(auditRecords?.take()).toBeNull();
  });
});
