import type { Actor } from '../access/caller';
import { forbidden } from '../base/domain-error';

/** The role a tenant's own user needs for anything of its tenant's webhooks (docs/webhooks.md, Who). */
export const WEBHOOK_TENANT_ROLE = 'administrador';

/**
 * Back-office staff (with `tenants`, their policy's route) for any live tenant; a tenant's own user only
 * as its `administrador` (403 otherwise): registering and changing endpoints, generating runs, reading
 * and resending deliveries alike, so nobody starts what it may not see.
 */
export function assertWebhookRole(actor: Actor): void {
  if (!actor.originBackoffice && actor.role !== WEBHOOK_TENANT_ROLE)
    throw forbidden([], "only back-office staff or the tenant's administrador may act on its webhooks");
}
