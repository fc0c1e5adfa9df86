import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import {
  isDirty,
  permissionGroups,
  rolePermissionsMachine,
  selectReadOnly,
  selectShownGroups,
  type PermissionCategory,
} from './role-permissions.machine';
import type { Subject } from '../../domain/escalation';
import type { Role } from './roles.machine';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
} from '../test-support/graph-coverage';
import { fakeServer, flush, json, type SeenRequest } from '../test-support/fake-fetch';

const categories: PermissionCategory[] = [
  {
    category: 'dashboard',
    permissions: [
      { id: 8, route_name: 'dashboard-analytics', display_name: 'Analytics', category: 'dashboard' },
      { id: 9, route_name: 'dashboard-report', display_name: 'Relatório', category: 'dashboard' },
    ],
  },
  {
    category: 'management',
    permissions: [{ id: 1, route_name: 'users', display_name: 'Usuários', category: 'management' }],
  },
];
const operador: Role = {
  id: 2,
  name: 'operador',
  display_name: 'Operador',
  has_permission_routes: ['dashboard-analytics'],
  version: 1,
};
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('rolePermissionsMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: rolePermissionsMachine.provide({
        actors: { loadRoleEditor: heldPromise(), savePermissions: heldPromise(), renameRole: heldPromise() },
      }),
      input: () => ({ rest: unused.rest, roleId: 2, staff: true }),
      events: [
        doneEvent('loadRoleEditor', { role: operador, categories }),
        errorEvent('loadRoleEditor', new ApiError(404, null)),
        { type: 'roles.reload' },
        { type: 'roles.toggle', routeName: 'users' },
        { type: 'roles.toggleCategory', category: 'dashboard', enabled: false },
        { type: 'roles.reset' },
        { type: 'roles.save' },
        doneEvent('savePermissions', { ...operador, has_permission_routes: ['users'] }),
        errorEvent('savePermissions', new ApiError(409, null)),
        { type: 'roles.rename', displayName: 'Operador de loja' },
        doneEvent('renameRole', { ...operador, display_name: 'Operador de loja' }),
        errorEvent('renameRole', new ApiError(400, null)),
        { type: 'roles.subject', subject: { role: 'supervisor', routes: ['users'], userId: 5, roleId: 3 } },
      ],
      // Guards read dirtiness (draft vs saved) and the current display name.
      serializeContext: (context) => [context.draft, context.saved, context.role?.display_name ?? null],
    });
    assertFullCoverage(report);
    console.info(`rolePermissionsMachine: ${formatCoverage(report)}`);
  });
});

