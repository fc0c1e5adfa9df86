import { createActor, waitFor } from 'xstate';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  heldPromise,
  type GraphEvent,
} from '../test-support/graph-coverage';
import { fakeServer, json } from '../test-support/fake-fetch';
import { tenantOptionsMachine, type TenantSummary } from './tenant-options.machine';

const tenants: TenantSummary[] = [
  { id: 1, name: 'backoffice' },
  { id: 2, name: 'farmacia-central' },
];

describe('tenant options machine', () => {
  it('reaches every state and transition', async () => {
    const { rest } = fakeServer(() => json(200, tenants));
    const machine = tenantOptionsMachine.provide({
      actors: { load: heldPromise<TenantSummary[], { rest: typeof rest }>() },
    });
    const events: GraphEvent<typeof machine>[] = [
      { type: 'tenants.reload' },
      doneEvent('load', tenants),
      errorEvent('load', new Error('503')),
    ];
    const report = await exploreCoverage({ machine, input: () => ({ rest }), events });
    assertFullCoverage(report);
  });

  it('loads GET /api/tenant/false, keeps the last list on failure, and reloads', async () => {
    let fail = false;
    const server = fakeServer(() =>
      fail ? json(503, { status: 'unavailable', message: 'down' }) : json(200, tenants),
    );
    const actor = createActor(tenantOptionsMachine, { input: { rest: server.rest } }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(server.seen.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/tenant/false']);
    expect(actor.getSnapshot().context).toMatchObject({ tenants, failed: false });
    fail = true;
    actor.send({ type: 'tenants.reload' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ tenants, failed: true });
  });
});
