import { cnpjSearchFragment, formatCnpj, isValidCnpj, normalizeCnpj } from '../../domain/cnpj';
import { json, type Responder, type SeenRequest } from '../../machines/test-support/fake-fetch';
import type { Tenant, TenantCreate } from '../../machines/tenants/tenants-actors';
import type { TenantPageRequest } from '../../domain/tenants-query';
import { isObviouslyPrivateHost, type WebhookEndpoint } from '../../machines/webhooks/webhook-endpoint-checks';
import type { WebhookDelivery, WebhookDeliveryDetail } from '../../machines/webhooks/webhook-history.machine';
import type { WebhookRun } from '../../machines/webhooks/webhook-runs-live';

/** The webhook part of the fake (contracts/openapi.yaml, tag `webhooks`). */
export interface FakeWebhooks {
  endpoints: WebhookEndpoint[];
  runs: WebhookRun[];
  deliveries: WebhookDeliveryDetail[];
  /** Messages per generated type (each queues one delivery per active endpoint receiving it). */
  messages: number;
}

export const FAKE_SECRET = `whsec_${'Q'.repeat(39)}Q2x9`;

export const webhookEndpoint = (id: number, over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id,
  tenantName: 'farmacia-central',
  url: `https://erp.farmacia-central.com.br/hook/${id}`,
  types: ['sent', 'delivered', 'read'],
  description: '',
  active: true,
  secret_hint: '…Q2x9',
  previous_secret_expires_at: null,
  version: 1,
  created_at: '2026-11-27T12:00:00.000Z',
  updated_at: '2026-11-27T12:00:00.000Z',
  ...over,
});

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
  webhooks: FakeWebhooks;
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
    webhooks: { endpoints: [], runs: [], deliveries: [], messages: 12 },
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
    const webhookAnswer = webhooks(api, request.method, request.path, request.query, body);
    if (webhookAnswer) return webhookAnswer;
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
        const type = q['type'] as WebhookRun['type'];
        const receiving = api.webhooks.endpoints.filter(
          (e) => e.tenantName === q['tenantName'] && e.active && e.types.includes(type),
        );
        if (receiving.length === 0)
          return json(409, { message: 'No active endpoint receives this type', error: 'webhook_no_endpoint' });
        const total = api.webhooks.messages * receiving.length;
        const run: WebhookRun = {
          id: 345 + api.webhooks.runs.length,
          tenantName: String(q['tenantName']),
          type,
          startAt: String(q['startAt']),
          finishAt: String(q['finishAt']),
          total,
          pending: total,
          succeeded: 0,
          failed: 0,
          cancelled: 0,
          created_at: '2026-11-28T12:00:00.000Z',
          created_by: { id: 1, name: 'Ana' },
          finished_at: null,
        };
        api.webhooks.runs.unshift(run);
        return json(200, {
          tenantName: q['tenantName'],
          type,
          startAt: q['startAt'],
          finishAt: q['finishAt'],
          deliveries: total,
          deliveryId: run.id,
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

const validation = (field: string, message: string) =>
  json(400, { message: 'Validation failed', errors: [{ field: `body/${field}`, message }] });

/** What the server refuses of an address (docs/webhooks.md, Addresses), roughly. */
function refusedUrl(url: unknown): string | null {
  if (typeof url !== 'string') return 'required';
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:') return 'must be https';
    if (isObviouslyPrivateHost(parsed.hostname)) return 'the host is not a public address';
    return null;
  } catch {
    return 'not an absolute address';
  }
}

/** The `webhooks` operations, or undefined for any other call. */
function webhooks(
  api: FakeTenantsApi,
  method: string,
  path: string,
  query: URLSearchParams,
  body: Record<string, unknown>,
): Response | undefined {
  const w = api.webhooks;
  const live = (id: number) => w.endpoints.find((e) => e.id === id);
  const stale = (endpoint: WebhookEndpoint) =>
    typeof body['version'] === 'number' && body['version'] !== endpoint.version
      ? json(409, { message: 'Changed since', error: 'stale', version: endpoint.version, changes: [] })
      : undefined;
  const page = <T>(data: T[]) => json(200, { data, next: null });
  if (method === 'GET' && path === '/api/webhooks/endpoints')
    return json(200, { data: w.endpoints.filter((e) => e.tenantName === query.get('tenantName')) });
  if (method === 'POST' && path === '/api/webhooks/endpoints') {
    const tenantName = String(body['tenantName'] ?? 'backoffice');
    const refused = refusedUrl(body['url']);
    if (refused) return validation('url', refused);
    if (w.endpoints.some((e) => e.tenantName === tenantName && e.url === body['url']))
      return json(409, { message: 'This address is already registered', error: 'webhook_endpoint_taken' });
    if (w.endpoints.filter((e) => e.tenantName === tenantName).length >= 10)
      return json(409, { message: 'At most 10 endpoints', error: 'webhook_endpoint_limit' });
    const endpoint = webhookEndpoint(Math.max(0, ...w.endpoints.map((e) => e.id)) + 1, {
      tenantName,
      url: String(body['url']),
      types: body['types'] as WebhookEndpoint['types'],
      description: String(body['description'] ?? ''),
    });
    w.endpoints.push(endpoint);
    return json(201, { endpoint, secret: FAKE_SECRET });
  }
  const one = /^\/api\/webhooks\/endpoints\/(\d+)(\/rotate-secret)?$/.exec(path);
  if (one) {
    const endpoint = live(Number(one[1]));
    if (!endpoint) return json(404, { message: 'Not found' });
    if (method === 'DELETE') {
      w.endpoints = w.endpoints.filter((e) => e !== endpoint);
      return json(200, { message: 'Deleted' });
    }
    const refusedStale = stale(endpoint);
    if (refusedStale) return refusedStale;
    if (method === 'POST' && one[2]) {
      Object.assign(endpoint, {
        version: endpoint.version + 1,
        previous_secret_expires_at: '2026-11-29T15:00:00.000Z',
      });
      return json(200, { endpoint, secret: FAKE_SECRET.replace('Q2x9', 'R3y0') });
    }
    if (method === 'PUT') {
      if ('url' in body) {
        const refused = refusedUrl(body['url']);
        if (refused) return validation('url', refused);
      }
      const { version: _version, ...change } = body;
      Object.assign(endpoint, change, { version: endpoint.version + 1 });
      return json(200, endpoint);
    }
  }
  if (method === 'GET' && path === '/api/webhooks/runs')
    return page(w.runs.filter((r) => r.tenantName === query.get('tenantName')));
  const run = /^\/api\/webhooks\/runs\/(\d+)(\/redeliver-failed)?$/.exec(path);
  if (run) {
    const found = w.runs.find((r) => r.id === Number(run[1]));
    if (!found) return json(404, { message: 'Not found' });
    if (method === 'GET') return json(200, found);
    const failed = w.deliveries.filter((d) => d.delivery.run_id === found.id && d.delivery.state === 'failed');
    let requeued = 0;
    for (const d of failed) {
      if (live(d.delivery.endpoint.id)?.active !== true) continue;
      d.delivery.state = 'pending';
      requeued += 1;
    }
    return json(200, { requeued, skipped: failed.length - requeued });
  }
  if (method === 'GET' && path === '/api/webhooks/deliveries') {
    const matches = (d: WebhookDelivery) =>
      (!query.get('runId') || d.run_id === Number(query.get('runId'))) &&
      (!query.get('endpointId') || d.endpoint.id === Number(query.get('endpointId'))) &&
      (!query.get('state') || d.state === query.get('state')) &&
      (!query.get('type') || d.type === query.get('type'));
    return page(w.deliveries.map((d) => d.delivery).filter(matches));
  }
  const delivery = /^\/api\/webhooks\/deliveries\/(\d+)(\/redeliver)?$/.exec(path);
  if (delivery) {
    const found = w.deliveries.find((d) => d.delivery.id === Number(delivery[1]));
    if (!found) return json(404, { message: 'Not found' });
    if (method === 'GET') return json(200, found);
    const state = found.delivery.state;
    if (state === 'pending' || state === 'sending')
      return json(409, { message: 'In progress', error: 'webhook_delivery_in_progress' });
    const endpoint = live(found.delivery.endpoint.id);
    if (!endpoint) return json(409, { message: 'Deleted endpoint', error: 'webhook_endpoint_deleted' });
    if (!endpoint.active) return json(409, { message: 'Paused endpoint', error: 'webhook_endpoint_paused' });
    found.delivery = { ...found.delivery, state: 'pending', next_attempt_at: '2026-11-28T12:10:00.000Z' };
    return json(200, found.delivery);
  }
  return undefined;
}
