import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import { createAppBus, type BusMessageOf } from '../shared/app-bus';
import {
  isDirty,
  permissionGroups,
  rolePermissionsMachine,
  selectConflict,
  selectMine,
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
  idleCallback,
} from '../test-support/graph-coverage';
import type { GraphEvent } from '../test-support/graph-paths';
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
/** A role as a server with versions answers it (docs/lists.md, Versions). */
type Versioned = Role & { version: number };
const operador: Versioned = {
  id: 2,
  name: 'operador',
  display_name: 'Operador',
  has_permission_routes: ['dashboard-analytics'],
  version: 4,
};
/** The role as someone else left it: the report added, at version 5. */
const changed: Versioned = {
  ...operador,
  has_permission_routes: ['dashboard-analytics', 'dashboard-report'],
  version: 5,
};
/** The 409 of a save sent with version 4 after that change. */
const stale = {
  error: 'stale',
  message: 'The role changed since version 4',
  version: 5,
  changes: [
    {
      id: 41,
      at: '2026-11-28T10:00:00.000Z',
      actor_name: 'Bruna Souza',
      operation: 'role.permissions',
      changes: [
        {
          field: 'permissions',
          before: '["dashboard-analytics"]',
          after: '["dashboard-analytics","dashboard-report"]',
        },
      ],
    },
  ],
};
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

type Ev = GraphEvent<typeof rolePermissionsMachine>;
const loadedEvent: Ev = doneEvent('loadRoleEditor', { role: operador, categories });
const editorEvents: Ev[] = [
  loadedEvent,
  errorEvent('loadRoleEditor', new ApiError(404, null)),
  { type: 'roles.reload' },
  { type: 'roles.toggle', routeName: 'users' },
  { type: 'roles.toggleCategory', category: 'dashboard', enabled: false },
  { type: 'roles.reset' },
  { type: 'roles.save' },
  doneEvent('savePermissions', { ...operador, has_permission_routes: ['users'], version: 5 }),
  errorEvent('savePermissions', new ApiError(409, null)),
  { type: 'roles.rename', displayName: 'Operador de loja' },
  doneEvent('renameRole', { ...operador, display_name: 'Operador de loja', version: 5 }),
  errorEvent('renameRole', new ApiError(400, null)),
  { type: 'roles.subject', subject: { role: 'supervisor', routes: ['users'], userId: 5, roleId: 3 } },
];
const conflictEvents: Ev[] = [
  errorEvent('savePermissions', new ApiError(409, stale)),
  { type: 'conflict.remote', id: 41, version: null },
  // The form's own save, told by the event's version: not news.
  { type: 'conflict.remote', id: 42, version: 4 },
  doneEvent('checkRemote', { record: changed, version: 5, newer: true, changes: stale.changes }),
  doneEvent('checkRemote', { record: operador, version: 4, newer: false, changes: [] }),
  errorEvent('checkRemote', new TypeError('offline')),
  { type: 'conflict.reapply' },
  { type: 'conflict.discard' },
  { type: 'conflict.dismiss' },
  doneEvent('loadRole', changed),
  errorEvent('loadRole', new ApiError(503, null)),
];

describe('rolePermissionsMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: rolePermissionsMachine.provide({
        actors: {
          loadRoleEditor: heldPromise(),
          savePermissions: heldPromise(),
          renameRole: heldPromise(),
          loadRole: heldPromise(),
          checkRemote: heldPromise(),
          watchTarget: idleCallback(),
        },
      }),
      input: () => ({ rest: unused.rest, roleId: 2, staff: true }),
      events: [...editorEvents, ...conflictEvents],
      simpleScenarios: [
        { events: editorEvents },
        // From a loaded role with one unsaved change: the stale save, the live change, and both choices.
        {
          prefix: [loadedEvent, { type: 'roles.toggle', routeName: 'users' }],
          events: [{ type: 'roles.save' }, { type: 'roles.reset' }, ...conflictEvents],
        },
      ],
      // Guards read dirtiness (draft vs saved), the current display name and whether a change was announced.
      serializeContext: (context) => [
        context.draft,
        context.saved,
        context.role?.display_name ?? null,
        context.remoteIds.length > 0,
        context.conflict !== null,
      ],
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
      version: 4,
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
      expect(t.fake.seen.at(-1)?.body).toEqual({ roleId: 2, permissions: [], version: 4 });
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
      expect(t.fake.seen.at(-1)?.body).toEqual({ roleId: 2, permissions: ['dashboard-report', 'users'], version: 4 });
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

