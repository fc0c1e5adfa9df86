import type { UserRow } from '../users/users-actors';

/** A users-list row with plausible values; override what a test cares about. */
export const userRow = (id: number, over: Partial<UserRow> = {}): UserRow => ({
  id,
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
