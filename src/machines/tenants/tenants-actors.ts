import { fromPromise } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import { toPageRequest, type TenantsQuery } from '../../domain/tenants-query';

export type Tenant = components['schemas']['Tenant'];
export type TenantPage = components['schemas']['TenantPage'];
export type TenantCreate = components['schemas']['TenantCreate'];
/** What a tenant edit changes (`POST /api/tenant/update`), without the id. */
export type TenantEdit = Omit<components['schemas']['TenantUpdate'], 'id'>;
export type Plan = components['schemas']['Plan'];

/** A page answer tagged with the request it answers, so only the latest request's rows are shown. */
export interface TenantPageResult {
  seq: number;
  page: TenantPage;
}

/** The I/O of the tenants list: every call goes through the typed REST client in `input`. */
export const tenantsActors = {
  fetchTenantPage: fromPromise<TenantPageResult, { rest: RestClient; query: TenantsQuery; seq: number }>(
    async ({ input, signal }) => ({
      seq: input.seq,
      page: unwrap(await input.rest.POST('/api/tenant/paginated', { body: toPageRequest(input.query), signal })),
    }),
  ),
  createTenant: fromPromise<Tenant, { rest: RestClient; tenant: TenantCreate }>(async ({ input }) =>
    unwrap(await input.rest.POST('/api/tenant', { body: input.tenant })),
  ),
  setTenantPlan: fromPromise<Tenant, { rest: RestClient; id: number; plan: Plan; user: number; ticket: number }>(
    async ({ input }) =>
      unwrap(
        await input.rest.POST('/api/tenant/set-plan', {
          body: { id: input.id, plan: input.plan, user: input.user, ticket: input.ticket },
        }),
      ),
  ),
  updateTenant: fromPromise<Tenant, { rest: RestClient; id: number; tenant: TenantEdit }>(async ({ input }) =>
    unwrap(await input.rest.POST('/api/tenant/update', { body: { id: input.id, ...input.tenant } })),
  ),
  deleteTenant: fromPromise<Tenant, { rest: RestClient; id: number }>(async ({ input }) =>
    unwrap(await input.rest.POST('/api/tenant/delete', { body: { id: input.id } })),
  ),
  restoreTenant: fromPromise<Tenant, { rest: RestClient; id: number }>(async ({ input }) =>
    unwrap(await input.rest.POST('/api/tenant/restore', { body: { id: input.id } })),
  ),
};
