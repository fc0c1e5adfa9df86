import { ApiError } from '../../api/api-error';
import { GraphqlError } from '../../api/graphql-client';
import { userFormMachine } from './user-form.machine';
import { usersMachine } from './users.machine';
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
import { fakeServer } from '../test-support/fake-fetch';
import { mergeCoverage } from '../test-support/merge-coverage';
import { roleRows, userRow } from '../test-support/user-fixtures';
import { DEFAULT_QUERY, serializeUsersQuery } from './users-query';

const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('usersMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const machine = usersMachine.provide({
      actors: {
        loadUsers: heldPromise(),
        loadUsersPage: heldPromise(),
        deleteUser: heldPromise(),
        setBlocked: heldPromise(),
        setTwoFactor: heldPromise(),
        setTwoFactorRequired: heldPromise(),
        disconnectUser: heldPromise(),
        renameUser: heldPromise(),
        changeEmail: heldPromise(),
        watchPresence: idleCallback(),
        // The real form with held calls: the walk delivers its completion (xstate.done.actor.userForm).
        userForm: userFormMachine.provide({
          actors: {
            loadFormOptions: heldPromise(),
            createUser: heldPromise(),
            updateUser: heldPromise(),
            removeLink: heldPromise(),
          },
        }),
      },
    });
    type Ev = GraphEvent<typeof usersMachine>;
    const user = userRow(2);
    const fail = (id: string) => errorEvent(id, new ApiError(500, null));
    const actions: Ev[] = [
      { type: 'users.delete', user },
      { type: 'users.confirm' },
      doneEvent('deleteUser'),
      fail('deleteUser'),
      { type: 'users.block', user, blocked: true },
      { type: 'users.block', user, blocked: false },
      doneEvent('setBlocked', userRow(2, { blocked: true })),
      fail('setBlocked'),
      { type: 'users.twoFactor', user, enabled: true },
      { type: 'users.twoFactor', user, enabled: false },
      doneEvent('setTwoFactor', true),
      fail('setTwoFactor'),
      { type: 'users.requireTwoFactor', user, required: true },
      doneEvent('setTwoFactorRequired', true),
      fail('setTwoFactorRequired'),
      { type: 'users.disconnect', user },
      doneEvent('disconnectUser'),
      fail('disconnectUser'),
      { type: 'users.renameOpen', user },
      { type: 'users.rename', name: 'Novo' },
      { type: 'users.rename', name: '  ' },
      doneEvent('renameUser', userRow(2, { name: 'Novo' })),
      fail('renameUser'),
      { type: 'users.emailOpen', user },
      { type: 'users.changeEmail', email: 'novo@demo.local' },
      { type: 'users.changeEmail', email: '' },
      doneEvent('changeEmail', userRow(2, { email: 'novo@demo.local' })),
      fail('changeEmail'),
      { type: 'users.create' },
      { type: 'users.edit', user, view: 'instances' },
      doneEvent('userForm', userRow(9)),
      { type: 'users.close' },
    ];
    const page = { users: [userRow(1), user], total: 2, page: 1, lastPage: 1 };
    // Page 3 of a list whose last page is 1 (users deleted since): the list goes to page 1.
    const pastLast = { users: [], total: 2, page: 3, lastPage: 1 };
    const forbidden = new GraphqlError(403, [{ message: 'Forbidden', extensions: { code: 'FORBIDDEN' } }]);
    const list: Ev[] = [
      doneEvent('loadUsers', { ...page, roles: roleRows, departments: [] }),
      doneEvent('loadUsers', { ...pastLast, roles: roleRows, departments: [] }),
      errorEvent('loadUsers', forbidden),
      { type: 'users.query', query: { ...DEFAULT_QUERY, q: 'ana' } },
      { type: 'users.query', query: { ...DEFAULT_QUERY, blocked: true } },
      doneEvent('loadUsersPage', page),
      doneEvent('loadUsersPage', pastLast),
      errorEvent('loadUsersPage', forbidden),
      { type: 'users.reload' },
      { type: 'users.presence', userId: 2, isConnected: true },
      { type: 'users.online', ids: [1] },
      { type: 'users.subject', subject: { role: 'operador', routes: ['users'], userId: 1, roleId: 2 } },
    ];
    const report = await exploreCoverage({
      machine,
      input: () => ({ execute: unused.execute, rest: unused.rest }),
      // The query guards compare the event's query with the one shown.
      serializeContext: (context) => serializeUsersQuery(context.query),
      events: [...list, ...actions],
      simpleScenarios: [
        { events: list },
        { prefix: [list[0] as Ev], events: actions.slice(0, 16).concat(actions.slice(-1)) },
        { prefix: [list[0] as Ev], events: actions.slice(16) },
      ],
    });
    // A bare address: the first load waits for `users.start` (the views known, docs/lists.md, Views).
    const held = await exploreCoverage({
      machine,
      input: () => ({ execute: unused.execute, rest: unused.rest, awaitStart: true }),
      serializeContext: (context) => serializeUsersQuery(context.query),
      events: [
        { type: 'users.query', query: { ...DEFAULT_QUERY, q: 'ana' } },
        { type: 'users.start', query: { ...DEFAULT_QUERY, sort: 'email' } },
        { type: 'users.start' },
        doneEvent('loadUsers', { ...page, roles: roleRows, departments: [] }),
      ],
    });
    const merged = mergeCoverage(report, held);
    assertFullCoverage(merged);
    console.info(`usersMachine: ${formatCoverage(merged)}`);
  });
});
