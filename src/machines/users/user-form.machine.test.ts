import fc from 'fast-check';
import { createActor } from 'xstate';
import { GraphqlError } from '../../api/graphql-client';
import { passwordStrength } from '../../domain/password-strength';
import {
  isOwnRecord,
  passwordProblem,
  selectRoleField,
  unsavedFields,
  userFormMachine,
  validateUserForm,
  type UserFormEvent,
} from './user-form.machine';
import type { UserFormOptions } from './users-actors';
import { roleRows, userRow } from '../test-support/user-fixtures';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  idleCallback,
  type GraphEvent,
} from '../test-support/graph-coverage';
import { fakeServer, flush, gqlData, gqlError, json, operationOf } from '../test-support/fake-fetch';
import { createAppBus, type BusMessageOf } from '../shared/app-bus';
import { mergeCoverage } from '../test-support/merge-coverage';
import { usersPageOf } from '../test-support/users-page';

const options: UserFormOptions = {
  roles: [{ id: 2, name: 'operador', display_name: 'Operador', has_permission_routes: [] }],
  departments: [{ id: 1, name: 'Atendimento', activated: true }],
  instances: [{ id: 2, name: 'WhatsApp Loja 2', activated: true }],
  links: [{ id: 10, instance: { id: 1, name: 'WhatsApp Loja 1', activated: true } }],
};
const STRONG = 'Fa#rm@c1a-Boa';
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('userFormMachine: model coverage (create and edit)', () => {
  const machine = userFormMachine.provide({
    actors: {
      loadFormOptions: heldPromise(),
      createUser: heldPromise(),
      updateUser: heldPromise(),
      removeLink: heldPromise(),
      loadUserRow: heldPromise(),
      reloadUser: heldPromise(),
      checkRemote: heldPromise(),
      watchTarget: idleCallback(),
    },
  });
  type Ev = GraphEvent<typeof userFormMachine>;
  const fill: UserFormEvent[] = [
    { type: 'users.form.field', field: 'username', value: 'joana.silva' },
    { type: 'users.form.field', field: 'name', value: 'Joana Silva' },
    { type: 'users.form.field', field: 'email', value: 'joana@demo.local' },
    { type: 'users.form.field', field: 'password', value: STRONG },
    { type: 'users.form.role', roleId: 2 },
  ];
  const loaded: Ev[] = [
    doneEvent('loadFormOptions', options),
    errorEvent('loadFormOptions', new Error('offline')),
    { type: 'users.form.reload' },
  ];
  const editing: Ev[] = [
    { type: 'users.form.field', field: 'password', value: 'aaa' },
    { type: 'users.form.department', departmentId: 1 },
    { type: 'users.form.toggleInstance', instanceId: 2 },
    { type: 'users.form.submit' },
  ];
  const calls: Ev[] = [
    { type: 'users.form.removeLink', linkId: 10 },
    doneEvent('removeLink'),
    errorEvent('removeLink', new GraphqlError(200, [{ message: 'x', extensions: { code: 'NOT_FOUND', field: 'id' } }])),
    doneEvent('createUser', userRow(9)),
    errorEvent(
      'createUser',
      new GraphqlError(200, [{ message: 'x', extensions: { code: 'BAD_USER_INPUT', field: 'email' } }]),
    ),
    doneEvent('updateUser', userRow(3)),
    errorEvent('updateUser', new GraphqlError(403, [{ message: 'x', extensions: { code: 'FORBIDDEN' } }])),
    doneEvent('resync', { ...userRow(3), version: 5 }),
    errorEvent('resync', new Error('offline')),
  ];
  /** The edited user at version 4 changed elsewhere to version 5 (src/machines/shared/conflict.ts). */
  const versioned = { ...userRow(3), version: 4 };
  const theirs = { ...userRow(3, { name: 'Outro Nome' }), version: 5 };
  const conflicts: Ev[] = [
    errorEvent(
      'updateUser',
      new GraphqlError(200, [{ message: 'stale', extensions: { code: 'STALE', version: 5, changes: [] } }]),
    ),
    { type: 'conflict.remote', id: 41, version: null },
    { type: 'conflict.remote', id: 40, version: 4 },
    doneEvent('checkRemote', { record: theirs, version: 5, newer: true, changes: [] }),
    doneEvent('checkRemote', { record: versioned, version: 4, newer: false, changes: [] }),
    errorEvent('checkRemote', new Error('offline')),
    { type: 'conflict.reapply' },
    { type: 'conflict.discard' },
    { type: 'conflict.dismiss' },
    doneEvent('reloadUser', { user: theirs, options }),
    errorEvent('reloadUser', new Error('offline')),
    { type: 'users.form.role', roleId: 2 },
    { type: 'users.form.removeLink', linkId: 10 },
    doneEvent('removeLink'),
    doneEvent('resync', { ...userRow(3), version: 5 }),
    errorEvent('resync', new Error('offline')),
  ];
  const pick = (...at: number[]): Ev[] => at.map((i) => conflicts[i] as Ev);
  // `valid` reads which fields are refused, `knownLink` the links: both are part of the graph's key.
  const serializeContext = (context: {
    values: Parameters<typeof validateUserForm>[0];
    mode: 'create' | 'edit';
    links: { id: number }[];
  }) => [Object.keys(validateUserForm(context.values, context.mode)).sort(), context.links.map((link) => link.id)];

  it('reaches every state and transition over both modes with shortest, simple and per-edge paths', async () => {
    const create = await exploreCoverage({
      machine,
      input: () => ({ execute: unused.execute, mode: 'create' as const }),
      events: [...loaded, ...fill, ...editing, ...calls],
      serializeContext,
      simpleScenarios: [
        { events: loaded },
        { prefix: [loaded[0] as Ev, ...fill], events: [...editing.slice(0, 1), ...editing.slice(3), ...calls] },
      ],
    });
    const edit = await exploreCoverage({
      machine,
      input: () => ({ execute: unused.execute, mode: 'edit' as const, user: userRow(3) }),
      events: [...loaded, ...editing, ...calls],
      serializeContext,
      simpleScenarios: [{ prefix: [loaded[0] as Ev], events: [...editing.slice(1), ...calls] }],
    });
    // A form with one unsaved change (its e-mail made invalid, so the reapplied save is refused locally
    // too) meets a stale save and a change announced from elsewhere, and both choices.
    const conflict = await exploreCoverage({
      machine,
      input: () => ({ execute: unused.execute, mode: 'edit' as const, user: versioned }),
      events: [...loaded, ...editing, { type: 'users.form.field', field: 'name', value: '' }, ...conflicts],
      serializeContext: (context) => [
        ...serializeContext(context),
        context.remoteIds.length > 0,
        context.conflict !== null,
        context.values.name,
      ],
      simpleScenarios: [
        // A stale save, then each choice.
        {
          prefix: [loaded[0] as Ev, { type: 'users.form.field', field: 'name', value: 'Meu Nome' }],
          events: [{ type: 'users.form.submit' }, ...pick(0, 6, 7, 9, 10)],
        },
        // A change announced from elsewhere, with or without the form's own edits.
        {
          prefix: [loaded[0] as Ev, { type: 'users.form.field', field: 'name', value: 'Meu Nome' }],
          events: [{ type: 'users.form.reload' }, ...pick(1, 2, 3, 4, 5, 8)],
        },
        { prefix: [loaded[0] as Ev], events: pick(1, 2, 3, 4, 5, 8) },
        // Invalid values while checking, removing links and taking the version back.
        {
          prefix: [loaded[0] as Ev, { type: 'users.form.field', field: 'name', value: '' }],
          events: [{ type: 'users.form.submit' }, ...pick(1, 2, 4, 11, 12, 13, 14, 15)],
        },
        // Reapplied values the local checks refuse go back to the form.
        {
          prefix: [
            loaded[0] as Ev,
            { type: 'users.form.field', field: 'email', value: 'x' },
            { type: 'conflict.remote', id: 41, version: null },
            conflicts[3] as Ev,
          ],
          events: pick(6, 9),
        },
      ],
    });
    const report = mergeCoverage(create, edit, conflict);
    assertFullCoverage(report);
    console.info(`userFormMachine: ${formatCoverage(report)}`);
  });
});

