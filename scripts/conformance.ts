/**
 * `npm run conformance -- [kit options]`: the conformance kit (packages/conformance, docs/conformance.md)
 * from this repository. Without `--base-url`, starts the reference server in-process on a fresh
 * in-memory database and runs against it as the demo administrador.
 */
import type { AddressInfo } from 'node:net';
import { main } from '../packages/conformance/src/cli.js';

const argv = process.argv.slice(2);
let stop: (() => Promise<void>) | undefined;
if (
  !argv.includes('--base-url') &&
  !process.env.BACKOFFICE_BASE_URL &&
  !argv.some((a) => /^(-h|--help|--list)$/.test(a))
) {
  const { startTestApp } = await import('../server/src/test-support/app');
  const testApp = await startTestApp();
  await testApp.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  const address = testApp.app.fastify.server.address() as AddressInfo;
  argv.push('--base-url', `http://127.0.0.1:${address.port}`);
  if (!argv.includes('--email')) argv.push('--email', 'admin@demo.local', '--password', 'Back#Office!Demo');
  stop = () => testApp.close();
  console.log(`in-process reference server on http://127.0.0.1:${address.port} (fresh in-memory database)`);
}
let code: number;
try {
  code = await main(argv, { env: process.env, out: (t) => console.log(t), err: (t) => console.error(t) });
} finally {
  await stop?.();
}
process.exit(code);
