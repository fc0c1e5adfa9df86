import { actOnRefusal, grantRefusal, type Grant, type Subject } from '../../domain/escalation';
import type { I18nKey } from '../../domain/i18n-key';
import { refusalKey } from '../shared/access';
import type { Role, UserRow } from './users-actors';

/**
 * The no-way-up rules (src/domain/escalation.ts) as the users screen applies them, so it offers nothing
 * the server would refuse: which rows the signed-in user may act on, and which roles it may give. A
 * null subject (the signed-in user not known yet) refuses nothing here; the server still decides.
 */

/** What the rules need of the screen: who is signed in and every role with its routes. */
export interface UsersAccess {
  subject: Subject | null;
  roles: readonly Role[];
}

const grantOf = (role: Pick<Role, 'name' | 'has_permission_routes'>): Grant => ({
  name: role.name,
  routes: role.has_permission_routes,
});

/**
 * Why the signed-in user may not act on `user` (edit, rename, change its e-mail or instances, block,
 * unblock, two-factor, disconnect, delete), as an i18n key; null when it may. Its own row is never
 * refused by this rule (each action has its own rule about oneself).
 */
export function actOnRefusalOf(access: UsersAccess, user: Pick<UserRow, 'id' | 'role'>): I18nKey | null {
  if (access.subject === null) return null;
  const role = access.roles.find((r) => r.id === user.role.id);
  const grant = role ? grantOf(role) : { name: user.role.name, routes: [] };
  return refusalKey('actOn', actOnRefusal(access.subject, { userId: user.id, role: grant }));
}

/** Why the signed-in user may not give `role` to a user, or null when it may. */
export function grantRefusalOf(
  access: UsersAccess,
  role: Pick<Role, 'name' | 'has_permission_routes'>,
): I18nKey | null {
  if (access.subject === null) return null;
  return refusalKey('grant', grantRefusal(access.subject, grantOf(role)));
}

/** The roles the signed-in user may give, in the list's order, plus `keep` (the edited user's own role). */
export function grantableRoles(access: UsersAccess, keep: number | null = null): Role[] {
  return access.roles.filter((role) => role.id === keep || grantRefusalOf(access, role) === null);
}

/** Whether `user` is the signed-in user (its role cannot change: another administrator must). */
export const isSelf = (access: Pick<UsersAccess, 'subject'>, userId: number | null): boolean =>
  userId !== null && access.subject?.userId === userId;
