import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import { deferred, fakeServer, flush, json, type Deferred, type SeenRequest } from '../test-support/fake-fetch';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  type GraphEvent,
  heldPromise,
} from '../test-support/graph-coverage';
import type { WebhookEndpoint } from './webhook-endpoint-checks';
import { unsavedEndpointFields, webhookEndpointsMachine } from './webhook-endpoints.machine';

const tenantName = 'farmacia-central';
const SECRET = `whsec_${'a'.repeat(43)}`;
const endpoint = (id: number, over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id,
  tenantName,
  url: `https://erp.farmacia-central.com.br/hook/${id}`,
  types: ['sent', 'delivered'],
  description: '',
  active: true,
  secret_hint: '…Q2x9',
  previous_secret_expires_at: null,
  version: 1,
  created_at: '2026-11-27T12:00:00.000Z',
  updated_at: '2026-11-27T12:00:00.000Z',
  ...over,
});
const unusedRest = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
}).rest;
const stale = new ApiError(409, { message: 'stale', error: 'stale', version: 4, changes: [] });

describe('webhookEndpointsMachine: model coverage', () => {
  const machine = webhookEndpointsMachine.provide({
    actors: { loadEndpoints: heldPromise(), saveEndpoint: heldPromise(), runAction: heldPromise() },
  });

  it('every state and transition is reached', async () => {
    const report = await exploreCoverage({
      machine,
      strategies: ['shortest', 'transitions'],
      input: () => ({ rest: unusedRest, tenantName }),
      events: (snapshot): GraphEvent<typeof machine>[] => [
        doneEvent('loadEndpoints', [endpoint(1)]),
        errorEvent('loadEndpoints', new ApiError(503, null)),
        { type: 'endpoints.reload' },
        { type: 'endpoints.add' },
        { type: 'endpoints.edit', id: 1 },
        { type: 'endpoints.change', patch: { url: 'https://erp.example.com.br/x', types: ['read'] } },
        { type: 'endpoints.submit' },
        { type: 'endpoints.cancel' },
        { type: 'endpoints.overwrite' },
        { type: 'endpoints.discard' },
        { type: 'endpoints.act', action: 'delete', id: 1 },
        { type: 'endpoints.act', action: 'pause', id: 1 },
        { type: 'endpoints.confirm' },
        { type: 'endpoints.secretSeen' },
        ...(snapshot.matches('saving')
          ? [
              doneEvent('saveEndpoint', { endpoint: endpoint(2), secret: SECRET }),
              doneEvent('saveEndpoint', { endpoint: endpoint(1), secret: null }),
              errorEvent('saveEndpoint', stale),
              errorEvent('saveEndpoint', new ApiError(409, { message: 'taken', error: 'webhook_endpoint_taken' })),
            ]
          : []),
        ...(snapshot.matches('acting')
          ? [
              doneEvent('runAction', { endpoint: endpoint(1), secret: SECRET }),
              doneEvent('runAction', { endpoint: null, secret: null }),
              errorEvent('runAction', stale),
              errorEvent('runAction', new ApiError(503, null)),
            ]
          : []),
      ],
      serializeContext: (context) => [
        context.endpoints.map((e) => e.id),
        context.form?.id ?? 'none',
        Object.keys(context.errors),
        context.conflict !== null,
        context.action?.kind ?? null,
        context.secret !== null,
      ],
    });
    assertFullCoverage(report);
    console.info(`webhookEndpointsMachine: ${formatCoverage(report)}`);
  });
});

