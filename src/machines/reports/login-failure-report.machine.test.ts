import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import { isValidRange } from '../../domain/date-range';
import { LOGIN_FAILURE_REPORT_ROWS } from '../../domain/report-limits';
import { loginFailureReportMachine, type LoginFailure } from './login-failure-report.machine';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
} from '../test-support/graph-coverage';
import { fakeServer, flush, json } from '../test-support/fake-fetch';

const range = { startAt: '2026-11-01', finishAt: '2026-11-07' };
const failure: LoginFailure = {
  id: 1,
  created_at: '2026-11-02T12:01:00Z',
  email: 'operador@demo.local',
  ip: '203.0.113.7',
  claimed_ip: '198.51.100.4',
  user_id: 2,
  user_name: 'Olívia',
};
const unused = fakeServer(() => {
  throw new Error('the graph walk must not reach the network');
});

describe('loginFailureReportMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition', async () => {
    const report = await exploreCoverage({
      machine: loginFailureReportMachine.provide({
        actors: { loadReportUsers: heldPromise(), loadLoginFailures: heldPromise() },
      }),
      input: () => ({ rest: unused.rest, ...range }),
      events: [
        doneEvent('loadReportUsers', [{ id: 2, name: 'Olívia', email: 'operador@demo.local' }]),
        errorEvent('loadReportUsers', new ApiError(403, null)),
        { type: 'reports.range', startAt: '2026-11-08', finishAt: '2026-11-01' },
        { type: 'reports.range', ...range },
        { type: 'reports.toggleUser', userId: 2 },
        { type: 'reports.clearUsers' },
        { type: 'reports.run' },
        doneEvent('loadLoginFailures', { rows: [failure], cut: null }),
        errorEvent('loadLoginFailures', new ApiError(500, null)),
      ],
      // `validRange` reads the range.
      serializeContext: (context) => [isValidRange(context.range), context.selectedUsers],
    });
    assertFullCoverage(report);
    console.info(`loginFailureReportMachine: ${formatCoverage(report)}`);
  });
});

const reportUsers = [
  { id: 2, name: 'User 2', email: 'user2@demo.local' },
  { id: 3, name: 'User 3', email: 'user3@demo.local' },
];
const isUsers = (r: { method: string; path: string }) => r.method === 'GET' && r.path === '/api/dashboard-report/users';

