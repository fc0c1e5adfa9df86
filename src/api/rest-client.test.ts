import type { components } from '../generated/openapi';
import { ApiError, fieldErrors } from './api-error';
import { createAuthFetch } from './auth-middleware';
import { createRestClient } from './create-rest-client';
import { unwrap } from './rest-client';

interface Sent {
  method: string;
  url: string;
  contentType: string | null;
  authorization: string | null;
  body: string;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function fakeServer(...answers: Response[]) {
  const sent: Sent[] = [];
  const fetch = vi.fn(async (request: Request): Promise<Response> => {
    sent.push({
      method: request.method,
      url: request.url,
      contentType: request.headers.get('Content-Type'),
      authorization: request.headers.get('Authorization'),
      body: request.body ? await request.text() : '',
    });
    const next = answers.shift();
    if (!next) throw new Error('unexpected request');
    return next;
  });
  return { fetch, sent };
}

const PAGE_REQUEST: components['schemas']['TenantPageRequest'] = {
  filter_users: false,
  pagination_page: 2,
  pagination_limit: 4,
  search: 'farmácia',
  sort_name: 'name',
  sort_type: 'ASC',
  only_deleted: false,
};

const PAGE: components['schemas']['TenantPage'] = {
  data: [],
  total: 0,
  total_is_lower_bound: false,
  page: 2,
  limit: 4,
  last_page: 1,
};

describe('createRestClient', () => {
  it('sends a typed POST to baseUrl + path with the JSON body', async () => {
    const { fetch, sent } = fakeServer(json(200, PAGE));
    const client = createRestClient({ baseUrl: 'http://api.test', fetch });

    await client.POST('/api/tenant/paginated', { body: PAGE_REQUEST });

    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe('POST');
    expect(sent[0]?.url).toBe('http://api.test/api/tenant/paginated');
    expect(sent[0]?.contentType).toMatch(/^application\/json\b/);
    expect(JSON.parse(sent[0]!.body)).toEqual(PAGE_REQUEST);
  });

  it('encodes the query of a GET', async () => {
    const { fetch, sent } = fakeServer(
      json(200, [{ option: 'chatbot', enabled: true, tenantName: 'farmacia central&x=1' }]),
    );
    const client = createRestClient({ baseUrl: 'http://api.test', fetch });

    const features = unwrap(
      await client.GET('/api/tenant/feature', { params: { query: { tenantName: 'farmacia central&x=1' } } }),
    );

    expect(features).toEqual([{ option: 'chatbot', enabled: true, tenantName: 'farmacia central&x=1' }]);
    const url = new URL(sent[0]!.url);
    expect(sent[0]?.method).toBe('GET');
    expect(url.origin + url.pathname).toBe('http://api.test/api/tenant/feature');
    expect([...url.searchParams.keys()]).toEqual(['tenantName']);
    expect(url.searchParams.get('tenantName')).toBe('farmacia central&x=1');
    expect(sent[0]?.body).toBe('');
  });

  it('goes through the auth fetch: a replayed POST keeps its body', async () => {
    const { fetch, sent } = fakeServer(json(401, { error: 'Token has expired' }), json(200, PAGE));
    const tokens = ['old', 'new'];
    const authFetch = createAuthFetch(
      { getToken: async () => tokens.shift() ?? null, onUnauthorized: async () => true },
      fetch,
    );
    const client = createRestClient({ baseUrl: 'http://api.test', fetch: authFetch });

    const page = unwrap(await client.POST('/api/tenant/paginated', { body: PAGE_REQUEST }));

    expect(page).toEqual(PAGE);
    expect(sent.map((s) => s.authorization)).toEqual(['Bearer old', 'Bearer new']);
    expect(JSON.parse(sent[1]!.body)).toEqual(PAGE_REQUEST);
  });
});

describe('unwrap', () => {
  it('returns the data of a 2xx answer', async () => {
    const { fetch } = fakeServer(json(200, PAGE));
    const client = createRestClient({ baseUrl: 'http://api.test', fetch });
    const page = unwrap(await client.POST('/api/tenant/paginated', { body: PAGE_REQUEST }));
    expectTypeOf(page).toEqualTypeOf<components['schemas']['TenantPage']>();
    expect(page).toEqual(PAGE);
  });

  it.each([
    [400, { message: 'Dados inválidos', errors: [{ field: 'body/search', message: 'too long' }] }],
    [403, { message: 'Forbidden', required_permission: ['tenant.index'] }],
    [404, { message: 'Not found' }],
    [409, { message: 'Conflict' }],
  ])('throws an ApiError with the status and the error body for a %i', async (status, body) => {
    const { fetch } = fakeServer(json(status, body));
    const client = createRestClient({ baseUrl: 'http://api.test', fetch });
    const result = await client.POST('/api/tenant/paginated', { body: PAGE_REQUEST });

    let thrown: unknown;
    try {
      unwrap(result);
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).status).toBe(status);
    expect((thrown as ApiError).body).toEqual(body);
  });

  it('throws an ApiError for a 5xx too', () => {
    const response = new Response('oops', { status: 500 });
    expect(() => unwrap({ error: 'oops', response })).toThrow(ApiError);
  });
});

describe('fieldErrors', () => {
  it('maps the contract 400 body to messages keyed by field without the location prefix', async () => {
    const body = {
      message: 'Dados inválidos',
      errors: [
        { field: 'body/email', message: 'x' },
        { field: 'query/tenantName', message: 'obrigatório' },
        { field: 'path/id', message: 'inteiro' },
        { field: 'variables/password', message: 'curta' },
      ],
    };
    const { fetch } = fakeServer(json(400, body));
    const client = createRestClient({ baseUrl: 'http://api.test', fetch });
    const result = await client.POST('/api/tenant/paginated', { body: PAGE_REQUEST });
    let error: unknown;
    try {
      unwrap(result);
    } catch (e) {
      error = e;
    }

    expect(error).toBeInstanceOf(ApiError);
    expect(fieldErrors(error)).toEqual({ email: 'x', tenantName: 'obrigatório', id: 'inteiro', password: 'curta' });
    expect(fieldErrors(new ApiError(400, { message: 'm', errors: [{ field: 'body/email', message: 'x' }] }))).toEqual({
      email: 'x',
    });
  });

  it.each([
    ['a 400 without an errors list', new ApiError(400, { message: 'bad' })],
    ['a 400 with a null body', new ApiError(400, null)],
    ['a 422 with field errors', new ApiError(422, { message: 'm', errors: [{ field: 'body/email', message: 'x' }] })],
    ['a 403', new ApiError(403, { message: 'Forbidden' })],
    ['a plain Error', new Error('network down')],
    ['a non-error value', { status: 400, body: { errors: [{ field: 'body/email', message: 'x' }] } }],
    ['undefined', undefined],
  ])('returns {} for %s', (_label, error) => {
    expect(fieldErrors(error)).toEqual({});
  });
});
