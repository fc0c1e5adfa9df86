import { NOW, startSession } from '../test-support/session-fakes';
import { loggedIn, remote, stored } from '../test-support/session-fixtures';

describe('session machine: restore', () => {
  it('restores a stored session as authenticated and refreshes userInfo', async () => {
    const { actor, api } = startSession({ storage: stored({ ...remote, expiresAt: NOW + 60_000 }) });
    expect(actor.getSnapshot().hasTag('authenticated')).toBe(true);
    expect(actor.getSnapshot().context.token).toBe('T3');
    await loggedIn(actor);
    expect(api.calls('GET /api/auth/userInfo')[0]?.authorization).toBe('Bearer T3');
    expect(actor.getSnapshot().context.permittedRoutes).toEqual(['users', 'tenants']);
  });

  it('refreshes a locally expired stored token before its first request leaves', async () => {
    const { actor, api } = startSession({ storage: stored(remote) });
    await loggedIn(actor);
    expect(api.seen.map((s) => [s.route, s.authorization])).toEqual([
      ['GRAPHQL refreshToken', 'Bearer T3'],
      ['GET /api/auth/userInfo', 'Bearer T2'],
      ['GET /api/permission/email', 'Bearer T2'],
    ]);
  });

  it('starts anonymous without a token, or with a token issued by another API base', () => {
    expect(startSession().actor.getSnapshot().matches({ auth: 'anonymous' })).toBe(true);
    const other = startSession({ storage: stored({ ...remote, baseUrl: 'http://other.test' }) });
    expect(other.actor.getSnapshot().matches({ auth: 'anonymous' })).toBe(true);
  });
});
