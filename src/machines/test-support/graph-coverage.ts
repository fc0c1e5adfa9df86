/**
 * Model-based coverage for XState machines (docs/architecture.md, How to add a machine).
 *
 * {@link exploreCoverage} asks `@xstate/graph` for paths through a machine (shortest paths, simple
 * paths, and one path per edge of the adjacency map, so self-loops and edges back to visited states
 * are walked too), then replays every path on a REAL actor of the same machine and records, through
 * XState's inspection API, which state nodes were entered and which transition definitions were
 * taken. {@link assertFullCoverage} then fails listing every state node and transition never reached,
 * every step where the real actor did not land where the graph predicted, and every error thrown.
 *
 * ## How async actors are resolved deterministically
 *
 * The graph is built from pure `machine.transition` calls, so it never runs actors. Completions of
 * invoked actors are ordinary events of the explored event list:
 *
 * ```ts
 * events: [
 *   { type: 'session.login', email: 'a@b.c', password: 'x' },
 *   doneEvent('login', { access_token: 't', ... }),   // xstate.done.actor.login
 *   errorEvent('login', new Error('401')),            // xstate.error.actor.login
 * ]
 * ```
 *
 * When the real actor is driven, such an event is sent to it as is, which is exactly what the
 * invoked child would have sent. For that to be deterministic the machine must be `provide()`d with
 * actors that never complete on their own: {@link heldPromise} (a `fromPromise` that never settles)
 * and {@link idleCallback} (a `fromCallback` that sends nothing). Anything the callback actor would
 * report (a socket `open`, a `storage` event) is likewise an event in the list.
 *
 * Delayed transitions (`after`) need nothing: the walk offers their `xstate.after.<delay>.<state id>`
 * events by itself. Every driven actor runs on its own `SimulatedClock` that is never advanced
 * unless a custom driver does it, so real timers never fire behind the walk's back.
 *
 * In each state only the listed events that enable a transition (one whose guard passes, even a
 * targetless one without actions) are explored; an event type missing from the list is never invented, so its
 * transitions show up as missing in the report. (Unlike `@xstate/graph`'s own default, a listed
 * event is never offered to a state that ignores it: an unhandled `xstate.error.actor.*` would put
 * the actor in error.)
 *
 * To drive an event differently (resolve a fake client's deferred, make a fake WebSocket fire
 * `open`, advance the clock), give a driver for its type in `drive`; it receives the actor, its clock
 * and the path's input, and may be async ({@link DriveContext.settle} flushes pending promises).
 *
 * The graph's state key is the state value plus `serializeContext(context)` (default: nothing).
 * Project exactly the context a guard depends on (a counter, a flag), or guarded branches behind
 * it stay unexplored and show up as missing in the report.
 */
import { getStateNodes } from '@xstate/graph';
import { getCurrentTest } from 'vitest/suite';
import {
  createActor,
  fromCallback,
  fromPromise,
  isMachineSnapshot,
  SimulatedClock,
  type Actor,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type CallbackActorLogic,
  type EventObject,
  type InputFrom,
  type NonReducibleUnknown,
  type PromiseActorLogic,
} from 'xstate';
import {
  graphPaths,
  type ActorDoneEvent,
  type ActorErrorEvent,
  type GraphEvent,
  type PathOptions,
} from './graph-paths';

export type {
  ActorDoneEvent,
  ActorErrorEvent,
  AfterEvent,
  GraphEvent,
  PathOptions,
  PathStrategy,
  SimpleScenario,
  WalkPath,
} from './graph-paths';

declare module 'vitest' {
  interface TaskMeta {
    /** The model walks a test ran: the machine's id, paths and steps (see model-coverage-reporter.ts). */
    modelCoverage?: { machine: string; paths: number; steps: number }[];
  }
}

/** Handed to custom drivers, once per path. */
export interface DriveContext<TMachine extends AnyStateMachine> {
  actor: Actor<TMachine>;
  clock: SimulatedClock;
  input: InputFrom<TMachine> | undefined;
  /** Resolves after every pending promise reaction has run (one macrotask). */
  settle: () => Promise<void>;
}

/** Sends one graph event to the real actor in a custom way. */
export type Driver<TMachine extends AnyStateMachine> = (
  context: DriveContext<TMachine>,
  event: GraphEvent<TMachine>,
) => void | Promise<void>;

