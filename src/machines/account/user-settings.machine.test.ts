import { createActor } from 'xstate';
import { GraphqlError } from '../../api/graphql-client';
import type { SessionEvent } from '../session/session.machine';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
} from '../test-support/graph-coverage';
import { fakeServer, flush, gqlData, gqlError, json, operationOf, type SeenRequest } from '../test-support/fake-fetch';
import { passwordProblems, profileProblems, userSettingsMachine } from './user-settings.machine';

const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});
const session = () => {
  const sent: SessionEvent[] = [];
  return { sent, send: (event: SessionEvent) => void sent.push(event) };
};

describe('userSettingsMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: userSettingsMachine.provide({ actors: { saveProfile: heldPromise(), changePassword: heldPromise() } }),
      input: () => ({ execute: unused.execute, userId: 2, session: session() }),
      events: [
        {
          type: 'settings.saveProfile',
          name: 'Olga',
          email: 'olga@demo.local',
          currentEmail: 'olga@demo.local',
          currentPassword: '',
        },
        {
          type: 'settings.saveProfile',
          name: ' ',
          email: 'nope',
          currentEmail: 'olga@demo.local',
          currentPassword: '',
        },
        doneEvent('saveProfile'),
        errorEvent('saveProfile', new GraphqlError(403, [{ message: 'FORBIDDEN', extensions: { code: 'FORBIDDEN' } }])),
        {
          type: 'settings.changePassword',
          password: 'Farm@c1a-Boa!',
          confirmation: 'Farm@c1a-Boa!',
          currentPassword: 'Old#Pass-1',
        },
        {
          type: 'settings.changePassword',
          password: 'abc12345',
          confirmation: 'abc12345',
          currentPassword: 'Old#Pass-1',
        },
        doneEvent('changePassword', { token: 'T9', expiresIn: 900 }),
        errorEvent('changePassword', new TypeError('fetch failed')),
      ],
    });
    assertFullCoverage(report);
    console.info(`userSettingsMachine: ${formatCoverage(report)}`);
  });
});