describe('password rule (weak refused with a reason)', () => {
  it('refuses exactly the passwords the shared scorer calls weak, saying why (1000 runs)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 16 }), (password) => {
        const problem = passwordProblem(password);
        expect(problem !== null).toBe(passwordStrength(password) === 50);
        if (problem)
          expect(problem).toBe(
            Array.from(password).length < 8 ? 'users.form.passwordTooShort' : 'users.form.passwordWeak',
          );
      }),
      { numRuns: 1000 },
    );
  });

  it('checks the fields locally; the password only when creating', () => {
    const values = {
      username: 'jo',
      name: ' ',
      email: 'x@y',
      password: 'abc12345',
      role_id: null,
      user_department_id: null,
    };
    expect(validateUserForm(values, 'create')).toEqual({
      username: 'users.form.usernameInvalid',
      name: 'users.form.required',
      email: 'users.form.emailInvalid',
      password: 'users.form.passwordWeak',
      role_id: 'users.form.required',
    });
    expect(validateUserForm({ ...values, password: '' }, 'edit')).not.toHaveProperty('password');
  });
});

describe('userFormMachine: against the GraphQL contract', () => {
  function server(answers: Record<string, () => Response>) {
    return fakeServer((request) => {
      const op = operationOf(request);
      const answer = op && answers[op.name];
      if (!answer) throw new Error(`unexpected ${request.method} ${request.path} ${op?.name ?? ''}`);
      return answer();
    });
  }
  const choices = {
    roles: () => gqlData({ roles: options.roles }),
    departments: () => gqlData({ departments: options.departments }),
    instances: () => gqlData({ instances: options.instances }),
  };

  it('creates: loads choices, meters the password, refuses a weak one, then sends newUser', async () => {
    const fake = server({ ...choices, newUser: () => gqlData({ newUser: userRow(9) }) });
    const actor = createActor(userFormMachine, { input: { execute: fake.execute, mode: 'create' } }).start();
    await flush();
    expect(fake.seen.map((r) => operationOf(r)?.name).sort()).toEqual(['departments', 'instances', 'roles']);
    expect(operationOf(fake.seen.find((r) => operationOf(r)?.name === 'instances')!)?.variables).toEqual({
      remove_ids: [],
    });
    const send = (event: UserFormEvent) => actor.send(event);
    send({ type: 'users.form.field', field: 'username', value: 'joana.silva' });
    send({ type: 'users.form.field', field: 'name', value: 'Joana Silva' });
    send({ type: 'users.form.field', field: 'email', value: 'joana@demo.local' });
    send({ type: 'users.form.role', roleId: 2 });
    send({ type: 'users.form.toggleInstance', instanceId: 2 });
    send({ type: 'users.form.field', field: 'password', value: 'abc45678' });
    expect(actor.getSnapshot().context.passwordScore).toBe(50);
    send({ type: 'users.form.submit' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.invalid).toEqual({ password: 'users.form.passwordWeak' });
    send({ type: 'users.form.field', field: 'password', value: STRONG });
    expect(actor.getSnapshot().context.passwordScore).toBe(100);
    expect(actor.getSnapshot().context.invalid).toEqual({});
    send({ type: 'users.form.submit' });
    await flush();
    const create = fake.seen.map(operationOf).find((op) => op?.name === 'newUser');
    expect(create?.variables).toEqual({
      username: 'joana.silva',
      name: 'Joana Silva',
      email: 'joana@demo.local',
      password: STRONG,
      role_id: 2,
      user_department_id: null,
      chosen_instances: [2],
    });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual(userRow(9));
  });

  it('shows the server refusal per field (GraphQL BAD_USER_INPUT field) with users.errors.create', async () => {
    const fake = server({ ...choices, newUser: () => gqlError('BAD_USER_INPUT', 'email') });
    const actor = createActor(userFormMachine, { input: { execute: fake.execute, mode: 'create' } }).start();
    await flush();
    for (const [field, value] of [
      ['username', 'joana'],
      ['name', 'Joana'],
      ['email', 'taken@demo.local'],
      ['password', STRONG],
    ] as const) {
      actor.send({ type: 'users.form.field', field, value });
    }
    actor.send({ type: 'users.form.role', roleId: 2 });
    actor.send({ type: 'users.form.submit' });
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.error).toEqual({ key: 'users.errors.create', reason: 'apiErrors.validation' });
    expect(actor.getSnapshot().context.invalid).toEqual({ email: 'apiErrors.fieldInvalid' });
  });

  it('edits: loads the links, removes one at once, sends the complete instance set with updateUser', async () => {
    const fake = server({
      ...choices,
      userInstances: () =>
        gqlData({
          userInstances: [...options.links, { id: 11, instance: { id: 3, name: 'Loja 3', activated: true } }],
        }),
      deleteUserInstance: () => gqlData({ deleteUserInstance: true }),
      updateUser: () => gqlData({ updateUser: userRow(3, { name: 'Novo Nome' }) }),
    });
    const actor = createActor(userFormMachine, {
      input: { execute: fake.execute, mode: 'edit', user: userRow(3) },
    }).start();
    const outcomes: unknown[] = [];
    actor.on('outcome', (outcome) => outcomes.push(outcome));
    await flush();
    const ops = () => fake.seen.map(operationOf);
    expect(ops().find((op) => op?.name === 'userInstances')?.variables).toEqual({ user_id: 3 });
    expect(ops().find((op) => op?.name === 'instances')?.variables).toEqual({ remove_ids: [1, 3] });
    expect(actor.getSnapshot().context.values).toMatchObject({
      username: 'user3',
      role_id: 2,
      user_department_id: 1,
      password: '',
    });
    actor.send({ type: 'users.form.removeLink', linkId: 10 });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await flush();
    expect(ops().find((op) => op?.name === 'deleteUserInstance')?.variables).toEqual({ id: 10 });
    expect(actor.getSnapshot().context.links.map((l) => l.id)).toEqual([11]);
    expect(actor.getSnapshot().context.instances.map((i) => i.id)).toEqual([1, 2]);
    // The removal applied at once: its outcome names the instance.
    expect(outcomes).toEqual([
      {
        type: 'outcome',
        action: 'removeLink',
        ok: true,
        toast: { variant: 'success', title: { key: 'users.notices.linkRemoved', params: { name: 'WhatsApp Loja 1' } } },
      },
    ]);
    actor.send({ type: 'users.form.toggleInstance', instanceId: 2 });
    actor.send({ type: 'users.form.field', field: 'name', value: 'Novo Nome' });
    actor.send({ type: 'users.form.submit' });
    await flush();
    expect(ops().find((op) => op?.name === 'updateUser')?.variables).toEqual({
      id: 3,
      version: 1,
      username: 'user3',
      name: 'Novo Nome',
      email: 'user3@demo.local',
      role_id: 2,
      user_department_id: 1,
      chosen_instances: [3, 2],
    });
    expect(actor.getSnapshot().output?.name).toBe('Novo Nome');
  });

  it('a failed load can be retried', async () => {
    let fail = true;
    const fake = server({ ...choices, roles: () => (fail ? gqlError('FORBIDDEN', undefined, 403) : choices.roles()) });
    const actor = createActor(userFormMachine, { input: { execute: fake.execute, mode: 'create' } }).start();
    await flush();
    expect(actor.getSnapshot().value).toBe('loadFailed');
    expect(actor.getSnapshot().context.error).toEqual({ key: 'users.errors.formLoad', reason: 'apiErrors.forbidden' });
    fail = false;
    actor.send({ type: 'users.form.reload' });
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');
  });
});

