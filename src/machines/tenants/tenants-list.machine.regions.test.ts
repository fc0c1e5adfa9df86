import { createActor, SimulatedClock } from 'xstate';
import type { Tenant } from './tenants-actors';
import { tenantsListMachine } from './tenants-list.machine';
import { deferred, flush, json, type SeenRequest } from '../test-support/fake-fetch';
import { heldServer, newTenant, outcomes, page, tenant } from '../test-support/tenants-list-fixtures';

describe('tenantsListMachine: the list and the dialogs are parallel regions', () => {
  async function shown(respond?: (request: SeenRequest) => Response | Promise<Response>) {
    const server = heldServer(respond);
    const clock = new SimulatedClock();
    const actor = createActor(tenantsListMachine, {
      input: { rest: server.rest, staff: true, debounceMs: 300 },
      clock,
    }).start();
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
    t.actor.send({ type: 'tenants.view', deleted: 'only' });
    await t.answer([]);
    expect(t.snapshot().matches({ dialog: 'createForm' })).toBe(true);
    expect(t.snapshot().context.fieldErrors).toEqual({ cnpj: 'tenants.errors.cnpj.repeated' });
    t.actor.send({ type: 'tenants.close' });
    t.actor.send({ type: 'tenants.view', deleted: 'live' });
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