describe('userSettingsMachine: against the GraphQL contract', () => {
  function start(respond: (r: SeenRequest) => Response) {
    const fake = fakeServer(respond);
    const link = session();
    const actor = createActor(userSettingsMachine, {
      input: { execute: fake.execute, userId: 2, session: link },
    }).start();
    return { fake, link, actor, ctx: () => actor.getSnapshot().context };
  }

  it('saves the own name and email with updateUser, then reloads the profile', async () => {
    const t = start(() => gqlData({ updateUser: { id: 2 } }));
    t.actor.send({
      type: 'settings.saveProfile',
      name: ' Olga Souza ',
      email: 'olga@demo.local ',
      currentEmail: 'Olga@demo.local',
      currentPassword: 'never sent',
    });
    expect(t.actor.getSnapshot().hasTag('savingProfile')).toBe(true);
    await flush();
    // The same address (case and spaces aside): no current password goes out.
    expect(operationOf(t.fake.seen[0]!)).toEqual({
      name: 'updateUser',
      variables: { id: 2, name: 'Olga Souza', email: 'olga@demo.local' },
    });
    expect(t.ctx().profile.notice).toBe('settings.notices.profileSaved');
    expect(t.link.sent).toEqual([{ type: 'session.reloadProfile' }]);
  });

  it('says precisely why the profile was refused: no permission (FORBIDDEN), or a taken email', async () => {
    let answer = gqlError('FORBIDDEN', undefined, 403);
    const t = start(() => answer);
    t.actor.send({
      type: 'settings.saveProfile',
      name: 'Olga',
      email: 'olga@demo.local',
      currentEmail: 'olga@demo.local',
      currentPassword: '',
    });
    await flush();
    expect(t.ctx().profile).toEqual({
      fieldErrors: {},
      error: { key: 'settings.errors.profile', reason: 'apiErrors.forbidden' },
      notice: null,
    });
    answer = gqlError('BAD_USER_INPUT', 'email');
    t.actor.send({
      type: 'settings.saveProfile',
      name: 'Olga',
      email: 'admin@demo.local',
      currentEmail: 'olga@demo.local',
      currentPassword: 'Old#Pass-1',
    });
    await flush();
    expect(t.ctx().profile.fieldErrors).toEqual({ email: 'settings.errors.emailRejected' });
    expect(t.link.sent).toEqual([]);
  });

  it('asks for the current password before a new e-mail goes out, and says when the server finds it wrong', async () => {
    const t = start(() => gqlError('BAD_USER_INPUT', 'current_password'));
    const change = { type: 'settings.saveProfile' as const, name: 'Olga', email: 'nova@demo.local' };
    t.actor.send({ ...change, currentEmail: 'olga@demo.local', currentPassword: '' });
    expect(t.ctx().profile.fieldErrors).toEqual({ currentPassword: 'settings.errors.currentPasswordRequired' });
    expect(t.fake.seen).toHaveLength(0);
    t.actor.send({ ...change, currentEmail: 'olga@demo.local', currentPassword: 'Wrong#Pass-1' });
    await flush();
    expect(operationOf(t.fake.seen[0]!)).toEqual({
      name: 'updateUser',
      variables: { id: 2, name: 'Olga', email: 'nova@demo.local', current_password: 'Wrong#Pass-1' },
    });
    expect(t.ctx().profile.fieldErrors).toEqual({ currentPassword: 'settings.errors.currentPasswordWrong' });
  });

  it('changes the password, hands the new token to the session before reloading the profile', async () => {
    const t = start(() => gqlData({ updateUserPassword: { token: 'T9', expires_in: 900, user: { id: 2 } } }));
    const current = { currentPassword: 'Old#Pass-1' };
    t.actor.send({ type: 'settings.changePassword', password: 'aaa-Bbb#1', confirmation: 'aaa-Bbb#1', ...current });
    expect(t.ctx().password.fieldErrors).toEqual({ password: 'users.form.passwordWeak' });
    t.actor.send({
      type: 'settings.changePassword',
      password: 'Farm@c1a-Boa!',
      confirmation: 'Farm@c1a-Bo',
      ...current,
    });
    expect(t.ctx().password.fieldErrors).toEqual({ confirmation: 'settings.errors.passwordMismatch' });
    t.actor.send({
      type: 'settings.changePassword',
      password: 'Farm@c1a-Boa!',
      confirmation: 'Farm@c1a-Boa!',
      currentPassword: '',
    });
    expect(t.ctx().password.fieldErrors).toEqual({ currentPassword: 'settings.errors.currentPasswordRequired' });
    expect(t.fake.seen).toHaveLength(0);
    t.actor.send({
      type: 'settings.changePassword',
      password: 'Farm@c1a-Boa!',
      confirmation: 'Farm@c1a-Boa!',
      ...current,
    });
    await flush();
    expect(operationOf(t.fake.seen[0]!)).toEqual({
      name: 'updateUserPassword',
      variables: { password: 'Farm@c1a-Boa!', current_password: 'Old#Pass-1' },
    });
    expect(t.link.sent).toEqual([
      { type: 'session.tokenRotated', token: 'T9', expiresIn: 900 },
      { type: 'session.reloadProfile' },
    ]);
    expect(t.ctx()).toMatchObject({
      pendingPassword: null,
      password: { notice: 'settings.notices.passwordChanged', error: null },
    });
  });

  it('keeps the session as it is when the password change fails', async () => {
    const t = start(() => json(503, { status: 'unavailable', message: 'down' }));
    t.actor.send({
      type: 'settings.changePassword',
      password: 'Farm@c1a-Boa!',
      confirmation: 'Farm@c1a-Boa!',
      currentPassword: 'Old#Pass-1',
    });
    await flush();
    expect(t.ctx().password.error).toEqual({ key: 'settings.errors.password', reason: 'apiErrors.unavailable' });
    expect(t.link.sent).toEqual([]);
  });

  it('checks names, emails and passwords locally', () => {
    expect(profileProblems('', 'x@y')).toEqual({
      name: 'settings.errors.nameRequired',
      email: 'settings.errors.emailInvalid',
    });
    expect(profileProblems('a'.repeat(121), 'a@b.co')).toEqual({ name: 'settings.errors.nameTooLong' });
    expect(passwordProblems('', '')).toEqual({ password: 'settings.errors.passwordRequired' });
    expect(passwordProblems('Ab#1', 'Ab#1')).toEqual({ password: 'users.form.passwordTooShort' });
    expect(passwordProblems(`Aa#!${'x1y2'.repeat(40)}`, 'other')).toEqual({
      password: 'settings.errors.passwordTooLong',
      confirmation: 'settings.errors.passwordMismatch',
    });
  });
});
