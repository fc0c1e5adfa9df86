import {
  createActor,
  SimulatedClock,
  type Actor,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type EventObject,
  type InputFrom,
} from 'xstate';
import { graphPaths, type GraphEvent, type PathOptions, type WalkPath } from '../test-support/graph-paths';

/**
 * The model-based paths of a machine (../test-support/graph-paths.ts) replayed on the REAL machine, with
 * its real actors, against a live server: the conformance kit's `machines` group
 * (packages/conformance/src/kit-machines.ts) and tests/contract/conformance/machines-live.test.ts.
 *
 * The graph is the same `@xstate/graph` walk the fakes use, over a LIVE model: in a state where a real
 * actor is at work (a request in flight, a socket opening), the model offers only the outcome the target
 * server is expected to give, so every path is one the server can actually take. Replaying a path:
 * - an event the world delivers ({@link LiveModel.awaited}: an actor's answer, a socket's `open`, a bulk
 *   result) is not sent; the walk waits until the real actor passes through the state the graph
 *   predicts (the model may first {@link LiveModel.cause} it, e.g. resolve a lookup it controls);
 * - a delayed transition's event is sent as is: each actor runs on a `SimulatedClock` never advanced,
 *   so no real timer fires behind the walk's back;
 * - any other event is sent (rewritten by {@link LiveModel.rewrite} with live data, e.g. the live
 *   token) and the actor must be in the predicted state at once.
 * After every step the model's {@link LiveModel.check} runs its live properties; problems are collected.
 */

/** How one path's replay meets the world: its input and what to undo afterwards. */
export interface LivePath<TMachine extends AnyStateMachine> {
  input: InputFrom<TMachine>;
  /** Called with the path's actor before it starts (clients that reach the actor, e.g. the session seam). */
  bind?: (actor: Actor<TMachine>) => void;
  /** Runs after the path whatever happened (sign out, restore the server's state). */
  cleanup?: (actor: Actor<TMachine>) => Promise<void>;
}

/** One step as a live property sees it. */
export interface LiveStep<TMachine extends AnyStateMachine> {
  actor: Actor<TMachine>;
  event: GraphEvent<TMachine>;
  /** The snapshot before the step. */
  before: AnyMachineSnapshot;
}

export interface LiveModel<TMachine extends AnyStateMachine> {
  name: string;
  /** The graph: the machine, its input for the pure walk, the live events per state. */
  paths: PathOptions<TMachine>;
  /** Events the world delivers; the walk waits for them. */
  awaited: (event: EventObject) => boolean;
  /** Makes an awaited event happen when the model controls it (default: nothing, it comes by itself). */
  cause?: (event: EventObject, actor: Actor<TMachine>) => void;
  /** The event to send instead of the graph's (live ids, tokens); default the graph's. */
  rewrite?: (event: EventObject, actor: Actor<TMachine>) => EventObject;
  /** Builds one path's real input (fresh clients, fresh counters). */
  start: () => Promise<LivePath<TMachine>>;
  /** Live properties after a step; returns the problems found. */
  check?: (step: LiveStep<TMachine>) => Promise<string[]>;
  /** Longest wait for an awaited event, in milliseconds (default 15 000). */
  timeoutMs?: number;
}

/** What one machine's live replay covered. */
export interface LiveReport {
  machine: string;
  paths: number;
  steps: number;
  problems: string[];
}

const sameState = (a: AnyMachineSnapshot, value: unknown, status: string): boolean =>
  a.status === status && JSON.stringify(a.value) === JSON.stringify(value);

/** The paths a model's graph gives, without replaying them (for counts). */
export function livePaths<TMachine extends AnyStateMachine>(model: LiveModel<TMachine>): WalkPath[] {
  return graphPaths(model.paths);
}

/** Replays every path of `model` against the live server. */
export async function replayLive<TMachine extends AnyStateMachine>(model: LiveModel<TMachine>): Promise<LiveReport> {
  const walked = livePaths(model);
  const timeoutMs = model.timeoutMs ?? 15_000;
  const problems: string[] = [];
  let steps = 0;
  for (const [index, path] of walked.entries()) {
    const trail: string[] = [];
    const where = () => `path ${index + 1}/${walked.length}, after ${trail.join(' → ') || '(start)'}`;
    const live = await model.start();
    const history: AnyMachineSnapshot[] = [];
    const waiters = new Set<() => void>();
    // Driven untyped (graph events and snapshots are the machine-agnostic kind); the model gets its typed view.
    const machine: AnyStateMachine = model.paths.machine;
    const untyped: Actor<AnyStateMachine> = createActor(machine, { input: live.input, clock: new SimulatedClock() });
    const actor = untyped as unknown as Actor<TMachine>;
    live.bind?.(actor);
    untyped.subscribe({
      next: (snapshot) => {
        history.push(snapshot);
        for (const wake of waiters) wake();
      },
      error: (error) => problems.push(`${where()}: actor error: ${(error as Error).message}`),
    });
    /** Waits until a snapshot from `cursor` on is in the predicted state; returns the index after it. */
    const reach = (cursor: number, value: unknown, status: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const look = (): boolean => {
          for (let i = cursor; i < history.length; i += 1) {
            const seen = history[i];
            if (seen && sameState(seen, value, status)) {
              resolve(i + 1);
              return true;
            }
          }
          return false;
        };
        if (look()) return;
        const timer = setTimeout(() => {
          waiters.delete(wake);
          const last = history.at(-1) ?? untyped.getSnapshot();
          reject(
            new Error(
              `expected ${JSON.stringify(value)} (${status}) within ${timeoutMs} ms, the actor is in ${JSON.stringify(last.value)} (${last.status})`,
            ),
          );
        }, timeoutMs);
        const wake = () => {
          if (look()) {
            clearTimeout(timer);
            waiters.delete(wake);
          }
        };
        waiters.add(wake);
      });
    try {
      untyped.start();
      history.push(untyped.getSnapshot());
      const first = path.steps[0];
      let cursor = first ? await reach(0, first.state.value, first.state.status) : history.length;
      for (const step of path.steps.slice(1)) {
        const event = step.event;
        trail.push(event.type);
        steps += 1;
        const before = untyped.getSnapshot();
        if (model.awaited(event)) {
          model.cause?.(event, actor);
          cursor = await reach(cursor, step.state.value, step.state.status);
        } else {
          untyped.send(model.rewrite ? model.rewrite(event, actor) : event);
          const now = untyped.getSnapshot();
          if (!sameState(now, step.state.value, step.state.status))
            throw new Error(
              `expected ${JSON.stringify(step.state.value)} (${step.state.status}), got ${JSON.stringify(now.value)} (${now.status})`,
            );
          cursor = history.length;
        }
        const found = (await model.check?.({ actor, event: event as GraphEvent<TMachine>, before })) ?? [];
        for (const problem of found) problems.push(`${where()}: ${problem}`);
        if (found.length > 0) break;
      }
    } catch (error) {
      problems.push(`${where()}: ${(error as Error).message}`);
    } finally {
      try {
        await live.cleanup?.(actor);
      } catch (error) {
        problems.push(`path ${index + 1}: cleanup failed: ${(error as Error).message}`);
      }
      actor.stop();
    }
  }
  return { machine: model.name, paths: walked.length, steps, problems };
}
