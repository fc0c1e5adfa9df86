import { createActor } from 'xstate';
import { usersMachine } from './users.machine';
import { fakeServer, flush, gqlData, gqlError, json, operationOf } from '../test-support/fake-fetch';
import { roleRows, userRow } from '../test-support/user-fixtures';
import { departmentRows, restUser, startUsers, two } from '../test-support/users-machine-fixtures';
import { usersPageOf } from '../test-support/users-page';
import { DEFAULT_QUERY, USERS_PAGE_SIZE, type UsersQuery } from './users-query';
import { deferred, type Deferred, type SeenRequest } from '../test-support/fake-fetch';

const pageAsked = (r: SeenRequest) => {
  const op = operationOf(r);
  return op?.name === 'usersPage' ? op.variables : null;
};

describe('usersMachine: against the contracts', () => {
  it('lists a page through GraphQL usersPage; a failure is an empty list that says it failed', async () => {
    const ok = startUsers();
    await flush();
    expect(ok.ctx().users.map((u) => u.id)).toEqual([1, 2]);
    expect(ok.ctx().total).toBe(2);
    // The roles come with the list: which users the signed-in user may act on depends on their routes.
    expect(ok.ctx().roles).toEqual(roleRows);
    expect(ok.ctx().departments).toEqual(departmentRows);
    expect(ok.actor.getSnapshot().matches({ list: { shown: 'idle' }, dialog: 'idle' })).toBe(true);
    expect(ok.fake.seen.map(pageAsked).filter(Boolean)).toEqual([
      {
        filter: { q: null, role: null, department: null, blocked: null, online: null, twoFactor: null },
        sort: { field: 'name', direction: 'asc' },
        page: 1,
        limit: USERS_PAGE_SIZE,
      },
    ]);
    const ko = startUsers((r) =>
      operationOf(r)?.name === 'usersPage' ? gqlError('FORBIDDEN', undefined, 403) : undefined,
    );
    await flush();
    expect(ko.actor.getSnapshot().matches({ list: 'failed' })).toBe(true);
    expect(ko.ctx().users).toEqual([]);
    expect(ko.ctx().listError).toEqual({ key: 'users.errors.load', reason: 'apiErrors.forbidden' });
  });

  it('with awaitStart, asks for nothing until users.start, then for the page it names, once (docs/lists.md, Views)', async () => {
    const t = startUsers(undefined, null, { awaitStart: true });
    t.send({ type: 'users.query', query: { ...DEFAULT_QUERY, q: 'antes' } });
    await flush();
    expect(t.fake.seen).toEqual([]);
    expect(t.actor.getSnapshot().hasTag('loading')).toBe(true);
    const viewQuery: UsersQuery = { ...DEFAULT_QUERY, sort: 'email', dir: 'descending' };
    t.send({ type: 'users.start', query: viewQuery });
    // Only the first start counts; the view's query coming back through the address changes nothing.
    t.send({ type: 'users.start' });
    t.send({ type: 'users.query', query: viewQuery });
    await flush();
    expect(t.fake.seen.map(pageAsked).filter(Boolean)).toEqual([
      expect.objectContaining({ sort: { field: 'email', direction: 'desc' }, page: 1 }),
    ]);
    expect(t.actor.getSnapshot().matches({ list: { shown: 'idle' } })).toBe(true);
    // Without a query (no default view), the last one the view sent.
    const plain = startUsers(undefined, null, { awaitStart: true });
    plain.send({ type: 'users.query', query: { ...DEFAULT_QUERY, q: 'ana' } });
    plain.send({ type: 'users.start' });
    await flush();
    expect(plain.fake.seen.map(pageAsked).filter(Boolean)).toEqual([
      expect.objectContaining({ filter: expect.objectContaining({ q: 'ana' }) }),
    ]);
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
        if (op?.name === 'usersPage') return gqlData(usersPageOf([userRow(1), two], op.variables));
        if (op?.name === 'roles') return gqlData({ roles: roleRows });
        if (op?.name === 'departments') return gqlData({ departments: [] });
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
    const rows = [userRow(1), two];
    const t = startUsers(
      (r) => {
        if (r.method !== 'PUT') return undefined;
        return answer.then((response) => {
          rows[1] = { ...two, email: 'nova@demo.local' };
          return response;
        });
      },
      null,
      { rows },
    );
    await flush();
    t.send({ type: 'users.emailOpen', user: two });
    t.send({ type: 'users.changeEmail', email: '' });
    t.send({ type: 'users.reload' });
    expect(t.actor.getSnapshot().matches({ list: { shown: 'fetching' }, dialog: { open: 'emailForm' } })).toBe(true);
    await flush();
    t.send({ type: 'users.presence', userId: 2, isConnected: false });
    t.send({ type: 'users.online', ids: [1] });
    expect(t.actor.getSnapshot().matches({ list: { shown: 'idle' }, dialog: { open: 'emailForm' } })).toBe(true);
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
    expect(t.actor.getSnapshot().matches({ list: { shown: 'idle' }, dialog: 'changingEmail' })).toBe(true);
    expect(t.ctx().pending).toEqual({ email: 'nova@demo.local' });
    resolve(json(200, restUser({ ...two, email: 'nova@demo.local' })));
    await flush();
    expect(t.ctx().users.find((u) => u.id === 2)?.email).toBe('nova@demo.local');
    expect(t.outcomes.map((o) => [o.action, o.ok])).toEqual([['changeEmail', true]]);
    expect(t.actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
  });

  it('asks for the page of each new query: filters, sort and page at once, a typed search after a pause', async () => {
    vi.useFakeTimers();
    try {
      const rows = Array.from({ length: 250 }, (_, i) =>
        userRow(i + 1, { name: `Pessoa ${String(i + 1).padStart(3, '0')}`, blocked: i % 2 === 0 }),
      );
      const t = startUsers(undefined, null, { rows, searchDelayMs: 250 });
      await vi.advanceTimersByTimeAsync(0);
      expect(t.ctx().users).toHaveLength(USERS_PAGE_SIZE);
      expect(t.ctx().total).toBe(250);
      const asked = () => t.fake.seen.map(pageAsked).filter((v) => v !== null);
      const query = (change: Partial<UsersQuery>) =>
        t.send({ type: 'users.query', query: { ...t.ctx().query, ...change } });
      query({ blocked: true, page: 2 });
      // The rows shown stay while the next page is out (the table dims them and says it is busy).
      expect(t.actor.getSnapshot().hasTag('loading')).toBe(true);
      expect(t.ctx().users[0]?.name).toBe('Pessoa 001');
      await vi.advanceTimersByTimeAsync(0);
      expect(asked().at(-1)).toMatchObject({ filter: { blocked: true }, page: 2 });
      expect(t.ctx().total).toBe(125);
      expect(
        t
          .ctx()
          .users.map((u) => u.name)
          .slice(0, 2),
      ).toEqual(['Pessoa 201', 'Pessoa 203']);
      // The same query again asks nothing.
      query({});
      expect(t.actor.getSnapshot().hasTag('loading')).toBe(false);
      query({ page: 1 });
      await vi.advanceTimersByTimeAsync(0);
      // Typing: one request after the pause, for the last text.
      const before = asked().length;
      for (const q of ['P', 'Pe', 'Pessoa 00']) {
        query({ q });
        await vi.advanceTimersByTimeAsync(100);
      }
      expect(asked()).toHaveLength(before);
      expect(t.actor.getSnapshot().matches({ list: { shown: 'waiting' } })).toBe(true);
      await vi.advanceTimersByTimeAsync(150);
      expect(
        asked()
          .slice(before)
          .map((v) => (v.filter as { q: string }).q),
      ).toEqual(['Pessoa 00']);
      expect(t.ctx().users.map((u) => u.id)).toEqual([1, 3, 5, 7, 9]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('never lets the answer for an older query replace a newer one: the older request is aborted', async () => {
    const rows = Array.from({ length: 350 }, (_, i) => userRow(i + 1));
    const held = new Map<number, Deferred<Response>>();
    let hold = false;
    const t = startUsers(
      (r) => {
        const v = pageAsked(r);
        if (!v || !hold) return undefined;
        const gate = deferred<Response>();
        held.set(v.page as number, gate);
        return gate.promise;
      },
      null,
      { rows },
    );
    await flush();
    hold = true;
    t.send({ type: 'users.query', query: { ...DEFAULT_QUERY, page: 2 } });
    t.send({ type: 'users.query', query: { ...DEFAULT_QUERY, page: 3 } });
    await flush();
    const requests = t.fake.seen.filter((r) => pageAsked(r) !== null);
    expect(requests.map((r) => pageAsked(r)?.page)).toEqual([1, 2, 3]);
    expect(requests[1]?.signal.aborted).toBe(true);
    held.get(3)?.resolve(gqlData(usersPageOf(rows, { page: 3, limit: USERS_PAGE_SIZE })));
    await flush();
    held.get(2)?.resolve(gqlData(usersPageOf(rows, { page: 2, limit: USERS_PAGE_SIZE })));
    await flush();
    expect(t.ctx().users).toEqual(usersPageOf(rows, { page: 3, limit: USERS_PAGE_SIZE }).usersPage.data);
    expect(t.actor.getSnapshot().matches({ list: { shown: 'idle' } })).toBe(true);
  });

  it('goes to the last page when the page asked for is past it (users deleted meanwhile), and says so', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => userRow(i + 1));
    const t = startUsers(undefined, null, { rows });
    const moved: number[] = [];
    t.actor.on('users.pageMoved', (event) => moved.push(event.page));
    await flush();
    t.send({ type: 'users.query', query: { ...DEFAULT_QUERY, page: 2 } });
    rows.splice(50);
    await flush();
    await flush();
    expect(
      t.fake.seen
        .map(pageAsked)
        .filter((v) => v !== null)
        .map((v) => v.page),
    ).toEqual([1, 2, 1]);
    expect(moved).toEqual([1]);
    expect(t.ctx().query.page).toBe(1);
    expect(t.ctx().users).toHaveLength(50);
    expect(t.ctx().total).toBe(50);
    // Nothing matches at all: page 1, where the list says so.
    t.send({ type: 'users.query', query: { ...DEFAULT_QUERY, q: 'ninguém', page: 3 } });
    await flush();
    await flush();
    expect(moved).toEqual([1, 1]);
    expect(t.ctx().query).toMatchObject({ q: 'ninguém', page: 1 });
    expect(t.ctx().total).toBe(0);
  });

  it('a page that fails shows the list error; a reload asks again with the roles', async () => {
    let fail = false;
    const t = startUsers((r) => (fail && pageAsked(r) ? gqlError('INTERNAL_SERVER_ERROR', undefined, 500) : undefined));
    await flush();
    fail = true;
    t.send({ type: 'users.query', query: { ...DEFAULT_QUERY, blocked: true } });
    await flush();
    expect(t.actor.getSnapshot().matches({ list: 'failed' })).toBe(true);
    expect(t.ctx().listError?.key).toBe('users.errors.load');
    fail = false;
    t.send({ type: 'users.reload' });
    await flush();
    expect(t.actor.getSnapshot().matches({ list: { shown: 'idle' } })).toBe(true);
    expect(
      t.fake.seen
        .map(pageAsked)
        .filter((v) => v !== null)
        .at(-1),
    ).toMatchObject({ filter: { blocked: true } });
  });
});
