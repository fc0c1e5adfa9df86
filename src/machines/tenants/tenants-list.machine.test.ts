import { ApiError } from '../../api/api-error';
import type { TenantPage } from './tenants-actors';
import { tenantsListMachine, unsavedTenantFields } from './tenants-list.machine';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  idleCallback,
  type ActorDoneEvent,
} from '../test-support/graph-coverage';
import { fakeServer } from '../test-support/fake-fetch';
import { mergeCoverage } from '../test-support/merge-coverage';
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
        loadTenant: heldPromise(),
        checkRemote: heldPromise(),
        watchTarget: idleCallback(),
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
      { type: 'tenants.view', deleted: 'only' },
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
    // The edit form's conflict notice (src/machines/shared/conflict.ts): tenant 1 at version 1 changed
    // elsewhere to version 2; a stale save, a change announced while editing, and both choices.
    const theirs = { ...tenant(1), name: 'tenant-outro', version: 2 };
    const conflictEvents = [
      { type: 'tenants.editDraft', tenant: edited },
      errorEvent(
        'updateTenant',
        new ApiError(409, { error: 'stale', message: 'stale', field: 'version', version: 2, changes: [] }),
      ),
      { type: 'conflict.remote', id: 41, version: null },
      { type: 'conflict.remote', id: 40, version: 1 },
      doneEvent('checkRemote', { record: theirs, version: 2, newer: true, changes: [] }),
      doneEvent('checkRemote', { record: tenant(1), version: 1, newer: false, changes: [] }),
      errorEvent('checkRemote', new Error('offline')),
      { type: 'conflict.reapply' },
      { type: 'conflict.discard' },
      { type: 'conflict.dismiss' },
      doneEvent('loadTenant', theirs),
      errorEvent('loadTenant', new Error('offline')),
      { type: 'tenants.editDraft', tenant: { ...edited, cnpj: '11.222.333/0001-82' } },
    ] as const;
    const pick = (...at: number[]) => at.map((i) => conflictEvents[i]!);
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
    // The edit form's conflict notice over the list's first page only: the list's own events would multiply
    // the graph by the dialog's, and the dialog region never reads the list's state past `listShown`.
    const conflict = await exploreCoverage({
      machine,
      input,
      events: [answers(1)[0], ...editEvents, ...conflictEvents],
      simpleScenarios: [
        // A stale save, then each choice.
        {
          prefix: [answers(1)[0], editEvents[0], editEvents[1]],
          events: [conflictEvents[1], ...pick(7, 8, 9, 10, 11)],
        },
        // A change announced from elsewhere, with or without unsaved values.
        { prefix: [answers(1)[0], editEvents[0]], events: [...pick(0, 2, 3, 4, 5, 6, 9)] },
        // Reapplied values whose CNPJ the local check refuses go back to the form.
        {
          prefix: [answers(1)[0], editEvents[0], conflictEvents[12], conflictEvents[2], conflictEvents[4]],
          events: pick(7, 10),
        },
      ],
      // The conflict guards read the unsaved values, the announced changes, the notice and the version.
      serializeContext: (context) => [
        context.shownSeq > 0,
        unsavedTenantFields(context).map((f) => f.field),
        context.pending !== null && 'edit' in context.pending ? context.pending.edit.cnpj : null,
        context.remoteIds.length > 0,
        context.conflict !== null,
        context.version,
      ],
    });
    const merged = mergeCoverage(report, conflict);
    assertFullCoverage(merged);
    console.info(`tenantsListMachine: ${formatCoverage(merged)}`);
  });
});
