import { createActor, type AnyStateMachine } from 'xstate';
import { ApiError } from '../../api/api-error';
import type { RestClient } from '../../api/rest-client';
import type { Outcome } from '../shared/outcome';
import { fakeServer, flush, json, type Responder } from '../test-support/fake-fetch';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  type GraphEvent,
} from '../test-support/graph-coverage';
import { supportPerson } from '../test-support/support-fixtures';
import {
  blockMachine,
  endSessionsMachine,
  liftThrottleMachine,
  resetLinkMachine,
  restoreMachine,
  temporaryPasswordMachine,
  twoFactorMachine,
} from './support-actions';
import type { ActionSubject, SupportActionEmitted } from './support-action.machine';

const person = supportPerson();
const subject: ActionSubject = { id: person.user.id, name: person.user.name, email: person.user.email };
const refusal = new ApiError(409, { message: 'Conflict', error: 'already' });
const STRONG = 'Farm#cia!Azul';

/** Each instance with the params it is started with (both sides of its confirmation rule) and its answer. */
const INSTANCES: { name: string; machine: AnyStateMachine; starts: unknown[]; edits: unknown[]; answer: unknown }[] = [
  { name: 'lift throttle', machine: liftThrottleMachine, starts: [{}], edits: [], answer: person },
  {
    name: 'temporary password',
    machine: temporaryPasswordMachine,
    starts: [{ password: '' }],
    edits: [{ password: 'abc' }, { password: STRONG }],
    answer: person,
  },
  {
    name: 'reset link',
    machine: resetLinkMachine,
    starts: [{}],
    edits: [],
    answer: { sent: true, expires_at: '2026-11-28T10:30:00.000Z' },
  },
  {
    name: 'two-factor',
    machine: twoFactorMachine,
    starts: [{ action: 'reset' }, { action: 'require' }, { action: 'unrequire' }],
    edits: [],
    answer: person,
  },
  {
    name: 'end sessions',
    machine: endSessionsMachine,
    starts: [
      { sessionId: 'family-1', device: 'Chrome 131 · Windows' },
      { sessionId: null, device: null },
    ],
    edits: [],
    answer: person,
  },
  { name: 'block', machine: blockMachine, starts: [{ blocked: true }, { blocked: false }], edits: [], answer: person },
  { name: 'restore', machine: restoreMachine, starts: [{}], edits: [], answer: person },
];

describe('support actions: model coverage, one walk per instance', () => {
  it.each(INSTANCES)('$name reaches every state and transition', async ({ machine, starts, edits, answer }) => {
    const events = [
      ...starts.map((params) => ({ type: 'action.start', subject, params })),
      ...edits.map((params) => ({ type: 'action.edit', params })),
      { type: 'action.confirm' },
      { type: 'action.cancel' },
      doneEvent('run', answer),
      errorEvent('run', refusal),
    ] as GraphEvent<AnyStateMachine>[];
    const report = await exploreCoverage({
      machine: machine.provide({ actors: { run: heldPromise() } }),
      input: () => ({ rest: {} as RestClient }),
      events,
      serializeContext: (c: { params: unknown; problem: unknown; refusal: unknown }) => [
        JSON.stringify(c.params),
        c.problem,
        c.refusal,
      ],
      strategies: ['shortest', 'transitions'],
    });
    console.info(`${machine.id}: ${formatCoverage(report)}`);
    assertFullCoverage(report);
  });
});

/** An instance on the real REST client over a fake server answering `respond`; what it emitted, in order. */
function start(machine: AnyStateMachine, respond: Responder) {
  const server = fakeServer(respond);
  const actor = createActor(machine, { input: { rest: server.rest } });
  const emitted: SupportActionEmitted[] = [];
  actor.on('*', (event: SupportActionEmitted) => emitted.push(event));
  actor.start();
  return { actor, server, emitted };
}

const settle = async () => {
  for (let i = 0; i < 4; i += 1) await flush();
};
const outcomes = (emitted: SupportActionEmitted[]) => emitted.filter((e): e is Outcome => e.type === 'outcome');

