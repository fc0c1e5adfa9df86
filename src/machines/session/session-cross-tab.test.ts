import { waitFor } from 'xstate';
import { writeStoredSession } from './session-storage';
import { fakeApi, flush, startSession, storageHub, USER } from '../test-support/session-fakes';
import { T1_SESSION } from '../test-support/session-fixtures';

describe('session: cross-tab', () => {
  it('a logout in one tab signs the other out without a second logout call', async () => {
    const hub = storageHub();
    const a = startSession({ ...hub.tab() });
    const b = startSession({ ...hub.tab() });
    a.actor.send({ type: 'session.login', email: USER.email, password: 'x' });
    await waitFor(b.actor, (s) => s.hasTag('authenticated'));
    expect(b.actor.getSnapshot().context.token).toBe('T1');
    await flush();
    a.actor.send({ type: 'session.logout' });
    await waitFor(b.actor, (s) => s.matches({ auth: 'anonymous' }));
    expect(b.actor.getSnapshot().context.ended).toBe('remote');
    expect(b.api.calls('POST /api/auth/logout')).toHaveLength(0);
  });

  it("a token refreshed in one tab replaces the other tab's token, even mid-refresh", async () => {
    const hub = storageHub();
    writeStoredSession(hub.shared, T1_SESSION);
    const a = startSession({ ...hub.tab() });
    const b = startSession({
      ...hub.tab(),
      api: fakeApi({ 'GRAPHQL refreshToken': () => new Promise(() => undefined) }),
    });
    await flush();
    b.actor.send({ type: 'session.refresh', token: 'T1' });
    expect(b.actor.getSnapshot().hasTag('refreshing')).toBe(true);
    a.actor.send({ type: 'session.refresh', token: 'T1' });
    await waitFor(b.actor, (s) => s.context.token === 'T2' && !s.hasTag('refreshing'));
    expect(a.actor.getSnapshot().context.token).toBe('T2');
  });
});
