import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { escapeHtmlText } from '../../../src/domain/html';
import { matchPath } from '../../../src/domain/paths';

/**
 * The built SPA: hashed assets under `/static/`, and `index.html` for every `/{tenant}/…` path
 * (history mode; wouter's base is the first segment) but the login page's, which gets
 * `login.html` when the build has one: the same page with the login form already rendered
 * (src/prerender.tsx), so it paints before any script runs. Only there: a signed-in user
 * reloading any other page must not see a login form flash by. `/` goes to the back-office tenant.
 */
/** What the SPA reads at start (src/machines/app-services.ts `readSettings`). */
export interface SpaSettings {
  socketUrl: string;
  ipLookupUrl: string;
}

/**
 * index.html with the runtime settings in a `<meta name="panel-settings">` (data, not script: the CSP
 * forbids inline scripts), so one build serves every deployment.
 */
export function withSettings(html: string, settings: SpaSettings): string {
  const meta = `<meta name="panel-settings" content="${escapeHtmlText(JSON.stringify(settings))}" />`;
  return html.includes('</head>') ? html.replace('</head>', `${meta}</head>`) : `${meta}${html}`;
}

export async function serveSpa(app: FastifyInstance, options: { webRoot: string; backofficeTenant: string; settings: SpaSettings }): Promise<void> {
  const root = resolve(options.webRoot);
  const indexPath = resolve(root, 'index.html');
  const hasBuild = existsSync(indexPath);
  const index = hasBuild ? withSettings(readFileSync(indexPath, 'utf8'), options.settings) : '';
  const loginPath = resolve(root, 'login.html');
  const login = hasBuild && existsSync(loginPath) ? withSettings(readFileSync(loginPath, 'utf8'), options.settings) : index;
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: resolve(root, 'static'),
      prefix: '/static/',
      immutable: true,
      maxAge: '365d',
      index: false,
      wildcard: true,
    });
  }
  app.get('/', async (_request, reply) => reply.redirect(`/${options.backofficeTenant}/`, 302));
  app.get('/:tenant', async (request, reply) => reply.redirect(`/${(request.params as { tenant: string }).tenant}/`, 301));
  app.get('/:tenant/*', async (request, reply) => {
    if (!hasBuild) return reply.code(503).send({ status: 'unavailable', message: 'The SPA is not built: run `npm run build`.' });
    reply.header('cache-control', 'no-cache');
    const rest = `/${(request.params as { '*': string })['*']}`;
    return reply.type('text/html; charset=utf-8').send(isLoginPath(rest) ? login : index);
  });
}

/** The tenant-relative path of the login route (the route table's own matching, trailing slash included). */
export function isLoginPath(rest: string): boolean {
  return matchPath(rest)?.route.name === 'login';
}
