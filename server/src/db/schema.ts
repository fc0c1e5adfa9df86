import type { ColumnType, Generated, GeneratedAlways } from 'kysely';
import type { SignInFailureReason } from '../base/sign-in-reasons';

/**
 * Kysely's view of the database (snake_case, as in the migrations).
 *
 * Value conventions, identical on PGlite and PostgreSQL (see `connect.ts`):
 * - `timestamptz` → `Date`;
 * - `date` → `'YYYY-MM-DD'` string (never a `Date`, so no time-zone shift);
 * - `numeric` and `int8`/`bigserial`/`count(*)` → `number`.
 */

/** A `timestamptz` column with a database default. */
type CreatedAt = Generated<Date>;
/** A `numeric` column: read as a number, written as a number or an exact decimal string. */
type Numeric = ColumnType<number, number | string, number | string>;
type NullableNumeric = ColumnType<number | null, number | string | null | undefined, number | string | null>;
/** A `date` column: `'YYYY-MM-DD'`. */
type Day = string;

export type Plan = 'starter' | 'professional' | 'enterprise';
export type InstanceStatus = 'idle' | 'syncing' | 'done' | 'failed';
export type ConnectionStatus = 'connected' | 'connecting' | 'disconnected' | 'qrcode';
export type CampaignStatusType = 'sent' | 'delivered' | 'read' | 'failed' | 'replied';
export type OrderStatus = 'pending' | 'confirmed' | 'delivered' | 'cancelled';
export type TicketStatus = 'open' | 'pending' | 'closed' | 'transferred';
export type InstanceEvent = 'connected' | 'disconnected' | 'qrcode' | 'sync_started' | 'sync_finished' | 'error';

export interface TenantsTable {
  id: Generated<number>;
  /** Slug, also the first segment of the panel's address; unique among live and deleted tenants. */
  name: string;
  /** Masked and upper-case, `AA.AAA.AAA/AAAA-DD`: letters or digits, then two check digits (migration 0008). */
  cnpj: string;
  /** The CNPJ without its mask (14 upper-case letters and digits), kept by the database; trigram-indexed for searches typed without the mask (migration 0008). */
  cnpj_bare: GeneratedAlways<string>;
  /** `name || ' ' || lower(cnpj)`, kept by the database; the trigram-indexed column the search reads (migrations 0007, 0008). */
  search_text: GeneratedAlways<string>;
  template: string;
  pool: string;
  plan: Plan;
  user_limit: number;
  ticket_limit: number;
  created_at: CreatedAt;
  deleted_at: Date | null;
  /** Raised by one with every audited change of the row, in the statement that writes it (migration 0023, docs/lists.md, Versions). */
  version: Generated<number>;
  /** The feature set's own version (`tenant_features` rows), raised by each change of a feature (migration 0023). */
  features_version: Generated<number>;
}

export interface PlansTable {
  name: Plan;
  display_name: string;
  default_user_limit: number;
  default_ticket_limit: number;
}

export interface FeatureOptionsTable {
  option: string;
  display_name: string;
}

export interface TenantFeaturesTable {
  tenant_id: number;
  option: string;
  enabled: boolean;
  updated_at: CreatedAt;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
  display_name: string;
  /** Raised by one with every audited change of the row, in the statement that writes it (migration 0023, docs/lists.md, Versions). */
  version: Generated<number>;
}

export interface PermissionsTable {
  id: Generated<number>;
  route_name: string;
  display_name: string;
  category: string;
}

export interface RolePermissionsTable {
  role_id: number;
  permission_id: number;
}

export interface DepartmentsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  activated: Generated<boolean>;
  /** Raised by one with every audited change of the row, in the statement that writes it (migration 0023, docs/lists.md, Versions). */
  version: Generated<number>;
}

