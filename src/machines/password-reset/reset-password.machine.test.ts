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
import { mergeCoverage } from '../test-support/merge-coverage';
import { resetPasswordMachine, tokenFromFragment } from './reset-password.machine';

const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});
const TOKEN = 'A'.repeat(86);
const GOOD = 'Nova#Senha!2026';
const dead = {
  message: 'Validation failed',
  error: 'reset_link_invalid',
  errors: [{ field: 'body/token', message: 'x' }],
};
const weak = { message: 'Validation failed', errors: [{ field: 'body/password', message: 'weak' }] };

describe('resetPasswordMachine: model coverage', () => {
  it('reaches every state and transition', async () => {
    const machine = resetPasswordMachine.provide({ actors: { confirm: heldPromise() } });
    const events = [
      { type: 'reset.submit', password: GOOD, confirmation: GOOD },
      { type: 'reset.submit', password: GOOD, confirmation: 'Outra#Senha!2026' },
      { type: 'reset.submit', password: 'abc', confirmation: 'abc' },
      { type: 'reset.edit' },
      doneEvent('confirm', { message: 'Password changed' }),
      errorEvent('confirm', new ApiError(400, dead)),
      errorEvent('confirm', new ApiError(400, weak)),
      errorEvent('confirm', new TypeError('fetch failed')),
    ] as const;
    const withToken = await exploreCoverage({
      machine,
      input: () => ({ rest: unused.rest, token: TOKEN }),
      events: [...events],
    });
    const withoutToken = await exploreCoverage({
      machine,
      input: () => ({ rest: unused.rest, token: '' }),
      events: [...events],
    });
    // A link with a token reaches every state but `noToken`, an address without one that one.
    const report = mergeCoverage(withToken, withoutToken);
    console.info(`resetPassword: ${formatCoverage(report)}`);
    assertFullCoverage(report);
  });
});

describe('resetPasswordMachine', () => {
  function start(respond: (request: SeenRequest) => Response, token = TOKEN) {
    const fake = fakeServer(respond);
    const actor = createActor(resetPasswordMachine, { input: { rest: fake.rest, token } }).start();
    return { fake, actor };
  }

  it('checks the password as the server does before sending, then sends it with the token', async () => {
    const { fake, actor } = start(() => json(200, { message: 'Password changed' }));
    actor.send({ type: 'reset.submit', password: 'abc12345', confirmation: 'abc12345' });
    expect(actor.getSnapshot().context.problem).toBe('weak');
    actor.send({ type: 'reset.submit', password: GOOD, confirmation: `${GOOD}x` });
    expect(actor.getSnapshot().context.problem).toBe('mismatch');
    actor.send({ type: 'reset.edit' });
    expect(actor.getSnapshot().context.problem).toBeNull();
    expect(fake.seen).toEqual([]);
    actor.send({ type: 'reset.submit', password: GOOD, confirmation: GOOD });
    await waitFor(actor, (s) => s.matches('done'));
    expect(fake.seen.map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/api/auth/password-reset/confirm', { token: TOKEN, password: GOOD }],
    ]);
    expect(actor.getSnapshot().context.password).toBe('');
  });

  it('tells a dead link from a weak password and from a failure worth retrying', async () => {
    const answers = [json(400, weak), json(500, { message: 'x' }), json(400, dead)];
    const { actor } = start(() => answers.shift() ?? json(500, {}));
    actor.send({ type: 'reset.submit', password: GOOD, confirmation: GOOD });
    await waitFor(actor, (s) => s.matches('editing') && s.context.problem === 'weak');
    actor.send({ type: 'reset.submit', password: GOOD, confirmation: GOOD });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'reset.submit', password: GOOD, confirmation: GOOD });
    await waitFor(actor, (s) => s.matches('deadLink'));
  });

  it('has nothing to send without a token', () => {
    const { actor } = start(() => json(200, {}), '');
    expect(actor.getSnapshot().matches('noToken')).toBe(true);
  });

  it('reads the token from the fragment only when it looks like one', () => {
    expect(tokenFromFragment(`#token=${TOKEN}`)).toBe(TOKEN);
    expect(tokenFromFragment(`#x=1&token=${TOKEN}`)).toBe(TOKEN);
    expect(tokenFromFragment('#token=<script>')).toBe('');
    expect(tokenFromFragment('')).toBe('');
  });
});