describe('userFormMachine: no way up', () => {
  const roles = roleRows;
  const supervisor = { role: 'supervisor', routes: ['dashboard-analytics', 'users'], userId: 1, roleId: 3 };
  function start(input: { mode: 'create' } | { mode: 'edit'; user: ReturnType<typeof userRow> }) {
    const fake = fakeServer((request) => {
      const name = operationOf(request)?.name;
      if (name === 'roles') return gqlData({ roles });
      if (name === 'departments') return gqlData({ departments: [] });
      if (name === 'instances' || name === 'userInstances')
        return gqlData(name === 'instances' ? { instances: [] } : { userInstances: [] });
      if (name === 'updateUser') return gqlData({ updateUser: userRow(1) });
      throw new Error(`unexpected ${name ?? request.path}`);
    });
    const actor = createActor(userFormMachine, { input: { execute: fake.execute, subject: supervisor, ...input } });
    return { fake, actor: actor.start() };
  }

  it('offers only the roles the signed-in user may give, says so, and refuses another one on submit', async () => {
    const { fake, actor } = start({ mode: 'create' });
    await flush();
    const field = selectRoleField(actor.getSnapshot());
    expect(field.roles.map((r) => r.name)).toEqual(['operador', 'supervisor']);
    expect(field).toMatchObject({ locked: null, narrowed: true });
    for (const [name, value] of [
      ['username', 'joana'],
      ['name', 'Joana'],
      ['email', 'joana@demo.local'],
      ['password', STRONG],
    ] as const)
      actor.send({ type: 'users.form.field', field: name, value });
    actor.send({ type: 'users.form.role', roleId: 1 });
    actor.send({ type: 'users.form.submit' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.invalid).toEqual({ role_id: 'access.grantAdministrador' });
    expect(fake.seen.map((r) => operationOf(r)?.name)).not.toContain('newUser');
    actor.send({ type: 'users.form.role', roleId: 2 });
    expect(actor.getSnapshot().context.invalid).toEqual({});
  });

  it("editing itself, the role is locked with why, and the user's own role goes unchanged", async () => {
    const self = userRow(1, { role: { id: 3, name: 'supervisor', display_name: 'Supervisor' } });
    const { fake, actor } = start({ mode: 'edit', user: self });
    await flush();
    expect(selectRoleField(actor.getSnapshot())).toEqual({
      roles: [roles[2]],
      locked: 'access.ownRole',
      narrowed: false,
    });
    actor.send({ type: 'users.form.role', roleId: 2 });
    actor.send({ type: 'users.form.submit' });
    expect(actor.getSnapshot().context.invalid).toEqual({ role_id: 'access.ownRole' });
    actor.send({ type: 'users.form.role', roleId: 3 });
    actor.send({ type: 'users.form.submit' });
    await flush();
    expect(fake.seen.map(operationOf).find((op) => op?.name === 'updateUser')?.variables).toMatchObject({ role_id: 3 });
  });

  it('editing itself, the e-mail (and a password) stay as stored: they change on the account screen', async () => {
    const self = userRow(1, {
      email: 'eu@demo.local',
      role: { id: 3, name: 'supervisor', display_name: 'Supervisor' },
    });
    const { fake, actor } = start({ mode: 'edit', user: self });
    await flush();
    expect(isOwnRecord(actor.getSnapshot().context)).toBe(true);
    actor.send({ type: 'users.form.field', field: 'email', value: 'outro@demo.local' });
    actor.send({ type: 'users.form.field', field: 'password', value: STRONG });
    actor.send({ type: 'users.form.field', field: 'name', value: 'Eu Mesmo' });
    expect(actor.getSnapshot().context.values).toMatchObject({
      email: 'eu@demo.local',
      password: '',
      name: 'Eu Mesmo',
    });
    actor.send({ type: 'users.form.submit' });
    await flush();
    const variables = fake.seen.map(operationOf).find((op) => op?.name === 'updateUser')?.variables;
    expect(variables).toMatchObject({ name: 'Eu Mesmo', email: 'eu@demo.local' });
    expect(variables).not.toHaveProperty('password');
    expect(variables).not.toHaveProperty('current_password');
  });

  it("another user's e-mail, and a new user's, change in the form", async () => {
    const other = start({ mode: 'edit', user: userRow(2, { email: 'ana@demo.local' }) });
    await flush();
    expect(isOwnRecord(other.actor.getSnapshot().context)).toBe(false);
    other.actor.send({ type: 'users.form.field', field: 'email', value: 'ana.souza@demo.local' });
    other.actor.send({ type: 'users.form.submit' });
    await flush();
    expect(other.fake.seen.map(operationOf).find((op) => op?.name === 'updateUser')?.variables).toMatchObject({
      id: 2,
      email: 'ana.souza@demo.local',
    });
    const created = start({ mode: 'create' });
    await flush();
    expect(isOwnRecord(created.actor.getSnapshot().context)).toBe(false);
    created.actor.send({ type: 'users.form.field', field: 'email', value: 'nova@demo.local' });
    expect(created.actor.getSnapshot().context.values.email).toBe('nova@demo.local');
  });
});

describe('userFormMachine: no lost update (docs/lists.md, Conflict notice)', () => {
  /** The edited user as a server with versions keeps it: `updateUser` with an old version answers STALE. */
  function versionedServer() {
    let user = { ...userRow(3), version: 4 };
    const changes: unknown[] = [];
    const updates: Record<string, unknown>[] = [];
    const fake = fakeServer((request) => {
      const op = operationOf(request);
      switch (op?.name) {
        case 'roles':
          return gqlData({ roles: roleRows });
        case 'departments':
          return gqlData({ departments: [...options.departments, { id: 2, name: 'Vendas', activated: true }] });
        case 'instances':
          return gqlData({ instances: options.instances });
        case 'userInstances':
          return gqlData({ userInstances: user.userInstances });
        case 'usersPage':
          return gqlData(usersPageOf([userRow(1), user], op.variables));
        case 'auditRecords':
          return gqlData({ auditRecords: { data: [...changes].reverse(), next: null } });
        case 'updateUser': {
          updates.push(op.variables);
          if (op.variables.version !== user.version)
            return json(200, {
              data: null,
              errors: [{ message: 'stale', extensions: { code: 'STALE', version: user.version, changes } }],
            });
          user = { ...user, name: String(op.variables.name), version: user.version + 1 };
          return gqlData({ updateUser: user });
        }
      }
      throw new Error(`unexpected ${op?.name ?? request.path}`);
    });
    /** Someone else moves the user to department 2 (version 5). */
    const otherChanges = () => {
      user = { ...user, userDepartment: { id: 2, name: 'Vendas', activated: true }, version: user.version + 1 };
      changes.push({
        id: 70,
        at: '2026-11-28T10:00:00.000Z',
        actor_name: 'Bruna Souza',
        actor_staff: false,
        operation: 'user.update',
        version: user.version,
        changes: [{ field: 'department_id', before: '1', after: '2' }],
      });
    };
    return { fake, updates, otherChanges, user: () => user };
  }

  it("a stale save opens the notice with the other change; reapply keeps theirs and the user's, sent with the new version", async () => {
    const server = versionedServer();
    const actor = createActor(userFormMachine, {
      input: { execute: server.fake.execute, mode: 'edit', user: server.user() },
    }).start();
    await flush();
    actor.send({ type: 'users.form.field', field: 'name', value: 'Nome Novo' });
    server.otherChanges();
    actor.send({ type: 'users.form.submit' });
    await flush();
    expect(actor.getSnapshot().value).toBe('conflict');
    expect(actor.getSnapshot().context.conflict).toMatchObject({
      source: 'save',
      kept: true,
      version: 5,
      changes: [{ id: 70, actorName: 'Bruna Souza', changes: [{ field: 'department_id', before: '1', after: '2' }] }],
    });
    expect(unsavedFields(actor.getSnapshot().context)).toEqual([
      { field: 'name', before: '"User 3"', after: '"Nome Novo"' },
    ]);
    expect(server.updates.at(-1)).toMatchObject({ version: 4, name: 'Nome Novo', user_department_id: 1 });
    actor.send({ type: 'conflict.reapply' });
    await flush();
    // Their department and my name, with version 5: nothing lost.
    expect(server.updates.at(-1)).toMatchObject({ version: 5, name: 'Nome Novo', user_department_id: 2 });
    expect(actor.getSnapshot().status).toBe('done');
    expect(server.user()).toMatchObject({ name: 'Nome Novo', userDepartment: { id: 2 }, version: 6 });
  });

  it('a change announced while the form holds edits opens the notice at once; discard shows the user as stored', async () => {
    const server = versionedServer();
    const bus = createAppBus();
    const actor = createActor(userFormMachine, {
      input: { execute: server.fake.execute, mode: 'edit', user: server.user(), bus },
    }).start();
    await flush();
    actor.send({ type: 'users.form.field', field: 'name', value: 'Nome Novo' });
    server.otherChanges();
    bus.publish({
      name: 'auditRecorded',
      tenantName: 'backoffice',
      sentAt: '2026-11-28T10:00:00.000Z',
      data: {
        id: 70,
        at: '2026-11-28T10:00:00.000Z',
        operation: 'user.update',
        targetType: 'user',
        targetId: 3,
        targetName: 'User 3',
        targetVersion: 5,
      } as BusMessageOf<'auditRecorded'>['data'],
    });
    await flush();
    expect(actor.getSnapshot().value).toBe('conflict');
    expect(actor.getSnapshot().context.conflict).toMatchObject({ source: 'live', kept: true, version: 5 });
    expect(actor.getSnapshot().context.conflict?.changes.map((c) => c.id)).toEqual([70]);
    actor.send({ type: 'conflict.discard' });
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context).toMatchObject({
      version: 5,
      conflict: null,
      values: { name: 'User 3', user_department_id: 2 },
    });
    expect(server.updates).toEqual([]);
  });
});
