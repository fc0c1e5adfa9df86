import { analyticsHandlers } from './analytics';
import { authHandlers } from './auth';
import { healthHandlers } from './health';
import { instanceHandlers } from './instances';
import { permissionHandlers } from './permissions';
import { reportUserHandlers } from './report-users';
import { sheetHandlers } from './sheets';
import { tenantHandlers } from './tenants';
import { twoFactorHandlers } from './two-factor';
import { userHandlers } from './users';
import type { HandlerDeps, Operations } from './types';

export type { Operations } from './types';

/**
 * Every REST handler by operationId. The server is being built operation by operation (issue #3);
 * an operationId absent here answers openapi-glue's "not implemented" error until its handler lands.
 */
export function createOperations(deps: HandlerDeps): Partial<Operations> {
  return {
    ...healthHandlers(deps),
    ...authHandlers(deps),
    ...tenantHandlers(deps),
    ...userHandlers(deps),
    ...permissionHandlers(deps),
    ...instanceHandlers(deps),
    ...sheetHandlers(deps),
    ...analyticsHandlers(deps),
    ...reportUserHandlers(deps),
    ...twoFactorHandlers(deps),
  };
}
