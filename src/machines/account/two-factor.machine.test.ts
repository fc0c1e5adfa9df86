import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
} from '../test-support/graph-coverage';
import { fakeServer, flush, json, type SeenRequest } from '../test-support/fake-fetch';
import {
  codeProblem,
  twoFactorMachine,
  type TwoFactorActivated,
  type TwoFactorEnrolment,
  type TwoFactorStatus,
} from './two-factor.machine';

const off: TwoFactorStatus = { enabled: false, enrolled_at: null, recovery_codes_left: 0 };
const on: TwoFactorStatus = { enabled: true, enrolled_at: '2026-11-20T18:30:00Z', recovery_codes_left: 9 };
const enrolment: TwoFactorEnrolment = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauth_uri:
    'otpauth://totp/Back-office%20panel:admin%40demo.local?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Back-office+panel',
  qr_svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 37 37"><path d="M4 4h7v7H4z"/></svg>',
};
const codes = [
  'ABCDE-FGHIJ',
  'KLMNO-PQRST',
  'UVWXY-Z2345',
  'A6B7C-D2E3F',
  'GHJKL-MNPQR',
  'STUVW-XYZ23',
  'A2B3C-4D5E6',
  'F7G2H-3J4K5',
  'L6M7N-2P3Q4',
  'R5S6T-7U2V3',
];
const activated: TwoFactorActivated = { enabled: true, enrolled_at: '2026-11-21T10:00:00Z', recovery_codes: codes };
const wrong = new ApiError(400, { message: 'Invalid code', errors: [{ field: 'body/code', message: 'wrong' }] });
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('twoFactorMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: twoFactorMachine.provide({
        actors: { loadStatus: heldPromise(), enrol: heldPromise(), verify: heldPromise(), disable: heldPromise() },
      }),
      input: () => ({ rest: unused.rest }),
      events: [
        doneEvent('loadStatus', off),
        doneEvent('loadStatus', on),
        errorEvent('loadStatus', new ApiError(503, null)),
        { type: 'twoFactor.reload' },
        { type: 'twoFactor.enrol' },
        doneEvent('enrol', enrolment),
        errorEvent('enrol', new ApiError(409, { message: 'already on' })),
        errorEvent('enrol', new TypeError('fetch failed')),
        { type: 'twoFactor.verify', code: '12345' },
        { type: 'twoFactor.verify', code: '123 456' },
        { type: 'twoFactor.cancel' },
        doneEvent('verify', activated),
        errorEvent('verify', wrong),
        errorEvent('verify', new ApiError(409, { message: 'no pending enrolment' })),
        errorEvent('verify', new ApiError(429, { message: 'slow down' })),
        { type: 'twoFactor.acknowledge' },
        { type: 'twoFactor.disable', code: 'nope' },
        { type: 'twoFactor.disable', code: 'abcde-fghij' },
        doneEvent('disable', off),
        errorEvent('disable', wrong),
        errorEvent('disable', new ApiError(409, { message: 'already off' })),
        errorEvent('disable', new ApiError(503, null)),
      ],
    });
    assertFullCoverage(report);
    console.info(`twoFactorMachine: ${formatCoverage(report)}`);
  });
});

