import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../../server/src/test-support/app';
import { runConformance, type Result } from '../../../packages/conformance/src/kit.js';
import { liveGraphCounts } from '../../../packages/conformance/src/machines-entry.mjs';

/**
 * The kit's `machines` group (packages/conformance/src/kit-machines.ts) against the in-process reference
 * server on PGlite: the session, socket and feature-bulk machines replay every path their live models
 * give (src/machines/live/), and each check names the paths and steps it covered.
 */
describe('conformance kit: the machines against a live server (PGlite)', () => {
  let testApp: TestApp | undefined;
  let baseUrl = '';
  let results: Result[] = [];

  beforeAll(async () => {
    testApp = await startTestApp({ databaseUrl: 'pglite://memory' });
    await testApp.app.fastify.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(testApp.app.fastify.server.address() as AddressInfo).port}`;
    results = await runConformance({
      baseUrl,
      email: 'admin@demo.local',
      password: 'Back#Office!Demo',
      only: ['machines'],
    });
  }, 180_000);

  afterAll(async () => {
    await testApp?.close();
  });

  it('passes, one check per machine, with as many paths and steps as the live models give', async () => {
    const machines = results.filter((r) => r.group === 'machines');
    expect(machines.filter((r) => !r.ok).map((r) => `${r.operation}: ${r.problems.join('; ')}`)).toEqual([]);
    // The counts a full replay must reach: the same graphs, built again on the tenant the run made.
    const login = (await (
      await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@demo.local', password: 'Back#Office!Demo', ip: null }),
      })
    ).json()) as { access_token: string; user: { id: number } };
    const tenants = (await (
      await fetch(`${baseUrl}/api/tenant/false`, { headers: { authorization: `Bearer ${login.access_token}` } })
    ).json()) as { name: string }[];
    const runTenant = tenants.filter((t) => t.name.startsWith('conf-')).map((t) => t.name);
    expect(runTenant).toHaveLength(1);
    const counts = await liveGraphCounts({
      baseUrl,
      email: 'admin@demo.local',
      password: 'Back#Office!Demo',
      tenant: 'backoffice',
      token: login.access_token,
      userId: login.user.id,
      tenantName: runTenant[0] ?? '',
      timeoutMs: 15_000,
    });
    expect(machines.map((r) => r.operation)).toEqual(
      Object.entries(counts).map(([machine, { paths, steps }]) => `machine ${machine}: ${paths} paths, ${steps} steps`),
    );
    for (const { paths, steps } of Object.values(counts)) {
      expect(paths).toBeGreaterThan(0);
      expect(steps).toBeGreaterThan(paths);
    }
  });
});
