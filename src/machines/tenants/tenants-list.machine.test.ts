import fc from 'fast-check';
import { createActor, SimulatedClock, type Actor } from 'xstate';
import { ApiError } from '../../api/api-error';
import type { Tenant, TenantCreate, TenantPage } from './tenants-actors';
import type { Outcome } from '../shared/outcome';
import { tenantsListMachine, type TenantAction } from './tenants-list.machine';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  type ActorDoneEvent,
} from '../test-support/graph-coverage';
import { deferred, fakeServer, flush, json, type Deferred, type SeenRequest } from '../test-support/fake-fetch';

function tenant(id: number, deleted = false): Tenant {
  return {
    id,
    name: `tenant-${id}`,
    cnpj: '11.222.333/0001-81',
    features: [],
    template: 'pharmacy',
    pool: 'pool-a',
    userLimit: 20,
    plan: 'starter',
    ticketLimit: 5000,
    deleted_at: deleted ? '2026-11-20T18:30:00Z' : null,
    created_at: '2026-01-10T12:00:00Z',
    users_count: 1,
  };
}

const page = (data: Tenant[], pageNumber = 1, lastPage = 1): TenantPage => ({
  data,
  total: data.length,
  page: pageNumber,
  limit: 4,
  last_page: lastPage,
});
const newTenant: TenantCreate = {
  name: 'farmacia-nova',
  cnpj: '11.222.333/0001-81',
  features: [],
  template: 'pharmacy',
  pool: 'pool-a',
  userLimit: 5,
  plan: 'starter',
  ticketLimit: 100,
};
const unusedRest = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
}).rest;

describe('tenantsListMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const input = () => ({ rest: unusedRest, debounceMs: 50 });
    const machine = tenantsListMachine.provide({
      actors: {
        fetchTenantPage: heldPromise(),
        createTenant: heldPromise(),
        setTenantPlan: heldPromise(),
        deleteTenant: heldPromise(),
        restoreTenant: heldPromise(),
      },
    });
    /** Page answers for request `seq` (the machine shows only the latest request's answer). */
    const answers = (seq: number): [ActorDoneEvent, ActorDoneEvent] => [
      doneEvent('fetchTenantPage', { seq, page: page([tenant(1), tenant(2, true)]) }),
      // An empty answer for a page past the end (a delete emptied it).
      doneEvent('fetchTenantPage', { seq, page: page([], 2, 1) }),
    ];
    const listEvents = [
      errorEvent('fetchTenantPage', new ApiError(500, null)),
      { type: 'tenants.page', page: 2 },
      { type: 'tenants.sort', sortName: 'name' },
      { type: 'tenants.limit', limit: 10 },
      { type: 'tenants.view', deleted: true },
      { type: 'tenants.location', search: '?page=2&search=farm' },
      { type: 'tenants.search', text: 'farm' },
      { type: 'tenants.reload' },
    ] as const;
    const dialogEvents = [
      { type: 'tenants.createOpen' },
      { type: 'tenants.create', tenant: newTenant },
      { type: 'tenants.create', tenant: { ...newTenant, cnpj: '11.222.333/0001-82' } },
      doneEvent('createTenant', tenant(9)),
      errorEvent('createTenant', new ApiError(409, { message: 'exists', field: 'name' })),
      { type: 'tenants.planOpen', tenant: tenant(1) },
      { type: 'tenants.setPlan', plan: 'enterprise', user: 50, ticket: 20000 },
      doneEvent('setTenantPlan', tenant(1)),
      errorEvent('setTenantPlan', new ApiError(400, null)),
      { type: 'tenants.delete', tenant: tenant(1) },
      { type: 'tenants.confirm' },
      doneEvent('deleteTenant', tenant(1, true)),
      errorEvent('deleteTenant', new ApiError(409, null)),
      { type: 'tenants.restore', tenant: tenant(2, true) },
      doneEvent('restoreTenant', tenant(2)),
      errorEvent('restoreTenant', new ApiError(404, null)),
      { type: 'tenants.close' },
    ] as const;
    const report = await exploreCoverage({
      machine,
      input,
      events: (snapshot) => [...answers(snapshot.context.requestSeq), ...listEvents, ...dialogEvents],
      // Simple paths over the whole graph run into the millions: enumerate them per concern instead.
      simpleScenarios: [
        { events: [answers(1)[0], errorEvent('fetchTenantPage', new ApiError(500, null)), { type: 'tenants.reload' }] },
        {
          prefix: [answers(1)[0]],
          events: [{ type: 'tenants.search', text: 'farm' }, { type: 'tenants.page', page: 2 }, ...answers(2)],
        },
        { prefix: [answers(1)[0]], events: dialogEvents.slice(0, 5).concat(dialogEvents.slice(-1)) },
        { prefix: [answers(1)[0]], events: dialogEvents.slice(5, 9).concat(dialogEvents.slice(-1)) },
        { prefix: [answers(1)[0]], events: dialogEvents.slice(9) },
      ],
      // The guards read the page (past the end?), whether a typed search differs from the applied one,
      // and whether the rows answer the latest request.
      serializeContext: (context) => [
        context.query.page,
        context.query.search,
        context.searchText,
        context.shownSeq === context.requestSeq && !context.listError,
      ],
      drive: {
        // The answer is for the request in flight: the real actor's own sequence number.
        'xstate.done.actor.fetchTenantPage': ({ actor }, event) => {
          const output = (event as { output: { page: TenantPage } }).output;
          actor.send(doneEvent('fetchTenantPage', { ...output, seq: actor.getSnapshot().context.requestSeq }) as never);
        },
      },
    });
    assertFullCoverage(report);
    console.info(`tenantsListMachine: ${formatCoverage(report)}`);
  });
});

