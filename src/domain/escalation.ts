/**
 * No way up (docs/security.md, Who may do what): the rules on giving roles, acting on users and editing
 * role permissions, written once. The server refuses with them (server/src/access/escalation.ts) and
 * the SPA hides or disables what they would refuse, so the screen and the server never disagree.
 *
 * Pure: a subject is the signed-in user's role and permitted routes, a role or user as the lists show it.
 */
import { ADMIN_ROLE } from './route-access';

/** Who asks: its role's machine name and the routes it holds (administrador holds every route). */
export interface Subject {
  role: string;
  /** The routes of `has_permission_routes`. */
  routes: Iterable<string>;
  userId?: number;
  roleId?: number;
}

/** A role as the rules see it: its machine name and the routes it grants. */
export interface Grant {
  id?: number;
  name: string;
  routes: Iterable<string>;
}

/** Why a rule refuses: who alone may do it, or the routes the subject lacks. */
export type Refusal = { kind: 'administrador-only' } | { kind: 'lacks'; missing: string[] } | { kind: 'own-role' };

const isAdministrator = (subject: Pick<Subject, 'role'>) => subject.role === ADMIN_ROLE;

function missingOf(subject: Subject, routes: Iterable<string>): string[] {
  const held = new Set(subject.routes);
  return [...new Set(routes)].filter((route) => !held.has(route)).sort();
}

/** Giving `role` to a user: administrador only by an administrador; anyone else only a role within its own routes. */
export function grantRefusal(subject: Subject, role: Grant): Refusal | null {
  if (isAdministrator(subject)) return null;
  if (role.name === ADMIN_ROLE) return { kind: 'administrador-only' };
  const missing = missingOf(subject, role.routes);
  return missing.length > 0 ? { kind: 'lacks', missing } : null;
}

/** Acting on another user holding `role`: the subject holds every route it holds; an administrador only by one. */
export function actOnRefusal(subject: Subject, target: { userId: number; role: Grant }): Refusal | null {
  if (target.userId === subject.userId || isAdministrator(subject)) return null;
  if (target.role.name === ADMIN_ROLE) return { kind: 'administrador-only' };
  const missing = missingOf(subject, target.role.routes);
  return missing.length > 0 ? { kind: 'lacks', missing } : null;
}

/**
 * Changing a role's routes from `before` to `after`: never the subject's own role, and only routes it
 * holds, added or removed. Removing is no freer than adding: a role stripped of what the editor lacks
 * would put its holders within the editor's reach (actOnRefusal), their accounts then taken over.
 */
export function editRoleRefusal(
  subject: Subject,
  role: { id: number },
  before: Iterable<string>,
  after: Iterable<string>,
): Refusal | null {
  if (subject.roleId !== undefined && role.id === subject.roleId) return { kind: 'own-role' };
  if (isAdministrator(subject)) return null;
  const had = new Set(before);
  const has = new Set(after);
  const changed = [...[...has].filter((route) => !had.has(route)), ...[...had].filter((route) => !has.has(route))];
  const missing = missingOf(subject, changed);
  return missing.length > 0 ? { kind: 'lacks', missing } : null;
}
