import type { BrokenPromise } from '../../../server/src/base/broken-promises';

/**
 * The broken variants of the reference server (server/src/base/broken-promises.ts) and, for each, the
 * promise of the contract it breaks and the check of the conformance kit (packages/conformance/src) that
 * must fail on it: the groups to run (`only`), the check's name (`Result.operation`) and what its problem
 * says. docs/conformance.md, "The kit is tested against wrong servers".
 */
export interface BrokenVariant {
  name: BrokenPromise;
  /** The promise, with the contract line that makes it. */
  promise: string;
  /** The kit's groups that check it (packages/conformance/src/kit.ts GROUPS). */
  groups: string[];
  /** The check that must fail: its name... */
  check: RegExp;
  /** ...and one of its problems. */
  problem: RegExp;
  /**
   * The kit's per-step timeout for this variant (default: the kit's): a socket that stops answering
   * fails every later wait of the group by its timeout, and the test need not wait 15 s for each.
   */
  timeoutMs?: number;
}

export const BROKEN_VARIANTS: BrokenVariant[] = [
  // ----- health and the 401 table ---------------------------------------------------------------------------
  {
    name: 'health-wrong-body',
    promise:
      'GET /healthz answers `Health` {status: ok} (contracts/openapi.yaml healthLive; schemas/Health status enum [ok])',
    groups: ['unauthorized'],
    check: /^healthLive$/,
    problem: /schema: \/status must be equal to one of the allowed values/,
  },
  {
    name: 'unauthorized-wrong-text',
    promise:
      'a malformed token is 401 {status: "Token is Invalid"} (contracts/openapi.yaml responses/Unauthorized, example invalid)',
    groups: ['unauthorized'],
    check: /^401 garbage token \(REST\)$/,
    problem: /expected body \{"status":"Token is Invalid"\}/,
  },
  {
    name: 'forbidden-before-unauthorized',
    promise:
      'no token is 401 before any permission is looked at (docs/architecture.md order 401 → 403 → 400; contracts/openapi.yaml responses/Unauthorized, example missing)',
    groups: ['unauthorized'],
    check: /^401 no token \(REST\)$/,
    problem: /expected HTTP 401, got 403/,
  },
  // ----- statuses and bodies ----------------------------------------------------------------------------------
  {
    name: 'tenant-create-200',
    promise: 'POST /api/tenant answers 201 (contracts/openapi.yaml tenantCreate responses: 201)',
    groups: ['tenants'],
    check: /^tenantCreate( \(customer\))?$/,
    problem: /expected HTTP 201, got 200/,
  },
  {
    name: 'sync-messages-200',
    promise:
      'POST /api/instance/syncMessages answers 202, the sync runs on (contracts/openapi.yaml instanceSyncMessages responses: 202)',
    groups: ['instances'],
    check: /^instanceSyncMessages$/,
    problem: /expected HTTP 202, got 200/,
  },
  {
    name: 'tenant-missing-required-field',
    promise: 'a Tenant carries its cnpj (contracts/openapi.yaml schemas/Tenant required)',
    groups: ['tenants'],
    check: /^tenantCreate$/,
    problem: /must have required property 'cnpj'/,
  },
  {
    name: 'role-extra-property',
    promise:
      'a Role has no property beyond the listed ones (contracts/openapi.yaml schemas/Role additionalProperties: false)',
    groups: ['roles'],
    check: /^roleGet$/,
    problem: /must NOT have additional properties.*internal_note/,
  },
  {
    name: 'role-id-as-string',
    promise: 'ids are integers (contracts/openapi.yaml schemas/Role id: Id, an integer)',
    groups: ['roles'],
    check: /^roleCreate$/,
    problem: /schema: \/id must be integer/,
  },
  {
    name: 'json-wrong-content-type',
    promise:
      'JSON answers are application/json (contracts/openapi.yaml permissionCategories 200 content application/json)',
    groups: ['roles'],
    check: /^permissionCategories$/,
    problem: /content-type text\/plain.* is not application\/json/,
  },
  // ----- CSV --------------------------------------------------------------------------------------------------
  {
    name: 'csv-no-bom',
    promise:
      'CSV starts with a UTF-8 BOM (contracts/openapi.yaml sheets text/csv example "\\uFEFF…"; docs/product.md Sheets and CSV)',
    groups: ['reports'],
    check: /\(text\/csv\)$/,
    problem: /CSV does not start with a UTF-8 BOM/,
  },
  {
    name: 'csv-comma-separated',
    promise:
      'CSV is ;-separated (contracts/openapi.yaml sheets text/csv example "id;tenant;…"; server/src/base/csv.ts)',
    groups: ['reports'],
    check: /\(text\/csv\)$/,
    problem: /CSV header is not ;-separated/,
  },
  {
    name: 'csv-lf-line-ends',
    promise: 'CSV lines end with CRLF (contracts/openapi.yaml sheets text/csv example "…\\r\\n")',
    groups: ['reports'],
    check: /\(text\/csv\)$/,
    problem: /CSV header line does not end with CRLF/,
  },
  {
    name: 'csv-wrong-content-type',
    promise: 'a sheet asked as CSV answers text/csv (contracts/openapi.yaml sheetOrders 200 content text/csv)',
    groups: ['reports'],
    check: /\(text\/csv\)$/,
    problem: /content-type text\/plain.* is not text\/csv/,
  },
  // ----- soft delete ------------------------------------------------------------------------------------------
  {
    name: 'deleted-tenant-listed',
    promise: 'deleted tenants are hidden unless only_deleted (contracts/openapi.yaml tenantPaginated description)',
    groups: ['soft-delete'],
    check: /^soft delete \/ restore$/,
    problem: /a deleted tenant is still in the paginated list/,
  },
  {
    name: 'deleted-tenant-in-flat-list',
    promise:
      'GET /api/tenant/{filterUsers} lists active tenants only (contracts/openapi.yaml tenantList summary "All active tenants")',
    groups: ['soft-delete'],
    check: /^soft delete \/ restore$/,
    problem: /a deleted tenant is still in GET \/api\/tenant\/false/,
  },
  {
    name: 'restore-keeps-deleted-at',
    promise:
      'a restored tenant is live again, deleted_at null (contracts/openapi.yaml tenantRestore; schemas/Tenant deleted_at)',
    groups: ['soft-delete'],
    check: /^soft delete \/ restore$/,
    problem: /tenantRestore answered deleted_at not null/,
  },
  // ----- GraphQL ----------------------------------------------------------------------------------------------
  {
    name: 'graphql-unselected-field',
    promise: 'data holds exactly the selected fields (GraphQL execution; contracts/operations/roles.query.graphql)',
    groups: ['graphql'],
    check: /^roles$/,
    problem: /graphql: data\.roles\[0\]\.unselected was not selected/,
  },
  {
    name: 'graphql-null-in-non-null',
    promise: 'Role.display_name is String! (contracts/schema.graphql type Role)',
    groups: ['graphql'],
    check: /^roles$/,
    problem: /graphql: data\.roles\[0\]\.display_name is null but String! is non-null/,
  },
  {
    name: 'graphql-id-as-string',
    promise: 'Role.id is Int! (contracts/schema.graphql type Role)',
    groups: ['graphql'],
    check: /^roles$/,
    problem: /graphql: data\.roles\[0\]\.id is "\d+", not a Int/,
  },
  {
    name: 'graphql-error-without-code',
    promise:
      'every execution error has extensions.code, BAD_USER_INPUT with the field for bad input (contracts/schema.graphql "ERRORS DURING EXECUTION")',
    groups: ['graphql'],
    check: /^updateUserPassword \(wrong current password\)$/,
    problem: /expected error code BAD_USER_INPUT/,
  },
  // ----- sessions and credentials -----------------------------------------------------------------------------
  {
    name: 'logout-keeps-session',
    promise:
      'sign-out revokes the token and its family (contracts/openapi.yaml authLogout 200 "the token and its family are revoked")',
    groups: ['logout'],
    check: /^401 token after logout \(REST\)$/,
    problem: /expected HTTP 401, got 200/,
  },
  {
    name: 'two-factor-not-required',
    promise:
      'a user with two-factor signs in only with a code: 401 two_factor_required without one (contracts/openapi.yaml authLogin 401 LoginError)',
    groups: ['users'],
    check: /^authLogin \(two-factor required\)$/,
    problem: /expected HTTP 401, got 200/,
  },
  {
    name: 'own-password-change-allowed',
    promise:
      "one's own password never through PUT /api/users/{id}: 403 whatever the permissions (contracts/openapi.yaml userUpdate)",
    groups: ['users'],
    check: /^userUpdate \(own password: 403\)$/,
    problem: /expected HTTP 403, got 200/,
  },
  {
    name: 'forbidden-without-reason',
    promise: 'a refusal no permission lifts carries a reason (contracts/openapi.yaml schemas/Forbidden reason)',
    groups: ['users'],
    check: /^userUpdate \(own password: reason\)$/,
    problem: /carries a reason/,
  },
  {
    name: 'email-change-without-current-password',
    promise:
      "a new e-mail of one's own only with the current password: 400 on body/current_password (contracts/openapi.yaml userUpdate)",
    groups: ['users'],
    check: /^userUpdate \(own e-mail without the current password\)$/,
    problem: /expected HTTP 400, got 200/,
  },
  {
    name: 'email-change-keeps-other-sessions',
    promise:
      "an own e-mail change ends the user's other sessions (contracts/openapi.yaml userUpdate; docs/security.md Credentials and sessions)",
    groups: ['users'],
    check: /^401 another session after an own e-mail change \(REST\)$/,
    problem: /expected HTTP 401, got 200/,
  },
  {
    name: 'password-change-keeps-other-sessions',
    promise:
      "a password change ends the user's other sessions (contracts/schema.graphql updateUserPassword; docs/security.md Credentials and sessions)",
    groups: ['graphql'],
    check: /^401 another session after a password change \(REST\)$/,
    problem: /expected HTTP 401, got 200/,
  },
  {
    name: 'two-factor-conflict-as-500',
    promise: 'two-factor on without enrolment is a 409 Conflict (contracts/openapi.yaml userSettingsUpdate 409)',
    groups: ['users'],
    check: /^userSettingsUpdate \(on without enrolment\)$/,
    problem: /expected HTTP 409, got 500/,
  },
  // ----- negative cases, tokens, the socket ---------------------------------------------------------------------
  {
    name: 'permission-check-skipped',
    promise:
      'a caller without `users` gets 403 from GET /api/departments (contracts/openapi.yaml departmentList x-permission; responses/Forbidden)',
    groups: ['negative'],
    check: /^403 without users: departmentList$/,
    problem: /expected HTTP 403, got 200/,
  },
  {
    name: 'validation-before-authentication',
    promise: 'a bad body without a token is 401, not 400 (docs/architecture.md order 401 → 403 → 400)',
    groups: ['negative'],
    check: /^order 401 before 400 \(no token, bad body\): /,
    problem: /expected HTTP 401, got 400/,
  },
  {
    name: 'other-tenant-id-visible',
    promise:
      'another tenant\'s user is 404 to a caller of one tenant (contracts/openapi.yaml responses/NotFound "not visible to the caller")',
    groups: ['negative'],
    check: /^404 another tenant’s id \(/,
    problem: /expected HTTP 404, got|expected error code NOT_FOUND/,
  },
  {
    name: 'duplicate-as-500',
    promise:
      'a duplicate role name is 409 Conflict (contracts/openapi.yaml roleCreate 409; responses/Conflict "duplicate name")',
    groups: ['negative'],
    check: /^409 duplicate role name: roleCreate$/,
    problem: /expected HTTP 409, got 500/,
  },
  {
    name: 'refresh-token-reusable',
    promise:
      'a refresh supersedes its token: single-use rotation (docs/security.md 1. Tokens: Rotation; contracts/schema.graphql refreshToken)',
    groups: ['tokens'],
    check: /^token refresh gives a new token$/,
    problem: /answered a token it had already answered/,
  },
  {
    name: 'no-reuse-detection',
    promise:
      'a superseded token used after its grace window revokes its whole family (docs/security.md 1. Tokens: reuse detection)',
    groups: ['tokens'],
    check: /^401 reuse revoked the family: /,
    problem: /expected HTTP 401/,
  },
  {
    name: 'socket-no-pong',
    promise:
      'a client ping is answered by a `ping` event {message: pong} once per ping (contracts/socket.md §3 Events, ping)',
    groups: ['socket'],
    check: /^socket ping answered with pong$/,
    problem: /pong/,
    timeoutMs: 1500,
  },
  {
    name: 'socket-ticket-reusable',
    promise: 'a socket ticket is usable once (contracts/socket.md §1.1)',
    groups: ['socket'],
    check: /^socket ticket used (twice|up by a refused userId): 4401$/,
    problem: /4401|second|twice|once/,
    timeoutMs: 1500,
  },
  {
    name: 'socket-frames-not-base64',
    promise: 'the whole server text frame is the base64 of the UTF-8 JSON envelope (contracts/socket.md §2.2)',
    groups: ['socket'],
    check: /^socket frames: base64 of UTF-8 JSON envelopes$/,
    problem: /base64/,
    timeoutMs: 1500,
  },
];