export interface CoverageOptions<TMachine extends AnyStateMachine> extends PathOptions<TMachine> {
  /** Custom drivers by event type; default is `actor.send(event)`. */
  drive?: Partial<Record<string, Driver<TMachine>>>;
  /** Runs after every step on the real actor, e.g. to assert an invariant; a throw is reported. */
  onStep?: (context: DriveContext<TMachine>, event: GraphEvent<TMachine>) => void | Promise<void>;
  /**
   * The clock of each driven actor, given the path's input (default: a fresh `SimulatedClock`), e.g. one
   * that counts its pending timers for an `onStep` property.
   */
  clock?: (input: InputFrom<TMachine> | undefined) => SimulatedClock;
}

/** What one exploration reached. All names are readable (`session.loggingIn`, `a --ev[0]--> b`). */
export interface CoverageReport {
  paths: number;
  steps: number;
  states: { total: number; reached: string[]; missing: string[] };
  transitions: { total: number; reached: string[]; missing: string[] };
  /** Steps where the real actor's state value differed from the graph's prediction. */
  divergences: string[];
  /** Errors thrown while driving (actions, drivers, `onStep`). */
  errors: string[];
}

/** `xstate.done.actor.<id>` with an output, for the `events` list. */
export function doneEvent(actorId: string, output?: unknown): ActorDoneEvent {
  return { type: `xstate.done.actor.${actorId}`, output };
}

/** `xstate.error.actor.<id>` with an error, for the `events` list. */
export function errorEvent(actorId: string, error: unknown): ActorErrorEvent {
  return { type: `xstate.error.actor.${actorId}`, error };
}

/** A `fromPromise` stand-in that never settles: its completion comes from the walk's events. */
export function heldPromise<TOutput, TInput = NonReducibleUnknown>(): PromiseActorLogic<TOutput, TInput> {
  return fromPromise<TOutput, TInput>(() => new Promise<TOutput>(() => undefined));
}

/** A `fromCallback` stand-in that sends nothing: whatever it would report comes from the walk's events. */
export function idleCallback<
  TEvent extends EventObject = EventObject,
  TInput = NonReducibleUnknown,
>(): CallbackActorLogic<TEvent, TInput> {
  return fromCallback<TEvent, TInput>(() => undefined);
}

