import { cnpjSearchFragment, formatCnpj, isValidCnpj, normalizeCnpj } from '../../domain/cnpj';
import { json, type Responder, type SeenRequest } from '../../machines/test-support/fake-fetch';
import type { Tenant, TenantCreate } from '../../machines/tenants/tenants-actors';
import type { TenantPageRequest } from '../../domain/tenants-query';

/**
 * A scripted tenants backend for the screen's tests: answers every tenants call of the contract from
 * an in-memory list (paging, search by name or CNPJ, sort, deleted view, 400 for a bad CNPJ, 409 for
 * a taken name), feature flags per tenant, webhooks and analytics sync. `override` answers one call
 * differently (`METHOD /path`), e.g. to fail it or hold it open; returning undefined falls through.
 */

export const FEATURE_OPTIONS = ['analytics', 'campaigns', 'chat', 'chatbot', 'webhooks'];

export const tenant = (id: number, over: Partial<Tenant> = {}): Tenant => ({
  id,
  name: `tenant-${id}`,
  cnpj: '11.222.333/0001-81',
  features: [],
  template: 'farmacia',
  pool: 'pool-a',
  userLimit: 25,
  plan: 'professional',
  ticketLimit: 10_000,
  users_count: 3,
  created_at: `2026-01-${String(10 + (id % 18)).padStart(2, '0')}T12:00:00Z`,
  deleted_at: null,
  version: 1,
  features_version: 1,
  ...over,
});

export type Override = (request: SeenRequest) => Response | undefined | Promise<Response | undefined>;

export interface FakeTenantsApi {
  respond: Responder;
  tenants: Tenant[];
  /** Feature state by tenant name. */
  features: Map<string, Record<string, boolean>>;
  override: Map<string, Override>;
}

const compare = (a: unknown, b: unknown) =>
  typeof a === 'number' && typeof b === 'number' ? a - b : String(a ?? '').localeCompare(String(b ?? ''));

function page(api: FakeTenantsApi, body: TenantPageRequest) {
  const search = (body.search ?? '').trim().toLowerCase();
  // Roughly the server's rule (server/src/tenants/search.ts): as typed, or a CNPJ fragment without its marks.
  const bare = normalizeCnpj(cnpjSearchFragment(search) ?? '');
  const sortName = body.sort_name ?? 'id';
  const direction = (body.sort_type ?? 'DESC').toUpperCase() === 'ASC' ? 1 : -1;
  const rows = api.tenants
    .filter((t) => {
      const deleted = body.only_deleted ? 'only' : (body.deleted ?? 'live');
      return deleted === 'all' || (deleted === 'only') === (t.deleted_at !== null);
    })
    .filter(
      (t) =>
        search === '' ||
        t.name.includes(search) ||
        t.cnpj.toLowerCase().includes(search) ||
        (bare !== '' && normalizeCnpj(t.cnpj).includes(bare)),
    )
    .sort((a, b) => direction * compare(a[sortName], b[sortName]) || b.id - a.id);
  const limit = body.pagination_limit ?? 4;
  const current = body.pagination_page ?? 1;
  return {
    data: rows.slice((current - 1) * limit, current * limit),
    total: rows.length,
    total_is_lower_bound: false,
    page: current,
    limit,
    last_page: Math.max(1, Math.ceil(rows.length / limit)),
  };
}

