import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  heldPromise,
  idleCallback,
} from '../test-support/graph-coverage';
import { auditRecord, fakeAuditApi } from '../test-support/fake-audit-api';
import { createAppBus, type AppBus } from '../shared/app-bus';
import { fakeServer, json } from '../test-support/fake-fetch';
import { auditMachine, LIVE_SPACING_MS, selectAuditStatus, type AuditRecord } from './audit.machine';
import { auditQueryProblem, defaultAuditQuery } from './audit-query';

const records = (from: number, to: number, over: Partial<AuditRecord> = {}) =>
  Array.from({ length: to - from + 1 }, (_, i) => auditRecord(to - i, over));

function start(initial: AuditRecord[], search = '', respond?: Parameters<typeof fakeServer>[0]) {
  const api = fakeAuditApi(initial);
  const server = fakeServer(respond ?? api.respond);
  const bus = createAppBus();
  const actor = createActor(auditMachine, { input: { rest: server.rest, bus, search } });
  const emitted: string[] = [];
  actor.on('audit.queryChanged', (event) => emitted.push(event.search));
  actor.start();
  return { api, server, bus, actor, emitted };
}

const ready = (actor: ReturnType<typeof start>['actor']) =>
  vi.waitFor(() => expect(actor.getSnapshot().matches({ list: 'ready' })).toBe(true));

function recorded(bus: AppBus, over: Partial<{ id: number; operation: string; targetType: string }> = {}) {
  bus.publish({
    name: 'auditRecorded',
    tenantName: 'backoffice',
    sentAt: new Date().toISOString(),
    data: {
      id: over.id ?? 999,
      at: new Date().toISOString(),
      operation: (over.operation ?? 'tenant.plan') as 'tenant.plan',
      targetType: (over.targetType ?? 'tenant') as 'tenant',
      targetId: 2,
      targetName: 'farmacia-x',
    },
  });
}

let running: ReturnType<typeof start>['actor'] | undefined;
afterEach(() => running?.stop());

