/**
 * The baseline of the API bench: Fastify 5 with one JSON route and nothing else (no hooks, auth,
 * validation or database), in its own process like the real server, logging at the same level.
 */
import Fastify from 'fastify';

const fastify = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'warn' } });
fastify.get('/bare', async () => ({ status: 'ok' }));
fastify.post('/bare', async () => ({ status: 'ok' }));

const address = await fastify.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(`bare fastify listening on ${address}`);
process.on('SIGTERM', () => void fastify.close().then(() => process.exit(0)));