export interface UsersTable {
  id: Generated<number>;
  tenant_id: number;
  role_id: number;
  department_id: number | null;
  name: string;
  username: string;
  /** Store lower-cased; uniqueness is on `lower(email)` among non-deleted users. */
  email: string;
  password_hash: string;
  image: string | null;
  blocked: Generated<boolean>;
  /** "Login asks for a second factor"; only ever true with an enrolled `two_factor_secret` (a check constraint). */
  two_factor_enabled: Generated<boolean>;
  /**
   * The enrolled TOTP secret, set by a successful verify; stored AES-256-GCM encrypted as
   * `v1:<key id>:<iv>:<ciphertext>` (server/src/auth/totp-secrets.ts), never as the plain base32.
   */
  two_factor_secret: string | null;
  two_factor_enrolled_at: Date | null;
  /** A secret handed out by enrol and not yet confirmed by verify; encrypted like `two_factor_secret`. */
  two_factor_pending_secret: string | null;
  two_factor_pending_at: Date | null;
  /** The last TOTP time step accepted for the user: a code is refused unless its step is newer (single use). */
  two_factor_last_step: number | null;
  /** An administrator requires enrolment: sign-in enrols first while two-factor is off (migration 0014). */
  two_factor_enrolment_required: Generated<boolean>;
  /** Set by a temporary password: sign-in asks for a new one first (migration 0020, docs/support-desk.md). */
  must_change_password: Generated<boolean>;
  is_connected: Generated<boolean>;
  origin_backoffice: Generated<boolean>;
  /** Bumped to revoke every token of the user at once. */
  token_version: Generated<number>;
  created_at: CreatedAt;
  deleted_at: Date | null;
  /** The last successful sign-in (migration 0019). */
  last_sign_in_at: Generated<Date | null>;
  /**
   * A deleted user keeps its e-mail from anyone else until restored or purged (migration 0019): set on
   * delete; false for live users and for deleted ones from before the rule whose e-mail another holds.
   */
  email_reserved: Generated<boolean>;
  /** E-mail, name and username folded for the support desk's search (a generated column of migration 0019). */
  support_search: GeneratedAlways<string>;
  /** Raised by one with every audited change of the row, in the statement that writes it (migration 0023, docs/lists.md, Versions). */
  version: Generated<number>;
}

export interface InstancesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  activated: Generated<boolean>;
  is_official: Generated<boolean>;
  is_unlimited: Generated<boolean>;
  status: Generated<InstanceStatus>;
  /** 0–100. */
  sync_progress: Generated<number>;
  synced_messages: Generated<number>;
  total_messages: number | null;
  created_at: CreatedAt;
  /** Raised by one with every audited change of the row, in the statement that writes it (migration 0023, docs/lists.md, Versions). */
  version: Generated<number>;
}

export interface UserInstancesTable {
  id: Generated<number>;
  user_id: number;
  instance_id: number;
}

export interface ConnectionsTable {
  id: Generated<number>;
  tenant_id: number;
  instance_id: number;
  /** Unique within the instance, ignoring case (migration 0013). */
  name: string;
  activated: Generated<boolean>;
  phone: string | null;
  status: Generated<ConnectionStatus>;
  last_seen_at: Date | null;
  /** Raised by one with every audited change of the row, in the statement that writes it (migration 0023, docs/lists.md, Versions). */
  version: Generated<number>;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  email: string;
  /** What the client's IP lookup saw (may be null). */
  ip: string | null;
  /** The connection's own address as the server saw it. */
  remote_address: string | null;
  /**
   * What the throttle counts the address by (server/src/auth/attempts.ts `addressKey`): IPv4 as is,
   * IPv4-mapped IPv6 as its IPv4, other IPv6 by its /64.
   */
  address_key: string | null;
  user_id: number | null;
  /** Null while the attempt is reserved and not yet checked (counted as a failure meanwhile). */
  success: boolean | null;
  created_at: CreatedAt;
  /** Why the attempt failed (migration 0019; server/src/base/sign-in-reasons.ts); null for a success or one in flight. */
  reason: SignInFailureReason | null;
  /** Set by the support desk's "lift the throttle": the throttle no longer counts the attempt. */
  lifted_at: Date | null;
  /** Whether the throttle counts the attempt (a generated column of migration 0019): read, never written. */
  throttle_counted: GeneratedAlways<boolean>;
}

