import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../db/schema';
import { Rng } from '../db/seed-random';
import type { EventBus } from '../base/events';
import { instanceDto, instanceQuery } from '../instances/instance-dto';
import { emptyStoryState, nextRound, type StoryState, type StoryStep } from './story';

/**
 * `DEMO_ACTIVITY=1` (docs/operations.md "Demo activity"): the chat, customer and campaign events of
 * contracts/socket.md §3 told as a story (./story.ts) for every tenant someone is looking at, published
 * on the server's event bus like any other event, so the relay carries them to the other processes
 * on PostgreSQL (plugins/event-relay.ts).
 *
 * - **Who gets them**: tenants with a live session (a token family refreshed within the last two
 *   access-token lifetimes, any process) and tenants with a socket open on this process (staff looking
 *   at another tenant), at most `maxTenants` per tick, in name order.
 * - **Rate**: one event per tenant per tick (`intervalMs`, default 3 s); a round of every event kind
 *   takes 14 ticks, so a signed-in user has seen every kind within about 45 s.
 * - **One teller**: on PostgreSQL the processes elect one with a session advisory lock held on a
 *   connection of its own (keyed by the schema, as the relay's channels are); a process that does not
 *   hold it tries again every `leaderRetryMs`, so a teller that dies is replaced. PGlite is one process.
 */
export interface DemoActivityOptions {
  db: Kysely<Database>;
  events: EventBus;
  log: FastifyBaseLogger;
  /** PostgreSQL's pool (or a connection string): elect one teller among the processes. Absent on PGlite. */
  pg?: pg.Pool | string;
  /** Tenants (ids) with a socket open on this process. */
  localTenants: () => readonly number[];
  intervalMs: number;
  /** The access-token lifetime in seconds: a session refreshed within two of them counts as live. */
  accessTokenTtl: number;
  maxTenants?: number;
  leaderRetryMs?: number;
  seed?: number;
}

export interface DemoActivity {
  /** Whether this process tells the story now. */
  readonly leading: boolean;
  /** One tick at once (tests); resolves with the events published. */
  tick(): Promise<number>;
  stop(): Promise<void>;
}

const LOCK_NAME = 'panel_demo_activity';

interface TenantStory {
  id: number;
  queue: StoryStep[];
  state: StoryState;
}

export async function startDemoActivity(options: DemoActivityOptions): Promise<DemoActivity> {
  const { db, events, log } = options;
  const maxTenants = options.maxTenants ?? 50;
  const leaderRetryMs = options.leaderRetryMs ?? 30_000;
  const rng = new Rng(options.seed ?? Date.now() % 2 ** 31);
  const stories = new Map<number, TenantStory>();
  let stopped = false;
  let leader: pg.Client | undefined;
  let lastAttempt = -Infinity;
  let running: Promise<number> | undefined;

  async function lead(): Promise<boolean> {
    if (!options.pg) return true;
    if (leader) return true;
    if (Date.now() - lastAttempt < leaderRetryMs) return false;
    lastAttempt = Date.now();
    const config = typeof options.pg === 'string' ? { connectionString: options.pg } : { ...options.pg.options };
    const client = new pg.Client(config);
    client.on('error', (error) => {
      log.warn({ err: error }, 'demo activity: the teller lost its connection');
      if (leader === client) leader = undefined;
      lastAttempt = -Infinity;
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ ok: boolean }>(
        `select pg_try_advisory_lock(hashtext($1 || ':' || current_schema())) as ok`,
        [LOCK_NAME],
      );
      if (rows[0]?.ok && !stopped) {
        leader = client;
        log.info('demo activity: this process tells the story');
        return true;
      }
    } catch (error) {
      log.warn({ err: error }, 'demo activity: could not take part in the election');
    }
    await client.end().catch(() => undefined);
    return false;
  }

  async function audience(): Promise<{ id: number; name: string }[]> {
    const since = new Date(Date.now() - 2 * options.accessTokenTtl * 1000);
    const local = [...new Set(options.localTenants())];
    const rows = await db
      .selectFrom('tenants as t')
      .select(['t.id', 't.name'])
      .where('t.deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb.exists(
            eb
              .selectFrom('token_families as f')
              .innerJoin('users as u', 'u.id', 'f.user_id')
              .select(sql<number>`1`.as('one'))
              .whereRef('u.tenant_id', '=', 't.id')
              .where('u.deleted_at', 'is', null)
              .where('f.revoked_at', 'is', null)
              .where('f.refreshed_at', '>', since),
          ),
          ...(local.length > 0 ? [eb('t.id', 'in', local)] : []),
        ]),
      )
      .orderBy('t.name')
      .limit(maxTenants)
      .execute();
    return rows;
  }

  async function refill(tenant: { id: number; name: string }, story: TenantStory): Promise<void> {
    const [instances, users, departments] = await Promise.all([
      db.selectFrom('instances').select('id').where('tenant_id', '=', tenant.id).orderBy('id').execute(),
      db
        .selectFrom('users')
        .select('id')
        .where('tenant_id', '=', tenant.id)
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .execute(),
      db
        .selectFrom('departments')
        .select('id')
        .where('tenant_id', '=', tenant.id)
        .where('activated', '=', true)
        .orderBy('id')
        .execute(),
    ]);
    const round = nextRound(
      {
        instanceIds: instances.map((r) => r.id),
        userIds: users.map((r) => r.id),
        departmentIds: departments.map((r) => r.id),
      },
      story.state,
      rng,
      new Date(),
    );
    story.queue = round.steps;
    story.state = round.state;
  }

  async function tellOne(tenant: { id: number; name: string }): Promise<boolean> {
    let story = stories.get(tenant.id);
    if (!story) {
      story = { id: tenant.id, queue: [], state: emptyStoryState() };
      stories.set(tenant.id, story);
    }
    if (story.queue.length === 0) await refill(tenant, story);
    const step = story.queue.shift();
    if (!step) return false;
    if (step.event === 'InstanceUpdated') {
      // The instance as stored now: the story never invents an instance's state.
      const row = await instanceQuery(db).where('i.id', '=', step.instanceId).executeTakeFirst();
      if (!row) return false;
      events.publish(tenant, 'InstanceUpdated', instanceDto(row));
      return true;
    }
    const at = new Date().toISOString();
    // Times inside the story are relative to when its round was written; the send time is now.
    events.publish(tenant, step.event, restamp(step, at) as never);
    return true;
  }

  async function tick(): Promise<number> {
    if (stopped || !(await lead())) return 0;
    const tenants = await audience();
    const ids = new Set(tenants.map((t) => t.id));
    for (const id of stories.keys()) if (!ids.has(id)) stories.delete(id);
    let sent = 0;
    for (const tenant of tenants) {
      if (stopped) break;
      if (await tellOne(tenant)) sent += 1;
    }
    return sent;
  }

  const runTick = (): Promise<number> => {
    running ??= tick()
      .catch((error: unknown) => {
        log.warn({ err: error }, 'demo activity: a tick failed');
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  const timer = setInterval(() => void runTick(), options.intervalMs);
  timer.unref();

  return {
    get leading() {
      return !options.pg || leader !== undefined;
    },
    tick: runTick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      const client = leader;
      leader = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}

/** The step's data with its instants moved to `at` (the moment it is sent). */
function restamp(step: Exclude<StoryStep, { event: 'InstanceUpdated' }>, at: string): Record<string, unknown> {
  const data: Record<string, unknown> = { ...step.data };
  for (const key of ['createdAt', 'ackAt', 'requestedAt', 'transferredAt', 'closedAt']) if (key in data) data[key] = at;
  return data;
}
