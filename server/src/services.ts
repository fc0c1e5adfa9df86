import type { Kysely } from 'kysely';
import { createAttentionService } from './attention/service';
import { createAuditService } from './audit/service';
import { createAuditTrail } from './audit/trail';
import { createAuthService } from './auth/service';
import type { TokenService } from './auth/tokens';
import type { ServerConfig } from './base/config';
import type { Database } from './db/schema';
import { createDepartmentsService } from './departments/service';
import type { EventBus } from './base/events';
import type { Telemetry } from './base/telemetry';
import { createHealthService } from './health/service';
import { createInstancesService } from './instances/service';
import { createReportsService } from './reports/service';
import { createRolesService } from './roles/service';
import { createSupportService } from './support/service';
import { createTenantsService } from './tenants/service';
import { createUsersService } from './users/service';
import { createUndoService } from './undo/service';
import { createPasswordReset, type ResetLog } from './auth/password-reset';
import type { Background } from './base/background';
import { createPasswordResetService } from './auth/password-reset-service';
import { disabledMailer, type Mailer } from './mail/mailer';
import { createSupportCredentialsService } from './support/credentials';
import { createViewsService } from './views/service';
import { createWebhookEndpointsService } from './webhooks/endpoints';
import { createWebhooksService } from './webhooks/service';
import type { WebhookProgress } from './webhooks/progress';

/**
 * The domain services, one per resource, built once per app and shared by both protocol adapters
 * (server/src/rest/, server/src/graphql/): every rule, transaction and query lives in a service or
 * its repository, never in an adapter (docs/architecture.md).
 */
export interface ServiceDeps {
  db: Kysely<Database>;
  config: ServerConfig;
  tokens: TokenService;
  events: EventBus;
  /** argon2id by default; see server/src/users/service.ts. */
  hashPassword?: (password: string) => Promise<string>;
  /** Sign-in and refresh outcomes for the metrics (server/src/plugins/metrics.ts). */
  telemetry?: Telemetry;
  /** How mail goes out (server/src/mail/mailer.ts); none: reset links are disabled. */
  mailer?: Mailer;
  /** Where failures after an answer (a reset link that could not be sent) are logged. */
  log?: ResetLog;
  /** Work done after an answer (server/src/base/background.ts), which the server waits for when it closes. */
  background?: Background;
  /** Where webhook run progress is told (server/src/webhooks/progress.ts); none: not told. */
  webhookProgress?: WebhookProgress;
}

export function createServices(serviceDeps: ServiceDeps) {
  // One audit trail for every service: changes and their records commit together (server/src/audit/trail.ts).
  const deps = { ...serviceDeps, audit: createAuditTrail(serviceDeps) };
  const reset = createPasswordReset({ ...deps, mailer: serviceDeps.mailer ?? disabledMailer });
  const users = createUsersService(deps);
  const tenants = createTenantsService(deps);
  const roles = createRolesService(deps);
  const departments = createDepartmentsService(deps);
  const instances = createInstancesService(deps);
  return {
    passwordReset: createPasswordResetService(reset),
    supportCredentials: createSupportCredentialsService({ ...deps, reset }),
    auth: createAuthService(deps),
    users,
    tenants,
    roles,
    departments,
    instances,
    reports: createReportsService(deps),
    webhooks: createWebhooksService({ ...deps, progress: serviceDeps.webhookProgress }),
    health: createHealthService(deps),
    views: createViewsService(deps),
    webhookEndpoints: createWebhookEndpointsService(deps),
    audit: createAuditService(deps),
    attention: createAttentionService(deps),
    support: createSupportService({ ...deps, reset }),
    // Undo goes through the service of the undone operation (server/src/undo/service.ts).
    undo: createUndoService({ ...deps, services: { users, tenants, roles, departments, instances } }),
  };
}

export type Services = ReturnType<typeof createServices>;
