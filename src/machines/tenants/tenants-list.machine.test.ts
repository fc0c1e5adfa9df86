import { ApiError } from '../../api/api-error';
import type { TenantPage } from './tenants-actors';
import { tenantsListMachine } from './tenants-list.machine';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  type ActorDoneEvent,
} from '../test-support/graph-coverage';
import { fakeServer } from '../test-support/fake-fetch';
import { newTenant, page, tenant } from '../test-support/tenants-list-fixtures';

const unusedRest = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
}).rest;

describe('tenantsListMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const input = () => ({ rest: unusedRest, debounceMs: 50, staff: true });
    const machine = tenantsListMachine.provide({
      actors: {
        fetchTenantPage: heldPromise(),
        createTenant: heldPromise(),
        setTenantPlan: heldPromise(),
        deleteTenant: heldPromise(),
        restoreTenant: heldPromise(),
        updateTenant: heldPromise(),
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
      { type: 'tenants.filter', plan: 'starter', feature: 'chat', featureEnabled: false },
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
    const edited = { name: 'farmacia-nova', cnpj: '11.222.333/0001-81', template: 'pharmacy', pool: 'pool-b' };
    const editEvents = [
      { type: 'tenants.editOpen', tenant: tenant(1) },
      { type: 'tenants.edit', tenant: edited },
      { type: 'tenants.edit', tenant: { ...edited, cnpj: '11.222.333/0001-82' } },
      doneEvent('updateTenant', tenant(1)),
      errorEvent('updateTenant', new ApiError(409, { message: 'exists', field: 'name' })),
      { type: 'tenants.close' },
    ] as const;
    const report = await exploreCoverage({
      machine,
      input,
      events: (snapshot) => [...answers(snapshot.context.requestSeq), ...listEvents, ...dialogEvents, ...editEvents],
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
        { prefix: [answers(1)[0]], events: [...editEvents] },
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
