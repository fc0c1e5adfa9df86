import { ADMIN_ROLE, holdsEveryRoute, PERMISSION_ROUTES, type PermissionRoute } from '../../../src/domain/route-access';
import { forbidden } from '../base/domain-error';
import type { Actor } from './caller';

export { ADMIN_ROLE, PERMISSION_ROUTES, type PermissionRoute };

export function isAdministrator(actor: Pick<Actor, 'role'>): boolean {
  return holdsEveryRoute(actor.role);
}

/** Whether the actor holds any of `required` (an empty list: any signed-in user; administrador holds all). */
export function holdsAny(actor: Pick<Actor, 'role' | 'permissions'>, required: readonly string[]): boolean {
  return isAdministrator(actor) || required.length === 0 || required.some((name) => actor.permissions.has(name));
}

/** Whether the actor holds every one of `routes`. */
export function holdsAll(actor: Pick<Actor, 'role' | 'permissions'>, routes: Iterable<string>): boolean {
  if (isAdministrator(actor)) return true;
  for (const route of routes) if (!actor.permissions.has(route)) return false;
  return true;
}

/** Back-office staff only (roles are shared by every tenant; plans, limits and billing are the provider's). */
export function requireStaff(actor: Actor, required: readonly string[] = []): void {
  if (!actor.originBackoffice) throw forbidden(required, 'only back-office staff may do this');
}