/** Every `outcome` the actor emits from now on. */
function outcomes(actor: Actor<typeof tenantsListMachine>): Outcome<TenantAction>[] {
  const seen: Outcome<TenantAction>[] = [];
  actor.on('outcome', (event) => seen.push(event));
  return seen;
}

/** A fake server where every paginated request waits for the test to answer it. */
function heldServer(mutation: (request: SeenRequest) => Response | Promise<Response> = () => json(200, tenant(1))) {
  const pages: Deferred<Response>[] = [];
  const server = fakeServer((request) => {
    if (request.path !== '/api/tenant/paginated') return mutation(request);
    const d = deferred<Response>();
    pages.push(d);
    return d.promise;
  });
  return { ...server, pages, paged: () => server.seen.filter((r) => r.path === '/api/tenant/paginated') };
}

describe('tenantsListMachine: against the REST contract', () => {
  it('starts from the address query and mirrors every change back (emitted and in context)', async () => {
    const server = heldServer();
    const actor = createActor(tenantsListMachine, {
      input: { rest: server.rest, search: '?page=2&search=farm&sort=-name' },
    });
    const written: string[] = [];
    actor.on('tenants.queryChanged', (event) => written.push(event.search));
    actor.start();
    await flush();
    expect(server.paged()[0]?.body).toEqual({
      filter_users: false,
      pagination_page: 2,
      pagination_limit: 4,
      search: 'farm',
      sort_name: 'name',
      sort_type: 'DESC',
      only_deleted: false,
    });
    server.pages[0]?.resolve(json(200, page([tenant(3)], 2, 3)));
    await flush();
    expect(actor.getSnapshot().matches({ list: 'ready' })).toBe(true);
    actor.send({ type: 'tenants.sort', sortName: 'name' });
    actor.send({ type: 'tenants.view', deleted: true });
    expect(written).toEqual(['search=farm&sort=name', 'search=farm&sort=name&view=deleted']);
    expect(actor.getSnapshot().context.queryString).toBe('search=farm&sort=name&view=deleted');
  });

  it('debounces the search box into one request and goes back to page 1', async () => {
    const server = heldServer();
    const clock = new SimulatedClock();
    const actor = createActor(tenantsListMachine, {
      input: { rest: server.rest, search: 'page=3', debounceMs: 300 },
      clock,
    }).start();
    await flush();
    server.pages[0]?.resolve(json(200, page([tenant(1)], 3, 3)));
    await flush();
    for (const text of ['f', 'fa', 'far', 'farm']) {
      actor.send({ type: 'tenants.search', text });
      clock.increment(100);
    }
    await flush();
    expect(server.paged()).toHaveLength(1);
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    expect(actor.getSnapshot().context.rows).toHaveLength(1);
    clock.increment(300);
    await flush();
    expect(server.paged()).toHaveLength(2);
    expect(server.paged()[1]?.body).toMatchObject({ search: 'farm', pagination_page: 1 });
    server.pages[1]?.resolve(json(200, page([tenant(2)])));
    await flush();
    // Typing back what is already applied and shown loads nothing.
    actor.send({ type: 'tenants.search', text: 'far' });
    actor.send({ type: 'tenants.search', text: 'farm' });
    clock.increment(300);
    await flush();
    expect(server.paged()).toHaveLength(2);
    expect(actor.getSnapshot().matches({ list: 'ready' })).toBe(true);
    // Typing that interrupted a load reloads even when the text ends up unchanged.
    actor.send({ type: 'tenants.page', page: 2 });
    actor.send({ type: 'tenants.search', text: 'farm' });
    clock.increment(300);
    await flush();
    expect(server.paged()).toHaveLength(4);
    expect(server.paged()[3]?.body).toMatchObject({ search: 'farm', pagination_page: 2 });
  });

  it('never shows an older answer: a superseded request is aborted and its answer ignored', async () => {
    const server = heldServer();
    const actor = createActor(tenantsListMachine, { input: { rest: server.rest } }).start();
    await flush();
    actor.send({ type: 'tenants.page', page: 2 });
    await flush();
    expect(server.paged()[0]?.signal.aborted).toBe(true);
    server.pages[1]?.resolve(json(200, page([tenant(20)], 2, 2)));
    server.pages[0]?.resolve(json(200, page([tenant(10)])));
    await flush();
    expect(actor.getSnapshot().context.rows.map((t) => t.id)).toEqual([20]);
  });

  it('deletes only after confirmation, then reloads; an emptied last page steps back', async () => {
    const server = heldServer();
    const actor = createActor(tenantsListMachine, { input: { rest: server.rest, search: 'page=2' } }).start();
    const seen = outcomes(actor);
    await flush();
    server.pages[0]?.resolve(json(200, page([tenant(5)], 2, 2)));
    await flush();
    actor.send({ type: 'tenants.delete', tenant: tenant(5) });
    expect(actor.getSnapshot().matches({ dialog: 'confirmingDelete' })).toBe(true);
    expect(server.seen.filter((r) => r.path === '/api/tenant/delete')).toHaveLength(0);
    actor.send({ type: 'tenants.confirm' });
    await flush();
    expect(server.seen.find((r) => r.path === '/api/tenant/delete')?.body).toEqual({ id: 5 });
    expect(seen).toEqual([
      {
        type: 'outcome',
        action: 'delete',
        ok: true,
        toast: { variant: 'success', title: { key: 'tenants.notices.deleted' }, description: 'tenant-5' },
      },
    ]);
    server.pages[1]?.resolve(json(200, { data: [], total: 4, page: 2, limit: 4, last_page: 1 }));
    await flush();
    expect(server.paged()[2]?.body).toMatchObject({ pagination_page: 1 });
    expect(actor.getSnapshot().context.queryString).toBe('');
    server.pages[2]?.resolve(json(200, page([tenant(1), tenant(2)])));
    await flush();
    expect(actor.getSnapshot().matches({ list: 'ready', dialog: 'idle' })).toBe(true);
  });

  it('create: refuses a bad CNPJ locally, shows the server refusal by field, reloads on success', async () => {
    let answer = json(409, { message: 'A tenant with this name already exists', field: 'name' });
    const server = heldServer(() => answer);
    const actor = createActor(tenantsListMachine, { input: { rest: server.rest } }).start();
    const seen = outcomes(actor);
    await flush();
    server.pages[0]?.resolve(json(200, page([])));
    await flush();
    actor.send({ type: 'tenants.createOpen' });
    // Refused locally, saying what is wrong (src/domain/cnpj.ts).
    actor.send({ type: 'tenants.create', tenant: { ...newTenant, cnpj: '11.111.111/1111-11' } });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ cnpj: 'tenants.errors.cnpj.repeated' });
    actor.send({ type: 'tenants.create', tenant: { ...newTenant, cnpj: '12.ABC.345/01DE-36' } });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ cnpj: 'tenants.errors.cnpj.checkDigits' });
    actor.send({ type: 'tenants.create', tenant: { ...newTenant, cnpj: '12ABC34501DE3' } });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ cnpj: 'tenants.errors.cnpj.length' });
    actor.send({ type: 'tenants.create', tenant: { ...newTenant, cnpj: '12ABC34501DEXY' } });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ cnpj: 'tenants.errors.cnpj.checkDigitLetter' });
    actor.send({ type: 'tenants.create', tenant: { ...newTenant, cnpj: '12.ABC.345/01DE35' } });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ cnpj: 'tenants.errors.cnpj.format' });
    expect(server.seen.filter((r) => r.path === '/api/tenant')).toHaveLength(0);
    actor.send({ type: 'tenants.create', tenant: newTenant });
    await flush();
    expect(actor.getSnapshot().matches({ dialog: 'createForm' })).toBe(true);
    // A refused form says why on its fields: its outcome carries no toast.
    expect(seen).toEqual([{ type: 'outcome', action: 'create', ok: false, toast: null }]);
    expect(actor.getSnapshot().context.actionError).toEqual({
      key: 'tenants.errors.create',
      reason: 'apiErrors.conflict',
    });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ name: 'apiErrors.fieldTaken' });
    answer = json(201, tenant(9));
    // An alphanumeric CNPJ (IN RFB 2.229/2024's example) passes the local check, in any case.
    const alphanumeric = { ...newTenant, cnpj: '12.abc.345/01de-35' };
    actor.send({ type: 'tenants.create', tenant: alphanumeric });
    await flush();
    expect(server.seen.filter((r) => r.path === '/api/tenant').map((r) => r.body)).toEqual([newTenant, alphanumeric]);
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    expect(seen.at(-1)).toMatchObject({ action: 'create', ok: true, toast: { description: 'farmacia-nova' } });
    expect(actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
    expect(server.paged()).toHaveLength(2);
  });

  it('sets a plan and restores from the deleted view, reloading after each', async () => {
    const server = heldServer((request) => json(200, tenant((request.body as { id: number }).id)));
    const actor = createActor(tenantsListMachine, { input: { rest: server.rest, search: 'view=deleted' } }).start();
    const seen = outcomes(actor);
    await flush();
    server.pages[0]?.resolve(json(200, page([tenant(7, true)])));
    await flush();
    actor.send({ type: 'tenants.delete', tenant: tenant(7, true) });
    expect(actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
    actor.send({ type: 'tenants.restore', tenant: tenant(7, true) });
    await flush();
    expect(server.seen.find((r) => r.path === '/api/tenant/restore')?.body).toEqual({ id: 7 });
    server.pages[1]?.resolve(json(200, page([])));
    await flush();
    actor.send({ type: 'tenants.planOpen', tenant: tenant(3) });
    actor.send({ type: 'tenants.setPlan', plan: 'enterprise', user: 50, ticket: 20000 });
    await flush();
    expect(server.seen.find((r) => r.path === '/api/tenant/set-plan')?.body).toEqual({
      id: 3,
      plan: 'enterprise',
      user: 50,
      ticket: 20000,
    });
    expect(seen.map((o) => [o.action, o.ok, o.toast?.title])).toEqual([
      ['restore', true, { key: 'tenants.notices.restored' }],
      ['setPlan', true, { key: 'tenants.notices.planSet' }],
    ]);
    expect(server.paged()).toHaveLength(3);
  });

  it('a failed load shows tenants.errors.load with its reason; reload recovers', async () => {
    const server = heldServer();
    const actor = createActor(tenantsListMachine, { input: { rest: server.rest } }).start();
    await flush();
    server.pages[0]?.resolve(json(503, { status: 'unavailable', message: 'Database unavailable' }));
    await flush();
    expect(actor.getSnapshot().matches({ list: 'failed' })).toBe(true);
    expect(actor.getSnapshot().context.listError).toEqual({
      key: 'tenants.errors.load',
      reason: 'apiErrors.unavailable',
    });
    actor.send({ type: 'tenants.reload' });
    await flush();
    server.pages[1]?.resolve(json(200, page([tenant(1)])));
    await flush();
    expect(actor.getSnapshot().matches({ list: 'ready' })).toBe(true);
    expect(actor.getSnapshot().context.listError).toBeNull();
  });
});