export function fakeTenantsApi(initial: Tenant[]): FakeTenantsApi {
  const api: FakeTenantsApi = {
    tenants: initial.map((t) => ({ ...t })),
    features: new Map(),
    override: new Map(),
    respond: () => json(500, {}),
  };
  let nextId = 1000;
  const byId = (id: unknown) => api.tenants.find((t) => t.id === id);
  const flags = (name: string) => {
    let state = api.features.get(name);
    if (!state) {
      state = Object.fromEntries(FEATURE_OPTIONS.map((option) => [option, false]));
      api.features.set(name, state);
    }
    return state;
  };
  const notFound = () => json(404, { message: 'Tenant not found' });

  api.respond = async (request) => {
    const key = `${request.method} ${request.path}`;
    const overridden = await api.override.get(key)?.(request);
    if (overridden) return overridden;
    const body = (request.body ?? {}) as Record<string, unknown>;
    switch (key) {
      case 'POST /api/tenant/paginated':
        return json(200, page(api, body as TenantPageRequest));
      case 'POST /api/tenant': {
        const create = body as unknown as TenantCreate;
        if (!isValidCnpj(create.cnpj))
          return json(400, {
            message: 'Validation failed',
            errors: [{ field: 'body/cnpj', message: 'invalid CNPJ check digits' }],
          });
        if (api.tenants.some((t) => t.name === create.name))
          return json(409, { message: 'A tenant with this name already exists', field: 'name' });
        const created = tenant((nextId += 1), {
          ...create,
          cnpj: formatCnpj(create.cnpj),
          users_count: 0,
          created_at: '2026-03-01T12:00:00Z',
        });
        api.tenants.push(created);
        api.features.set(
          created.name,
          Object.fromEntries(FEATURE_OPTIONS.map((option) => [option, create.features.includes(option)])),
        );
        return json(201, created);
      }
      case 'POST /api/tenant/delete':
      case 'POST /api/tenant/restore': {
        const found = byId(body['id']);
        if (!found) return notFound();
        found.deleted_at = key.endsWith('delete') ? '2026-03-02T12:00:00Z' : null;
        return json(200, found);
      }
      case 'POST /api/tenant/update': {
        const found = byId(body['id']);
        if (!found) return notFound();
        if (!isValidCnpj(String(body['cnpj'])))
          return json(400, {
            message: 'Validation failed',
            errors: [{ field: 'body/cnpj', message: 'invalid CNPJ check digits' }],
          });
        if (api.tenants.some((t) => t.name === body['name'] && t.id !== found.id))
          return json(409, { message: 'A tenant with this name already exists', field: 'name' });
        Object.assign(found, {
          name: body['name'],
          cnpj: formatCnpj(String(body['cnpj'])),
          template: body['template'],
          pool: body['pool'],
        });
        return json(200, found);
      }
      case 'POST /api/tenant/set-plan': {
        const found = byId(body['id']);
        if (!found) return notFound();
        Object.assign(found, { plan: body['plan'], userLimit: body['user'], ticketLimit: body['ticket'] });
        return json(200, found);
      }
      case 'GET /api/tenant/feature': {
        const name = request.query.get('tenantName') ?? '';
        return json(
          200,
          Object.entries(flags(name)).map(([option, enabled]) => ({ option, enabled, tenantName: name })),
        );
      }
      case 'POST /api/tenant/feature': {
        const name = String(body['tenantName']);
        flags(name)[String(body['option'])] = body['enabled'] === true;
        return json(200, { option: body['option'], enabled: body['enabled'], tenantName: name });
      }
      case 'GET /api/tenant/generate-campaign-status-webhook': {
        const q = Object.fromEntries(request.query);
        return json(200, {
          tenantName: q['tenantName'],
          type: q['type'],
          startAt: q['startAt'],
          finishAt: q['finishAt'],
          deliveries: 12,
          deliveryId: 345,
        });
      }
      case 'GET /api/tenant/syncAnalytics': {
        const q = Object.fromEntries(request.query);
        return json(200, {
          tenantName: q['tenantName'],
          fromDate: q['fromDate'],
          toDate: q['toDate'],
          forceUpdate: q['forceUpdate'] === 'true',
          recomputedDays: 31,
          skippedDays: 0,
          rows: 4120,
          durationMs: 180,
        });
      }
      case 'GET /api/tenant/false':
        return json(
          200,
          api.tenants.filter((t) => t.deleted_at === null).map(({ id, name }) => ({ id, name })),
        );
      default:
        return json(404, { message: `no fake for ${key}` });
    }
  };
  return api;
}
