/**
 * Conformance CLI: `npm run conformance -- --base-url URL --email E --password P [--tenant T]`.
 * Without `--base-url`, starts the reference server in-process on a fresh in-memory database and
 * runs against it (demo administrator unless --email/--password are given).
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { formatResults, runConformance } from '../tests/contract/conformance/kit';

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    tenant: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  console.log('usage: npm run conformance -- [--base-url URL --email E --password P] [--tenant T]');
  process.exit(0);
}

let baseUrl = values['base-url'];
let stop: (() => Promise<void>) | undefined;
let email = values.email;
let password = values.password;

if (!baseUrl) {
  const { startTestApp } = await import('../server/src/test-support/app');
  const testApp = await startTestApp();
  await testApp.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  const address = testApp.app.fastify.server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${address.port}`;
  stop = () => testApp.close();
  email ??= 'admin@demo.local';
  password ??= 'Back#Office!Demo';
  console.log(`in-process reference server on ${baseUrl} (fresh in-memory database)`);
}

if (!email || !password) {
  console.error('--email and --password are required with --base-url');
  process.exit(2);
}

let failed = 1;
try {
  const results = await runConformance({
    baseUrl,
    email,
    password,
    ...(values.tenant ? { tenant: values.tenant } : {}),
  });
  console.log(formatResults(results));
  failed = results.filter((r) => !r.ok).length;
} catch (error) {
  console.error(error);
} finally {
  await stop?.();
}
process.exit(failed > 0 ? 1 : 0);
