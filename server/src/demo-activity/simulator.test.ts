import type { PanelEvent } from '../base/events';
import { instanceDto, instanceQuery } from '../instances/instance-dto';
import { someCustomerUser } from '../test-support/lookups';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test-support/postgres';
import { startTestApp, type TestApp } from '../test-support/app';
import { startDemoActivity, type DemoActivity } from './simulator';

/** The simulator against a seeded database: who is told, what, how fast, and one teller among processes. */

function listen(t: TestApp): PanelEvent[] {
  const seen: PanelEvent[] = [];
  t.app.events.subscribe((event) => seen.push(event));
  return seen;
}

async function simulator(t: TestApp, options: { local?: number[]; maxTenants?: number } = {}): Promise<DemoActivity> {
  return startDemoActivity({
    db: t.db,
    events: t.app.events,
    log: t.app.fastify.log,
    localTenants: () => options.local ?? [],
    // Ticks are driven by hand; the timer never fires within a test.
    intervalMs: 3_600_000,
    accessTokenTtl: 900,
    maxTenants: options.maxTenants,
    seed: 7,
  });
}

describe('demo activity on PGlite', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ seed: { days: 1 } });
  }, 120_000);
  afterAll(() => t?.close());

  it('tells nobody while nobody is signed in or watching', async () => {
    const seen = listen(t);
    const activity = await simulator(t);
    expect(await activity.tick()).toBe(0);
    expect(seen).toEqual([]);
    await activity.stop();
  });

  it('tells a signed-in tenant every event kind within one round, one per tick, about its own rows', async () => {
    await t.auth('admin@demo.local');
    const seen = listen(t);
    const activity = await simulator(t);
    for (let i = 0; i < 14; i += 1) expect(await activity.tick()).toBe(1);
    await activity.stop();
    expect(new Set(seen.map((e) => e.tenantName))).toEqual(new Set(['backoffice']));
    expect(new Set(seen.map((e) => e.event)).size).toBe(13);

    const backoffice = await t.db
      .selectFrom('tenants')
      .select('id')
      .where('name', '=', 'backoffice')
      .executeTakeFirstOrThrow();
    const instances = await t.db.selectFrom('instances').select('id').where('tenant_id', '=', backoffice.id).execute();
    const users = await t.db.selectFrom('users').select('id').where('tenant_id', '=', backoffice.id).execute();
    const instanceIds = instances.map((r) => r.id);
    const userIds = users.map((r) => r.id);
    for (const e of seen) {
      const data = e.data as Record<string, unknown>;
      if (e.event === 'InstanceUpdated') {
        const row = await instanceQuery(t.db)
          .where('i.id', '=', data.id as number)
          .executeTakeFirstOrThrow();
        expect(data).toEqual(instanceDto(row));
        continue;
      }
      if (typeof data.instanceId === 'number') expect(instanceIds).toContain(data.instanceId);
      for (const key of ['userId', 'fromUserId', 'toUserId', 'byUserId'])
        if (typeof data[key] === 'number') expect(userIds).toContain(data[key]);
    }
  });

  it('tells a tenant watched through a socket on this process, and no more tenants per tick than the bound', async () => {
    const customer = await someCustomerUser(t.db);
    const seen = listen(t);
    const activity = await simulator(t, { local: [customer.tenantId], maxTenants: 1 });
    for (let i = 0; i < 3; i += 1) expect(await activity.tick()).toBe(1);
    await activity.stop();
    // backoffice has a live session (the test above); of the two, the bound keeps the first by name alone.
    const first = ['backoffice', customer.tenant].sort()[0];
    expect(new Set(seen.map((e) => e.tenantName))).toEqual(new Set([first]));

    const wide = await simulator(t, { local: [customer.tenantId] });
    const before = seen.length;
    expect(await wide.tick()).toBe(2);
    await wide.stop();
    expect(new Set(seen.slice(before).map((e) => e.tenantName))).toEqual(new Set(['backoffice', customer.tenant]));
  });

  it('stops telling a tenant whose sessions are all revoked', async () => {
    await t.db.updateTable('token_families').set({ revoked_at: new Date() }).execute();
    const seen = listen(t);
    const activity = await simulator(t);
    expect(await activity.tick()).toBe(0);
    await activity.stop();
    expect(await activity.tick()).toBe(0);
    expect(seen).toEqual([]);
  });
});

describe('demo activity on PostgreSQL: one teller among processes', () => {
  let server: ThrowawayPostgres;
  let t: TestApp;
  beforeAll(async () => {
    server = await startThrowawayPostgres();
    t = await startTestApp({ databaseUrl: server.url, seed: { days: 1 } });
    await t.auth('admin@demo.local');
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await server?.stop();
  });

  it('elects one, and another takes over when it stops', async () => {
    const seen = listen(t);
    const make = () =>
      startDemoActivity({
        db: t.db,
        events: t.app.events,
        log: t.app.fastify.log,
        pg: t.databaseUrl,
        localTenants: () => [],
        intervalMs: 3_600_000,
        accessTokenTtl: 900,
        leaderRetryMs: 0,
      });
    const first = await make();
    const second = await make();
    const sent = [await first.tick(), await second.tick(), await first.tick(), await second.tick()];
    expect(sent).toEqual([1, 0, 1, 0]);
    expect([first.leading, second.leading]).toEqual([true, false]);
    expect(seen).toHaveLength(2);

    await first.stop();
    expect(await second.tick()).toBe(1);
    expect(second.leading).toBe(true);
    await second.stop();
  });
});
