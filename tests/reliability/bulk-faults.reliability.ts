import { createActor, waitFor } from 'xstate';
import { createRestClient } from '../../src/api/create-rest-client';
import {
  featureBulkMachine,
  featureRows,
  type FeatureBulkSnapshot,
} from '../../src/machines/tenants/feature-bulk.machine';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../server/src/test-support/postgres';
import {
  loginOn,
  schemaUrl,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../../server/src/test-support/processes';

/**
 * Bulk operations with injected failures lose nothing (docs/product.md, Tenants). The REAL feature bulk machine
 * (src/machines/tenants/feature-bulk.machine.ts, its real actors and the real REST client) saves every feature of
 * a tenant against a real server process whose fault injection (FAULT_INJECTION=1) fails some of the
 * POSTs: one feature always (503), one once (500), one slowly (held in flight). Afterwards:
 * - every feature has a result; the failed ones are exactly the faulted ones;
 * - what the machine believes is stored equals what the server stores, feature by feature, and the
 *   draft still holds every intended value (nothing silently dropped, nothing half-applied);
 * - the loading overlay was suspended once and resumed once;
 * - with the faults cleared, `features.retry` reruns exactly the failed ones and the server ends with
 *   every intended value.
 */
const TENANT = 'farmacia-central';
let pg: ThrowawayPostgres;
let server: ServerProcess;
let token: string;

beforeAll(async () => {
  pg = await startThrowawayPostgres();
  server = await startServerProcess(await schemaUrl(pg.url, 'bulk'), { seed: true, env: { FAULT_INJECTION: '1' } });
  ({ token } = await loginOn(server.base));
}, 120_000);

afterAll(async () => {
  if (server) await stopServerProcess(server);
  await pg?.stop();
});

async function faults(method: 'POST' | 'DELETE', body?: unknown): Promise<void> {
  const response = await fetch(`${server.base}/__test/faults`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.ok).toBe(true);
}

async function serverFeatures(): Promise<Record<string, boolean>> {
  const response = await fetch(`${server.base}/api/tenant/feature?tenantName=${TENANT}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const rows = (await response.json()) as { option: string; enabled: boolean }[];
  return Object.fromEntries(rows.map((r) => [r.option, r.enabled]));
}

describe('bulk feature update with injected failures', () => {
  it('reports exactly the failed features, keeps machine and server in agreement, and a retry applies the rest', async () => {
    const rest = createRestClient({
      baseUrl: server.base,
      fetch: (request) => {
        request.headers.set('authorization', `Bearer ${token}`);
        return fetch(request);
      },
    });
    const overlay = {
      suspended: 0,
      resumed: 0,
      suspend() {
        this.suspended += 1;
      },
      resume() {
        this.resumed += 1;
      },
    };
    const actor = createActor(featureBulkMachine, {
      input: { rest, tenantName: TENANT, overlay, concurrency: 3, staff: true },
    });
    actor.start();
    await waitFor(actor, (s) => s.matches('editing'), { timeout: 10_000 });

    const before = await serverFeatures();
    const options = Object.keys(before);
    expect(options.length).toBeGreaterThanOrEqual(5);
    const [always, once, slow] = options;
    if (!always || !once || !slow) throw new Error('not enough features');
    await faults('POST', [
      { operationId: 'featureUpdate', match: { option: always }, status: 503 },
      { operationId: 'featureUpdate', match: { option: once }, status: 500, times: 1 },
      // Held in flight while the others finish, then answered normally… as a 409 the machine must report too.
      {
        operationId: 'featureUpdate',
        match: { option: slow },
        status: 409,
        delayMs: 800,
        times: 1,
        body: { message: 'Busy, try again' },
      },
    ]);

    // Flip every feature: one POST each.
    const intended = Object.fromEntries(options.map((o) => [o, !before[o]]));
    for (const option of options) actor.send({ type: 'features.toggle', option });
    actor.send({ type: 'features.save' });
    let done: FeatureBulkSnapshot = await waitFor(actor, (s) => s.matches('done'), { timeout: 30_000 });

    const rows = featureRows(done);
    expect(rows.map((r) => r.option).sort()).toEqual([...options].sort());
    expect(rows.every((r) => r.result !== null)).toBe(true);
    const failed = rows
      .filter((r) => r.result?.status === 'failed')
      .map((r) => r.option)
      .sort();
    expect(failed).toEqual([always, once, slow].sort());
    expect(done.context.run.outcome).toBe('partial');
    expect(overlay).toMatchObject({ suspended: 1, resumed: 1 });

    // Nothing lost or half-applied: the machine's stored state IS the server's, and the draft keeps every intention.
    const afterFirst = await serverFeatures();
    expect(done.context.saved).toEqual(afterFirst);
    for (const option of options) {
      expect(afterFirst[option], option).toBe(failed.includes(option) ? before[option] : intended[option]);
      expect(done.context.draft[option], option).toBe(intended[option]);
    }

    // The faults go away; a retry reruns exactly the failed features.
    await faults('DELETE');
    actor.send({ type: 'features.retry' });
    await waitFor(actor, (s) => s.matches('saving'), { timeout: 5_000 });
    expect(
      actor
        .getSnapshot()
        .context.run.entries.map((e) => e.item.option)
        .sort(),
    ).toEqual(failed);
    done = await waitFor(actor, (s) => s.matches('done'), { timeout: 30_000 });
    expect(done.context.run.outcome).toBe('success');
    const final = await serverFeatures();
    expect(final).toEqual(intended);
    expect(done.context.saved).toEqual(intended);
    expect(overlay).toMatchObject({ suspended: 2, resumed: 2 });
    actor.stop();
  }, 90_000);
});
