import type { AppBus } from '../shared/app-bus';
import type { SessionActor } from '../session/session.machine';

/**
 * Live permissions (contracts/socket.md §4.6): when the server says a role's route permissions
 * changed (`rolePermissionsChanged`) and the signed-in user holds that role, the session reloads its
 * profile (`GET /api/auth/userInfo`), so the menu and the route guard follow without a page reload;
 * a page that became forbidden turns into the not-authorized page (the guard re-decides on every
 * session change). Other roles' changes are ignored.
 *
 * @returns the unlink function
 */
export function linkPermissions(session: SessionActor, bus: AppBus): () => void {
  return bus.on('rolePermissionsChanged', (message) => {
    const snapshot = session.getSnapshot();
    if (!snapshot.hasTag('authenticated')) return;
    if (snapshot.context.user?.role.id === message.data.roleId) session.send({ type: 'session.reloadProfile' });
  });
}
