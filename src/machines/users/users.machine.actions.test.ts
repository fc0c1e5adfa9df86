import type { ActorRefFrom } from 'xstate';
import type { userFormMachine } from './user-form.machine';
import type { UserRow } from './users-actors';
import { flush, gqlData, json, operationOf } from '../test-support/fake-fetch';
import { userRow } from '../test-support/user-fixtures';
import { restUser, startUsers, two } from '../test-support/users-machine-fixtures';

describe('usersMachine: against the contracts', () => {
  it('deletes only after confirmation (GraphQL deleteUser) and drops the row', async () => {
    const rows = [userRow(1), two];
    const t = startUsers(
      (r) => {
        if (operationOf(r)?.name !== 'deleteUser') return undefined;
        rows.splice(1, 1);
        return gqlData({ deleteUser: true });
      },
      null,
      { rows },
    );
    await flush();
    t.send({ type: 'users.delete', user: two });
    expect(t.fake.seen.some((r) => operationOf(r)?.name === 'deleteUser')).toBe(false);
    t.send({ type: 'users.confirm' });
    await flush();
    expect(t.fake.seen.map(operationOf).find((op) => op?.name === 'deleteUser')?.variables).toEqual({ id: 2 });
    expect(t.ctx().users.map((u) => u.id)).toEqual([1]);
    // The page is read again after the delete: its rows and total are the server's.
    expect(t.fake.seen.filter((r) => operationOf(r)?.name === 'usersPage')).toHaveLength(2);
    expect(t.ctx().total).toBe(1);
    expect(t.outcomes).toEqual([
      {
        type: 'outcome',
        action: 'delete',
        ok: true,
        toast: { variant: 'success', title: { key: 'users.notices.deleted' }, description: two.name },
      },
    ]);
  });

  it('blocks and unblocks with PATCH /api/users/{id}; a failed unblock says so', async () => {
    let status = 200;
    const rows = [userRow(1), two];
    const t = startUsers(
      (r) => {
        if (r.method !== 'PATCH' || r.path !== '/api/users/2') return undefined;
        if (status !== 200) return json(status, { message: 'Not found' });
        rows[1] = { ...two, blocked: (r.body as { blocked: boolean }).blocked };
        return json(200, restUser(rows[1]));
      },
      null,
      { rows },
    );
    await flush();
    t.send({ type: 'users.block', user: two, blocked: true });
    // Blocking asks first.
    expect(t.actor.getSnapshot().matches({ dialog: { open: 'confirmingBlock' } })).toBe(true);
    t.send({ type: 'users.confirm' });
    await flush();
    expect(t.fake.seen.filter((r) => r.method === 'PATCH').at(-1)?.body).toEqual({ blocked: true });
    expect(t.ctx().users.find((u) => u.id === 2)?.blocked).toBe(true);
    expect(t.outcomes.map((o) => [o.action, o.ok])).toEqual([['block', true]]);
    status = 404;
    t.send({ type: 'users.block', user: two, blocked: false });
    await flush();
    expect(t.fake.seen.filter((r) => r.method === 'PATCH').at(-1)?.body).toEqual({ blocked: false });
    expect(t.outcomes.at(-1)).toEqual({
      type: 'outcome',
      action: 'unblock',
      ok: false,
      toast: {
        variant: 'error',
        title: { key: 'users.errors.unblock' },
        description: { key: 'apiErrors.notFound' },
      },
    });
    expect(t.ctx().actionError).toEqual({ key: 'users.errors.unblock', reason: 'apiErrors.notFound' });
  });

  it('toggles two-factor with PATCH /api/user-settings/{id}', async () => {
    const rows = [userRow(1), two];
    const t = startUsers(
      (r) => {
        if (r.path !== '/api/user-settings/2') return undefined;
        rows[1] = { ...two, twoFactorEnabled: true };
        return json(200, { user_id: 2, two_factor_enabled: true });
      },
      null,
      { rows },
    );
    await flush();
    t.send({ type: 'users.twoFactor', user: two, enabled: true });
    await flush();
    const patch = t.fake.seen.find((r) => r.path === '/api/user-settings/2');
    expect(patch?.method).toBe('PATCH');
    expect(patch?.body).toEqual({ two_factor_enabled: true });
    expect(t.ctx().users.find((u) => u.id === 2)?.twoFactorEnabled).toBe(true);
  });

  it('disconnects with GraphQL disconnectUser and shows the user offline', async () => {
    const rows = [userRow(1), two];
    const t = startUsers(
      (r) => {
        if (operationOf(r)?.name !== 'disconnectUser') return undefined;
        rows[1] = { ...two, isConnected: false };
        return gqlData({ disconnectUser: true });
      },
      null,
      { rows },
    );
    await flush();
    t.send({ type: 'users.disconnect', user: two });
    expect(t.fake.seen.some((r) => operationOf(r)?.name === 'disconnectUser')).toBe(false);
    t.send({ type: 'users.confirm' });
    await flush();
    expect(t.fake.seen.map(operationOf).find((op) => op?.name === 'disconnectUser')?.variables).toEqual({ user_id: 2 });
    expect(t.ctx().users.find((u) => u.id === 2)?.isConnected).toBe(false);
  });

  it('changes the name alone and the email alone: PUT bodies are exactly {name} and {email}', async () => {
    const rows = [userRow(1), two];
    const t = startUsers(
      (r) => {
        if (r.method !== 'PUT') return undefined;
        rows[1] = { ...rows[1]!, ...(r.body as Partial<UserRow>) };
        return json(200, restUser(rows[1]));
      },
      null,
      { rows },
    );
    await flush();
    t.send({ type: 'users.renameOpen', user: two });
    t.send({ type: 'users.rename', name: '  Nome Novo ' });
    await flush();
    t.send({ type: 'users.emailOpen', user: two });
    t.send({ type: 'users.changeEmail', email: 'novo@demo.local' });
    await flush();
    expect(t.fake.seen.filter((r) => r.method === 'PUT').map((r) => [r.path, r.body])).toEqual([
      ['/api/users/2', { name: 'Nome Novo' }],
      ['/api/users/2', { email: 'novo@demo.local' }],
    ]);
    expect(t.ctx().users.find((u) => u.id === 2)).toMatchObject({ name: 'Nome Novo', email: 'novo@demo.local' });
    expect(t.outcomes.map((o) => [o.action, o.ok, o.toast?.title])).toEqual([
      ['rename', true, { key: 'users.notices.renamed' }],
      ['changeEmail', true, { key: 'users.notices.emailChanged' }],
    ]);
    t.send({ type: 'users.renameOpen', user: two });
    t.send({ type: 'users.rename', name: ' ' });
    expect(t.actor.getSnapshot().matches({ dialog: { open: 'renameForm' } })).toBe(true);
    expect(t.ctx().actionError).toEqual({ key: 'users.errors.rename', reason: 'apiErrors.validation' });
    expect(t.fake.seen.filter((r) => r.method === 'PUT')).toHaveLength(2);
  });

  it('keeps a refused quick edit open with its reason; other refusals close the dialog and toast why', async () => {
    const t = startUsers((r) =>
      r.method === 'PUT'
        ? json(409, { message: 'taken', field: 'email' })
        : r.path === '/api/user-settings/2'
          ? json(409, { message: 'not enrolled' })
          : undefined,
    );
    await flush();
    t.send({ type: 'users.emailOpen', user: two });
    t.send({ type: 'users.changeEmail', email: 'ana@demo.local' });
    await flush();
    expect(t.actor.getSnapshot().matches({ dialog: { open: 'emailForm' } })).toBe(true);
    expect(t.ctx().actionError).toEqual({ key: 'users.errors.changeEmail', reason: 'apiErrors.conflict' });
    expect(t.outcomes).toEqual([{ type: 'outcome', action: 'changeEmail', ok: false, toast: null }]);
    t.send({ type: 'users.close' });
    t.send({ type: 'users.twoFactor', user: two, enabled: true });
    await flush();
    expect(t.actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
    expect(t.outcomes.at(-1)).toEqual({
      type: 'outcome',
      action: 'twoFactorOn',
      ok: false,
      toast: {
        variant: 'error',
        title: { key: 'users.errors.twoFactor' },
        description: { key: 'users.twoFactor.notEnrolled', params: { name: two.name } },
      },
    });
  });

  it('opens the form as child userForm and puts the saved user in the list', async () => {
    const rows = [userRow(1), two];
    const t = startUsers(
      (r) => {
        const op = operationOf(r);
        if (op?.name === 'roles')
          return gqlData({ roles: [{ id: 2, name: 'operador', display_name: 'Operador', has_permission_routes: [] }] });
        if (op?.name === 'departments') return gqlData({ departments: [] });
        if (op?.name === 'instances') return gqlData({ instances: [] });
        if (op?.name !== 'newUser') return undefined;
        rows.push(userRow(9));
        return gqlData({ newUser: userRow(9) });
      },
      null,
      { rows },
    );
    await flush();
    t.send({ type: 'users.create' });
    await flush();
    const form = t.actor.getSnapshot().children.userForm as ActorRefFrom<typeof userFormMachine> | undefined;
    expect(form?.getSnapshot().value).toBe('ready');
    for (const [field, value] of [
      ['username', 'nova'],
      ['name', 'Nova'],
      ['email', 'nova@demo.local'],
      ['password', 'Fa#rm@c1a-Boa'],
    ] as const) {
      form?.send({ type: 'users.form.field', field, value });
    }
    form?.send({ type: 'users.form.role', roleId: 2 });
    form?.send({ type: 'users.form.submit' });
    await flush();
    expect(t.actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
    expect(t.ctx().users.map((u) => u.id)).toEqual([1, 2, 9]);
    expect(t.outcomes).toEqual([
      {
        type: 'outcome',
        action: 'create',
        ok: true,
        toast: { variant: 'success', title: { key: 'users.notices.created' } },
      },
    ]);
    t.send({ type: 'users.edit', user: two });
    expect(t.actor.getSnapshot().children.userForm).toBeDefined();
    t.send({ type: 'users.close' });
    expect(t.actor.getSnapshot().children.userForm).toBeUndefined();
  });
});
