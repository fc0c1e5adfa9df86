import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import type { SavedView } from '../../domain/views';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
} from '../test-support/graph-coverage';
import { fakeServer, flush, json } from '../test-support/fake-fetch';
import type { Outcome } from '../shared/outcome';
import { nameProblem, viewsMachine, type ViewAction, type ViewsEmitted } from './views.machine';

const view = (id: number, name: string, extra: Partial<SavedView> = {}): SavedView => ({
  id,
  list: 'users',
  name,
  state: { query: `q=${id}`, columns: [] },
  is_default: false,
  created_at: '2026-11-27T12:00:00.000Z',
  updated_at: '2026-11-27T12:00:00.000Z',
  ...extra,
});
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});
const fifty = Array.from({ length: 50 }, (_, i) => view(100 + i, `Visão ${i}`));

describe('viewsMachine: model coverage', () => {
  it('shortest and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: viewsMachine.provide({ actors: { loadViews: heldPromise(), saveView: heldPromise() } }),
      input: () => ({ rest: unused.rest, list: 'users' as const, search: '' }),
      // The guards read the list (its size, its names), the open dialog and the active view.
      serializeContext: (c) =>
        `${c.views.map((v) => `${v.id}${v.is_default ? '*' : ''}`).join(',')}:${c.dialog?.kind ?? '-'}:${c.active ?? '-'}:${c.opensDefault}`,
      events: [
        doneEvent('loadViews', [view(1, 'Bloqueados', { is_default: true }), view(2, 'Ativos')]),
        doneEvent('loadViews', [view(2, 'Ativos')]),
        doneEvent('loadViews', fifty),
        errorEvent('loadViews', new ApiError(503, null)),
        { type: 'views.reload' },
        { type: 'views.apply', id: 2 },
        { type: 'views.saveOpen' },
        { type: 'views.renameOpen', id: 2 },
        { type: 'views.deleteOpen', id: 2 },
        { type: 'views.close' },
        { type: 'views.submit', name: 'Novos', state: { query: 'q=novo', columns: ['email'] }, isDefault: true },
        { type: 'views.submit', name: ' ativos ', state: { query: '', columns: [] }, isDefault: false },
        { type: 'views.confirmDelete' },
        { type: 'views.setDefault', id: 2, isDefault: true },
        { type: 'views.replace', id: 2, state: { query: 'sort=email', columns: ['role'] } },
        doneEvent('saveView', view(3, 'Novos', { is_default: true })),
        doneEvent('saveView', null),
        errorEvent('saveView', new ApiError(409, { message: 'taken', field: 'name', error: 'view_name_taken' })),
        errorEvent('saveView', new ApiError(409, { message: 'full', field: 'list', error: 'view_limit_reached' })),
      ],
      // Simple paths multiply with every list the saves can leave (over 200 graph states); the shortest
      // and one-per-edge paths already take every transition from every state the walk reaches.
      strategies: ['shortest', 'transitions'],
    });
    assertFullCoverage(report);
    console.info(`viewsMachine: ${formatCoverage(report)}`);
  });
});

describe('nameProblem', () => {
  const views = [view(1, 'Bloqueados'), view(2, 'Visão')];
  it.each([
    ['   ', 'views.errors.nameRequired'],
    ['x'.repeat(61), 'views.errors.nameTooLong'],
    ['BLOQUEADOS', 'views.errors.nameTaken'],
    ['Visa\u0303o', 'views.errors.nameTaken'],
    ['😀'.repeat(60), null],
    ['Novos', null],
  ])('%j → %s', (name, expected) => {
    expect(nameProblem(views, name)).toBe(expected);
  });
  it('lets a view keep its own name in another case', () => {
    expect(nameProblem(views, 'bloqueados', 1)).toBeNull();
  });
});

