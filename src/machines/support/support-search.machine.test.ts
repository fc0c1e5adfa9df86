import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import type { RestClient } from '../../api/rest-client';
import { deferred, fakeServer, flush, json, type Deferred } from '../test-support/fake-fetch';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  type GraphEvent,
} from '../test-support/graph-coverage';
import { supportUser } from '../test-support/support-fixtures';
import { selectSearchStatus, supportSearchMachine } from './support-search.machine';

const ana = supportUser({ id: 3, name: 'Ana Souza', email: 'ana@farmacia.test' });

describe('support search machine: model coverage', () => {
  it('reaches every state and transition along @xstate/graph paths', async () => {
    const events: GraphEvent<typeof supportSearchMachine>[] = [
      { type: 'support.type', text: 'ana' },
      { type: 'support.type', text: ' ana ' },
      { type: 'support.type', text: '' },
      { type: 'support.type', text: '  ' },
      { type: 'support.location', search: '?q=jo' },
      { type: 'support.location', search: '' },
      { type: 'support.retry' },
      doneEvent('searchPeople', [ana]),
      errorEvent('searchPeople', new ApiError(500, null)),
    ];
    const report = await exploreCoverage({
      machine: supportSearchMachine.provide({ actors: { searchPeople: heldPromise() } }),
      input: () => ({ rest: {} as RestClient }),
      events,
      serializeContext: (c) => [c.text, c.query, c.resultsFor, c.error === null],
      strategies: ['shortest', 'transitions'],
    });
    console.info(`support search: ${formatCoverage(report)}`);
    assertFullCoverage(report);
  });
});

/** The machine on the real REST client over a fake server; every search waits for the test to answer it. */
function start(search = '') {
  const pending: { q: string; answer: Deferred<Response> }[] = [];
  const server = fakeServer((request) => {
    const answer = deferred<Response>();
    pending.push({ q: request.query.get('q') ?? '', answer });
    return answer.promise;
  });
  const actor = createActor(supportSearchMachine, { input: { rest: server.rest, search, debounceMs: 5 } });
  const addresses: string[] = [];
  actor.on('support.queryChanged', (event) => addresses.push(event.search));
  actor.start();
  return { actor, server, pending, addresses };
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 15));

describe('support search machine: behaviour', () => {
  it('starts empty with no query, searching nothing', () => {
    const { actor, server } = start();
    expect(selectSearchStatus(actor.getSnapshot())).toBe('empty');
    expect(server.seen).toHaveLength(0);
  });

  it('searches the address query at once, with the limit, and shows the answer', async () => {
    const { actor, server, pending } = start('?q=ana');
    await flush();
    expect(server.seen[0]?.path).toBe('/api/support/users');
    expect(server.seen[0]?.query.get('q')).toBe('ana');
    expect(server.seen[0]?.query.get('limit')).toBe('20');
    expect(selectSearchStatus(actor.getSnapshot())).toBe('loading');
    pending[0]?.answer.resolve(json(200, { data: [ana], limit: 20 }));
    await flush();
    await flush();
    expect(selectSearchStatus(actor.getSnapshot())).toBe('results');
    expect(actor.getSnapshot().context.results).toEqual([ana]);
  });

  it('waits for a pause in typing, sends the trimmed query once and writes it into the address', async () => {
    const { actor, server, addresses } = start();
    actor.send({ type: 'support.type', text: 'j' });
    actor.send({ type: 'support.type', text: 'jo' });
    actor.send({ type: 'support.type', text: ' joana ' });
    expect(selectSearchStatus(actor.getSnapshot())).toBe('loading');
    await pause();
    await flush();
    expect(server.seen.map((r) => r.query.get('q'))).toEqual(['joana']);
    expect(addresses).toEqual(['q=joana']);
  });

  it('a keystroke during a search aborts it; only the newer answer shows', async () => {
    const { actor, server, pending } = start();
    actor.send({ type: 'support.type', text: 'an' });
    await pause();
    await flush();
    actor.send({ type: 'support.type', text: 'ana' });
    await flush();
    expect(server.seen[0]?.signal.aborted).toBe(true);
    // The aborted request answering late changes nothing.
    pending[0]?.answer.resolve(json(200, { data: [supportUser({ id: 99, name: 'Antônio' })], limit: 20 }));
    await pause();
    await flush();
    expect(server.seen.map((r) => r.query.get('q'))).toEqual(['an', 'ana']);
    pending[1]?.answer.resolve(json(200, { data: [ana], limit: 20 }));
    await flush();
    await flush();
    expect(actor.getSnapshot().context.results.map((u) => u.id)).toEqual([3]);
    expect(actor.getSnapshot().context.resultsFor).toBe('ana');
  });

  it('no match is its own state, told apart from an empty box', async () => {
    const { actor, pending, addresses } = start('?q=zzz');
    await flush();
    pending[0]?.answer.resolve(json(200, { data: [], limit: 20 }));
    await flush();
    await flush();
    expect(selectSearchStatus(actor.getSnapshot())).toBe('noMatch');
    actor.send({ type: 'support.type', text: '' });
    // Clearing the box shows the empty state at once, and the address drops the query.
    expect(selectSearchStatus(actor.getSnapshot())).toBe('empty');
    expect(actor.getSnapshot().value).toBe('empty');
    expect(actor.getSnapshot().context.results).toEqual([]);
    expect(addresses).toEqual(['']);
  });

  it('a failure shows why, and retry searches again', async () => {
    const { actor, server, pending } = start('?q=ana');
    await flush();
    pending[0]?.answer.resolve(json(403, { message: 'Forbidden', reason: 'only back-office staff may do this' }));
    await flush();
    await flush();
    expect(selectSearchStatus(actor.getSnapshot())).toBe('error');
    expect(actor.getSnapshot().context.error).toEqual({ key: 'support.errors.search', reason: 'access.staffOnly' });
    actor.send({ type: 'support.retry' });
    await flush();
    expect(server.seen).toHaveLength(2);
    pending[1]?.answer.resolve(json(200, { data: [ana], limit: 20 }));
    await flush();
    await flush();
    expect(selectSearchStatus(actor.getSnapshot())).toBe('results');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('follows the address changed elsewhere (back, a link), and ignores its own writes coming back', async () => {
    const { actor, server, addresses } = start();
    actor.send({ type: 'support.type', text: 'ana' });
    await pause();
    await flush();
    expect(server.seen).toHaveLength(1);
    actor.send({ type: 'support.location', search: '?q=ana' });
    await flush();
    expect(server.seen).toHaveLength(1);
    actor.send({ type: 'support.location', search: '?q=joana' });
    await flush();
    expect(server.seen.map((r) => r.query.get('q'))).toEqual(['ana', 'joana']);
    expect(actor.getSnapshot().context.text).toBe('joana');
    actor.send({ type: 'support.location', search: '' });
    expect(actor.getSnapshot().value).toBe('empty');
    // Following the address writes nothing back into it.
    expect(addresses).toEqual(['q=ana']);
  });

  it('taking a keystroke back keeps the answer it had, without asking again', async () => {
    const { actor, server, pending } = start('?q=ana');
    await flush();
    pending[0]?.answer.resolve(json(200, { data: [ana], limit: 20 }));
    await flush();
    await flush();
    actor.send({ type: 'support.type', text: 'ana ' });
    await pause();
    await flush();
    expect(server.seen).toHaveLength(1);
    expect(selectSearchStatus(actor.getSnapshot())).toBe('results');
  });
});