export interface TokenFamiliesTable {
  id: string;
  user_id: number;
  current_jti: string;
  previous_jti: string | null;
  previous_valid_until: Date | null;
  revoked_at: Date | null;
  created_at: CreatedAt;
  refreshed_at: CreatedAt;
  /** What the sign-in that began the session said (migration 0019); null for older sessions. */
  user_agent: Generated<string | null>;
  address: Generated<string | null>;
  /** Signed in with "remember me" (the long refresh window). */
  remember: Generated<boolean>;
  /** The end of the session's refresh window (its tokens' `rxp`); null for sessions older than migration 0019. */
  refresh_until: Generated<Date | null>;
}

/** A socket ticket (migration 0016; server/src/auth/socket-tickets.ts): single use, stored hashed. */
export interface SocketTicketsTable {
  /** SHA-256 (hex) of the ticket; the ticket itself is given once and never stored. */
  hash: string;
  user_id: number;
  family_id: string;
  /** The `tv` claim of the token the ticket was asked with. */
  token_version: number;
  /** The `exp` of that token: when the socket re-checks its session (contracts/socket.md §5). */
  token_expires_at: Date;
  /** The `rxp` of that token: the end of the session's refresh window. */
  refresh_until: Date;
  expires_at: Date;
  created_at: CreatedAt;
}

export interface PasswordResetTokensTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of the token; the token itself is sent once by e-mail and never stored. */
  token_hash: string;
  created_at: CreatedAt;
  expires_at: Date;
  /** Set by the one confirm that used the link. */
  used_at: Date | null;
  /** Set when a newer link, another link's confirm or a temporary password made this one void. */
  voided_at: Date | null;
  /** The address key (server/src/auth/attempts.ts `addressKey`) the link was asked from; null when staff sent it. */
  requested_address: string | null;
}

/** One request for a reset link from an address, counted whether or not the e-mail is anyone's. */
export interface PasswordResetRequestsTable {
  id: Generated<number>;
  address_key: string;
  created_at: CreatedAt;
}

export interface TwoFactorRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of the normalised code; the code itself is shown once and never stored. */
  code_hash: string;
  used_at: Date | null;
  created_at: CreatedAt;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: CreatedAt;
}

/** One generation of one status type for a tenant (migrations 0003, 0027; docs/webhooks.md). */
export interface WebhookRunsTable {
  id: Generated<number>;
  tenant_id: number;
  type: CampaignStatusType;
  start_at: Day;
  finish_at: Day;
  total: Generated<number>;
  created_by: number | null;
  created_at: CreatedAt;
  finished_at: Date | null;
}

export interface CampaignMessagesTable {
  id: Generated<number>;
  tenant_id: number;
  campaign: string;
  recipient: string;
  created_at: CreatedAt;
}

export interface CampaignMessageStatusesTable {
  message_id: number;
  tenant_id: number;
  status: CampaignStatusType;
  at: Date;
}

/** Where a tenant's webhooks go; secrets encrypted by the server (migration 0027). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  tenant_id: number;
  url: string;
  url_key: string;
  types: CampaignStatusType[];
  description: Generated<string>;
  active: Generated<boolean>;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  version: Generated<number>;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  deleted_at: Date | null;
}

export type WebhookDeliveryState = 'pending' | 'sending' | 'succeeded' | 'failed' | 'cancelled';
export type WebhookAttemptError =
  'timeout' | 'connection' | 'address_refused' | 'redirect' | 'http_status' | 'too_many_requests';

/** The delivery queue and its history (migration 0027; docs/webhooks.md). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  run_id: number;
  tenant_id: number;
  endpoint_id: number;
  message_id: number;
  type: CampaignStatusType;
  idempotency_key: string;
  body: string;
  state: Generated<WebhookDeliveryState>;
  attempts: Generated<number>;
  next_attempt_at: Date | null;
  locked_until: Date | null;
  /** Waiting while its endpoint is paused: out of the due index (migration 0029). */
  parked: Generated<boolean>;
  last_status_code: number | null;
  last_error: WebhookAttemptError | null;
  created_at: CreatedAt;
  completed_at: Date | null;
}

export interface WebhookAttemptsTable {
  delivery_id: number;
  number: number;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: WebhookAttemptError | null;
  response_excerpt: Generated<string>;
  retry_at: Date | null;
}

