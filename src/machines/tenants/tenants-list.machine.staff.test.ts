import { createActor } from 'xstate';
import { tenantsListMachine } from './tenants-list.machine';
import { selectStaff } from './tenants-list-selectors';
import { flush, json } from '../test-support/fake-fetch';
import { heldServer, newTenant, page, tenant } from '../test-support/tenants-list-fixtures';

describe('tenantsListMachine: staff only (server/src/access/policies.ts `tenants`)', () => {
  it('a customer reads its tenant: no create, edit, plan, delete or restore opens, nothing is sent', async () => {
    const server = heldServer();
    const actor = createActor(tenantsListMachine, { input: { rest: server.rest } }).start();
    await flush();
    server.pages[0]?.resolve(json(200, page([tenant(1)])));
    await flush();
    expect(actor.getSnapshot().matches({ list: 'ready', dialog: 'idle' })).toBe(true);
    expect(selectStaff(actor.getSnapshot())).toBe(false);
    for (const event of [
      { type: 'tenants.createOpen' },
      { type: 'tenants.create', tenant: newTenant },
      { type: 'tenants.editOpen', tenant: tenant(1) },
      { type: 'tenants.planOpen', tenant: tenant(1) },
      { type: 'tenants.setPlan', plan: 'enterprise', user: 500, ticket: 1 },
      { type: 'tenants.delete', tenant: tenant(1) },
      { type: 'tenants.confirm' },
      { type: 'tenants.restore', tenant: tenant(2, true) },
    ] as const) {
      actor.send(event);
      expect(actor.getSnapshot().matches({ dialog: 'idle' }), event.type).toBe(true);
    }
    expect(server.seen.map((r) => r.path)).toEqual(['/api/tenant/paginated']);
  });

  it('staff open every dialog', async () => {
    const server = heldServer();
    const actor = createActor(tenantsListMachine, { input: { rest: server.rest, staff: true } }).start();
    await flush();
    server.pages[0]?.resolve(json(200, page([tenant(1)])));
    await flush();
    expect(selectStaff(actor.getSnapshot())).toBe(true);
    for (const [event, dialog] of [
      [{ type: 'tenants.createOpen' }, 'createForm'],
      [{ type: 'tenants.editOpen', tenant: tenant(1) }, 'editForm'],
      [{ type: 'tenants.planOpen', tenant: tenant(1) }, 'planForm'],
      [{ type: 'tenants.delete', tenant: tenant(1) }, 'confirmingDelete'],
    ] as const) {
      actor.send(event);
      expect(actor.getSnapshot().matches({ dialog }), event.type).toBe(true);
      actor.send({ type: 'tenants.close' });
    }
  });
});