describe('auditMachine', () => {
  it('reads the first page of the last 7 days, newest first, with the contract query', async () => {
    const run = start(records(1, 3));
    running = run.actor;
    expect(selectAuditStatus(run.actor.getSnapshot())).toBe('loading');
    await ready(run.actor);
    expect(run.actor.getSnapshot().context.records.map((r) => r.id)).toEqual([3, 2, 1]);
    const q = run.api.seen[0]!.query;
    const days = defaultAuditQuery();
    const [y, m, d] = days.from.split('-').map(Number) as [number, number, number];
    expect(q.get('from')).toBe(new Date(y, m - 1, d).toISOString());
    expect(q.get('limit')).toBe('50');
    expect(q.has('after')).toBe(false);
    expect(run.api.seen[0]!.headers.get('Accept')).toBe('application/json');
  });

  it('applies valid filters (address query emitted, reload with them) and refuses bad ones without a request', async () => {
    const run = start([...records(1, 2), auditRecord(3, { operation: 'user.create', target_type: 'user' })]);
    running = run.actor;
    await ready(run.actor);
    run.actor.send({ type: 'audit.draft', patch: { from: '2026-11-08', to: '2026-11-01' } });
    run.actor.send({ type: 'audit.apply' });
    expect(run.actor.getSnapshot().context.invalid).toBe('audit.errors.range');
    run.actor.send({ type: 'audit.draft', patch: { ...defaultAuditQuery(), targetId: 7 } });
    run.actor.send({ type: 'audit.apply' });
    expect(run.actor.getSnapshot().context.invalid).toBe('audit.errors.targetId');
    expect(run.api.seen).toHaveLength(1);
    expect(run.emitted).toEqual([]);

    run.actor.send({ type: 'audit.draft', patch: { targetId: null, operation: 'user.create' } });
    run.actor.send({ type: 'audit.apply' });
    expect(run.emitted).toEqual(['operation=user.create']);
    await ready(run.actor);
    expect(run.api.seen[1]!.query.getAll('operation')).toEqual(['user.create']);
    expect(run.actor.getSnapshot().context.records.map((r) => r.id)).toEqual([3]);
  });

  it('follows the address: a different query reloads, the same one does not', async () => {
    const run = start(records(1, 2), 'operation=tenant.plan&targetType=tenant&targetId=2');
    running = run.actor;
    await ready(run.actor);
    expect(run.actor.getSnapshot().context.query).toMatchObject({ operation: 'tenant.plan', targetId: 2 });
    run.actor.send({ type: 'audit.location', search: 'targetId=2&operation=tenant.plan&targetType=tenant' });
    expect(run.actor.getSnapshot().matches({ list: 'ready' })).toBe(true);
    run.actor.send({ type: 'audit.location', search: '' });
    await ready(run.actor);
    expect(run.api.seen).toHaveLength(2);
    expect(run.api.seen[1]!.query.has('operation')).toBe(false);
  });

  it('"more" appends the page after the cursor until there is none', async () => {
    const run = start(records(1, 120));
    running = run.actor;
    await ready(run.actor);
    expect(run.actor.getSnapshot().context.next).toBe('71');
    run.actor.send({ type: 'audit.more' });
    await vi.waitFor(() => expect(run.actor.getSnapshot().context.pages).toBe(2));
    expect(run.api.seen[1]!.query.get('after')).toBe('71');
    run.actor.send({ type: 'audit.more' });
    await vi.waitFor(() => expect(run.actor.getSnapshot().context.pages).toBe(3));
    const { records: rows, next, added } = run.actor.getSnapshot().context;
    expect(rows).toHaveLength(120);
    expect(rows[0]!.id).toBe(120);
    expect(rows.at(-1)!.id).toBe(1);
    expect(next).toBeNull();
    expect(added).toMatchObject({ kind: 'more', count: 20 });
    run.actor.send({ type: 'audit.more' });
    expect(run.api.seen).toHaveLength(3);
  });

  it('a burst of new records on the first page costs one read at once and one after the spacing; one the filters exclude does nothing', async () => {
    const run = start(records(1, 2));
    running = run.actor;
    await ready(run.actor);
    run.actor.send({ type: 'audit.draft', patch: { operation: 'tenant.plan' } });
    run.actor.send({ type: 'audit.apply' });
    await ready(run.actor);
    expect(run.api.seen).toHaveLength(2);
    recorded(run.bus, { operation: 'user.create', targetType: 'user' });
    await new Promise((resolve) => setTimeout(resolve, LIVE_SPACING_MS + 50));
    expect(run.api.seen).toHaveLength(2);

    run.api.records.push(auditRecord(3));
    recorded(run.bus, { id: 3 });
    await vi.waitFor(() => expect(run.actor.getSnapshot().context.records.map((r) => r.id)).toEqual([3, 2, 1]));
    for (const id of [4, 5, 6, 7]) {
      run.api.records.push(auditRecord(id));
      recorded(run.bus, { id });
    }
    // The rest of the burst is read when the spacing has passed (a timer: allow a loaded box its time).
    await vi.waitFor(
      () => expect(run.actor.getSnapshot().context.records.map((r) => r.id)).toEqual([7, 6, 5, 4, 3, 2, 1]),
      { timeout: 5000 },
    );
    expect(run.api.seen).toHaveLength(4);
    expect(run.actor.getSnapshot().context.added).toMatchObject({ kind: 'live', count: 4 });
    await new Promise((resolve) => setTimeout(resolve, LIVE_SPACING_MS + 50));
    expect(run.api.seen).toHaveLength(4);
  });

  it('the first live record is read at once; one arriving during that read is read after it, never cancelling it', async () => {
    const api = fakeAuditApi(records(1, 2));
    /** Releases the live read being held (the first read, the page load, answers at once). */
    let release: (() => void) | null = null;
    const run = start([], '', async (request) => {
      const answer = api.respond(request);
      if (api.seen.length > 1) await new Promise<void>((resolve) => (release = resolve));
      return answer;
    });
    running = run.actor;
    await ready(run.actor);
    api.records.push(auditRecord(3));
    recorded(run.bus, { id: 3 });
    // No wait before the read: it has started by the time the event is handled, the spacing just begun.
    expect(run.actor.getSnapshot().matches({ list: 'refreshing', live: { spacing: 'clear' } })).toBe(true);
    await vi.waitFor(() => expect(release).not.toBeNull());
    api.records.push(auditRecord(4));
    recorded(run.bus, { id: 4 });
    await new Promise((resolve) => setTimeout(resolve, LIVE_SPACING_MS + 50));
    // The spacing passed while the read still runs: it goes on, and the record waits for the next read.
    expect(api.seen).toHaveLength(2);
    expect(run.actor.getSnapshot().matches({ list: { refreshing: 'stale' } })).toBe(true);
    const first = release as unknown as () => void;
    release = null;
    first();
    await vi.waitFor(() => expect(release).not.toBeNull());
    expect(run.actor.getSnapshot().context.records.map((r) => r.id)).toEqual([3, 2, 1]);
    expect(api.seen).toHaveLength(3);
    (release as unknown as () => void)();
    await ready(run.actor);
    expect(run.actor.getSnapshot().context.records.map((r) => r.id)).toEqual([4, 3, 2, 1]);
    expect(api.seen).toHaveLength(3);
  });

  it('with later pages shown, a new record is read but held: the notice counts it, "show new" shows it without a read', async () => {
    const run = start(records(1, 60));
    running = run.actor;
    await ready(run.actor);
    run.actor.send({ type: 'audit.more' });
    await vi.waitFor(() => expect(run.actor.getSnapshot().context.pages).toBe(2));
    run.api.records.push(auditRecord(61));
    recorded(run.bus, { id: 61 });
    // An event whose record the filters' read does not bring (another actor, say) adds nothing.
    recorded(run.bus, { id: 62 });
    // One read at once, one for the rest of the burst after the spacing.
    await vi.waitFor(() => expect(run.api.seen).toHaveLength(4), { timeout: 5000 });
    await ready(run.actor);
    let context = run.actor.getSnapshot().context;
    expect(context.unseen).toBe(1);
    expect(context.records).toHaveLength(60);
    expect(context.records[0]!.id).toBe(60);
    // Leaving the list does not show it: later pages are shown.
    run.actor.send({ type: 'audit.engage' });
    run.actor.send({ type: 'audit.release' });
    expect(run.actor.getSnapshot().context.records).toHaveLength(60);
    run.actor.send({ type: 'audit.showNew' });
    context = run.actor.getSnapshot().context;
    expect(run.api.seen).toHaveLength(4);
    expect(context.unseen).toBe(0);
    expect(context.pending).toBeNull();
    expect(context.pages).toBe(1);
    expect(context.next).toBe('12');
    expect(context.records.map((r) => r.id).slice(0, 2)).toEqual([61, 60]);
    expect(context.records).toHaveLength(50);
    expect(context.added).toMatchObject({ kind: 'live', count: 1 });
  });

  /** The rows' ids, newest first. */
  const ids = (actor: ReturnType<typeof start>['actor']) => actor.getSnapshot().context.records.map((r) => r.id);

  /**
   * The state model: engaged or not × the first page alone or later pages too, a record arriving;
   * then the engagement ending, then "show new".
   */
  describe.each([
    { engaged: false, later: false, moves: true, onRelease: true },
    { engaged: true, later: false, moves: false, onRelease: true },
    { engaged: false, later: true, moves: false, onRelease: false },
    { engaged: true, later: true, moves: false, onRelease: false },
  ])('engaged $engaged, later pages $later', ({ engaged, later, moves, onRelease }) => {
    const then = moves
      ? ''
      : onRelease
        ? '; leaving the list shows it'
        : '; leaving the list keeps it, "show new" shows it';
    it(`a new record ${moves ? 'moves the rows' : 'waits behind the notice'}${then}`, async () => {
      const run = start(records(1, 60));
      running = run.actor;
      await ready(run.actor);
      if (later) {
        run.actor.send({ type: 'audit.more' });
        await vi.waitFor(() => expect(run.actor.getSnapshot().context.pages).toBe(2));
      }
      if (engaged) run.actor.send({ type: 'audit.engage' });
      const before = ids(run.actor);
      run.api.records.push(auditRecord(61), auditRecord(62));
      recorded(run.bus, { id: 61 });
      recorded(run.bus, { id: 62 });
      await vi.waitFor(() => expect(run.api.seen).toHaveLength(later ? 4 : 3), { timeout: 5000 });
      await ready(run.actor);
      await new Promise((resolve) => setTimeout(resolve, LIVE_SPACING_MS + 50));
      // The burst cost one read at once and one after the spacing, held or not.
      expect(run.api.seen).toHaveLength(later ? 4 : 3);
      const context = run.actor.getSnapshot().context;
      if (moves) {
        expect(ids(run.actor).slice(0, 3)).toEqual([62, 61, 60]);
        expect(context).toMatchObject({ unseen: 0, pending: null });
        return;
      }
      expect(ids(run.actor)).toEqual(before);
      expect(context.unseen).toBe(2);
      expect(context.pending?.data[0]?.id).toBe(62);
      if (engaged) run.actor.send({ type: 'audit.release' });
      if (onRelease) {
        expect(ids(run.actor).slice(0, 3)).toEqual([62, 61, 60]);
        expect(run.actor.getSnapshot().context).toMatchObject({ unseen: 0, pending: null });
        return;
      }
      expect(ids(run.actor)).toEqual(before);
      run.actor.send({ type: 'audit.showNew' });
      expect(ids(run.actor).slice(0, 3)).toEqual([62, 61, 60]);
      expect(run.actor.getSnapshot().context).toMatchObject({ unseen: 0, pending: null, pages: 1 });
      expect(run.api.seen).toHaveLength(4);
    });
  });

  it('held records add up; "show new" shows them without a read, and the next record is held again while engaged', async () => {
    const run = start(records(1, 3));
    running = run.actor;
    await ready(run.actor);
    run.actor.send({ type: 'audit.engage' });
    run.api.records.push(auditRecord(4));
    recorded(run.bus, { id: 4 });
    await vi.waitFor(() => expect(run.actor.getSnapshot().context.unseen).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, LIVE_SPACING_MS + 50));
    run.api.records.push(auditRecord(5));
    recorded(run.bus, { id: 5 });
    await vi.waitFor(() => expect(run.actor.getSnapshot().context.unseen).toBe(2));
    expect(ids(run.actor)).toEqual([3, 2, 1]);
    const reads = run.api.seen.length;
    run.actor.send({ type: 'audit.showNew' });
    expect(ids(run.actor)).toEqual([5, 4, 3, 2, 1]);
    expect(run.api.seen).toHaveLength(reads);
    expect(run.actor.getSnapshot().context.added).toMatchObject({ kind: 'live', count: 2 });
    await new Promise((resolve) => setTimeout(resolve, LIVE_SPACING_MS + 50));
    run.api.records.push(auditRecord(6));
    recorded(run.bus, { id: 6 });
    await vi.waitFor(() => expect(run.actor.getSnapshot().context.unseen).toBe(1));
    expect(ids(run.actor)).toEqual([5, 4, 3, 2, 1]);
  });

  it('a live read that started before the user engaged is held when it answers', async () => {
    const api = fakeAuditApi(records(1, 2));
    let release: (() => void) | null = null;
    const run = start([], '', async (request) => {
      const answer = api.respond(request);
      if (api.seen.length > 1) await new Promise<void>((resolve) => (release = resolve));
      return answer;
    });
    running = run.actor;
    await ready(run.actor);
    api.records.push(auditRecord(3));
    recorded(run.bus, { id: 3 });
    await vi.waitFor(() => expect(release).not.toBeNull());
    run.actor.send({ type: 'audit.engage' });
    (release as unknown as () => void)();
    await vi.waitFor(() => expect(run.actor.getSnapshot().context.unseen).toBe(1));
    expect(run.actor.getSnapshot().matches({ list: 'ready' })).toBe(true);
    expect(ids(run.actor)).toEqual([2, 1]);
    run.actor.send({ type: 'audit.release' });
    expect(ids(run.actor)).toEqual([3, 2, 1]);
  });

  it('a read that brings nothing new while held leaves no notice', async () => {
    const run = start(records(1, 2));
    running = run.actor;
    await ready(run.actor);
    run.actor.send({ type: 'audit.engage' });
    // Announced, but the filters' read does not bring it (another actor's record, say).
    recorded(run.bus, { id: 7 });
    await vi.waitFor(() => expect(run.api.seen).toHaveLength(2));
    await ready(run.actor);
    expect(run.actor.getSnapshot().context).toMatchObject({ unseen: 0, pending: null });
  });

  it('a failed read is the error state with its reason; retry and a failed "more" keep what was shown', async () => {
    let fail = true;
    const api = fakeAuditApi(records(1, 60));
    const run = start([], '', (request) => (fail ? json(503, { message: 'down' }) : api.respond(request)));
    running = run.actor;
    await vi.waitFor(() => expect(selectAuditStatus(run.actor.getSnapshot())).toBe('error'));
    expect(run.actor.getSnapshot().context.error).toEqual({
      key: 'audit.errors.load',
      reason: 'apiErrors.unavailable',
    });
    fail = false;
    run.actor.send({ type: 'audit.reload' });
    await ready(run.actor);
    expect(run.actor.getSnapshot().context.records).toHaveLength(50);
    fail = true;
    run.actor.send({ type: 'audit.more' });
    await vi.waitFor(() => expect(run.actor.getSnapshot().context.moreError).not.toBeNull());
    expect(run.actor.getSnapshot().context.records).toHaveLength(50);
    expect(selectAuditStatus(run.actor.getSnapshot())).toBe('ready');
  });
});

