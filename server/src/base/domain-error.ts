import type { UnauthorizedBody } from './errors';

/**
 * What a domain service refuses, in protocol-neutral terms. Services throw these; the REST adapter
 * (server/src/rest/domain-errors.ts) and the GraphQL adapter (server/src/graphql/domain-errors.ts)
 * each turn them into their own contract's body, in one place each, so the same refusal reads the
 * same through either protocol (contracts/openapi.yaml responses, contracts/schema.graphql
 * "ERRORS DURING EXECUTION").
 *
 * Order of checks in every operation: identity (`unauthenticated`) → permission (`forbidden`) →
 * input (`invalid`) → state and rules (`not_found`, `conflict`, `limit_reached`…). The adapters check
 * identity and the route permission before they parse input (docs/architecture.md).
 */
export type DomainErrorKind =
  /** No identity, or a dead one. */
  | 'unauthenticated'
  /** Signed in, but not allowed. */
  | 'forbidden'
  /** An input value breaks a rule stated on it. */
  | 'invalid'
  /** An input id names a record that does not exist (or is not visible): the target of the operation. */
  | 'not_found'
  /** An input id names a record the operation would link to that does not exist (a role, a department…). */
  | 'unknown_reference'
  /** The change conflicts with what is stored: a duplicate, or a state that forbids it. */
  | 'conflict'
  /** A save sent a version of the record that is not its current one (docs/lists.md, Versions): nothing written. */
  | 'stale'
  /** A tenant's limit (users) is reached. */
  | 'limit_reached'
  /** Too many failed attempts (sign-in, two-factor codes). */
  | 'throttled'
  /** Sign-in: unknown e-mail, wrong password or blocked user (deliberately indistinguishable). */
  | 'invalid_credentials'
  /** Sign-in: right password of a user with two-factor on, and no code. */
  | 'two_factor_required'
  /** Sign-in: a wrong or reused second-factor code. */
  | 'invalid_two_factor_code'
  /** Sign-in: right password of a user required to enrol; `enrolment` holds the pending secret. */
  | 'two_factor_enrolment_required'
  /** Sign-in: the enrolment code came after the pending secret expired or was replaced. */
  | 'two_factor_enrolment_expired'
  /** Sign-in: right password of a user whose tenant the provider deleted (closed until restored). */
  | 'tenant_deleted'
  /** Sign-in: right password (and second factor) of a user whose password is temporary, and no new one. */
  | 'password_change_required'
  /** A password reset link that is unknown, used, expired or voided (one answer for all). */
  | 'reset_link_invalid'
  /** The server has no way to send mail (production without SMTP_URL): reset links cannot be sent. */
  | 'mail_disabled';

export interface DomainErrorDetails {
  /** The input field at fault (`email`, `role_id`, `finishAt`…), named as in the contracts. */
  field?: string;
  /** `invalid`: every bad field of the input, when there are several (the first is also `field`). */
  errors?: readonly { field: string; message: string }[];
  /** `forbidden`: the route permissions, any of which would have allowed it. */
  required?: readonly string[];
  /** `unauthenticated`: the contract's 401 body. */
  unauthorized?: UnauthorizedBody;
  /** `throttled`: seconds until a new attempt is accepted. */
  retryAfter?: number;
  /** `limit_reached`: the limit. */
  limit?: number;
  /** `conflict`: what the conflict is, for operations whose contract names it (contracts/openapi.yaml `Conflict.error`). */
  code?: ConflictCode;
  /** `conflict` `undo_conflict`: the records whose target changed since, with each field's value now (server/src/undo/service.ts). */
  undoConflicts?: readonly UndoConflictRow[];
  /** `two_factor_enrolment_required`: the pending secret, its otpauth URI and QR code. */
  enrolment?: { secret: string; otpauth_uri: string; qr_svg: string };
  /** `stale`: the record's current version. */
  version?: number;
  /** `stale`: the audited changes since the version the save sent, oldest first (contracts/openapi.yaml `StaleChange`). */
  changes?: readonly StaleChange[];
}

/** One audited change of a record, as a stale save's answer shows it (contracts/openapi.yaml `StaleChange`). */
export interface StaleChange {
  id: number;
  at: string;
  actor_name: string | null;
  actor_staff: boolean;
  operation: string;
  version: number;
  changes: readonly { field: string; before: string | null; after: string | null }[];
}

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly details: DomainErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get field(): string | undefined {
    return this.details.field;
  }
}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;

