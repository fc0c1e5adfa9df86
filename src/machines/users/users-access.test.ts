import type { Subject } from '../../domain/escalation';
import { roleRows, userRow } from '../test-support/user-fixtures';
import { actOnRefusalOf, grantableRoles, grantRefusalOf, isSelf } from './users-access';

const [administrador, operador, supervisor] = roleRows as [
  (typeof roleRows)[number],
  (typeof roleRows)[number],
  (typeof roleRows)[number],
];
/** A users-only manager: holds `users` and nothing else. */
const manager: Subject = { role: 'gerente', routes: ['users'], userId: 7, roleId: 9 };
const admin: Subject = { role: 'administrador', routes: [], userId: 1, roleId: 1 };
const asRow = (role: typeof administrador) => ({ id: role.id, name: role.name, display_name: role.display_name });

describe('users access: the no-way-up rules as the users screen applies them', () => {
  it('refuses acting on an administrador and on a user holding routes the manager lacks, each with its reason', () => {
    const access = { subject: manager, roles: roleRows };
    expect(actOnRefusalOf(access, userRow(2, { role: asRow(administrador) }))).toBe('access.actOnAdministrador');
    expect(actOnRefusalOf(access, userRow(3, { role: asRow(operador) }))).toBe('access.actOnLacks');
    // Its own row is never refused by this rule; a user whose role holds only what the manager holds is allowed.
    expect(actOnRefusalOf(access, userRow(7, { role: asRow(supervisor) }))).toBeNull();
    const usersOnly = { ...operador, id: 4, name: 'atendente', has_permission_routes: ['users'] };
    expect(
      actOnRefusalOf({ subject: manager, roles: [...roleRows, usersOnly] }, userRow(5, { role: asRow(usersOnly) })),
    ).toBeNull();
  });

  it('lets an administrador act on anyone, and refuses nothing while the signed-in user is not known', () => {
    const target = userRow(2, { role: asRow(administrador) });
    expect(actOnRefusalOf({ subject: admin, roles: roleRows }, target)).toBeNull();
    expect(actOnRefusalOf({ subject: null, roles: roleRows }, target)).toBeNull();
  });

  it('offers only the roles the signed-in user may give, keeping the edited user own role', () => {
    const access = { subject: { ...manager, routes: ['dashboard-analytics', 'users'] }, roles: roleRows };
    expect(grantableRoles(access).map((r) => r.name)).toEqual(['operador', 'supervisor']);
    expect(grantRefusalOf(access, administrador)).toBe('access.grantAdministrador');
    expect(grantRefusalOf({ subject: manager, roles: roleRows }, operador)).toBe('access.grantLacks');
    expect(grantableRoles({ subject: manager, roles: roleRows }).map((r) => r.name)).toEqual([]);
    expect(grantableRoles({ subject: manager, roles: roleRows }, 2).map((r) => r.name)).toEqual(['operador']);
    expect(grantableRoles({ subject: admin, roles: roleRows })).toEqual(roleRows);
  });

  it('knows the signed-in user own record', () => {
    expect(isSelf({ subject: manager }, 7)).toBe(true);
    expect(isSelf({ subject: manager }, 8)).toBe(false);
    expect(isSelf({ subject: null }, 7)).toBe(false);
    expect(isSelf({ subject: manager }, null)).toBe(false);
  });
});