describe('webhookEndpointsMachine: against the REST contract', () => {
  function setup(initial: WebhookEndpoint[], respond: (request: SeenRequest) => Response | Promise<Response>) {
    const server = fakeServer((request) =>
      request.method === 'GET' && request.path === '/api/webhooks/endpoints'
        ? json(200, { data: initial })
        : respond(request),
    );
    const actor = createActor(webhookEndpointsMachine, { input: { rest: server.rest, tenantName } }).start();
    return { server, actor };
  }

  it('adds an endpoint: checks the form first, then POSTs and shows the secret once', async () => {
    const { server, actor } = setup([], (request) =>
      json(201, {
        endpoint: endpoint(5, { url: (request.body as { url: string }).url, types: ['sent', 'read'] }),
        secret: SECRET,
      }),
    );
    await flush();
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'endpoints.add' });
    actor.send({ type: 'endpoints.submit' });
    expect(actor.getSnapshot().context.errors).toEqual({
      url: 'webhooks.endpoints.errors.urlRequired',
      types: 'webhooks.endpoints.errors.typesRequired',
    });
    actor.send({
      type: 'endpoints.change',
      patch: { url: ' https://erp.example.com.br/hook ', types: ['read', 'sent'] },
    });
    expect(actor.getSnapshot().context.errors).toEqual({});
    actor.send({ type: 'endpoints.submit' });
    await flush();
    const posts = server.seen.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.body)).toEqual([
      { tenantName, url: 'https://erp.example.com.br/hook', types: ['sent', 'read'] },
    ]);
    expect(actor.getSnapshot().value).toBe('secret');
    expect(actor.getSnapshot().context.secret).toEqual({ url: 'https://erp.example.com.br/hook', secret: SECRET });
    actor.send({ type: 'endpoints.secretSeen' });
    expect(actor.getSnapshot().context.secret).toBeNull();
    expect(actor.getSnapshot().context.endpoints.map((e) => e.id)).toEqual([5]);
  });

  it.each([
    [409, { message: 'taken', error: 'webhook_endpoint_taken' }, { url: 'webhooks.refusals.endpointTaken' }],
    [409, { message: 'limit', error: 'webhook_endpoint_limit' }, { form: 'webhooks.refusals.endpointLimit' }],
    [
      400,
      { message: 'Validation failed', errors: [{ field: 'body/url', message: 'not public' }] },
      { url: 'webhooks.endpoints.errors.urlNotPublic' },
    ],
    [503, { message: 'down' }, { form: 'apiErrors.unavailable' }],
  ])('a refused add (%i) keeps the form open with the refusal beside its field', async (status, body, errors) => {
    const { actor } = setup([], () => json(status, body));
    await flush();
    actor.send({ type: 'endpoints.add' });
    actor.send({ type: 'endpoints.change', patch: { url: 'https://10.0.0.8/hook', types: ['sent'] } });
    actor.send({ type: 'endpoints.submit' });
    await flush();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors).toEqual(errors);
  });

  it('an edit sends only what changed with its version; stale offers to save over with the current version', async () => {
    const puts: unknown[] = [];
    let refuse = true;
    const { actor } = setup([endpoint(1)], (request) => {
      puts.push(request.body);
      if (refuse) {
        refuse = false;
        return json(409, { message: 'stale', error: 'stale', version: 4, changes: [] });
      }
      return json(200, endpoint(1, { description: 'ERP', version: 5 }));
    });
    await flush();
    actor.send({ type: 'endpoints.edit', id: 1 });
    actor.send({ type: 'endpoints.change', patch: { description: 'ERP' } });
    actor.send({ type: 'endpoints.submit' });
    await flush();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.conflict).toEqual({ source: 'save', kept: true, version: 4, changes: [] });
    expect(unsavedEndpointFields(actor.getSnapshot().context)).toEqual([
      { field: 'description', before: '""', after: '"ERP"' },
    ]);
    actor.send({ type: 'endpoints.overwrite' });
    await flush();
    expect(puts).toEqual([
      { description: 'ERP', version: 1 },
      { description: 'ERP', version: 4 },
    ]);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.endpoints[0]?.version).toBe(5);
  });

  it('pause is sent at once; rotate and delete wait for a confirmation; a rotation shows the new secret', async () => {
    const held: Deferred<Response>[] = [];
    const { server, actor } = setup([endpoint(1), endpoint(2)], () => {
      const d = deferred<Response>();
      held.push(d);
      return d.promise;
    });
    await flush();
    actor.send({ type: 'endpoints.act', action: 'pause', id: 1 });
    await flush();
    expect(server.seen.at(-1)).toMatchObject({
      method: 'PUT',
      path: '/api/webhooks/endpoints/1',
      body: { active: false, version: 1 },
    });
    held[0]?.resolve(json(200, endpoint(1, { active: false, version: 2 })));
    await flush();
    expect(actor.getSnapshot().context.endpoints[0]?.active).toBe(false);

    actor.send({ type: 'endpoints.act', action: 'rotate', id: 2 });
    expect(actor.getSnapshot().value).toBe('confirming');
    actor.send({ type: 'endpoints.confirm' });
    await flush();
    expect(server.seen.at(-1)).toMatchObject({
      method: 'POST',
      path: '/api/webhooks/endpoints/2/rotate-secret',
      body: { version: 1 },
    });
    held[1]?.resolve(
      json(200, { endpoint: endpoint(2, { previous_secret_expires_at: '2026-11-28T12:00:00.000Z' }), secret: SECRET }),
    );
    await flush();
    expect(actor.getSnapshot().value).toBe('secret');
    actor.send({ type: 'endpoints.secretSeen' });

    actor.send({ type: 'endpoints.act', action: 'delete', id: 1 });
    actor.send({ type: 'endpoints.cancel' });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'endpoints.act', action: 'delete', id: 1 });
    actor.send({ type: 'endpoints.confirm' });
    await flush();
    expect(server.seen.at(-1)).toMatchObject({ method: 'DELETE', path: '/api/webhooks/endpoints/1' });
    held[2]?.resolve(json(200, { message: 'Deleted' }));
    await flush();
    expect(actor.getSnapshot().context.endpoints.map((e) => e.id)).toEqual([2]);
  });

  it('a refused card action is said on that card; a stale one reads the list again', async () => {
    let answer = json(409, { message: 'stale', error: 'stale', version: 3, changes: [] });
    const { server, actor } = setup([endpoint(1)], () => answer);
    await flush();
    actor.send({ type: 'endpoints.act', action: 'resume', id: 1 });
    await flush();
    await flush();
    expect(actor.getSnapshot().context.actionError).toEqual({
      id: 1,
      error: { key: 'webhooks.endpoints.errors.resume', reason: 'webhooks.endpoints.errors.stale' },
    });
    expect(server.seen.filter((r) => r.method === 'GET')).toHaveLength(2);
    answer = json(404, { message: 'Not found' });
    actor.send({ type: 'endpoints.act', action: 'pause', id: 1 });
    await flush();
    expect(actor.getSnapshot().context.actionError).toEqual({
      id: 1,
      error: { key: 'webhooks.endpoints.errors.pause', reason: 'apiErrors.notFound' },
    });
  });
});
