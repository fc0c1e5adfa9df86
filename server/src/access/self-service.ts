/**
 * What a user may do on its own record without the `users` permission (./policies.ts `selfService`),
 * asked by the users service (server/src/users/service.ts) and, before they read the input, by the
 * REST and GraphQL doors (server/src/rest/users.ts, server/src/graphql/index.ts).
 */
import { forbidden } from '../base/domain-error';
import type { Actor } from './caller';
import { holdsAny } from './permissions';

/** Route permission that manages users. */
export const USERS_PERMISSION = ['users'] as const;

/** Every field a change may name. */
const USER_FIELDS: ReadonlySet<string> = new Set([
  'username',
  'name',
  'email',
  'image',
  'password',
  'role_id',
  'user_department_id',
  'chosen_instances',
]);

/** The fields a user without the `users` permission may change on its own record. */
const OWN_PROFILE_FIELDS: ReadonlySet<string> = new Set(['username', 'name', 'email', 'image']);

/**
 * Who may ask for a change of these fields of user `id`: with the `users` permission anyone; without it
 * only the user itself, and only its {@link OWN_PROFILE_FIELDS}. It depends on the request alone, not on
 * stored data, so the adapters also ask it before they validate the input (a caller without the
 * permission gets 403 whatever the values: docs/architecture.md, order of checks).
 */
export function assertMayChange(actor: Actor, id: number, fields: readonly string[]): void {
  if (holdsAny(actor, USERS_PERMISSION)) return;
  // Names that are no field of a user are bad input, for validation to refuse, not a permission.
  const asked = fields.filter((field) => USER_FIELDS.has(field));
  if (id !== actor.userId || asked.some((field) => !OWN_PROFILE_FIELDS.has(field))) throw forbidden(USERS_PERMISSION);
}

/**
 * Who may ask for a change of a user's two-factor settings (contracts/openapi.yaml `userSettingsUpdate`,
 * GraphQL `updateUserSettings`). On one's own account, whatever one's permissions, only to confirm one's
 * enrolled two-factor (`two_factor_enabled: true`): turning it off takes a code (`POST
 * /api/two-factor/disable`), so a stolen session alone cannot remove the second factor (docs/security.md,
 * Credentials and sessions), and requiring or lifting one's own enrolment is another administrator's.
 * On another user's, the `users` permission. Like {@link assertMayChange}, asked before the input is read.
 */
export function assertMaySetTwoFactor(actor: Actor, id: number, settings: Record<string, unknown>): void {
  if (id === actor.userId) {
    // A null argument is one not given (GraphQL), as the service reads it.
    const required = settings.two_factor_enrolment_required;
    if ((required !== undefined && required !== null) || settings.two_factor_enabled === false)
      throw forbidden(
        [],
        'turn your own two-factor off on the two-factor screen, with a code; another administrator resets it or requires enrolment',
      );
    return;
  }
  if (!holdsAny(actor, USERS_PERMISSION)) throw forbidden(USERS_PERMISSION);
}