describe('tenantsListMachine: the list and the dialogs are parallel regions', () => {
  async function shown(respond?: (request: SeenRequest) => Response | Promise<Response>) {
    const server = heldServer(respond);
    const clock = new SimulatedClock();
    const actor = createActor(tenantsListMachine, { input: { rest: server.rest, debounceMs: 300 }, clock }).start();
    const seen = outcomes(actor);
    await flush();
    server.pages[0]?.resolve(json(200, page([tenant(1), tenant(3)], 1, 3)));
    await flush();
    /** Answers the latest page request with `rows`. */
    const answer = async (rows: Tenant[]) => {
      await flush();
      server.pages.at(-1)?.resolve(json(200, page(rows, 1, 3)));
      await flush();
    };
    return { server, clock, actor, seen, answer, snapshot: () => actor.getSnapshot() };
  }

  it('a reload, a page change, a search and a re-sort leave an open dialog open with its input intact', async () => {
    const t = await shown();
    t.actor.send({ type: 'tenants.planOpen', tenant: tenant(3) });
    t.actor.send({ type: 'tenants.page', page: 2 });
    expect(t.snapshot().matches({ list: 'loading', dialog: 'planForm' })).toBe(true);
    await t.answer([tenant(5)]);
    t.actor.send({ type: 'tenants.reload' });
    t.actor.send({ type: 'tenants.sort', sortName: 'name' });
    t.actor.send({ type: 'tenants.search', text: 'farm' });
    t.clock.increment(300);
    await flush();
    await t.answer([tenant(7)]);
    expect(t.server.paged()).toHaveLength(5);
    expect(t.snapshot().matches({ list: 'ready', dialog: 'planForm' })).toBe(true);
    expect(t.snapshot().context.target).toEqual(tenant(3));
    expect(t.snapshot().context.rows).toEqual([tenant(7)]);
    expect(t.seen).toEqual([]);
  });

  it("keeps the create form's refusals and the confirmation's tenant across reloads", async () => {
    const t = await shown();
    t.actor.send({ type: 'tenants.createOpen' });
    t.actor.send({ type: 'tenants.create', tenant: { ...newTenant, cnpj: '11.111.111/1111-11' } });
    t.actor.send({ type: 'tenants.reload' });
    t.actor.send({ type: 'tenants.view', deleted: true });
    await t.answer([]);
    expect(t.snapshot().matches({ dialog: 'createForm' })).toBe(true);
    expect(t.snapshot().context.fieldErrors).toEqual({ cnpj: 'tenants.errors.cnpj.repeated' });
    t.actor.send({ type: 'tenants.close' });
    t.actor.send({ type: 'tenants.view', deleted: false });
    await t.answer([tenant(1), tenant(3)]);
    t.actor.send({ type: 'tenants.delete', tenant: tenant(1) });
    t.actor.send({ type: 'tenants.limit', limit: 10 });
    await t.answer([tenant(1)]);
    expect(t.snapshot().matches({ list: 'ready', dialog: 'confirmingDelete' })).toBe(true);
    expect(t.snapshot().context.target).toEqual(tenant(1));
  });

  it('a change in flight survives a reload, and its outcome reloads the list', async () => {
    const plan = deferred<Response>();
    const t = await shown((request) => (request.path === '/api/tenant/set-plan' ? plan.promise : json(200, tenant(1))));
    t.actor.send({ type: 'tenants.planOpen', tenant: tenant(3) });
    t.actor.send({ type: 'tenants.setPlan', plan: 'enterprise', user: 50, ticket: 20000 });
    await flush();
    t.actor.send({ type: 'tenants.page', page: 3 });
    await t.answer([tenant(9)]);
    expect(t.snapshot().matches({ list: 'ready', dialog: 'settingPlan' })).toBe(true);
    expect(t.snapshot().context.pending).toEqual({ plan: 'enterprise', user: 50, ticket: 20000 });
    expect(t.server.paged()).toHaveLength(2);
    plan.resolve(json(200, tenant(3)));
    await flush();
    expect(t.seen.map((o) => [o.action, o.ok])).toEqual([['setPlan', true]]);
    expect(t.snapshot().matches({ list: 'loading', dialog: 'idle' })).toBe(true);
    // The reload asks for the page the list shows.
    expect(t.server.paged()).toHaveLength(3);
    expect(t.server.paged()[2]?.body).toMatchObject({ pagination_page: 3 });
  });

  it('a refused delete toasts why, naming the tenant; dialogs open only while the list is shown', async () => {
    const t = await shown(() => json(409, { message: 'in use' }));
    t.actor.send({ type: 'tenants.delete', tenant: tenant(1) });
    t.actor.send({ type: 'tenants.confirm' });
    await flush();
    expect(t.seen).toEqual([
      {
        type: 'outcome',
        action: 'delete',
        ok: false,
        toast: {
          variant: 'error',
          title: { key: 'tenants.errors.delete' },
          description: {
            key: 'tenants.screen.failureFor',
            params: { name: 'tenant-1', why: { key: 'apiErrors.conflict' } },
          },
        },
      },
    ]);
    expect(t.snapshot().matches({ dialog: 'idle' })).toBe(true);
    t.actor.send({ type: 'tenants.reload' });
    t.actor.send({ type: 'tenants.createOpen' });
    expect(t.snapshot().matches({ list: 'loading', dialog: 'idle' })).toBe(true);
  });
});

