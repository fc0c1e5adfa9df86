import { sql, type Kysely } from 'kysely';
import type { Actor } from '../access/caller';
import { mayActOn } from '../access/escalation';
import { guardService } from '../access/guard';
import { holdsAny } from '../access/permissions';
import { retryAfter, type ThrottleLimits } from '../auth/attempts';
import { ADMIN_ROLE } from '../db/catalog';
import type { Database } from '../db/schema';
import { roleGrant } from '../users/repository';

/** How many items each kind answers at most (contracts/schema.graphql `AttentionKind`). */
export const ATTENTION_ITEMS = 10;

export interface AttentionItem {
  id: number;
  name: string;
  tenantName: string;
  instanceName: string | null;
  count: number | null;
  limit: number | null;
  retryAfter: number | null;
}

export interface AttentionKind {
  total: number;
  items: AttentionItem[];
}

/** contracts/schema.graphql `Attention`: null for a kind the caller's permissions do not cover. */
export interface Attention {
  tenantsOverUserLimit: AttentionKind | null;
  failedSyncs: AttentionKind | null;
  disconnectedConnections: AttentionKind | null;
  lockedAccounts: AttentionKind | null;
}

const item = (row: Partial<AttentionItem> & Pick<AttentionItem, 'id' | 'name' | 'tenantName'>): AttentionItem => ({
  instanceName: null,
  count: null,
  limit: null,
  retryAfter: null,
  ...row,
});

/** One kind from rows carrying `count(*) over ()` as `total` (0 rows: none in all). */
function kindOf<R extends { total: number }>(rows: readonly R[], toItem: (row: R) => AttentionItem): AttentionKind {
  return { total: Number(rows[0]?.total ?? 0), items: rows.map(toItem) };
}

/**
 * What needs attention now, for the home (docs/panel.md, Home; contracts/schema.graphql `attention`).
 * The service decides who sees what: back-office staff every live tenant's items, anyone else its own
 * tenant's; each kind only for the permissions that fix it (`tenants` for limits, syncs and
 * connections; the support desk, staff with `users`, for locked accounts). Each kind is one bounded
 * query: at most {@link ATTENTION_ITEMS} rows, the total counted by a window over the same rows.
 */
