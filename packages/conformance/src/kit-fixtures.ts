import { asArray, asRecord } from './kit-client.js';
import type { ConformanceClient } from './kit-client.js';

/**
 * What a conformance run creates on the server, so that it can remove it at the end whatever happened
 * (./kit.ts runs {@link cleanUp} after every group, even when one failed or stopped). Every other record
 * the run creates (users, instances, connections, departments) lives in one of its own tenants and goes
 * with it: a purge removes the tenant with everything it holds (contracts/openapi.yaml tenantPurge).
 */
export interface Fixtures {
  /**
   * Tenants the run created: soft-deleted, then purged (`full`; a `base` server has no purge). The name,
   * when known, lets the clean-up check both tenant lists too.
   */
  tenants: { id: number; name?: string }[];
  /**
   * Users the run created in a tenant it does not remove (the caller's own): deleted (a soft delete), then
   * purged (`full`). Users of the run's own tenants go with them.
   */
  users: number[];
  /** Roles the run created (roles are shared by every tenant, so they are removed one by one). */
  roles: number[];
}

export const noFixtures = (): Fixtures => ({ tenants: [], users: [], roles: [] });

/** Whether the paginated list (live or only deleted) holds the tenant (false when its name is unknown). */
async function listed(c: ConformanceClient, tenant: { id: number; name?: string }, onlyDeleted: boolean) {
  if (tenant.name === undefined) return false;
  const page = await c.http('POST', '/api/tenant/paginated', {
    body: { search: tenant.name, pagination_limit: 100, only_deleted: onlyDeleted },
  });
  return asArray(asRecord(page.json).data)
    .map(asRecord)
    .some((t) => t.id === tenant.id);
}

/**
 * Removes what the run created, newest first: its users of the caller's tenant (deleted when still live,
 * then purged), its tenants (deleted when still live, then purged and checked gone from both lists), then
 * its roles, which no user holds any more. In the `base` profile users and tenants stay soft-deleted (the
 * base API cannot remove either for good), which a result of its own says; roles are never created there
 * (roleCreate is an extension). A group may have removed a record itself: a 404 then means it is gone.
 */
export async function cleanUp(c: ConformanceClient, fixtures: Fixtures): Promise<void> {
  const { rest, http, check } = c;
  const purgingUsers = c.inProfile('userPurge');
  for (const id of [...new Set(fixtures.users)].reverse()) {
    const problems: string[] = [];
    try {
      const deleted = await http('DELETE', `/api/users/${id}`);
      if (deleted.status !== 200 && deleted.status !== 404)
        problems.push(`userDelete answered ${deleted.status}: ${deleted.text.slice(0, 200)}`);
      if (purgingUsers) {
        const purged = asRecord(await rest('userPurge', 'POST', '/api/users/purge', 200, { body: { id } }));
        if (purged.id !== id) problems.push(`userPurge answered another user: ${JSON.stringify(purged).slice(0, 200)}`);
        await rest('userPurge', 'POST', '/api/users/purge', 404, { body: { id } }, 'userPurge (already purged: 404)');
      }
    } catch (error) {
      problems.push(`request failed: ${(error as Error).message}`);
    }
    check(
      purgingUsers
        ? `cleanup: user ${id} purged`
        : `cleanup: user ${id} left soft-deleted (the base profile has no purge)`,
      'rest',
      problems.length === 0 ? 200 : 0,
      problems,
    );
  }
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
      } else if (tenant.name !== undefined && !(await listed(c, tenant, true))) {
        problems.push('the throwaway tenant is missing from the list with only_deleted');
      }
    } catch (error) {
      problems.push(`request failed: ${(error as Error).message}`);
    }
    const name = tenant.name ?? `#${tenant.id}`;
    check(
      purging
        ? `cleanup: tenant ${name} purged`
        : `cleanup: tenant ${name} left soft-deleted (the base profile has no purge)`,
      'rest',
      problems.length === 0 ? 200 : 0,
      problems,
    );
  }
  for (const roleId of [...new Set(fixtures.roles)].reverse()) {
    const problems: string[] = [];
    try {
      const deleted = await http('DELETE', `/api/roles/${roleId}`);
      if (deleted.status !== 200 && deleted.status !== 404)
        problems.push(`roleDelete answered ${deleted.status}: ${deleted.text.slice(0, 200)}`);
    } catch (error) {
      problems.push(`request failed: ${(error as Error).message}`);
    }
    check(`cleanup: role ${roleId} deleted`, 'rest', problems.length === 0 ? 200 : 0, problems);
  }
}
