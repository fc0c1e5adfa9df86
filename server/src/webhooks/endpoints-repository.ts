import { sql, type Kysely, type Transaction } from 'kysely';
import type { CampaignStatusType, Database } from '../db/schema';
import { nextVersion } from '../audit/versions';

/** The webhook endpoints service's SQL (./endpoints.ts). */

type Db = Kysely<Database> | Transaction<Database>;

const COLUMNS = [
  'webhook_endpoints.id',
  'webhook_endpoints.tenant_id',
  'webhook_endpoints.url',
  'webhook_endpoints.url_key',
  'webhook_endpoints.types',
  'webhook_endpoints.description',
  'webhook_endpoints.active',
  'webhook_endpoints.secret',
  'webhook_endpoints.previous_secret',
  'webhook_endpoints.previous_secret_expires_at',
  'webhook_endpoints.version',
  'webhook_endpoints.created_at',
  'webhook_endpoints.updated_at',
  'webhook_endpoints.deleted_at',
] as const;

export type EndpointRow = Awaited<ReturnType<typeof liveEndpoints>>[number];

/**
 * Tenant `id`, its row locked until the transaction ends (`for no key update`: two changes of the same
 * tenant's endpoints wait for each other, so the limit is counted and the address checked with no other
 * change in between; rows that only reference the tenant are not held up). Undefined when missing.
 */
export function lockTenant(trx: Transaction<Database>, id: number) {
  return trx
    .selectFrom('tenants')
    .select(['id', 'name', 'deleted_at'])
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/** A tenant by name, deleted or not. */
export function tenantByName(db: Db, name: string) {
  return db.selectFrom('tenants').select(['id', 'name', 'deleted_at']).where('name', '=', name).executeTakeFirst();
}

/** A tenant by id, deleted or not. */
export function tenantById(db: Db, id: number) {
  return db.selectFrom('tenants').select(['id', 'name', 'deleted_at']).where('id', '=', id).executeTakeFirst();
}

/** The tenant's live endpoints, oldest first, with the tenant's name. */
export function liveEndpoints(db: Db, tenantId: number) {
  return db
    .selectFrom('webhook_endpoints')
    .innerJoin('tenants', 'tenants.id', 'webhook_endpoints.tenant_id')
    .select([...COLUMNS, 'tenants.name as tenant_name'])
    .where('webhook_endpoints.tenant_id', '=', tenantId)
    .where('webhook_endpoints.deleted_at', 'is', null)
    .orderBy('webhook_endpoints.id')
    .execute();
}

/** One endpoint, live or deleted, with its tenant's name and whether the tenant is deleted; `lock`: its row locked. */
export function endpointById(db: Db, id: number, lock = false) {
  let query = db
    .selectFrom('webhook_endpoints')
    .innerJoin('tenants', 'tenants.id', 'webhook_endpoints.tenant_id')
    .select([...COLUMNS, 'tenants.name as tenant_name', 'tenants.deleted_at as tenant_deleted_at'])
    .where('webhook_endpoints.id', '=', id);
  if (lock) query = query.forNoKeyUpdate('webhook_endpoints');
  return query.executeTakeFirst();
}

/** How many live endpoints the tenant has. */
export async function countLiveEndpoints(db: Db, tenantId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether another live endpoint of the tenant has this normalised address. */
export async function urlTaken(db: Db, tenantId: number, urlKey: string, exceptId?: number): Promise<boolean> {
  let query = db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('url_key', '=', urlKey)
    .where('deleted_at', 'is', null);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return Boolean(await query.executeTakeFirst());
}

/** The next id of `webhook_endpoints`: the secret is sealed with it before the row exists. */
export async function nextEndpointId(db: Db): Promise<number> {
  const { rows } = await sql<{
    id: string | number;
  }>`select nextval(pg_get_serial_sequence('webhook_endpoints', 'id')) as id`.execute(db);
  return Number(rows[0]!.id);
}

export async function insertEndpoint(
  db: Db,
  values: {
    id: number;
    tenant_id: number;
    url: string;
    url_key: string;
    types: CampaignStatusType[];
    description: string;
    secret: string;
    created_by: number;
  },
) {
  const { types, ...rest } = values;
  await db
    .insertInto('webhook_endpoints')
    .values({ ...rest, types: sql<CampaignStatusType[]>`${sql.val(types)}::text[]` })
    .execute();
}

export interface EndpointSet {
  url?: string;
  url_key?: string;
  types?: CampaignStatusType[];
  description?: string;
  active?: boolean;
  secret?: string;
  previous_secret?: string | null;
  previous_secret_expires_at?: Date | null;
  deleted_at?: Date;
}

/**
 * Changes the endpoint and raises its version in one statement; with `expected`, only while it is at that
 * version (docs/lists.md, Versions). Answers the new version, or undefined when it was not at `expected`.
 */
export async function updateEndpoint(
  db: Db,
  id: number,
  set: EndpointSet,
  expected?: number,
): Promise<number | undefined> {
  const { types, ...rest } = set;
  let query = db
    .updateTable('webhook_endpoints')
    .set({
      ...rest,
      ...(types === undefined ? {} : { types: sql<CampaignStatusType[]>`${sql.val(types)}::text[]` }),
      updated_at: sql<Date>`now()`,
      version: nextVersion,
    })
    .where('id', '=', id);
  if (expected !== undefined) query = query.where('version', '=', expected);
  return (await query.returning('version').executeTakeFirst())?.version;
}

/**
 * The endpoint's waiting deliveries parked (paused) or back in the queue (resumed): a parked delivery is
 * out of the worker's due index (migration 0029). `sending` ones are left to the worker.
 */
export async function parkPendingDeliveries(db: Db, endpointId: number, parked: boolean): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ parked })
    .where('endpoint_id', '=', endpointId)
    .where('state', '=', 'pending')
    .where('parked', '!=', parked)
    .execute();
}

/** Every delivery of the endpoint still waiting to be sent becomes `cancelled`; `sending` ones are left to the worker. */
export async function cancelPendingDeliveries(db: Db, endpointId: number): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ state: 'cancelled', completed_at: sql<Date>`now()`, next_attempt_at: null })
    .where('endpoint_id', '=', endpointId)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