export const unauthenticated = (body: UnauthorizedBody = { status: 'Unauthorized' }) =>
  new DomainError('unauthenticated', 'status' in body ? body.status : body.error, { unauthorized: body });

export const forbidden = (required: readonly string[] = [], message = 'Forbidden') =>
  new DomainError('forbidden', message, { required });

export const invalid = (field: string, message: string) => new DomainError('invalid', message, { field });

/**
 * Runs value checks and refuses them all at once: one `invalid` naming every bad field (the contracts
 * promise one error per bad field), or the checks' results when none failed.
 */
export function checkAll<T extends Record<string, unknown>>(checks: { [K in keyof T]: () => T[K] }): T {
  const values: Partial<T> = {};
  const errors: { field: string; message: string }[] = [];
  for (const key of Object.keys(checks) as (keyof T)[]) {
    try {
      values[key] = checks[key]();
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind !== 'invalid') throw error;
      errors.push(...(error.details.errors ?? [{ field: error.details.field ?? String(key), message: error.message }]));
    }
  }
  const [first] = errors;
  if (first) throw new DomainError('invalid', first.message, { field: first.field, errors });
  return values as T;
}

export const notFound = (message = 'Not found', field?: string) =>
  new DomainError('not_found', message, field === undefined ? {} : { field });

export const unknownReference = (field: string, message: string) =>
  new DomainError('unknown_reference', message, { field });

export const conflict = (message: string, field?: string, code?: ConflictCode) =>
  new DomainError('conflict', message, {
    ...(field === undefined ? {} : { field }),
    ...(code === undefined ? {} : { code }),
  });

/**
 * A save that sent `sent` while the record is at `version`: nothing was written; `changes` are the audited
 * changes since (server/src/audit/versions.ts reads them).
 */
export const stale = (sent: number, version: number, changes: readonly StaleChange[]) =>
  new DomainError(
    'stale',
    `This record changed since it was read (version ${sent}); it is now at version ${version}. Reload it, or send version ${version} to overwrite.`,
    { field: 'version', version, changes },
  );

/** The kinds of conflict the support desk names (contracts/openapi.yaml `Conflict.error`, docs/support-desk.md). */
export type ConflictCode =
  | 'own_account'
  | 'not_throttled'
  | 'already'
  | 'deleted'
  | 'not_deleted'
  | 'email_taken'
  | 'username_taken'
  | 'tenant_deleted'
  | 'user_limit_reached'
  | 'blocked'
  /** Saved views (docs/lists.md, Views): the caller has a view of this name for the list, or 50 views of it. */
  | 'view_name_taken'
  | 'view_limit_reached'
  /** Webhook endpoints (docs/webhooks.md): the tenant has an endpoint at this address, or 10 endpoints. */
  | 'webhook_endpoint_taken'
  | 'webhook_endpoint_limit'
  // An undo (docs/lists.md, Undo on the server): the target changed since, the window passed, the record
  // was undone already, or its operation has no safe inverse.
  | 'undo_conflict'
  | 'undo_expired'
  | 'already_undone'
  | 'not_undoable'
  // Webhooks (docs/webhooks.md): no active endpoint for a generation's type; an endpoint's address taken or
  // the tenant's limit reached; a redelivery of a delivery in progress, or to a deleted or paused endpoint.
  | 'webhook_no_endpoint'
  | 'webhook_endpoint_taken'
  | 'webhook_endpoint_limit'
  | 'webhook_delivery_in_progress'
  | 'webhook_endpoint_deleted'
  | 'webhook_endpoint_paused';

/** One record of an `undo_conflict`: its target and the fields that hold another value than it left. */
export interface UndoConflictRow {
  record_id: number;
  target_id: number;
  target_name: string | null;
  fields: readonly { field: string; recorded: string | null; current: string | null }[];
}

/** 409 `undo_conflict`: nothing was undone, because these records' targets changed since. */
export const undoConflict = (rows: readonly UndoConflictRow[]) =>
  new DomainError('conflict', 'The record changed since this change: nothing was undone', {
    code: 'undo_conflict',
    undoConflicts: rows,
  });

