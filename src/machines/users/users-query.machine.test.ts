import { createActor, SimulatedClock } from 'xstate';
import { usersQueryMachine } from './users-query.machine';
import { DEFAULT_QUERY } from './users-query';
import { assertFullCoverage, exploreCoverage, formatCoverage } from '../test-support/graph-coverage';

function started(search = '') {
  const clock = new SimulatedClock();
  const actor = createActor(usersQueryMachine, { input: { search, addressDelayMs: 300 }, clock });
  const written: string[] = [];
  actor.on('usersQuery.changed', (event) => written.push(event.search));
  actor.start();
  return { actor, clock, written, query: () => actor.getSnapshot().context.query };
}

describe('usersQueryMachine', () => {
  it('starts from the address, anything unknown at its default', () => {
    const { query } = started('?q=ana&sort=email&dir=desc&page=3');
    // The page is the list's too (docs/lists.md: `page` in the address).
    expect(query()).toEqual({ ...DEFAULT_QUERY, q: 'ana', sort: 'email', dir: 'descending', page: 3 });
    expect(started('?sort=password').query()).toEqual(DEFAULT_QUERY);
  });

  it('changes the query at once and writes the address once typing pauses', () => {
    const { actor, clock, written, query } = started();
    for (const q of ['j', 'jo', 'joã', 'joão']) {
      actor.send({ type: 'usersQuery.change', change: { q } });
      expect(query().q).toBe(q);
      clock.increment(200);
    }
    expect(written).toEqual([]);
    clock.increment(100);
    expect(written).toEqual(['q=jo%C3%A3o']);
    actor.send({ type: 'usersQuery.change', change: { sort: 'presence', dir: 'descending' } });
    clock.increment(300);
    expect(written).toEqual(['q=jo%C3%A3o', 'q=jo%C3%A3o&sort=presence&dir=desc']);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('goes back to page 1 when the search, a filter or the sort changes; a page change keeps them', () => {
    const { actor, query } = started('?q=ana&blocked=true&page=3');
    actor.send({ type: 'usersQuery.change', change: { page: 4 } });
    expect(query()).toMatchObject({ q: 'ana', blocked: true, page: 4 });
    actor.send({ type: 'usersQuery.change', change: { q: 'anab' } });
    expect(query().page).toBe(1);
    actor.send({ type: 'usersQuery.change', change: { page: 2 } });
    actor.send({ type: 'usersQuery.change', change: { sort: 'email', dir: 'descending' } });
    expect(query()).toMatchObject({ q: 'anab', sort: 'email', page: 1 });
  });

  it('follows an address changed from outside, dropping a pending write; its own write coming back changes nothing', () => {
    const { actor, clock, written, query } = started('q=ana');
    actor.send({ type: 'usersQuery.location', search: 'q=ana' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.send({ type: 'usersQuery.change', change: { q: 'anab' } });
    actor.send({ type: 'usersQuery.location', search: '?sort=email' });
    expect(query()).toEqual({ ...DEFAULT_QUERY, sort: 'email' });
    clock.increment(1000);
    expect(written).toEqual([]);
    actor.send({ type: 'usersQuery.change', change: { q: 'bia' } });
    clock.increment(300);
    expect(written).toEqual(['q=bia&sort=email']);
    actor.send({ type: 'usersQuery.location', search: 'q=bia&sort=email' });
    expect(query()).toEqual({ ...DEFAULT_QUERY, q: 'bia', sort: 'email' });
  });

  it('model coverage: every state and transition', async () => {
    const report = await exploreCoverage({
      machine: usersQueryMachine,
      input: () => ({ search: '', addressDelayMs: 10 }),
      events: () => [
        { type: 'usersQuery.change', change: { q: 'ana' } },
        { type: 'usersQuery.location', search: 'q=bia' },
        { type: 'usersQuery.location', search: '' },
      ],
      serializeContext: (context) => [context.query.q],
    });
    assertFullCoverage(report);
    console.info(`usersQueryMachine: ${formatCoverage(report)}`);
  });
});