function guardName(transition: AnyTransitionDefinition): string {
  const guard: unknown = transition.guard;
  if (guard === undefined) return '';
  if (typeof guard === 'string') return ` if ${guard}`;
  if (guard && typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string')
    return ` if ${guard.type}`;
  return ' if <inline guard>';
}

/** Every transition definition of the machine, keyed by a readable, stable name. */
function transitionCatalogue(machine: AnyStateMachine): Map<AnyTransitionDefinition, string> {
  const names = new Map<AnyTransitionDefinition, string>();
  const nodes: AnyStateNode[] = [machine.root, ...getStateNodes(machine.root)];
  for (const node of nodes) {
    const groups: [string, readonly AnyTransitionDefinition[]][] = [...node.transitions.entries()];
    if (node.always) groups.push(['(always)', node.always]);
    for (const [eventType, list] of groups) {
      list.forEach((transition, index) => {
        const targets = transition.target?.map((t) => t.id).join(', ') ?? '(self, no target)';
        names.set(transition, `${node.id} --${eventType}[${index}]${guardName(transition)}--> ${targets}`);
      });
    }
  }
  return names;
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Builds the graph of `options.machine`, walks the chosen path families on real actors and reports
 * which state nodes and transitions were reached. Use with {@link assertFullCoverage}.
 *
 * @example
 * ```ts
 * const report = await exploreCoverage({
 *   machine: sessionMachine.provide({ actors: { login: heldPromise(), lookupIp: heldPromise() } }),
 *   input: () => ({ storage: fakeStorage() }),
 *   events: [{ type: 'session.login', email, password }, doneEvent('login', answer), errorEvent('login', err)],
 * });
 * assertFullCoverage(report);
 * ```
 */
export async function exploreCoverage<TMachine extends AnyStateMachine>(
  options: CoverageOptions<TMachine>,
): Promise<CoverageReport> {
  const machine: AnyStateMachine = options.machine;
  const walked = graphPaths(options);
  const catalogue = transitionCatalogue(machine);
  const allStates = getStateNodes(machine.root).map((n) => n.id);
  const reachedStates = new Set<string>();
  const reachedTransitions = new Set<string>();
  const divergences: string[] = [];
  const errors: string[] = [];
  let steps = 0;

  const markNodes = (snapshot: AnyMachineSnapshot) => {
    for (const node of snapshot._nodes) reachedStates.add(node.id);
  };

  for (const path of walked) {
    const input = options.input?.();
    const clock = options.clock?.(input) ?? new SimulatedClock();
    const actor = createActor(machine, {
      clock,
      ...(input === undefined ? {} : { input }),
      inspect: (inspection) => {
        // The root's own microsteps (initial eventless ones run inside createActor, before it returns).
        if (inspection.type !== '@xstate.microstep' || inspection.actorRef.sessionId !== inspection.rootId) return;
        for (const transition of inspection._transitions) {
          const name = catalogue.get(transition);
          if (name) reachedTransitions.add(name);
          reachedStates.add(transition.source.id);
        }
        if (isMachineSnapshot(inspection.snapshot)) markNodes(inspection.snapshot);
      },
    });
    // An actor in error status rethrows asynchronously unless someone listens.
    actor.subscribe({
      error: (error) => errors.push(`actor error: ${error instanceof Error ? error.message : String(error)}`),
    });
    const context = { actor, clock, input, settle } as DriveContext<TMachine>;
    const trail: string[] = [];
    try {
      actor.start();
      markNodes(actor.getSnapshot());
      // Paths come "altered": steps[0] is the initial state (xstate.init) and every later step holds
      // the event that led into its state.
      for (const step of path.steps.slice(1)) {
        const event = step.event;
        trail.push(event.type);
        steps += 1;
        const before = actor.getSnapshot().status;
        if (before !== 'active') throw new Error(`actor is ${before} before ${event.type}`);
        const driver = options.drive?.[event.type];
        if (driver) await driver(context, event as GraphEvent<TMachine>);
        else actor.send(event);
        const real = actor.getSnapshot();
        markNodes(real);
        if (JSON.stringify(real.value) !== JSON.stringify(step.state.value) || real.status !== step.state.status) {
          divergences.push(
            `after ${trail.join(' → ')}: expected ${JSON.stringify(step.state.value)} (${step.state.status}), got ${JSON.stringify(real.value)} (${real.status})`,
          );
          break;
        }
        await options.onStep?.(context, event as GraphEvent<TMachine>);
      }
    } catch (error) {
      errors.push(`after ${trail.join(' → ') || '(start)'}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      actor.stop();
    }
  }

  // Recorded on the running test for model-coverage-reporter.ts (paths and steps per machine and in total).
  const test = getCurrentTest();
  if (test) (test.meta.modelCoverage ??= []).push({ machine: machine.id, paths: walked.length, steps });

  const allTransitions = [...catalogue.values()];
  return {
    paths: walked.length,
    steps,
    states: {
      total: allStates.length,
      reached: allStates.filter((s) => reachedStates.has(s)),
      missing: allStates.filter((s) => !reachedStates.has(s)),
    },
    transitions: {
      total: allTransitions.length,
      reached: allTransitions.filter((t) => reachedTransitions.has(t)),
      missing: allTransitions.filter((t) => !reachedTransitions.has(t)),
    },
    divergences,
    errors,
  };
}

/** One line for a test log: `states 12/12, transitions 30/30, 41 paths, 160 steps`. */
export function formatCoverage(report: CoverageReport): string {
  return `states ${report.states.reached.length}/${report.states.total}, transitions ${report.transitions.reached.length}/${report.transitions.total}, ${report.paths} paths, ${report.steps} steps`;
}

/**
 * Throws (failing the test) unless every state node and every transition was reached, the real
 * actor followed the graph on every step, and nothing threw. The message lists everything missing.
 */
export function assertFullCoverage(report: CoverageReport): void {
  const problems: string[] = [];
  if (report.states.missing.length) problems.push(`states never reached:\n  ${report.states.missing.join('\n  ')}`);
  if (report.transitions.missing.length)
    problems.push(`transitions never taken:\n  ${report.transitions.missing.join('\n  ')}`);
  if (report.divergences.length)
    problems.push(`real actor diverged from the graph:\n  ${report.divergences.join('\n  ')}`);
  if (report.errors.length) problems.push(`errors while driving:\n  ${report.errors.join('\n  ')}`);
  if (report.paths === 0) problems.push('no path was walked');
  if (problems.length) throw new Error(`Incomplete model coverage (${formatCoverage(report)})\n${problems.join('\n')}`);
}