describe('rolePermissionsMachine: no lost update (docs/lists.md, Conflict notice)', () => {
  /**
   * A role kept as the server keeps it: a version raised by every save, a save with an old version
   * refused with 409 `stale` and the audit records since, and the audit log of the role.
   */
  function versionedServer(start: Versioned) {
    let role: Versioned = { ...start };
    const records: {
      id: number;
      at: string;
      actor_name: string;
      operation: string;
      target_version: number;
      changes: unknown[];
    }[] = [];
    const store = (routes: string[], actor: string) => {
      const before = JSON.stringify([...role.has_permission_routes].sort());
      role = { ...role, has_permission_routes: [...routes].sort(), version: role.version + 1 };
      records.push({
        id: 100 + records.length,
        at: `2026-11-28T10:0${records.length}:00.000Z`,
        actor_name: actor,
        operation: 'role.permissions',
        target_version: role.version,
        changes: [{ field: 'permissions', before, after: JSON.stringify(role.has_permission_routes) }],
      });
      return records.at(-1)!;
    };
    const fake = fakeServer((r) => {
      if (r.path === `/api/roles/${role.id}` && r.method === 'GET') return json(200, role);
      if (r.path === '/api/permission/categories') return json(200, categories);
      if (r.path === '/api/audit') {
        const targetId = Number(r.query.get('targetId'));
        return json(200, { data: targetId === role.id ? [...records].reverse() : [], next: null });
      }
      if (r.path === '/api/permission/update') {
        const body = r.body as { permissions: string[]; version?: number };
        if (body.version !== undefined && body.version !== role.version)
          return json(409, {
            error: 'stale',
            message: 'changed',
            version: role.version,
            changes: records.filter((x) => x.target_version > (body.version ?? 0)),
          });
        store(body.permissions, 'Eu');
        return json(200, role);
      }
      throw new Error(`unexpected ${r.method} ${r.path}`);
    });
    return { fake, role: () => role, otherSaves: (routes: string[]) => store(routes, 'Bruna Souza') };
  }

  /** The socket's `AuditRecorded` for the role (contracts/socket.md §3), with the version it produced when told. */
  const announce = (
    bus: ReturnType<typeof createAppBus>,
    id: number,
    targetId = 2,
    targetVersion: number | null = null,
  ) =>
    bus.publish({
      name: 'auditRecorded',
      tenantName: 'backoffice',
      sentAt: '2026-11-28T10:00:00.000Z',
      data: {
        id,
        at: '2026-11-28T10:00:00.000Z',
        operation: 'role.permissions',
        targetType: 'role',
        targetId,
        targetName: 'Operador',
        targetVersion,
      } as BusMessageOf<'auditRecorded'>['data'],
    });

  function start(server: ReturnType<typeof versionedServer>) {
    const bus = createAppBus();
    const actor = createActor(rolePermissionsMachine, {
      input: { rest: server.fake.rest, roleId: 2, staff: true, bus },
    }).start();
    return { bus, actor, ctx: () => actor.getSnapshot().context };
  }

  it('a stale save is refused with the other change shown; reapply lays the edits over it and saves with the new version', async () => {
    const server = versionedServer(operador);
    const t = start(server);
    await flush();
    t.actor.send({ type: 'roles.toggle', routeName: 'users' });
    server.otherSaves(['dashboard-analytics', 'dashboard-report']);
    t.actor.send({ type: 'roles.save' });
    await flush();
    expect(t.actor.getSnapshot().value).toBe('conflict');
    expect(selectConflict(t.actor.getSnapshot())).toEqual({
      source: 'save',
      kept: true,
      version: 5,
      changes: [
        {
          id: 100,
          at: '2026-11-28T10:00:00.000Z',
          actorName: 'Bruna Souza',
          actorStaff: false,
          operation: 'role.permissions',
          changes: [
            {
              field: 'permissions',
              before: '["dashboard-analytics"]',
              after: '["dashboard-analytics","dashboard-report"]',
            },
          ],
        },
      ],
    });
    // The user's values are kept beside it, as stored → edited.
    expect(selectMine(t.actor.getSnapshot())).toEqual([
      { field: 'permissions', before: '["dashboard-analytics"]', after: '["dashboard-analytics","users"]' },
    ]);
    expect(server.role().has_permission_routes).toEqual(['dashboard-analytics', 'dashboard-report']);
    t.actor.send({ type: 'conflict.reapply' });
    await flush();
    // Both changes are kept: theirs (the report) and mine (users), sent with version 5.
    expect(server.fake.seen.filter((r) => r.path === '/api/permission/update').at(-1)?.body).toEqual({
      roleId: 2,
      permissions: ['dashboard-analytics', 'dashboard-report', 'users'],
      version: 5,
    });
    expect(server.role()).toMatchObject({
      has_permission_routes: ['dashboard-analytics', 'dashboard-report', 'users'],
      version: 6,
    });
    expect(t.actor.getSnapshot().value).toBe('editing');
    expect(t.ctx()).toMatchObject({ conflict: null, version: 6, notice: 'roles.notices.saved' });
    expect(isDirty(t.ctx())).toBe(false);
  });

  it('a removal of mine is reapplied as a removal, and discard keeps the current role only', async () => {
    const server = versionedServer({ ...operador, has_permission_routes: ['dashboard-analytics', 'users'] });
    const t = start(server);
    await flush();
    t.actor.send({ type: 'roles.toggle', routeName: 'users' });
    server.otherSaves(['dashboard-analytics', 'dashboard-report', 'users']);
    t.actor.send({ type: 'roles.save' });
    await flush();
    expect(t.actor.getSnapshot().value).toBe('conflict');
    t.actor.send({ type: 'conflict.discard' });
    await flush();
    expect(t.actor.getSnapshot().value).toBe('editing');
    expect(t.ctx()).toMatchObject({
      conflict: null,
      version: 5,
      saved: ['dashboard-analytics', 'dashboard-report', 'users'],
      draft: ['dashboard-analytics', 'dashboard-report', 'users'],
    });
    // Nothing was written by the discard.
    expect(server.role().version).toBe(5);
    t.actor.send({ type: 'roles.toggle', routeName: 'users' });
    server.otherSaves(['dashboard-report', 'users']);
    t.actor.send({ type: 'roles.save' });
    await flush();
    t.actor.send({ type: 'conflict.reapply' });
    await flush();
    expect(server.role()).toMatchObject({ has_permission_routes: ['dashboard-report'], version: 7 });
  });

  it('a change announced while the user has unsaved edits opens the notice at once, before any save', async () => {
    const server = versionedServer(operador);
    const t = start(server);
    await flush();
    t.actor.send({ type: 'roles.toggle', routeName: 'users' });
    const record = server.otherSaves(['dashboard-analytics', 'dashboard-report']);
    announce(t.bus, record.id);
    await flush();
    expect(t.actor.getSnapshot().value).toBe('conflict');
    expect(selectConflict(t.actor.getSnapshot())).toMatchObject({ source: 'live', kept: true, version: 5 });
    expect(selectConflict(t.actor.getSnapshot())?.changes.map((c) => [c.id, c.actorName])).toEqual([
      [100, 'Bruna Souza'],
    ]);
    // The edits wait for the user's choice.
    expect(t.ctx().draft).toEqual(['dashboard-analytics', 'users']);
    t.actor.send({ type: 'roles.toggle', routeName: 'dashboard-report' });
    expect(t.ctx().draft).toEqual(['dashboard-analytics', 'users']);
  });

  it('with nothing unsaved, an announced change reloads the role and only says so', async () => {
    const server = versionedServer(operador);
    const t = start(server);
    await flush();
    announce(t.bus, server.otherSaves(['users']).id);
    await flush();
    expect(t.actor.getSnapshot().value).toBe('editing');
    expect(t.ctx()).toMatchObject({ saved: ['users'], draft: ['users'], version: 5 });
    expect(selectConflict(t.actor.getSnapshot())).toMatchObject({ source: 'live', kept: false });
    t.actor.send({ type: 'conflict.dismiss' });
    expect(t.ctx().conflict).toBeNull();
  });

  it("the form's own save, another role's change and an event during the save are not news", async () => {
    const server = versionedServer(operador);
    const t = start(server);
    await flush();
    announce(t.bus, 999, 3);
    expect(t.actor.getSnapshot().value).toBe('editing');
    t.actor.send({ type: 'roles.toggle', routeName: 'users' });
    t.actor.send({ type: 'roles.save' });
    // The save's own record arrives while it is in flight (without its version, as an older server
    // sends it), and again after it with the version it produced.
    announce(t.bus, 100);
    await flush();
    announce(t.bus, 100, 2, 5);
    await flush();
    expect(t.actor.getSnapshot().value).toBe('editing');
    expect(t.ctx()).toMatchObject({ conflict: null, version: 5, remoteIds: [] });
    expect(server.fake.seen.filter((r) => r.path === '/api/audit')).toHaveLength(0);
    // Told its version, the form's own change costs not even a read of the role.
    const reads = server.fake.seen.length;
    announce(t.bus, 100, 2, 5);
    await flush();
    expect(server.fake.seen.length).toBe(reads);
  });
});
