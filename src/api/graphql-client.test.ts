import {
  LogInDocument,
  RefreshTokenDocument,
  UsersDocument,
  type LogInMutation,
  type RefreshTokenMutation,
  type UsersQuery,
} from '../generated/graphql';
import { ApiError } from './api-error';
import { createGraphqlClient, GraphqlError } from './graphql-client';

interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: { query?: unknown; variables?: unknown; operationName?: unknown };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A fake GraphQL endpoint: records each request and answers with the queued responses. */
function fakeEndpoint(...answers: Response[]) {
  const sent: Sent[] = [];
  const fetch = vi.fn(async (request: Request): Promise<Response> => {
    sent.push({
      url: request.url,
      method: request.method,
      headers: request.headers,
      body: (await request.json()) as Sent['body'],
    });
    const next = answers.shift();
    if (!next) throw new Error('unexpected request');
    return next;
  });
  return { fetch, sent };
}

const USERS: UsersQuery = {
  users: [
    {
      id: 1,
      version: 1,
      name: 'Ana',
      username: 'ana',
      email: 'ana@example.com',
      image: null,
      isConnected: true,
      blocked: false,
      twoFactorEnabled: false,
      twoFactorEnrolmentRequired: false,
      role: { id: 2, name: 'admin', display_name: 'Administrador' },
      userDepartment: null,
      userInstances: [{ id: 3, instance: { id: 4, name: 'Loja 1', activated: true } }],
    },
  ],
};

const LOGGED_IN: LogInMutation = {
  logIn: {
    token: 'jwt-token',
    expires_in: 3600,
    recovery_codes: null,
    user: {
      id: 1,
      name: 'Ana',
      username: 'ana',
      email: 'ana@example.com',
      image: null,
      isConnected: true,
      blocked: false,
      twoFactorEnabled: false,
      twoFactorEnrolmentRequired: false,
      tenantName: 'farmacia-central',
      origin_backoffice: true,
      role: { id: 2, name: 'admin', display_name: 'Administrador', has_permission_routes: ['users.index'] },
      userDepartment: { id: 5, name: 'Vendas', activated: true },
      userInstances: [],
    },
  },
};

