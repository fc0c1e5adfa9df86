import {
  gqlData,
  gqlError,
  json,
  operationOf,
  type Responder,
  type SeenRequest,
} from '../../machines/test-support/fake-fetch';
import type { UserRow } from '../../machines/users/users-actors';
import { usersMatching, usersPageOf } from '../../machines/test-support/users-page';

/**
 * A scripted users backend for the screen's tests: answers the GraphQL and REST calls of the
 * users machines from an in-memory list (`usersPage` and `userIds` with the server's filters, sort and
 * paging, src/machines/test-support/users-page.ts), the way the contract says (409 for a duplicate email and
 * for two-factor on without enrolment). `override` answers one call differently (by GraphQL
 * operation name or `METHOD /path`), e.g. to fail it or hold it open.
 */

export const ROLES = [
  { id: 1, name: 'administrador', display_name: 'Administrador', has_permission_routes: [] },
  { id: 2, name: 'operador', display_name: 'Operador', has_permission_routes: [] },
];
export const DEPARTMENTS = [
  { id: 1, name: 'Atendimento', activated: true },
  { id: 2, name: 'Financeiro', activated: true },
];
export const INSTANCES = [
  { id: 1, name: 'WhatsApp Loja 1', activated: true },
  { id: 2, name: 'WhatsApp Loja 2', activated: true },
  { id: 3, name: 'Instagram', activated: false },
];

export const user = (id: number, over: Partial<UserRow> = {}): UserRow => ({
  id,
  version: 1,
  name: `Pessoa ${id}`,
  username: `pessoa${id}`,
  email: `pessoa${id}@demo.local`,
  image: null,
  isConnected: false,
  blocked: false,
  twoFactorEnabled: false,
  twoFactorEnrolmentRequired: false,
  role: { id: 2, name: 'operador', display_name: 'Operador' },
  userDepartment: DEPARTMENTS[0] ?? null,
  userInstances: [],
  ...over,
});

const restUser = (row: UserRow) => ({
  ...row,
  role: { ...row.role, has_permission_routes: [] },
  tenantName: 'backoffice',
  origin_backoffice: false,
});

export interface FakeUsersApi {
  respond: Responder;
  users: UserRow[];
  /** Users who enrolled an authenticator (two-factor can be turned on for them). */
  enrolled: Set<number>;
  override: Map<string, Responder>;
}

