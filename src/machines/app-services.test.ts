// @vitest-environment jsdom
import { createAppServices, type AppServices } from './app-services';
import { writeStoredSession } from './session-storage';
import { USER } from './test-support/session-fakes';
import { fakeServer, flush, json } from './test-support/fake-fetch';
import { fakeSockets } from './test-support/socket-fakes';

let services: AppServices | undefined;
afterEach(() => {
  services?.stop();
  services = undefined;
  window.localStorage.clear();
});

function start() {
  const server = fakeServer(() => json(404, { message: 'no fake' }));
  const sockets = fakeSockets();
  // No `startRealtime`: the socket side comes from its chunk, as in the browser.
  services = createAppServices({ window, fetch: server.fetch, apiBase: 'http://api.test', createSocket: sockets.create });
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

  it('loads and starts at boot with a stored session, and connects with its token', async () => {
    writeStoredSession(window.localStorage, {
      token: 'stored-token',
      expiresAt: Date.now() + 3_600_000,
      email: USER.email,
      originBackoffice: true,
      user: USER,
      permittedRoutes: [],
      permissions: [],
      baseUrl: 'http://api.test',
    });
    const { services, sockets } = start();
    const first = services.realtime.ready();
    expect(services.realtime.ready()).toBe(first);
    const realtime = await first;
    expect(services.realtime.current()).toBe(realtime);
    expect(realtime.socket.getSnapshot().status).toBe('active');
    await vi.waitFor(() => expect(sockets.all).toHaveLength(1));
    expect(sockets.last().url).toContain('stored-token');
  });
});
