/**
 * Deliberately broken promises of the contract, for testing the conformance kit (docs/conformance.md,
 * "The kit is tested against wrong servers"): a kit that passes every server proves nothing, so
 * tests/contract/conformance/broken-variants.test.ts turns each variant on in turn, runs the kit against the
 * in-process reference server and requires the kit to fail it, naming the broken promise.
 *
 * Each name below breaks exactly ONE promise of the contract, at the line of the server that keeps it
 * (`isBroken('name')` there). Nothing in production turns a variant on: no configuration or environment
 * variable reads this, and only test code calls {@link breakPromises} (server/src/base/broken-promises.test.ts
 * checks that no production file does). With no variant on, `isBroken` is a lookup in an empty set.
 */

/** The variants (tests/contract/conformance/broken-variants.ts describes each with the contract line it breaks). */
export const BROKEN_PROMISES = [
  // Health and the 401 table
  'health-wrong-body',
  'unauthorized-wrong-text',
  'forbidden-before-unauthorized',
  // Statuses and bodies (server/src/plugins/broken-answers.ts rewrites the serialized answer)
  'tenant-create-200',
  'sync-messages-200',
  'tenant-missing-required-field',
  'role-extra-property',
  'role-id-as-string',
  'json-wrong-content-type',
  // CSV
  'csv-no-bom',
  'csv-comma-separated',
  'csv-lf-line-ends',
  'csv-wrong-content-type',
  // Soft delete
  'deleted-tenant-listed',
  'deleted-tenant-in-flat-list',
  'restore-keeps-deleted-at',
  // GraphQL
  'graphql-unselected-field',
  'graphql-null-in-non-null',
  'graphql-id-as-string',
  'graphql-error-without-code',
  // Sessions and credentials
  'logout-keeps-session',
  'two-factor-not-required',
  'own-password-change-allowed',
  'forbidden-without-reason',
  'email-change-without-current-password',
  'email-change-keeps-other-sessions',
  'password-change-keeps-other-sessions',
  'two-factor-conflict-as-500',
  // Negative cases, tokens and the socket (checked by the groups `negative`, `tokens`, `socket`)
  'permission-check-skipped',
  'validation-before-authentication',
  'other-tenant-id-visible',
  'duplicate-as-500',
  'refresh-token-reusable',
  'no-reuse-detection',
  'socket-no-pong',
  'socket-ticket-reusable',
  'socket-frames-not-base64',
] as const;

export type BrokenPromise = (typeof BROKEN_PROMISES)[number];

let active: ReadonlySet<BrokenPromise> = new Set();

/** Whether the server should break this promise now (never, unless a test turned it on). */
export function isBroken(name: BrokenPromise): boolean {
  return active.has(name);
}

/** Whether any variant is on: lets a hook that rewrites answers skip all work otherwise. */
export function anyBroken(): boolean {
  return active.size > 0;
}

/** TEST SUPPORT ONLY: the variants to break from now on (none: `[]`). */
export function breakPromises(names: readonly BrokenPromise[]): void {
  active = new Set(names);
}
