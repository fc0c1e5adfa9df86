import type { Role, UserRow } from '../users/users-actors';

/** A users-list row with plausible values; override what a test cares about. */
export const userRow = (id: number, over: Partial<UserRow> = {}): UserRow => ({
  id,
  version: 1,
  name: `User ${id}`,
  username: `user${id}`,
  email: `user${id}@demo.local`,
  image: null,
  isConnected: false,
  blocked: false,
  twoFactorEnabled: false,
  twoFactorEnrolmentRequired: false,
  role: { id: 2, name: 'operador', display_name: 'Operador' },
  userDepartment: { id: 1, name: 'Atendimento', activated: true },
  userInstances: [{ id: 10, instance: { id: 1, name: 'WhatsApp Loja 1', activated: true } }],
  ...over,
});

/**
 * Roles as GraphQL `roles` lists them, with their routes: the administrador holds every route, the
 * operador a dashboard, the supervisor users and the dashboard (a users-only manager's may hold less).
 */
export const roleRows: Role[] = [
  {
    id: 1,
    name: 'administrador',
    display_name: 'Administrador',
    has_permission_routes: ['dashboard-analytics', 'roles-edit', 'roles-list', 'tenants', 'users'],
  },
  { id: 2, name: 'operador', display_name: 'Operador', has_permission_routes: ['dashboard-analytics'] },
  { id: 3, name: 'supervisor', display_name: 'Supervisor', has_permission_routes: ['dashboard-analytics', 'users'] },
];
