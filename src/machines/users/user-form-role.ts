import type { I18nKey } from '../../domain/i18n-key';
import type { UserFormContext } from './user-form.machine';
import { grantableRoles, grantRefusalOf, isSelf } from './users-access';

/**
 * The role of the user form under the no-way-up rules (src/domain/escalation.ts, users-access.ts): the
 * roles offered, why the field is locked, why a choice is refused. The form machine refuses a submit
 * with a role problem on the field, as the server would with a 403.
 */

/**
 * Why the chosen role cannot be given (src/domain/escalation.ts, as the server refuses it): one's own
 * role never changes, and a new role must be one the signed-in user may give. Null when it can.
 */
export function roleProblem(
  context: Pick<UserFormContext, 'values' | 'mode' | 'userId' | 'subject' | 'storedRoleId' | 'roles'>,
): I18nKey | null {
  const roleId = context.values.role_id;
  if (roleId === null || roleId === context.storedRoleId) return null;
  if (context.mode === 'edit' && isSelf(context, context.userId)) return 'access.ownRole';
  const role = context.roles.find((r) => r.id === roleId);
  return role ? grantRefusalOf(context, role) : null;
}

export interface RoleField {
  /** The roles offered: those the signed-in user may give, and the edited user's own. */
  roles: UserFormContext['roles'];
  /** Why the role cannot change at all (editing oneself), shown on the disabled field; else null. */
  locked: I18nKey | null;
  /** Some roles are left out because the signed-in user may not give them (the field says so). */
  narrowed: boolean;
}

/** The role picker as the form shows it (users-access.ts). */
export function selectRoleField(snapshot: { context: UserFormContext }): RoleField {
  const { context } = snapshot;
  const locked = context.mode === 'edit' && isSelf(context, context.userId) ? ('access.ownRole' as const) : null;
  const roles = locked
    ? context.roles.filter((r) => r.id === context.storedRoleId)
    : grantableRoles(context, context.storedRoleId);
  return { roles, locked, narrowed: locked === null && roles.length < context.roles.length };
}

/** Compares two role fields by what they show. */
export const sameRoleField = (a: RoleField, b: RoleField): boolean =>
  a.locked === b.locked &&
  a.narrowed === b.narrowed &&
  a.roles.length === b.roles.length &&
  a.roles.every((role, i) => role === b.roles[i]);
