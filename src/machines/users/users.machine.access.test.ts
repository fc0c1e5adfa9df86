import type { Subject } from '../../domain/escalation';
import { flush, gqlData, json, operationOf } from '../test-support/fake-fetch';
import { roleRows, userRow } from '../test-support/user-fixtures';
import { restUser, startUsers } from '../test-support/users-machine-fixtures';

/** A users-only manager (user 1): holds `users` and the dashboard, as the supervisor role. */
const supervisor: Subject = { role: 'supervisor', routes: ['dashboard-analytics', 'users'], userId: 1, roleId: 3 };
const adminRole = { id: 1, name: 'administrador', display_name: 'Administrador' };

describe('usersMachine: no way up', () => {
  it('opens nothing on a user the signed-in user may not act on, and everything on one it may', async () => {
    const t = startUsers(
      (r) => (r.method === 'PATCH' ? json(200, restUser(userRow(2, { blocked: true }))) : undefined),
      supervisor,
    );
    await flush();
    const boss = userRow(5, { role: adminRole });
    for (const event of [
      { type: 'users.edit', user: boss },
      { type: 'users.renameOpen', user: boss },
      { type: 'users.emailOpen', user: boss },
      { type: 'users.delete', user: boss },
      { type: 'users.block', user: boss, blocked: true },
      { type: 'users.block', user: boss, blocked: false },
      { type: 'users.twoFactor', user: boss, enabled: false },
      { type: 'users.requireTwoFactor', user: boss, required: true },
      { type: 'users.disconnect', user: boss },
    ] as const) {
      t.send(event);
      expect(t.actor.getSnapshot().matches({ dialog: 'idle' }), event.type).toBe(true);
      expect(t.ctx().target).toBeNull();
    }
    // Nothing was sent for them: only the list's two reads.
    expect(t.fake.seen.map((r) => operationOf(r)?.name ?? `${r.method} ${r.path}`)).toEqual([
      'usersPage',
      'roles',
      'departments',
    ]);
    // The operador holds only the dashboard, which the supervisor holds too: it may be blocked.
    t.send({ type: 'users.block', user: userRow(2), blocked: true });
    t.send({ type: 'users.confirm' });
    await flush();
    expect(t.outcomes.map((o) => [o.action, o.ok])).toEqual([['block', true]]);
  });

  it("on one's own row: no e-mail dialog, no two-factor reset nor enrolment requirement (the account screens')", async () => {
    const t = startUsers(undefined, supervisor);
    await flush();
    const self = userRow(1, {
      role: { id: 3, name: 'supervisor', display_name: 'Supervisor' },
      twoFactorEnabled: true,
    });
    for (const event of [
      { type: 'users.emailOpen', user: self },
      { type: 'users.twoFactor', user: self, enabled: false },
      { type: 'users.requireTwoFactor', user: self, required: true },
      { type: 'users.requireTwoFactor', user: self, required: false },
    ] as const) {
      t.send(event);
      expect(t.actor.getSnapshot().matches({ dialog: 'idle' }), event.type).toBe(true);
      expect(t.ctx().target).toBeNull();
    }
    expect(t.fake.seen.map((r) => operationOf(r)?.name ?? `${r.method} ${r.path}`)).toEqual([
      'usersPage',
      'roles',
      'departments',
    ]);
    // What stays its own to do from the list: its name, and the form (whose e-mail stays as stored).
    t.send({ type: 'users.renameOpen', user: self });
    expect(t.actor.getSnapshot().matches({ dialog: { open: 'renameForm' } })).toBe(true);
    t.send({ type: 'users.close' });
    // Another user's are offered as before.
    const other = userRow(2);
    t.send({ type: 'users.emailOpen', user: other });
    expect(t.actor.getSnapshot().matches({ dialog: { open: 'emailForm' } })).toBe(true);
    t.send({ type: 'users.close' });
    t.send({ type: 'users.twoFactor', user: { ...other, twoFactorEnabled: true }, enabled: false });
    expect(t.actor.getSnapshot().matches({ dialog: { open: 'confirmingTwoFactorOff' } })).toBe(true);
  });

  it('follows the signed-in user: a subject that gains the routes may act, one that loses them may not', async () => {
    const t = startUsers(undefined, { ...supervisor, routes: ['users'] });
    await flush();
    t.send({ type: 'users.delete', user: userRow(2) });
    expect(t.actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
    t.send({ type: 'users.subject', subject: supervisor });
    t.send({ type: 'users.delete', user: userRow(2) });
    expect(t.actor.getSnapshot().matches({ dialog: { open: 'confirmingDelete' } })).toBe(true);
    t.send({ type: 'users.close' });
    t.send({ type: 'users.subject', subject: { ...supervisor, routes: [] } });
    t.send({ type: 'users.renameOpen', user: userRow(2) });
    expect(t.actor.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
  });

  it('hands the subject to the form, whose role picker offers only the roles the subject may give', async () => {
    const t = startUsers((r) => {
      const name = operationOf(r)?.name;
      if (name === 'departments') return gqlData({ departments: [] });
      if (name === 'instances') return gqlData({ instances: [] });
      return undefined;
    }, supervisor);
    await flush();
    t.send({ type: 'users.create' });
    await flush();
    const form = t.actor.getSnapshot().children.userForm;
    expect(form?.getSnapshot().context.subject).toEqual(supervisor);
    expect(form?.getSnapshot().context.roles).toEqual(roleRows);
  });
});
