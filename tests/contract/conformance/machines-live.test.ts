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
      // The run's tenant stays, so the live graphs can be built again on it below.
      keep: true,
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
    // The tenant the run edits (`conf-<stamp>`; the customer one is `conf-<stamp>-c`).
    const runTenant = tenants.filter((t) => /^conf-[a-z0-9]+$/.test(t.name)).map((t) => t.name);
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

/**
 * The same group against a server that breaks three promises the machines rely on (each answer still
 * well-formed): sign-out answers 200 without revoking, a feature change answers 200 without being stored,
 * an instance rename answers 200 without changing anything (so no event reaches the socket). Each
 * machine's check must fail, naming what broke.
 */
describe('conformance kit: the machines fail a server that breaks their promises (PGlite)', () => {
  let testApp: TestApp | undefined;
  let results: Result[] = [];

  beforeAll(async () => {
    testApp = await startTestApp({ databaseUrl: 'pglite://memory' });
    // After the body is parsed, before the route: the answer a conforming server would give, and nothing done.
    testApp.app.fastify.addHook('preHandler', async (request, reply) => {
      const path = request.url.split('?')[0];
      if (request.method !== 'POST') return;
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (path === '/api/auth/logout') return reply.code(200).send({ message: 'Logged out' });
      if (path === '/api/tenant/feature')
        return reply.code(200).send({ option: body.option, enabled: body.enabled, tenantName: body.tenantName });
      if (path === '/api/instance/update') {
        const list = await testApp?.app.fastify.inject({
          method: 'GET',
          url: `/api/instance?tenantName=${encodeURIComponent(String(body.tenantName))}`,
          headers: { authorization: request.headers.authorization ?? '' },
        });
        const row = (list?.json() as { id: unknown }[]).find((r) => r.id === body.id);
        return reply.code(200).send({ ...row, name: body.name });
      }
    });
    await testApp.app.fastify.listen({ host: '127.0.0.1', port: 0 });
    results = await runConformance({
      baseUrl: `http://127.0.0.1:${(testApp.app.fastify.server.address() as AddressInfo).port}`,
      email: 'admin@demo.local',
      password: 'Back#Office!Demo',
      only: ['machines'],
    });
  }, 180_000);

  afterAll(async () => {
    await testApp?.close();
  });

  it('fails each machine, naming the broken promise', () => {
    const problems = (machine: string) =>
      results
        .filter((r) => r.group === 'machines' && r.operation.startsWith(`machine ${machine}:`))
        .flatMap((r) => (r.ok ? ['(passed)'] : r.problems));
    expect(problems('session')).toContainEqual(
      expect.stringMatching(/signed-out session's token still answers HTTP 200/),
    );
    expect(problems('socket')).toContainEqual(expect.stringMatching(/no InstanceUpdated for the renamed instance/));
    expect(problems('feature-bulk')).toContainEqual(expect.stringMatching(/the server holds/));
  });
});