describe('viewsMachine: against the REST contract', () => {
  function start(respond: Parameters<typeof fakeServer>[0], search = '') {
    const fake = fakeServer(respond);
    const actor = createActor(viewsMachine, { input: { rest: fake.rest, list: 'users', search } });
    const emitted: ViewsEmitted[] = [];
    actor.on('views.apply', (e) => emitted.push(e));
    actor.on('outcome', (e) => emitted.push(e));
    actor.start();
    return { fake, actor, emitted };
  }
  const outcomes = (emitted: ViewsEmitted[]) =>
    emitted.filter((e): e is Outcome<ViewAction> => e.type === 'outcome').map((o) => [o.action, o.ok]);

  it('opens the default view when the address has no query, and not when it has one', async () => {
    const views = [view(2, 'Ativos'), view(1, 'Bloqueados', { is_default: true })];
    const bare = start(() => json(200, { data: views }));
    await flush();
    expect(bare.fake.seen[0]?.path).toBe('/api/views');
    expect(bare.fake.seen[0]?.query.get('list')).toBe('users');
    expect(bare.emitted).toEqual([{ type: 'views.apply', view: views[1] }]);
    expect(bare.actor.getSnapshot().context.active).toBe(1);
    const linked = start(() => json(200, { data: views }), 'q=ana');
    await flush();
    expect(linked.emitted).toEqual([]);
    expect(linked.actor.getSnapshot().context.active).toBeNull();
  });

  it('saves the current state with POST, and the new default replaces the old in the list', async () => {
    const { fake, actor, emitted } = start((r) => {
      if (r.method === 'GET') return json(200, { data: [view(1, 'Bloqueados', { is_default: true })] }, {});
      const body = r.body as { name: string; state: SavedView['state']; is_default: boolean };
      return json(201, view(7, body.name, { state: body.state, is_default: body.is_default }));
    }, 'q=x');
    await flush();
    actor.send({ type: 'views.saveOpen' });
    actor.send({ type: 'views.submit', name: 'bloqueados', state: { query: 'q=x', columns: [] }, isDefault: false });
    expect(actor.getSnapshot().context.nameError).toBe('views.errors.nameTaken');
    expect(fake.seen).toHaveLength(1);
    actor.send({
      type: 'views.submit',
      name: '  Novos  ',
      state: { query: 'q=x', columns: ['email'] },
      isDefault: true,
    });
    await flush();
    expect(fake.seen[1]).toMatchObject({
      method: 'POST',
      path: '/api/views',
      body: { list: 'users', name: 'Novos', state: { query: 'q=x', columns: ['email'] }, is_default: true },
    });
    const { views, dialog, active } = actor.getSnapshot().context;
    expect(views.map((v) => [v.name, v.is_default])).toEqual([
      ['Bloqueados', false],
      ['Novos', true],
    ]);
    expect(dialog).toBeNull();
    expect(active).toBe(7);
    expect(outcomes(emitted)).toEqual([['create', true]]);
  });

  it("shows the server's name conflict on the field and keeps the dialog open", async () => {
    const { actor } = start((r) =>
      r.method === 'GET'
        ? json(200, { data: [] })
        : json(409, { message: 'taken', field: 'name', error: 'view_name_taken' }),
    );
    await flush();
    actor.send({ type: 'views.saveOpen' });
    actor.send({ type: 'views.submit', name: 'Outra aba', state: { query: '', columns: [] }, isDefault: false });
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({
      nameError: 'views.errors.nameTaken',
      dialog: { kind: 'save' },
    });
  });

  it('renames, sets the default and replaces the state with PUT, deletes with DELETE (asked first), each toasted', async () => {
    let views = [view(1, 'Bloqueados'), view(2, 'Ativos')];
    const { fake, actor, emitted } = start((r) => {
      if (r.method === 'GET') return json(200, { data: views });
      const id = Number(r.path.split('/').pop());
      if (r.method === 'DELETE') return json(200, { message: 'Deleted' });
      const body = r.body as { name?: string; is_default?: boolean; state?: SavedView['state'] };
      views = views.map((v) => (v.id === id ? { ...v, ...body } : v));
      return json(
        200,
        views.find((v) => v.id === id),
      );
    }, 'q=1');
    await flush();
    actor.send({ type: 'views.renameOpen', id: 1 });
    actor.send({ type: 'views.submit', name: 'Bloqueados hoje', state: { query: '', columns: [] }, isDefault: false });
    await flush();
    actor.send({ type: 'views.setDefault', id: 2, isDefault: true });
    await flush();
    actor.send({ type: 'views.replace', id: 2, state: { query: 'sort=email', columns: ['role'] } });
    await flush();
    actor.send({ type: 'views.deleteOpen', id: 1 });
    expect(fake.seen).toHaveLength(4);
    actor.send({ type: 'views.confirmDelete' });
    await flush();
    expect(fake.seen.slice(1).map((r) => [r.method, r.path, r.body])).toEqual([
      ['PUT', '/api/views/1', { name: 'Bloqueados hoje' }],
      ['PUT', '/api/views/2', { is_default: true }],
      ['PUT', '/api/views/2', { state: { query: 'sort=email', columns: ['role'] } }],
      ['DELETE', '/api/views/1', null],
    ]);
    expect(actor.getSnapshot().context.views.map((v) => [v.name, v.is_default, v.state])).toEqual([
      ['Ativos', true, { query: 'sort=email', columns: ['role'] }],
    ]);
    expect(outcomes(emitted)).toEqual([
      ['rename', true],
      ['default', true],
      ['update', true],
      ['delete', true],
    ]);
  });

  it('refuses a 51st view before any request, and says why when the server refuses', async () => {
    const { fake, actor, emitted } = start(() => json(200, { data: fifty }), 'q=1');
    await flush();
    actor.send({ type: 'views.saveOpen' });
    expect(actor.getSnapshot().context.dialog).toBeNull();
    expect(fake.seen).toHaveLength(1);
    expect(emitted).toEqual([
      expect.objectContaining({
        action: 'create',
        ok: false,
        toast: expect.objectContaining({ description: { key: 'views.errors.limit', params: { limit: 50 } } }),
      }),
    ]);
  });

  it('leaves the list usable when the views cannot load, and tries again on request', async () => {
    let fail = true;
    const { actor, emitted } = start(() =>
      fail
        ? json(503, { status: 'unavailable', message: 'down' })
        : json(200, { data: [view(1, 'A', { is_default: true })] }),
    );
    await flush();
    expect(actor.getSnapshot().hasTag('failed')).toBe(true);
    fail = false;
    actor.send({ type: 'views.reload' });
    await flush();
    expect(actor.getSnapshot().context.views).toHaveLength(1);
    // A retry is not an opening: the list keeps what the user is looking at.
    expect(emitted).toEqual([]);
  });
});