describe('rolePermissionsMachine: against the REST contract', () => {
  function setup(
    role: Role,
    respond: (r: SeenRequest) => Response | undefined = () => undefined,
    access: { subject?: Subject | null; staff?: boolean } = {},
  ) {
    const fake = fakeServer((r) => {
      const answer = respond(r);
      if (answer) return answer;
      if (r.path === `/api/roles/${role.id}` && r.method === 'GET') return json(200, role);
      if (r.path === '/api/permission/categories') return json(200, categories);
      throw new Error(`unexpected ${r.method} ${r.path}`);
    });
    const actor = createActor(rolePermissionsMachine, {
      input: { rest: fake.rest, roleId: role.id, staff: true, ...access },
    }).start();
    return { fake, actor, ctx: () => actor.getSnapshot().context };
  }

  it('loads the role and the categories, groups the checklist, tracks dirtiness and saves the exact set', async () => {
    const t = setup(operador, (r) =>
      r.path === '/api/permission/update'
        ? json(200, { ...operador, has_permission_routes: (r.body as { permissions: string[] }).permissions })
        : undefined,
    );
    await flush();
    expect(permissionGroups(t.actor.getSnapshot())).toEqual([
      {
        category: 'dashboard',
        permissions: [
          { routeName: 'dashboard-analytics', displayName: 'Analytics', checked: true, locked: null },
          { routeName: 'dashboard-report', displayName: 'Relatório', checked: false, locked: null },
        ],
        allChecked: false,
        someChecked: true,
        selectable: true,
      },
      {
        category: 'management',
        permissions: [{ routeName: 'users', displayName: 'Usuários', checked: false, locked: null }],
        allChecked: false,
        someChecked: false,
        selectable: true,
      },
    ]);
    t.actor.send({ type: 'roles.toggle', routeName: 'users' });
    t.actor.send({ type: 'roles.toggleCategory', category: 'dashboard', enabled: true });
    t.actor.send({ type: 'roles.toggle', routeName: 'nope' });
    expect(isDirty(t.ctx())).toBe(true);
    t.actor.send({ type: 'roles.save' });
    await flush();
    expect(t.fake.seen.at(-1)?.body).toEqual({
      roleId: 2,
      permissions: ['dashboard-analytics', 'dashboard-report', 'users'],
    });
    expect(isDirty(t.ctx())).toBe(false);
    expect(t.ctx().notice).toBe('roles.notices.saved');
    t.actor.send({ type: 'roles.save' });
    expect(t.actor.getSnapshot().value).toBe('editing');
  });

  it('keeps the edits and shows why when the save fails', async () => {
    const t = setup(operador, (r) =>
      r.path === '/api/permission/update' ? json(404, { message: 'Unknown permission' }) : undefined,
    );
    await flush();
    t.actor.send({ type: 'roles.toggle', routeName: 'dashboard-analytics' });
    t.actor.send({ type: 'roles.save' });
    await flush();
    expect(t.ctx().actionError).toEqual({ key: 'roles.errors.save', reason: 'apiErrors.notFound' });
    expect(t.ctx().draft).toEqual([]);
    expect(isDirty(t.ctx())).toBe(true);
    t.actor.send({ type: 'roles.reset' });
    expect(isDirty(t.ctx())).toBe(false);
  });

  it('renames with PUT /api/roles/{id} and keeps unsaved toggles', async () => {
    const t = setup(operador, (r) =>
      r.method === 'PUT'
        ? json(200, { ...operador, display_name: (r.body as { display_name: string }).display_name })
        : undefined,
    );
    await flush();
    t.actor.send({ type: 'roles.toggle', routeName: 'users' });
    t.actor.send({ type: 'roles.rename', displayName: 'Operador' });
    expect(t.actor.getSnapshot().value).toBe('editing');
    t.actor.send({ type: 'roles.rename', displayName: ' Operador de loja ' });
    await flush();
    expect(t.fake.seen.at(-1)?.body).toEqual({ display_name: 'Operador de loja' });
    expect(t.ctx().role?.display_name).toBe('Operador de loja');
    expect(t.ctx().notice).toBe('roles.notices.renamed');
    expect(t.ctx().draft).toEqual(['dashboard-analytics', 'users']);
  });

  it('leaves the administrador role read-only', async () => {
    const admin: Role = {
      id: 1,
      name: 'administrador',
      display_name: 'Administrador',
      has_permission_routes: ['dashboard-analytics', 'dashboard-report', 'users'],
      version: 1,
    };
    const t = setup(admin);
    await flush();
    t.actor.send({ type: 'roles.toggle', routeName: 'users' });
    t.actor.send({ type: 'roles.toggleCategory', category: 'management', enabled: false });
    t.actor.send({ type: 'roles.save' });
    expect(t.ctx().draft).toEqual(admin.has_permission_routes);
    expect(t.fake.seen).toHaveLength(2);
  });

  describe('no way up', () => {
    /** Staff who hold the dashboard and roles-edit, not `users` nor the report. */
    const editor: Subject = { role: 'editor', routes: ['dashboard-analytics', 'roles-edit'], userId: 5, roleId: 4 };
    const locks = (t: ReturnType<typeof setup>) =>
      selectShownGroups(t.actor.getSnapshot()).flatMap((g) =>
        g.permissions.filter((p) => p.locked).map((p) => [p.routeName, p.locked]),
      );

    it('anyone but staff reads the role: nothing toggles, nothing is sent, the note says who changes roles', async () => {
      const t = setup(operador, undefined, { staff: false, subject: editor });
      await flush();
      expect(selectReadOnly(t.actor.getSnapshot())).toBe('roles.staffOnly');
      t.actor.send({ type: 'roles.toggle', routeName: 'dashboard-analytics' });
      t.actor.send({ type: 'roles.toggleCategory', category: 'dashboard', enabled: false });
      t.actor.send({ type: 'roles.save' });
      expect(isDirty(t.ctx())).toBe(false);
      expect(t.fake.seen).toHaveLength(2);
      expect(locks(t)).toEqual([]);
    });

    it("the editor's own role is read-only: another administrator must change it", async () => {
      const t = setup(operador, undefined, { subject: { ...editor, roleId: operador.id } });
      await flush();
      expect(selectReadOnly(t.actor.getSnapshot())).toBe('access.ownRolePermissions');
      t.actor.send({ type: 'roles.toggle', routeName: 'dashboard-analytics' });
      expect(isDirty(t.ctx())).toBe(false);
    });

    it('a permission the editor lacks cannot be added (locked, with why), only what it holds', async () => {
      const t = setup(
        operador,
        (r) =>
          r.path === '/api/permission/update'
            ? json(200, { ...operador, has_permission_routes: (r.body as { permissions: string[] }).permissions })
            : undefined,
        { subject: editor },
      );
      await flush();
      expect(selectReadOnly(t.actor.getSnapshot())).toBeNull();
      expect(locks(t)).toEqual([
        ['dashboard-report', 'access.permissionLacks'],
        ['users', 'access.permissionLacks'],
      ]);
      t.actor.send({ type: 'roles.toggle', routeName: 'users' });
      expect(t.ctx().draft).toEqual(['dashboard-analytics']);
      // Select-all adds only what the editor may add: nothing here, the analytics box is already on.
      t.actor.send({ type: 'roles.toggleCategory', category: 'dashboard', enabled: true });
      expect(t.ctx().draft).toEqual(['dashboard-analytics']);
      expect(selectShownGroups(t.actor.getSnapshot())[0]).toMatchObject({ allChecked: true, selectable: true });
      expect(selectShownGroups(t.actor.getSnapshot())[1]).toMatchObject({ allChecked: false, selectable: false });
      t.actor.send({ type: 'roles.toggle', routeName: 'dashboard-analytics' });
      t.actor.send({ type: 'roles.save' });
      await flush();
      expect(t.fake.seen.at(-1)?.body).toEqual({ roleId: 2, permissions: [] });
    });

    it('a stored permission the editor lacks stays on: shown checked and locked, select-all leaves it, the save keeps it', async () => {
      const holder: Role = { ...operador, has_permission_routes: ['dashboard-analytics', 'dashboard-report', 'users'] };
      const t = setup(
        holder,
        (r) =>
          r.path === '/api/permission/update'
            ? json(200, { ...holder, has_permission_routes: (r.body as { permissions: string[] }).permissions })
            : undefined,
        { subject: editor },
      );
      await flush();
      // Taking it off would bring the role's holders within the editor's reach (src/domain/escalation.ts).
      expect(locks(t)).toEqual([
        ['dashboard-report', 'access.permissionLacks'],
        ['users', 'access.permissionLacks'],
      ]);
      const shown = () => selectShownGroups(t.actor.getSnapshot());
      expect(shown()[1]?.permissions).toEqual([
        { routeName: 'users', displayName: 'Usuários', checked: true, locked: 'access.permissionLacks' },
      ]);
      t.actor.send({ type: 'roles.toggle', routeName: 'users' });
      t.actor.send({ type: 'roles.toggleCategory', category: 'management', enabled: false });
      expect(t.ctx().draft).toEqual(['dashboard-analytics', 'dashboard-report', 'users']);
      expect(isDirty(t.ctx())).toBe(false);
      // A category with nothing the editor may change offers no select-all.
      expect(shown()[1]).toMatchObject({ allChecked: false, selectable: false });
      // Select-all off in a mixed category takes off only what the editor holds, and on puts it back.
      t.actor.send({ type: 'roles.toggleCategory', category: 'dashboard', enabled: false });
      expect(t.ctx().draft).toEqual(['dashboard-report', 'users']);
      t.actor.send({ type: 'roles.toggleCategory', category: 'dashboard', enabled: true });
      expect(t.ctx().draft).toEqual(['dashboard-analytics', 'dashboard-report', 'users']);
      t.actor.send({ type: 'roles.toggle', routeName: 'dashboard-analytics' });
      t.actor.send({ type: 'roles.save' });
      await flush();
      expect(t.fake.seen.at(-1)?.body).toEqual({ roleId: 2, permissions: ['dashboard-report', 'users'] });
    });

    it('follows the signed-in user: routes it gains can be added at once', async () => {
      const t = setup(operador, undefined, { subject: editor });
      await flush();
      t.actor.send({ type: 'roles.subject', subject: { ...editor, routes: [...editor.routes, 'users'] } });
      expect(locks(t)).toEqual([['dashboard-report', 'access.permissionLacks']]);
      t.actor.send({ type: 'roles.toggle', routeName: 'users' });
      expect(t.ctx().draft).toEqual(['dashboard-analytics', 'users']);
    });
  });

  it('a missing role fails the load with roles.errors.load and can be reloaded', async () => {
    const fake = fakeServer((r) =>
      r.path === '/api/roles/77' ? json(404, { message: 'Role not found' }) : json(200, categories),
    );
    const actor = createActor(rolePermissionsMachine, { input: { rest: fake.rest, roleId: 77 } }).start();
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.loadError).toEqual({ key: 'roles.errors.load', reason: 'apiErrors.notFound' });
    actor.send({ type: 'roles.reload' });
    expect(actor.getSnapshot().value).toBe('loading');
  });
});
