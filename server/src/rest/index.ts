import { analyticsHandlers } from './analytics';
import { auditHandlers } from './audit';
import { authHandlers } from './auth';
import { departmentHandlers } from './departments';
import { healthHandlers } from './health';
import { instanceHandlers } from './instances';
import { passwordResetHandlers, supportCredentialHandlers } from './password-reset';
import { permissionHandlers } from './permissions';
import { sheetHandlers } from './sheets';
import { supportHandlers } from './support';
import { tenantHandlers } from './tenants';
import { twoFactorHandlers } from './two-factor';
import { userHandlers } from './users';
import { viewHandlers } from './views';
import { webhookEndpointHandlers } from './webhook-endpoints';
import { webhookHandlers } from './webhooks';
import type { HandlerDeps, Operations } from './types';

export type { Operations } from './types';
export { bodyPermissionChecks } from './users';

/** Every REST handler by operationId: thin adapters over the domain services (server/src/services.ts). */
export function createOperations(deps: HandlerDeps): Partial<Operations> {
  return {
    ...healthHandlers(deps),
    ...authHandlers(deps),
    ...passwordResetHandlers(deps),
    ...tenantHandlers(deps),
    ...userHandlers(deps),
    ...permissionHandlers(deps),
    ...departmentHandlers(deps),
    ...instanceHandlers(deps),
    ...sheetHandlers(deps),
    ...analyticsHandlers(deps),
    ...twoFactorHandlers(deps),
    ...auditHandlers(deps),
    ...supportHandlers(deps),
    ...supportCredentialHandlers(deps),
    ...viewHandlers(deps),
    ...webhookEndpointHandlers(deps),
    ...webhookHandlers(deps),
  };
}
