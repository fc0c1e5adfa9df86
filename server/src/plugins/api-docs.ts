import type { FastifyInstance, FastifyReply } from 'fastify';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

/**
 * `/api/docs`: the REST contract for backend teams. An explorer (Swagger UI, served from node_modules,
 * with "try it" against this server) and `/api/docs/reference`, the contract rendered on the server
 * for reading without JavaScript: per tag, every operation with its permission, parameters, schema
 * names and examples. Neither uses a CDN or inline script/style (the app's CSP holds).
 * `/api/docs/openapi.yaml` serves the contract itself.
 */

type Obj = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

export function escapeHtml(value: unknown): string {
  return String(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** Follows a local `$ref` (`#/components/...`) one or more times. */
function deref(spec: Obj, value: unknown, depth = 0): unknown {
  if (!isObj(value) || typeof value['$ref'] !== 'string' || depth > 10) return value;
  const ref = value['$ref'];
  if (!ref.startsWith('#/')) return value;
  let target: unknown = spec;
  for (const part of ref.slice(2).split('/'))
    target = isObj(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return deref(spec, target, depth + 1);
}

/** A schema's name: its `$ref`, the names of a oneOf/anyOf/allOf, an array's items, or its type. */
function schemaName(schema: unknown): string {
  if (!isObj(schema)) return '—';
  if (typeof schema['$ref'] === 'string') return schema['$ref'].split('/').pop() ?? schema['$ref'];
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) return `${key}(${list.map(schemaName).join(', ')})`;
  }
  if (schema['type'] === 'array') return `array<${schemaName(schema['items'])}>`;
  if (typeof schema['type'] === 'string')
    return `${schema['type']}${typeof schema['format'] === 'string' ? ` (${schema['format']})` : ''}`;
  if (Array.isArray(schema['type'])) return schema['type'].join(' | ');
  return 'inline object';
}

const pre = (value: unknown) => `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
const text = (value: unknown) => (typeof value === 'string' ? `<p class="text">${escapeHtml(value)}</p>` : '');

/** Examples of a media type: `example`, or each of `examples` (resolved) with its summary. */
function examples(spec: Obj, media: Obj): string {
  const parts: string[] = [];
  if ('example' in media) parts.push(pre(media['example']));
  if (isObj(media['examples'])) {
    for (const [name, raw] of Object.entries(media['examples'])) {
      const example = deref(spec, raw);
      if (!isObj(example)) continue;
      const label = typeof example['summary'] === 'string' ? `${name}: ${example['summary']}` : name;
      parts.push(`<p class="example-name">${escapeHtml(label)}</p>${pre(example['value'])}`);
    }
  }
  return parts.join('');
}

function content(spec: Obj, body: unknown): string {
  if (!isObj(body) || !isObj(body['content'])) return '';
  return Object.entries(body['content'])
    .map(([type, raw]) => {
      const media = isObj(raw) ? raw : {};
      return `<div class="media"><span class="type">${escapeHtml(type)}</span> <code>${escapeHtml(schemaName(media['schema']))}</code>${examples(spec, media)}</div>`;
    })
    .join('');
}

function parameters(spec: Obj, list: unknown[]): string {
  const rows = list
    .map((raw) => deref(spec, raw))
    .filter(isObj)
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p['name'])}</code></td><td>${escapeHtml(p['in'])}</td><td>${p['required'] ? 'yes' : 'no'}</td><td><code>${escapeHtml(schemaName(p['schema']))}</code></td><td>${escapeHtml(p['description'] ?? '')}</td></tr>`,
    );
  if (!rows.length) return '';
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function permission(value: unknown): string {
  if (value === undefined) return 'not declared';
  if (Array.isArray(value)) return value.length ? value.join(' | ') : 'any signed-in user';
  return String(value);
}

interface Operation {
  method: string;
  path: string;
  op: Obj;
  params: unknown[];
}

