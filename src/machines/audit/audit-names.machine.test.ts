import { createActor } from 'xstate';
import { fakeServer, json, type SeenRequest } from '../test-support/fake-fetch';
import { auditNamesMachine, type AuditName, type AuditNamesInput } from './audit-names.machine';

const ana: AuditName = { id: 7, name: 'Ana Souza', email: 'ana@x.local', tenant_name: 'farmacia' };
const bruno: AuditName = { id: 9, name: 'Bruno Lima', email: 'bruno@x.local', tenant_name: 'farmacia' };

function start(input: Omit<AuditNamesInput, 'rest'>, answer: (q: URLSearchParams) => AuditName[] = () => [ana, bruno]) {
  const seen: SeenRequest[] = [];
  const server = fakeServer((request) => {
    seen.push(request);
    return json(200, { data: answer(request.query) });
  });
  const actor = createActor(auditNamesMachine, { input: { rest: server.rest, debounceMs: 10, ...input } });
  actor.start();
  return { actor, seen };
}

const idle = (actor: ReturnType<typeof start>['actor']) =>
  vi.waitFor(() => expect(actor.getSnapshot().matches('idle')).toBe(true));

let running: ReturnType<typeof start>['actor'] | undefined;
afterEach(() => running?.stop());

describe('auditNamesMachine', () => {
  it('lists the first names at once, then searches what is typed after a pause, one request for a burst', async () => {
    const run = start({ of: 'actor' }, (q) => (q.get('q') === 'bru' ? [bruno] : [ana, bruno]));
    running = run.actor;
    await idle(run.actor);
    expect(run.seen.map((r) => r.path)).toEqual(['/api/audit/names']);
    expect(Object.fromEntries(run.seen[0]!.query)).toEqual({ of: 'actor', limit: '20' });
    expect(run.actor.getSnapshot().context.results).toEqual([ana, bruno]);
    for (const text of ['b', 'br', 'bru']) run.actor.send({ type: 'names.type', text });
    expect(run.actor.getSnapshot().hasTag('loading')).toBe(true);
    await vi.waitFor(() => expect(run.actor.getSnapshot().context.results).toEqual([bruno]));
    expect(run.seen).toHaveLength(2);
    expect(run.seen[1]!.query.get('q')).toBe('bru');
    // The names read before stay known: a chosen name keeps its label whatever is searched next.
    expect(run.actor.getSnapshot().context.known[ana.id]).toEqual(ana);
  });

  it("reads the address's id first, then the first names; a target picker names its kind", async () => {
    const run = start({ of: 'target', targetType: 'tenant', selectedId: 42 }, (q) =>
      q.get('id') === '42' ? [{ id: 42, name: 'farmacia-x', email: null, tenant_name: 'farmacia-x' }] : [],
    );
    running = run.actor;
    await idle(run.actor);
    expect(run.seen.map((r) => Object.fromEntries(r.query))).toEqual([
      { of: 'target', targetType: 'tenant', id: '42', limit: '20' },
      { of: 'target', targetType: 'tenant', limit: '20' },
    ]);
    expect(run.actor.getSnapshot().context.known[42]?.name).toBe('farmacia-x');
    // An id set later (a record's "only this target") is read once; a known one is not read again.
    run.actor.send({ type: 'names.resolve', id: 42 });
    expect(run.actor.getSnapshot().matches('idle')).toBe(true);
    run.actor.send({ type: 'names.resolve', id: 43 });
    expect(run.actor.getSnapshot().matches('resolving')).toBe(true);
    await idle(run.actor);
    expect(run.seen).toHaveLength(3);
    expect(run.seen[2]!.query.get('id')).toBe('43');
  });

  it('a failed search is said, and typing again searches again', async () => {
    let fail = true;
    const seen: string[] = [];
    const fake = fakeServer((request) => {
      seen.push(request.query.get('q') ?? '');
      return fail ? json(503, { message: 'down' }) : json(200, { data: [ana] });
    });
    const actor = createActor(auditNamesMachine, { input: { rest: fake.rest, of: 'actor', debounceMs: 10 } });
    running = actor;
    actor.start();
    await vi.waitFor(() => expect(actor.getSnapshot().context.failed).toBe(true));
    fail = false;
    actor.send({ type: 'names.type', text: 'ana' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.results).toEqual([ana]));
    expect(actor.getSnapshot().context.failed).toBe(false);
    expect(seen).toEqual(['', 'ana']);
  });
});
