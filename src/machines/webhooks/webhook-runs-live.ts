import { fromCallback } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import type { AppBus } from '../shared/app-bus';
import type { SocketActor } from '../realtime/socket.machine';

export type WebhookRun = components['schemas']['WebhookRun'];

/** What {@link watchRuns} tells its machine. */
export type RunsLiveEvent = { type: 'runs.progress'; run: WebhookRun } | { type: 'runs.reconnected' };

/**
 * A run's progress as it happens (contracts/socket.md, `WebhookRunProgress`): every run of the tenant
 * that moved on, and `runs.reconnected` each time the socket opens again (events missed while it was
 * away are not replayed, so the machine reads its runs again: `GET /api/webhooks/runs/{id}`). Without a
 * bus or socket (tests) it says nothing of that part.
 */
export const watchRuns = fromCallback<
  RunsLiveEvent,
  { bus: AppBus | null; socket: SocketActor | null; tenantName: string }
>(({ input, sendBack }) => {
  const off = input.bus?.on('webhookRunProgress', (message) => {
    if (message.data.tenantName === input.tenantName) sendBack({ type: 'runs.progress', run: message.data });
  });
  const subscription = input.socket?.on('socket.connected', () => sendBack({ type: 'runs.reconnected' }));
  return () => {
    off?.();
    subscription?.unsubscribe();
  };
});

/** One run read again. */
export async function readRun(rest: RestClient, id: number, signal?: AbortSignal): Promise<WebhookRun> {
  return unwrap(await rest.GET('/api/webhooks/runs/{id}', { params: { path: { id } }, ...(signal && { signal }) }));
}

/** The list with `run` in place of the one with its id (unchanged when it holds none). */
export function replaceRun(list: readonly WebhookRun[], run: WebhookRun): WebhookRun[] {
  return list.map((r) => (r.id === run.id ? run : r));
}

/** Whether a run still has deliveries to settle. */
export const runOpen = (run: Pick<WebhookRun, 'pending' | 'finished_at'>) =>
  run.pending > 0 || run.finished_at === null;

/**
 * Runs as last known, with a count of the socket's news per run: a read answers for the moment it was
 * asked, so an answer is kept only when no news of that run came in while it was under way.
 */
export interface LiveRuns {
  runs: Record<number, WebhookRun>;
  seq: Record<number, number>;
}

export const emptyLiveRuns = (): LiveRuns => ({ runs: {}, seq: {} });

/** The socket's news of a run: always the latest. */
export function liveProgress(live: LiveRuns, run: WebhookRun): LiveRuns {
  return { runs: { ...live.runs, [run.id]: run }, seq: { ...live.seq, [run.id]: (live.seq[run.id] ?? 0) + 1 } };
}

/** A read's answer, asked when the run's news count was `seq`: kept unless news came in since. */
export function liveRead(live: LiveRuns, run: WebhookRun, seq: number): LiveRuns {
  if ((live.seq[run.id] ?? 0) !== seq) return live;
  return { ...live, runs: { ...live.runs, [run.id]: run } };
}

/** What the reader is asked: the run and its news count at the time. */
export interface RunReadRequest {
  type: 'runs.read';
  id: number;
  seq: number;
}

/** What the reader answers. */
export type RunReadAnswer = { type: 'runs.answer'; run: WebhookRun; seq: number };

/**
 * Reads runs on request (`runs.read`) and answers each with `runs.answer`; a failed read is dropped (the
 * socket's next news or the next reconnect brings the run).
 */
export const runReader = fromCallback<RunReadRequest, { rest: RestClient }>(({ input, sendBack, receive }) => {
  const controller = new AbortController();
  receive((request) => {
    readRun(input.rest, request.id, controller.signal).then(
      (run) => {
        const answer: RunReadAnswer = { type: 'runs.answer', run, seq: request.seq };
        if (!controller.signal.aborted) sendBack(answer);
      },
      () => undefined,
    );
  });
  return () => controller.abort();
});
