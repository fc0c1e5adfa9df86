import { asArray, asRecord } from './kit-client.js';
import type { ConformanceClient } from './kit-client.js';

/**
 * What a conformance run creates on the server, so that it can remove it at the end whatever happened
 * (./kit.ts runs {@link cleanUp} after every group, even when one failed or stopped). Every other record
 * the run creates (users, instances, connections, departments) lives in one of its own tenants and goes
 * with it: a purge removes the tenant with everything it holds (contracts/openapi.yaml tenantPurge).
 */
export interface Fixtures {
  /** Tenants the run created: soft-deleted, then purged (`full`; a `base` server has no purge). */
  tenants: { id: number; name: string }[];
  /** Roles the run created (roles are shared by every tenant, so they are removed one by one). */
  roles: number[];
}

export const noFixtures = (): Fixtures => ({ tenants: [], roles: [] });

/** Whether the paginated list (live or only deleted) holds the tenant. */
async function listed(c: ConformanceClient, tenant: { id: number; name: string }, onlyDeleted: boolean) {
  const page = await c.http('POST', '/api/tenant/paginated', {
    body: { search: tenant.name, pagination_limit: 100, only_deleted: onlyDeleted },
  });
  return asArray(asRecord(page.json).data)
    .map(asRecord)
    .some((t) => t.id === tenant.id);
}

/**
 * Removes what the run created, newest first: its roles (after the users holding them went with their
 * tenant), then its tenants: deleted when still live, then purged and checked gone from both lists. In
 * the `base` profile the throwaway tenants stay soft-deleted (the base API cannot remove a tenant for
 * good), which a result of its own says; their roles are never created there (roleCreate is an extension).
 */
export async function cleanUp(c: ConformanceClient, fixtures: Fixtures): Promise<void> {
  const { rest, http, check } = c;
  const purging = c.inProfile('tenantPurge');
  for (const tenant of [...fixtures.tenants].reverse()) {
    const problems: string[] = [];
    try {
      const deleted = await http('POST', '/api/tenant/delete', { body: { id: tenant.id } });
      // 409: the run left it deleted already (soft-delete group).
      if (deleted.status !== 200 && deleted.status !== 409)
        problems.push(`tenantDelete answered ${deleted.status}: ${deleted.text.slice(0, 200)}`);
      if (purging) {
        const purged = asRecord(
          await rest('tenantPurge', 'POST', '/api/tenant/purge', 200, { body: { id: tenant.id } }),
        );
        if (purged.id !== tenant.id) problems.push(`tenantPurge answered another tenant: ${JSON.stringify(purged)}`);
        if (await listed(c, tenant, true)) problems.push('a purged tenant is still in the list with only_deleted');
        if (await listed(c, tenant, false)) problems.push('a purged tenant is still in the paginated list');
        await rest(
          'tenantPurge',
          'POST',
          '/api/tenant/purge',
          404,
          { body: { id: tenant.id } },
          'tenantPurge (already purged: 404)',
        );
      } else if (!(await listed(c, tenant, true))) {
        problems.push('the throwaway tenant is missing from the list with only_deleted');
      }
    } catch (error) {
      problems.push(`request failed: ${(error as Error).message}`);
    }
    check(
      purging
        ? `cleanup: tenant ${tenant.name} purged`
        : `cleanup: tenant ${tenant.name} left soft-deleted (the base profile has no purge)`,
      'rest',
      problems.length === 0 ? 200 : 0,
      problems,
    );
  }
  for (const roleId of [...fixtures.roles].reverse())
    await rest('roleDelete', 'DELETE', `/api/roles/${roleId}`, 200, {}, 'roleDelete (cleanup)');
}
