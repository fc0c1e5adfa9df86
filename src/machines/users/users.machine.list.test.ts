import { createActor } from 'xstate';
import { usersMachine } from './users.machine';
import { fakeServer, flush, gqlData, gqlError, json, operationOf } from '../test-support/fake-fetch';
import { roleRows, userRow } from '../test-support/user-fixtures';
import { restUser, startUsers, two } from '../test-support/users-machine-fixtures';

describe('usersMachine: against the contracts', () => {
  it('lists through GraphQL users; a failure is an empty list that says it failed', async () => {
    const ok = startUsers();
    await flush();
    expect(ok.ctx().users.map((u) => u.id)).toEqual([1, 2]);
    // The roles come with the list: which users the signed-in user may act on depends on their routes.
    expect(ok.ctx().roles).toEqual(roleRows);
    expect(ok.actor.getSnapshot().matches({ list: 'ready', dialog: 'idle' })).toBe(true);
    const ko = startUsers((r) =>
      operationOf(r)?.name === 'users' ? gqlError('FORBIDDEN', undefined, 403) : undefined,
    );
    await flush();
    expect(ko.actor.getSnapshot().matches({ list: 'failed' })).toBe(true);
    expect(ko.ctx().users).toEqual([]);
    expect(ko.ctx().listError).toEqual({ key: 'users.errors.load', reason: 'apiErrors.forbidden' });
  });

  it('updates presence live from the app bus, whatever it is doing', async () => {
    const t = startUsers((r) => (r.method === 'PATCH' ? new Promise<Response>(() => undefined) : undefined));
    await flush();
    t.send({ type: 'users.presence', userId: 1, isConnected: true });
    expect(t.ctx().users.find((u) => u.id === 1)?.isConnected).toBe(true);
    t.send({ type: 'users.block', user: two, blocked: false });
    t.send({ type: 'users.presence', userId: 2, isConnected: false });
    expect(t.actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(t.ctx().users.find((u) => u.id === 2)?.isConnected).toBe(false);
    const before = t.ctx().users;
    t.send({ type: 'users.presence', userId: 99, isConnected: true });
    expect(t.ctx().users).toEqual(before);
  });

  it("polls onlineUsers while the list is shown and sets every row's presence from it", async () => {
    vi.useFakeTimers();
    try {
      let online = [1];
      const fake = fakeServer((request) => {
        const op = operationOf(request);
        if (op?.name === 'users') return gqlData({ users: [userRow(1), two] });
        if (op?.name === 'roles') return gqlData({ roles: roleRows });
        if (op?.name === 'onlineUsers') return gqlData({ onlineUsers: online.map((id) => userRow(id)) });
        return gqlError('FORBIDDEN', undefined, 403);
      });
      const actor = createActor(usersMachine, {
        input: { execute: fake.execute, rest: fake.rest, presenceIntervalMs: 1000 },
      }).start();
      const connected = () => actor.getSnapshot().context.users.map((u) => u.isConnected);
      const polls = () => fake.seen.filter((r) => operationOf(r)?.name === 'onlineUsers').length;
      await vi.advanceTimersByTimeAsync(0);
      expect(connected()).toEqual([false, true]);
      expect(polls()).toBe(0);
      await vi.advanceTimersByTimeAsync(1000);
      expect(polls()).toBe(1);
      expect(connected()).toEqual([true, false]);
      const before = actor.getSnapshot().context.users;
      await vi.advanceTimersByTimeAsync(1000);
      // Nothing changed: the same list, so the view does not re-render its rows.
      expect(actor.getSnapshot().context.users).toBe(before);
      online = [2];
      await vi.advanceTimersByTimeAsync(1000);
      expect(connected()).toEqual([false, true]);
      actor.stop();
      await vi.advanceTimersByTimeAsync(5000);
      expect(polls()).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('with a dialog open, a reload and presence updates leave it open with its input intact', async () => {
    let answer: Promise<Response> = new Promise<Response>(() => undefined);
    const t = startUsers((r) => (r.method === 'PUT' ? answer : undefined));
    await flush();
    t.send({ type: 'users.emailOpen', user: two });
    t.send({ type: 'users.changeEmail', email: '' });
    t.send({ type: 'users.reload' });
    expect(t.actor.getSnapshot().matches({ list: 'loading', dialog: { open: 'emailForm' } })).toBe(true);
    await flush();
    t.send({ type: 'users.presence', userId: 2, isConnected: false });
    t.send({ type: 'users.online', ids: [1] });
    expect(t.actor.getSnapshot().matches({ list: 'ready', dialog: { open: 'emailForm' } })).toBe(true);
    expect(t.ctx().target).toBe(two);
    expect(t.ctx().actionError).toEqual({ key: 'users.errors.changeEmail', reason: 'apiErrors.validation' });
    // A call in flight survives a reload too, and its answer still lands in the reloaded list.
    let resolve: (response: Response) => void = () => undefined;
    answer = new Promise<Response>((done) => {
      resolve = done;
    });
    t.send({ type: 'users.changeEmail', email: 'nova@demo.local' });
    await flush();
    t.send({ type: 'users.reload' });
    await flush();
    expect(t.actor.getSnapshot().matches({ list: 'ready', dialog: 'changingEmail' })).toBe(true);
    expect(t.ctx().pending).toEqual({ email: 'nova@demo.local' });
    resolve(json(200, restUser({ ...two, email: 'nova@demo.local' })));
    await flush();
    expect(t.ctx().users.find((u) => u.id === 2)?.email).toBe('nova@demo.local');
    expect(t.outcomes.map((o) => [o.action, o.ok])).toEqual([['changeEmail', true]]);
    expect(t.actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
  });
});