export interface AnalyticsDailyTable {
  tenant_id: number;
  /** Calendar day in America/Sao_Paulo. */
  day: Day;
  /** Orders that were not cancelled. */
  orders: number;
  /** Sum of `total` of orders that were not cancelled, BRL. */
  revenue: Numeric;
  attendances: number;
  /** Attendances started that day whose ticket is not closed (open, pending, transferred). */
  tickets_open: number;
  /** Attendances started that day whose ticket is closed. */
  tickets_closed: number;
  computed_at: CreatedAt;
}

export interface OrdersTable {
  id: Generated<number>;
  tenant_id: number;
  created_at: CreatedAt;
  customer_name: string;
  website_id: number | null;
  status: OrderStatus;
  items: number;
  total: Numeric;
}

export interface AttendancesTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number | null;
  started_at: Date;
  finished_at: Date | null;
  website_id: number | null;
  estimation: Generated<boolean>;
  estimation_value: NullableNumeric;
  first_response_seconds: number | null;
  handling_seconds: number | null;
  ticket_status: TicketStatus;
}

export interface InstanceLogsTable {
  id: Generated<number>;
  tenant_id: number;
  instance_id: number;
  created_at: CreatedAt;
  event: InstanceEvent;
  detail: string | null;
}

export interface ReasonsTable {
  id: Generated<number>;
  name: string;
}

export interface AttendanceReasonsTable {
  id: Generated<number>;
  tenant_id: number;
  reason_id: number;
  attendance_id: number | null;
  created_at: CreatedAt;
}

/** One audit record (migration 0015; server/src/audit/). Rows are never updated. */
export interface AuditLogTable {
  id: GeneratedAlways<number>;
  at: CreatedAt;
  actor_user_id: number | null;
  actor_name: string | null;
  actor_email: string | null;
  actor_tenant_id: number | null;
  actor_tenant_name: string | null;
  address: string | null;
  request_id: string | null;
  operation: string;
  target_type: string;
  target_id: number | null;
  target_name: string | null;
  tenant_id: number | null;
  tenant_name: string | null;
  /** `[{ field, before, after }]`, before/after as JSON text (src/domain/audit.ts `AuditChange`). */
  changes: ColumnType<unknown, string, never>;
  /** The target's version this change produced (the feature set's for `tenant.feature`); null otherwise (migration 0023). */
  target_version: ColumnType<number | null, number | null | undefined, never>;
  /** The batch's own record, on each row's record of a bulk run (migration 0022); null otherwise. */
  batch_id: number | null;
  /** The record this one undoes (migration 0024; unique: a record is undone once). */
  undo_of: ColumnType<number | null, number | null | undefined, never>;
}

/** A user's saved view of a list (migration 0025, server/src/views/service.ts). */
export interface SavedViewsTable {
  id: Generated<number>;
  user_id: number;
  list: 'users' | 'tenants' | 'audit';
  name: string;
  /** The name in Unicode lower case (server/src/views/service.ts `nameKey`): unique per user and list. */
  name_key: string;
  /** `{ query, columns }` (src/domain/views.ts `ViewState`): written as JSON text, read parsed. */
  state: ColumnType<unknown, string, string>;
  is_default: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface Database {
  tenants: TenantsTable;
  plans: PlansTable;
  feature_options: FeatureOptionsTable;
  tenant_features: TenantFeaturesTable;
  roles: RolesTable;
  permissions: PermissionsTable;
  role_permissions: RolePermissionsTable;
  departments: DepartmentsTable;
  users: UsersTable;
  instances: InstancesTable;
  user_instances: UserInstancesTable;
  connections: ConnectionsTable;
  login_attempts: LoginAttemptsTable;
  token_families: TokenFamiliesTable;
  socket_tickets: SocketTicketsTable;
  password_reset_tokens: PasswordResetTokensTable;
  password_reset_requests: PasswordResetRequestsTable;
  server_secrets: ServerSecretsTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  webhook_runs: WebhookRunsTable;
  campaign_messages: CampaignMessagesTable;
  campaign_message_statuses: CampaignMessageStatusesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  analytics_daily: AnalyticsDailyTable;
  orders: OrdersTable;
  attendances: AttendancesTable;
  instance_logs: InstanceLogsTable;
  reasons: ReasonsTable;
  attendance_reasons: AttendanceReasonsTable;
  audit_log: AuditLogTable;
  saved_views: SavedViewsTable;
}
