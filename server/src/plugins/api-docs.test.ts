import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { buildApp, OPENAPI_PATH, type App } from '../app';
import { loadConfig } from '../base/config';
import { openDatabase } from '../db/connect';
import { migrate } from '../db/migrate';
import { escapeHtml, renderApiDocs } from './api-docs';

let app: App;
let close: () => Promise<void>;

beforeAll(async () => {
  process.env.LOG_LEVEL = 'silent';
  const database = await openDatabase('pglite://memory');
  close = database.close;
  await migrate(database.db);
  app = await buildApp({ db: database.db, config: loadConfig({ databaseUrl: 'pglite://memory' }) });
}, 120_000);

afterAll(async () => {
  await app.fastify.close();
  await close();
});

const source = readFileSync(OPENAPI_PATH, 'utf8');

function operationIds(): string[] {
  const spec = parse(source) as { paths: Record<string, Record<string, { operationId?: string }>> };
  return Object.values(spec.paths).flatMap((item) =>
    Object.values(item).flatMap((op) =>
      op && typeof op === 'object' && 'operationId' in op && op.operationId ? [op.operationId] : [],
    ),
  );
}

describe('/api/docs', () => {
  it('serves Swagger UI from node_modules with its start in a file, under the no-inline CSP', async () => {
    const page = await app.fastify.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<]|<style|\sstyle=|https?:\/\//i);
    expect(String(page.headers['content-security-policy'])).toMatch(/script-src 'self';/);
    const sources = [...page.body.matchAll(/(?:src|href)="(\/api\/docs\/[^"]+)"/g)].map((m) => m[1] ?? '');
    expect(sources).toEqual(
      expect.arrayContaining([
        '/api/docs/assets/swagger-ui-bundle.js',
        '/api/docs/assets/swagger-ui.css',
        '/api/docs/explorer.js',
        '/api/docs/reference',
      ]),
    );
    for (const url of sources) {
      const file = await app.fastify.inject({ method: 'GET', url });
      expect(file.statusCode, url).toBe(200);
      expect(file.body.length, url).toBeGreaterThan(url.endsWith('bundle.js') ? 500_000 : 20);
    }
    expect((await app.fastify.inject({ method: 'GET', url: '/api/docs/assets/package.json' })).statusCode).toBe(404);
    expect((await app.fastify.inject({ method: 'GET', url: '/api/docs/assets/..%2Fpackage.json' })).statusCode).toBe(
      404,
    );
    const start = await app.fastify.inject({ method: 'GET', url: '/api/docs/explorer.js' });
    expect(start.body).toContain("url: '/api/docs/explorer-openapi.json'");
    expect(start.body).toContain('validatorUrl: null');
  });

  it('gives the explorer the contract with this server as its only server, so "try it" stays here', async () => {
    const response = await app.fastify.inject({ method: 'GET', url: '/api/docs/explorer-openapi.json' });
    expect(response.statusCode).toBe(200);
    const explorerSpec = response.json() as { servers: unknown; paths: Record<string, unknown> };
    expect(explorerSpec.servers).toEqual([{ url: '/', description: 'this server' }]);
    const contract = parse(source) as { paths: Record<string, unknown> };
    expect(explorerSpec.paths).toEqual(contract.paths);
  });

  it('renders every operation of the contract as HTML at /api/docs/reference, under the no-inline CSP', async () => {
    const page = await app.fastify.inject({ method: 'GET', url: '/api/docs/reference' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const ids = operationIds();
    expect(ids.length).toBeGreaterThan(40);
    for (const id of ids) expect(page.body).toContain(`>${id}</span>`);
    expect(page.body).toContain('x-permission:');
    expect(page.body).toContain('LoginRequest');
    expect(page.body).toContain('&quot;admin@demo.local&quot;');
    expect(page.body).not.toMatch(/<script|<style|\sstyle=|https?:\/\/(unpkg|cdn)/i);
    expect(String(page.headers['content-security-policy'])).toMatch(/script-src 'self';/);
    const css = await app.fastify.inject({ method: 'GET', url: '/api/docs/docs.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toContain('text/css');
  });

  it('serves the raw contract as application/yaml', async () => {
    const raw = await app.fastify.inject({ method: 'GET', url: '/api/docs/openapi.yaml' });
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toContain('application/yaml');
    expect(raw.body).toBe(source);
  });

  it('escapes HTML from the contract', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const html = renderApiDocs(
      `openapi: 3.1.0\ninfo: { title: '<b>T</b>', version: '1' }\npaths:\n  /x:\n    get:\n      operationId: evil\n      summary: '<script>alert(1)</script>'\n      responses: { '200': { description: ok } }\n`,
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;T&lt;/b&gt;');
  });
});