describe('twoFactorMachine: against the REST contract', () => {
  function start(answer: (r: SeenRequest) => Response, status: TwoFactorStatus = off) {
    const fake = fakeServer((r) => (r.path === '/api/two-factor' ? json(200, status) : answer(r)));
    const actor = createActor(twoFactorMachine, { input: { rest: fake.rest } }).start();
    return { fake, actor, ctx: () => actor.getSnapshot().context };
  }

  it('enrols, refuses a malformed code locally, a wrong one from the server, then shows the recovery codes once', async () => {
    let attempts = 0;
    const t = start((r) => {
      if (r.path === '/api/two-factor/enrol') return json(200, enrolment);
      attempts += 1;
      return attempts === 1
        ? json(400, { message: 'Invalid code', errors: [{ field: 'body/code', message: 'wrong' }] })
        : json(200, activated);
    });
    await flush();
    expect(t.actor.getSnapshot().value).toBe('disabled');
    t.actor.send({ type: 'twoFactor.enrol' });
    await flush();
    expect(t.ctx().enrolment).toEqual(enrolment);
    t.actor.send({ type: 'twoFactor.verify', code: '12a456' });
    expect(t.ctx().codeError).toBe('twoFactor.errors.codeFormat');
    expect(t.fake.seen.map((r) => r.path)).toEqual(['/api/two-factor', '/api/two-factor/enrol']);
    t.actor.send({ type: 'twoFactor.verify', code: '000000' });
    await flush();
    expect(t.actor.getSnapshot().value).toBe('awaitingCode');
    expect(t.ctx().codeError).toBe('twoFactor.errors.wrongCode');
    t.actor.send({ type: 'twoFactor.verify', code: ' 492 039 ' });
    await flush();
    expect(t.fake.seen.at(-1)).toMatchObject({
      method: 'POST',
      path: '/api/two-factor/verify',
      body: { code: '492039' },
    });
    expect(t.actor.getSnapshot().value).toBe('showingCodes');
    expect(t.ctx()).toMatchObject({
      recoveryCodes: codes,
      enrolment: null,
      notice: 'twoFactor.notices.enabled',
      status: { enabled: true, recovery_codes_left: 10 },
    });
    t.actor.send({ type: 'twoFactor.acknowledge' });
    expect(t.actor.getSnapshot().value).toBe('enabled');
    expect(t.ctx().recoveryCodes).toBeNull();
  });

  it('disables with a recovery code, and says why a wrong one or a throttled one failed', async () => {
    let answer = json(400, { message: 'Invalid code', errors: [{ field: 'body/code', message: 'wrong' }] });
    const t = start(() => answer, on);
    await flush();
    expect(t.actor.getSnapshot().value).toBe('enabled');
    t.actor.send({ type: 'twoFactor.disable', code: '12' });
    expect(t.ctx().codeError).toBe('twoFactor.errors.disableCodeFormat');
    t.actor.send({ type: 'twoFactor.disable', code: '111111' });
    await flush();
    expect(t.ctx().codeError).toBe('twoFactor.errors.wrongCode');
    answer = json(429, { message: 'Too many', retry_after: 60 });
    t.actor.send({ type: 'twoFactor.disable', code: '222222' });
    await flush();
    expect(t.ctx()).toMatchObject({
      codeError: null,
      error: { key: 'twoFactor.errors.disable', reason: 'apiErrors.tooManyRequests' },
    });
    answer = json(200, off);
    t.actor.send({ type: 'twoFactor.disable', code: 'abcde-fghij' });
    await flush();
    expect(t.fake.seen.at(-1)).toMatchObject({ path: '/api/two-factor/disable', body: { code: 'abcde-fghij' } });
    expect(t.actor.getSnapshot().value).toBe('disabled');
    expect(t.ctx()).toMatchObject({ status: off, notice: 'twoFactor.notices.disabled', error: null });
  });

  it('reloads the status when the server says the screen is stale (409)', async () => {
    const fake = fakeServer((r) =>
      r.path === '/api/two-factor' ? json(200, fake.seen.length > 1 ? on : off) : json(409, { message: 'already on' }),
    );
    const actor = createActor(twoFactorMachine, { input: { rest: fake.rest } }).start();
    await flush();
    actor.send({ type: 'twoFactor.enrol' });
    await flush();
    await flush();
    expect(actor.getSnapshot().value).toBe('enabled');
    expect(actor.getSnapshot().context.error).toEqual({ key: 'twoFactor.errors.enrol', reason: 'apiErrors.conflict' });
  });

  it('accepts 6 digits to enrol, and 6 digits or a recovery code to disable', () => {
    expect(codeProblem('123456', 'verify')).toBeNull();
    expect(codeProblem('ABCDE-FGHIJ', 'verify')).toBe('twoFactor.errors.codeFormat');
    expect(codeProblem('abcdefghij', 'disable')).toBeNull();
    expect(codeProblem('ABCDE-FGHI1', 'disable')).toBe('twoFactor.errors.disableCodeFormat');
  });
});
