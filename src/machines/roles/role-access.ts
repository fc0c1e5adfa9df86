import { editRoleRefusal, type Subject } from '../../domain/escalation';
import type { I18nKey } from '../../domain/i18n-key';
import { holdsEveryRoute } from '../../domain/route-access';
import { refusalKey } from '../shared/access';
import type { Role } from './roles.machine';

/**
 * Who may change which permissions of a role, as the role editor applies it so it offers nothing the
 * server refuses: roles are shared by every tenant, so only back-office staff change them
 * (server/src/access/policies.ts `roles`); the administrador role always holds every permission; and
 * no way up (src/domain/escalation.ts): nobody changes its own role, and a permission is added or
 * removed only by someone who holds it. A null subject (the signed-in user not known yet)
 * refuses nothing here; the server still decides.
 */
export interface RoleEditAccess {
  role: Role | null;
  /** The role's routes as stored: what the rule compares a change with. */
  saved: readonly string[];
  subject: Subject | null;
  /** Back-office staff (`originBackoffice`). */
  staff: boolean;
}

/** Why the role's permissions cannot be changed at all, or null when they can. */
export function readOnlyReason(access: RoleEditAccess): I18nKey | null {
  const { role, subject } = access;
  if (role === null) return null;
  if (holdsEveryRoute(role.name)) return 'roles.readOnly';
  if (!access.staff) return 'roles.staffOnly';
  const own = subject === null ? null : editRoleRefusal(subject, role, access.saved, access.saved);
  return own?.kind === 'own-role' ? refusalKey('editRole', own) : null;
}

/** Why `route` cannot be added to the role or taken from it, or null when it can (the editor holds it). */
export function changeRefusal(access: RoleEditAccess, route: string): I18nKey | null {
  if (access.subject === null || access.role === null) return null;
  const saved = access.saved;
  const after = saved.includes(route) ? saved.filter((r) => r !== route) : [...saved, route];
  return refusalKey('editRole', editRoleRefusal(access.subject, access.role, saved, after));
}

/** Why saving `draft` would be refused, or null when the server would take it. */
export function saveRefusal(access: RoleEditAccess, draft: readonly string[]): I18nKey | null {
  if (access.subject === null || access.role === null) return readOnlyReason(access);
  return (
    readOnlyReason(access) ?? refusalKey('editRole', editRoleRefusal(access.subject, access.role, access.saved, draft))
  );
}
