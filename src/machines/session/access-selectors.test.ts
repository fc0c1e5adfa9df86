import { waitFor } from 'xstate';
import { fakeApi, flush, json, loginResponse, startSession, USER } from '../test-support/session-fakes';
import { loggedIn } from '../test-support/session-fixtures';
import { getRoute } from '../../domain/paths';
import { canAccess, sameAccessSubject } from '../../domain/route-access';
import { sameSubject, selectIsStaff, selectSubject } from './access-selectors';
import { selectAccessSubject } from './session-selectors';

const credentials = { type: 'session.login', email: USER.email, password: 'Back#Office!Demo' } as const;

describe('access selectors: the signed-in user as the access rules see it', () => {
  it('is nobody while signed out; after sign-in its role, routes and ids, and whether it is staff', async () => {
    const { actor } = startSession();
    await flush();
    expect(selectSubject(actor.getSnapshot())).toBeNull();
    expect(selectIsStaff(actor.getSnapshot())).toBe(false);
    actor.send(credentials);
    await loggedIn(actor);
    expect(selectSubject(actor.getSnapshot())).toEqual({ role: 'operador', routes: ['users'], userId: 2, roleId: 2 });
    expect(selectIsStaff(actor.getSnapshot())).toBe(false);
    // A profile reload brings the routes the server now lists.
    actor.send({ type: 'session.reloadProfile' });
    await waitFor(actor, (s) => s.context.permittedRoutes.length === 2);
    expect(selectSubject(actor.getSnapshot())?.routes).toEqual(['users', 'tenants']);
  });

  it('says staff for a back-office sign-in, and nobody again after logout', async () => {
    const api = fakeApi({ 'POST /api/auth/login': () => json(200, loginResponse('T1', { origin_backoffice: true })) });
    const { actor } = startSession({ api });
    await flush();
    actor.send(credentials);
    await loggedIn(actor);
    expect(selectIsStaff(actor.getSnapshot())).toBe(true);
    // The guard and the menu read the same answer (route-access.ts `canAccess` on a staff route).
    expect(selectAccessSubject(actor.getSnapshot()).staff).toBe(true);
    expect(canAccess(getRoute('support'), selectAccessSubject(actor.getSnapshot()))).toBe(true);
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.matches({ auth: 'anonymous' }));
    expect(selectIsStaff(actor.getSnapshot())).toBe(false);
    expect(selectAccessSubject(actor.getSnapshot()).staff).toBe(false);
    expect(selectSubject(actor.getSnapshot())).toBeNull();
  });

  it('a customer user holding `users` is not let into the support desk: staff or not is part of the access subject', async () => {
    const { actor } = startSession();
    await flush();
    actor.send(credentials);
    await loggedIn(actor);
    const customer = selectAccessSubject(actor.getSnapshot());
    expect(customer).toMatchObject({ staff: false, permittedRoutes: ['users'] });
    expect(canAccess(getRoute('users'), customer)).toBe(true);
    expect(canAccess(getRoute('support'), customer)).toBe(false);
    // A change of staff alone is a change of subject (the guard decides again).
    expect(sameAccessSubject(customer, { ...customer, staff: true })).toBe(false);
  });

  it('compares subjects by what the rules read', () => {
    const a = { role: 'operador', routes: ['users'], userId: 2, roleId: 2 };
    expect(sameSubject(a, { ...a, routes: ['users'] })).toBe(true);
    expect(sameSubject(a, { ...a, routes: ['users', 'tenants'] })).toBe(false);
    expect(sameSubject(a, { ...a, role: 'administrador' })).toBe(false);
    expect(sameSubject(a, { ...a, userId: 3 })).toBe(false);
    expect(sameSubject(a, null)).toBe(false);
    expect(sameSubject(null, null)).toBe(true);
  });
});
