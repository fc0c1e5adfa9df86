import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';

export type TenantSummary = components['schemas']['TenantSummary'];

/** GET /api/tenant/false: every active tenant, for the tenant switcher and tenant filters. */
export const loadTenantOptions = fromPromise<TenantSummary[], { rest: RestClient }>(async ({ input, signal }) =>
  unwrap(await input.rest.GET('/api/tenant/{filterUsers}', { params: { path: { filterUsers: 'false' } }, signal })),
);

export interface TenantOptionsContext {
  rest: RestClient;
  tenants: TenantSummary[];
  failed: boolean;
}

/**
 * The active tenants, loaded once and on `tenants.reload` (e.g. after a tenant was created, deleted
 * or restored). Tags: `loading`. A failure keeps the last list and sets `failed`.
 */
export const tenantOptionsMachine = setup({
  types: {
    context: {} as TenantOptionsContext,
    input: {} as { rest: RestClient },
    events: {} as { type: 'tenants.reload' },
  },
  actors: { load: loadTenantOptions },
}).createMachine({
  id: 'tenantOptions',
  context: ({ input }) => ({ rest: input.rest, tenants: [], failed: false }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ rest: context.rest }),
        onDone: { target: 'ready', actions: assign({ tenants: ({ event }) => event.output, failed: false }) },
        onError: { target: 'ready', actions: assign({ failed: true }) },
      },
    },
    ready: { on: { 'tenants.reload': 'loading' } },
  },
});

export type TenantOptionsActor = ActorRefFrom<typeof tenantOptionsMachine>;
export type TenantOptionsSnapshot = SnapshotFrom<typeof tenantOptionsMachine>;
