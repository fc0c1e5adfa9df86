/**
 * The audit log's vocabulary (docs/product.md, Audit log; contracts/openapi.yaml `AuditRecord`,
 * contracts/schema.graphql `AuditRecord`): which operations are recorded and what they act on. The
 * server writes these names, the Auditoria screen filters and labels by them (i18n `audit.operation.*`,
 * `audit.target.*`), so a name added here fails the build until both sides know it.
 */

/** What a record's target is. `system` is the server itself (the retention purge). */
export const AUDIT_TARGET_TYPES = [
  'user',
  'tenant',
  'role',
  'department',
  'instance',
  'connection',
  'webhook_endpoint',
  'webhook_run',
  'session',
  'system',
] as const;

export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** Every recorded operation, with the type of target it acts on. */
export const AUDIT_OPERATIONS = {
  // Sessions and access.
  'session.sign-in': 'session',
  'session.sign-out': 'session',
  'session.refresh-reuse': 'session',
  'access.denied': 'session',
  // Users.
  'user.create': 'user',
  'user.update': 'user',
  'user.block': 'user',
  'user.unblock': 'user',
  'user.delete': 'user',
  'user.purge': 'user',
  'user.password': 'user',
  'user.reset-link': 'user',
  'user.disconnect': 'user',
  'user.instance-unlink': 'user',
  'user.two-factor': 'user',
  // The support desk (docs/support-desk.md): the throttle lifted, one session ended, a deleted user restored.
  'user.throttle-lift': 'user',
  'user.session-end': 'user',
  'user.restore': 'user',
  // A bulk run's batch (docs/lists.md, Bulk actions): its rows' records carry its id as `batch_id`.
  'user.bulk': 'user',
  // Tenants.
  'tenant.create': 'tenant',
  'tenant.update': 'tenant',
  'tenant.delete': 'tenant',
  'tenant.restore': 'tenant',
  'tenant.purge': 'tenant',
  'tenant.plan': 'tenant',
  'tenant.feature': 'tenant',
  'tenant.feature-bulk': 'tenant',
  // Roles.
  'role.create': 'role',
  'role.rename': 'role',
  'role.permissions': 'role',
  'role.delete': 'role',
  // Departments.
  'department.create': 'department',
  'department.update': 'department',
  // Instances and their connections.
  'instance.create': 'instance',
  'instance.update': 'instance',
  'instance.sync': 'instance',
  'connection.create': 'connection',
  'connection.update': 'connection',
  // Campaign-status webhooks (docs/webhooks.md).
  'webhook.endpoint-create': 'webhook_endpoint',
  'webhook.endpoint-update': 'webhook_endpoint',
  'webhook.endpoint-rotate': 'webhook_endpoint',
  'webhook.endpoint-delete': 'webhook_endpoint',
  'webhook.generate': 'webhook_run',
  'webhook.redeliver': 'webhook_run',
  // The server's own work.
  'audit.purge': 'system',
} as const satisfies Record<string, AuditTargetType>;

export type AuditOperation = keyof typeof AUDIT_OPERATIONS;

export const AUDIT_OPERATION_NAMES = Object.keys(AUDIT_OPERATIONS) as AuditOperation[];

/** One changed field: its value before and after, each as JSON text (null: the field had no value on that side). */
export interface AuditChange {
  field: string;
  before: string | null;
  after: string | null;
}

/** Field names whose values are never written to the log (docs/security.md, Audit log). */
export const AUDIT_SECRET_FIELD = /pass(word)?|secret|token|hash|otp|recovery|code/i;

/** The rows of one page of the log, newest first; `next` is the cursor of the following page. */
export const AUDIT_PAGE_LIMIT = { default: 50, max: 200 } as const;
