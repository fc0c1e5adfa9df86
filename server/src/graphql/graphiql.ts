import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../plugins/api-docs';

/**
 * A small local stand-in for GraphiQL (outside production). yoga's GraphiQL loads its bundle from
 * unpkg and no local GraphiQL bundle is installed, so this page is server-rendered with its script
 * and styles as separate files (no CDN, no inline code: the app's CSP holds unchanged). It posts the
 * query and variables to the page's own URL with the token from the token field (kept in sessionStorage).
 */

export const GRAPHIQL_SCRIPT = '/api/graphiql/graphiql.js';
export const GRAPHIQL_STYLES = '/api/graphiql/graphiql.css';

export function graphiqlPage(tenantName: string): string {
  const tenant = escapeHtml(tenantName);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphQL — ${tenant}</title>
<link rel="stylesheet" href="${GRAPHIQL_STYLES}">
<script src="${GRAPHIQL_SCRIPT}" defer></script>
</head>
<body>
<header><h1>GraphQL <span class="muted">/${tenant}/graphql</span></h1><a href="/api/docs">REST docs</a></header>
<form id="graphiql">
<label for="token">Access token (Bearer)</label>
<input id="token" name="token" type="password" autocomplete="off" placeholder="paste an access token, or run logIn: its token is kept here">
<div class="panes">
<div class="pane"><label for="query">Query</label>
<textarea id="query" name="query" spellcheck="false">query Me {\n  __typename\n}</textarea>
<label for="variables">Variables (JSON)</label>
<textarea id="variables" name="variables" spellcheck="false" class="small">{}</textarea>
<button id="run" type="submit">Run ▶</button> <span id="status" class="muted"></span></div>
<div class="pane"><label for="result">Result</label><pre id="result" aria-live="polite"></pre></div>
</div>
</form>
</body>
</html>
`;
}

const SCRIPT = `'use strict';
(function () {
  var KEY = 'graphiql.token';
  var form = document.getElementById('graphiql');
  var token = document.getElementById('token');
  var query = document.getElementById('query');
  var variables = document.getElementById('variables');
  var result = document.getElementById('result');
  var status = document.getElementById('status');
  try { token.value = sessionStorage.getItem(KEY) || ''; } catch (e) { /* storage unavailable */ }
  token.addEventListener('change', function () {
    try { sessionStorage.setItem(KEY, token.value.trim()); } catch (e) { /* storage unavailable */ }
  });
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var vars = {};
    if (variables.value.trim()) {
      try { vars = JSON.parse(variables.value); } catch (e) { result.textContent = 'Variables are not valid JSON: ' + e.message; return; }
    }
    var headers = { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' };
    if (token.value.trim()) headers.authorization = 'Bearer ' + token.value.trim();
    status.textContent = 'running…';
    var started = Date.now();
    fetch(window.location.pathname, { method: 'POST', headers: headers, body: JSON.stringify({ query: query.value, variables: vars }) })
      .then(function (response) {
        return response.text().then(function (text) {
          status.textContent = 'HTTP ' + response.status + ' · ' + (Date.now() - started) + ' ms';
          var body;
          try { body = JSON.parse(text); } catch (e) { result.textContent = text; return; }
          result.textContent = JSON.stringify(body, null, 2);
          // A logIn / refreshToken result: keep its token for the next calls.
          var data = body && body.data;
          if (data) {
            Object.keys(data).forEach(function (key) {
              var value = data[key];
              if (value && typeof value.token === 'string') {
                token.value = value.token;
                try { sessionStorage.setItem(KEY, value.token); } catch (e) { /* storage unavailable */ }
              }
            });
          }
        });
      })
      .catch(function (error) { status.textContent = ''; result.textContent = 'Request failed: ' + error.message; });
  });
  query.addEventListener('keydown', function (event) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) { event.preventDefault(); form.requestSubmit(); }
  });
})();
`;

const STYLES = `body{font:14px/1.5 system-ui,sans-serif;margin:0;padding:1rem 2rem;color:#1d2330}
header{display:flex;align-items:baseline;gap:1rem}h1{margin:0 0 .5rem;font-size:1.3rem}.muted{color:#6b7386;font-weight:normal}
label{display:block;margin:.5rem 0 .2rem;font-weight:600}
input,textarea{width:100%;box-sizing:border-box;font:13px/1.4 ui-monospace,monospace;border:1px solid #c9d1de;border-radius:4px;padding:.4rem}
textarea{min-height:22rem;resize:vertical}textarea.small{min-height:6rem}
.panes{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
button{margin-top:.5rem;padding:.4rem 1.2rem;border:0;border-radius:4px;background:#1f6feb;color:#fff;font-weight:600;cursor:pointer}
pre{margin:0;min-height:31rem;background:#f5f7fa;border:1px solid #e3e8f0;border-radius:4px;padding:.5rem;overflow:auto;font-size:12px}
`;

/** The page's script and styles, as same-origin files. */
export function registerGraphiqlAssets(fastify: FastifyInstance): void {
  fastify.get(GRAPHIQL_SCRIPT, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(SCRIPT),
  );
  fastify.get(GRAPHIQL_STYLES, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(STYLES),
  );
}
