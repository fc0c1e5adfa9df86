import { assign, createActor, setup } from 'xstate';
import { ApiError } from '../../api/api-error';
import { GraphqlError } from '../../api/graphql-client';
import { fakeServer, flush, gqlData, json, operationOf } from '../test-support/fake-fetch';
import { createAppBus, type BusMessageOf } from './app-bus';
import {
  checkRemote,
  conflictGuards,
  graphqlAuditReader,
  liveConflict,
  notedRemote,
  saveConflict,
  mayBeNews,
  restAuditReader,
  readChange,
  staleOf,
  versionOf,
  watchTarget,
  type ConflictEvent,
} from './conflict';

const change = {
  id: 7,
  at: '2026-11-28T10:00:00.000Z',
  actor_name: 'Bruna Souza',
  operation: 'user.update',
  changes: [{ field: 'name', before: '"Ana"', after: '"Ana Maria"' }],
};
const read = {
  id: 7,
  at: '2026-11-28T10:00:00.000Z',
  actorName: 'Bruna Souza',
  actorStaff: false,
  operation: 'user.update',
  changes: [{ field: 'name', before: '"Ana"', after: '"Ana Maria"' }],
};

describe('staleOf', () => {
  it('reads REST 409 stale and GraphQL STALE alike', () => {
    expect(staleOf(new ApiError(409, { error: 'stale', message: 'm', version: 3, changes: [change] }))).toEqual({
      version: 3,
      changes: [read],
    });
    expect(
      staleOf(
        new GraphqlError(200, [{ message: 'stale', extensions: { code: 'STALE', version: 3, changes: [change] } }]),
      ),
    ).toEqual({ version: 3, changes: [read] });
  });

  it('any other error is not stale; a malformed change is left out, never guessed', () => {
    expect(staleOf(new ApiError(409, { error: 'conflict', message: 'taken', field: 'email' }))).toBeNull();
    expect(staleOf(new ApiError(400, { error: 'stale' }))).toBeNull();
    expect(staleOf(new GraphqlError(200, [{ message: 'x', extensions: { code: 'FORBIDDEN' } }]))).toBeNull();
    expect(staleOf(new TypeError('offline'))).toBeNull();
    expect(staleOf(new ApiError(409, { error: 'stale', version: 'x', changes: [{ id: 'a' }, change, null] }))).toEqual({
      version: null,
      changes: [read],
    });
    expect(readChange({ ...change, actor_name: null, actor_staff: true, changes: [{ field: 1 }] })).toEqual({
      ...read,
      actorName: null,
      actorStaff: true,
      changes: [],
    });
    expect(versionOf({ version: 2 })).toBe(2);
    expect([mayBeNews(3, { version: 3 }), mayBeNews(3, { version: 4 }), mayBeNews(3, { version: null })]).toEqual([
      false,
      true,
      true,
    ]);
    expect(mayBeNews(null, { version: 1 })).toBe(true);
    expect(versionOf({})).toBeNull();
  });
});

describe('watchTarget', () => {
  it("forwards only the form's own record's audit events, and stops with the form", () => {
    const bus = createAppBus();
    const form = setup({
      types: { context: {} as { seen: [number, number | null][] }, events: {} as ConflictEvent },
      actors: { watchTarget },
    }).createMachine({
      context: { seen: [] },
      invoke: { src: 'watchTarget', input: { bus, targetType: 'user', targetId: 4 } },
      on: {
        'conflict.remote': {
          actions: assign({ seen: ({ context, event }) => [...context.seen, [event.id, event.version]] }),
        },
      },
    });
    const actor = createActor(form).start();
    const publish = (targetType: 'user' | 'role', targetId: number | null, id: number, targetVersion?: unknown) =>
      bus.publish({
        name: 'auditRecorded',
        tenantName: 't',
        sentAt: '2026-11-28T10:00:00.000Z',
        data: {
          id,
          at: '2026-11-28T10:00:00.000Z',
          operation: 'user.update',
          targetType,
          targetId,
          targetName: null,
          ...(targetVersion === undefined ? {} : { targetVersion }),
        } as BusMessageOf<'auditRecorded'>['data'],
      });
    publish('user', 4, 1);
    publish('user', 4, 6, 3);
    publish('user', 4, 7, 'x');
    publish('role', 4, 2);
    publish('user', 5, 3);
    publish('user', null, 4);
    expect(actor.getSnapshot().context.seen).toEqual([
      [1, null],
      [6, 3],
      [7, null],
    ]);
    actor.stop();
    // Stopped: unsubscribed, so the bus holds no handler of a closed form.
    expect(() => publish('user', 4, 5)).not.toThrow();
    expect(actor.getSnapshot().context.seen).toHaveLength(3);
  });
});

