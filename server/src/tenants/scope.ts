import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { conflictCode, forbidden, notFound } from '../base/domain-error';
import type { Actor } from '../access/caller';

export interface TenantRef {
  id: number;
  name: string;
}

/**
 * The tenant a call acts on: the one named by `tenantName` when the caller is back-office staff,
 * else the caller's own. A tenant user naming another tenant gets 403, whatever the URL says.
 */
export async function resolveTenant(db: Kysely<Database>, auth: Actor, tenantName?: string | null): Promise<TenantRef> {
  if (!tenantName || tenantName === auth.tenantName) return { id: auth.tenantId, name: auth.tenantName };
  if (!auth.originBackoffice) throw forbidden();
  const row = await db
    .selectFrom('tenants')
    .select(['id', 'name'])
    .where('name', '=', tenantName)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('Tenant not found', 'tenantName');
  return row;
}

/** Guards a record of some tenant (by id) against callers of other tenants. */
export function assertSameTenant(auth: Actor, tenantId: number): void {
  if (!auth.originBackoffice && auth.tenantId !== tenantId) throw notFound();
}

/**
 * Holds tenant `id` live for the rest of the transaction (a share lock: its deletion waits), for an undo
 * of a change to one of its records (docs/lists.md, Undo on the server): the change itself finds no
 * deleted tenant (404), so its undo is refused while the tenant is deleted (409 `tenant_deleted`, as the
 * undo of a user's delete is).
 */
export async function lockLiveTenant(trx: Transaction<Database>, id: number): Promise<void> {
  const row = await trx.selectFrom('tenants').select('deleted_at').where('id', '=', id).forShare().executeTakeFirst();
  if (!row) throw notFound('Tenant not found', 'id');
  if (row.deleted_at !== null)
    throw conflictCode('tenant_deleted', "The record's tenant is deleted: restore the tenant first");
}