describe('loginFailureReportMachine: against the REST contract', () => {
  it('fills the picker from the report users of the tenant and posts the range and the selected users', async () => {
    const fake = fakeServer((r) => (isUsers(r) ? json(200, reportUsers) : json(200, [failure])));
    const actor = createActor(loginFailureReportMachine, {
      input: { rest: fake.rest, tenantName: 'farmacia-central', ...range },
    }).start();
    await flush();
    expect(Object.fromEntries(fake.seen[0]?.query ?? [])).toEqual({ tenantName: 'farmacia-central' });
    expect(actor.getSnapshot().context.users).toEqual(reportUsers);
    actor.send({ type: 'reports.toggleUser', userId: 3 });
    actor.send({ type: 'reports.toggleUser', userId: 2 });
    actor.send({ type: 'reports.toggleUser', userId: 3 });
    actor.send({ type: 'reports.run' });
    await flush();
    expect(fake.seen.at(-1)?.path).toBe('/api/dashboard-report');
    expect(fake.seen.at(-1)?.body).toEqual({ start_at: '2026-11-01', finish_at: '2026-11-07', selectedUsers: [2] });
    expect(actor.getSnapshot().value).toEqual({ editing: 'done' });
    expect(actor.getSnapshot().context.rows).toEqual([failure]);
    // The connection's address and the browser's claim stay apart, as the server sent them.
    expect(actor.getSnapshot().context.rows[0]).toMatchObject({ ip: '203.0.113.7', claimed_ip: '198.51.100.4' });
  });

  it('when the picker cannot be filled it is empty and says so; the report covers everyone', async () => {
    const fake = fakeServer((r) =>
      isUsers(r) ? json(403, { message: 'Forbidden', required_permission: ['dashboard-report'] }) : json(200, []),
    );
    const actor = createActor(loginFailureReportMachine, { input: { rest: fake.rest, ...range } }).start();
    await flush();
    expect(fake.seen[0]?.query.has('tenantName')).toBe(false);
    expect(actor.getSnapshot().context.usersError).toEqual({
      key: 'reports.errors.users',
      reason: 'apiErrors.forbidden',
    });
    actor.send({ type: 'reports.run' });
    await flush();
    expect(fake.seen.at(-1)?.body).toEqual({ start_at: '2026-11-01', finish_at: '2026-11-07', selectedUsers: [] });
  });

  it('refuses a bad range locally; a failed report is an empty list with an error key', async () => {
    let fail = false;
    const fake = fakeServer((r) =>
      isUsers(r) ? json(200, []) : fail ? json(500, { message: 'boom' }) : json(200, [failure]),
    );
    const actor = createActor(loginFailureReportMachine, { input: { rest: fake.rest, ...range } }).start();
    await flush();
    actor.send({ type: 'reports.range', startAt: '2026-02-30', finishAt: '2026-03-01' });
    actor.send({ type: 'reports.run' });
    expect(actor.getSnapshot().context.invalid).toBe('reports.errors.range');
    expect(fake.seen).toHaveLength(1);
    actor.send({ type: 'reports.range', ...range });
    actor.send({ type: 'reports.run' });
    await flush();
    expect(actor.getSnapshot().context.rows).toHaveLength(1);
    fail = true;
    actor.send({ type: 'reports.run' });
    await flush();
    expect(actor.getSnapshot().context.rows).toEqual([]);
    expect(actor.getSnapshot().context.error).toEqual({
      key: 'reports.errors.loginFailures',
      reason: 'apiErrors.server',
    });
  });

  it('a report at its row limit is cut: the sheet of the same request gives the total', async () => {
    const full = Array.from({ length: LOGIN_FAILURE_REPORT_ROWS }, (_, i) => ({ ...failure, id: i + 1 }));
    const isSheet = (r: { path: string }) => r.path === '/api/tenant/sheets/login_failures';
    let sheetFails = false;
    const fake = fakeServer((r) =>
      isUsers(r)
        ? json(200, reportUsers)
        : isSheet(r)
          ? sheetFails
            ? json(500, { message: 'boom' })
            : json(200, { data: [failure], total: 12_345, limit: 1 })
          : json(200, full),
    );
    const actor = createActor(loginFailureReportMachine, { input: { rest: fake.rest, ...range } }).start();
    await flush();
    actor.send({ type: 'reports.toggleUser', userId: 2 });
    actor.send({ type: 'reports.toggleUser', userId: 3 });
    actor.send({ type: 'reports.run' });
    await flush();
    const sheet = fake.seen.at(-1);
    expect(sheet?.path).toBe('/api/tenant/sheets/login_failures');
    expect(sheet?.query.getAll('userId')).toEqual(['2', '3']);
    expect(Object.fromEntries([...(sheet?.query.entries() ?? [])].filter(([k]) => k !== 'userId'))).toEqual({
      ...range,
      limit: '1',
    });
    expect(actor.getSnapshot().context.rows).toHaveLength(LOGIN_FAILURE_REPORT_ROWS);
    expect(actor.getSnapshot().context.cut).toEqual({ range, selectedUsers: [2, 3], total: 12_345 });
    // Without the total the report is still cut ("at least"), not failed.
    sheetFails = true;
    actor.send({ type: 'reports.run' });
    await flush();
    expect(actor.getSnapshot().context.cut).toEqual({ range, selectedUsers: [2, 3], total: null });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a report under its row limit is not cut and asks for no total', async () => {
    const fake = fakeServer((r) =>
      isUsers(r)
        ? json(200, [])
        : json(
            200,
            Array.from({ length: LOGIN_FAILURE_REPORT_ROWS - 1 }, () => failure),
          ),
    );
    const actor = createActor(loginFailureReportMachine, { input: { rest: fake.rest, ...range } }).start();
    await flush();
    actor.send({ type: 'reports.run' });
    await flush();
    expect(actor.getSnapshot().context.cut).toBeNull();
    expect(fake.seen.some((r) => r.path.includes('/sheets/'))).toBe(false);
  });
});
