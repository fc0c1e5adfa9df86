import { fromPromise } from 'xstate';
import { ApiError } from '../../api/api-error';
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

/**
 * One tenant as stored now. The contract reads tenants only through the paged search (name or CNPJ,
 * contracts/openapi.yaml `tenantPaginated`), so it searches each of `hints` (the names and CNPJs the form
 * knows, the other person's new ones included) with deleted tenants too, and keeps the row with the id;
 * none found: 404.
 */
export async function loadTenant(
  rest: RestClient,
  id: number,
  hints: readonly string[],
  signal?: AbortSignal,
): Promise<Tenant> {
  for (const search of new Set(hints.filter((h) => h !== '').map((h) => h.slice(0, 100)))) {
    const page = unwrap(
      await rest.POST('/api/tenant/paginated', {
        body: {
          search,
          deleted: 'all',
          filter_users: false,
          only_deleted: false,
          sort_name: 'id',
          sort_type: 'ASC',
          pagination_page: 1,
          pagination_limit: 100,
        },
        signal,
      }),
    );
    const found = page.data.find((t) => t.id === id);
    if (found) return found;
  }
  throw new ApiError(404, { message: 'Tenant not found' });
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
  updateTenant: fromPromise<Tenant, { rest: RestClient; id: number; tenant: TenantEdit; version?: number | null }>(
    async ({ input }) =>
      unwrap(
        await input.rest.POST('/api/tenant/update', {
          // The version the form loaded: a change made since is refused as 409 `stale` (docs/lists.md, Versions).
          body: {
            id: input.id,
            ...input.tenant,
            ...(typeof input.version === 'number' ? { version: input.version } : {}),
          },
        }),
      ),
  ),
  loadTenant: fromPromise<Tenant, { rest: RestClient; id: number; hints: readonly string[] }>(({ input, signal }) =>
    loadTenant(input.rest, input.id, input.hints, signal),
  ),
  deleteTenant: fromPromise<Tenant, { rest: RestClient; id: number }>(async ({ input }) =>
    unwrap(await input.rest.POST('/api/tenant/delete', { body: { id: input.id } })),
  ),
  restoreTenant: fromPromise<Tenant, { rest: RestClient; id: number }>(async ({ input }) =>
    unwrap(await input.rest.POST('/api/tenant/restore', { body: { id: input.id } })),
  ),
};