describe('support actions: what each sends and says', () => {
  it('lift throttle runs at once, posts {} and hands the page the answered person', async () => {
    const lifted = supportPerson({ throttle: { throttled: false, retryAfter: null, failures: 0 } });
    const { actor, server, emitted } = start(liftThrottleMachine, () => json(200, lifted));
    actor.send({ type: 'action.start', subject, params: {} });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await settle();
    expect(server.seen[0]).toMatchObject({ method: 'POST', path: '/api/support/users/12/lift-throttle', body: {} });
    expect(emitted).toEqual([
      {
        type: 'outcome',
        action: 'supportLiftThrottle',
        ok: true,
        toast: { variant: 'success', title: { key: 'support.done.liftThrottle' }, description: 'Joana Silva' },
      },
      { type: 'support.answered', person: lifted },
    ]);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('lift throttle refused (not throttled) toasts why, with nothing else', async () => {
    const { actor, emitted } = start(liftThrottleMachine, () =>
      json(409, { message: 'Not throttled', error: 'not_throttled' }),
    );
    actor.send({ type: 'action.start', subject, params: {} });
    await settle();
    expect(emitted).toEqual([
      {
        type: 'outcome',
        action: 'supportLiftThrottle',
        ok: false,
        toast: {
          variant: 'error',
          title: { key: 'support.failed.liftThrottle' },
          description: { key: 'support.refusals.not_throttled' },
        },
      },
    ]);
  });

  it('temporary password: the dialog refuses a weak one before sending, then sends a strong one', async () => {
    const { actor, server, emitted } = start(temporaryPasswordMachine, () => json(200, person));
    actor.send({ type: 'action.start', subject, params: { password: '' } });
    expect(actor.getSnapshot().value).toBe('dialog');
    actor.send({ type: 'action.edit', params: { password: 'abc12345' } });
    // Typing shows nothing until a try.
    expect(actor.getSnapshot().context.problem).toBeNull();
    actor.send({ type: 'action.confirm' });
    expect(actor.getSnapshot().value).toBe('dialog');
    expect(actor.getSnapshot().context.problem).toBe('users.form.passwordWeak');
    actor.send({ type: 'action.edit', params: { password: 'short' } });
    expect(actor.getSnapshot().context.problem).toBe('users.form.passwordTooShort');
    actor.send({ type: 'action.edit', params: { password: STRONG } });
    expect(actor.getSnapshot().context.problem).toBeNull();
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]).toMatchObject({
      path: '/api/support/users/12/temporary-password',
      body: { password: STRONG },
    });
    expect(outcomes(emitted)[0]?.ok).toBe(true);
    expect(actor.getSnapshot().context.params).toBeNull();
  });

  it("a refusal in a dialog stays in it with the server's reason (403 escalation), and no toast", async () => {
    const { actor, emitted } = start(temporaryPasswordMachine, () =>
      json(403, { message: 'Forbidden', reason: 'only an administrador may change an administrador' }),
    );
    actor.send({ type: 'action.start', subject, params: { password: STRONG } });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(actor.getSnapshot().value).toBe('dialog');
    expect(actor.getSnapshot().context.refusal).toBe('access.actOnAdministrador');
    expect(outcomes(emitted)).toEqual([
      { type: 'outcome', action: 'supportTemporaryPassword', ok: false, toast: null },
    ]);
    // Editing clears the refusal; cancelling closes and forgets the password.
    actor.send({ type: 'action.edit', params: { password: `${STRONG}x` } });
    expect(actor.getSnapshot().context.refusal).toBeNull();
    actor.send({ type: 'action.cancel' });
    expect(actor.getSnapshot().context.params).toBeNull();
  });

  it('reset link: says how long it works, and asks the page to reload (the answer is not the person)', async () => {
    const expires = new Date(Date.now() + 30 * 60_000).toISOString();
    const { actor, server, emitted } = start(resetLinkMachine, () => json(200, { sent: true, expires_at: expires }));
    actor.send({ type: 'action.start', subject, params: {} });
    await settle();
    expect(server.seen[0]).toMatchObject({ path: '/api/support/users/12/reset-link', body: {} });
    expect(outcomes(emitted)[0]?.toast?.title).toEqual({ key: 'support.done.resetLink', params: { count: 30 } });
    expect(emitted[1]).toEqual({ type: 'support.stale' });
  });

  it('reset link with mail off: the 503 mail_disabled says to set a temporary password instead', async () => {
    const { actor, emitted } = start(resetLinkMachine, () =>
      json(503, { status: 'mail_disabled', message: 'Mail is disabled' }),
    );
    actor.send({ type: 'action.start', subject, params: {} });
    await settle();
    expect(outcomes(emitted)[0]?.toast?.description).toEqual({ key: 'support.refusals.mail_disabled' });
  });

  it('two-factor: reset asks first, require does not; each sends its action', async () => {
    const { actor, server } = start(twoFactorMachine, () => json(200, person));
    actor.send({ type: 'action.start', subject, params: { action: 'require' } });
    expect(actor.getSnapshot().value).toBe('running');
    await settle();
    actor.send({ type: 'action.start', subject, params: { action: 'reset' } });
    expect(actor.getSnapshot().value).toBe('dialog');
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(server.seen.map((r) => r.body)).toEqual([{ action: 'require' }, { action: 'reset' }]);
    expect(server.seen.every((r) => r.path === '/api/support/users/12/two-factor')).toBe(true);
  });

  it('two-factor refused with `already` (nothing would change) says so', async () => {
    const { actor, emitted } = start(twoFactorMachine, () => json(409, { message: 'Already', error: 'already' }));
    actor.send({ type: 'action.start', subject, params: { action: 'unrequire' } });
    await settle();
    expect(outcomes(emitted)[0]?.toast).toMatchObject({
      title: { key: 'support.failed.twoFactor.unrequire' },
      description: { key: 'support.refusals.already' },
    });
  });

  it('end sessions: one sends its id, all sends none; a 404 reads as the session having ended', async () => {
    let status = 200;
    const { actor, server } = start(endSessionsMachine, () => json(status, status === 200 ? person : { message: 'x' }));
    actor.send({ type: 'action.start', subject, params: { sessionId: null, device: null } });
    actor.send({ type: 'action.confirm' });
    await settle();
    status = 404;
    actor.send({ type: 'action.start', subject, params: { sessionId: 'family-1', device: 'Firefox · Linux' } });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(server.seen.map((r) => r.body)).toEqual([{}, { session_id: 'family-1' }]);
    expect(server.seen[0]?.path).toBe('/api/support/users/12/sessions/end');
    expect(actor.getSnapshot().value).toBe('dialog');
    expect(actor.getSnapshot().context.refusal).toBe('support.refusals.sessionGone');
  });

  it('block asks first and sends blocked: true; unblock runs at once with blocked: false', async () => {
    const { actor, server } = start(blockMachine, () => json(200, person));
    actor.send({ type: 'action.start', subject, params: { blocked: true } });
    expect(actor.getSnapshot().value).toBe('dialog');
    actor.send({ type: 'action.cancel' });
    expect(server.seen).toHaveLength(0);
    actor.send({ type: 'action.start', subject, params: { blocked: false } });
    await settle();
    expect(server.seen[0]).toMatchObject({ path: '/api/support/users/12/block', body: { blocked: false } });
  });

  it.each([
    ['email_taken', 'support.refusals.email_taken'],
    ['username_taken', 'support.refusals.username_taken'],
    ['tenant_deleted', 'support.refusals.tenant_deleted'],
    ['not_deleted', 'support.refusals.not_deleted'],
  ])('restore refused with %s says %s', async (code, key) => {
    const { actor, server, emitted } = start(restoreMachine, () => json(409, { message: 'Conflict', error: code }));
    actor.send({ type: 'action.start', subject, params: {} });
    await settle();
    expect(server.seen[0]).toMatchObject({ path: '/api/support/users/12/restore', body: {} });
    expect(outcomes(emitted)[0]?.toast?.description).toEqual({ key });
  });
});