export function fakeUsersApi(initial: UserRow[]): FakeUsersApi {
  const api: FakeUsersApi = {
    users: initial.map((u) => ({ ...u })),
    enrolled: new Set(),
    override: new Map(),
    respond: () => json(500, {}),
  };
  let nextId = 100;
  let nextLink = 500;
  const find = (id: number) => api.users.find((u) => u.id === id);
  const patch = (id: number, change: Partial<UserRow>) => {
    api.users = api.users.map((u) => (u.id === id ? { ...u, ...change } : u));
    return find(id);
  };
  const graphql = (name: string, v: Record<string, unknown>): Response => {
    switch (name) {
      case 'users':
        return gqlData({ users: api.users });
      case 'usersPage':
        return gqlData(usersPageOf(api.users, v));
      case 'onlineUsers':
        return gqlData({ onlineUsers: api.users.filter((u) => u.isConnected) });
      case 'roles':
        return gqlData({ roles: ROLES });
      case 'departments':
        return gqlData({ departments: DEPARTMENTS });
      case 'userInstances':
        return gqlData({ userInstances: find(v['user_id'] as number)?.userInstances ?? [] });
      case 'instances':
        return gqlData({
          instances: INSTANCES.filter((i) => !((v['remove_ids'] as number[] | null) ?? []).includes(i.id)),
        });
      case 'newUser': {
        const chosen = (v['chosen_instances'] as number[]).map((id) => ({
          id: nextLink++,
          instance: INSTANCES.find((i) => i.id === id) ?? INSTANCES[0]!,
        }));
        const role = ROLES.find((r) => r.id === v['role_id']) ?? ROLES[1]!;
        const row = user(nextId++, {
          username: v['username'] as string,
          name: v['name'] as string,
          email: v['email'] as string,
          role: { id: role.id, name: role.name, display_name: role.display_name },
          userDepartment: DEPARTMENTS.find((d) => d.id === v['user_department_id']) ?? null,
          userInstances: chosen,
        });
        api.users = [...api.users, row];
        return gqlData({ newUser: row });
      }
      case 'updateUser': {
        const id = v['id'] as number;
        const current = find(id);
        const ids = v['chosen_instances'] as number[];
        const kept = (current?.userInstances ?? []).filter((link) => ids.includes(link.instance.id));
        const added = ids
          .filter((i) => !kept.some((link) => link.instance.id === i))
          .map((i) => ({ id: nextLink++, instance: INSTANCES.find((x) => x.id === i)! }));
        const role = ROLES.find((r) => r.id === v['role_id']) ?? ROLES[1]!;
        const row = patch(id, {
          name: v['name'] as string,
          email: v['email'] as string,
          username: v['username'] as string,
          role: { id: role.id, name: role.name, display_name: role.display_name },
          userDepartment: DEPARTMENTS.find((d) => d.id === v['user_department_id']) ?? null,
          userInstances: [...kept, ...added],
        });
        return gqlData({ updateUser: row });
      }
      case 'deleteUser':
        api.users = api.users.filter((u) => u.id !== v['id']);
        return gqlData({ deleteUser: true });
      case 'disconnectUser':
        patch(v['user_id'] as number, { isConnected: false });
        return gqlData({ disconnectUser: true });
      case 'deleteUserInstance':
        api.users = api.users.map((u) => ({
          ...u,
          userInstances: u.userInstances.filter((link) => link.id !== v['id']),
        }));
        return gqlData({ deleteUserInstance: true });
      default:
        return gqlError('NOT_FOUND');
    }
  };
  const rest = (r: SeenRequest): Response => {
    if (r.method === 'GET' && r.path === '/api/users/ids') {
      const q = r.query;
      const flag = (name: string) => (q.has(name) ? q.get(name) === 'true' : null);
      const ids = usersMatching(api.users, {
        filter: {
          q: q.get('q'),
          role: q.has('role') ? Number(q.get('role')) : null,
          department: q.get('department'),
          blocked: flag('blocked'),
          online: flag('online'),
          twoFactor: flag('two_factor'),
        },
        sort: { field: q.get('sort') as 'name' | null, direction: q.get('dir') === 'desc' ? 'desc' : 'asc' },
      }).map((u) => u.id);
      return json(200, { ids });
    }
    const id = Number(/\/(\d+)$/.exec(r.path)?.[1]);
    const body = r.body as Record<string, unknown>;
    if (r.method === 'PATCH' && r.path.startsWith('/api/users/'))
      return json(200, restUser(patch(id, { blocked: body['blocked'] as boolean })!));
    if (r.method === 'PATCH' && r.path.startsWith('/api/user-settings/')) {
      const on = body['two_factor_enabled'] as boolean | undefined;
      const required = body['two_factor_enrolment_required'] as boolean | undefined;
      const current = api.users.find((u) => u.id === id);
      if (!current) return json(404, { message: 'User not found' });
      if (on && !api.enrolled.has(id))
        return json(409, { message: 'The user has not enrolled two-factor authentication' });
      if (on !== undefined) patch(id, { twoFactorEnabled: on });
      if (required && current.twoFactorEnabled)
        return json(409, { message: 'Two-factor is already on', field: 'two_factor_enrolment_required' });
      if (required !== undefined) patch(id, { twoFactorEnrolmentRequired: required });
      const stored = api.users.find((u) => u.id === id) ?? current;
      return json(200, {
        user_id: id,
        two_factor_enabled: stored.twoFactorEnabled,
        two_factor_enrolment_required: stored.twoFactorEnrolmentRequired,
      });
    }
    if (r.method === 'PUT' && r.path.startsWith('/api/users/')) {
      if (typeof body['email'] === 'string' && api.users.some((u) => u.id !== id && u.email === body['email']))
        return json(409, { message: 'Email already in use', field: 'email' });
      return json(200, restUser(patch(id, body as Partial<UserRow>)!));
    }
    return json(404, { message: `no fake for ${r.method} ${r.path}` });
  };
  api.respond = (r) => {
    const op = operationOf(r);
    const special = api.override.get(op ? op.name : `${r.method} ${r.path}`);
    if (special) return special(r);
    return op ? graphql(op.name, op.variables) : rest(r);
  };
  return api;
}
