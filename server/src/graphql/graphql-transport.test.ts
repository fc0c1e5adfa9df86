import { createHash } from 'node:crypto';
import { loadConfig } from '../base/config';
import { USER_INFOS, extraApps, g, gql, makeApp, tokenOf, useGraphqlApp } from '../test-support/graphql-app';

/** What GraphQL answers besides operations: media types, GraphiQL outside production, production (app: server/src/test-support/graphql-app.ts). */
useGraphqlApp();

describe('GraphQL /{tenant}/graphql: media types, GraphiQL, production', () => {
  it('answers application/json when asked, with the contract statuses (400 for validation failures)', async () => {
    const token = await tokenOf(g.app, 'admin@demo.local');
    const ok = await gql(g.app, USER_INFOS, { token, accept: 'application/json' });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toContain('application/json');
    const invalid = await gql(g.app, '{ users { nope } }', { token, accept: 'application/json' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it("serves yoga's GraphiQL on GET outside production: no CDN, its one inline script allowed by hash", async () => {
    const page = await g.app.fastify.inject({
      method: 'GET',
      url: '/backoffice/graphql',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('renderYogaGraphiQL');
    // Nothing is loaded from another origin: no src/href to http(s), no CDN.
    expect(page.body).not.toMatch(/(?:src|href)=["']?https?:|unpkg\.com|jsdelivr/i);
    const csp = String(page.headers['content-security-policy']);
    const scripts = [...page.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256')
      .update(scripts[0] ?? '')
      .digest('base64');
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}';`);
    expect(csp).toMatch(/connect-src 'self';/);
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    // One page for every tenant: it queries its own path.
    const other = await g.app.fastify.inject({
      method: 'GET',
      url: '/farmacia-central/graphql',
      headers: { accept: 'text/html' },
    });
    expect(other.body).toBe(page.body);
    expect(
      (await g.app.fastify.inject({ method: 'GET', url: '/no-such-tenant/graphql', headers: { accept: 'text/html' } }))
        .statusCode,
    ).toBe(404);
    const getQuery = await g.app.fastify.inject({ method: 'GET', url: '/backoffice/graphql?query=%7B__typename%7D' });
    expect(getQuery.statusCode).toBe(405);
    const getJson = await g.app.fastify.inject({
      method: 'GET',
      url: '/backoffice/graphql',
      headers: { accept: 'application/json' },
    });
    expect(getJson.statusCode).toBe(405);
    // What the page's script sends: a POST to the same URL with the bearer token.
    const introspection = await gql<{ __schema: { queryType: { name: string } } }>(
      g.app,
      '{ __schema { queryType { name } } }',
    );
    expect(introspection.body.data?.__schema.queryType.name).toBe('Query');
  });

  it('in production: no GraphiQL, no introspection', async () => {
    const prod = await makeApp(loadConfig({ databaseUrl: 'pglite://memory', production: true }));
    extraApps.push(prod);
    expect(
      (await prod.fastify.inject({ method: 'GET', url: '/backoffice/graphql', headers: { accept: 'text/html' } }))
        .statusCode,
    ).toBe(405);
    // yoga's plugin (@graphql-yoga/plugin-disable-introspection): however the meta field is reached.
    for (const [document, field] of [
      ['{ __schema { queryType { name } } }', '__schema'],
      ['{ __type(name: "User") { name } }', '__type'],
      ['{ ...F } fragment F on Query { __schema { types { name } } }', '__schema'],
      ['{ ... on Query { x: __type(name: "Query") { fields { name } } } }', '__type'],
    ] as const) {
      const introspection = await gql(prod, document);
      expect(introspection.status, document).toBe(400);
      expect(introspection.body.data, document).toBeUndefined();
      expect(introspection.body.errors?.[0]?.extensions?.code, document).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(introspection.body.errors?.[0]?.message, document).toMatch(
        new RegExp(`introspection.*disabled.*${field}`, 'i'),
      );
      // The same documents are answered outside production.
      const answered = await gql(g.app, document);
      expect(answered.status, document).toBe(200);
      expect(answered.body.errors, document).toBeUndefined();
    }
    const typename = await gql<{ __typename: string }>(prod, '{ __typename }');
    expect(typename.status).toBe(200);
    expect(typename.body.data?.__typename).toBe('Query');
  });
});