describe('tenantsListMachine: never shows data from a request older than the latest', () => {
  type Op =
    | { kind: 'start'; page: number }
    | { kind: 'answer'; pick: number; ok: boolean }
    | { kind: 'type'; text: string }
    | { kind: 'tick' };
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('start' as const), page: fc.integer({ min: 1, max: 3 }) }), weight: 3 },
    { arbitrary: fc.record({ kind: fc.constant('answer' as const), pick: fc.nat(), ok: fc.boolean() }), weight: 4 },
    { arbitrary: fc.record({ kind: fc.constant('type' as const), text: fc.constantFrom('', 'farm') }), weight: 1 },
    { arbitrary: fc.constant({ kind: 'tick' as const }), weight: 1 },
  );

  it('for any interleaving of request starts, typing and answer orders (1000 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 12 }), async (ops) => {
        const server = heldServer();
        const clock = new SimulatedClock();
        const actor = createActor(tenantsListMachine, { input: { rest: server.rest, debounceMs: 300 }, clock }).start();
        await flush();
        const open = new Set<number>([0]);
        let shown = -1; // index of the request whose rows are on screen
        const check = () => {
          const snapshot = actor.getSnapshot();
          const ids = snapshot.context.rows.map((t) => t.id);
          const now = ids.length ? (ids[0] ?? 0) - 1000 : -1;
          const latest = server.paged().length - 1;
          // Rows change only to the answer of the latest request, never back to an older one.
          if (now !== shown) {
            expect(now).toBe(latest);
            expect(now).toBeGreaterThan(shown);
            shown = now;
          }
          // Shown as ready (not loading): the rows are the latest request's answer.
          if (snapshot.matches({ list: 'ready' })) expect(now).toBe(latest);
        };
        for (const op of ops) {
          const before = server.paged().length;
          if (op.kind === 'start') {
            actor.send({ type: 'tenants.page', page: op.page });
            await flush();
            // Every change issues a new request, whatever is still in flight.
            expect(server.paged()).toHaveLength(before + 1);
          } else if (op.kind === 'type') {
            actor.send({ type: 'tenants.search', text: op.text });
          } else if (op.kind === 'tick') {
            clock.increment(300);
            await flush();
          } else if (open.size > 0) {
            const pending = [...open];
            const index = pending[op.pick % pending.length] ?? 0;
            open.delete(index);
            server.pages[index]?.resolve(
              op.ok ? json(200, page([tenant(1000 + index)])) : json(500, { message: 'boom' }),
            );
            await flush();
          }
          for (let i = before; i < server.paged().length; i += 1) open.add(i);
          check();
        }
        actor.stop();
      }),
      { numRuns: 1000 },
    );
  });
});
