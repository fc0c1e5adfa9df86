import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The built SPA: hashed assets under `/static/`, and `index.html` for every `/{tenant}/…` path
 * (history mode; wouter's base is the first segment). `/` goes to the back-office tenant.
 */
export async function serveSpa(app: FastifyInstance, options: { webRoot: string; backofficeTenant: string }): Promise<void> {
  const root = resolve(options.webRoot);
  const hasBuild = existsSync(resolve(root, 'index.html'));
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
  app.get('/:tenant/*', async (_request, reply) => {
    if (!hasBuild) return reply.code(503).send({ status: 'unavailable', message: 'The SPA is not built: run `npm run build`.' });
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html', root);
  });
}