/** A conflict with a code (docs/support-desk.md: `own_account`, …), answered as REST `{ message, error }`. */
export const conflictCode = (code: ConflictCode, message: string) => new DomainError('conflict', message, { code });

export const limitReached = (limit: number, message = `The tenant already has its limit of ${limit} users`) =>
  new DomainError('limit_reached', message, { limit, field: 'role_id' });

export const throttled = (retryAfter: number) =>
  new DomainError('throttled', 'Too many failed attempts', { retryAfter });

export const invalidCredentials = () => new DomainError('invalid_credentials', 'Wrong Email or Password');

export const twoFactorRequired = () =>
  new DomainError('two_factor_required', 'Informe o código de verificação do seu aplicativo autenticador.');

export const invalidTwoFactorCode = () =>
  new DomainError('invalid_two_factor_code', 'Código de verificação inválido ou já usado.');

export const twoFactorEnrolmentRequired = (enrolment: NonNullable<DomainErrorDetails['enrolment']>) =>
  new DomainError('two_factor_enrolment_required', 'Ative a verificação em duas etapas para entrar.', { enrolment });

export const twoFactorEnrolmentExpired = () =>
  new DomainError('two_factor_enrolment_expired', 'A ativação expirou; entre novamente para receber um novo QR code.');

export const passwordChangeRequired = () =>
  new DomainError('password_change_required', 'Sua senha é temporária. Escolha uma nova senha para entrar.');

export const resetLinkInvalid = () =>
  new DomainError('reset_link_invalid', 'This reset link is invalid or has expired; ask for a new one', {
    field: 'token',
  });

export const mailDisabled = () =>
  new DomainError('mail_disabled', 'This server cannot send e-mail: ask the provider’s support to reset the password');

export const tenantDeleted = () =>
  new DomainError(
    'tenant_deleted',
    'O acesso desta empresa foi encerrado pelo provedor. Fale com o suporte para reativá-lo.',
  );

/**
 * The unique indexes of the schema (server/src/db/migrations) and what a violation of each means.
 * Uniqueness is the database's job: a check before an insert cannot see a concurrent insert, the
 * index can. This table is the one place a violation becomes the contract's conflict.
 */
const UNIQUE_CONSTRAINTS: Readonly<Record<string, { field: string; message: string }>> = {
  users_email_lower_key: { field: 'email', message: 'A user with this email already exists' },
  users_tenant_username_key: { field: 'username', message: 'This username is already taken in this tenant' },
  tenants_name_key: { field: 'name', message: 'A tenant with this name already exists' },
  roles_name_key: { field: 'name', message: 'A role with this name already exists' },
  instances_tenant_name_key: { field: 'name', message: 'An instance with this name already exists' },
  departments_tenant_name_key: { field: 'name', message: 'A department with this name already exists' },
  connections_instance_name_key: { field: 'name', message: 'A connection with this name already exists' },
};

/**
 * The foreign keys a request can break by racing another one, and what a violation means: a user
 * given a role that a concurrent delete removed (server/src/roles/service.ts `remove`).
 */
const FOREIGN_KEYS: Readonly<Record<string, () => DomainError>> = {
  users_role_id_fkey: () => unknownReference('role_id', 'No such role'),
};

/** A PostgreSQL foreign-key violation (SQLSTATE 23503), as `pg` and PGlite both report it. */
function isForeignKeyViolation(error: unknown): error is { code: '23503'; constraint?: string } {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23503';
}

/** A PostgreSQL unique violation (SQLSTATE 23505), as `pg` and PGlite both report it. */
export function isUniqueViolation(error: unknown): error is { code: '23505'; constraint?: string } {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/**
 * The domain error an exception stands for: itself when it is one, the conflict of the violated
 * unique index when it is a unique violation, the meaning of a known foreign key's violation, else
 * null (an unexpected failure).
 */
export function asDomainError(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (isUniqueViolation(error)) {
    const known = error.constraint === undefined ? undefined : UNIQUE_CONSTRAINTS[error.constraint];
    return known
      ? conflict(known.message, known.field)
      : conflict('The change conflicts with a record that already exists');
  }
  if (isForeignKeyViolation(error) && error.constraint !== undefined) return FOREIGN_KEYS[error.constraint]?.() ?? null;
  return null;
}