function renderOperation(spec: Obj, { method, path, op, params }: Operation): string {
  const id = String(op['operationId'] ?? `${method} ${path}`);
  const responses = isObj(op['responses'])
    ? Object.entries(op['responses'])
        .map(([status, raw]) => {
          const response = deref(spec, raw);
          const description = isObj(response) ? response['description'] : undefined;
          return `<div class="response"><h5>${escapeHtml(status)} <span class="muted">${escapeHtml(description ?? '')}</span></h5>${content(spec, response)}</div>`;
        })
        .join('')
    : '';
  const body = deref(spec, op['requestBody']);
  return `<section class="operation" id="${escapeHtml(id)}">
<h3><span class="method method-${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code> <span class="op-id">${escapeHtml(id)}</span></h3>
${typeof op['summary'] === 'string' ? `<p class="summary">${escapeHtml(op['summary'])}</p>` : ''}${text(op['description'])}
<p><strong>x-permission:</strong> <code>${escapeHtml(permission(op['x-permission']))}</code></p>
${parameters(spec, params)}${isObj(body) ? `<h4>Request body${body['required'] ? ' (required)' : ''}</h4>${content(spec, body)}` : ''}
<h4>Responses</h4>${responses}
</section>`;
}

export function renderApiDocs(source: string): string {
  const spec = parse(source) as Obj;
  const info = isObj(spec['info']) ? spec['info'] : {};
  const tags = Array.isArray(spec['tags']) ? spec['tags'].filter(isObj) : [];
  const byTag = new Map<string, Operation[]>();
  for (const tag of tags) byTag.set(String(tag['name']), []);
  for (const [path, rawItem] of Object.entries(isObj(spec['paths']) ? spec['paths'] : {})) {
    if (!isObj(rawItem)) continue;
    const shared = Array.isArray(rawItem['parameters']) ? rawItem['parameters'] : [];
    for (const method of METHODS) {
      const op = rawItem[method];
      if (!isObj(op)) continue;
      const own = Array.isArray(op['parameters']) ? op['parameters'] : [];
      const tag = Array.isArray(op['tags']) && op['tags'].length ? String(op['tags'][0]) : 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)?.push({ method, path, op, params: [...shared, ...own] });
    }
  }
  const description = (name: string) => tags.find((t) => t['name'] === name)?.['description'];
  const nav = [...byTag.entries()]
    .filter(([, ops]) => ops.length)
    .map(
      ([tag, ops]) =>
        `<li><a href="#tag-${escapeHtml(tag)}">${escapeHtml(tag)}</a> <span class="muted">(${ops.length})</span></li>`,
    )
    .join('');
  const sections = [...byTag.entries()]
    .filter(([, ops]) => ops.length)
    .map(
      ([tag, ops]) =>
        `<h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${text(description(tag))}${ops.map((op) => renderOperation(spec, op)).join('\n')}`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info['title'] ?? 'API')} — docs</title>