describe('createGraphqlClient', () => {
  it('posts {query, variables, operationName} as JSON to the url read at call time and returns data', async () => {
    const { fetch, sent } = fakeEndpoint(json(200, { data: USERS }), json(200, { data: USERS }));
    let url = 'http://api.test/farmacia-central/graphql';
    const { execute } = createGraphqlClient({ url: () => url, fetch });

    const first: UsersQuery = await execute(UsersDocument);
    url = 'http://api.test/outra-loja/graphql';
    await execute(UsersDocument);

    expect(first).toEqual(USERS);
    expect(sent.map((s) => s.url)).toEqual([
      'http://api.test/farmacia-central/graphql',
      'http://api.test/outra-loja/graphql',
    ]);
    expect(sent[0]?.method).toBe('POST');
    expect(sent[0]?.headers.get('Content-Type')).toMatch(/^application\/json\b/);
    expect(Object.keys(sent[0]!.body).sort()).toEqual(['operationName', 'query', 'variables']);
    expect(sent[0]?.body.operationName).toBe('users');
    expect(sent[0]?.body.variables).toEqual({});
    expect(sent[0]?.body.query).toEqual(expect.stringMatching(/^\s*query users\b/));
    expect(sent[0]?.body.query).toEqual(expect.stringContaining('userInstances'));
  });

  it('sends the fragments an operation spreads along with it, and names the operation, not a fragment', async () => {
    const { fetch, sent } = fakeEndpoint(json(200, { data: LOGGED_IN }));
    const { execute } = createGraphqlClient({ url: () => 'http://api.test/t/graphql', fetch });

    await execute(LogInDocument, { email: 'ana@example.com', password: 'secret' });

    expect(sent[0]?.body.operationName).toBe('logIn');
    const query = String(sent[0]?.body.query);
    expect(query).toContain('...SessionUser');
    for (const fragment of ['SessionUser on User', 'Department on Department', 'UserInstanceLink on UserInstance'])
      expect(query).toContain(`fragment ${fragment} {`);
  });

  it('sends the typed variables of a mutation and returns its data', async () => {
    const { fetch, sent } = fakeEndpoint(json(200, { data: LOGGED_IN }));
    const { execute } = createGraphqlClient({ url: () => 'http://api.test/graphql', fetch });

    const result = await execute(LogInDocument, { email: 'ana@example.com', password: 's3cret!!', remember: true });

    expectTypeOf(result).toEqualTypeOf<LogInMutation>();
    expect(result.logIn.token).toBe('jwt-token');
    expect(result).toEqual(LOGGED_IN);
    expect(sent[0]?.body.operationName).toBe('logIn');
    expect(sent[0]?.body.query).toEqual(expect.stringMatching(/^\s*mutation logIn\(/));
    expect(sent[0]?.body.variables).toEqual({ email: 'ana@example.com', password: 's3cret!!', remember: true });
  });

  it('requires the variables of a document that declares required ones (type level)', () => {
    const { execute } = createGraphqlClient({
      url: () => 'http://api.test/graphql',
      fetch: async () => json(200, { data: {} }),
    });
    // Not called: only the compiler checks these.
    const typeOnly = (): void => {
      // @ts-expect-error logIn needs email and password
      void execute(LogInDocument);
      // @ts-expect-error password is missing
      void execute(LogInDocument, { email: 'a@b.c' });
      void execute(UsersDocument);
    };
    expect(typeof typeOnly).toBe('function');
  });

  it('sends the headers option (the refresh call carries its own Authorization)', async () => {
    const refreshed: RefreshTokenMutation = { refreshToken: { token: 'new-jwt', expires_in: 3600 } };
    const { fetch, sent } = fakeEndpoint(json(200, { data: refreshed }));
    const { execute } = createGraphqlClient({ url: () => 'http://api.test/graphql', fetch });

    const result = await execute(RefreshTokenDocument, undefined, {
      headers: { Authorization: 'Bearer old-jwt', 'X-Tenant': 'acme' },
    });

    expect(result).toEqual(refreshed);
    expect(sent[0]?.headers.get('Authorization')).toBe('Bearer old-jwt');
    expect(sent[0]?.headers.get('X-Tenant')).toBe('acme');
    expect(sent[0]?.headers.get('Content-Type')).toMatch(/^application\/json\b/);
    expect(sent[0]?.body.operationName).toBe('refreshToken');
  });

  it('throws a GraphqlError with code and status from extensions.http.status', async () => {
    const errors = [
      { message: 'Sem permissão', path: ['users'], extensions: { code: 'FORBIDDEN', http: { status: 403 } } },
      { message: 'second', extensions: { code: 'INTERNAL_SERVER_ERROR' } },
    ];
    const { fetch } = fakeEndpoint(json(200, { data: null, errors }));
    const { execute } = createGraphqlClient({ url: () => 'http://api.test/graphql', fetch });

    const error = await execute(UsersDocument).then(
      () => expect.unreachable('should have thrown'),
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(GraphqlError);
    expect(error).toBeInstanceOf(ApiError);
    const gqlError = error as GraphqlError;
    expect(gqlError.code).toBe('FORBIDDEN');
    expect(gqlError.status).toBe(403);
    expect(gqlError.message).toBe('Sem permissão');
    expect(gqlError.errors).toEqual(errors);
  });

  it.each([
    [200, 200],
    [400, 400],
  ])('without extensions.http the GraphqlError status is the HTTP status (%i)', async (httpStatus, expected) => {
    const { fetch } = fakeEndpoint(
      json(httpStatus, { errors: [{ message: 'bad', extensions: { code: 'BAD_USER_INPUT' } }] }),
    );
    const { execute } = createGraphqlClient({ url: () => 'http://api.test/graphql', fetch });

    const error = await execute(LogInDocument, { email: 'x', password: 'y' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(GraphqlError);
    expect((error as GraphqlError).status).toBe(expected);
    expect((error as GraphqlError).code).toBe('BAD_USER_INPUT');
  });

  it('gives code undefined when the first error has no string extensions.code', async () => {
    const { fetch } = fakeEndpoint(json(200, { errors: [{ message: 'boom' }] }));
    const { execute } = createGraphqlClient({ url: () => 'http://api.test/graphql', fetch });
    const error = await execute(UsersDocument).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphqlError);
    expect((error as GraphqlError).code).toBeUndefined();
  });

  it('turns an HTTP 401 with a contract body into an ApiError with status 401 and that body', async () => {
    const { fetch } = fakeEndpoint(json(401, { status: 'Unauthorized' }));
    const { execute } = createGraphqlClient({ url: () => 'http://api.test/graphql', fetch });

    const error = await execute(UsersDocument).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(GraphqlError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).body).toEqual({ status: 'Unauthorized' });
  });

  it('does not return data from a non-2xx answer', async () => {
    const { fetch } = fakeEndpoint(json(500, { data: USERS }));
    const { execute } = createGraphqlClient({ url: () => 'http://api.test/graphql', fetch });

    const error = await execute(UsersDocument).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
    expect((error as ApiError).body).toEqual({ data: USERS });
  });

  it.each([
    [200, '<html>gateway page</html>'],
    [502, '<html>Bad Gateway</html>'],
    [200, ''],
  ])('turns a non-JSON answer (HTTP %i) into an ApiError', async (status, text) => {
    const { fetch } = fakeEndpoint(new Response(text, { status, headers: { 'Content-Type': 'text/html' } }));
    const { execute } = createGraphqlClient({ url: () => 'http://api.test/graphql', fetch });

    const error = await execute(UsersDocument).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(GraphqlError);
    expect((error as ApiError).status).toBe(status);
  });

  it('turns a JSON answer without data into an ApiError', async () => {
    const { fetch } = fakeEndpoint(json(200, { data: null }));
    const { execute } = createGraphqlClient({ url: () => 'http://api.test/graphql', fetch });
    await expect(execute(UsersDocument)).rejects.toBeInstanceOf(ApiError);
  });
});
