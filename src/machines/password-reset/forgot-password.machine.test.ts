import { createActor, waitFor } from 'xstate';
import { ApiError } from '../../api/api-error';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
} from '../test-support/graph-coverage';
import { fakeServer, json, type SeenRequest } from '../test-support/fake-fetch';
import { forgotPasswordMachine } from './forgot-password.machine';

const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});
const SAME = { message: 'Se este e-mail pertencer a uma conta ativa, enviamos um link.' };

describe('forgotPasswordMachine: model coverage', () => {
  it('reaches every state and transition', async () => {
    const report = await exploreCoverage({
      machine: forgotPasswordMachine.provide({ actors: { status: heldPromise(), request: heldPromise() } }),
      input: () => ({ rest: unused.rest }),
      events: [
        doneEvent('status', { enabled: true }),
        doneEvent('status', { enabled: false }),
        errorEvent('status', new TypeError('fetch failed')),
        { type: 'forgot.open' },
        { type: 'forgot.close' },
        { type: 'forgot.submit', email: ' ana@demo.local ', locale: 'pt-BR' },
        doneEvent('request', SAME),
        errorEvent('request', new ApiError(503, { status: 'unavailable', error: 'mail_disabled', message: 'no mail' })),
        errorEvent('request', new ApiError(429, { message: 'Too many', retry_after: 1200 })),
        errorEvent('request', new ApiError(503, { status: 'unavailable', message: 'database' })),
      ],
    });
    console.info(`forgotPassword: ${formatCoverage(report)}`);
    assertFullCoverage(report);
  });
});

describe('forgotPasswordMachine', () => {
  function start(respond: (request: SeenRequest) => Response) {
    const fake = fakeServer(respond);
    const actor = createActor(forgotPasswordMachine, { input: { rest: fake.rest } }).start();
    return { fake, actor };
  }

  it('offers the link when mail can be sent, and sends the e-mail trimmed with the language', async () => {
    const { fake, actor } = start((r) => (r.method === 'GET' ? json(200, { enabled: true }) : json(202, SAME)));
    await waitFor(actor, (s) => s.matches('closed'));
    actor.send({ type: 'forgot.open' });
    actor.send({ type: 'forgot.submit', email: ' ana@demo.local ', locale: 'en' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('sent'));
    expect(fake.seen.map((r) => [r.method, r.path, r.body])).toEqual([
      ['GET', '/api/auth/password-reset', null],
      ['POST', '/api/auth/password-reset/request', { email: 'ana@demo.local', locale: 'en' }],
    ]);
  });

  it('is disabled when the server cannot send mail, whether the status or the request says so', async () => {
    const first = start(() => json(200, { enabled: false }));
    await waitFor(first.actor, (s) => s.matches('disabled'));
    const second = start((r) =>
      r.method === 'GET'
        ? json(200, { enabled: true })
        : json(503, { status: 'unavailable', error: 'mail_disabled', message: 'no mail' }),
    );
    await waitFor(second.actor, (s) => s.matches('closed'));
    second.actor.send({ type: 'forgot.open' });
    second.actor.send({ type: 'forgot.submit', email: 'ana@demo.local', locale: 'pt-BR' });
    await waitFor(second.actor, (s) => s.matches('disabled'));
  });

  it('says how long to wait after too many requests, and that another failure is worth a retry', async () => {
    let answer = json(429, { message: 'Too many', retry_after: 1200 }, { 'retry-after': '1200' });
    const { actor } = start((r) => (r.method === 'GET' ? json(200, { enabled: true }) : answer));
    await waitFor(actor, (s) => s.matches('closed'));
    actor.send({ type: 'forgot.open' });
    actor.send({ type: 'forgot.submit', email: 'ana@demo.local', locale: 'pt-BR' });
    await waitFor(actor, (s) => s.matches({ open: 'throttled' }));
    expect(actor.getSnapshot().context.retryAfter).toBe(1200);
    answer = json(503, { status: 'unavailable', message: 'database' });
    actor.send({ type: 'forgot.submit', email: 'ana@demo.local', locale: 'pt-BR' });
    await waitFor(actor, (s) => s.matches({ open: 'failed' }));
    expect(actor.getSnapshot().context.email).toBe('ana@demo.local');
  });
});