describe('checkRemote', () => {
  const records = [
    { ...change, id: 9, target_version: 4 },
    { ...change, id: 8, target_version: 3 },
    { ...change, id: 6, target_version: 2 },
  ];
  async function run(version: number | null, current: number, answer = () => json(200, { data: records, next: null })) {
    const fake = fakeServer((r) => (r.path === '/api/audit' ? answer() : json(200, { id: 4, version: current })));
    const actor = createActor(checkRemote<{ id: number; version: number }>(), {
      input: {
        audit: restAuditReader(fake.rest),
        targetType: 'user',
        targetId: 4,
        version,
        ids: [9],
        load: (signal) =>
          fake.rest.GET('/api/roles/{id}', { params: { path: { id: 4 } }, signal }).then((r) => r.data as never),
      },
    }).start();
    await flush();
    return { output: actor.getSnapshot().output, fake };
  }

  it("a newer version brings the records since the form's, oldest first", async () => {
    const { output, fake } = await run(2, 4);
    expect(output).toMatchObject({ version: 4, newer: true });
    expect(output?.changes.map((c) => c.id)).toEqual([8, 9]);
    const audit = fake.seen.find((r) => r.path === '/api/audit');
    expect([audit?.query.get('targetType'), audit?.query.get('targetId')]).toEqual(['user', '4']);
  });

  it('the same version is not news and reads no audit', async () => {
    const { output, fake } = await run(4, 4);
    expect(output).toMatchObject({ newer: false, changes: [] });
    expect(fake.seen.some((r) => r.path === '/api/audit')).toBe(false);
  });

  it('an audit log the reader may not read still reports the change, without details', async () => {
    const { output } = await run(2, 3, () => json(403, { error: 'forbidden', message: 'no' }));
    expect(output).toMatchObject({ newer: true, changes: [] });
  });
});

describe('graphqlAuditReader', () => {
  it("reads the record's audit page through GraphQL auditRecords, with the target's filters", async () => {
    const fake = fakeServer(() =>
      gqlData({ auditRecords: { data: [{ ...change, target_type: 'user' }], next: null } }),
    );
    const records = await graphqlAuditReader(fake.execute)(
      { targetType: 'user', targetId: 4 },
      new AbortController().signal,
    );
    expect(records).toEqual([{ ...change, target_type: 'user' }]);
    expect(operationOf(fake.seen[0]!)).toEqual({
      name: 'auditRecords',
      variables: { targetType: 'user', targetId: 4, limit: 20 },
    });
  });
});

describe('the shared guards and notices', () => {
  const staleError = new ApiError(409, {
    error: 'stale',
    message: 'x',
    field: 'version',
    version: 5,
    changes: [change],
  });

  it('stale reads a save error; remotePending the noted records; news a change the form has not loaded', () => {
    expect(conflictGuards.stale({ event: { type: 'x', error: staleError } })).toBe(true);
    expect(conflictGuards.stale({ event: { type: 'x', error: new ApiError(409, { message: 'taken' }) } })).toBe(false);
    expect(conflictGuards.remotePending({ context: { remoteIds: [] } })).toBe(false);
    expect(conflictGuards.remotePending({ context: { remoteIds: [3] } })).toBe(true);
    const remote = (version: number | null) => ({ type: 'conflict.remote', id: 1, version });
    expect(conflictGuards.news({ context: { version: 4 }, event: remote(5) })).toBe(true);
    expect(conflictGuards.news({ context: { version: 4 }, event: remote(4) })).toBe(false);
    expect(conflictGuards.news({ context: { version: 4 }, event: remote(null) })).toBe(true);
    expect(conflictGuards.news({ context: { version: 4 }, event: { type: 'other' } })).toBe(false);
  });

  it('notes each announced record once, and builds the live and the save notices', () => {
    expect(notedRemote([1], 2)).toEqual([1, 2]);
    expect(notedRemote([1, 2], 2)).toEqual([1, 2]);
    expect(liveConflict({ version: 6, changes: [] }, false)).toEqual({
      source: 'live',
      kept: false,
      version: 6,
      changes: [],
    });
    expect(saveConflict(staleError)).toMatchObject({ source: 'save', kept: true, version: 5, changes: [{ id: 7 }] });
    expect(saveConflict(new Error('offline'))).toEqual({ source: 'save', kept: true, version: null, changes: [] });
  });
});