const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('auditMachine: model coverage', () => {
  it('shortest and per-edge paths reach every state and transition', async () => {
    const recorded = { at: new Date().toISOString(), targetType: 'tenant', targetId: 2 };
    const report = await exploreCoverage({
      machine: auditMachine.provide({ actors: { loadPage: heldPromise(), watchAudit: idleCallback() } }),
      input: () => ({ rest: unused.rest, bus: createAppBus(), search: '' }),
      // Two parallel regions make simple paths explode; each edge is still walked on its own.
      strategies: ['shortest', 'transitions'],
      serializeContext: (c) => ({
        pages: Math.min(c.pages, 2),
        next: c.next !== null,
        draftValid: auditQueryProblem(c.draft) === null,
        operation: c.query.operation,
        pending: c.pending !== null,
      }),
      events: [
        doneEvent('loadFirst', { data: [auditRecord(2)], next: '2' }),
        errorEvent('loadFirst', new ApiError(503, null)),
        doneEvent('loadMore', { data: [auditRecord(1)], next: null }),
        errorEvent('loadMore', new ApiError(503, null)),
        doneEvent('loadLive', { data: [auditRecord(3), auditRecord(2)], next: '2' }),
        errorEvent('loadLive', new ApiError(503, null)),
        { type: 'audit.draft', patch: { from: '2026-11-08', to: '2026-11-01' } },
        { type: 'audit.draft', patch: { from: '2026-11-01', to: '2026-11-08', operation: 'tenant.plan' } },
        { type: 'audit.apply' },
        { type: 'audit.location', search: 'operation=user.create' },
        { type: 'audit.more' },
        { type: 'audit.reload' },
        { type: 'audit.showNew' },
        { type: 'audit.engage' },
        { type: 'audit.release' },
        { type: 'audit.recorded', operation: 'tenant.plan', ...recorded },
        { type: 'audit.recorded', operation: 'user.create', ...recorded },
      ],
    });
    assertFullCoverage(report);
  });
});
