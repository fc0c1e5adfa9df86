import type { Subject } from '../../domain/escalation';
import type { SessionSnapshot } from './session.machine';

/**
 * What the screens need of the session to apply the access rules (docs/security.md, Who may do what):
 * staff or not, and the signed-in user as src/domain/escalation.ts sees it. Apart from
 * session-selectors.ts so the login page, which loads that file, does not carry them.
 */

export { selectIsStaff } from './session-selectors';

/**
 * The signed-in user as the no-way-up rules see it (src/domain/escalation.ts): its role, permitted
 * routes, id and role id. Null while signed out or while the user is not known.
 */
export const selectSubject = (snapshot: SessionSnapshot): Subject | null => {
  const user = snapshot.context.user;
  if (!snapshot.hasTag('authenticated') || user === null) return null;
  return { role: user.role.name, routes: snapshot.context.permittedRoutes, userId: user.id, roleId: user.role.id };
};

/** The compare for {@link selectSubject}: the same user, role and routes is no change. */
export function sameSubject(a: Subject | null, b: Subject | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  const routes = (s: Subject) => [...s.routes].join(' ');
  return a.role === b.role && a.userId === b.userId && a.roleId === b.roleId && routes(a) === routes(b);
}
