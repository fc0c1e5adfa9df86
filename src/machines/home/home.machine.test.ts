import { createActor, waitFor } from 'xstate';
import { fakeServer, gqlData, gqlError, json, operationOf, type Responder } from '../test-support/fake-fetch';
import { homeMachine, nothingNeedsAttention, type Attention } from './home.machine';

const none = { total: 0, items: [] };
const attention = (over: Partial<Attention> = {}): Attention => ({
  tenantsOverUserLimit: none,
  failedSyncs: none,
  disconnectedConnections: none,
  lockedAccounts: null,
  ...over,
});
const full: Attention = attention({
  failedSyncs: {
    total: 1,
    items: [
      { id: 7, name: 'Loja', tenantName: 'acme', instanceName: null, count: null, limit: null, retryAfter: null },
    ],
  },
});

function start(respond: Responder) {
  const server = fakeServer(respond);
  const actor = createActor(homeMachine, { input: { execute: server.execute } }).start();
  return { actor, server };
}

describe('homeMachine', () => {
  it('loads what needs attention through the `attention` query', async () => {
    const { actor, server } = start(() => gqlData({ attention: full }));
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.attention).toEqual(full);
    expect(server.seen.map((r) => operationOf(r)?.name)).toEqual(['attention']);
  });

  it('a failure says why and a retry loads again', async () => {
    let fail = true;
    const { actor, server } = start(() => (fail ? json(503, { status: 'unavailable' }) : gqlData({ attention: full })));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toEqual({ key: 'home.attention.error', reason: 'apiErrors.unavailable' });
    fail = false;
    actor.send({ type: 'home.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ attention: full, error: null });
    expect(server.seen).toHaveLength(2);
  });

  it('a refresh keeps the last answer while it loads again', async () => {
    let answer: Attention = full;
    const { actor } = start(() => gqlData({ attention: answer }));
    await waitFor(actor, (s) => s.matches('ready'));
    answer = attention();
    actor.send({ type: 'home.refresh' });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    expect(actor.getSnapshot().context.attention).toEqual(full);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.attention).toEqual(answer);
  });

  it('a GraphQL refusal is a failure too', async () => {
    const { actor } = start(() => gqlError('FORBIDDEN', undefined, 403));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error?.key).toBe('home.attention.error');
  });
});

describe('nothingNeedsAttention', () => {
  it('holds when every kind the caller sees is empty, whatever it may not see', () => {
    expect(nothingNeedsAttention(attention())).toBe(true);
    expect(nothingNeedsAttention(full)).toBe(false);
    expect(
      nothingNeedsAttention({
        tenantsOverUserLimit: null,
        failedSyncs: null,
        disconnectedConnections: null,
        lockedAccounts: { total: 11, items: [] },
      }),
    ).toBe(false);
  });
});
