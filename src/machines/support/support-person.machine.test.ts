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
import { mergeCoverage } from '../test-support/merge-coverage';
import { supportPerson } from '../test-support/support-fixtures';
import { supportPersonMachine } from './support-person.machine';

const joana = supportPerson();
const otherPerson = supportPerson({ user: { id: 77, name: 'Outro' } });

describe('support person machine: model coverage', () => {
  it('reaches every state and transition along @xstate/graph paths', async () => {
    const events: GraphEvent<typeof supportPersonMachine>[] = [
      { type: 'support.person.reload' },
      { type: 'support.person.answered', person: joana },
      { type: 'support.person.answered', person: otherPerson },
      doneEvent('loadPerson', joana),
      errorEvent('loadPerson', new ApiError(404, null)),
      doneEvent('reloadPerson', joana),
      errorEvent('reloadPerson', new ApiError(500, null)),
    ];
    const explore = (id: number) =>
      exploreCoverage({
        machine: supportPersonMachine.provide({ actors: { loadPerson: heldPromise() } }),
        input: () => ({ rest: {} as RestClient, id }),
        events,
        serializeContext: (c) => [c.person === null, c.error === null],
      });
    // A person's id, and an address that holds none (0): each reaches what the other cannot.
    const report = mergeCoverage(await explore(joana.user.id), await explore(0));
    console.info(`support person: ${formatCoverage(report)}`);
    assertFullCoverage(report);
  });
});

function start(id = joana.user.id) {
  const pending: Deferred<Response>[] = [];
  const server = fakeServer(() => {
    const answer = deferred<Response>();
    pending.push(answer);
    return answer.promise;
  });
  const actor = createActor(supportPersonMachine, { input: { rest: server.rest, id } }).start();
  return { actor, server, pending };
}

const settle = async () => {
  await flush();
  await flush();
};

describe('support person machine: behaviour', () => {
  it('loads the person by id and shows them', async () => {
    const { actor, server, pending } = start();
    await flush();
    expect(server.seen[0]).toMatchObject({ method: 'GET', path: `/api/support/users/${joana.user.id}` });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    pending[0]?.resolve(json(200, joana));
    await settle();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.person).toEqual(joana);
  });

  it('an unknown id fails with "not found", and a retry loads from scratch', async () => {
    const { actor, server, pending } = start();
    await flush();
    pending[0]?.resolve(json(404, { message: 'Not found' }));
    await settle();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toEqual({ key: 'support.errors.person', reason: 'apiErrors.notFound' });
    actor.send({ type: 'support.person.reload' });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    await flush();
    expect(server.seen).toHaveLength(2);
  });

  it('an address id that is no user id fails as not found without asking the server', async () => {
    const { actor, server } = start(0);
    await flush();
    expect(server.seen).toHaveLength(0);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toEqual({ key: 'support.errors.person', reason: 'apiErrors.notFound' });
  });

  it("takes an action's answer as the page's state without asking again; another person's answer changes nothing", async () => {
    const { actor, server, pending } = start();
    await flush();
    pending[0]?.resolve(json(200, joana));
    await settle();
    const lifted = supportPerson({ throttle: { throttled: false, retryAfter: null, failures: 0 } });
    actor.send({ type: 'support.person.answered', person: otherPerson });
    expect(actor.getSnapshot().context.person).toEqual(joana);
    actor.send({ type: 'support.person.answered', person: lifted });
    expect(actor.getSnapshot().context.person).toEqual(lifted);
    expect(server.seen).toHaveLength(1);
  });

  it("the caller's own account and a person one may not act on are refused with their own reasons", async () => {
    const own = start();
    await flush();
    own.pending[0]?.resolve(json(409, { message: 'Own account', error: 'own_account' }));
    await settle();
    expect(own.actor.getSnapshot().context.error).toEqual({
      key: 'support.errors.person',
      reason: 'support.refusals.own_account',
    });
    const above = start();
    await flush();
    above.pending[0]?.resolve(
      json(403, { message: 'Forbidden', reason: 'only an administrador may change an administrador' }),
    );
    await settle();
    expect(above.actor.getSnapshot().context.error?.reason).toBe('access.actOnAdministrador');
  });

  it('a reload keeps the page while it runs, and a failed reload keeps the last answer with the reason', async () => {
    const { actor, pending } = start();
    await flush();
    pending[0]?.resolve(json(200, joana));
    await settle();
    actor.send({ type: 'support.person.reload' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.person).toEqual(joana);
    await flush();
    pending[1]?.resolve(json(503, { status: 'unavailable', message: 'Database unavailable' }));
    await settle();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.person).toEqual(joana);
    expect(actor.getSnapshot().context.error?.reason).toBe('apiErrors.unavailable');
    actor.send({ type: 'support.person.reload' });
    expect(actor.getSnapshot().value).toBe('reloading');
  });
});