<link rel="stylesheet" href="/api/docs/docs.css">
</head>
<body>
<header><h1>${escapeHtml(info['title'] ?? 'API')} <span class="muted">${escapeHtml(info['version'] ?? '')}</span></h1>
${text(info['summary'])}<p><a href="/api/docs/openapi.yaml">openapi.yaml</a> · GraphQL: <code>/{tenant}/graphql</code></p>
<nav><ul>${nav}</ul></nav>
<details><summary>Conventions</summary>${text(info['description'])}</details>
</header>
<main>
${sections}
</main>
</body>
</html>
`;
}

const CSS = `body{font:14px/1.5 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1rem 2rem;color:#1d2330;background:#fff}
h1{margin-bottom:.25rem}h2{border-bottom:2px solid #dde3ee;margin-top:2.5rem;text-transform:capitalize}
h3{margin:.25rem 0;font-size:1.05rem}h4{margin:.75rem 0 .25rem}h5{margin:.5rem 0 .25rem;font-size:.95rem}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0}
.operation{border:1px solid #dde3ee;border-radius:6px;padding:.75rem 1rem;margin:1rem 0}
.method{display:inline-block;min-width:4.5em;text-align:center;border-radius:4px;color:#fff;background:#56607a;font-size:.8rem;padding:.1rem .4rem}
.method-get{background:#1f6feb}.method-post{background:#1a7f37}.method-put{background:#9a6700}.method-patch{background:#8250df}.method-delete{background:#cf222e}
.op-id{float:right;font-family:ui-monospace,monospace;color:#56607a;font-weight:normal}
.summary{font-weight:600;margin:.25rem 0}.text{white-space:pre-wrap}.muted{color:#6b7386;font-weight:normal}
.type{color:#56607a}.example-name{margin:.25rem 0;color:#56607a}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #dde3ee;padding:.25rem .5rem;text-align:left;vertical-align:top}
pre{background:#f5f7fa;border:1px solid #e3e8f0;border-radius:4px;padding:.5rem;overflow:auto;max-height:24rem;font-size:12px}
code{font-family:ui-monospace,monospace}
`;

/** Where swagger-ui-dist's files are: resolved from the working directory, like WEB_ROOT. */
function swaggerUiDir(): string {
  return dirname(createRequire(join(process.cwd(), 'package.json')).resolve('swagger-ui-dist/package.json'));
}

/** The files of swagger-ui-dist the explorer page loads, served from node_modules (no CDN). */
const SWAGGER_FILES: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

/**
 * The explorer: Swagger UI with "try it" against this server. No inline script or style, so the app's
 * CSP holds: its start is a file of its own, and the contract it reads names this server (a relative
 * URL) instead of the contract's example address.
 */
export function explorerPage(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — API explorer</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
<link rel="stylesheet" href="/api/docs/explorer.css">
<script src="/api/docs/assets/swagger-ui-bundle.js" defer></script>
<script src="/api/docs/explorer.js" defer></script>
</head>
<body>
<header class="explorer-header"><strong>${escapeHtml(title)}</strong>
<a href="/api/docs/reference">Reference (no JavaScript)</a>
<a href="/api/docs/openapi.yaml">openapi.yaml</a>
<span>GraphQL: <code>/{tenant}/graphql</code></span></header>
<main id="swagger-ui"></main>
</body>
</html>
`;
}

const EXPLORER_JS = `window.addEventListener('DOMContentLoaded', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/docs/explorer-openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'none',
    filter: true,
    displayRequestDuration: true,
    showExtensions: true,
    showCommonExtensions: true,
    persistAuthorization: false,
    validatorUrl: null,
  });
});
`;

const EXPLORER_CSS = `.explorer-header{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:baseline;padding:.75rem 1.25rem;
font:14px/1.5 system-ui,sans-serif;border-bottom:1px solid #dde3ee}
.explorer-header a{color:#1f5fc7}
`;

/**
 * Registers `/api/docs` (Swagger UI with "try it"), `/api/docs/reference` (the contract rendered on the
 * server, for reading without JavaScript), their assets and `/api/docs/openapi.yaml`; pages are built once.
 */
export function registerApiDocs(fastify: FastifyInstance, options: { specPath: string }): void {
  const source = readFileSync(options.specPath, 'utf8');
  const spec = parse(source) as Obj;
  const title = String((isObj(spec['info']) && spec['info']['title']) || 'API');
  const html = renderApiDocs(source);
  const explorer = explorerPage(title);
  // The same contract, its servers replaced by this one: "try it" calls the server that serves the page.
  const explorerSpec = JSON.stringify({ ...spec, servers: [{ url: '/', description: 'this server' }] });
  const swaggerDir = swaggerUiDir();
  const page = (body: string, type: string) => (_request: unknown, reply: FastifyReply) =>
    reply.type(type).header('cache-control', 'no-cache').send(body);

  fastify.get('/api/docs', page(explorer, 'text/html; charset=utf-8'));
  fastify.get('/api/docs/explorer.js', page(EXPLORER_JS, 'text/javascript; charset=utf-8'));
  fastify.get('/api/docs/explorer.css', page(EXPLORER_CSS, 'text/css; charset=utf-8'));
  fastify.get('/api/docs/explorer-openapi.json', page(explorerSpec, 'application/json; charset=utf-8'));
  fastify.get<{ Params: { file: string } }>('/api/docs/assets/:file', async (request, reply) => {
    const type = SWAGGER_FILES[request.params.file];
    if (type === undefined) return reply.code(404).send({ message: 'Not found' });
    const body = await readFile(join(swaggerDir, request.params.file));
    return reply.type(type).header('cache-control', 'public, max-age=86400').send(body);
  });
  fastify.get('/api/docs/reference', page(html, 'text/html; charset=utf-8'));
  fastify.get('/api/docs/docs.css', page(CSS, 'text/css; charset=utf-8'));
  fastify.get('/api/docs/openapi.yaml', page(source, 'application/yaml; charset=utf-8'));
}
