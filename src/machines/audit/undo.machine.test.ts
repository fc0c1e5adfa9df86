import { createActor } from 'xstate';
import { ApiError } from '../../api/api-error';
import type { RestClient } from '../../api/rest-client';
import {
  assertFullCoverage,
  doneEvent,
  errorEvent,
  exploreCoverage,
  formatCoverage,
  heldPromise,
  type GraphEvent,
} from '../test-support/graph-coverage';
import { fakeServer, json } from '../test-support/fake-fetch';
import type { Outcome } from '../shared/outcome';
import { refusalOf, selectUndo, undoMachine } from './undo.machine';

const conflictBody = {
  message: 'The record changed since this change: nothing was undone',
  error: 'undo_conflict',
  conflicts: [
    { record_id: 7, target_id: 3, target_name: 'Ana', fields: [{ field: 'name', recorded: '"B"', current: '"C"' }] },
  ],
};

describe('undoMachine: model coverage', () => {
  it('shortest, simple and per-edge paths reach every state and transition, the call running exactly while busy', async () => {
    const events: GraphEvent<typeof undoMachine>[] = [
      { type: 'undo' },
      doneEvent('undoRecord', { undone: 7, by: 9 }),
      errorEvent('undoRecord', new ApiError(409, conflictBody)),
      errorEvent('undoRecord', new ApiError(409, { message: 'late', error: 'undo_expired' })),
      errorEvent('undoRecord', new ApiError(409, { message: 'done', error: 'already_undone' })),
      errorEvent('undoRecord', new ApiError(403, { message: 'Forbidden', required_permission: ['users'] })),
      errorEvent('undoRecord', new TypeError('Failed to fetch')),
    ];
    const report = await exploreCoverage({
      machine: undoMachine.provide({ actors: { undoRecord: heldPromise() } }),
      input: () => ({ rest: fakeServer(() => json(500, {})).rest, recordId: 7 }),
      events,
      onStep: ({ actor }) => {
        const snapshot = actor.getSnapshot();
        expect(Object.keys(snapshot.children)).toEqual(snapshot.hasTag('busy') ? ['undoRecord'] : []);
      },
    });
    assertFullCoverage(report);
    console.info(`undoMachine: ${formatCoverage(report)}`);
  });
});

describe('undoMachine', () => {
  function run(respond: Parameters<typeof fakeServer>[0]) {
    const server = fakeServer(respond);
    const actor = createActor(undoMachine, { input: { rest: server.rest as RestClient, recordId: 7 } });
    const outcomes: Outcome[] = [];
    actor.on('outcome', (o) => void outcomes.push(o));
    actor.start();
    actor.send({ type: 'undo' });
    return { actor, outcomes, server };
  }

  it('POSTs /api/audit/{id}/undo and ends undone with the reversing record, toasting success', async () => {
    const seen: string[] = [];
    const { actor, outcomes } = run((request) => {
      seen.push(`${request.method} ${request.path}`);
      return json(200, { undone: 7, by: 9 }, { 'x-audit-record': '9' });
    });
    await vi.waitFor(() => expect(selectUndo(actor.getSnapshot()).state).toBe('undone'));
    expect(seen).toEqual(['POST /api/audit/7/undo']);
    expect(selectUndo(actor.getSnapshot()).by).toBe(9);
    expect(outcomes).toEqual([
      { type: 'outcome', action: 'undo', ok: true, toast: { variant: 'success', title: { key: 'undo.toast.undone' } } },
    ]);
  });

  it('keeps the conflicting fields of a 409 undo_conflict', async () => {
    const { actor, outcomes } = run(() => json(409, conflictBody));
    await vi.waitFor(() => expect(selectUndo(actor.getSnapshot()).state).toBe('conflict'));
    expect(selectUndo(actor.getSnapshot()).conflicts).toEqual(conflictBody.conflicts);
    expect(outcomes[0]).toMatchObject({
      ok: false,
      toast: { variant: 'error', title: { key: 'undo.toast.conflict' } },
    });
  });

  it('tries again from failed', async () => {
    let calls = 0;
    const { actor } = run(() =>
      ++calls === 1 ? json(503, { status: 'unavailable' }) : json(200, { undone: 7, by: 11 }),
    );
    await vi.waitFor(() => expect(selectUndo(actor.getSnapshot()).state).toBe('failed'));
    actor.send({ type: 'undo' });
    await vi.waitFor(() => expect(selectUndo(actor.getSnapshot()).state).toBe('undone'));
    expect(calls).toBe(2);
  });

  it('reads each refusal from its answer', () => {
    expect(refusalOf(new ApiError(409, { error: 'undo_conflict' }))).toBe('conflict');
    expect(refusalOf(new ApiError(409, { error: 'undo_expired' }))).toBe('expired');
    expect(refusalOf(new ApiError(409, { error: 'already_undone' }))).toBe('alreadyUndone');
    expect(refusalOf(new ApiError(409, { error: 'not_undoable' }))).toBe('refused');
    expect(refusalOf(new ApiError(409, { message: 'A tenant with this name already exists', field: 'name' }))).toBe(
      'refused',
    );
    expect(refusalOf(new ApiError(404, { message: 'Audit record not found' }))).toBe('refused');
    expect(refusalOf(new ApiError(403, { message: 'Forbidden' }))).toBe('refused');
    expect(refusalOf(new ApiError(500, null))).toBe('failed');
    expect(refusalOf(new TypeError('Failed to fetch'))).toBe('failed');
  });
});
