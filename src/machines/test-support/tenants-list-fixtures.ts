/**
 * Test fixtures for the tenants list machine (src/machines/tenants/tenants-list.machine.ts): tenant rows
 * and pages of the contract's shapes, a create form's tenant, the actor's emitted outcomes, and a fake
 * server whose page requests wait for the test to answer them.
 */
import type { Actor } from 'xstate';
import type { Tenant, TenantCreate, TenantPage } from '../tenants/tenants-actors';
import type { TenantAction, tenantsListMachine } from '../tenants/tenants-list.machine';
import type { Outcome } from '../shared/outcome';
import { deferred, fakeServer, json, type Deferred, type SeenRequest } from './fake-fetch';

/** A tenant row of the contract's shape; `deleted` gives it a `deleted_at`. */
export function tenant(id: number, deleted = false): Tenant {
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
    version: 1,
    features_version: 1,
  };
}

/** A page of the paginated tenant list holding `data`. */
export const page = (data: Tenant[], pageNumber = 1, lastPage = 1): TenantPage => ({
  data,
  total: data.length,
  total_is_lower_bound: false,
  page: pageNumber,
  limit: 4,
  last_page: lastPage,
});
/** A valid create form's tenant. */
export const newTenant: TenantCreate = {
  name: 'farmacia-nova',
  cnpj: '11.222.333/0001-81',
  features: [],
  template: 'pharmacy',
  pool: 'pool-a',
  userLimit: 5,
  plan: 'starter',
  ticketLimit: 100,
};

/** Every `outcome` the actor emits from now on. */
export function outcomes(actor: Actor<typeof tenantsListMachine>): Outcome<TenantAction>[] {
  const seen: Outcome<TenantAction>[] = [];
  actor.on('outcome', (event) => seen.push(event));
  return seen;
}

/** A fake server where every paginated request waits for the test to answer it. */
export function heldServer(
  mutation: (request: SeenRequest) => Response | Promise<Response> = () => json(200, tenant(1)),
) {
  const pages: Deferred<Response>[] = [];
  const server = fakeServer((request) => {
    if (request.path !== '/api/tenant/paginated') return mutation(request);
    const d = deferred<Response>();
    pages.push(d);
    return d.promise;
  });
  return { ...server, pages, paged: () => server.seen.filter((r) => r.path === '/api/tenant/paginated') };
}
