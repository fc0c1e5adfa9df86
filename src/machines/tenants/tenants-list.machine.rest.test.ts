import { createActor, SimulatedClock } from 'xstate';
import { tenantsListMachine } from './tenants-list.machine';
import { flush, json } from '../test-support/fake-fetch';
import { heldServer, newTenant, outcomes, page, tenant } from '../test-support/tenants-list-fixtures';

describe('tenantsListMachine: against the REST contract', () => {
  it('starts from the address query and mirrors every change back (emitted and in context)', async () => {
    const server = heldServer();
    const actor = createActor(tenantsListMachine, {
      input: { rest: server.rest, staff: true, search: '?page=2&search=farm&sort=-name' },
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
    actor.send({ type: 'tenants.view', deleted: 'only' });
    expect(written).toEqual(['search=farm&sort=name', 'search=farm&sort=name&view=deleted']);
    expect(actor.getSnapshot().context.queryString).toBe('search=farm&sort=name&view=deleted');
  });

  it('reloads on an address whose list part differs, not on its own write coming back nor a panel change', async () => {
    const server = heldServer();
    const actor = createActor(tenantsListMachine, {
      input: { rest: server.rest, staff: true, search: 'page=2&search=farm' },
    }).start();
    await flush();
    server.pages[0]?.resolve(json(200, page([tenant(3)], 2, 3)));
    await flush();
    actor.send({ type: 'tenants.location', search: 'page=2&search=farm' });
    actor.send({ type: 'tenants.location', search: 'search=farm&page=2&panel=features&tenant=farmacia-central' });
    await flush();
    expect(server.paged()).toHaveLength(1);
    expect(actor.getSnapshot().matches({ list: 'ready' })).toBe(true);
    actor.send({ type: 'tenants.location', search: 'page=3&search=farm&panel=features' });
    await flush();
    expect(server.paged()).toHaveLength(2);
    expect(server.paged()[1]?.body).toMatchObject({ pagination_page: 3, search: 'farm' });
    expect(actor.getSnapshot().context.queryString).toBe('page=3&search=farm');
  });

  it('debounces the search box into one request and goes back to page 1', async () => {
    const server = heldServer();
    const clock = new SimulatedClock();
    const actor = createActor(tenantsListMachine, {
      input: { rest: server.rest, staff: true, search: 'page=3', debounceMs: 300 },
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
    const actor = createActor(tenantsListMachine, { input: { rest: server.rest, staff: true } }).start();
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
    const actor = createActor(tenantsListMachine, {
      input: { rest: server.rest, staff: true, search: 'page=2' },
    }).start();
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
    server.pages[1]?.resolve(
      json(200, { data: [], total: 4, total_is_lower_bound: false, page: 2, limit: 4, last_page: 1 }),
    );
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
    const actor = createActor(tenantsListMachine, { input: { rest: server.rest, staff: true } }).start();
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

  it('the all view (`view=all`) asks for live and deleted tenants, keeps it in the address, and restores a deleted row', async () => {
    const server = heldServer((request) => json(200, tenant((request.body as { id: number }).id)));
    const actor = createActor(tenantsListMachine, {
      input: { rest: server.rest, staff: true, search: 'search=farm' },
    });
    const written: string[] = [];
    actor.on('tenants.queryChanged', (event) => written.push(event.search));
    actor.start();
    await flush();
    server.pages[0]?.resolve(json(200, page([tenant(3)])));
    await flush();
    actor.send({ type: 'tenants.view', deleted: 'all' });
    expect(written).toEqual(['search=farm&view=all']);
    await flush();
    expect(server.paged()[1]?.body).toMatchObject({ search: 'farm', only_deleted: false, deleted: 'all' });
    server.pages[1]?.resolve(json(200, page([tenant(3), tenant(7, true)])));
    await flush();
    // A deleted row of the all view is restored as in the deleted view; an active one is not.
    actor.send({ type: 'tenants.restore', tenant: tenant(3) });
    expect(actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
    actor.send({ type: 'tenants.restore', tenant: tenant(7, true) });
    await flush();
    expect(server.seen.find((r) => r.path === '/api/tenant/restore')?.body).toEqual({ id: 7 });
    await flush();
    // The reload after the restore stays in the all view.
    expect(server.paged()[2]?.body).toMatchObject({ deleted: 'all' });
    expect(actor.getSnapshot().context.queryString).toBe('search=farm&view=all');
    actor.send({ type: 'tenants.view', deleted: 'live' });
    expect(written.at(-1)).toBe('search=farm');
  });

  it('sets a plan and restores from the deleted view, reloading after each', async () => {
    const server = heldServer((request) => json(200, tenant((request.body as { id: number }).id)));
    const actor = createActor(tenantsListMachine, {
      input: { rest: server.rest, staff: true, search: 'view=deleted' },
    }).start();
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

  it('edits with POST /api/tenant/update: a bad CNPJ is refused on its field without a call, a taken name on name', async () => {
    let taken = true;
    const server = heldServer((request) =>
      taken
        ? json(409, { message: 'A tenant with this name already exists', field: 'name' })
        : json(200, { ...tenant(3), ...(request.body as object) }),
    );
    const actor = createActor(tenantsListMachine, { input: { rest: server.rest, staff: true } }).start();
    await flush();
    server.pages[0]?.resolve(json(200, page([tenant(3)])));
    await flush();
    const edited = { name: 'farmacia-nova', cnpj: '12.ABC.345/01DE-35', template: 'pharmacy', pool: 'pool-b' };
    actor.send({ type: 'tenants.editOpen', tenant: tenant(3) });
    actor.send({ type: 'tenants.edit', tenant: { ...edited, cnpj: '12.ABC.345/01DE-36' } });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ cnpj: 'tenants.errors.cnpj.checkDigits' });
    expect(server.seen.filter((r) => r.path === '/api/tenant/update')).toEqual([]);
    actor.send({ type: 'tenants.edit', tenant: edited });
    await flush();
    // With the version the form loaded (docs/lists.md, Versions).
    expect(server.seen.find((r) => r.path === '/api/tenant/update')?.body).toEqual({ id: 3, ...edited, version: 1 });
    expect(actor.getSnapshot().matches({ dialog: 'editForm' })).toBe(true);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ name: 'apiErrors.fieldTaken' });
    expect(actor.getSnapshot().context.actionError).toEqual({
      key: 'tenants.errors.edit',
      reason: 'apiErrors.conflict',
    });
    taken = false;
    const seen = outcomes(actor);
    actor.send({ type: 'tenants.edit', tenant: edited });
    await flush();
    expect(actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
    expect(seen.map((o) => [o.action, o.ok, o.toast?.title])).toEqual([
      ['edit', true, { key: 'tenants.notices.edited' }],
    ]);
    expect(server.paged()).toHaveLength(2);
  });

  it('a failed load shows tenants.errors.load with its reason; reload recovers', async () => {
    const server = heldServer();
    const actor = createActor(tenantsListMachine, { input: { rest: server.rest, staff: true } }).start();
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
