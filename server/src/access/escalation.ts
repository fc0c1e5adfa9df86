import { actOnRefusal, editRoleRefusal, grantRefusal, type Grant, type Refusal } from '../../../src/domain/escalation';
import { forbidden } from '../base/domain-error';
import type { Actor } from './caller';

/**
 * No way up (docs/security.md, Who may do what): nobody ends with a permission it did not hold, nor makes
 * a user that holds one. The rules are src/domain/escalation.ts, which the SPA applies too; the services
 * ask them here once they have read the stored data they need (the target user's role, the role given,
 * a role's permissions before and after a change), under the rows' locks. Each refusal is a 403 with a
 * reason a person can act on, naming the permissions missing. It names no `required_permission`: that
 * field lists permissions any one of which would allow the call, and here only holding all of them would.
 */

export type RoleGrant = Grant & { id: number };

/** A user acted on: its id and role. */
export interface TargetUser {
  id: number;
  role: RoleGrant;
}

const subjectOf = (actor: Actor) => ({
  role: actor.role,
  routes: actor.permissions,
  userId: actor.userId,
  roleId: actor.roleId,
});

function refuse(refusal: Refusal | null, what: { lacks: string; administrador: string }): void {
  if (refusal === null) return;
  if (refusal.kind === 'own-role') throw forbidden([], "you cannot change your own role's permissions");
  if (refusal.kind === 'administrador-only') throw forbidden([], what.administrador);
  throw forbidden([], `${what.lacks}: ${refusal.missing.join(', ')}`);
}

/**
 * Giving `role` to a user (creating one, or changing its role): only an administrador gives
 * administrador, and anyone else only a role whose every permission it holds itself.
 */
export function assertMayGrant(actor: Actor, role: RoleGrant): void {
  refuse(grantRefusal(subjectOf(actor), role), {
    administrador: 'only an administrador may make another user administrador',
    lacks: 'the role grants permissions you do not hold',
  });
}

/**
 * Acting on another user (its password, two-factor, e-mail, role, block, delete, sessions, links): the
 * actor holds every permission the target holds, and only an administrador acts on an administrador.
 * Acting on oneself is not this rule's (each operation has its own: nobody blocks, deletes or re-roles itself).
 */
/** Whether `actor` may act on `target` (the rule {@link assertMayActOn} enforces), for lists that show only those. */
export function mayActOn(actor: Actor, target: TargetUser): boolean {
  return actOnRefusal(subjectOf(actor), { userId: target.id, role: target.role }) === null;
}

export function assertMayActOn(actor: Actor, target: TargetUser): void {
  refuse(actOnRefusal(subjectOf(actor), { userId: target.id, role: target.role }), {
    administrador: 'only an administrador may change an administrador',
    lacks: 'this user holds permissions you do not hold',
  });
}

/** Nobody changes its own role, whatever it holds (an administrador included: another one must). */
export function assertNotOwnRole(actor: Actor, targetUserId: number, roleId: number, currentRoleId: number): void {
  if (targetUserId === actor.userId && roleId !== currentRoleId)
    throw forbidden([], 'you cannot change your own role; another administrator must');
}

/**
 * Changing a role's permissions from `before` to `after`: never the actor's own role (it would raise
 * itself), and only permissions the actor holds, added or removed (a role stripped of what the actor
 * lacks would bring its holders within the actor's reach: src/domain/escalation.ts).
 */
export function assertMayEditRole(
  actor: Actor,
  role: { id: number },
  before: Iterable<string>,
  after: Iterable<string>,
): void {
  refuse(editRoleRefusal(subjectOf(actor), role, before, after), {
    administrador: 'only an administrador may do this',
    lacks: 'you cannot give or take away permissions you do not hold',
  });
}