export function createAttentionService({ db, config }: { db: Kysely<Database>; config: ThrottleLimits }) {
  /** Staff: every live tenant; anyone else: its own. */
  const scope = (actor: Actor): number | null => (actor.originBackoffice ? null : actor.tenantId);

  async function tenantsOverUserLimit(tenantId: number | null): Promise<AttentionKind> {
    // Counted through users_tenant_idx (live users by tenant), as user creation counts them
    // (server/src/users/repository.ts countLiveUsers): at the limit, no user can be added.
    let query = db
      .selectFrom('tenants as t')
      // A left join: a tenant whose limit is 0 (the column allows it) with no user is at its limit too.
      .leftJoin('users as u', (join) => join.onRef('u.tenant_id', '=', 't.id').on('u.deleted_at', 'is', null))
      .select([
        't.id',
        't.name',
        't.user_limit',
        sql<number>`count(u.id)::int`.as('users'),
        sql<number>`(count(*) over ())::int`.as('total'),
      ])
      .where('t.deleted_at', 'is', null)
      .groupBy(['t.id', 't.name', 't.user_limit'])
      .having(sql<boolean>`count(u.id) >= t.user_limit`);
    if (tenantId !== null) query = query.where('t.id', '=', tenantId);
    const rows = await query
      .orderBy(sql`count(u.id) - t.user_limit`, 'desc')
      .orderBy('t.name')
      .limit(ATTENTION_ITEMS)
      .execute();
    return kindOf(rows, (r) =>
      item({ id: r.id, name: r.name, tenantName: r.name, count: r.users, limit: r.user_limit }),
    );
  }

  async function failedSyncs(tenantId: number | null): Promise<AttentionKind> {
    let query = db
      .selectFrom('instances as i')
      .innerJoin('tenants as t', 't.id', 'i.tenant_id')
      .select(['i.id', 'i.name', 't.name as tenant_name', sql<number>`(count(*) over ())::int`.as('total')])
      .where('t.deleted_at', 'is', null)
      .where('i.activated', '=', true)
      .where('i.status', '=', 'failed');
    if (tenantId !== null) query = query.where('i.tenant_id', '=', tenantId);
    const rows = await query.orderBy('i.id', 'desc').limit(ATTENTION_ITEMS).execute();
    return kindOf(rows, (r) => item({ id: r.id, name: r.name, tenantName: r.tenant_name }));
  }

  async function disconnectedConnections(tenantId: number | null): Promise<AttentionKind> {
    let query = db
      .selectFrom('connections as c')
      .innerJoin('instances as i', 'i.id', 'c.instance_id')
      .innerJoin('tenants as t', 't.id', 'c.tenant_id')
      .select([
        'c.id',
        'c.name',
        'i.name as instance_name',
        't.name as tenant_name',
        sql<number>`(count(*) over ())::int`.as('total'),
      ])
      .where('t.deleted_at', 'is', null)
      .where('c.activated', '=', true)
      .where('i.activated', '=', true)
      .where('c.status', '=', 'disconnected');
    if (tenantId !== null) query = query.where('c.tenant_id', '=', tenantId);
    const rows = await query.orderBy('c.id', 'desc').limit(ATTENTION_ITEMS).execute();
    return kindOf(rows, (r) =>
      item({ id: r.id, name: r.name, tenantName: r.tenant_name, instanceName: r.instance_name }),
    );
  }

  /**
   * Live users of live tenants whose own sign-ins the throttle refuses now (server/src/auth/attempts.ts):
   * failures counted in the window from one address at the per-pair limit (refused until the oldest
   * leaves the window, so now), or across addresses past the per-account ceiling with its back-off not
   * yet over. An address's own limit (every e-mail from it) locks an address, not an account: not here.
   * Read through the counted failures of the window only (login_attempts_account_counted_idx). Only
   * those `actor` may act on, as the desk that lifts a throttle decides (server/src/support/service.ts
   * `mayActOn`: every permission the person holds, an administrador only by one, never its own account).
   */
  async function lockedAccounts(actor: Actor): Promise<AttentionKind> {
    const least = Math.min(config.loginMaxFailures, config.loginMaxFailuresPerAccount);
    const { rows } = await sql<{
      id: number;
      name: string;
      role_id: number;
      tenant_name: string;
      failures: number;
      pair_max: number;
      oldest_pair_ms: number | null;
      newest_ms: number;
      now_ms: number;
    }>`
      with counted as (
        select email, address_key, created_at from login_attempts
         where throttle_counted
           and created_at > statement_timestamp() - ${config.loginWindowSeconds} * interval '1 second'
      ),
      pairs as (
        select email, count(*)::int as n, min(created_at) as oldest from counted
         group by email, address_key
      ),
      accounts as (
        select email, count(*)::int as failures, max(created_at) as newest from counted
         group by email having count(*) >= ${least}
      )
      select u.id, u.name, u.role_id, t.name as tenant_name, a.failures,
             (select max(p.n) from pairs p where p.email = a.email)::int as pair_max,
             (extract(epoch from (select max(p.oldest) from pairs p
                                   where p.email = a.email and p.n >= ${config.loginMaxFailures})) * 1000)::float8
               as oldest_pair_ms,
             (extract(epoch from a.newest) * 1000)::float8 as newest_ms,
             (extract(epoch from statement_timestamp()) * 1000)::float8 as now_ms
        from accounts a
        join users u on u.email = a.email and u.deleted_at is null
        join tenants t on t.id = u.tenant_id and t.deleted_at is null`.execute(db);
    // The throttle's own rule (server/src/auth/attempts.ts retryAfter), without the address scope. Of the
    // addresses at the pair limit, the one whose oldest failure is newest refuses longest: its wait, as the
    // support desk's person page shows it (server/src/support/service.ts, the longest of its addresses).
    const none = { n: 0, oldest: null, newest: null };
    const locked = rows
      .map((r) => {
        const now = Number(r.now_ms);
        const pair = {
          n: r.pair_max,
          oldest: r.oldest_pair_ms === null ? null : Number(r.oldest_pair_ms),
          newest: null,
        };
        const account = { n: r.failures, oldest: null, newest: Number(r.newest_ms) };
        return { row: r, retryAfter: retryAfter(config, { pair, address: none, account }, now) };
      })
      .filter((l): l is { row: (typeof rows)[number]; retryAfter: number } => l.retryAfter !== null)
      .filter((l) => l.row.id !== actor.userId)
      .sort((a, b) => b.retryAfter - a.retryAfter || a.row.id - b.row.id);
    // An administrador acts on anyone; anyone else as the desk decides, each locked person's role read
    // once as the desk reads it (users/repository.ts roleGrant).
    const roleIds = actor.role === ADMIN_ROLE ? [] : [...new Set(locked.map(({ row }) => row.role_id))];
    const grants = new Map(await Promise.all(roleIds.map(async (id) => [id, await roleGrant(db, id)] as const)));
    const fixable =
      actor.role === ADMIN_ROLE
        ? locked
        : locked.filter(({ row }) => {
            const role = grants.get(row.role_id);
            return role !== undefined && mayActOn(actor, { id: row.id, role });
          });
    return {
      total: fixable.length,
      items: fixable
        .slice(0, ATTENTION_ITEMS)
        .map((l) => item({ id: l.row.id, name: l.row.name, tenantName: l.row.tenant_name, retryAfter: l.retryAfter })),
    };
  }

  /**
   * The answer being read for one request's caller (a GraphQL document may ask `attention` under up to
   * 15 aliases, each costing 1 in the limits of server/src/graphql/limits.ts): asked again while it is
   * read, the same answer, so a document runs each kind's query once. Kept only while in flight.
   */
  const reading = new WeakMap<Actor, Promise<Attention>>();

  async function read(actor: Actor): Promise<Attention> {
    const tenantId = scope(actor);
    const tenants = holdsAny(actor, ['tenants']);
    const desk = actor.originBackoffice && holdsAny(actor, ['users']);
    const [over, syncs, connections, locked] = await Promise.all([
      tenants ? tenantsOverUserLimit(tenantId) : null,
      tenants ? failedSyncs(tenantId) : null,
      tenants ? disconnectedConnections(tenantId) : null,
      desk ? lockedAccounts(actor) : null,
    ]);
    return {
      tenantsOverUserLimit: over,
      failedSyncs: syncs,
      disconnectedConnections: connections,
      lockedAccounts: locked,
    };
  }

  return guardService('attention', {
    /** Every kind the caller's permissions cover, in its scope; the others null. */
    async list(actor: Actor): Promise<Attention> {
      const pending = reading.get(actor);
      if (pending) return pending;
      const answer = read(actor).finally(() => reading.delete(actor));
      reading.set(actor, answer);
      return answer;
    },
  });
}

export type AttentionService = ReturnType<typeof createAttentionService>;
