import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { AuthContext } from '../plugins/auth';
import { resolveTenant, type TenantRef } from './scope';

/**
 * Tenants: which tenant a call acts on, and (server/src/tenants/…) every rule about tenants, whichever
 * protocol asks.
 */
export function createTenantsService({ db }: { db: Kysely<Database> }) {
  return {
    /**
     * The tenant a call acts on: the one named by `tenantName` when the caller is back-office staff,
     * else the caller's own (a tenant user naming another tenant is forbidden; an unknown one not found).
     */
    resolve(actor: AuthContext, tenantName?: string | null): Promise<TenantRef> {
      return resolveTenant(db, actor, tenantName);
    },

    /** A live (not deleted) tenant by name, or undefined: the tenant of a GraphQL path. */
    findLive(name: string): Promise<TenantRef | undefined> {
      return db.selectFrom('tenants').select(['id', 'name']).where('name', '=', name).where('deleted_at', 'is', null).executeTakeFirst();
    },
  };
}

export type TenantsService = ReturnType<typeof createTenantsService>;
