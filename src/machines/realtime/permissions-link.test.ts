import { waitFor } from 'xstate';
import { createAppBus, type AppBus } from '../shared/app-bus';
import { memoryStorage, writeStoredSession } from '../session/session-storage';
import { deferred } from '../test-support/fake-fetch';
import { fakeApi, flush, json, NOW, startSession, USER, type RouteHandler } from '../test-support/session-fakes';
import { linkPermissions } from './permissions-link';

/** A signed-in session (role 2, routes `users`) with its profile loaded, linked to a bus. */
async function signedIn(routes: Record<string, RouteHandler> = {}) {
  const storage = memoryStorage();
  writeStoredSession(storage, {
    token: 'T1',
    expiresAt: NOW + 60_000,
    email: USER.email,
    originBackoffice: false,
    user: USER,
    permittedRoutes: ['users'],
    permissions: [],
    baseUrl: 'http://api.test',
  });
  const api = fakeApi(routes);
  const session = startSession({ storage, api });
  await waitFor(session.actor, (s) => s.matches({ auth: { authenticated: { profile: 'ready' } } }));
  const bus = createAppBus();
  const unlink = linkPermissions(session.actor, bus);
  const userInfoCalls = () => api.calls('GET /api/auth/userInfo').length;
  return { session: session.actor, bus, unlink, userInfoCalls };
}

const changed = (bus: AppBus, roleId: number) =>
  bus.publish({
    name: 'rolePermissionsChanged',
    data: { roleId },
    tenantName: 'farmacia-central',
    sentAt: new Date(NOW).toISOString(),
  });

describe('linkPermissions', () => {
  it("reloads the permitted routes when the user's role changes, and the new list replaces the old", async () => {
    let routes = ['users'];
    const { session, bus, userInfoCalls } = await signedIn({
      'GET /api/auth/userInfo': () => json(200, { user: USER, has_permission_routes: routes }),
    });
    const before = userInfoCalls();
    routes = ['dashboard-analytics'];
    changed(bus, USER.role.id);
    await waitFor(session, (s) => s.context.permittedRoutes.includes('dashboard-analytics'));
    expect(session.getSnapshot().context.permittedRoutes).toEqual(['dashboard-analytics']);
    expect(userInfoCalls()).toBe(before + 1);
  });

  it("ignores another role's change", async () => {
    const { session, bus, userInfoCalls } = await signedIn();
    const before = userInfoCalls();
    changed(bus, USER.role.id + 1);
    await flush();
    expect(userInfoCalls()).toBe(before);
    expect(session.getSnapshot().matches({ auth: { authenticated: { profile: 'ready' } } })).toBe(true);
  });

  it('a change during a reload starts it again, so the last answer wins', async () => {
    const first = deferred<Response>();
    let answer: () => Response | Promise<Response> = () => json(200, { user: USER, has_permission_routes: ['users'] });
    const { session, bus, userInfoCalls } = await signedIn({ 'GET /api/auth/userInfo': () => answer() });
    const before = userInfoCalls();
    answer = () => first.promise;
    changed(bus, USER.role.id);
    await flush();
    answer = () => json(200, { user: USER, has_permission_routes: ['dashboard-report'] });
    changed(bus, USER.role.id);
    // The first (stale) answer arrives after the restart: it is dropped with its actor.
    first.resolve(json(200, { user: USER, has_permission_routes: ['users', 'stale'] }));
    await waitFor(session, (s) => s.context.permittedRoutes.includes('dashboard-report'));
    await flush();
    expect(userInfoCalls()).toBe(before + 2);
    expect(session.getSnapshot().context.permittedRoutes).toEqual(['dashboard-report']);
  });

  it('stops listening once unlinked', async () => {
    const { bus, unlink, userInfoCalls } = await signedIn();
    const before = userInfoCalls();
    unlink();
    changed(bus, USER.role.id);
    await flush();
    expect(userInfoCalls()).toBe(before);
  });
});
